"""The imports of ``engine`` and ``controller`` point one way: no module reaches itself again through imports.

Every import counts, at module level or inside a function (a late import that dodges a circle is still a circle);
imports under ``if TYPE_CHECKING:`` never run, so the first test leaves them out, but they still tie the modules
together: the second counts them too, and allows exactly the type-only circles ``TYPE_ONLY_CIRCLES`` lists.
Importing ``a.b.c`` runs ``a`` and ``a.b`` first, so it depends on them too, except on the importer's own packages
(already running by then): a package that re-exports its own modules is not a circle, a registry in a package
``__init__`` its members import from is. Heavy optional imports (OpenCV for the people's table) may stay inside
functions when they close no circle. The other first-party packages count as well, so that a circle through
``vision`` is seen too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRST_PARTY = ("engine", "controller", "vision", "firmware_bridge", "hw_tests")
GUARDED = ("engine", "controller")
"""The packages whose modules must lie on no circle."""
TYPE_ONLY_CIRCLES = [["engine.rulesets.base", "engine.rulesets.queries", "engine.rulesets.base"]]
"""Circles closed only by imports under ``if TYPE_CHECKING:``, as ``circles`` names them. The settle queries that
``Ruleset`` inherits annotate ``self`` as the ruleset (and ``engine.settle.request`` the ruleset it reads a hand
for). Riichi's (bots, play, ruleset, simulation, table) and 十万's (ruleset, table) went with their own tables when
the shared referee took their hands over (issue 25). The list may only shrink."""


def modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Every module of ``packages`` under ``root`` by dotted name (a package by its ``__init__.py``)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST, type_only: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement under ``node``, wherever it stands; the bodies of ``if TYPE_CHECKING:`` only with
    ``type_only``."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
        return
    if isinstance(node, ast.If) and _type_checking(node.test) and not type_only:
        children: list[ast.AST] = list(node.orelse)
    else:
        children = list(ast.iter_child_nodes(node))
    for child in children:
        yield from _imports(child, type_only)


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts))]


def imports_of(name: str, path: Path, known: dict[str, Path], type_only: bool = False) -> set[str]:
    """The known modules that importing ``name`` runs directly (see the module docstring for what counts), and
    with ``type_only`` those it imports for its annotations only."""
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path)), type_only):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = name.split(".") if is_package else name.split(".")[:-1]
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        targets.add(base)
        targets.update(f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known)
    running = {name, *_ancestors(name)}
    runs = {module for target in targets for module in (*_ancestors(target), target)}
    return {module for module in runs if module in known and module not in running}


def import_graph(root: Path, packages: tuple[str, ...], type_only: bool = False) -> dict[str, set[str]]:
    known = modules(root, packages)
    return {name: imports_of(name, path, known, type_only) for name, path in known.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of ``graph`` with more than one module (or a module importing itself), each
    as one circle through its first module, so the failure names a path to follow."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    parts: list[list[str]] = []

    def visit(start: str) -> None:  # Tarjan's algorithm, iterative: a long chain must not hit the recursion limit
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1 or node in graph[node]:
                    parts.append(sorted(part))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return [_circle_through(part, graph) for part in sorted(parts)]


def _circle_through(part: list[str], graph: dict[str, set[str]]) -> list[str]:
    """A shortest path from the part's first module back to itself, inside the part."""
    start, members = part[0], set(part)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & members):
                if child == start:
                    return [*paths[node], start]
                if child not in paths:
                    paths[child] = [*paths[node], child]
                    following.append(child)
        frontier = following
    raise AssertionError(f"no circle through {start} in {part}")  # a strongly connected part always has one


def test_engine_and_controller_imports_point_one_way():
    found = [
        circle
        for circle in circles(import_graph(ROOT, FIRST_PARTY))
        if any(module.split(".")[0] in GUARDED for module in circle)
    ]
    assert not found, "import circles (module -> module it imports):\n" + "\n".join(" -> ".join(c) for c in found)


def test_type_only_imports_close_no_circle_but_the_listed_ones():
    found = [
        circle
        for circle in circles(import_graph(ROOT, FIRST_PARTY, type_only=True))
        if any(module.split(".")[0] in GUARDED for module in circle)
    ]
    assert found == TYPE_ONLY_CIRCLES, "type-only import circles:\n" + "\n".join(" -> ".join(c) for c in found)


def _tree(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_late_import_closing_a_circle_is_found(tmp_path):
    _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import thing\n",
            "pkg/b.py": "def thing():\n    from pkg import a  # read it late\n    return a\n",
            "pkg/c.py": "from .a import thing\n",
        },
    )
    assert circles(import_graph(tmp_path, ("pkg",))) == [["pkg.a", "pkg.b", "pkg.a"]]


def test_a_registry_in_the_package_its_members_import_is_a_circle(tmp_path):
    """The shape ``engine.rulesets`` had: the package's ``__init__`` imports every member, a member imports the
    interface module, and an outside module the members use imports the interface too."""
    _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/referee.py": "from pkg.rules.base import Rules\n",
            "pkg/rules/__init__.py": "from pkg.rules.one import One\n",
            "pkg/rules/base.py": "class Rules: ...\n",
            "pkg/rules/one.py": "from pkg.referee import x\nfrom pkg.rules.base import Rules\n",
        },
    )
    assert circles(import_graph(tmp_path, ("pkg",))) == [["pkg.referee", "pkg.rules", "pkg.rules.one", "pkg.referee"]]


def test_type_checking_imports_and_a_package_re_exporting_its_modules_are_no_circle(tmp_path):
    _tree(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.a import A\nfrom pkg.b import B\n",
            "pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\nclass A: ...\n",
            "pkg/b.py": "from pkg.a import A\nclass B(A): ...\n",
        },
    )
    graph = import_graph(tmp_path, ("pkg",))
    assert graph == {"pkg": {"pkg.a", "pkg.b"}, "pkg.a": set(), "pkg.b": {"pkg.a"}}
    assert circles(graph) == []
    assert circles(import_graph(tmp_path, ("pkg",), type_only=True)) == [["pkg.a", "pkg.b", "pkg.a"]]
