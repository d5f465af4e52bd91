"""The pages of ``localmem ui``: a thin layer over :class:`~localmem.MemoryStore`'s
public methods, one handler a page or a change (:func:`create_app`).

Reading: the sessions with their counts and a full-text search
(``session_overview``, ``search``); a session's messages, pins, summaries, goals
and latest checkpoint (``get_session``, ``get_messages``, ``get_pins``,
``get_summaries``, ``get_goals``, ``latest_checkpoint``); the user's facts with
where each came from (``memory_report``, ``get_message``). Changing, by POST
only, each with the launch's anti-forgery token: forgetting a message
(``delete_message``), editing a fact (``update_pin``), removing a fact or a pin
(``unpin``). A change answers with a redirect to the page it was made on
(post/redirect/get), which shows the result as the file now holds it.

Stored text comes from models, tools and imports, so templates escape every
value (Jinja2's autoescape, on for every template) and the page runs no inline
script: ``<script>`` in a message reads as those characters. The store's
calls run in a worker thread (``run_in_threadpool``): a forget may take a
moment (summaries rewritten, pages zeroed) and must not stall the server.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import InvalidInput, LocalMemError, MissingExtra, NotFound, SessionNotFound
from ..models import Message
from .guard import Guard, Launch

if TYPE_CHECKING:  # handed the store by its caller: its type, for the checker
    from ..store import MemoryStore

try:
    import jinja2
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.datastructures import FormData
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse, RedirectResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles
    from starlette.templating import Jinja2Templates
except ImportError as exc:  # pragma: no cover - exercised with the extra hidden
    raise MissingExtra("localmem ui needs its web parts: pip install 'localmem[ui]'") from exc

HERE = Path(__file__).resolve().parent
SESSIONS_SHOWN = 200
"""Sessions listed, most recently active first (search finds the others)."""
MESSAGES_PER_PAGE = 500
"""Messages of a session shown at once; a link shows the next ones."""
SEARCH_HITS = 50
NOTICES = {
    "forgotten": "The message was forgotten: it is gone from the file.",
    "removed": "Removed: it is gone from the file.",
    "saved": "Saved.",
}
"""What a page says after a change (``?done=``): fixed words, never text from the request."""

T = TypeVar("T")


def when(stamp: str | None) -> str:
    """A stored UTC timestamp as a person reads it: ``2026-03-04 05:06 UTC``."""
    return "" if not stamp else f"{stamp[:10]} {stamp[11:16]} UTC"


def _templates() -> Jinja2Templates:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,  # every value is text: stored text must never become markup
        undefined=jinja2.StrictUndefined,
    )
    env.filters["when"] = when
    return Jinja2Templates(env=env)


def create_app(store: MemoryStore, launch: Launch) -> Guard:
    """The page for ``store``, reachable only as ``launch`` allows (:class:`Guard`).
    The store stays the caller's to close."""
    templates = _templates()

    async def call(method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await run_in_threadpool(functools.partial(method, *args, **kwargs))

    def page(request: Request, name: str, status: int = 200, **context: Any) -> Response:
        notice = NOTICES.get(request.query_params.get("done", ""))
        context = {"token": launch.form_token, "notice": notice, "error": None, **context}
        return templates.TemplateResponse(request, name, context, status_code=status)

    def back(request: Request, name: str, done: str, **params: str) -> RedirectResponse:
        url = request.url_for(name, **params).include_query_params(done=done)
        return RedirectResponse(url.path + "?" + url.query, status_code=303)

    async def posted(request: Request) -> FormData:
        form = await request.form()
        if not launch.form_ok(form.get("token")):
            raise HTTPException(403, "Refused: the form's anti-forgery token is missing or stale.")
        return form

    async def sessions(request: Request) -> Response:
        shown = await call(store.session_overview, SESSIONS_SHOWN + 1)
        query = request.query_params.get("q", "").strip()
        hits, titles = [], {}
        if query:
            hits = await call(store.search, query, None, SEARCH_HITS)
            for sid in {h.session_id for h in hits if h.session_id is not None}:
                titles[sid] = (await call(store.get_session, sid)).title
        return page(
            request, "sessions.html", sessions=shown[:SESSIONS_SHOWN],
            more=len(shown) > SESSIONS_SHOWN, query=query, hits=hits, titles=titles,
        )

    async def session(request: Request) -> Response:
        sid = request.path_params["sid"]
        after = _int(request.query_params.get("after", "0"))
        found = await call(store.get_session, sid)
        messages = await call(store.get_messages, sid, after, MESSAGES_PER_PAGE + 1)
        pins = [p for p in await call(store.get_pins, sid) if p.session_id == sid]
        return page(
            request, "session.html", session=found, messages=messages[:MESSAGES_PER_PAGE],
            next_after=messages[MESSAGES_PER_PAGE - 1].id if len(messages) > MESSAGES_PER_PAGE else None,
            after=after, pins=pins, summaries=await call(store.get_summaries, sid),
            goals=await call(store.get_goals, sid),
            checkpoint=await call(store.latest_checkpoint, sid),
        )

    async def forget_message(request: Request) -> Response:
        await posted(request)
        sid, mid = request.path_params["sid"], request.path_params["mid"]
        message = await call(store.get_message, mid)
        if message.session_id != sid:
            raise NotFound("message", mid)
        await call(store.delete_message, mid)
        return back(request, "session", "forgotten", sid=sid)

    async def remove_pin(request: Request) -> Response:
        await posted(request)
        sid, pid = request.path_params["sid"], request.path_params["pid"]
        if pid not in {p.id for p in await call(store.get_pins, sid, history=True) if p.session_id == sid}:
            raise NotFound("pin", pid)
        await call(store.unpin, pid)
        return back(request, "session", "removed", sid=sid)

    async def user_facts() -> set[int]:
        """The ids of the user's facts, current and superseded."""
        return {p.id for p in await call(store.get_pins, None, history=True)}

    async def facts(request: Request, error: str | None = None) -> Response:
        history = request.query_params.get("superseded") == "1"
        report = await call(store.memory_report)
        shown = [f for f in report.user_facts if history or f.status == "current"]
        sources: dict[int, Message | None] = {}
        for fact in shown:
            mid = fact.pin.source_message_id
            if mid is not None and mid not in sources:
                sources[mid] = await _maybe(call(store.get_message, mid))
        return page(
            request, "facts.html", 400 if error else 200, facts=shown, sources=sources,
            history=history, superseded=sum(f.status == "superseded" for f in report.user_facts),
            error=error,
        )

    async def edit_fact(request: Request) -> Response:
        form = await posted(request)
        pid = request.path_params["pid"]
        if pid not in await user_facts():
            raise NotFound("fact", pid)
        content = form.get("content")
        try:
            await call(store.update_pin, pid, content=content if isinstance(content, str) else None)
        except InvalidInput as exc:
            return await facts(request, error=f"Not saved: {exc}")
        return back(request, "facts", "saved")

    async def remove_fact(request: Request) -> Response:
        await posted(request)
        pid = request.path_params["pid"]
        if pid not in await user_facts():
            raise NotFound("fact", pid)
        await call(store.unpin, pid)
        return back(request, "facts", "removed")

    async def missing(request: Request, exc: Exception) -> Response:
        return page(request, "error.html", 404, message=str(exc) if str(exc) else "Not found.")

    async def refused(request: Request, exc: Exception) -> Response:
        status = 400 if isinstance(exc, LocalMemError) else getattr(exc, "status_code", 400)
        return PlainTextResponse(f"{getattr(exc, 'detail', None) or exc}\n", status_code=status)

    routes = [
        Route("/", sessions, name="sessions"),
        Route("/sessions/{sid}", session, name="session"),
        Route("/sessions/{sid}/messages/{mid:int}/forget", forget_message, methods=["POST"],
              name="forget_message"),
        Route("/sessions/{sid}/pins/{pid:int}/remove", remove_pin, methods=["POST"], name="remove_pin"),
        Route("/facts", facts, name="facts"),
        Route("/facts/{pid:int}/edit", edit_fact, methods=["POST"], name="edit_fact"),
        Route("/facts/{pid:int}/remove", remove_fact, methods=["POST"], name="remove_fact"),
        Mount("/static", app=StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(
        routes=[Mount(launch.base, routes=routes)],
        exception_handlers={
            SessionNotFound: missing, NotFound: missing, LocalMemError: refused,
            HTTPException: refused,
        },
    )
    return Guard(app, launch)


def _int(text: str) -> int:
    try:
        return max(0, int(text))
    except ValueError:
        return 0


async def _maybe(read: Any) -> Any:
    """The awaited read, or None if its row is gone (forgotten meanwhile)."""
    try:
        return await read
    except NotFound:
        return None
