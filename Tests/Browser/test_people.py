"""People in a real headless Chromium: an account, saved routes with a drill-down stack, the same
person on a second browser seeing every change live, the glance view at watch size, signing out,
and another person seeing none of it."""
import secrets
import shutil

import pytest

import conftest

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
except ImportError:
    # Without Selenium the fixtures skip every test with the reason (see test_web.py).
    pass

PASSWORD = "correct horse battery staple"


def wait(driver, seconds=15):
    return conftest.wait(driver, seconds)


@pytest.fixture
def laptop(browser):
    """A second browser with its own cookies: the same person's other device."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900", "--lang=en-US"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    yield driver
    driver.quit()


def sign(driver, server, path, username, password=PASSWORD):
    driver.get(server + path)
    driver.find_element(By.ID, "username").send_keys(username)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, ".person-sign-in button[type=submit]").click()
    wait(driver).until(EC.url_to_be(server + "/me"))


# Read in one script call each: the live channel may redraw the list between two element reads.
def texts(driver, selector):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).map(function (e) { return e.textContent.trim(); });", selector)


def tabs(driver):
    return texts(driver, ".route-tabs .tab")


def current_tab(driver):
    found = texts(driver, ".route-tabs .tab[aria-current=page]")
    return found[0] if found else None


def crumbs(driver):
    return texts(driver, ".breadcrumbs li")


def test_saved_routes_sync_live_between_two_browsers(server, browser, laptop, shot):
    ana = "ana_" + secrets.token_hex(3)
    browser.set_window_size(390, 844)
    try:
        # A newcomer creates an account: My routes invites the first route.
        sign(browser, server, "/signup", ana)
        assert "No saved routes yet" in browser.find_element(By.CSS_SELECTOR, "#me-live").text

        # Saves "Blok M → Bundaran HI" from the board.
        browser.get(server + "/stops/SBKM?to=SBHI")
        browser.find_element(By.CSS_SELECTOR, ".save-route button").click()
        wait(browser).until(EC.url_to_be(server + "/me"))
        board_name = current_tab(browser)
        assert board_name.startswith("Stasiun MRT Blok M BCA to Stasiun MRT Bundaran HI")
        assert texts(browser, ".me-row"), "the saved board shows its departures"

        # The home page lists it first.
        browser.get(server + "/")
        assert board_name in texts(browser, "section[aria-labelledby=mine-title] .me-row")
        browser.get(server + "/me")

        # Drills into a service: it is pushed onto the stack, with a crumb back. (Clicks are made in the
        # page's own script, in one step: the live channel redraws the routes as live data changes.)
        browser.execute_script("document.querySelector('.me-row').click()")
        wait(browser).until(lambda d: len(crumbs(d)) == 2)
        assert crumbs(browser)[0] == board_name
        assert browser.find_elements(By.CSS_SELECTOR, "#me-live .calls, #me-live ol"), "the service's calls are shown"

        # The same person on a laptop sees the same stack.
        sign(laptop, server, "/signin", ana)
        assert tabs(laptop) == [board_name] and len(crumbs(laptop)) == 2

        # The laptop saves a journey; the phone, untouched, shows it within a few seconds.
        laptop.get(server + "/journeys?from=SLBB&to=SBHI")
        laptop.find_element(By.CSS_SELECTOR, ".save-route button").click()
        wait(laptop).until(EC.url_to_be(server + "/me"))
        journey_name = current_tab(laptop)
        wait(browser, 10).until(lambda d: len(tabs(d)) == 2 and current_tab(d) == journey_name)
        shot("my-routes-phone")

        # The phone switches back to the board's stack; the laptop follows.
        browser.execute_script("var name = arguments[0]; Array.from(document.querySelectorAll('.route-tabs .tab'))"
                               ".find(function (b) { return b.textContent.trim() === name; }).click()", board_name)
        wait(laptop, 10).until(lambda d: current_tab(d) == board_name and len(crumbs(d)) == 2)

        # The phone renames it and moves it after the journey; the laptop's tabs follow. The page may redraw
        # live while the name is typed: the script keeps what is typed (app.js, replace).
        wait(browser).until(EC.url_to_be(server + "/me"))
        browser.execute_script("document.querySelector('.route-edit').open = true; "
                               "var box = document.getElementById('route-name'); box.focus(); box.value = '';")
        browser.switch_to.active_element.send_keys("Work")
        browser.execute_script("document.querySelector('.rename-route').requestSubmit()")
        wait(laptop, 10).until(lambda d: tabs(d) == ["Work", journey_name])
        board_name = "Work"
        browser.execute_script("document.querySelector('.route-edit').open = true; "
                               "document.querySelector('.route-edit form[action$=\"/move\"]').submit()")
        wait(laptop, 10).until(lambda d: tabs(d) == [journey_name, "Work"])

        # The glance view at watch size shows the top of the current stack: the service.
        # A watch's screen: the viewport itself is 200×200 CSS pixels.
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 200, "height": 200, "deviceScaleFactor": 1, "mobile": True})
        browser.get(server + "/glance")
        wait(browser).until(lambda d: texts(d, ".glance-name") and texts(d, ".glance-lines li"))
        assert texts(browser, ".glance-name")[0] == texts(browser, ".glance-name")[0].strip() != ""
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 200, "nothing spills sideways"
        shot("glance-200")
        # The laptop goes back to the board: the glance follows, live.
        laptop.execute_script("document.querySelector('.breadcrumbs .crumb').click()")
        wait(laptop).until(lambda d: len(crumbs(d)) == 1)
        wait(browser, 10).until(lambda d: texts(d, ".glance-name") == [board_name])
        shot("glance-200-board")
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

        # Signing out ends the session: My routes asks to sign in again.
        browser.get(server + "/account")
        browser.find_element(By.XPATH, "//form[@action='/signout'][not(input[@name='everywhere'])]//button").click()
        wait(browser).until(EC.url_to_be(server + "/"))
        browser.get(server + "/me")
        assert browser.current_url == server + "/signin"

        # Somebody else sees none of Ana's routes.
        laptop.get(server + "/account")
        laptop.find_element(By.XPATH, "//form[@action='/signout'][not(input[@name='everywhere'])]//button").click()
        wait(laptop).until(EC.url_to_be(server + "/"))
        sign(laptop, server, "/signup", "bob_" + secrets.token_hex(3))
        assert tabs(laptop) == []
        assert board_name not in laptop.page_source
    finally:
        browser.set_window_size(1280, 900)
        browser.delete_all_cookies()


def test_telegram_sign_in_posts_what_telegram_signed_with_the_pages_token(browser, shot):
    """The sign-in page's Telegram button opens Telegram's login window (its script's Telegram.Login.auth,
    stubbed here: the test machine cannot reach telegram.org) and posts what it signed back to the server with
    the page's anti-forgery token: the browser is signed in. The stub signs as Telegram does, with the bot's token."""
    import hashlib
    import hmac
    import json
    import time
    from conftest import OnwardServer
    token = "123456:TEST-bot-token-not-real"
    onward = OnwardServer(["--simulate"], env={"ONWARD_TELEGRAM_BOT_TOKEN": token, "ONWARD_TELEGRAM_BOT_USERNAME": "onward_test_bot"})
    try:
        user = {"id": "4242", "first_name": "Siti", "last_name": "Nurbaya", "auth_date": str(int(time.time()) - 5)}
        check = "\n".join(f"{k}={v}" for k, v in sorted(user.items()))
        user["hash"] = hmac.new(hashlib.sha256(token.encode()).digest(), check.encode(), hashlib.sha256).hexdigest()
        browser.delete_all_cookies()
        browser.get(onward.base + "/signin")
        button = browser.find_element(By.CSS_SELECTOR, "[data-telegram-sign-in] button")
        browser.execute_script(
            "window.Telegram = {Login: {auth: function (options, done) { window.telegramOptions = options; done(%s); }}};" % json.dumps(user))
        button.click()
        wait(browser).until(EC.url_to_be(onward.base + "/me"))
        assert "No saved routes yet" in browser.find_element(By.TAG_NAME, "body").text
        browser.get(onward.base + "/account")
        assert "Siti Nurbaya" in browser.find_element(By.TAG_NAME, "main").text
        shot("telegram-signed-in")
        # The window was opened for the bot's ID, which the page took from the token's public part.
        browser.delete_all_cookies()
        browser.get(onward.base + "/signin")
        browser.execute_script(
            "window.Telegram = {Login: {auth: function (options, done) { window.telegramOptions = options; }}};")
        browser.find_element(By.CSS_SELECTOR, "[data-telegram-sign-in] button").click()
        assert browser.execute_script("return window.telegramOptions.bot_id") == "123456"
    finally:
        browser.delete_all_cookies()
        onward.stop()
