"""A non-editable install carries everything localmem needs at run time."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_wheel_ships_the_encoding_and_the_plugin(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        timeout=600,
    )
    (wheel,) = tmp_path.glob("localmem-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "localmem/data/cl100k_base.tiktoken",
        "localmem/py.typed",
        "tiktoken_ext/localmem_encodings.py",
        "localmem/summarizer/engine.py",
        "localmem/ui/templates/base.html",
        "localmem/ui/templates/facts.html",
        "localmem/ui/static/ui.js",
        "localmem/ui/static/ui.css",
    } <= names
    assert not any(name.startswith("tests/") for name in names)
