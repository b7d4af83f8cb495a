"""The documents keep up with the code: every socket message kind, layer event and error
code is in docs/protocol.md, and every setting in docs/operations.md.

What is checked is read from the code itself (each messages module's types, each error
class's codes, the settings module's source), so a new kind, code or setting without its
line in the documents fails here.
"""

from __future__ import annotations

import ast
import importlib
import typing
from pathlib import Path
from typing import Any

from realtime.errors import CodedError

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
# Folders that hold no module of the platform's.
NOT_THE_PLATFORM = {".venv", "node_modules", "tests", "var", "static", "locale", "bench"}


def _platform_modules(name: str) -> list[str]:
    """The dotted names of the platform's modules whose name ends in `name` (messages,
    user_messages, errors…), wherever an app keeps them."""
    found = []
    for path in sorted(ROOT.rglob(f"*{name}.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[0] in NOT_THE_PLATFORM or parts[0].startswith("."):
            continue
        if all((ROOT.joinpath(*parts[:i]) / "__init__.py").is_file() for i in range(1, len(parts))):
            found.append(".".join(parts))
    return found


def _kinds(typed_dict: Any) -> set[str]:
    """The `type` values a message type (a TypedDict) declares; none when it has no `type`."""
    hint = typing.get_type_hints(typed_dict).get("type")
    if typing.get_origin(hint) is not typing.Literal:
        return set()
    return {value for value in typing.get_args(hint) if isinstance(value, str)}


def _union_members(alias: Any) -> tuple[Any, ...]:
    args = typing.get_args(alias)
    return args if args else (alias,)


def message_kinds() -> dict[str, set[str]]:
    """Every kind of every socket's vocabulary, both directions and the layer's events: the
    `type` of each TypedDict in a messages module and in each union the module composes
    (ServerMessage, ClientMessage, LayerEvent), keyed by where it was found."""
    kinds: dict[str, set[str]] = {}
    for module_name in _platform_modules("messages"):
        module = importlib.import_module(module_name)
        types = [v for v in vars(module).values() if typing.is_typeddict(v)]
        for union in ("ServerMessage", "ClientMessage", "LayerEvent"):
            if hasattr(module, union):
                types += [
                    m for m in _union_members(getattr(module, union)) if typing.is_typeddict(m)
                ]
        for message_type in types:
            for kind in _kinds(message_type):
                kinds.setdefault(kind, set()).add(
                    f"{message_type.__module__}.{message_type.__name__}"
                )
    return kinds


def error_codes() -> dict[str, str]:
    """Every code of every error registry: each CodedError class's messages, once every
    errors module is imported."""
    for module_name in _platform_modules("errors"):
        importlib.import_module(module_name)
    codes: dict[str, str] = {}
    classes = [CodedError]
    while classes:
        cls = classes.pop()
        classes += cls.__subclasses__()
        for code in cls.messages:
            codes.setdefault(code, f"{cls.__module__}.{cls.__name__}")
    return codes


def _quoted(text: str) -> set[str]:
    """Every `code span` of a Markdown text."""
    return set(text.split("`")[1::2])


def test_the_vocabularies_are_found() -> None:
    # Guards the discovery itself: the sockets' shared kinds and the three sockets' own.
    kinds = message_kinds()
    assert {"error", "pong", "ping", "service", "state", "action", "standings"} <= set(kinds)
    assert any("." in kind for kind in kinds), "no layer event found"
    assert {"bad_request", "not_your_turn", "arena_not_found"} <= set(error_codes())


def test_every_message_kind_and_layer_event_is_in_the_protocol() -> None:
    documented = _quoted((DOCS / "protocol.md").read_text())
    missing = {
        kind: sorted(where) for kind, where in message_kinds().items() if kind not in documented
    }
    assert not missing, f"docs/protocol.md does not name these kinds: {missing}"


def test_every_error_code_is_in_the_protocol() -> None:
    documented = _quoted((DOCS / "protocol.md").read_text())
    missing = {code: where for code, where in error_codes().items() if code not in documented}
    assert not missing, f"docs/protocol.md does not name these error codes: {missing}"


def settings_read() -> tuple[set[str], set[str]]:
    """(the environment variables config/settings.py reads, the setting names it defines):
    the first argument of every `env(...)`/`env.<cast>(...)` call, and every upper-case
    name it assigns."""
    tree = ast.parse((ROOT / "config" / "settings.py").read_text())
    variables: set[str] = set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            function = node.func
            is_env = (isinstance(function, ast.Name) and function.id == "env") or (
                isinstance(function, ast.Attribute)
                and isinstance(function.value, ast.Name)
                and function.value.id == "env"
            )
            if is_env and node.args and isinstance(node.args[0], ast.Constant):
                variables.add(str(node.args[0].value))
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        names |= {t.id for t in targets if isinstance(t, ast.Name) and t.id.isupper()}
    return variables, names


def test_the_settings_are_found() -> None:
    variables, names = settings_read()
    assert {"DATABASE_URL", "REDIS_URL", "AXES_COOLOFF_HOURS"} <= variables
    assert {"INSTALLED_APPS", "AXES_COOLOFF_TIME", "CELERY_TASK_DEFAULT_QUEUE"} <= names


def test_every_setting_is_in_the_operations_page() -> None:
    documented = _quoted((DOCS / "operations.md").read_text())
    variables, names = settings_read()
    assert not variables - documented, (
        f"docs/operations.md does not name these variables: {sorted(variables - documented)}"
    )
    assert not names - documented, (
        f"docs/operations.md does not name these settings: {sorted(names - documented)}"
    )
