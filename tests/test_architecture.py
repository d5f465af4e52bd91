"""The layers of ARCHITECTURE.md, held: no import runs from a lower layer to a
higher one, the SQL takes no policy, and no modules import each other in a loop;
a capability of the store imports another only when it is given it by name
(its constructor takes it), as ``CAPABILITY_USES`` lists; ``MemoryStore`` is
composed, not inherited.

Every module of ``localmem`` is parsed with ``ast`` (nothing is imported), each
import is resolved to the localmem module it names, and each module is mapped
to its layer. Every import counts, also those inside functions and under
``TYPE_CHECKING``: a dependency hidden from the interpreter is still one.

The tree stays shallow: the longest chain of module-level imports (those run when
a module is imported: not inside functions, not under ``TYPE_CHECKING``) is at
most :data:`MAX_IMPORT_CHAIN` modules, so a reader follows any module down to the
records in a few steps.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

# Found by path, not imported: the check must run even when an import loop
# stops the package from importing at all.
PACKAGE = Path(__file__).resolve().parents[1] / "localmem"

# Bottom to top; ARCHITECTURE.md says what each layer is for. A subpackage's
# modules take its layer unless named themselves.
LAYERS: dict[str, tuple[str, ...]] = {
    "records": ("errors", "models", "reports", "migrations", "config", "keys", "outcome"),
    "policies": (
        "args", "tokens", "scoring", "extract", "answers", "autopins", "facts", "kinds", "remember",
        "testimony", "search",
        "context", "packing", "cache", "jsonl", "exports", "rank", "updates", "corrections", "revisions", "replaced", "replies", "grounding", "statements",
        "progress", "acts", "entities", "verbs", "claims",
        "standing",
        "clock", "words", "state_lines", "checkpoint", "checkpoint_request", "model_checkpoint", "periods", "excerpt", "reranking", "drafts",
        "batches", "sources", "clauses", "roles", "changes", "renames", "doses", "statuses", "staleness",
        "memos",
        "turns",
        "guesses",
        "trust",
    ),
    "sql": ("db",),
    "files": ("files",),
    "network": ("summarizer", "embeddings"),
    "handle": ("handle", "vectors"),
    "capabilities": (
        "localmodel", "semantic", "recall", "state", "checkpoints", "forget", "pins", "summaries",
        "span_facts", "resummarize", "messages", "items", "contexts", "transfer", "maintain", "admin", "browse",
        "incognito", "sessions", "history", "verdicts",
    ),
    "store": ("store", "encryption"),
    "front": (
        "", "__main__", "aio", "cli", "doctor", "demo", "integrations", "mcp_server", "mcp_stdio", "mcp_tools",
        "mcp_text", "ui", "replica",
    ),
}

# Which layers each layer may import (its own always). The SQL takes no
# policy; pure policies take no connection; the network corner knows no store
# and no SQL.
MAY_IMPORT: dict[str, set[str]] = {
    "records": set(),
    "policies": {"records"},
    "sql": {"records"},
    "files": {"records"},
    "network": {"records", "policies"},
    "handle": {"records", "policies", "sql"},
    "capabilities": {"records", "policies", "sql", "files", "network", "handle"},
    "store": {"records", "policies", "sql", "files", "network", "handle", "capabilities"},
    "front": {"records", "policies", "sql", "files", "network", "handle", "capabilities", "store"},
}

# Which capabilities each capability is given (its constructor's arguments, by
# name) and so may import; none reaches another any other way. ARCHITECTURE.md
# draws the same table.
CAPABILITY_USES: dict[str, set[str]] = {
    "localmodel": set(),
    "semantic": set(),
    "recall": {"semantic"},
    "transfer": set(),
    "browse": set(),
    "state": {"localmodel"},
    "verdicts": set(),
    "checkpoints": {"localmodel", "state", "verdicts"},
    "forget": {"checkpoints"},
    "pins": {"forget"},
    "span_facts": {"localmodel", "verdicts"},
    "summaries": {"localmodel", "pins", "checkpoints", "verdicts", "span_facts"},
    "resummarize": {"localmodel", "summaries", "span_facts"},
    "messages": {"pins", "summaries"},
    "items": {"messages", "forget"},
    "contexts": {"localmodel", "recall"},
    "maintain": {"summaries", "resummarize"},
    "admin": {"forget", "contexts"},
    "incognito": {"forget", "transfer", "localmodel", "recall"},
    "sessions": {"incognito"},
    "history": {"transfer", "pins", "span_facts"},
}

WHERE = "tests/test_architecture.py LAYERS (and ARCHITECTURE.md)"

MAX_IMPORT_CHAIN = 9
"""Modules in the longest chain of module-level imports, both ends counted."""


def module_name(path: Path) -> str:
    parts = ("localmem", *path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> dict[str, str]:
    """Every module of the package: dotted name -> source."""
    return {module_name(p): p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.py"))}


def module_level(tree: ast.Module) -> list[ast.stmt]:
    """The statements run when the module is imported: its body and the blocks of its
    top-level ``if``/``try``/``with``, not functions, classes nor ``if TYPE_CHECKING:``."""
    out: list[ast.stmt] = []
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, ast.If):
            if "TYPE_CHECKING" not in ast.unparse(node.test):
                todo += node.body
            todo += node.orelse
        elif isinstance(node, ast.Try):
            todo += node.body + node.orelse + node.finalbody
            todo += [s for handler in node.handlers for s in handler.body]
        elif isinstance(node, ast.With):
            todo += node.body
    return out


def imports_of(module: str, source: str, known: set[str], *, top_level: bool = False) -> set[str]:
    """The localmem modules ``module`` imports (``from . import db`` is
    ``localmem.db``; ``from .models import Pin`` is ``localmem.models``); with
    ``top_level``, only those it imports when imported (:func:`module_level`)."""
    is_package = any(other.startswith(module + ".") for other in known)
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(source)
    for node in module_level(tree) if top_level else ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == "localmem"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "localmem":
                continue
            for alias in node.names:
                name = f"{target}.{alias.name}"
                found.add(name if name in known else target)
    found.discard(module)
    return found


def layer_of(module: str) -> str | None:
    """The layer of a module: that of its own name, or of its nearest package named."""
    parts = module.split(".")[1:]
    # "" is the package itself; a module of the top level has no package named
    candidates = [".".join(parts[:end]) for end in range(len(parts), 0, -1)] or [""]
    for name in candidates:
        for layer, names in LAYERS.items():
            if name in names:
                return layer
    return None


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import loops of ``graph`` (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def longest_chain(modules: dict[str, str]) -> list[str]:
    """The longest chain of module-level imports among ``modules`` (name -> source)."""
    known = set(modules)
    graph = {name: imports_of(name, source, known, top_level=True) for name, source in modules.items()}
    longest: dict[str, list[str]] = {}

    def chain(name: str) -> list[str]:
        if name not in longest:
            longest[name] = [name]  # a loop (caught by the layer test) ends here
            below = max((chain(n) for n in sorted(graph.get(name, ()))), key=len, default=[])
            longest[name] = [name, *below]
        return longest[name]

    return max((chain(name) for name in sorted(graph)), key=len)


def problems(modules: dict[str, str]) -> list[str]:
    """Everything wrong with the imports of ``modules`` (name -> source), as sentences."""
    known = set(modules)
    graph = {name: imports_of(name, source, known) for name, source in modules.items()}
    out = []
    for name in sorted(graph):
        layer = layer_of(name)
        if layer is None:
            out.append(f"{name} has no layer: add it to {WHERE}")
            continue
        for target in sorted(graph[name]):
            target_layer = layer_of(target)
            if target_layer is not None and target_layer != layer:
                if target_layer not in MAY_IMPORT[layer]:
                    out.append(f"{name} ({layer}) imports {target} ({target_layer})")
    out += [f"import loop: {' -> '.join(loop)}" for loop in cycles(graph)]
    out += capability_problems(modules, graph)
    return out


def given(source: str, classes: dict[str, str]) -> set[str]:
    """The capability modules whose classes a module's constructors take (the names
    annotating ``__init__``'s parameters; ``classes``: class name -> its module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == "__init__":
            for arg in node.args.args + node.args.kwonlyargs:
                if arg.annotation is not None:
                    for name in ast.walk(arg.annotation):
                        if isinstance(name, ast.Name) and name.id in classes:
                            found.add(classes[name.id])
    return found


def capability_problems(modules: dict[str, str], graph: dict[str, set[str]]) -> list[str]:
    """Each capability imports exactly the capabilities its constructor is given, and
    those are the ones ``CAPABILITY_USES`` lists."""
    names = {f"localmem.{n}": n for n in LAYERS["capabilities"]}
    classes = {
        node.name: names[module]
        for module in names
        if module in modules
        for node in ast.parse(modules[module]).body
        if isinstance(node, ast.ClassDef)
    }
    out = []
    for module, short in sorted(names.items()):
        if module not in modules:
            continue
        imported = {names[t] for t in graph.get(module, ()) if t in names}
        passed = given(modules[module], classes) - {short}
        allowed = CAPABILITY_USES.get(short, set())
        for other in sorted(imported - passed):
            out.append(f"{module} imports the capability {other} without being given it")
        for other in sorted((imported | passed) - allowed):
            out.append(f"{module} uses the capability {other}: not in CAPABILITY_USES")
    return out


def test_every_import_follows_the_layers():
    assert problems(sources()) == []


STORE_SIDE = ("store", "capabilities", "handle")


def test_the_import_tree_is_shallow_below_the_store():
    modules = {n: source for n, source in sources().items() if layer_of(n) not in STORE_SIDE}
    chain = longest_chain(modules)
    assert len(chain) <= MAX_IMPORT_CHAIN, f"{len(chain)} modules deep: " + " -> ".join(chain)


def test_the_store_side_adds_at_most_two_levels():
    """The door imports the capabilities and the handle; a capability imports the
    others it is given only for the type checker, so none of them stands in a line."""
    full = longest_chain(sources())
    below = longest_chain({n: s for n, s in sources().items() if layer_of(n) not in STORE_SIDE})
    side = [n for n in full if layer_of(n) in STORE_SIDE]
    assert len(side) <= 3, " -> ".join(full)  # the door, a capability, (a record it names)
    assert len(full) <= len(below) + 4, " -> ".join(full)


def test_the_import_tree_is_shallow():
    chain = longest_chain(sources())
    assert len(chain) <= MAX_IMPORT_CHAIN, f"{len(chain)} modules deep: " + " -> ".join(chain)


def test_a_deep_chain_is_measured():
    modules = {
        "localmem.a": "from . import b\n",
        "localmem.b": "from .c import x\nif TYPE_CHECKING:\n    from . import d\n",
        "localmem.c": "def f():\n    from . import d\n",
        "localmem.d": "",
    }
    assert longest_chain(modules) == ["localmem.a", "localmem.b", "localmem.c"]
    modules["localmem.c"] = "try:\n    from . import d\nexcept ImportError:\n    pass\n"
    assert longest_chain(modules) == ["localmem.a", "localmem.b", "localmem.c", "localmem.d"]


def test_an_upward_import_is_caught():
    modules = sources()
    modules["localmem.models"] += "\nfrom .store import MemoryStore\n"
    found = problems(modules)
    assert "localmem.models (records) imports localmem.store (store)" in found
    assert any(p.startswith("import loop:") and "localmem.models" in p for p in found)


def test_the_sql_taking_a_policy_is_caught():
    modules = sources()
    modules["localmem.db.pins"] += "\nfrom ..autopins import pin_key\n"
    assert problems(modules) == ["localmem.db.pins (sql) imports localmem.autopins (policies)"]


def test_a_loop_within_a_layer_is_caught():
    modules = sources()
    modules["localmem.models"] += "\nif TYPE_CHECKING:\n    from .errors import LocalMemError\n"
    assert problems(modules) == ["import loop: localmem.errors -> localmem.models"]


def test_a_new_module_must_be_placed():
    modules = sources()
    modules["localmem.newroom"] = "from . import db\n"
    assert problems(modules) == [f"localmem.newroom has no layer: add it to {WHERE}"]


def test_a_capability_importing_one_it_is_not_given_is_caught():
    modules = sources()
    modules["localmem.recall"] += "\nfrom .pins import Pins\n"
    assert problems(modules) == [
        "localmem.recall imports the capability pins without being given it",
        "localmem.recall uses the capability pins: not in CAPABILITY_USES",
    ]


def test_a_capability_given_one_the_table_does_not_list_is_caught():
    modules = sources()
    modules["localmem.browse"] = modules["localmem.browse"].replace(
        "def __init__(self, handle: Handle)", "def __init__(self, handle: Handle, pins: Pins)"
    ) + "\nfrom .pins import Pins\n"
    assert problems(modules) == ["localmem.browse uses the capability pins: not in CAPABILITY_USES"]


def test_every_capability_is_in_the_table():
    assert set(CAPABILITY_USES) == set(LAYERS["capabilities"])


def test_the_store_is_composed_not_inherited():
    """At most one base: the capabilities are objects it holds, and every public
    method hands its call to one of them."""
    from localmem import MemoryStore  # here: the checks above must run without importing

    assert len(MemoryStore.__mro__) <= 3 and MemoryStore.__mro__[-1] is object
    store = MemoryStore(":memory:")
    try:
        held = {type(v).__module__ for k, v in vars(store).items() if k.startswith("_")}
    finally:
        store.close()
    assert {f"localmem.{n}" for n in LAYERS["capabilities"]} <= held


def test_every_layer_named_exists():
    named = {f"localmem.{n}".rstrip(".") for names in LAYERS.values() for n in names}
    assert named <= set(sources())
