#!/usr/bin/env bash
# Every test: the Swift tests, then the browser tests (a real headless Chromium
# against `onward serve --simulate`). Screenshots go to artifacts/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
swift test --skip-build
python3 -m pytest -q -p no:cacheprovider Tests/Browser
