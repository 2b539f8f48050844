# Sourced by the pytest-based test scripts.
# Under Scripts/test.sh, ONWARD_SKIP_STATUS is 77: a stage that is skipped exits with it, so the summary
# counts it as skipped; run alone, a skipped stage exits 0.

# `pytest_available WHAT REQUIRE_VARIABLE`: returns 0 when pytest is installed; otherwise says WHAT is
# skipped (returns 1), or fails the run when REQUIRE_VARIABLE is 1 (as in CI).
pytest_available() {
  python3 -c "import pytest" 2>/dev/null && return 0
  if [ "${!2:-}" = "1" ]; then
    echo "$1 cannot run: pytest is not installed (pip install pytest)" >&2
    exit 1
  fi
  echo "$1 skipped: pytest is not installed (pip install pytest)" >&2
  return 1
}

# `run_pytest ARGS...`: pytest, whose run counts as skipped when every test in it was skipped
# (a missing browser or database, said in pytest's -rs lines).
run_pytest() {
  local log rc
  log=$(mktemp)
  python3 -m pytest "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  if [ "$rc" = 0 ] && tail -n 1 "$log" | grep -Eq '^[0-9]+ skipped'; then rc=${ONWARD_SKIP_STATUS:-0}; fi
  rm -f "$log"
  return "$rc"
}
