"""The card table in the browser: ``rulelang serve`` (needs the extra ``rulelang[web]``).

:func:`~rulelang.web.app.create_app` builds the Starlette app: a lobby of the shipped
games and uploaded rule files, tables with people and agents in the seats, each person
reached by a secret seat link and shown only their seat's ``observation`` (live, over a
WebSocket), tables kept in SQLite so a restart resumes them, finished matches downloaded
as ``rulelang-log/1`` logs. The pages are drawn from the compiled rules, for any game.
"""
