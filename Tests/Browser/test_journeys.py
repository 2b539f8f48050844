"""The journey planner in a real headless Chromium, at phone size."""
import conftest
try:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as EC
except ImportError:
    # Without Selenium the fixtures skip every test with the reason (see test_web.py).
    pass

from conftest import PHONE


def wait(driver, seconds=10):
    return conftest.wait(driver, seconds)


def pick(browser, field, text):
    """Types into a place field and picks the first suggestion with the keyboard."""
    box = wait(browser).until(EC.element_to_be_clickable((By.ID, field)))
    box.clear()
    box.send_keys(text)
    wait(browser).until(EC.visibility_of_element_located((By.CSS_SELECTOR, f"#{field}-results [role=option]")))
    box.send_keys(Keys.ARROW_DOWN, Keys.ENTER)
    wait(browser).until(lambda d: d.find_element(By.ID, f"{field}-id").get_attribute("value") != "")


def test_plan_a_journey_and_swap_by_picking_the_destination_as_origin(server, browser, shot):
    browser.set_window_size(360, 780)
    try:
        browser.get(server + "/journeys?date=2026-11-23&time=08:00")
        pick(browser, "journey-from", "lebak")
        pick(browser, "journey-to", "bundaran")
        assert browser.find_element(By.ID, "journey-from-id").get_attribute("value") == "mrt-jakarta:SLBB"
        assert browser.find_element(By.ID, "journey-to-id").get_attribute("value") == "mrt-jakarta:SBHI"
        # Choosing as departure the station that is the arrival swaps the two.
        pick(browser, "journey-from", "bundaran")
        assert browser.find_element(By.ID, "journey-from-id").get_attribute("value") == "mrt-jakarta:SBHI"
        assert browser.find_element(By.ID, "journey-to-id").get_attribute("value") == "mrt-jakarta:SLBB"
        assert "Lebak Bulus" in browser.find_element(By.ID, "journey-to").get_attribute("value")
        # Swap back and plan.
        pick(browser, "journey-to", "bundaran")
        browser.find_element(By.CSS_SELECTOR, ".journey-form button[type=submit]").click()
        journeys = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".journey-list > li"))
        assert len(journeys) >= 3
        first = journeys[0].text
        # Trip 028 leaves Lebak Bulus platform 2 at 08:00 and reaches Bundaran HI at 08:29 (stop_times.txt).
        assert "08:00" in first and "08:29" in first and "Platform 2" in first
        overflow = browser.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page is {overflow}px wider than a 360px screen"
        shot("journeys-phone")
    finally:
        browser.set_window_size(1280, 900)


def test_plan_from_here_on_a_board(server, browser):
    browser.set_window_size(1280, 900)
    browser.get(server + "/stops/SBKM")
    link = wait(browser).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "a[href^='/journeys?from=']")))
    link.click()
    wait(browser).until(EC.url_contains("/journeys"))
    assert browser.find_element(By.ID, "journey-from-id").get_attribute("value") == "mrt-jakarta:SBKM"
    assert "Blok M" in browser.find_element(By.ID, "journey-from").get_attribute("value")


def test_the_first_journey_is_on_a_phones_first_screen(server, browser, shot):
    # The phone's screen exactly (a window's size would include the browser's own bars).
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    try:
        browser.get(server + "/journeys?from=SLBB&to=SBHI&date=2026-11-23&time=08:00")
        journeys = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".journey-list > li"))
        # Its times, and its first ride to the end of the line, without scrolling.
        first = browser.execute_script(
            "var r = arguments[0].getBoundingClientRect(); return [r.bottom, window.innerHeight];", journeys[0])
        assert first[0] <= first[1], f"the first journey ends {first[0]}px down a {first[1]}px screen"
        assert "08:00" in journeys[0].text and "08:29" in journeys[0].text
        shot("journeys-first-screen-phone")
        # The search folded into one line says what was asked, and opens to be changed: a later time, searched again.
        summary = browser.find_element(By.CSS_SELECTOR, ".journey-search > summary")
        assert "Lebak Bulus" in summary.text and "Bundaran HI" in summary.text and "Mon 23 Nov 2026, 08:00" in summary.text
        assert not browser.find_element(By.ID, "journey-time").is_displayed()
        summary.click()
        wait(browser).until(EC.visibility_of_element_located((By.ID, "journey-time")))
        browser.execute_script("document.getElementById('journey-time').value = '09:00'")
        browser.find_element(By.CSS_SELECTOR, ".journey-form button[type=submit]").click()
        wait(browser).until(EC.url_contains("time=09%3A00"))
        first = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".journey-list > li"))[0].text
        assert first.startswith("09:"), first
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
