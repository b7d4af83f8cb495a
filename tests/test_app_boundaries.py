"""The apps import each other in one direction only (issue 10): no loop, and no import
tucked inside a function to dodge one.

Allowed: lobby → games, ratings; ratings → games; pages → anything it shows. games
imports none of them: it announces what happened through its signals.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("games", "ratings", "lobby", "pages")


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(imported module, whether the import sits inside a function) for one file."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                found.extend((alias.name, in_function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                found.append((child.module, in_function))
            visit(child, nested)

    visit(tree, False)
    return found


def _app_graph() -> tuple[dict[str, set[str]], list[str]]:
    graph: dict[str, set[str]] = {app: set() for app in APPS}
    hidden: list[str] = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for module, in_function in _imports(path):
                target = module.split(".")[0]
                if target in APPS and target != app:
                    graph[app].add(target)
                    if in_function:
                        hidden.append(f"{path.relative_to(ROOT)} imports {module} in a function")
    return graph, hidden


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}

    def walk(node: str, trail: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph.get(node, set())):
            if state.get(nxt) == 1:
                return [*trail, node, nxt]
            if nxt not in state and (found := walk(nxt, [*trail, node])):
                return found
        state[node] = 2
        return None

    for app in graph:
        if app not in state and (found := walk(app, [])):
            return found
    return None


def test_every_app_exists():
    for app in APPS:
        assert (ROOT / app / "apps.py").exists(), app


def test_no_import_loop_between_apps():
    graph, _hidden = _app_graph()
    assert _cycle(graph) is None, f"import loop: {' → '.join(_cycle(graph) or [])}"


def test_no_import_inside_a_function_crosses_an_app():
    _graph, hidden = _app_graph()
    assert hidden == []


def test_games_imports_no_other_app():
    graph, _hidden = _app_graph()
    assert graph["games"] == set()
    assert "lobby" not in graph["ratings"]


def test_the_walker_finds_a_loop():
    assert _cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
