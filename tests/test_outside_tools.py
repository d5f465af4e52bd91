"""The file as the tools people open it with see it: the real ``sqlite-utils``
command (from this environment's bin, as ``pip install localmem`` installs it)
and a real Datasette server over HTTP. Each must find the search index of
``messages`` and return the matching rows as soon as they are committed, on a
fresh file and on a file migrated from before the index was declared for them.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from localmem import MemoryStore
from localmem.migrations import MIGRATIONS
from tests.old_files import file_at_version

BIN = Path(sys.executable).parent
M012 = [name for name, _ in MIGRATIONS].index("m012_search_at_commit")


def tool(name: str) -> str:
    path = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install {name} (the test extra has it)")
        pytest.skip(f"{name} is not installed")
    return path


OLD_ROWS = [
    ("INSERT INTO sessions VALUES ('demo', 'Grandma''s meds', NULL, 't', 't')", ()),
    ("INSERT INTO messages (id, session_id, role, text, token_count, importance_score, created_at)"
     " VALUES (1, 'demo', 'user', 'Penicillin, from before the upgrade.', 8, 0.5, 't')", ()),
]


def fill(path: Path) -> dict[str, int]:
    """Two sessions; 'penicillin' in two messages of one and one of the other (and
    in the message a migrated file had before)."""
    with MemoryStore(path) as store:
        old = {"demo-0": 1} if store.list_sessions() else {}
        if not old:
            store.create_session(session_id="demo", title="Grandma's meds")
        store.create_session(session_id="other")
        ids = {**old,
            "demo-1": store.add_message("demo", "user", "I am allergic to penicillin.").id,
            "demo-2": store.add_message("demo", "assistant", "Noted: no penicillin.").id,
            "other-1": store.add_message("other", "user", "Is penicillin an antibiotic?").id,
        }
        store.add_message("other", "user", "What time is the school pickup?")
        store.pin("demo", "Allergic to penicillin")
    return ids


@pytest.fixture(params=["fresh", "migrated"])
def memory_file(request, tmp_path: Path) -> Path:
    """A file made by this localmem, or one made before m012 and migrated on open."""
    path = tmp_path / "memory.db"
    if request.param == "migrated":
        file_at_version(path, M012, OLD_ROWS)
    return path


def sqlite_utils(*args: str) -> str:
    done = subprocess.run(
        [tool("sqlite-utils"), *args], capture_output=True, text=True, timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_sqlite_utils_search_finds_fresh_rows(memory_file: Path) -> None:
    ids = fill(memory_file)
    rows = json.loads(sqlite_utils("search", str(memory_file), "messages", "penicillin"))
    assert sorted(r["id"] for r in rows) == sorted(ids.values())
    assert {r["session_id"] for r in rows} == {"demo", "other"}
    with MemoryStore(memory_file) as store:  # written after the tool last looked
        late = store.add_message("other", "user", "penicillin makes me itch").id
    rows = json.loads(sqlite_utils("search", str(memory_file), "messages", "itch"))
    assert [r["id"] for r in rows] == [late]
    pins = json.loads(sqlite_utils("search", str(memory_file), "semantic_pins", "allergic"))
    assert "Allergic to penicillin" in [p["content"] for p in pins]  # (and an automatic pin)


def test_sqlite_utils_lists_the_indexes(memory_file: Path) -> None:
    fill(memory_file)
    tables = {t["table"] for t in json.loads(sqlite_utils("tables", str(memory_file), "--fts5"))}
    assert tables == {"messages_fts", "summaries_fts", "semantic_pins_fts", "summary_facts_fts"}


def test_an_index_rebuilt_by_sqlite_utils_is_caught_and_repaired(memory_file: Path) -> None:
    ids = fill(memory_file)
    sqlite_utils("rebuild-fts", str(memory_file), "messages")
    with MemoryStore(memory_file) as store:
        hits = store.search("penicillin", session_id="other")
        assert [h for h in hits if h.kind == "message"] == []  # the keys are gone
    doctor = subprocess.run(
        [tool("localmem"), "doctor", "--db", str(memory_file)],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
        env={**os.environ, "OLLAMA_HOST": "http://127.0.0.1:9"},
    )
    assert "messages_fts was rebuilt without its session keys: run localmem vacuum" in doctor.stdout
    subprocess.run(
        [tool("localmem"), "vacuum", "--db", str(memory_file)],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL, check=True,
    )
    with MemoryStore(memory_file) as store:
        hits = store.search("penicillin", session_id="other")
    assert [h.id for h in hits if h.kind == "message"] == [ids["other-1"]]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def datasette(memory_file: Path) -> Iterator[tuple[str, Path, dict[str, int]]]:
    """A real Datasette serving the file (opened mutable: it sees new commits)."""
    ids = fill(memory_file)
    port = free_port()
    proc = subprocess.Popen(
        [tool("datasette"), str(memory_file), "--port", str(port), "--host", "127.0.0.1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/memory"
    try:
        deadline = time.monotonic() + 60
        while True:  # a wait for start-up, not a speed check
            try:
                with urllib.request.urlopen(base + ".json", timeout=5):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"datasette did not start: {proc.stderr.read().decode()[-500:]}")
                time.sleep(0.2)
        yield base, memory_file, ids
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        proc.stderr.close()


def get(url: str) -> list[dict]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def search(base: str, word: str, **filters: str) -> list[dict]:
    query = urllib.parse.urlencode({"_search": word, "_shape": "array", **filters})
    return get(f"{base}/messages.json?{query}")


def test_datasette_search_finds_fresh_matching_rows(datasette) -> None:
    base, path, ids = datasette
    rows = search(base, "penicillin")
    assert sorted(r["id"] for r in rows) == sorted(ids.values())  # not every row
    with MemoryStore(path) as store:  # committed while the server runs
        late = store.add_message("demo", "user", "Penicillin gave me a rash.").id
    assert [r["id"] for r in search(base, "rash")] == [late]
    assert late in [r["id"] for r in search(base, "penicillin")]


def test_datasette_search_with_the_session_filter(datasette) -> None:
    base, _path, ids = datasette
    rows = search(base, "penicillin", session_id="other")
    assert [r["id"] for r in rows] == [ids["other-1"]]
    assert {r["session_id"] for r in search(base, "penicillin", session_id="demo")} == {"demo"}


def test_datasette_shows_session_ids_as_written(datasette) -> None:
    base, _path, _ids = datasette
    tables = {t["name"]: t for t in get(base + ".json")["tables"]}
    assert tables["messages"]["fts_table"] == "messages_fts"
    assert tables["semantic_pins"]["fts_table"] == "semantic_pins_fts"
    views = [v["name"] for v in get(base + ".json")["views"]]
    assert not [v for v in views if v.endswith("_fts_source")]
    # Every column of every table and view reads as stored: no hex key anywhere.
    for name in [*tables, *views]:
        for row in get(f"{base}/{urllib.parse.quote(name)}.json?_shape=array&_size=max"):
            for value in row.values():
                assert not (isinstance(value, str) and value.startswith("s64656")), (name, row)
