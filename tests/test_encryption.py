"""Encryption at rest (issue 25): real SQLCipher files, through the public API and the CLI.

A file created with a key is encrypted: no "SQLite format 3", plain sqlite3 cannot
read it, no byte of a message in it, its -wal or -shm. A missing or wrong key is a
WrongKey on open, the file byte-identical and nothing on the terminal. Everything
works on it (messages, search, contexts, pins, summaries, forgetting, export and
import, backups). ``localmem encrypt`` / ``decrypt`` convert files.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sqlite3
import stat
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from localmem import MemoryStore
from localmem.cli import cli
from localmem.db import cipher
from localmem.encryption import decrypt_file, encrypt_file
from localmem.errors import DatabaseError, InvalidInput, MissingExtra, WrongKey

if importlib.util.find_spec("sqlcipher3") is None and not os.environ.get("CI"):
    pytest.skip("sqlcipher3-binary is not installed (localmem[encrypt])", allow_module_level=True)

KEY = "correct horse 'battery' staple"  # a quote: PRAGMA key takes no parameters
WORD = "Quokkaberry"  # in no dictionary: a byte search finds only what we wrote
SQLITE_HEADER = b"SQLite format 3\x00"
OFFLINE = {"offline": True}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def files_of(path: Path) -> list[Path]:
    return [p for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists()]


def holds(path: Path, word: str) -> list[str]:
    """The files of the database (main, -wal, -shm) holding ``word``, as UTF-8 or UTF-16."""
    needles = [word.encode(), word.encode("utf-16-le")]
    return [p.name for p in files_of(path) if any(n in p.read_bytes() for n in needles)]


def fill(store: MemoryStore) -> str:
    session = store.create_session(model="llama3.2", title="private").id
    store.add_message(session, "user", f"My cat is called {WORD} and I am allergic to peanuts.")
    for i in range(16):
        store.add_message(session, "assistant" if i % 2 else "user", f"turn {i} about the garden")
    store.pin(session, f"{WORD} likes tuna")
    store.summarize(session)
    return session


def test_a_file_made_with_a_key_is_encrypted_and_everything_works(db_path: Path, capfd) -> None:
    with MemoryStore(db_path, config=OFFLINE, key=KEY) as store:
        session = fill(store)
        assert holds(db_path, WORD) == [] and Path(f"{db_path}-wal").exists()  # while open, too
        context = store.build_context(session, query=f"what is my cat called? {WORD}")
        assert WORD in "\n".join(m["content"] for m in context.to_messages())
        assert [h.kind for h in store.search(WORD)].count("message") == 1
        assert [p.content for p in store.get_pins(session)][0] == f"{WORD} likes tuna"
        assert store.get_summaries(session)[0].source == "offline"
        assert store.check_file() == []
    assert db_path.read_bytes()[:16] != SQLITE_HEADER
    assert holds(db_path, WORD) == []
    with pytest.raises(sqlite3.DatabaseError, match="not a database"):
        sqlite3.connect(db_path).execute("SELECT * FROM messages").fetchall()
    with MemoryStore(db_path, key=KEY) as again:
        assert len(again.get_messages(session)) == 17
    assert "hmac" not in capfd.readouterr().err


@pytest.mark.parametrize("key", [None, "wrong key"])
def test_a_missing_or_wrong_key_is_refused_and_the_file_untouched(
    db_path: Path, key: str | None, capfd
) -> None:
    with MemoryStore(db_path, key=KEY) as store:
        fill(store)
    before = digest(db_path)
    with pytest.raises(WrongKey, match="key is (missing|wrong)"):
        MemoryStore(db_path, key=key)
    assert digest(db_path) == before and files_of(db_path) == [db_path]
    captured = capfd.readouterr()
    assert captured.err == "" and captured.out == ""  # SQLCipher's "hmac check failed" kept quiet


def test_a_key_for_a_plain_file_is_refused_and_the_file_untouched(db_path: Path) -> None:
    with MemoryStore(db_path) as store:
        fill(store)
    before = digest(db_path)
    with pytest.raises(WrongKey, match="not encrypted"):
        MemoryStore(db_path, key=KEY)
    assert digest(db_path) == before


def test_a_key_for_an_in_memory_store_is_refused_in_localmems_own_error() -> None:
    with pytest.raises(InvalidInput, match="in-memory store has no file to encrypt"):
        MemoryStore(":memory:", key=KEY)


def test_the_key_comes_from_the_environment_or_a_private_key_file(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOCALMEM_KEY", KEY)
    with MemoryStore(db_path) as store:
        session = store.create_session().id
        store.add_message(session, "user", WORD)
    monkeypatch.delenv("LOCALMEM_KEY")
    with pytest.raises(WrongKey, match="key is missing"):
        MemoryStore(db_path)
    key_file = tmp_path / "key"
    key_file.write_text(KEY + "\n")
    key_file.chmod(0o644)
    monkeypatch.setenv("LOCALMEM_KEY_FILE", str(key_file))
    with pytest.raises(WrongKey, match="chmod 600"):
        MemoryStore(db_path)
    key_file.chmod(0o600)
    with MemoryStore(db_path) as store:
        assert store.get_messages(session)[0].text == WORD
    with pytest.raises(WrongKey, match="key is wrong"):  # the argument comes first
        MemoryStore(db_path, key="not this one")


def test_the_keyring_gives_the_key_of_an_encrypted_file(db_path: Path) -> None:
    import keyring  # the test extra has it
    from keyring.backend import KeyringBackend

    class Memory(KeyringBackend):  # a real backend, held in memory
        priority = 1  # type: ignore[assignment]
        entries: dict[tuple[str, str], str] = {}

        def get_password(self, service: str, username: str) -> str | None:
            return self.entries.get((service, username))

        def set_password(self, service: str, username: str, password: str) -> None:
            self.entries[(service, username)] = password

        def delete_password(self, service: str, username: str) -> None:
            self.entries.pop((service, username), None)

    with MemoryStore(db_path, key=KEY) as store:
        store.create_session(session_id="kept")
    previous = keyring.get_keyring()
    keyring.set_keyring(Memory())
    try:
        keyring.set_password("localmem", str(db_path), KEY)
        with MemoryStore(db_path) as store:
            assert [s.id for s in store.list_sessions()] == ["kept"]
    finally:
        keyring.set_keyring(previous)


def test_forgetting_in_an_encrypted_file_leaves_the_word_in_no_byte(
    db_path: Path, tmp_path: Path
) -> None:
    """Every byte is ciphertext anyway; the plain copy holds the live rows only (an
    export carries no free page): tests/test_forget_holds_paths.py decrypts the pages."""
    with MemoryStore(db_path, config=OFFLINE, key=KEY) as store:
        session = store.create_session().id
        gone = store.add_message(session, "user", f"my secret word is {WORD}")
        store.add_message(session, "user", "the weather is fine")
        store.delete_message(gone.id)
        assert store.search(WORD) == []
    plain = decrypt_file(db_path, tmp_path / "plain.db", key=KEY)
    assert WORD.encode() not in plain.read_bytes()
    assert b"the weather is fine" in plain.read_bytes()


def test_export_import_and_backup_of_an_encrypted_file(db_path: Path, tmp_path: Path) -> None:
    with MemoryStore(db_path, config=OFFLINE, key=KEY) as store:
        session = fill(store)
        lines = list(store.export_sessions())
        copy = store.backup(tmp_path / "backups" / "copy.db")
        messages = store.get_messages(session)
    assert copy.read_bytes()[:16] != SQLITE_HEADER and holds(copy, WORD) == []
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    with pytest.raises(WrongKey):
        MemoryStore(copy)
    with MemoryStore(copy, key=KEY) as restored:
        assert [m.text for m in restored.get_messages(session)] == [m.text for m in messages]
    with MemoryStore(tmp_path / "imported.db", key="another key") as other:
        other.import_sessions(lines)
        assert [m.text for m in other.get_messages(session)] == [m.text for m in messages]


def test_encrypt_keeps_every_row_and_decrypt_writes_a_private_plain_copy(
    db_path: Path, tmp_path: Path
) -> None:
    with MemoryStore(db_path, config=OFFLINE) as store:
        session = fill(store)
        before = [m.text for m in store.get_messages(session)]
    encrypt_file(db_path, key=KEY)
    assert sorted(p.name for p in db_path.parent.iterdir()) == [db_path.name]  # no copy beside it
    assert holds(db_path, WORD) == []
    with MemoryStore(db_path, key=KEY) as store:
        assert [m.text for m in store.get_messages(session)] == before
        assert store.search(WORD) and store.get_summaries(session)
    out = tmp_path / "out" / "plain.db"
    out.parent.mkdir()
    decrypt_file(db_path, out, key=KEY)
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    with sqlite3.connect(out) as raw:
        assert [r[0] for r in raw.execute("SELECT text FROM messages ORDER BY id")] == before
    with pytest.raises(InvalidInput, match="already exists"):
        decrypt_file(db_path, out, key=KEY)
    with pytest.raises(WrongKey, match="key is wrong"):
        decrypt_file(db_path, tmp_path / "other.db", key="nope")
    assert not (tmp_path / "other.db").exists()


def test_an_interrupted_encrypt_leaves_the_plain_file_as_it_was(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with MemoryStore(db_path, config=OFFLINE) as store:
        session = fill(store)
    from localmem import files  # the first run is cut by Ctrl-C just before the rename

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(files, "publish", interrupted)
    before = digest(db_path)
    with pytest.raises(KeyboardInterrupt):
        encrypt_file(db_path, key=KEY)
    assert sorted(p.name for p in db_path.parent.iterdir()) == [db_path.name]
    with sqlite3.connect(db_path) as raw:  # the rows are as they were (only the log mode changed)
        assert raw.execute("SELECT count(*) FROM messages").fetchone() == (17,)
    monkeypatch.undo()
    encrypt_file(db_path, key=KEY)
    with MemoryStore(db_path, key=KEY) as store:
        assert len(store.get_messages(session)) == 17
    assert before != digest(db_path)


def test_encrypt_refuses_a_file_another_program_has_open(db_path: Path) -> None:
    with MemoryStore(db_path) as store:
        store.create_session()
        before = digest(db_path)
        with pytest.raises(DatabaseError, match="another program has it open"):
            encrypt_file(db_path, key=KEY)
        assert digest(db_path) == before
        store.create_session()  # the store goes on writing to the same (plain) file
    with MemoryStore(db_path) as store:
        assert len(store.list_sessions()) == 2


def run(*args: str, key: str | None = KEY) -> object:
    env = {"LOCALMEM_KEY": key} if key is not None else {}
    return CliRunner().invoke(cli, list(args), env=env)


def test_the_cli_reads_the_key_for_every_command_and_converts_files(db_path: Path, tmp_path: Path) -> None:
    db = str(db_path)
    assert run("new", "--db", db, "--title", "plain", key=None).exit_code == 0
    result = run("encrypt", "--db", db)
    assert result.exit_code == 0, result.output
    assert db_path.read_bytes()[:16] != SQLITE_HEADER
    listed = run("sessions", "--db", db)
    assert listed.exit_code == 0 and "plain" in listed.output
    refused = run("sessions", "--db", db, key=None)
    assert refused.exit_code == 1 and refused.output.count("\n") == 1
    assert "key is missing" in refused.output
    wrong = run("sessions", "--db", db, key="wrong")
    assert wrong.exit_code == 1 and "key is wrong" in wrong.output
    out = tmp_path / "plain.db"
    assert run("decrypt", "--db", db, "-o", str(out)).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert sqlite3.connect(out).execute("SELECT title FROM sessions").fetchall() == [("plain",)]
    again = run("decrypt", "--db", db, "-o", str(out))
    assert again.exit_code == 1 and "already exists" in again.output
    backup = run("backup", str(tmp_path / "b.db"), "--db", db)
    assert backup.exit_code == 0 and (tmp_path / "b.db").read_bytes()[:16] != SQLITE_HEADER
    no_key = run("encrypt", "--db", str(out), key=None)
    assert no_key.exit_code == 1 and "no key" in no_key.output


def test_without_sqlcipher_a_key_is_a_clean_error_naming_the_extra(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "sqlcipher3", None)  # as if not installed
    monkeypatch.setattr(cipher, "driver", cipher.driver.__wrapped__)  # not the cached module
    with pytest.raises(MissingExtra, match=r"pip install 'localmem\[encrypt\]'"):
        MemoryStore(db_path, key=KEY)
    result = run("new", "--db", str(tmp := db_path.with_name("cli.db")))
    assert result.exit_code == 1 and "localmem[encrypt]" in result.output
    assert not tmp.exists() or tmp.stat().st_size == 0
