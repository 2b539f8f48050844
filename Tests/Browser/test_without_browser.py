"""The browser tests on a machine without their tools: skipped with a message, or,
with ONWARD_REQUIRE_BROWSER=1 (CI), a failure. The tools are hidden from a child
pytest by a module of the same name that cannot be imported."""
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _hide(tmp_path, module):
    package = tmp_path / module
    package.mkdir()
    (package / "__init__.py").write_text(f"raise ImportError('{module} hidden for this test')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    env.pop("ONWARD_REQUIRE_BROWSER", None)
    # Run alone, not as a stage of Scripts/test.sh (which counts a skipped stage by its exit status 77).
    env.pop("ONWARD_SKIP_STATUS", None)
    return env


def test_without_selenium_the_browser_tests_are_skipped_with_a_message(tmp_path):
    env = _hide(tmp_path, "selenium")
    command = [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", str(ROOT / "Tests" / "Browser" / "test_web.py")]
    skipped = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
    assert skipped.returncode == 0, skipped.stdout + skipped.stderr
    assert "Selenium is not installed" in skipped.stdout
    required = subprocess.run(command, env=dict(env, ONWARD_REQUIRE_BROWSER="1"), capture_output=True, text=True, cwd=ROOT)
    assert required.returncode != 0
    assert "browser tests cannot run: Selenium is not installed" in required.stdout


def test_without_pytest_the_script_skips_with_a_message(tmp_path):
    env = _hide(tmp_path, "pytest")
    skipped = subprocess.run([str(ROOT / "Scripts" / "browser-tests.sh")], env=env, capture_output=True, text=True)
    assert skipped.returncode == 0, skipped.stderr
    assert "browser tests skipped: pytest is not installed" in skipped.stderr
    # As a stage of Scripts/test.sh, the skip is counted as one.
    staged = subprocess.run([str(ROOT / "Scripts" / "browser-tests.sh")], env=dict(env, ONWARD_SKIP_STATUS="77"), capture_output=True, text=True)
    assert staged.returncode == 77, staged.stderr
    required = subprocess.run([str(ROOT / "Scripts" / "browser-tests.sh")], env=dict(env, ONWARD_REQUIRE_BROWSER="1"),
                              capture_output=True, text=True)
    assert required.returncode == 1
    assert "browser tests cannot run: pytest is not installed" in required.stderr
