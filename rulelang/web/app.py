"""The web server's routes: the lobby, the tables, each seat's live view and its moves.

Pages are static files drawn by script from JSON, so they work for any rule file. A seat
is reached by a link ``/t/<table>#<token>``: the token stays in the page (the fragment is
never sent in a request line) and goes with each request in the ``X-Seat-Token`` header,
or as the first message on the seat's WebSocket. Every reply to a seat is made by
:func:`~rulelang.web.views.seat_view` for that seat alone. Agents and chance move in a
background task after each person's move, each move shown live to every seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from importlib import resources

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from rulelang.diagnostics import RuleError
from rulelang.web.lobby import LobbyError, check_upload, diagnostic_view, load_for_table, seat_kinds, seat_names, shipped
from rulelang.web.checks import Checker, CheckRefused
from rulelang.web.store import StaleTable, Store
from rulelang.web.tables import PERSON, Table, new_token
from rulelang.web.views import seat_view

MAX_BODY = 2 << 20
"""No request body is read past this many bytes (an upload is limited further, like any rule file)."""
MAX_DEALS = 1000
MAX_TABLES_CACHED = 200
MAX_JSON_DEPTH = 400
"""No request body is parsed that nests deeper than this many brackets."""
BODY_SECONDS = 10.0
"""A request body must arrive whole within this many seconds (a slow or short body is answered with 408)."""
TOKEN_SECONDS = 5.0
"""A WebSocket must send its seat token within this many seconds, or it is closed."""


class BadRequest(Exception):
    """A request that cannot be carried out: HTTP ``status`` and a message for the person."""

    def __init__(self, status: int, message: str, **extra):
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


class Server:
    """The state of one server: its storage, the tables in memory, who listens to which seat."""

    def __init__(self, folder: str, bot_delay: float = 0.4):
        self.store = Store(folder)
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.listeners: dict[str, dict[int, set]] = {}
        self.tasks: set = set()
        self.running: set[str] = set()
        self.checker = Checker()

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock every change of one table takes."""
        return self.locks.setdefault(table_id, asyncio.Lock())

    async def table(self, table_id: str) -> Table:
        """The table ``table_id``, from memory or rebuilt from storage (then its agents go on moving)."""
        found = self.tables.get(table_id)
        if found is not None:
            return found
        row = self.store.table_row(table_id) if len(table_id) < 64 else None
        if row is None:
            raise BadRequest(404, "there is no such table on this server")
        async with self.lock(table_id):
            found = self.tables.get(table_id)
            if found is None:
                found = await self.rebuild(row)
        self.kick(found)
        return found

    async def rebuild(self, row: dict) -> Table:
        """A stored table made anew by replaying its history, and kept in memory."""
        game = await run_in_threadpool(load_for_table, self.store, row["ref"], row["deals"])
        table = Table(row["id"], row["ref"], game, row["kinds"], row["tokens"], row["seed"], row["history"],
                      renames=self.renames(row["ref"]), names=row["names"] or [""] * len(row["kinds"]), deals=row["deals"],
                      next_id=row["next_id"])
        await run_in_threadpool(table.start)
        idle = [known for known in self.tables if known not in self.running]
        if len(self.tables) >= MAX_TABLES_CACHED and idle:
            self.tables.pop(idle[0])
        self.tables[table.id] = table
        return table

    async def seat(self, table_id: str, token: str | None) -> tuple[Table, int]:
        """The table and the seat that ``token`` opens; 403 when it opens none."""
        table = await self.table(table_id)
        seat = table.seat_of(token or "")
        if seat is None:
            raise BadRequest(403, "this link opens no seat at this table; ask for your own seat link")
        return table, seat

    # ------------------------------------------------------------------ live updates
    async def broadcast(self, table: Table) -> None:
        """Send every listening seat its own view of the table."""
        for seat, sockets in list(self.listeners.get(table.id, {}).items()):
            text = json.dumps(seat_view(table, seat), ensure_ascii=False)
            for socket in list(sockets):
                try:
                    await socket.send_text(text)
                except Exception:   # a closed socket: forget it
                    sockets.discard(socket)

    def kick(self, table: Table) -> None:
        """Let the agents and chance move in the background until a person is to act."""
        if table.bots_to_move() and table.id not in self.running:
            self.running.add(table.id)
            task = asyncio.get_running_loop().create_task(self.advance(table))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def advance(self, table: Table) -> None:
        """Agents and chance move one at a time; each move is kept, and shown to every seat."""
        try:
            while True:
                async with self.lock(table.id):
                    if not table.bots_to_move():
                        return
                    chance = table.state.is_chance_node()
                    await run_in_threadpool(table.bot_step)
                    while chance and table.state.is_chance_node() and table.bots_to_move():
                        await run_in_threadpool(table.bot_step)     # a run of chance is shown once it is stored
                    self.save(table)
                    await self.broadcast(table)
                if self.bot_delay and not chance:
                    await asyncio.sleep(self.bot_delay)
        except BadRequest:      # another server stored this table's steps: this copy was dropped
            return
        finally:
            self.running.discard(table.id)

    def save(self, table: Table) -> None:
        """Store the table's new steps before anyone is shown them; 409 when another server stored them first
        (this copy is then dropped, and the next request rebuilds the table from the store)."""
        try:
            self.store.save_history(table)
        except StaleTable:
            self.tables.pop(table.id, None)
            raise BadRequest(409, "this table was changed elsewhere since you saw it; reload the page") from None

    def close(self) -> None:
        """Stop the checks of uploads still running and the store (another server may use it then)."""
        self.checker.stop()
        self.store.close()

    async def open_table(self, ref: str, game, kinds: list[str], names: list[str], deals: int | None,
                         seed: int | None = None) -> Table:
        """A new table, kept and started: its agents and chance make the first moves in the background."""
        tokens = [new_token() if kind == PERSON else None for kind in kinds]
        seed = secrets.randbelow(1 << 31) if seed is None else seed
        table = Table(secrets.token_urlsafe(9), ref, game, kinds, tokens, seed,
                      renames=self.renames(ref), names=names, deals=deals)
        await run_in_threadpool(table.start)
        self.store.add_table(table, time.time())
        self.tables[table.id] = table
        self.kick(table)
        return table

    def renames(self, ref: str) -> tuple[tuple[str, str], ...]:
        """How texts shown at a table of ``ref`` name rule files: an upload by the name it came with, and the
        server's folders of rule files not at all."""
        from rulelang.loader import games_dir
        stored = self.store.upload_file(ref) if ref.startswith("upload:") else None
        named = ((str(stored), self.store.upload_name(ref)),) if stored is not None else ()
        return (*named, (str(games_dir()) + "/", ""), (str(self.store.rules) + "/", ""))

    async def view_of(self, table: Table, seat: int) -> dict:
        """``seat``'s view, made while no move changes the table."""
        async with self.lock(table.id):
            return seat_view(table, seat)


async def read_json(request: Request) -> dict:
    """The request's JSON object body, read to at most :data:`MAX_BODY` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise BadRequest(413, f"the request is larger than {MAX_BODY} bytes")
    try:
        body = await asyncio.wait_for(_body(request), BODY_SECONDS)
    except asyncio.TimeoutError:
        raise BadRequest(408, f"the request body did not arrive within {BODY_SECONDS:g} seconds") from None
    if nesting(body) > MAX_JSON_DEPTH:
        raise BadRequest(400, f"the request nests deeper than {MAX_JSON_DEPTH} levels")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BadRequest(400, "the request is not JSON text") from None
    if not isinstance(data, dict):
        raise BadRequest(400, "the request must be a JSON object")
    return data


async def _body(request: Request) -> bytes:
    """The request body, read to at most :data:`MAX_BODY` bytes."""
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > MAX_BODY:
            raise BadRequest(413, f"the request is larger than {MAX_BODY} bytes")
    return bytes(body)


def nesting(body: bytes) -> int:
    """How deep the brackets of a JSON text nest (brackets inside strings not counted)."""
    if body.count(b"[") + body.count(b"{") <= MAX_JSON_DEPTH:
        return 0
    depth = deepest = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:           # backslash
                escaped = True
            elif byte == 0x22:           # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):       # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def server_of(request) -> Server:
    """The :class:`Server` of the app that got ``request``."""
    return request.app.state.server


# ---------------------------------------------------------------------- pages
def static_file(name: str) -> FileResponse:
    """One of the page files shipped in ``rulelang/web/static``."""
    return FileResponse(str(resources.files("rulelang.web") / "static" / name))


async def lobby_page(request: Request) -> Response:
    """The lobby: games, uploads, a form for a new table."""
    return static_file("lobby.html")


async def table_page(request: Request) -> Response:
    """A seat's table page; the seat token is in the link's fragment, read by the page's script."""
    return static_file("table.html")


# ---------------------------------------------------------------------- the lobby's API
async def list_games(request: Request) -> Response:
    """The shipped games and this server's uploads."""
    games = await run_in_threadpool(shipped)
    return JSONResponse({"games": list(games), "uploads": server_of(request).store.uploads(owner_of(request)),
                         "agents": ["random", "heuristic", "search"]})


def owner_of(request: Request) -> str:
    """The uploader's secret a lobby request carries (``x-owner-token``; kept by their browser), or ""."""
    owner = request.headers.get("x-owner-token", "")
    return owner if 16 <= len(owner) <= 128 and owner.isascii() else ""


async def publish_rules(request: Request) -> Response:
    """Show the requester's upload ``{"ref"}`` to everyone at this server (until then it is theirs alone)."""
    data = await read_json(request)
    ref, owner = data.get("ref"), owner_of(request)
    if not isinstance(ref, str) or not owner:
        raise BadRequest(400, "send {\"ref\": \"upload:…\"} from the browser that uploaded it")
    if not await run_in_threadpool(server_of(request).store.publish, ref, owner):
        raise BadRequest(404, "no upload of yours has that name; only the person who uploaded a file may publish it")
    return JSONResponse({"ref": ref, "published": True})


async def upload_rules(request: Request) -> Response:
    """Check an uploaded rule file (``{"name", "text"}``); keep it when it has no errors."""
    data = await read_json(request)
    name, text = data.get("name"), data.get("text")
    if not isinstance(name, str) or not isinstance(text, str):
        raise BadRequest(400, "send the file as {\"name\": \"my-game.yaml\", \"text\": \"...\"}")
    server = server_of(request)
    try:
        checked = await run_in_threadpool(check_upload, server.store, name, text, server.checker,
                                          server.renames(""), owner_of(request))
    except LobbyError as exc:
        raise BadRequest(400, str(exc)) from None
    except CheckRefused as exc:
        raise BadRequest(503 if "try again" in str(exc) else 422, str(exc)) from None
    return JSONResponse(checked, status_code=200 if checked["ok"] else 422)


async def create_table(request: Request) -> Response:
    """A new table: ``{"game", "seats": ["person", "heuristic", …], "names": […], "deals", "seed"}``; the seat
    links. Without a seed the cards are shuffled from a fresh random seed (kept in the log)."""
    server, data = server_of(request), await read_json(request)
    ref, deals, seed = data.get("game"), data.get("deals"), data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 31):
        raise BadRequest(400, f"the seed is a whole number from 0 to {(1 << 31) - 1}, or empty")
    if not isinstance(ref, str):
        raise BadRequest(400, "choose a game")
    if deals is not None and (not isinstance(deals, int) or isinstance(deals, bool) or not 1 <= deals <= MAX_DEALS):
        raise BadRequest(400, f"the number of deals is a whole number from 1 to {MAX_DEALS}, or empty for a whole match")
    if ref.startswith("upload:") and not await run_in_threadpool(server.store.may_use, ref, owner_of(request)):
        raise BadRequest(400, f"no uploaded rule file '{ref}' on this server; upload it again")
    try:
        game = await run_in_threadpool(load_for_table, server.store, ref, deals)
        kinds = seat_kinds(data.get("seats"), game.num_players)
        names = seat_names(data.get("names"), game.num_players)
    except LobbyError as exc:
        raise BadRequest(400, str(exc)) from None
    except RuleError as exc:
        raise BadRequest(422, "the rule file has errors",
                         diagnostics=[diagnostic_view(d, server.renames(ref)) for d in exc.diagnostics])
    table = await server.open_table(ref, game, kinds, names, deals, seed)
    links = [{"seat": game.seat_name(s), "kind": kind, "name": names[s], "link": table.link(s)}
             for s, kind in enumerate(kinds)]
    return JSONResponse({"table": table.id, "title": game.definition.title, "seats": links}, status_code=201)


async def play_again(request: Request) -> Response:
    """After the match: the same game, seats and names at a new table (made once, by the first who asks);
    the asking seat's link to it."""
    server = server_of(request)
    table, seat = await server.seat(request.path_params["table"], token_of(request))
    async with server.lock(table.id):
        if not table.state.is_terminal() and table.failure is None:
            raise BadRequest(409, "the match is not over yet")
        if table.next_id is None:
            again = await server.open_table(table.ref, table.game, table.kinds, table.names, table.deals)
            table.next_id = again.id
            server.store.set_next(table.id, again.id)
        await server.broadcast(table)
    again = await server.table(table.next_id)
    return JSONResponse({"table": again.id, "link": again.link(seat)})


# ---------------------------------------------------------------------- a seat's API
def token_of(request: Request) -> str | None:
    """The seat token a request carries."""
    return request.headers.get("x-seat-token")


async def view(request: Request) -> Response:
    """The seat's view of its table now."""
    table, seat = await server_of(request).seat(request.path_params["table"], token_of(request))
    return JSONResponse(await server_of(request).view_of(table, seat))


async def move(request: Request) -> Response:
    """The seat's move ``{"move": "A♥"}``: made, or answered with the engine's reason and no change."""
    server = server_of(request)
    table, seat = await server.seat(request.path_params["table"], token_of(request))
    data = await read_json(request)
    if not isinstance(data.get("move"), str) or len(data["move"]) > 100:
        raise BadRequest(400, "send the move as {\"move\": \"A♥\"}")
    async with server.lock(table.id):
        problem = await run_in_threadpool(table.move, seat, data["move"])
        if problem is not None:
            from rulelang.web.refusals import refusal
            plain = await run_in_threadpool(refusal, table, seat, data["move"], problem)
            return JSONResponse({**table.shown(problem), "plain": plain}, status_code=409)
        server.save(table)
        await server.broadcast(table)
        shown = seat_view(table, seat)
    server.kick(table)
    return JSONResponse(shown)


async def hint(request: Request) -> Response:
    """The heuristic player's move for the seat now (409 when the seat is not to act)."""
    server = server_of(request)
    table, seat = await server.seat(request.path_params["table"], token_of(request))
    async with server.lock(table.id):
        found = await run_in_threadpool(table.hint, seat)
    if found is None:
        raise BadRequest(409, "a hint is given when it is your turn")
    return JSONResponse(found)


async def download_log(request: Request) -> Response:
    """The finished match as a ``rulelang-log/1`` log (``rulelang replay`` checks it)."""
    table, _ = await server_of(request).seat(request.path_params["table"], token_of(request)
                                             or request.query_params.get("token"))
    async with server_of(request).lock(table.id):
        if not table.state.is_terminal():
            raise BadRequest(409, "the match is not over yet; the log can be downloaded when it is")
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in table.log_lines())
    name = f"{table.game.name}-{table.id}.jsonl"
    return Response(text, media_type="application/x-ndjson",
                    headers={"content-disposition": f'attachment; filename="{name}"'})


async def seat_socket(socket: WebSocket) -> None:
    """A seat's live feed: the first message is ``{"token": …}``; then each change of the table is sent."""
    server = socket.app.state.server
    await socket.accept()
    try:
        first = json.loads((await asyncio.wait_for(socket.receive_text(), TOKEN_SECONDS))[:1000])
        table, seat = await server.seat(socket.path_params["table"], first.get("token") if isinstance(first, dict)
                                        else None)
    except (BadRequest, ValueError, KeyError, WebSocketDisconnect, asyncio.TimeoutError):
        await socket.close(code=4403)
        return
    listening = server.listeners.setdefault(table.id, {}).setdefault(seat, set())
    listening.add(socket)
    table.online[seat] = len(listening)
    try:
        await server.broadcast(table)
        while (await socket.receive())["type"] != "websocket.disconnect":
            continue
    finally:
        listening.discard(socket)
        table.online[seat] = len(listening)
        await server.broadcast(table)


# ---------------------------------------------------------------------- errors
async def bad_request(request: Request, exc: BadRequest) -> Response:
    """A :class:`BadRequest` as JSON ``{"error": …}``."""
    return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status)


async def internal_error(request: Request, exc: Exception) -> Response:
    """Any other failure: a plain message, never a traceback."""
    return JSONResponse({"error": f"internal error ({type(exc).__name__}); please report it"}, status_code=500)


def create_app(folder: str, bot_delay: float = 0.4) -> Starlette:
    """The web app, keeping its tables and uploads in ``folder``; agents wait ``bot_delay`` seconds per move."""
    static = StaticFiles(directory=str(resources.files("rulelang.web") / "static"))
    routes = [
        Route("/", lobby_page), Route("/t/{table}", table_page), Mount("/static", static, name="static"),
        Route("/api/games", list_games), Route("/api/rules", upload_rules, methods=["POST"]),
        Route("/api/rules/publish", publish_rules, methods=["POST"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table}/view", view), Route("/api/tables/{table}/move", move, methods=["POST"]),
        Route("/api/tables/{table}/log", download_log), Route("/api/tables/{table}/hint", hint),
        Route("/api/tables/{table}/again", play_again, methods=["POST"]), WebSocketRoute("/ws/{table}", seat_socket),
    ]
    server = Server(folder, bot_delay)

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        yield
        server.close()
    app = Starlette(routes=routes, exception_handlers={BadRequest: bad_request, Exception: internal_error},
                    lifespan=lifespan)
    app.state.server = server
    return app
