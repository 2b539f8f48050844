"""Commuting mode in a real headless Chromium: a simulated trip's alerts in the page, as
notifications, and by Web Push to a push endpoint on this machine that decrypts each message
with the subscription's keys (http_ece) and checks the VAPID signature (py_vapid): an
implementation independent of the server's.

The one thing not real is the browser's push service: Chromium's needs Google's servers, which a
test machine cannot reach, so the page's `pushManager.subscribe` is given a subscription to the
local endpoint (the keys made here, as a browser would make them). Everything from there on is
real: the server encrypts, signs and posts, the endpoint decrypts, and the page's service worker
shows what was decrypted when it is handed over as a push (DevTools' `deliverPushMessage`).
"""
import base64
import http.server
import json
import pathlib
import threading
import time

import pytest

from conftest import wait, AT_LEBAK_BULUS, OnwardServer, _free_port, _require_browser_tools

try:
    from selenium.webdriver.common.by import By
except ImportError:
    pass

ROOT = pathlib.Path(__file__).resolve().parents[2]
WMATA = ROOT.parent / "shared" / "data" / "gtfs" / "wmata-metrorail-2026-04.zip"


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushEndpoint:
    """A push service on 127.0.0.1 for one subscription: keeps each message it can decrypt and verify."""

    def __init__(self):
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives import serialization
        import os
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.p256dh = b64(public)
        self.received = []
        self.problems = []
        endpoint = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                try:
                    endpoint.received.append(endpoint.open(self.headers, body))
                    self.send_response(201)
                except Exception as e:  # noqa: BLE001 - any failure is the test's finding
                    endpoint.problems.append(repr(e))
                    self.send_response(400)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.port = _free_port()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.port}/push/subscription-1"

    def open(self, headers, body):
        import http_ece
        from py_vapid import Vapid02
        assert headers["Content-Encoding"] == "aes128gcm"
        assert int(headers["TTL"]) > 0
        # RFC 8292's form, "vapid t=JWT, k=KEY"; py_vapid's own parser expects no space after the comma.
        token, key = headers["Authorization"][len("vapid t="):].split(", k=")
        head, claims, signature = token.split(".")
        assert Vapid02.from_raw_public(key.encode()).verify_token(f"{head}.{claims}".encode(), signature)
        assert json.loads(unb64(claims))["aud"] == f"http://127.0.0.1:{self.port}"
        return http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm").decode()

    def stop(self):
        self.server.shutdown()


@pytest.fixture(scope="module")
def wmata_server():
    """WMATA Metrorail (a journey with a change), push to this machine allowed, simulations at 300×."""
    _require_browser_tools()
    if not WMATA.exists():
        pytest.fail(f"{WMATA} is missing", pytrace=False)
    onward = OnwardServer(["--feed", str(WMATA)], env={"ONWARD_PUSH_ALLOW_HTTP": "1", "ONWARD_COMMUTE_SIMULATION_SPEED": "300"})
    yield onward
    log = onward.stop()
    # The commute's ID is its only key: it never reaches the log.
    assert "/api/v1/commutes/{commuteId}" in log


def fake_push_service(browser, endpoint):
    """Gives the page a subscription to the local endpoint, as the browser's push service would."""
    subscription = {"endpoint": endpoint.url, "expirationTime": None, "keys": {"p256dh": endpoint.p256dh, "auth": b64(endpoint.auth)}}
    script = """
      (function (sub) {
        var fake = { endpoint: sub.endpoint, toJSON: function () { return sub; }, unsubscribe: function () { return Promise.resolve(true); } };
        if (window.PushManager) {
          PushManager.prototype.subscribe = function () { return Promise.resolve(fake); };
          PushManager.prototype.getSubscription = function () { return Promise.resolve(null); };
        }
      })(%s);
    """ % json.dumps(subscription)
    return browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})["identifier"]


def test_a_simulated_commute_alerts_in_order_in_the_page_as_notifications_and_by_push(wmata_server, browser, shot):
    endpoint = PushEndpoint()
    base = wmata_server.base
    browser.set_window_size(360, 780)
    script = fake_push_service(browser, endpoint)
    browser.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["notifications", "geolocation"]})
    try:
        # Shady Grove to Pentagon, Tuesday 12 May 2026 08:00: Red Line, change at Gallery Place, Yellow Line.
        browser.get(base + "/journeys?from=STN_A15&to=STN_C07&date=2026-05-12&time=08:00")
        until = wait(browser, 20).until
        start = until(lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "[data-commute-start][data-simulate]") if b.is_displayed()), None))
        browser.find_element(By.ID, "commute-near").click()
        # Each change says how long it gives, between the walk and the next ride (the first option: 08:34 → 08:35).
        margin = browser.find_element(By.CSS_SELECTOR, ".journey .leg-margin")
        assert margin.text == "1 min to change", margin.text
        # A minute to change with about a minute's walk: tight, and marked so.
        assert margin.get_attribute("data-tight") == "", margin.get_attribute("outerHTML")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", margin)
        shot("commute-journey-options")
        start.click()
        until(lambda d: d.current_url.endswith("/commute"))
        # The ID left the address bar: it is kept on the device only.
        assert "#" not in browser.current_url
        kinds = ["nearStation", "vehicleArriving", "arrivingAtTransfer", "arrivingAtDestination"]
        # Read in one script: the list is redrawn with every live message.
        read = ("return Array.from(document.querySelectorAll('[data-commute-alerts] li[data-kind]')).map(function (li) {"
                " return [li.dataset.kind, li.querySelector('.commute-alert-text').textContent, li.dataset.basis,"
                " li.querySelector('.commute-alert-basis').textContent]; });")
        wait(browser, 60).until(lambda d: [row[0] for row in d.execute_script(read)] == kinds)
        rows = browser.execute_script(read)
        texts = [row[1] for row in rows]
        assert "Gallery" in texts[2] and "Pentagon" in texts[3], texts
        # Each alert says what it was judged from: the simulated traveller's positions (near the station), then the
        # timetable (this WMATA server has no live data), in the page's words.
        assert [(row[2], row[3]) for row in rows] == [("position", "from your position")] + [("timetable", "from the timetable")] * 3, rows
        assert "Simulated trip" in browser.find_element(By.CSS_SELECTOR, "[data-commute-state]").text
        shot("commute-alerts")
        # Foreground: each alert became a notification (one per alert: the push shares its tag).
        shown = browser.execute_async_script("""
          var done = arguments[arguments.length - 1];
          navigator.serviceWorker.ready.then(function (r) { return r.getNotifications(); })
            .then(function (list) { done(list.map(function (n) { return n.data && n.data.kind; })); })
            .catch(function (e) { done(String(e)); });
        """)
        assert sorted(shown) == sorted(kinds), shown
        # Background: every alert also came by Web Push, decrypted here, in order.
        wait(browser, 30).until(lambda d: len(endpoint.received) >= 4)
        assert endpoint.problems == []
        pushed = [json.loads(m) for m in endpoint.received]
        assert [p["alert"]["kind"] for p in pushed] == kinds
        assert pushed[3]["alert"]["message"] == texts[3]
        assert pushed[3]["alert"]["basis"] == "timetable"
        # The service worker shows a push as a notification with no page open to do it: close the
        # notifications, leave the page, hand the worker the last decrypted message, and look.
        browser.execute_async_script("""
          var done = arguments[arguments.length - 1];
          navigator.serviceWorker.ready.then(function (r) { return r.getNotifications(); })
            .then(function (list) { list.forEach(function (n) { n.close(); }); done(); });
        """)
        browser.get(base + "/")
        registrations = browser.execute_async_script("""
          var done = arguments[arguments.length - 1];
          navigator.serviceWorker.getRegistrations().then(function (r) { done(r.length); });
        """)
        assert registrations == 1
        browser.execute_cdp_cmd("ServiceWorker.enable", {})
        # The page is not told its registration's number: hand the message to each number in turn until the
        # worker shows it (a number that names another origin's worker, left by an earlier test, shows nothing here).
        read_shown = """
          var done = arguments[arguments.length - 1];
          navigator.serviceWorker.ready.then(function (r) { return r.getNotifications(); })
            .then(function (list) { done(list.map(function (n) { return n.body; })); });
        """
        bodies, errors = [], []
        for origin in (base, base + "/"):
            for registration_id in range(0, 16):
                try:
                    browser.execute_cdp_cmd("ServiceWorker.deliverPushMessage",
                                            {"origin": origin, "registrationId": str(registration_id), "data": endpoint.received[3]})
                except Exception as e:  # noqa: BLE001 - no such registration for this origin
                    errors.append(str(e)[:200])
                    continue
                deadline = time.time() + 3
                while time.time() < deadline and not bodies:
                    bodies = browser.execute_async_script(read_shown)
                    time.sleep(0.2)
                if bodies:
                    break
            if bodies:
                break
        assert bodies == [pushed[3]["alert"]["message"]], errors
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script})
        endpoint.stop()


def test_a_real_commute_follows_the_browsers_faked_position_once_per_station_and_not_a_jump_alone(server, browser, shot):
    """A commute that is not simulated: the page shares the browser's position (faked by DevTools),
    the server says "near a station" once for each station, and a single fix fifteen kilometres
    away (a GPS jump) is believed only when the next fix agrees with it."""
    import datetime
    import urllib.request
    from zoneinfo import ZoneInfo

    def station(query):
        with urllib.request.urlopen(server + "/api/v1/stops?q=" + query) as r:
            found = json.load(r)["stops"][0]
        return found["latitude"], found["longitude"]

    def be_at(lat, lon, accuracy=15):
        browser.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": lat, "longitude": lon, "accuracy": accuracy})

    def move_to(lat, lon):
        """A new faked position, and wait until the page's watch has been handed it (and sends it on)."""
        seen = browser.execute_script("return window.fixesSeen;")
        be_at(lat, lon)
        wait(browser, 10).until(lambda d: d.execute_script("return window.fixesSeen;") > seen)

    read = "return Array.from(document.querySelectorAll('[data-commute-alerts] li[data-kind]')).map(function (li) { return li.textContent; });"
    lebak_bulus, bundaran_hi, blok_m = station("lebak"), station("bundaran"), station("blok%20m%20bca")
    browser.set_window_size(360, 780)
    # A journey that has not started (45 minutes from now in Jakarta): "near a station" applies before it does.
    leave = datetime.datetime.now(ZoneInfo("Asia/Jakarta")) + datetime.timedelta(minutes=45)
    be_at(*lebak_bulus)
    try:
        browser.get(server + "/journeys?from=SLBB&to=SBHI&date=%s&time=%s" % (leave.strftime("%Y-%m-%d"), leave.strftime("%H:%M")))
        until = wait(browser, 20).until
        start = until(lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "[data-commute-start]:not([data-simulate])") if b.is_displayed()), None))
        browser.find_element(By.ID, "commute-near").click()
        start.click()
        until(lambda d: d.current_url.endswith("/commute"))
        until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-commute-locate]").is_displayed())
        # Count the fixes the page's watch is handed, so each move below is seen before the next.
        browser.execute_script("""
          var geolocation = navigator.geolocation, watch = geolocation.watchPosition.bind(geolocation);
          window.fixesSeen = 0;
          geolocation.watchPosition = function (ok, failed, options) {
            return watch(function (position) { window.fixesSeen += 1; ok(position); }, failed, options);
          };
        """)
        browser.find_element(By.CSS_SELECTOR, "[data-commute-locate]").click()
        until(lambda d: len(d.execute_script(read)) == 1)
        assert "Lebak Bulus" in browser.execute_script(read)[0]
        # Fifteen kilometres in an instant: one fix is a jump, the next one there confirms it.
        move_to(*bundaran_hi)
        move_to(bundaran_hi[0] + 0.0001, bundaran_hi[1])
        until(lambda d: len(d.execute_script(read)) == 2)
        assert "Bundaran HI" in browser.execute_script(read)[1]
        # Back to Lebak Bulus (said already: not again), then on to Blok M; its alert, once there,
        # shows every earlier fix was read.
        move_to(*lebak_bulus)
        move_to(lebak_bulus[0] + 0.0001, lebak_bulus[1])
        move_to(*blok_m)
        move_to(blok_m[0] + 0.0001, blok_m[1])
        until(lambda d: len(d.execute_script(read)) >= 3)
        texts = browser.execute_script(read)
        assert len(texts) == 3 and "Blok M" in texts[2], texts
        assert "Simulated trip" not in browser.find_element(By.CSS_SELECTOR, "[data-commute-state]").text
        shot("commute-real-position")
    finally:
        browser.execute_cdp_cmd("Emulation.setGeolocationOverride", AT_LEBAK_BULUS)
