"""One check every page of the site must pass, for any browser test to call.

`check_page(page, name, lang)` asserts that the document does not scroll sideways, runs
axe-core and fails on any serious or critical violation (listed one per line: rule, impact,
help, and the offending elements), and writes `var/screenshots/NAME-WxH-LANG.png`.

axe-core comes from the PyPI package axe-playwright-python, which ships axe's own
`axe.min.js` (4.12 today; MPL-2.0): it is in requirements.lock, so `make test` has it on
a fresh machine without npm. We only read that file and run it ourselves: the package's
runner builds its call as a string, which the pages' CSP would not let us extend.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from tests.live import ROOT

SCREENSHOTS = ROOT / "var" / "screenshots"
FAILING_IMPACTS = ("serious", "critical")
MINIMUM_AXE = (4, 10)


@cache
def axe_source() -> str:
    from axe_playwright_python.base import AXE_FILE_PATH

    source = Path(AXE_FILE_PATH).read_text(encoding="utf-8")
    # The file opens with "/*! axe v4.12.1": refuse an older axe than the rules we rely on.
    version = source[: source.index("\n")].split("axe v", 1)[1].strip()
    major, minor = (int(part) for part in version.split(".")[:2])
    assert (major, minor) >= MINIMUM_AXE, f"axe-core {version} is older than {MINIMUM_AXE}"
    return source


def sideways_overflow(page: Any) -> dict[str, int] | None:
    """The document's width and the viewport's when the page scrolls sideways, else None."""
    sizes = page.evaluate(
        "() => ({scroll: document.documentElement.scrollWidth,"
        " viewport: document.documentElement.clientWidth})"
    )
    return sizes if sizes["scroll"] > sizes["viewport"] else None


def text_lines(element: Any) -> int:
    """How many lines the text of `element` (a Playwright locator) is laid out on."""
    return int(
        element.evaluate(
            """(e) => { const range = document.createRange(); range.selectNodeContents(e);
                return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size; }"""
        )
    )


def axe_violations(page: Any, impacts: tuple[str, ...] = FAILING_IMPACTS) -> list[dict[str, Any]]:
    """axe-core's violations on the page whose impact is one of `impacts`."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated through the DevTools protocol, not a <script>: the CSP does not apply.
        page.evaluate(axe_source())
    results = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [v for v in results["violations"] if v.get("impact") in impacts]


def describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for violation in violations:
        lines.append(
            f"{violation['id']} ({violation['impact']}): {violation['help']} — "
            f"{violation['helpUrl']}"
        )
        for node in violation["nodes"][:5]:
            target = " ".join(str(part) for part in node["target"])
            summary = " ".join((node.get("failureSummary") or "").split())
            lines.append(f"    {target}  {node.get('html', '')[:120]}\n      {summary}")
        if len(violation["nodes"]) > 5:
            lines.append(f"    … and {len(violation['nodes']) - 5} more")
    return "\n".join(lines)


def screenshot_path(page: Any, name: str, lang: str) -> Path:
    size = page.viewport_size or {"width": 0, "height": 0}
    return SCREENSHOTS / f"{name}-{size['width']}x{size['height']}-{lang}.png"


def check_page(page: Any, name: str, lang: str, *, full_page: bool = True) -> Path:
    """Screenshot the page, then assert no sideways scrolling and no serious axe violation.

    The screenshot is written first so that a failing page can still be looked at.
    Returns the screenshot's path.
    """
    path = screenshot_path(page, name, lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size or {"width": 0, "height": 0}
    if full_page:
        # The whole page, but at most a few screens of it: the rule book is dozens of
        # screens long, and encoding all of it costs seconds per run for nothing.
        height = page.evaluate("() => document.documentElement.scrollHeight")
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(height, 4 * size["height"])}
        page.screenshot(path=str(path), full_page=True, clip=clip)
    else:
        page.screenshot(path=str(path))
    where = f"{name} at {size['width']}x{size['height']} in {lang!r}"
    overflow = sideways_overflow(page)
    if overflow:
        raise AssertionError(
            f"{where} scrolls sideways: the document is {overflow['scroll']} px wide"
            f" in a {overflow['viewport']} px viewport (see {path})"
        )
    violations = axe_violations(page)
    assert not violations, f"{where}: axe-core found\n{describe(violations)}\n(see {path})"
    return path
