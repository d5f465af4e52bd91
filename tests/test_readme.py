"""The README's Python example runs as written: no Ollama server, no write to the
user's real database (it uses a temporary file)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)


def test_the_first_python_example_runs_offline_and_leaves_the_real_database_alone(
    tmp_path: Path, dead_ollama_host: str
) -> None:
    example = python_blocks()[0]
    home = tmp_path / "home"
    home.mkdir()
    real = home / "real-memory.db"
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "LOCALMEM_DB": str(real),
        "OLLAMA_HOST": dead_ollama_host,
    }
    done = subprocess.run(
        [sys.executable, "-c", example], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "She is allergic to penicillin." in done.stdout  # the auto pin made it into the context
    assert not real.exists() and not (home / "data").exists()


def test_the_readme_says_how_to_run_localmem_after_the_set_up() -> None:
    text = README.read_text(encoding="utf-8")
    assert ".venv/bin/pip install -q . && .venv/bin/localmem demo" in text
    assert ".venv/bin/pip install -q '.[test]' && .venv/bin/pytest" in text
    assert "source .venv/bin/activate" in text and "`.venv/bin/localmem ...`" in text


SKIP_MARKER = "# readme-test: skip"
"""A block's first line with this marker (and its reason) is not run: it needs a live
model or the user's own objects. Every other block runs as pasted."""


def test_every_python_block_runs_as_pasted(tmp_path: Path, dead_ollama_host: str) -> None:
    ran = 0
    for number, block in enumerate(python_blocks()):
        if block.startswith(SKIP_MARKER):
            assert "(" in block.splitlines()[0], "a skipped block says why"
            continue
        folder = tmp_path / str(number)
        folder.mkdir()
        env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
               "LOCALMEM_DB": str(folder / "real.db"), "OLLAMA_HOST": dead_ollama_host}
        done = subprocess.run([sys.executable, "-c", block], cwd=folder, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"README python block {number}:\n{block}\n{done.stderr}"
        ran += 1
    skipped = sum(b.startswith(SKIP_MARKER) for b in python_blocks())
    assert ran >= 3 and skipped <= 2  # the marker stays the exception
