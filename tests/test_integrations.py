"""The framework integrations stay optional: the core never imports a framework,
and an integration without its framework says which extra to install.

These run whether or not the frameworks are installed (each check runs in a
fresh interpreter, so nothing already imported here can hide an import).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FRAMEWORKS = ("agents", "openai", "langchain_core", "langsmith")


def python(code: str) -> subprocess.CompletedProcess:
    paths = [str(ROOT), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120
    )


def test_importing_localmem_imports_no_framework() -> None:
    out = python(
        "import sys, localmem, localmem.integrations, localmem.cli\n"
        "from localmem import MemoryStore\n"
        "MemoryStore(':memory:').close()\n"
        f"print(sorted(m for m in {FRAMEWORKS!r} if m in sys.modules))"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("localmem.integrations.openai_agents", "agents", "localmem[openai-agents]"),
        ("localmem.integrations.langchain", "langchain_core", "localmem[langchain]"),
    ],
)
def test_an_integration_without_its_framework_names_its_extra(
    module: str, blocked: str, extra: str
) -> None:
    # sys.modules[name] = None makes "import name" fail, as if it were not installed.
    out = python(
        f"import sys; sys.modules[{blocked!r}] = None\n"
        "from localmem.errors import LocalMemError, MissingExtra\n"
        "try:\n"
        f"    import {module}\n"
        "except MissingExtra as exc:\n"
        "    assert isinstance(exc, ImportError) and isinstance(exc, LocalMemError)\n"
        "    print(exc)\n"
    )
    assert out.returncode == 0, out.stderr
    assert f"pip install '{extra}'" in out.stdout
