"""Group trips in a real headless Chromium at phone size: a host makes a trip on the Vallnord ski area,
adds simulated travellers and sees them move on the mountain map; a traveller joins by code from the
town (the street map), answers an event the host sent, and chats; the host routes a novice from a
lift top to the village without a black run; nobody outside the trip sees any of it."""
import json
import secrets
import shutil
import urllib.error
import urllib.request

import pytest

import conftest

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
except ImportError:
    pass

from conftest import SCREENSHOTS
from test_people import PASSWORD, sign

LA_CAUBELLA_TOP = {"latitude": 42.5350919, "longitude": 1.488898, "accuracy": 12}
LA_MASSANA = {"latitude": 42.5471289, "longitude": 1.5137913, "accuracy": 20}
AT_LEBAK_BULUS = {"latitude": -6.2892744, "longitude": 106.7749355, "accuracy": 50}


def wait(driver, seconds=20):
    return conftest.wait(driver, seconds)


@pytest.fixture
def traveller():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=390,844", "--lang=en-US"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {"profile.default_content_setting_values.geolocation": 1})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", LA_MASSANA)
    yield driver
    driver.quit()


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def marker_paths(driver):
    """Each shown person's marker as drawn (its SVG path), by person."""
    return js(driver, "var o = {}; document.querySelectorAll('#trip-map path[data-person]').forEach(function (p) {"
                      " o[p.getAttribute('data-person')] = p.getAttribute('d'); }); return o;")


def api(server, method, path, token=None, body=None):
    req = urllib.request.Request(server + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json", **({"Authorization": "Bearer " + token} if token else {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def make_trip(driver, server, name):
    """Makes a trip with the trips page's form: its address, its ID and its invitation code."""
    driver.get(server + "/trips")
    driver.find_element(By.ID, "trip-name").send_keys(name)
    driver.find_element(By.CSS_SELECTOR, "form[action='/trips'] button[type=submit]").click()
    wait(driver).until(EC.url_contains("/trips/"))
    url = driver.current_url
    return url, url.rsplit("/", 1)[1], driver.find_element(By.CSS_SELECTOR, ".trip-invite code").text.rsplit("=", 1)[1]


def test_a_ski_trip_live(server, browser, traveller, shot):
    host = "hana_" + secrets.token_hex(3)
    tom = "tom_" + secrets.token_hex(3)
    browser.set_window_size(390, 844)
    browser.execute_cdp_cmd("Emulation.setGeolocationOverride", LA_CAUBELLA_TOP)
    try:
        # The host makes a trip.
        sign(browser, server, "/signup", host)
        trip_url, trip_id, code = make_trip(browser, server, "Ski week")
        wait(browser).until(lambda d: js(d, "return document.querySelector('main').dataset.live") == "open")

        # Sharing from the top of la Caubella: inside the ski area, so the mountain map.
        browser.find_element(By.ID, "share-button").click()
        wait(browser).until(lambda d: js(d, "return document.querySelector('main').dataset.mapMode") == "mountain")
        assert browser.find_element(By.ID, "map-mode").text == "Mountain map"

        # Simulated travellers join and ski: the host sees all five, and they move.
        browser.find_element(By.CSS_SELECTOR, ".trip-simulate button").click()
        wait(browser, 40).until(lambda d: len(marker_paths(d)) >= 5)
        first = marker_paths(browser)
        wait(browser, 40).until(lambda d: any(marker_paths(d).get(p) not in (None, d0) for p, d0 in first.items()))
        js(browser, "document.getElementById('trip-map').scrollIntoView()")
        shot("trip-map-mountain")

        # A novice's way from the lift top to the village: no leg harder than easy.
        js(browser, "OnwardTrip.tap(42.5471289, 1.5137913)")
        wait(browser, 30).until(lambda d: js(d, "return document.querySelectorAll('#ski-legs li').length") > 0)
        difficulties = js(browser, "return Array.from(document.querySelectorAll('#ski-legs li')).map(function (l) { return l.dataset.difficulty; })")
        assert set(difficulties) <= {"", "novice", "easy"}, difficulties
        assert js(browser, "return Array.from(document.querySelectorAll('#ski-legs li.ski-leg-lift')).length") >= 1

        # Tom joins by code from La Massana: the street map there.
        sign(traveller, server, "/signup", tom)
        traveller.get(server + "/trips")
        traveller.find_element(By.ID, "trip-code").send_keys(code)
        traveller.find_element(By.CSS_SELECTOR, "form[action='/trips/join'] button[type=submit]").click()
        wait(traveller).until(EC.url_to_be(trip_url))
        wait(traveller).until(lambda d: js(d, "return document.querySelector('main').dataset.live") == "open")
        traveller.find_element(By.ID, "share-button").click()
        wait(traveller).until(lambda d: js(d, "return document.querySelector('main').dataset.mapMode") == "street")
        js(traveller, "document.getElementById('trip-map').scrollIntoView()")
        traveller.save_screenshot(str(SCREENSHOTS / "trip-map-town.png"))

        # The host sends an event to friends (everyone on the trip); Tom answers; the host sees the answers live.
        js(browser, "document.querySelector('.new-event').open = true")
        browser.find_element(By.ID, "event-title").send_keys("Fondue at the hut")
        js(browser, "document.getElementById('event-at').value = '2030-01-15T19:30'")
        js(browser, "OnwardTrip.tap(42.5400, 1.4950)")
        browser.find_element(By.CSS_SELECTOR, "#event-form button[type=submit]").click()
        wait(traveller).until(lambda d: js(d, "return document.querySelectorAll('#events .rsvp button').length") == 3)
        js(traveller, "document.querySelector('#events .rsvp button[data-answer=going]').click()")
        wait(browser, 40).until(lambda d: int(js(d, "var a = document.querySelector('#events .answers'); return a ? a.dataset.going : 0")) >= 1)
        wait(browser, 40).until(lambda d: tom in " ".join(js(d, "return Array.from(document.querySelectorAll('.answer-list li')).map(function (l) { return l.textContent; })")))

        # Chat: Tom writes (as text, never markup); the host reads it live.
        traveller.find_element(By.ID, "chat-text").send_keys("<b>See you</b> at the hut")
        traveller.find_element(By.CSS_SELECTOR, "#chat-form button").click()
        wait(browser).until(lambda d: "<b>See you</b> at the hut" in " ".join(js(d, "return Array.from(document.querySelectorAll('#chat-log .text')).map(function (t) { return t.textContent; })")))
        assert not js(browser, "return document.querySelector('#chat-log b') !== null")
        js(browser, "document.getElementById('chat-log').scrollIntoView()")
        shot("trip-chat-phone")

        # A direct message: the host picks Tom; Tom sees it waiting (an unread count), opens it, and reads it.
        js(browser, "var who = arguments[0], s = document.getElementById('chat-with'); s.value = Array.from(s.options).find(function (o) { return o.textContent.indexOf(who) === 0; }).value;"
                    " s.dispatchEvent(new Event('change'));", tom)
        wait(browser).until(lambda d: js(d, "return document.getElementById('chat-with').value").startswith("person:"))
        browser.find_element(By.ID, "chat-text").send_keys("Just us: bring the map")
        browser.find_element(By.CSS_SELECTOR, "#chat-form button").click()
        wait(traveller).until(lambda d: any(t.startswith(host) and t.endswith("(1)") for t in
                                            js(d, "return Array.from(document.querySelectorAll('#chat-with option')).map(function (o) { return o.textContent; })")))
        js(traveller, "var who = arguments[0], s = document.getElementById('chat-with'); s.value = Array.from(s.options).find(function (o) { return o.textContent.indexOf(who) === 0; }).value;"
                      " s.dispatchEvent(new Event('change'));", host)
        wait(traveller).until(lambda d: "Just us: bring the map" in " ".join(js(d, "return Array.from(document.querySelectorAll('#chat-log .text')).map(function (t) { return t.textContent; })")))

        # Nobody outside the trip sees any of it: its page, its API and its live channel are as for no trip.
        status, signed = api(server, "POST", "/api/v1/accounts", body={"username": "wes_" + secrets.token_hex(3), "password": PASSWORD})
        assert status == 201
        for path in ("/members", "/positions", "/events", "/broadcasts"):
            assert api(server, "GET", f"/api/v1/trips/{trip_id}{path}", token=signed["token"])[0] == 404
        assert api(server, "GET", f"/api/v1/chat/trip:{trip_id}", token=signed["token"])[0] == 404
    finally:
        browser.execute_cdp_cmd("Emulation.setGeolocationOverride", AT_LEBAK_BULUS)
        browser.set_window_size(1280, 900)
        browser.delete_all_cookies()
