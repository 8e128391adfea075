"""The layers of DESIGN §2 and docs/architecture.md, checked on the source: the import graph
of `pbem/` is built from every `import` statement (at module level, inside functions and
under `if TYPE_CHECKING:` alike — a circle hidden in a function is still a circle), and

- no module takes part in an import circle;
- core imports no game, no adapter (mail, reports) and nothing of the composition root;
- a game's rules import no mail, no reports and no storage;
- mail and reports import no game and nothing of the composition root.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path


PACKAGE = Path(__file__).resolve().parents[1] / "pbem"

#: What sits on top and wires the rest together: nothing below may import it.
COMPOSITION_ROOT = ("pbem.app", "pbem.cli", "pbem.__main__", "pbem.tools")
GAMES = ("pbem.rules",)
ADAPTERS = ("pbem.mail", "pbem.reports")
#: Where facts are kept: the event store and the libraries behind it.
STORAGE = ("pbem.core.store", "eventsourcing", "sqlite3", "psycopg", "psycopg_pool")


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int

    def __str__(self) -> str:
        return f"{self.importer} -> {self.imported} ({module_path(self.importer)}:{self.line})"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_path(name: str) -> str:
    return str(MODULES[name].relative_to(PACKAGE.parent))


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _absolute(importer: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = importer if MODULES[importer].name == "__init__.py" else importer.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def imports_in(importer: str, source: str) -> Iterator[Import]:
    """Every module `importer` imports, wherever the statement stands; `from p import m`
    names submodule `p.m` when there is one."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(importer, alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(importer, node)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                yield Import(importer, submodule if submodule in MODULES else base, node.lineno)


IMPORTS = list(dict.fromkeys(i for name, path in MODULES.items()
                             for i in imports_in(name, path.read_text(encoding="utf-8"))))
GRAPH: dict[str, set[str]] = {name: set() for name in MODULES}
for _import in IMPORTS:
    if _import.imported in MODULES and _import.imported != _import.importer:
        GRAPH[_import.importer].add(_import.imported)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
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
    return sorted(found)


def shortest_cycle(graph: dict[str, set[str]], start: str) -> list[str]:
    """A shortest path from `start` back to itself (breadth first)."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node]):
                if target == start:
                    return paths[node] + [start]
                if target not in paths:
                    paths[target] = paths[node] + [target]
                    following.append(target)
        frontier = following
    return []


def describe(component: list[str]) -> str:
    members = set(component)
    cycle = shortest_cycle({n: GRAPH[n] & members for n in component}, component[0])
    lines = [f"import circle of {len(component)} modules: {', '.join(component)}",
             "  for instance: " + " -> ".join(cycle)]
    lines += [f"    {i}" for i in IMPORTS
              if i.importer in members and i.imported in members and i.importer != i.imported]
    return "\n".join(lines)


def forbidden(importers: tuple[str, ...], imported: tuple[str, ...]) -> str:
    """The imports from `importers` into `imported`, one a line ("" when there are none)."""
    return "\n".join(str(i) for i in IMPORTS if within(i.importer, importers) and within(i.imported, imported))


def test_the_graph_sees_imports_inside_functions_and_type_checking_blocks():
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .service import CampaignService\n"
              "def f():\n    from pbem.core import clock, ruleset as rulesets\n    import pbem.mail.daemon\n")
    found = {(i.imported, i.line) for i in imports_in("pbem.core.gm", source)}
    assert found == {("typing", 1), ("pbem.core.service", 3), ("pbem.core.clock", 5), ("pbem.core.ruleset", 5),
                     ("pbem.mail.daemon", 6)}
    assert "pbem.tools.demo" in GRAPH["pbem.cli"]  # imported inside the `pbem demo` command


def test_circles_are_found_and_shown():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert shortest_cycle(graph, "a") == ["a", "b", "c", "a"]


def test_no_import_circle_outside_the_rules():
    found = [c for c in circles(GRAPH) if not all(within(m, GAMES) for m in c)]
    assert not found, "\n\n".join(describe(c) for c in found)


def test_no_import_circle_in_the_rules():
    found = [c for c in circles(GRAPH) if all(within(m, GAMES) for m in c)]
    assert not found, "\n\n".join(describe(c) for c in found)


def test_core_imports_no_game_no_adapter_and_not_the_composition_root():
    found = forbidden(("pbem.core",), GAMES + ADAPTERS + COMPOSITION_ROOT)
    assert not found, found


def test_rules_import_no_mail_no_reports_no_storage():
    found = forbidden(GAMES, ADAPTERS + STORAGE + COMPOSITION_ROOT)
    assert not found, found


def test_mail_and_reports_import_no_game_and_not_the_composition_root():
    found = forbidden(ADAPTERS, GAMES + COMPOSITION_ROOT)
    assert not found, found


def test_the_composition_root_imports_nothing_built_on_it():
    found = forbidden(("pbem.app",), ("pbem.cli", "pbem.tools"))
    assert not found, found


def _distribution(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", requirement)[0]).lower()


def test_every_library_pbem_imports_is_declared_in_pyproject():
    """An import of a library that only arrives as another's dependency breaks the day that
    library stops bringing it (markupsafe came with jinja2, pydantic_core with pydantic)."""
    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {_distribution(r) for r in project["dependencies"]}
    declared |= {_distribution(r) for extra in project["optional-dependencies"].values() for r in extra}
    providers = metadata.packages_distributions()
    undeclared = sorted(
        str(i) for i in IMPORTS
        if (top := i.imported.partition(".")[0]) != "pbem" and top not in sys.stdlib_module_names
        and not {_distribution(d) for d in providers.get(top, [top])} & declared)
    assert not undeclared, "imported but not declared in pyproject.toml:\n" + "\n".join(undeclared)
