"""The timetable with no signal (issue 27, item 4), in a real headless Chromium: the web app is installable; a
signed-in person's saved board is kept by the service worker, shows its timetable marked offline when the network is
cut (DevTools network emulation) and the page reloaded, and catches up with live data without a reload when the
network returns; a signed-out visitor's pages are never kept, and signing out drops what was kept."""
import json
import secrets
import shutil
import urllib.request

import pytest

import conftest
from conftest import _require_browser_tools
from test_people import sign

try:
    import websocket
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
except ImportError:
    # Without Selenium the fixtures skip every test with the reason (see test_web.py).
    pass


def wait(driver, seconds=15):
    return conftest.wait(driver, seconds)


@pytest.fixture
def phone():
    """A browser of its own (its own service workers and caches), at a phone's size."""
    _require_browser_tools()
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=390,844", "--lang=en-US"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_script_timeout(20)
    yield driver
    driver.quit()


def kept(driver):
    """Every address the offline cache holds (none when there is no cache), read in the page."""
    return driver.execute_async_script("""
        var done = arguments[arguments.length - 1];
        caches.keys().then(function (names) {
          return Promise.all(names.map(function (name) {
            return caches.open(name).then(function (c) { return c.keys(); }).then(function (keys) { return keys.map(function (k) { return k.url; }); });
          }));
        }).then(function (lists) { done([].concat.apply([], lists)); }, function (e) { done(['error: ' + e]); });""")


class Tunnel:
    """No network, by DevTools network emulation: for the page, and for the service worker, which is a DevTools target
    of its own (its fetches do not go through the page's emulation). The worker's is set over a DevTools connection of
    its own, held open while the tunnel lasts (conditions set by a connection end with it)."""

    def __init__(self, driver):
        self.driver = driver
        self.workers = []

    def _conditions(self, offline):
        return {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}

    def enter(self, worker=True):
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", self._conditions(True))
        address = self.driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/list", timeout=5) as r:
            targets = [t for t in json.load(r) if t["type"] == "service_worker"]
        assert targets or not worker, "no service worker to cut off"
        for target in targets:
            ws = websocket.create_connection(target["webSocketDebuggerUrl"], timeout=10, suppress_origin=True)
            for n, (method, params) in enumerate([("Network.enable", {}), ("Network.emulateNetworkConditions", self._conditions(True))]):
                ws.send(json.dumps({"id": n + 1, "method": method, "params": params}))
                while json.loads(ws.recv()).get("id") != n + 1:
                    pass
            self.workers.append(ws)

    def leave(self):
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", self._conditions(False))
        for ws in self.workers:
            ws.close()
        self.workers = []


def test_the_web_app_is_installable(all_day, phone):
    phone.get(all_day + "/")
    manifest = phone.execute_async_script("""
        var done = arguments[arguments.length - 1];
        fetch(document.querySelector('link[rel=manifest]').href).then(function (r) { return r.json(); }).then(done, function (e) { done(String(e)); });""")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
    # Chromium's own verdict: no reason the page could not be installed (a service worker is not required since M108).
    errors = phone.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
    assert errors == [], errors


def test_a_saved_board_shows_its_timetable_offline_and_catches_up_when_the_network_returns(all_day, phone):
    # Signed out, nothing is kept: no worker is asked to, and no cache exists.
    phone.get(all_day + "/stops/ALPHA")
    wait(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board-live tr[data-status]"))
    assert kept(phone) == []

    sign(phone, all_day, "/signup", "ana_" + secrets.token_hex(3))
    phone.get(all_day + "/stops/ALPHA")
    wait(phone).until(EC.element_to_be_clickable((By.CSS_SELECTOR, ".save-route button"))).click()
    wait(phone).until(EC.url_contains("/me"))
    # My routes asks the worker to keep the saved board, My routes itself and commuting mode's page.
    wait(phone, 30).until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-offline-kept") == "3")
    urls = kept(phone)
    boards = [u for u in urls if u.startswith(all_day + "/stops/") and u.endswith("%3AALPHA")]
    assert len(boards) == 1 and all_day + "/me" in urls, urls
    board = boards[0]

    # Online, the board is live; the phone goes into a tunnel and the page is opened again.
    phone.get(board)
    wait(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board-live tr[data-status]"))
    tunnel = Tunnel(phone)
    tunnel.enter()
    try:
        phone.refresh()
        note = wait(phone, 20).until(lambda d: d.find_element(By.CSS_SELECTOR, "#board-live [data-offline-note]"))
        assert note.text.startswith("Offline: timetable only, last live data at "), note.text
        rows = phone.execute_script("""
            return Array.from(document.querySelectorAll('#board-live tr[data-at]')).map(function (r) {
              return [r.getAttribute('data-at'), r.getAttribute('data-status'), r.querySelector('.col-dest').textContent.trim()]; });""")
        # Every 5 minutes for three hours; none gone by; every row the timetable's, none with a live time.
        assert 30 <= len(rows) <= 37, rows
        assert all(status in ("scheduled", "noLiveData") for _, status, _ in rows), rows
        assert all(dest.startswith("Omega") for _, _, dest in rows), rows
        phone.save_screenshot(str(conftest.SCREENSHOTS / "offline-board-phone.png"))
        # Marked on this document: the same page must be the one that catches up.
        phone.execute_script("window.onwardSameDocument = true;")
    finally:
        tunnel.leave()
    # The network is back: the live channel reconnects and the live board replaces the copy, with no reload.
    wait(phone, 45).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#board-live [data-offline-note]"))
    assert phone.execute_script("return window.onwardSameDocument === true;")
    live = phone.execute_script("return document.querySelector('#board-live .live-line').textContent;")
    assert "Live" in live or "live" in live, live

    # Signing out drops what was kept.
    phone.get(all_day + "/account")
    phone.find_element(By.CSS_SELECTOR, "form[action='/signout'] button").click()
    wait(phone).until(EC.url_to_be(all_day + "/"))
    assert kept(phone) == []


def test_commuting_mode_keeps_its_journey_on_the_timetable_with_no_signal(all_day, phone):
    # Signed in (so the phone keeps commuting mode's page), a simulated trip from Alpha to Omega.
    sign(phone, all_day, "/signup", "ben_" + secrets.token_hex(3))
    wait(phone, 30).until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-offline-kept") is not None)
    assert all_day + "/commute" in kept(phone)
    phone.get(all_day + "/journeys?from=ALPHA&to=OMEGA")
    start = wait(phone, 20).until(lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "[data-commute-start][data-simulate]")
                                                  if b.is_displayed()), None))
    start.click()
    wait(phone, 20).until(lambda d: d.current_url.endswith("/commute"))
    state = lambda d: d.find_element(By.CSS_SELECTOR, "[data-commute-state]").text
    journey = lambda d: d.find_element(By.CSS_SELECTOR, "[data-commute-journey]").text
    wait(phone, 20).until(lambda d: state(d).startswith("Journey clock ") and "Omega" in journey(d))
    tunnel = Tunnel(phone)
    tunnel.enter()
    try:
        # The live channel drops: the journey stays, on its timetable, and the page says since when.
        wait(phone, 45).until(lambda d: state(d).startswith("Offline: timetable only, last live data at "))
        seen = journey(phone)
        assert "Omega" in seen
        # Opened again in the tunnel: the kept page shows the journey last heard of, said so.
        phone.refresh()
        wait(phone, 20).until(lambda d: state(d).startswith("Offline: timetable only, last live data at ") and "Omega" in journey(d))
        # Still in the tunnel, the page says by itself, on the journey's times, that Omega is coming.
        arriving = wait(phone, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-commute-alerts] li[data-kind=arrivingAtDestination]"))
        assert "Omega" in arriving[0].text, arriving[0].text
    finally:
        tunnel.leave()
    # Back in signal: live again without a reload.
    wait(phone, 45).until(lambda d: state(d).startswith("Journey clock "))
