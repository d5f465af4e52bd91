"""``localmem ui`` through Starlette's TestClient: who is refused (no secret, a
foreign Host, a GET or a foreign Origin for a change, a missing or wrong form
token), that stored text is shown as text, and that each page shows and each
change makes what the file holds, read back through the Python API.

The same app in a real browser, served by the real command: tests/test_ui_browser.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the ui extra is not installed")

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from localmem import MemoryStore  # noqa: E402
from localmem.cli import cli  # noqa: E402
from localmem.errors import InvalidInput  # noqa: E402
from localmem.ui import Launch, bind, create_app  # noqa: E402
from localmem.ui.guard import SECURITY_HEADERS  # noqa: E402

PORT = 8123
ORIGIN = f"http://127.0.0.1:{PORT}"
HOSTILE = [
    "<script>window.pwned = 1</script>",
    '<img src=x onerror="window.pwned = 2">',
    "<svg onload=window.pwned=3>",
]


class Page:
    """A store with one of everything, the app over it and a client on 127.0.0.1:PORT."""

    def __init__(self, path: Path) -> None:
        self.store = MemoryStore(path, config={"offline": True})
        s = self.store
        self.old = s.create_session(title="Shopping")
        s.add_message(self.old.id, "user", "Buy oat milk and bread.")
        self.trip = s.create_session(title="Trip to Leeds <b>soon</b>")
        self.allergy = s.add_message(self.trip.id, "user", "I'm allergic to penicillin.")
        s.add_message(self.trip.id, "user", "She takes lisinopril 10 mg every morning.")
        s.add_message(self.trip.id, "user", "She no longer takes lisinopril.")
        self.hostile = [s.add_message(self.trip.id, "assistant", text) for text in HOSTILE]
        self.pin = s.pin(self.trip.id, "Book the 9:14 train " + HOSTILE[0])
        s.set_goal(self.trip.id, "Plan the trip to Leeds")
        s.add_messages(self.trip.id, [{"role": "user", "text": f"note {i} about hotels"} for i in range(15)])
        self.summary = s.summarize(self.trip.id)
        self.checkpoint = s.checkpoint(self.trip.id)
        self.launch = Launch.new(PORT)
        self.client = TestClient(create_app(s, self.launch), base_url=ORIGIN)

    def url(self, path: str = "/") -> str:
        return self.launch.base + path

    def get(self, path: str = "/", **kwargs):
        return self.client.get(self.url(path), **kwargs)

    def post(
        self, path: str, data: dict | None = None, origin: str | None = ORIGIN,
        headers: dict | None = None,
    ):
        sent = ({} if origin is None else {"origin": origin}) | (headers or {})
        form = {"token": self.launch.form_token} if data is None else data
        return self.client.post(self.url(path), data=form, headers=sent, follow_redirects=False)

    def fact(self, content: str):
        (pin,) = [p for p in self.store.get_pins(None, history=True) if p.content == content]
        return pin


@pytest.fixture
def page(db_path: Path):
    made = Page(db_path)
    yield made
    made.store.close()


def text_of(html: str) -> str:
    """What a browser shows of a page's body (tags out, entities read)."""
    import html as html_module

    return html_module.unescape(re.sub(r"<[^>]+>", " ", html))


def elements(html: str) -> list[tuple[str, list[str]]]:
    """Every element of a page as a parser reads it: its tag and its attributes' names."""
    from html.parser import HTMLParser

    found: list[tuple[str, list[str]]] = []

    class Parser(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list) -> None:
            found.append((tag, [name for name, _ in attrs]))

    Parser().feed(html)
    return found


# --- who is refused ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/", "/facts", "/static/ui.js", "/sessions/x", "/favicon.ico", "/{secret}x/", "/{short}/",
     "/{upper}/", "//{secret}/"],
)
def test_every_address_without_the_launch_secret_is_refused(page: Page, path: str) -> None:
    secret = page.launch.secret
    path = path.format(secret=secret, short=secret[:-1], upper=secret.swapcase())
    answer = page.client.get(path)
    assert answer.status_code == 403 and "localmem ui" in answer.text
    assert page.store.list_sessions()[0].title  # (nothing happened to the file)
    assert secret not in answer.text and page.launch.form_token not in answer.text


def test_a_change_without_the_secret_is_refused_and_changes_nothing(page: Page) -> None:
    mid = page.allergy.id
    path = f"/sessions/{page.trip.id}/messages/{mid}/forget"
    answer = page.client.post(path, data={"token": page.launch.form_token}, headers={"origin": ORIGIN})
    assert answer.status_code == 403
    assert page.store.get_message(mid).text == "I'm allergic to penicillin."


@pytest.mark.parametrize(
    "host", ["evil.example:8123", "evil.example", "127.0.0.1", "127.0.0.1:8124", "localhost:81230",
             "127.0.0.1.evil.example:8123", "[::1]:8123", ""],
)
def test_a_host_other_than_loopback_on_this_port_is_refused(page: Page, host: str) -> None:
    answer = page.get("/", headers={"host": host})
    assert answer.status_code == 403 and "127.0.0.1 and localhost" in answer.text


@pytest.mark.parametrize("host", ["127.0.0.1:8123", "localhost:8123"])
def test_loopback_by_number_or_name_is_served(page: Page, host: str) -> None:
    assert page.get("/", headers={"host": host}).status_code == 200


def test_every_answer_carries_the_security_headers(page: Page) -> None:
    for answer in (page.get("/"), page.get("/facts"), page.get("/static/ui.js"),
                   page.client.get("/"), page.get("/sessions/nope"), page.get("/no-such-page")):
        for name, value in SECURITY_HEADERS:
            assert answer.headers[name.decode()] == value.decode(), (answer.request.url, name)
    csp = page.get("/").headers["content-security-policy"]
    assert csp.startswith("default-src 'self';")


@pytest.mark.parametrize(
    ("address", "read"),
    [
        ("/sessions/{sid}/messages/{mid}/forget", lambda p: p.store.get_message(p.allergy.id)),
        ("/facts/{fid}/remove", lambda p: p.fact("I'm allergic to penicillin.")),
        ("/facts/{fid}/edit", lambda p: p.fact("I'm allergic to penicillin.")),
        ("/sessions/{sid}/pins/{pid}/remove", lambda p: p.store.get_pins(p.trip.id)[0]),
    ],
)
def test_a_get_to_a_change_address_changes_nothing(page: Page, address: str, read) -> None:
    before = read(page)
    path = address.format(
        sid=page.trip.id, mid=page.allergy.id, pid=page.pin.id,
        fid=page.fact("I'm allergic to penicillin.").id,
    )
    answer = page.get(path, params={"token": page.launch.form_token, "content": "changed"})
    assert answer.status_code == 405
    assert read(page) == before


@pytest.mark.parametrize(
    ("origin", "token"),
    [
        ("http://evil.example", "good"),  # another site's form
        ("http://127.0.0.1:8124", "good"),  # another server on this machine
        ("null", "good"),  # a sandboxed frame, a data: page
        (None, "good"),  # no Origin at all
        (ORIGIN, None),  # no token
        (ORIGIN, "wrong"),  # a guessed token
        (ORIGIN, "secret"),  # the path's secret is not the form's token
    ],
)
def test_a_change_needs_this_pages_origin_and_token(page: Page, origin, token) -> None:
    form = {} if token is None else {
        "token": {"good": page.launch.form_token, "secret": page.launch.secret}.get(token, token)
    }
    mid = page.allergy.id
    answer = page.post(f"/sessions/{page.trip.id}/messages/{mid}/forget", form, origin=origin)
    assert answer.status_code == 403
    assert page.store.get_message(mid).text == "I'm allergic to penicillin."
    fact = page.fact("I'm allergic to penicillin.")
    answer = page.post(f"/facts/{fact.id}/edit", {**form, "content": "hacked"}, origin=origin)
    assert answer.status_code == 403 and page.fact("I'm allergic to penicillin.") == fact


def test_a_cross_site_fetch_is_refused_even_with_the_right_origin_header(page: Page) -> None:
    fact = page.fact("I'm allergic to penicillin.")
    answer = page.post(f"/facts/{fact.id}/remove", headers={"sec-fetch-site": "cross-site"})
    assert answer.status_code == 403 and page.fact(fact.content) == fact


def test_only_get_and_post_are_answered(page: Page) -> None:
    fact = page.fact("I'm allergic to penicillin.")
    answer = page.client.request(
        "DELETE", page.url(f"/facts/{fact.id}/remove"), headers={"origin": ORIGIN}
    )
    assert answer.status_code == 403 and page.fact(fact.content) == fact


def test_the_server_listens_on_loopback_only() -> None:
    sock = bind(0)
    try:
        host, port = sock.getsockname()
        assert host == "127.0.0.1" and port > 0
        with pytest.raises(InvalidInput, match=f"cannot listen on 127.0.0.1:{port}"):
            bind(port)
    finally:
        sock.close()


# --- stored text is text -----------------------------------------------------------------


@pytest.mark.parametrize("path", ["/sessions/{sid}", "/?q=window", "/facts"])
def test_stored_markup_is_shown_as_text_never_run(page: Page, path: str) -> None:
    page.store.pin(None, "Fact " + HOSTILE[2])
    html = page.get(path.format(sid=page.trip.id)).text
    # The only script element is the page's own file; no stored tag became an element.
    assert re.findall(r"<script[^>]*>", html) == [
        f'<script src="{ORIGIN}{page.url("/static/ui.js")}" defer>'
    ]
    tags = elements(html)
    assert not {"img", "svg", "b"} & {tag for tag, _ in tags}
    assert not [(tag, name) for tag, attrs in tags for name in attrs if name.startswith("on")]
    shown = text_of(html)
    if path == "/facts":
        assert "Fact " + HOSTILE[2] in shown
    elif path.startswith("/?"):
        snippets = [hit.snippet for hit in page.store.search("window")]
        assert len(snippets) >= 4 and all(snippet in shown for snippet in snippets)
        assert "<script>[window].pwned = 1</script>" in snippets
    else:
        assert all(text in shown for text in HOSTILE)


# --- what the pages show -----------------------------------------------------------------


def test_the_sessions_page_lists_newest_activity_first_with_counts(page: Page) -> None:
    html = page.get("/").text
    shown = text_of(html)
    assert shown.index("Trip to Leeds <b>soon</b>") < shown.index("Shopping")
    row = re.search(r"Trip to Leeds.*?</tr>", html, re.DOTALL).group(0)
    counts = re.findall(r'<td class="n">(\d+)</td>', row)
    overview = page.store.session_overview()[0]
    assert counts == [str(overview.message_count), str(overview.pin_count), str(overview.summary_count)]
    assert overview.message_count == 21 and "Plan the trip to Leeds" in text_of(row)


def test_search_shows_the_matching_messages_with_their_session_and_date(page: Page) -> None:
    html = page.get("/", params={"q": "oat milk"}).text
    (hit,) = re.findall(r'<article class="hit">.*?</article>', html, re.DOTALL)
    message = page.store.get_messages(page.old.id)[0]
    assert "Buy [oat] [milk] and bread." in text_of(hit)
    assert f"{message.created_at[:10]} {message.created_at[11:16]} UTC" in hit
    assert f'/sessions/{page.old.id}#m{message.id}">Shopping</a>' in hit
    assert "Nothing matches." in page.get("/", params={"q": "zeppelin"}).text


def test_the_session_page_shows_messages_pins_summaries_goals_and_checkpoint(page: Page) -> None:
    shown = text_of(page.get(f"/sessions/{page.trip.id}").text)
    texts = [m.text for m in page.store.get_messages(page.trip.id)]
    messages = shown[shown.index("Messages"):]
    positions = [messages.index(t) for t in texts]
    assert positions == sorted(positions)  # in order
    assert page.pin.content in shown and "Plan the trip to Leeds" in shown
    assert page.summary is not None and page.summary.text in shown
    assert page.checkpoint.lines and all(line in shown for line, _, _ in page.checkpoint.lines)
    assert page.get("/sessions/no-such-session").status_code == 404


def test_the_facts_page_says_where_each_fact_came_from(page: Page) -> None:
    html = page.get("/facts").text
    shown = text_of(html)
    assert "I'm allergic to penicillin." in shown
    said = page.allergy.created_at
    assert f"from a message of {said[:10]} {said[11:16]} UTC" in re.sub(r"\s+", " ", shown)
    assert f'/sessions/{page.trip.id}#m{page.allergy.id}">Trip to Leeds &lt;b&gt;soon&lt;/b&gt;</a>' in html
    assert '<blockquote class="text source">I&#39;m allergic to penicillin.</blockquote>' in html
    # Superseded facts on request only.
    assert "She takes lisinopril 10 mg" not in shown and "Show 1 superseded fact" in shown
    history = text_of(page.get("/facts", params={"superseded": "1"}).text)
    assert "She takes lisinopril 10 mg every morning." in history and "no longer holds" in history


# --- changes -----------------------------------------------------------------------------


def test_forgetting_a_message_removes_it_from_the_file(page: Page, db_path: Path) -> None:
    mid, sid = page.allergy.id, page.trip.id
    answer = page.post(f"/sessions/{sid}/messages/{mid}/forget")
    assert answer.status_code == 303
    assert answer.headers["location"] == page.url(f"/sessions/{sid}?done=forgotten")
    shown = page.get(f"/sessions/{sid}?done=forgotten").text
    assert "I'm allergic" not in text_of(shown) and "gone from the file" in shown
    with MemoryStore(db_path) as other:  # another connection reads the file
        assert mid not in [m.id for m in other.get_messages(sid)]
        assert other.search("penicillin") == []  # and what quoted it went with it
    assert page.post(f"/sessions/{sid}/messages/{mid}/forget").status_code == 404
    other_session = page.store.get_messages(page.old.id)[0].id
    assert page.post(f"/sessions/{sid}/messages/{other_session}/forget").status_code == 404
    assert page.store.get_message(other_session)  # a message of another session is left alone


def test_editing_a_fact_rewrites_it(page: Page) -> None:
    fact = page.fact("I'm allergic to penicillin.")
    answer = page.post(
        f"/facts/{fact.id}/edit", {"token": page.launch.form_token, "content": "Allergic to amoxicillin."}
    )
    assert answer.status_code == 303 and answer.headers["location"].endswith("/facts?done=saved")
    assert page.store.get_pins(None)[0].content != fact.content
    assert page.fact("Allergic to amoxicillin.").id == fact.id


def test_an_empty_fact_is_refused_with_the_reason_and_nothing_changes(page: Page) -> None:
    fact = page.fact("I'm allergic to penicillin.")
    answer = page.post(f"/facts/{fact.id}/edit", {"token": page.launch.form_token, "content": "  "})
    assert answer.status_code == 400 and "Not saved: a pin&#39;s content must not be empty" in answer.text
    assert page.fact(fact.content) == fact


def test_removing_a_fact_and_a_pin(page: Page) -> None:
    fact = page.fact("I'm allergic to penicillin.")
    assert page.post(f"/facts/{fact.id}/remove").status_code == 303
    assert fact.id not in [p.id for p in page.store.get_pins(None, history=True)]
    assert page.post(f"/facts/{fact.id}/remove").status_code == 404
    # A session's pin is not a fact of the user's: not removed from the facts page.
    assert page.post(f"/facts/{page.pin.id}/remove").status_code == 404
    answer = page.post(f"/sessions/{page.trip.id}/pins/{page.pin.id}/remove")
    assert answer.status_code == 303 and page.store.get_pins(page.trip.id, "manual") == []


# --- the command -------------------------------------------------------------------------


def test_the_command_refuses_a_missing_file_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "none.db"
    result = CliRunner().invoke(cli, ["ui", "--db", str(missing), "--no-open"])
    assert result.exit_code == 1 and "no database at" in result.output and not missing.exists()


def test_without_the_ui_extra_the_command_says_what_to_install(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    MemoryStore(db_path).close()
    for name in [m for m in sys.modules if m.split(".")[0] in ("starlette", "uvicorn", "jinja2")]:
        monkeypatch.setitem(sys.modules, name, None)  # as if the extra were not installed
    for name in [m for m in sys.modules if m.startswith("localmem.ui")]:
        monkeypatch.delitem(sys.modules, name)
    result = CliRunner().invoke(cli, ["ui", "--db", str(db_path), "--no-open"])
    assert result.exit_code == 1
    assert result.output == "Error: localmem ui needs its web parts: pip install 'localmem[ui]'\n"
