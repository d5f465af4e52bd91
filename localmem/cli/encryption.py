"""``encrypt`` and ``decrypt``: a plain memory file encrypted in place, and a plain
copy of an encrypted one. The key is read as every command reads it:
``$LOCALMEM_KEY``, else ``$LOCALMEM_KEY_FILE``, else the keyring (``localmem.keys``);
it is never an option, so it stays out of the shell's history and ``ps``."""

from __future__ import annotations

from pathlib import Path

import click

from ..config import default_db_path
from ..encryption import decrypt_file, encrypt_file
from ..errors import LocalMemError
from .base import cli, db_option, json_option
from .output import echo_json


@cli.command()
@db_option
@json_option
def encrypt(db_path: Path | None, as_json: bool) -> None:
    """Encrypt the plain database in place with the key of $LOCALMEM_KEY (or
    $LOCALMEM_KEY_FILE, or the keyring), keeping every row.

    The encrypted copy is built beside the file and renamed over it once checked:
    an interruption leaves the plain file as it was. Close the programs that use
    the file first. Needs the extra: pip install 'localmem[encrypt]'.
    """
    path = db_path if db_path is not None else default_db_path()
    try:
        done = encrypt_file(path)
    except LocalMemError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        echo_json({"path": str(done), "encrypted": True})
        return
    click.echo(f"Encrypted {done}: open it with the same key ($LOCALMEM_KEY or $LOCALMEM_KEY_FILE)")


@cli.command()
@db_option
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The plain copy to write (a new file; readable by you alone).",
)
@json_option
def decrypt(db_path: Path | None, output: Path, as_json: bool) -> None:
    """Write a plain (unencrypted) copy of the encrypted database to OUTPUT, a new file.

    The database itself stays encrypted. The copy holds every conversation in
    clear: delete it when done.
    """
    path = db_path if db_path is not None else default_db_path()
    try:
        done = decrypt_file(path, output)
    except LocalMemError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        echo_json({"path": str(done), "source": str(path)})
        return
    click.echo(f"Wrote a plain copy of {path} to {done}")
