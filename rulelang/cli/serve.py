"""``rulelang serve``: the card table in the browser (needs the extra ``rulelang[web]``).

Starts the web server (:mod:`rulelang.web`) with uvicorn and prints its URL. Tables and
uploaded rule files are kept in the storage directory (``--store``), so a restart
resumes every table where it stood.
"""

from __future__ import annotations

import sys

from rulelang.cli.args import UsageError, at_least


STOP_SECONDS = 3
"""On SIGTERM or Ctrl-C, requests still running get this long before the server stops anyway."""


def register_serve(sub) -> None:
    """Add ``serve``."""
    p = sub.add_parser("serve", help="a card table in the browser: people and bots play any rule file together")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for the "
                                                       "whole local network)")
    p.add_argument("--port", type=at_least(0), default=8000, help="port to listen on (default 8000)")
    p.add_argument("--store", default="rulelang-tables", metavar="DIR",
                   help="where tables and uploads are kept (default ./rulelang-tables)")
    p.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                   help="pause after each agent's move, so people can follow (default 0.6)")
    p.set_defaults(handler=cmd_serve)


def cmd_serve(args) -> int:
    """Run the web server until it is stopped."""
    try:
        import uvicorn
        from rulelang.web.app import create_app
    except ImportError:
        raise UsageError("rulelang serve needs the web extra: pip install 'rulelang[web]'") from None
    if not 0 <= args.bot_delay <= 60:
        raise UsageError(f"--bot-delay {args.bot_delay}: from 0 to 60 seconds")
    from rulelang.web.store import StoreError
    try:
        app = create_app(args.store, bot_delay=args.bot_delay)
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            timeout_graceful_shutdown=STOP_SECONDS)
    server = uvicorn.Server(config)
    shown_host = f"[{args.host}]" if ":" in args.host else args.host
    sys.stdout.write(f"rulelang serve: http://{shown_host}:{args.port}/  (tables kept in {args.store}; "
                     "Ctrl-C stops)\n")
    sys.stdout.flush()
    server.run()
    return 0
