"""National Rail and the CTA bus tracker in the browser, with recorded answers
replayed by Scripts/replay-upstreams.py standing in for both upstreams."""
import subprocess
import sys

import pytest

from conftest import wait, ROOT, OnwardServer, _free_port

TOKEN = "TOKEN-SECRET-123"
KEY = "KEY-SECRET-456"


@pytest.fixture(scope="module")
def upstream_server():
    """`onward serve` configured for National Rail and the bus tracker, pointed at the replay."""
    if not (ROOT.parent / "shared" / "data" / "darwin-ldbws").is_dir():
        pytest.skip("../shared/data is missing: no recordings to replay")
    replay_port = _free_port()
    replay = subprocess.Popen([sys.executable, str(ROOT / "Scripts" / "replay-upstreams.py"), "--port", str(replay_port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert replay.stdout.readline().decode().startswith("listening"), "the replay did not start"
    env = {"ONWARD_NATIONAL_RAIL_TOKEN": TOKEN, "ONWARD_NATIONAL_RAIL_URL": f"http://127.0.0.1:{replay_port}/darwin",
           "ONWARD_CTA_KEY": KEY, "ONWARD_CTA_URL": f"http://127.0.0.1:{replay_port}/cta/v2"}
    try:
        onward = OnwardServer(env=env)
    except Exception:
        replay.kill()
        raise
    yield onward.base
    log = onward.stop()
    replay.terminate()
    replay.wait(timeout=5)
    # Nothing the server logged shows the token or the key.
    assert TOKEN not in log and KEY not in log


def test_national_rail_board_with_calling_points_and_station_messages(upstream_server, browser, shot):
    from selenium.webdriver.common.by import By
    browser.set_window_size(1280, 900)
    browser.get(upstream_server + "/stops/national-rail:ECR")
    rows = wait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board-rows tr"))
    assert len(rows) == 7
    main = browser.find_element(By.ID, "main").text
    assert "East Croydon" in browser.find_element(By.TAG_NAME, "h1").text
    assert "Calling at South Croydon" in main
    assert "lifts are out of order" in main
    assert "live from national rail" in main.lower()
    shot("board-national-rail")
    # The page connects for live updates, whose first message redraws the rows: take them after it.
    wait(browser, 15).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "[data-connection]").get_attribute("data-state") == "live")
    # A row opens its service, with the train that divides. A later update may redraw the rows
    # between finding the link and clicking it: the wait then finds it again.
    wait(browser, 10).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "#board-rows tr a.row-link").click() or True)
    wait(browser, 10).until(lambda d: "/services/" in d.current_url)
    main = browser.find_element(By.ID, "main").text
    assert "Caterham" in main
    assert "The portion to Tattenham Corner, which divides at Purley" in main
    shot("service-national-rail")
    assert TOKEN not in browser.page_source


def test_cta_stop_predictions_with_bulletins_at_phone_size(upstream_server, browser, shot):
    from selenium.webdriver.common.by import By
    browser.set_window_size(360, 800)
    browser.get(upstream_server + "/stops/cta:15895")
    rows = wait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board-rows tr"))
    assert len(rows) == 2
    main = browser.find_element(By.ID, "main").text
    assert "Howard" in main and "12:25" in main
    assert "Halsted" in main  # the bulletins
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 360, f"the page scrolls sideways at phone size ({width} px)"
    shot("board-cta-phone")
    assert KEY not in browser.page_source


def test_browse_cta_routes_to_a_stop(upstream_server, browser, shot):
    from selenium.webdriver.common.by import By
    browser.set_window_size(1280, 900)
    browser.get(upstream_server + "/sources/cta/routes")
    browser.find_element(By.CSS_SELECTOR, "a[href='/routes/cta%3A22']").click()
    browser.find_element(By.LINK_TEXT, "Northbound").click()
    assert "Clark & Addison" in browser.find_element(By.ID, "main").text
    shot("browse-cta")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_upstream_pages_pass_the_accessibility_check(upstream_server, browser, theme):
    from test_accessibility import _axe_source, _run_axe
    source = _axe_source()
    browser.set_window_size(360, 800)
    browser.set_script_timeout(60)
    found = {}
    for path in ["/stops/national-rail:ECR", "/stops/cta:15895", "/sources/cta/routes", "/routes/cta%3A22/directions/Northbound"]:
        browser.get(f"{upstream_server}{path}?theme={theme}")
        results = _run_axe(browser, source)
        assert "error" not in results, results
        if results["violations"]:
            found[path] = [f"{v['id']} ({v['impact']}): {v['help']}" for v in results["violations"]]
    assert not found, found
