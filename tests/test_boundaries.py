"""The package boundaries, read from the source with ast.

- world/ never imports harness/ or agents/;
- harness/ imports world/ only through its face, `world.face` (also when it names a
  module in a string, as the command table does);
- agents/ import nothing of harness/ but the agent kit and nothing of world/;
- an import inside a function says, in a comment on its line or just above, that it is
  there for start-up cost (anything else hides a cycle or a dependency);
- the modules of the three packages import one another without cycles, counting the
  imports inside functions;
- the level format (world/level/) sits below what its checker reads (world/levelcheck/):
  it imports neither the checker nor the mesh, the simulation or the objectives;
- harness/'s packages stand in layers (docs/ARCHITECTURE.md, "Packages of harness/"):
  a module imports from its own package and from lower layers only.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from tests.shared import ROOT

# The scan parses every module once per process (2 s of processor time): the tests that
# read it share a worker.
pytestmark = pytest.mark.xdist_group("boundaries")

PACKAGES = ("world", "harness", "agents")
FACE = "world.face"
AGENT_KIT = "harness.agent.kit"
# The kit's modules an agent may import (harness/agent/sandbox_fs.py binds them in the sandbox).
KIT = (AGENT_KIT, "harness.offline.quiz_rules")
# The LLM agent puts agents/ on its path and imports its parts as `llm.*`.
ALIASES = {"llm": "agents.llm"}
# harness/'s packages, lowest layer first; "" is the modules at the top of harness/ (the
# command table and the commands that span packages). `harness` itself holds only the
# version, and the sandbox asks it where the harness lies: every layer may import it.
HARNESS_LAYERS = (("core",), ("agent", "pages"), ("episode", "compare"),
                  ("suite", "rl", "offline", "mcp", "levels", "match"),
                  ("play", "docgen", "ladder", "pz"), ("",))
START_UP = re.compile(r"start-up", re.I)
MODULE_STRING = re.compile(r"^world(\.\w+)+(:\w+)?$")


@dataclass(frozen=True)
class Import:
    """One import statement's target, resolved to a module of ours or left external."""

    source: str
    target: str
    line: int
    in_function: bool
    commented: bool


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES
            for p in sorted((ROOT / package).rglob("*.py"))}


MODULES = sources()


def resolve(name: str) -> str:
    head, _, rest = name.partition(".")
    if head in ALIASES:
        name = ALIASES[head] + ("." + rest if rest else "")
    return name


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _commented(lines: list[str], line: int) -> bool:
    # The import's own line, or the comment lines right above it.
    if START_UP.search(lines[line - 1]):
        return True
    at = line - 2
    while at >= 0 and lines[at].strip().startswith("#"):
        if START_UP.search(lines[at]):
            return True
        at -= 1
    return False


def imports(module: str) -> Iterator[Import]:
    """Every import of one module, with whether it sits inside a function."""
    text = MODULES[module].read_text(encoding="utf-8")
    lines = text.splitlines()
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]

    def visit(node: ast.AST, in_function: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if _type_checking_only(child):
                continue
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                      ast.Lambda))
            if isinstance(child, ast.Import):
                names = [resolve(a.name) for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[:len(package.split(".")) - child.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                base = resolve(base)
                names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                         for a in child.names]
            else:
                yield from visit(child, inner)
                continue
            for name in dict.fromkeys(names):
                yield Import(module, name, child.lineno, in_function,
                             _commented(lines, child.lineno))

    yield from visit(ast.parse(text), False)


def ours(name: str) -> bool:
    return name.split(".")[0] in PACKAGES


@cache
def all_imports() -> tuple[Import, ...]:
    """Every import of every module, parsed once, when a test first asks (not at collection,
    which every pytest-xdist worker repeats)."""
    return tuple(i for m in MODULES for i in imports(m))


def where(i: Import) -> str:
    return f"{MODULES[i.source].relative_to(ROOT)}:{i.line} imports {i.target}"


def test_the_scan_sees_the_packages() -> None:
    # A broken scan would pass every rule below; these imports exist on purpose.
    found = all_imports()
    assert any(i.source == "harness.core.game" and i.target == FACE for i in found)
    assert any(i.source.startswith("agents.") and i.target == AGENT_KIT for i in found)
    assert any(i.source.startswith("world.") and i.target.startswith("world.") for i in found)


def test_world_imports_neither_harness_nor_agents() -> None:
    bad = [where(i) for i in all_imports() if i.source.startswith("world.")
           and i.target.split(".")[0] in ("harness", "agents")]
    assert bad == []


def test_harness_reaches_the_world_only_through_its_face() -> None:
    bad = [where(i) for i in all_imports() if i.source.startswith("harness.")
           and i.target.split(".")[0] == "world" and i.target != FACE]
    assert bad == []


def test_harness_names_no_world_module_but_the_face_in_strings() -> None:
    # importlib takes a module's name as a string: the command table is one such place.
    bad = []
    for module, path in MODULES.items():
        if not module.startswith("harness."):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and MODULE_STRING.match(node.value)
                    and node.value.split(":")[0] != FACE):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno} names {node.value}")
    assert bad == []


def test_agents_use_only_the_agent_kit() -> None:
    bad = [where(i) for i in all_imports() if i.source.startswith("agents.")
           and i.target.split(".")[0] in ("world", "harness") and i.target not in KIT]
    assert bad == []


def test_the_agent_kit_imports_nothing_of_ours() -> None:
    # The sandbox binds the kit's files alone: a kit module importing another of ours
    # would fail inside it.
    bad = [where(i) for i in all_imports() if i.source in KIT and ours(i.target)]
    assert bad == []


def test_the_packages_around_the_kit_import_nothing() -> None:
    # Importing a kit module runs its packages' __init__.py, which the sandbox binds too.
    around = {k.rpartition(".")[0] for k in KIT} | {"harness"}
    bad = [where(i) for i in all_imports() if i.source in around]
    assert bad == []


def test_imports_inside_functions_say_they_are_for_start_up_cost() -> None:
    bad = [where(i) for i in all_imports() if i.in_function and not i.commented]
    assert bad == [], "hoist them, or say why start-up cost keeps them in a comment"


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a list of modules, or None (iterative depth-first)."""
    state: dict[str, int] = {}  # 1 while on the stack, 2 once finished
    for start in sorted(edges):
        if start in state:
            continue
        stack: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(edges[start])))]
        state[start] = 1
        while stack:
            node, successors = stack[-1]
            nxt = next(successors, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                names = [n for n, _ in stack]
                return [*names[names.index(nxt):], nxt]
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(sorted(edges.get(nxt, ())))))
    return None


def test_find_cycle_finds_one_and_only_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycles() -> None:
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for i in all_imports():
        if ours(i.target) and i.target in edges and i.target != i.source:
            edges[i.source].add(i.target)
    assert find_cycle(edges) is None


def test_the_level_format_sits_below_its_checker() -> None:
    above = ("world.levelcheck", "world.navmesh", "world.sim", "world.objectives")
    bad = [where(i) for i in all_imports() if i.source.startswith("world.level.")
           and i.target.startswith(above)]
    assert bad == []


def harness_package(module: str) -> str:
    """The package of harness/ that holds a module ("" at the top of harness/)."""
    inside = MODULES[module].relative_to(ROOT / "harness").parts
    return inside[0] if len(inside) > 1 else ""


def test_every_package_of_harness_has_a_layer() -> None:
    layered = [p for layer in HARNESS_LAYERS for p in layer]
    found = {harness_package(m) for m in MODULES if m.startswith("harness.")}
    assert sorted(layered) == sorted(set(layered)) == sorted(found)


def test_harness_packages_import_only_their_own_and_lower_layers() -> None:
    layer = {p: n for n, ps in enumerate(HARNESS_LAYERS) for p in ps}
    bad = [where(i) for i in all_imports()
           if i.source.startswith("harness.") and i.target.startswith("harness.")
           and i.target in MODULES and harness_package(i.source) != harness_package(i.target)
           and layer[harness_package(i.target)] >= layer[harness_package(i.source)]]
    assert bad == []


# Test code that may find files from its own `__file__`: the one place for the rest, the
# agents (separate programs, run in a sandbox), and a module that also runs as a script.
OWN_PATHS = {"tests/shared.py", "tests/test_sim_determinism.py"}


def test_test_modules_find_files_through_shared() -> None:
    # tests/README.md: paths come from tests/shared.py, and tests/ is never put on sys.path.
    offenders = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if where in OWN_PATHS or where.startswith(("tests/agents/", "tests/data/")):
            continue
        text = path.read_text(encoding="utf-8")
        if re.search(r"Path\(__file__\)|sys\.path\.insert\(0, str\(Path", text):
            offenders.append(where)
    assert offenders == []
