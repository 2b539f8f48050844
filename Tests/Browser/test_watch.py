"""A watched journey in a real headless Chromium at phone size: a signed-in person switches on "Watch this
journey" under an option; the line then cancels that train in its GTFS-Realtime feed; the server sends one
Web Push, which a push endpoint on this machine decrypts (http_ece) and whose VAPID signature it checks
(py_vapid), naming the next train.

The network is written here: two stations and a train every five minutes all day and every day, in UTC,
so a departure is always within the watch's half hour whenever the test runs. The realtime feed is a file
the server polls each second, written here as protobuf bytes by hand (the test needs no protobuf library).
"""
import csv
import datetime
import json
import os
import pathlib
import re
import shutil
import secrets
import tempfile

import pytest

from conftest import wait, PHONE, OnwardServer, _require_browser_tools
from test_commute import PushEndpoint, fake_push_service
from test_people import sign

try:
    from selenium.webdriver.common.by import By
    from selenium.common.exceptions import StaleElementReferenceException
except ImportError:
    pass


def watch_switches(driver):
    """The aria-checked of every watch switch, read in one script: the page re-renders its switches when live data
    arrives, so reading them element by element can meet one that has just been replaced."""
    return driver.execute_script(
        "return [...document.querySelectorAll('[data-watch-toggle]')].map(b => b.getAttribute('aria-checked'))")


def click_first_switch(driver):
    """Clicks the first watch switch, finding it again if a re-render replaced it between finding and clicking."""
    try:
        driver.find_element(By.CSS_SELECTOR, "[data-watch-toggle]").click()
        return True
    except StaleElementReferenceException:
        return False


def write_network(folder):
    """Alpha to Omega, 20 minutes, every 5 minutes from 00:00 to 23:55 (UTC), every day of 2026 and 2027."""
    tables = {
        "agency.txt": [["agency_id", "agency_name", "agency_url", "agency_timezone"], ["A", "Test Line", "https://example.org", "UTC"]],
        "stops.txt": [["stop_id", "stop_name", "stop_lat", "stop_lon"], ["ALPHA", "Alpha", "-6.30", "106.80"], ["OMEGA", "Omega", "-6.20", "106.82"]],
        "routes.txt": [["route_id", "agency_id", "route_short_name", "route_long_name", "route_type"], ["R", "A", "T1", "Alpha–Omega", "1"]],
        "calendar.txt": [["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "start_date", "end_date"],
                         ["ALL", "1", "1", "1", "1", "1", "1", "1", "20260101", "20271231"]],
        "trips.txt": [["route_id", "service_id", "trip_id", "trip_headsign"]],
        "stop_times.txt": [["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"]],
    }
    for n in range(288):
        start = n * 5
        trip = f"T{n:03d}"
        tables["trips.txt"].append(["R", "ALL", trip, "Omega"])
        for seq, (stop, minutes) in enumerate([("ALPHA", start), ("OMEGA", start + 20)]):
            clock = f"{minutes // 60:02d}:{minutes % 60:02d}:00"
            tables["stop_times.txt"].append([trip, clock, clock, stop, str(seq + 1)])
    for name, rows in tables.items():
        with open(folder / name, "w", newline="") as f:
            csv.writer(f).writerows(rows)


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(number, value):
    """One protobuf field: an int as a varint, bytes or text length-delimited."""
    if isinstance(value, int):
        return varint(number << 3) + varint(value)
    data = value.encode() if isinstance(value, str) else value
    return varint(number << 3 | 2) + varint(len(data)) + data


def feed(timestamp, cancelled=None):
    """A GTFS-Realtime FeedMessage: its header, and a TripUpdate cancelling `cancelled` (trip ID, start date)."""
    message = field(1, field(1, "2.0") + field(3, timestamp))
    if cancelled:
        trip = field(1, cancelled[0]) + field(3, cancelled[1]) + field(4, 3)  # schedule_relationship CANCELED
        message += field(2, field(1, "cancel") + field(3, field(1, trip)))
    return message


@pytest.fixture(scope="module")
def line():
    """The server on the written network, its realtime feed a file polled each second, watches checked each second."""
    _require_browser_tools()
    folder = pathlib.Path(tempfile.mkdtemp(prefix="onward-watch-"))
    gtfs = folder / "gtfs"
    gtfs.mkdir()
    write_network(gtfs)
    realtime = folder / "trip-updates.pb"
    now = int(datetime.datetime.now(datetime.timezone.utc).timestamp())
    realtime.write_bytes(feed(now))
    onward = OnwardServer(["--feed", str(gtfs), "--realtime", str(realtime)],
                          env={"ONWARD_PUSH_ALLOW_HTTP": "1", "ONWARD_POLL_INTERVAL": "1", "ONWARD_WATCH_CHECK_INTERVAL": "1",
                               "ONWARD_MAX_AGE": "86400"})
    onward.realtime = realtime
    yield onward
    onward.stop()
    shutil.rmtree(folder, ignore_errors=True)


def test_a_watched_train_cancelled_is_pushed_once_naming_the_next(line, browser, shot):
    endpoint = PushEndpoint()
    base = line.base
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    script = fake_push_service(browser, endpoint)
    browser.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["notifications"]})
    try:
        sign(browser, base, "/signup", "wanda_" + secrets.token_hex(3))
        browser.get(base + "/journeys?from=ALPHA&to=OMEGA")
        until = wait(browser, 20).until
        until(lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "[data-watch-toggle]") if b.is_displayed()), None))
        option = browser.find_element(By.CSS_SELECTOR, ".journey")
        service = option.find_element(By.CSS_SELECTOR, ".leg-service a").get_attribute("href")
        trip = re.search(r"/services/([^?]+)", service).group(1).split("%3A")[-1].split(":")[-1]
        date = re.search(r"date=(\d{4}-\d{2}-\d{2})", service).group(1).replace("-", "")
        departure = browser.find_element(By.CSS_SELECTOR, ".journey-watch").get_attribute("data-watch-departure")
        assert watch_switches(browser)[:1] == ["false"]
        until(click_first_switch)
        until(lambda d: watch_switches(d)[:1] == ["true"])
        status = browser.find_element(By.CSS_SELECTOR, "[data-watch-status]").text
        assert status.startswith("From 30 min before it leaves"), status
        browser.execute_script("document.querySelector('[data-watch-toggle]').scrollIntoView({block: 'center'});")
        shot("watch-switch-on")
        # The page opened again knows the option is watched.
        browser.refresh()
        until(lambda d: watch_switches(d)[:1] == ["true"])
        assert endpoint.received == []
        # Saved, the journey shows on My routes with the same switch, on.
        browser.find_element(By.CSS_SELECTOR, ".save-route button").click()
        until(lambda d: d.current_url.startswith(base + "/me"))
        until(lambda d: watch_switches(d)[:1] == ["true"])
        shot("watch-saved-journey")

        # The line cancels the watched train.
        now = int(datetime.datetime.now(datetime.timezone.utc).timestamp())
        line.realtime.write_bytes(feed(now, cancelled=(trip, date)))
        wait(browser, 30).until(lambda d: len(endpoint.received) >= 1)
        assert endpoint.problems == []
        pushed = json.loads(endpoint.received[0])
        hhmm = departure[11:16]
        later = (datetime.datetime.strptime(hhmm, "%H:%M") + datetime.timedelta(minutes=5)).strftime("%H:%M")
        arrives = (datetime.datetime.strptime(hhmm, "%H:%M") + datetime.timedelta(minutes=25)).strftime("%H:%M")
        assert pushed["body"] == f"The {hhmm} to Omega is cancelled (the T1): take the {later}, arriving {arrives}, 5 min later.", pushed
        # The push opens the journey page, where the other options are.
        assert pushed["url"] == "/journeys?from=gtfs%3AALPHA&to=gtfs%3AOMEGA" and pushed["title"] == "Onward", pushed
        # Switched off: no longer watched.
        until(click_first_switch)
        until(lambda d: watch_switches(d)[:1] == ["false"])
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script})
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        endpoint.stop()
