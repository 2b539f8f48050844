"""Browser tests: a real headless Chromium (Selenium with Debian's chromedriver)
against `onward serve --simulate` on the bundled network.

Without Chromium or Selenium the tests are skipped with a message, unless
ONWARD_REQUIRE_BROWSER=1 (as in CI), when that is a failure.
"""
import json
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


def _missing(reason):
    if os.environ.get("ONWARD_REQUIRE_BROWSER") == "1":
        pytest.fail(f"browser tests cannot run: {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}")


def _require_browser_tools():
    """Skips (or fails) before anything starts when Selenium, Chromium or chromedriver is missing."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        _missing("Selenium is not installed (pip install selenium)")
    if not shutil.which("chromium") or not shutil.which("chromedriver"):
        _missing("Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")


def wait(driver, seconds=10):
    """A WebDriverWait that also retries when the page redrew the element it was reading: live
    updates replace a board's rows at any moment, and a row found before a redraw is stale after it."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, seconds, ignored_exceptions=(StaleElementReferenceException,))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class OnwardServer:
    """`onward serve` (the debug build) on a free port with its own data folder, ready when
    /health/ready says the timetable is loaded; `stop()` sends SIGTERM and returns its log."""

    def __init__(self, args=(), env=None, data=None):
        binary = ROOT / ".build" / "debug" / "onward"
        if not binary.exists():
            pytest.fail(f"{binary} is missing: run `swift build --build-tests` first", pytrace=False)
        port = _free_port()
        self.data = data or tempfile.mkdtemp(prefix="onward-browser-")
        self.proc = subprocess.Popen([str(binary), "serve", *args, "--port", str(port), "--data-dir", self.data],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=dict(os.environ, **(env or {})))
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(self.base + "/health/ready", timeout=2) as r:
                    if json.load(r).get("timetable") == "loaded":
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                self.proc.kill()
                raise RuntimeError("the server did not start:\n" + self.proc.stdout.read().decode(errors="replace"))
            time.sleep(0.2)

    def stop(self):
        self.proc.terminate()
        try:
            # SIGTERM ends open live pages and stops cleanly; a loaded 2-core machine may take a while.
            log = self.proc.communicate(timeout=60)[0].decode(errors="replace")
        except subprocess.TimeoutExpired:
            report = self._hang_report()
            self.proc.kill()
            log = self.proc.communicate()[0].decode(errors="replace")
            tail = "\n".join(log.splitlines()[-40:])
            pytest.fail(f"onward serve did not stop within 60 s of SIGTERM\n{report}\n--- the last lines of its log:\n{tail}")
        shutil.rmtree(self.data, ignore_errors=True)
        return log

    def _hang_report(self):
        """What a server that will not stop is holding: its open TCP connections, and every thread's stack (gdb, when
        installed), so that a rare hang at shutdown says where it is."""
        parts = []
        try:
            ss = subprocess.run(["ss", "-tanp"], capture_output=True, text=True, timeout=10).stdout
            mine = [line for line in ss.splitlines() if f"pid={self.proc.pid}," in line]
            parts.append("--- its TCP sockets:\n" + ("\n".join(mine) or "(none)"))
        except (OSError, subprocess.TimeoutExpired) as e:
            parts.append(f"--- ss failed: {e}")
        if shutil.which("gdb"):
            try:
                stacks = subprocess.run(["gdb", "-p", str(self.proc.pid), "-batch", "-ex", "thread apply all bt 25"],
                                        capture_output=True, text=True, timeout=60).stdout
                parts.append("--- its threads:\n" + "\n".join(line for line in stacks.splitlines() if line.startswith(("#", "Thread"))))
            except (OSError, subprocess.TimeoutExpired) as e:
                parts.append(f"--- gdb failed: {e}")
        return "\n".join(parts)


@pytest.fixture(scope="session")
def server():
    """The debug-built server with a fast simulation, so a live update comes within seconds."""
    _require_browser_tools()
    onward = OnwardServer(["--simulate"], env={"ONWARD_SIMULATE_INTERVAL": "3"})
    yield onward.base
    onward.stop()


@pytest.fixture(scope="module")
def all_day():
    """The simulation on a line that runs all day, every day (in UTC): live updates come whatever the hour,
    where the bundled MRT line has none between midnight and five in Jakarta."""
    from test_watch import write_network
    _require_browser_tools()
    folder = pathlib.Path(tempfile.mkdtemp(prefix="onward-all-day-"))
    write_network(folder)
    onward = OnwardServer(["--feed", str(folder), "--simulate"], env={"ONWARD_SIMULATE_INTERVAL": "3"})
    yield onward.base
    onward.stop()
    shutil.rmtree(folder, ignore_errors=True)


# Where the browser is, for every test unless one moves it (and puts it back).
AT_LEBAK_BULUS = {"latitude": -6.2892744, "longitude": 106.7749355, "accuracy": 50}
# A phone's screen exactly, for `Emulation.setDeviceMetricsOverride` (a window's size would include the browser's own bars).
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}


@pytest.fixture(scope="session")
def browser():
    _require_browser_tools()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    chromium = shutil.which("chromium")
    driver_path = shutil.which("chromedriver")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900", "--lang=en-US"):
        options.add_argument(arg)
    # Geolocation without a prompt, at Lebak Bulus.
    options.add_experimental_option("prefs", {"profile.default_content_setting_values.geolocation": 1})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", AT_LEBAK_BULUS)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


@pytest.fixture
def shot(browser):
    """Saves a screenshot under artifacts/screenshots/NAME.png."""
    def save(name):
        path = SCREENSHOTS / f"{name}.png"
        browser.save_screenshot(str(path))
        return path
    return save
