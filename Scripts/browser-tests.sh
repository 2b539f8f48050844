#!/usr/bin/env bash
# The browser tests (a real headless Chromium against `onward serve --simulate`),
# after `swift build --build-tests`. Screenshots go to artifacts/screenshots/.
# Without pytest, Selenium or Chromium they are skipped with a message, unless
# ONWARD_REQUIRE_BROWSER=1 (as in CI), when that is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/pytest-available.sh
pytest_available "browser tests" ONWARD_REQUIRE_BROWSER || exit "${ONWARD_SKIP_STATUS:-0}"
# -rs prints why a test was skipped (no Selenium, no Chromium).
run_pytest -q -rs -p no:cacheprovider Tests/Browser "$@"
