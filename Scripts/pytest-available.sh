# Sourced by the pytest-based test scripts: `pytest_available WHAT REQUIRE_VARIABLE` returns 0 when pytest
# is installed; otherwise says WHAT is skipped (returns 1), or fails the run when REQUIRE_VARIABLE is 1 (as in CI).
pytest_available() {
  python3 -c "import pytest" 2>/dev/null && return 0
  if [ "${!2:-}" = "1" ]; then
    echo "$1 cannot run: pytest is not installed (pip install pytest)" >&2
    exit 1
  fi
  echo "$1 skipped: pytest is not installed (pip install pytest)" >&2
  return 1
}
