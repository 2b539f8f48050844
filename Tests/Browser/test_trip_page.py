"""The trip page as a traveller sees it on a phone, in both themes and both languages."""
import datetime
import secrets

import pytest

from conftest import PHONE
from test_people import PASSWORD, sign
from test_trips import api, js, make_trip, wait

# Two travellers 8 m apart at the top of la Caubella: at any zoom of the mountain map their dots touch.
BRUNO = (42.5350919, 1.4888980)
CHLOE = (42.5350919, 1.4889960)


@pytest.fixture(scope="module")
def trip(server, browser):
    """A trip its host has open in the browser, with Bruno and Chloé side by side on the map and a line from Bruno in
    its chat: (the trip's address, when Bruno wrote)."""
    suffix = secrets.token_hex(3)
    sign(browser, server, "/signup", "ines_" + suffix)
    url, trip_id, code = make_trip(browser, server, "Nursery slopes")
    until = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=2)).isoformat(timespec="seconds")
    tokens = {}
    for name, username, (lat, lon) in (("Bruno", "bruno_", BRUNO), ("Chloé", "chloe_", CHLOE)):
        status, signed = api(server, "POST", "/api/v1/accounts", body={"username": username + suffix, "password": PASSWORD, "displayName": name})
        assert status == 201, signed
        tokens[name] = signed["token"]
        assert api(server, "POST", "/api/v1/trips/join", token=signed["token"], body={"code": code})[0] in (200, 201)
        status, body = api(server, "PUT", f"/api/v1/trips/{trip_id}/position", token=signed["token"],
                           body={"latitude": lat, "longitude": lon, "accuracy": 5, "sharingUntil": until})
        assert status in (200, 204), body
    status, message = api(server, "POST", f"/api/v1/chat/trip:{trip_id}", token=tokens["Bruno"], body={"text": "Meet at the drag lift"})
    assert status in (200, 201), message
    yield url, datetime.datetime.fromisoformat(message["at"].replace("Z", "+00:00"))
    browser.delete_all_cookies()


@pytest.fixture
def phone(browser):
    """The browser as a phone in Jakarta."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Jakarta"})
    yield browser
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def open_trip(driver, url, lang, theme):
    """The trip page, live, with both travellers' names on the map."""
    driver.get(f"{url}?lang={lang}&theme={theme}")
    wait(driver).until(lambda d: js(d, "return document.querySelector('main').dataset.live") == "open")
    wait(driver).until(lambda d: sorted(js(d, "return Array.from(document.querySelectorAll('#trip-map .person-label'))"
                                              ".map(function (e) { return e.textContent; })")) == ["Bruno", "Chloé"])
    js(driver, "document.getElementById('trip-map').scrollIntoView()")


def luminance(css_colour):
    """WCAG relative luminance of a computed `rgb(…)`/`rgba(…)` colour, or a `#rrggbb` or `#rgb` one."""
    if css_colour.startswith("#"):
        digits = css_colour[1:] if len(css_colour) == 7 else "".join(c * 2 for c in css_colour[1:])
        channels = [int(digits[i:i + 2], 16) for i in (0, 2, 4)]
    else:
        channels = [float(x) for x in css_colour[css_colour.index("(") + 1:css_colour.index(")")].split(",")[:3]]
    linear = [c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_map_follows_the_theme(server, trip, phone, shot, theme):
    url, _ = trip
    open_trip(phone, url, "en", theme)
    # The plain ground (no tiles here) is the theme's, under the page's text colour as any surface is.
    ground = js(phone, "return getComputedStyle(document.getElementById('trip-map')).backgroundColor")
    assert (luminance(ground) < 0.1) == (theme == "dark"), ground
    assert contrast(ground, js(phone, "return getComputedStyle(document.body).color")) >= 4.5
    # Tiles, when an operator configures them, are darkened in the dark.
    tiles = js(phone, "return getComputedStyle(document.querySelector('#trip-map .leaflet-tile-pane')).filter")
    assert ("invert" in tiles) == (theme == "dark"), tiles
    # Lifts (and black runs) in ink that stands out on the ground; names on the theme's surface.
    lift = js(phone, "var p = document.querySelector('#trip-map path[stroke-dasharray=\"2 5\"]'); return p && p.getAttribute('stroke');")
    assert lift and contrast(lift, ground) >= 3, (lift, ground)
    label = js(phone, "return getComputedStyle(document.querySelector('#trip-map .person-label')).backgroundColor")
    assert label == js(phone, "return getComputedStyle(document.querySelector('.card')).backgroundColor")
    shot(f"trip-map-{theme}-phone")


def overlapping(driver):
    """The pairs of travellers' name labels that cover each other, by name."""
    boxes = js(driver, "return Array.from(document.querySelectorAll('#trip-map .person-label')).map(function (e) {"
                       " var r = e.getBoundingClientRect(); return [e.textContent, r.left, r.top, r.right, r.bottom]; });")
    return [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]]


def test_names_never_cover_each_other(server, trip, phone, shot):
    url, _ = trip
    open_trip(phone, url, "en", "light")
    # As the map opens, then zoomed right in and out: the two names side by side, never one over the other.
    wait(phone).until(lambda d: not overlapping(d))
    shot("trip-names-phone")
    for zoom in (18, 11):
        js(phone, "OnwardTrip.map.setZoom(arguments[0], { animate: false })", zoom)
        wait(phone).until(lambda d: js(d, "return OnwardTrip.map.getZoom()") == zoom)
        wait(phone).until(lambda d: not overlapping(d))


FIELD_LOOK = ("var s = getComputedStyle(document.querySelector(arguments[0]));"
              " return [s.borderTopLeftRadius, s.borderTopColor, s.borderTopWidth, s.backgroundColor, s.color, s.minHeight];")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_menus_and_number_fields_look_like_the_other_fields(server, trip, phone, shot, theme):
    url, _ = trip
    open_trip(phone, url, "en", theme)
    # The event's title is a field like the sign-in page's: the menus, the radius and the chat's field look the same.
    reference = js(phone, FIELD_LOOK, "#event-title")
    assert reference[3] == js(phone, "return getComputedStyle(document.querySelector('.card')).backgroundColor")
    for field in ("#share-for", "#radius", "#ski-level", "#event-audience", "#chat-with", "#chat-text"):
        assert js(phone, FIELD_LOOK, field) == reference, field
    js(phone, "document.querySelector('.share-controls').scrollIntoView()")
    shot(f"trip-fields-{theme}-phone")
    # The trips page's number field (days) looks like its name field.
    phone.get(f"{server}/trips?theme={theme}")
    assert js(phone, FIELD_LOOK, "#trip-days") == js(phone, FIELD_LOOK, "#trip-name")


# Monday first, as the string tables and Python's weekday() have them.
WEEKDAYS = {"en": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], "id": ["Sen", "Sel", "Rab", "Kam", "Jum", "Sab", "Min"]}
JAKARTA = datetime.timezone(datetime.timedelta(hours=7))


@pytest.mark.parametrize("lang", ["en", "id"])
def test_chat_times_are_on_24_hours(server, trip, phone, shot, lang):
    url, at = trip
    open_trip(phone, url, lang, "light")
    # Bruno's line: the weekday in the page's language and the time on 24 hours, as everywhere else in the app.
    sent = at.astimezone(JAKARTA)
    shown = wait(phone).until(lambda d: js(d, "var t = document.querySelector('#chat-log time'); return t && t.textContent;"))
    assert shown == f"{WEEKDAYS[lang][sent.weekday()]} {sent:%H:%M}", (shown, at.isoformat())
    js(phone, "document.getElementById('chat-log').scrollIntoView()")
    shot(f"trip-chat-{lang}-phone")
