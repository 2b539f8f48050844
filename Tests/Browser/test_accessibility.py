"""An automated accessibility check (axe-core 4, the copy PyPI axe-playwright-python ships,
injected through Selenium) over every page, in both themes, at phone and desktop sizes.
WCAG 2.x A and AA rules; any violation fails, whatever its impact."""
import importlib.util
import json
import os
import urllib.request

import pytest

PAGES = ["/", "/search?q=blok+m", "/stops/SLBB", "/stops/SBKM?arrivals=1", "/alerts", "/stops/NOPE",
         "/journeys?from=SLBB&to=SBHI&date=2026-11-23&time=08:00"]
SIZES = {"phone": (360, 800), "desktop": (1280, 900)}


def _axe_source():
    # Found without importing the package (which would import Playwright, not used here).
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or spec.origin is None:
        from conftest import _missing
        _missing("axe-core is not installed (pip install --no-deps axe-playwright-python)")
    with open(os.path.join(os.path.dirname(spec.origin), "axe.min.js"), encoding="utf-8") as f:
        return f.read()


def _run_axe(browser, source):
    browser.execute_script(source)
    return browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
        ".then(r => done(r), e => done({error: String(e)}));")


def _service_path(server):
    with urllib.request.urlopen(server + "/api/v1/stops/SLBB/departures?limit=1", timeout=10) as r:
        row = json.load(r)["departures"][0]
    return f"/services/{row['tripId']}?date={row['serviceDate']}"


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_pages_have_no_accessibility_violations(server, browser, theme, size):
    source = _axe_source()
    browser.set_window_size(*SIZES[size])
    browser.set_script_timeout(60)
    found = {}
    for path in PAGES + [_service_path(server)]:
        separator = "&" if "?" in path else "?"
        browser.get(f"{server}{path}{separator}theme={theme}")
        results = _run_axe(browser, source)
        assert "error" not in results, results
        violations = [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes'][:3]]}"
                      for v in results["violations"]]
        if violations:
            found[path] = violations
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)
