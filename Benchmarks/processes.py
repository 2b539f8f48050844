"""What the benchmark scripts share: a free port, waiting for a server to answer, stopping what they started.

(Tests/MultiInstance/instances.py has the like for the tests, but imports pytest, which a benchmark run need not have.)
"""
import shutil
import socket
import subprocess
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait(url, proc, log, seconds=60):
    """Until `url` answers 200; exits with the server's log if it stops or `seconds` pass first."""
    deadline = time.time() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            raise SystemExit(f"{url} did not answer:\n" + log.read_text(errors="replace"))
        time.sleep(0.2)


def stop(procs, folder, seconds=30):
    """Ends the processes (killed if they take longer than `seconds`) and removes `folder`."""
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            proc.kill()
    shutil.rmtree(folder, ignore_errors=True)

