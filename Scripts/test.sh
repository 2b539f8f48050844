#!/usr/bin/env bash
# Every test: the Swift tests, then the browser tests (a real headless Chromium
# against `onward serve --simulate`). Screenshots go to artifacts/screenshots/.
# Without pytest, Selenium or Chromium the browser tests are skipped with a message
# (unless ONWARD_REQUIRE_BROWSER=1, as in CI): see Scripts/browser-tests.sh. Between them,
# two servers run on one PostgreSQL behind nginx (Scripts/scale-out-tests.sh), and the API is
# fuzzed from its OpenAPI document (Scripts/api-fuzz.sh, PyPI schemathesis).
set -euo pipefail
cd "$(dirname "$0")/.."
# Generated files are current: the OpenAPI document is what its generator makes.
python3 Scripts/openapi.py --check
# Imports go the way ARCHITECTURE.md draws them, and Package.swift declares what each target imports.
python3 Scripts/check-architecture.py --self-test
python3 Scripts/check-architecture.py
swift build --build-tests
# A throwaway PostgreSQL cluster on a free port for the PostgreSQL tests (Scripts/postgres.sh), unless one
# is named already. Without PostgreSQL installed those tests are skipped with a message (unless
# ONWARD_REQUIRE_POSTGRES=1, as in CI).
if [ -z "${ONWARD_TEST_POSTGRES_URL:-}" ] && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  pg_folder=$(mktemp -d /tmp/onward-test-pg.XXXXXX)
  trap 'Scripts/postgres.sh stop "$pg_folder"' EXIT
  pg_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  ONWARD_TEST_POSTGRES_URL=$(Scripts/postgres.sh start "$pg_folder" "$pg_port")
  export ONWARD_TEST_POSTGRES_URL
  # The cluster's certificate authority, for the tests of each sslmode.
  if [ -f "$pg_folder/tls/ca.pem" ]; then export ONWARD_TEST_POSTGRES_CA="$pg_folder/tls/ca.pem"; fi
fi
# The log is long and CI shows its end: a failure's lines are repeated there.
mkdir -p artifacts
if ! swift test --skip-build 2>&1 | tee artifacts/swift-test.log; then
  echo "Swift tests failed; the failures:" >&2
  grep -E "✘|recorded an issue|error: " artifacts/swift-test.log | grep -v "^20[0-9][0-9]-" | head -60 >&2 || true
  exit 1
fi
# Two servers on one PostgreSQL behind nginx, one killed under load.
Scripts/scale-out-tests.sh
Scripts/api-fuzz.sh
Scripts/browser-tests.sh
