"""An export ends with a record of what it holds; an import checks it, refuses a cut or
altered file, and resumes an interrupted import (skip or replace what is there)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from localmem import MemoryStore
from localmem.errors import ImportRefused, InvalidInput
from localmem.jsonl import check_end


def three_sessions(store: MemoryStore, messages: int = 5) -> list[str]:
    ids = []
    for n in range(3):
        sid = store.create_session(title=f"s{n}").id
        store.add_messages(sid, [{"role": "user", "text": f"s{n} m{i}"} for i in range(messages)])
        ids.append(sid)
    store.pin(ids[1], "a pin")
    return ids


@pytest.fixture
def exported(store: MemoryStore) -> tuple[list[str], list[str]]:
    ids = three_sessions(store)
    return ids, list(store.export_sessions())


def test_the_end_record_counts_and_hashes_the_lines_before_it(exported) -> None:
    _ids, lines = exported
    end = json.loads(lines[-1])
    assert end["type"] == "end" and end["lines"] == len(lines) - 1
    assert end["records"] == {"session": 3, "message": 15, "pin": 1}
    body = "".join(line + "\n" for line in lines[:-1]).encode()
    assert end["sha256"] == hashlib.sha256(body).hexdigest()


# The export's lines: the header, session 0 (line 2) and its 5 messages, session 1
# (line 8), 5 messages and a pin, session 2 (line 15) and its 5 messages, the end.
@pytest.mark.parametrize(("kept", "whole"), [(1, 0), (5, 0), (8, 1), (18, 2), (20, 2)])
def test_a_cut_export_never_arrives_as_if_whole(
    exported, tmp_path: Path, kept: int, whole: int
) -> None:
    ids, lines = exported
    with MemoryStore(tmp_path / "copy.db") as copy:
        with pytest.raises(ImportRefused, match="ends before its end record: the export was cut") as refused:
            copy.import_sessions(lines[:kept])
        message = str(refused.value)
        assert "unverified=True (--unverified on the command line)" in message
        imported = [s.id for s in copy.list_sessions()]
        # Sessions the cut left whole (the next one began) stay imported; the one
        # it cut is not written at all.
        assert sorted(imported) == sorted(ids[:whole])
        for sid in imported:
            assert len(copy.get_messages(sid)) == 5
        assert refused.value.report.verified is False


def test_unverified_imports_a_cut_export_as_far_as_it_goes(exported, tmp_path: Path) -> None:
    ids, lines = exported
    with MemoryStore(tmp_path / "copy.db") as copy:
        report = copy.import_sessions(lines[:-3], unverified=True)  # the end and 2 messages cut
        assert [old for old, _new in report.sessions] == ids and report.verified is False
        assert len(copy.get_messages(ids[2])) == 3


def test_a_version_1_export_is_read_only_unverified(exported, tmp_path: Path) -> None:
    ids, lines = exported
    header = json.loads(lines[0])
    old = [json.dumps({**header, "version": 1}), *lines[1:-1]]  # what localmem 1 wrote
    with MemoryStore(tmp_path / "copy.db") as copy:
        with pytest.raises(ImportRefused, match="a version-1 export .* has no end record"):
            copy.import_sessions(old)
        copy.import_sessions(old, existing="skip", unverified=True)
        assert sorted(s.id for s in copy.list_sessions()) == sorted(ids)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda lines: lines.pop(3), "it counts 20 lines before it, 19 were read"),
        (lambda lines: lines.__setitem__(3, lines[3].replace("m1", "mX")), "SHA-256 differs"),
        (lambda lines: lines.insert(-1, lines[-3]),  # a message twice: an id repeated
         "a second message with id"),
        (lambda lines: lines.append(lines[1]), "a line after the end record"),
        (lambda lines: lines.__setitem__(-1, lines[-1].replace('"pin":1', '"pin":2')),
         "pin: 2 written, 1 read"),
    ],
    ids=["a line lost", "a line changed", "a line repeated", "a line after the end", "a count"],
)
def test_an_export_changed_after_it_was_written_is_refused(
    exported, tmp_path: Path, change, expected: str
) -> None:
    _ids, lines = exported
    change(lines)
    with MemoryStore(tmp_path / "copy.db") as copy:
        with pytest.raises(ImportRefused, match=expected):
            copy.import_sessions(lines)


def test_skip_existing_resumes_an_interrupted_import(exported, tmp_path: Path) -> None:
    ids, lines = exported
    with MemoryStore(tmp_path / "copy.db") as copy:
        with pytest.raises(ImportRefused):
            copy.import_sessions(lines[:10])  # interrupted after the first session
        first = [s.id for s in copy.list_sessions()]
        assert first == [ids[0]]
        with pytest.raises(ImportRefused, match=f"'{ids[0]}' already exists .* --skip-existing"):
            copy.import_sessions(lines)
        report = copy.import_sessions(lines, existing="skip")
        assert report.skipped == [ids[0]] and report.verified
        assert [old for old, _new in report.sessions] == ids[1:]
        assert report.counts == {"session": 2, "message": 10, "pin": 1}
        assert sorted(s.id for s in copy.list_sessions()) == sorted(ids)
        assert all(len(copy.get_messages(sid)) == 5 for sid in ids)


def test_replace_swaps_each_existing_session_in_one_transaction(
    store: MemoryStore, exported, tmp_path: Path
) -> None:
    ids, lines = exported
    with MemoryStore(tmp_path / "copy.db") as copy:
        copy.import_sessions(lines)
        copy.add_message(ids[0], "user", "only in the copy")
        copy.pin(ids[0], "only in the copy")
        report = copy.import_sessions(lines, existing="replace")
        assert report.replaced == ids and [new for _old, new in report.sessions] == ids
        assert [m.text for m in copy.get_messages(ids[0])] == [f"s0 m{i}" for i in range(5)]
        assert copy.get_pins(ids[0]) == []
        # A refused replacement leaves the existing session as it was.
        copy.add_message(ids[2], "user", "kept")
        with pytest.raises(ImportRefused):
            copy.import_sessions(lines[:-2], existing="replace")  # the last session is cut
        assert copy.get_messages(ids[2])[-1].text == "kept"


def test_bad_import_options_are_refused(exported, store: MemoryStore) -> None:
    _ids, lines = exported
    with pytest.raises(InvalidInput, match="existing must be one of"):
        store.import_sessions(lines, existing="merge")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="contradict"):
        store.import_sessions(lines, rename=True, existing="skip")
    with pytest.raises(InvalidInput, match="unverified must be True or False"):
        store.import_sessions(lines, unverified="yes")  # type: ignore[arg-type]


def test_an_open_file_is_checked_whole_before_anything_is_written(exported, tmp_path: Path) -> None:
    ids, lines = exported
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:18]) + "\n", encoding="utf-8")
    with MemoryStore(tmp_path / "copy.db") as copy:
        with cut.open(encoding="utf-8") as file, pytest.raises(ImportRefused, match="cut short"):
            copy.import_sessions(file)
        assert copy.list_sessions() == []  # not even the whole sessions before the cut
        whole = tmp_path / "whole.jsonl"
        whole.write_text("\n".join(lines) + "\n", encoding="utf-8")
        with whole.open(encoding="utf-8") as file:
            assert copy.import_sessions(file).verified
        assert sorted(s.id for s in copy.list_sessions()) == sorted(ids)


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ([], "line 1: the input ends before the header"),
        (["nonsense"], "line 1: not a localmem export"),
        (None, "line 21: the input ends before its end record"),
    ],
)
def test_check_end_refuses_what_an_import_would(exported, lines, expected: str) -> None:
    _ids, full = exported
    assert check_end(full).lines == len(full) - 1
    with pytest.raises(InvalidInput, match=expected):
        check_end(full[:-1] if lines is None else lines)
    changed = [*full[:3], full[3].replace("m1", "mX"), *full[4:]]
    with pytest.raises(InvalidInput, match="line 21: the end record does not match .*SHA-256"):
        check_end(changed)
