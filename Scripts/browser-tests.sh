#!/usr/bin/env bash
# The browser tests (a real headless Chromium against `onward serve --simulate`),
# after `swift build --build-tests`. Screenshots go to artifacts/screenshots/.
# Without pytest, Selenium or Chromium they are skipped with a message, unless
# ONWARD_REQUIRE_BROWSER=1 (as in CI), when that is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/pytest-available.sh
pytest_available "browser tests" ONWARD_REQUIRE_BROWSER || exit "${ONWARD_SKIP_STATUS:-0}"
# The tests watch trains run on the bundled MRT Jakarta line, which runs from 05:00 to midnight in
# Jakarta. Outside 07:00-21:00 there they run with the clock moved on to the next 10:00 Jakarta time
# (forward only: Chromium's timers stalled with a clock moved back), for the server, Chromium and the tests alike (libfaketime's offset is inherited by every process
# they start), so a run at night tests what a run by day does. ONWARD_BROWSER_CLOCK=real keeps the real clock.
offset=$(python3 -c '
from datetime import datetime, timedelta, timezone
now = datetime.now(timezone(timedelta(hours=7)))
ten = now.replace(hour=10, minute=0, second=0, microsecond=0)
print(0 if 7 <= now.hour < 21 else int(((ten if now < ten else ten + timedelta(days=1)) - now).total_seconds()))')
if [ "$offset" != 0 ] && [ "${ONWARD_BROWSER_CLOCK:-}" != real ]; then
  if command -v faketime >/dev/null 2>&1; then
    echo "no trains run at this hour in Jakarta: the browser tests run with the clock moved ${offset} s, to 10:00 there (faketime)"
    pytest_prefix=(faketime -f "+${offset}")
  else
    echo "no trains run at this hour in Jakarta, and faketime is not installed (apt-get install faketime): tests that watch trains will fail" >&2
  fi
fi
# -rs prints why a test was skipped (no Selenium, no Chromium).
run_pytest -q -rs -p no:cacheprovider Tests/Browser "$@"
