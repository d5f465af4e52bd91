"""Anything a user or a buggy host app can pass: only LocalMemError comes back,
and the file stays consistent."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localmem import LocalMemError, MemoryStore
from localmem.cli import cli
from localmem.errors import ImportRefused, InvalidInput

# Any unicode, lone surrogates and NUL included.
any_text = st.text(alphabet=st.characters(codec=None, categories=None), max_size=300)
hostile_text = st.one_of(
    any_text,
    st.sampled_from(['"', "AND", "*", "(", "NEAR(", "a OR", "<|endoftext|>", "\x00", "\ud800", ""]),
)
anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    hostile_text,
    st.binary(max_size=20),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=3),
)

CALLS = [
    ("add_message", lambda store, sid, a, b: store.add_message(sid, a, b)),
    ("add_message_text", lambda store, sid, a, b: store.add_message(sid, "user", a)),
    ("add_messages", lambda store, sid, a, b: store.add_messages(sid, [{"role": "user", "text": a}, b])),
    ("pin", lambda store, sid, a, b: store.pin(sid, a, importance=b)),
    ("pin_kind", lambda store, sid, a, b: store.pin(sid, "fact", source_message_id=a, kind=b)),
    ("build_context", lambda store, sid, a, b: store.build_context(sid, max_tokens=a, query=b)),
    ("build_context_other", lambda store, sid, a, b: store.build_context(a)),
    ("get_messages", lambda store, sid, a, b: store.get_messages(sid, after_id=a, limit=b)),
    ("get_session", lambda store, sid, a, b: store.get_session(a)),
    ("create_session", lambda store, sid, a, b: store.create_session(model=a, title=b)),
    ("create_session_id", lambda store, sid, a, b: store.create_session(session_id=a)),
    ("unpin", lambda store, sid, a, b: store.unpin(a)),
    ("delete_session", lambda store, sid, a, b: store.delete_session(a)),
    ("count_tokens", lambda store, sid, a, b: store.count_tokens(a, model=b)),
    ("summarize", lambda store, sid, a, b: store.summarize(a)),
    ("export_sessions", lambda store, sid, a, b: list(store.export_sessions([sid, a]))),
    ("export_sessions_any", lambda store, sid, a, b: list(store.export_sessions(a))),
    ("import_sessions", lambda store, sid, a, b: store.import_sessions(a)),
    ("import_sessions_lines", lambda store, sid, a, b: store.import_sessions([HEADER, a, b])),
]


HEADER = '{"type":"header","format":"localmem-export","version":1,"exported_at":"2026-01-01T00:00:00Z"}'


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    path = tmp_path_factory.mktemp("hostile") / "hostile.db"
    with MemoryStore(path, config={"ollama_host": "http://127.0.0.1:9"}) as store:
        sid = store.create_session(model="llama3.2").id
        store.add_messages(sid, [{"role": "user", "text": f"seed {i}"} for i in range(20)])
        yield store, sid, path


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=anything, b=anything)
def test_only_localmem_errors_escape(shared, name, call, a, b) -> None:
    store, sid, path = shared
    try:
        call(store, sid, a, b)
    except LocalMemError:
        pass
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        conn.close()


def test_the_file_is_consistent_after_the_onslaught(shared) -> None:
    store, sid, path = shared
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert store.get_session(sid).id == sid


def test_a_ten_megabyte_message(store: MemoryStore, session) -> None:
    text = "All work and no play makes Jack a dull boy. " * 240_000  # ~10.5 MB
    m = store.add_message(session.id, "user", text)
    assert m.token_count > 2_000_000
    assert store.get_messages(session.id)[0].text == text
    ctx = store.build_context(session.id)
    assert ctx.total_tokens <= 3000 and ctx.clipped


DEEP = "[" * 100_000 + "]" * 100_000
SESSION_LINE = (
    '{"type":"session","id":"z","title":null,"model":null,'
    '"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}'
)


@pytest.mark.parametrize(
    "lines",
    [
        ['{"type":"header","x":' + DEEP + "}"],
        [HEADER, DEEP],
        [HEADER, SESSION_LINE, '{"type":"tool_execution","arguments":' + DEEP + "}"],
    ],
    ids=["deep header", "deep line", "deep field"],
)
def test_deeply_nested_json_is_a_refused_line_in_the_library_and_the_cli(
    tmp_path: Path, lines: list[str]
) -> None:
    with MemoryStore(tmp_path / "a.db") as store:
        with pytest.raises(ImportRefused, match=f"^line {len(lines)}: "):
            store.import_sessions(lines)
    export = tmp_path / "deep.jsonl"
    export.write_text("\n".join(lines) + "\n")
    args = ["import", str(export), "--db", str(tmp_path / "b.db"), "--unverified"]  # read its lines
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert result.output.startswith(f"Error: line {len(lines)}: ")


def test_an_export_opened_in_binary_mode_imports(tmp_path: Path) -> None:
    with MemoryStore(tmp_path / "a.db") as store:
        sid = store.create_session(title="binary").id
        store.add_message(sid, "user", "Ünïcödé and 日本語 survive")
        (tmp_path / "x.jsonl").write_text("\n".join(store.export_sessions()) + "\n")
    with MemoryStore(tmp_path / "b.db") as target, open(tmp_path / "x.jsonl", "rb") as f:
        target.import_sessions(f)
        assert target.get_messages(sid)[0].text == "Ünïcödé and 日本語 survive"


@pytest.mark.parametrize("path", [123, 1.5, ["a.db"], object(), "with\x00nul.db"])
def test_a_path_that_is_no_path_is_invalid_input(tmp_path: Path, monkeypatch, path) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidInput):
        MemoryStore(path)
    assert list(tmp_path.iterdir()) == []


def test_a_bytes_path_is_a_path(tmp_path: Path) -> None:
    with MemoryStore(bytes(tmp_path / "bytes.db")) as store:
        assert store.path == tmp_path / "bytes.db"
