# Sourced by Scripts/test.sh: installs what the tests need, where it can, and says what it could not.
#  - Debian packages (Chromium and its driver for the browser tests, PostgreSQL for the storage and
#    scale-out tests, nginx for the scale-out tests, wrk for the load under the feed swap), when running as root with apt-get;
#  - the Python tools of Scripts/test-requirements.txt (and axe-core's package, without its Playwright)
#    in a virtual environment of the project's own, .venv-test, put first on PATH.
# A stage whose tools are still missing is skipped with a message saying what to install (or fails,
# with ONWARD_REQUIRE_BROWSER / ONWARD_REQUIRE_POSTGRES / ONWARD_REQUIRE_PYTHON=1, as in CI).

setup_debian_packages() {
  local need=()
  { command -v chromium && command -v chromedriver; } >/dev/null 2>&1 || need+=(chromium chromium-driver)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
  command -v nginx >/dev/null 2>&1 || need+=(nginx-light)
  command -v wrk >/dev/null 2>&1 || need+=(wrk)
  [ ${#need[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: not installing ${need[*]} (needs root and apt-get); install them for the stages that use them" >&2
    return 0
  fi
  echo "setup: installing ${need[*]} (Debian)"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null; }; then
    echo "setup: could not install ${need[*]}; the stages that need them are skipped" >&2
  fi
}

setup_python_tools() {
  local venv=.venv-test stamp=.venv-test/requirements.installed
  if [ ! -x "$venv/bin/python3" ] && ! python3 -m venv "$venv" >/dev/null 2>&1; then
    echo "setup: could not make a Python virtual environment (python3 -m venv); using the system's python3 as it is" >&2
    return 0
  fi
  export PATH="$PWD/$venv/bin:$PATH"
  # Installed once per version of the list.
  if ! cmp -s Scripts/test-requirements.txt "$stamp"; then
    echo "setup: installing the Python tools of Scripts/test-requirements.txt into $venv"
    if python3 -m pip install -q --disable-pip-version-check -r Scripts/test-requirements.txt \
       && python3 -m pip install -q --disable-pip-version-check --no-deps axe-playwright-python; then
      cp Scripts/test-requirements.txt "$stamp"
    else
      echo "setup: could not install every Python tool (pip install -r Scripts/test-requirements.txt); the stages that need them are skipped" >&2
    fi
  fi
}

setup_debian_packages
setup_python_tools
