"""The web app in a real headless Chromium, as a traveller uses it."""
import datetime
import json
import pathlib
import shutil
import subprocess
import tempfile
import urllib.parse
import urllib.request

import pytest

import conftest

from conftest import ROOT, OnwardServer, _require_browser_tools
from test_watch import write_network

try:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as EC
except ImportError:
    # Without Selenium the fixtures skip every test with the reason (or fail them when
    # ONWARD_REQUIRE_BROWSER=1); failing the import here would stop pytest with exit 2.
    pass


def wait(driver, seconds=10):
    return conftest.wait(driver, seconds)


def test_search_a_station_and_open_its_board(server, browser, shot):
    browser.set_window_size(1280, 900)
    browser.get(server + "/")
    box = wait(browser).until(EC.element_to_be_clickable((By.ID, "q")))
    box.send_keys("blok m")
    suggestion = wait(browser).until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#q-results [role=option], #q-results a")))
    assert "Blok M" in suggestion.text
    shot("home-search")
    box.send_keys(Keys.ARROW_DOWN, Keys.ENTER)
    wait(browser).until(EC.url_contains("/stops/"))
    rows = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board-rows tr"))
    assert len(rows) >= 3
    assert "Blok M" in browser.find_element(By.TAG_NAME, "h1").text


def test_board_receives_a_live_update_from_the_simulation(all_day, browser, shot):
    browser.set_window_size(1280, 900)
    browser.get(all_day + "/stops/ALPHA")
    # Connected: the first message (the current state) has arrived.
    wait(browser, 15).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-connection]").get_attribute("data-state") == "live")
    assert "Simulated" in browser.find_element(By.ID, "main").text
    # Mark the rows as they are now; the next message replaces them with new ones.
    browser.execute_script("document.getElementById('board-rows').setAttribute('data-probe', 'before')")
    wait(browser, 20).until(lambda d: d.execute_script(
        "var r = document.getElementById('board-rows'); return r !== null && r.getAttribute('data-probe') === null"))
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board-rows tr")) >= 3


OCCUPANCY_WORDS = {"Empty", "Many seats free", "Few seats free", "Standing room only", "Very crowded", "Full",
                   "Not taking passengers", "No boarding"}


def test_how_full_each_train_is_on_a_phone(all_day, browser, shot):
    """Issue 27, item 2: the simulation says how full each run is; a board row says it in words beside a figure hidden
    from screen readers, and a service page lists the running train's carriages from the front."""
    browser.set_window_size(390, 844)
    try:
        browser.get(all_day + "/stops/ALPHA")
        wait(browser, 15).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-connection]").get_attribute("data-state") == "live")
        # Read in one script: the live board redraws its rows every few seconds.
        rows = wait(browser, 15).until(lambda d: d.execute_script("""
            var rows = Array.from(document.querySelectorAll('#board-rows tr'));
            if (rows.length < 3) return null;
            return rows.map(function (r) {
              var o = r.querySelector('.occupancy');
              return {status: r.getAttribute('data-status'), text: o && o.textContent.trim(), title: o && o.title,
                      hidden: o && o.querySelector('svg').getAttribute('aria-hidden')};
            });"""))
        running = [r for r in rows if r["status"] not in ("cancelled", "skipped", "departed", "noLiveData", "scheduled")]
        assert running, rows
        for r in running:
            assert r["text"] in OCCUPANCY_WORDS, r
            assert r["hidden"] == "true" and r["title"] == "How full it is expected to be leaving this stop", r
        overflow = browser.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page is {overflow}px wider than a 390px screen"
        shot("board-occupancy-phone")
        # A train on its way (one leaves every 5 minutes and takes 20, so some always are): its carriages, front first.
        with urllib.request.urlopen(all_day + "/api/v1/vehicles", timeout=5) as r:
            vehicles = [v for v in json.load(r)["vehicles"] if v["vehicle"].get("occupancy")]
        assert vehicles
        # The run that started last, which has the longest still to go (the page must find it still running).
        v = max(vehicles, key=lambda v: (v["serviceDate"], v["tripId"]))
        browser.get(all_day + "/services/" + urllib.parse.quote(v["tripId"], safe="") + "?date=" + v["serviceDate"])
        # Read in one script: the live page redraws its vehicle every few seconds.
        seen = wait(browser, 15).until(lambda d: d.execute_script("""
            var box = document.querySelector('.vehicle-occupancy');
            if (!box) return null;
            return {heading: box.textContent.trim(), carriages: Array.from(box.querySelectorAll('.carriages li')).map(function (li) {
              return [li.querySelector('.carriage-name').textContent, li.textContent]; })};"""))
        assert seen["heading"].startswith("How full:"), seen
        assert [name for name, _ in seen["carriages"]] == [f"Carriage {n}" for n in range(1, 7)]
        for _, text in seen["carriages"]:
            assert any(word in text for word in OCCUPANCY_WORDS), text
        overflow = browser.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the service page is {overflow}px wider than a 390px screen"
        shot("service-occupancy-phone")
    finally:
        browser.set_window_size(1280, 900)


def test_a_service_map_moves_its_vehicle_with_the_live_updates(all_day, browser, shot):
    """Issue 27, item 3: the service page's map draws the line and its stops on a plain background (no tiles are
    configured) and moves the vehicle's marker when a position update arrives over the live channel."""
    browser.set_window_size(390, 844)
    try:
        with urllib.request.urlopen(all_day + "/api/v1/vehicles", timeout=5) as r:
            moving = [v for v in json.load(r)["vehicles"] if v["vehicle"].get("stopStatus") in ("inTransitTo", "incomingAt")]
        assert moving
        v = max(moving, key=lambda v: (v["serviceDate"], v["tripId"]))
        browser.get(all_day + "/services/" + urllib.parse.quote(v["tripId"], safe="") + "?date=" + v["serviceDate"])
        first = wait(browser, 15).until(lambda d: d.find_element(By.ID, "service-map").get_attribute("data-vehicles-at"))
        first = first.rsplit("=", 1)[1]
        drawn = browser.execute_script("""
            var box = document.getElementById('service-map');
            return {line: box.querySelectorAll('path.line-map-line').length, stops: box.querySelectorAll('path.line-map-stop').length,
                    vehicle: box.querySelectorAll('path.line-map-vehicle').length, tiles: box.querySelectorAll('img.leaflet-tile').length,
                    focusable: box.tabIndex, label: box.getAttribute('aria-label')};""")
        assert drawn == {"line": 1, "stops": 2, "vehicle": 1, "tiles": 0, "focusable": 0,
                         "label": "Map of the service: its way, its stops and its vehicle"}, drawn
        assert "Drawn without a background map" in browser.find_element(By.CSS_SELECTOR, ".line-map-note").text
        marker = "var m = document.querySelector('#service-map path.line-map-vehicle'); return m && m.getAttribute('d');"
        drawn_at = browser.execute_script(marker)
        # The simulation moves the train every 3 s; the page's live part is redrawn and the marker follows it.
        moved = wait(browser, 20).until(lambda d: (lambda at: at if at and at != first else None)(
            (d.find_element(By.ID, "service-map").get_attribute("data-vehicles-at") or "=").rsplit("=", 1)[1]))
        lat, lon = (float(x) for x in moved.split(","))
        # Between Alpha (-6.30, 106.80) and Omega (-6.20, 106.82), and north of where it was (it goes to Omega).
        assert -6.30 <= lat <= -6.20 and 106.80 <= lon <= 106.82, moved
        assert lat > float(first.split(",")[0]), (first, moved)
        # The marker itself moves on the map (its drawn path changes), not only the numbers: a few updates' worth of
        # travel, as one is less than a pixel at this zoom.
        assert drawn_at
        wait(browser, 30).until(lambda d: d.execute_script(marker) not in (None, drawn_at))
        shot("service-map-phone")
    finally:
        browser.set_window_size(1280, 900)


def test_a_route_map_shows_every_vehicle_and_moves_them(all_day, browser, shot):
    """Issue 27, item 3: a route's page maps every vehicle on its way (tiles off: a plain background), lists them with
    their next stops as the map's text, and moves each marker when its position update arrives over the live channel."""
    browser.set_window_size(390, 844)
    try:
        with urllib.request.urlopen(all_day + "/api/v1/vehicles", timeout=5) as r:
            route = json.load(r)["vehicles"][0]["routeId"]
        browser.get(all_day + "/routes/" + urllib.parse.quote(route, safe=""))

        def placed(d):
            at = d.find_element(By.ID, "route-map").get_attribute("data-vehicles-at")
            return dict((key, tuple(float(x) for x in where.split(","))) for key, where in (v.rsplit("=", 1) for v in at.split(";"))) if at else None
        first = wait(browser, 15).until(placed)
        # Read in one script: the live list is redrawn every few seconds.
        drawn = browser.execute_script("""
            var box = document.getElementById('route-map');
            return {line: box.querySelectorAll('path.line-map-line').length, stops: box.querySelectorAll('path.line-map-stop').length,
                    vehicles: box.querySelectorAll('path.line-map-vehicle').length, tiles: box.querySelectorAll('img.leaflet-tile').length,
                    focusable: box.tabIndex, label: box.getAttribute('aria-label'),
                    listed: Array.from(document.querySelectorAll('#route-live .route-vehicle')).map(function (li) { return li.textContent.trim(); }),
                    keys: Array.from(document.querySelectorAll('#route-live .route-vehicle')).map(function (li) { return li.dataset.vehicleKey; })};""")
        # A run leaves every 5 minutes and takes 20: three or four are on their way at any moment, each drawn and listed.
        assert 3 <= len(first) <= 5, first
        assert drawn["line"] == 1 and drawn["stops"] == 2 and drawn["tiles"] == 0 and drawn["focusable"] == 0, drawn
        assert drawn["label"] == "Map of the route: its ways, its stops and its vehicles"
        assert drawn["vehicles"] == len(drawn["listed"]) == len(drawn["keys"]), drawn
        # Each on its way to Omega, or standing at Alpha before it leaves.
        for text in drawn["listed"]:
            assert text.startswith("To Omega") and ("next Omega at " in text or "at Alpha, leaves " in text), text
        assert "Drawn without a background map" in browser.find_element(By.CSS_SELECTOR, ".line-map-note").text
        # The simulation moves the trains every 3 s: a train still on its way is redrawn further north (towards Omega).
        def moved(d):
            now = placed(d) or {}
            ahead = [key for key in first if key in now and now[key][0] > first[key][0]]
            return ahead or None
        assert wait(browser, 20).until(moved)
        overflow = browser.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the route page is {overflow}px wider than a 390px screen"
        shot("route-map-phone")
    finally:
        browser.set_window_size(1280, 900)


def test_a_live_board_on_the_bundled_line(server, browser, shot):
    # Blok M, mid-line: simulated delays build up along the route, so the screenshot shows them (at night, the morning's trains).
    browser.set_window_size(1280, 900)
    browser.get(server + "/stops/SBKM")
    wait(browser, 15).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-connection]").get_attribute("data-state") == "live")
    assert "Simulated" in browser.find_element(By.ID, "main").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board-rows tr")) >= 3
    shot("board")


def test_open_a_service_from_the_board(server, browser, shot):
    browser.set_window_size(1280, 900)
    browser.get(server + "/stops/SLBB")
    wait(browser).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#board-rows a[href^='/services/']")))
    # Read and followed in one script: the live board redraws its rows every few seconds, and a link
    # found in one call may be gone by the next.
    href = browser.execute_script(
        "var a = document.querySelector(\"#board-rows a[href^='/services/']\"); a.click(); return a.href;")
    wait(browser).until(EC.url_contains("/services/"))
    calls = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "ol.calls > li"))
    # The page lists every call the API gives for that run. The number depends on the hour:
    # late in the evening the first departure is the short run to Blok M (6 calls), by day
    # a full run to Bundaran HI (13).
    path = urllib.parse.urlsplit(href)
    with urllib.request.urlopen(server + "/api/v1" + path.path + "?" + path.query, timeout=5) as r:
        expected = len(json.load(r)["calls"])
    assert expected >= 6
    assert len(calls) == expected
    assert "Lebak Bulus" in browser.find_element(By.ID, "main").text
    shot("service")


def test_dark_theme_and_indonesian(server, browser, shot):
    browser.set_window_size(1280, 900)
    browser.get(server + "/stops/SLBB")
    wait(browser).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "[data-theme-choice=dark]"))).click()
    wait(browser).until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-theme") == "dark")
    background = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert background not in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"), background
    wait(browser).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "a[hreflang=id]"))).click()
    wait(browser).until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "id")
    assert "Keberangkatan" in browser.find_element(By.TAG_NAME, "body").text
    # Both choices stick: the next page is dark and Indonesian too.
    browser.get(server + "/")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "id"
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("data-theme") == "dark"
    browser.get(server + "/stops/SLBB")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board-rows tr"))
    shot("board-dark-id")
    # Back to the defaults for the other tests.
    browser.get(server + "/?lang=en&theme=system")


def test_phone_width_layout(server, browser, shot):
    browser.set_window_size(360, 780)
    try:
        browser.get(server + "/stops/SLBB")
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board-rows tr"))
        overflow = browser.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page is {overflow}px wider than a 360px screen"
        shot("board-phone")
        link = browser.find_element(By.CSS_SELECTOR, "#board-rows a[href^='/services/']")
        browser.get(link.get_attribute("href"))
        overflow = browser.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0
        shot("service-phone")
    finally:
        browser.set_window_size(1280, 900)


def test_nearby_stations_from_the_browser_location(server, browser):
    browser.get(server + "/")
    button = browser.find_elements(By.CSS_SELECTOR, "#nearby button, [data-nearby] button, button[data-locate]")
    if not button:
        # The button is revealed by the script when geolocation is available.
        button = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "button[data-nearby-button], #nearby-button"))
    button[0].click()
    results = wait(browser, 15).until(lambda d: [e for e in d.find_elements(By.CSS_SELECTOR, "#nearby a[href^='/stops/']") if e.is_displayed()])
    assert any("Lebak Bulus" in e.text for e in results)


def test_the_indonesian_header_fits_a_phone(server, browser, shot):
    """Indonesian's longer words ("Pemberitahuan") wrap the menu onto a second row on a 390 px phone,
    rather than run off the screen's edge."""
    from conftest import PHONE
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    try:
        browser.get(server + "/?lang=id")
        assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "id"
        width, right = browser.execute_script(
            "return [document.documentElement.clientWidth,"
            " Math.max(...Array.from(document.querySelectorAll('.site-nav a')).map(a => a.getBoundingClientRect().right))]")
        assert right <= width, f"the menu ends at {right}px on a {width}px screen"
        shot("home-phone-id")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        browser.get(server + "/?lang=en&theme=system")


def test_how_late_each_train_usually_is(browser, shot):
    """Issue 27, item 1: three weeks of the simulation replayed into the server's data folder by `onward history replay`
    (the server's own recording path); the server folds them at its start, and a board row then says how late that
    train usually is at this hour, in words, on a phone."""
    _require_browser_tools()
    folder = pathlib.Path(tempfile.mkdtemp(prefix="onward-history-"))
    write_network(folder)
    data = tempfile.mkdtemp(prefix="onward-history-data-")
    start = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=22)).date().isoformat()
    replay = subprocess.run([str(ROOT / ".build" / "debug" / "onward"), "history", "replay", "--feed", str(folder), "--simulate",
                             "--from", start, "--days", "22", "--step", "60", "--data-dir", data],
                            capture_output=True, text=True, timeout=300)
    assert replay.returncode == 0, replay.stderr
    assert "Folded 2" in replay.stdout, replay.stdout
    onward = OnwardServer(["--feed", str(folder), "--simulate"], env={"ONWARD_SIMULATE_INTERVAL": "3"}, data=data)
    try:
        browser.set_window_size(390, 844)
        browser.get(onward.base + "/stops/ALPHA")
        # The server publishes its history book when it starts: a row says it once the book is in service.
        notes = wait(browser, 30).until(lambda d: d.execute_script("""
            var notes = Array.from(document.querySelectorAll('#board-rows .usual-delay'));
            return notes.length ? notes.map(function (n) { return [n.textContent.trim(), n.title]; }) : null;"""))
        for text, title in notes:
            assert text.startswith("Usually ") and text.split(" · ")[0].endswith(" at this hour"), text
            assert title.startswith("From ") and "days of history" in title, title
        overflow = browser.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page is {overflow}px wider than a 390px screen"
        shot("board-usual-delay-phone")
        with urllib.request.urlopen(onward.base + "/api/v1/stops/ALPHA/history", timeout=5) as r:
            history = json.load(r)
        assert history["kind"] == "stop" and history["rows"] and all(row["usual"]["days"] >= 1 for row in history["rows"])
    finally:
        browser.set_window_size(1280, 900)
        onward.stop()
        shutil.rmtree(folder, ignore_errors=True)
