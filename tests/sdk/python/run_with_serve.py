"""Starts `hourglass serve` with its TLS port, runs the Python SDK tests against it, stops it.

    /usr/bin/python3 run_with_serve.py HOURGLASS_BIN [test file pattern]

Each run gets a fresh database and certificate folder in a temporary directory, a free TLS port
(--tls-port 0), and the connection string built from what serve prints: the TLS port, the key of
the printed "Connection string:" line, the CA file. The tests run with a hard timeout; serve is
stopped with SIGTERM afterwards and must exit 0.

What serve prints about TLS is read leniently (the endpoint's wording may change): the TLS port
from a line that says TLS and "listening on HOST:PORT", the CA file from a path ending in .pem or
.crt on a line that names the certificate authority (CA), else the only *.pem in --tls-dir whose
name says ca.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

START_TIMEOUT = 20
TEST_TIMEOUT = 250
STOP_TIMEOUT = 10
here = os.path.dirname(os.path.abspath(__file__))


def fail(message, output=""):
    print(f"FAIL: {message}", file=sys.stderr)
    if output:
        print("--- hourglass serve printed:\n" + output[-4000:], file=sys.stderr)
    sys.exit(1)


def read_startup(serve, tls_dir):
    """What serve prints at start, until its last start-up line ("Connections: ...") or until
    the TLS port, the CA file and the key are all known; returns them and the printed text."""
    found = {"port": None, "ca_file": None, "key": None}
    printed = []
    done = threading.Event()

    def complete():
        return all(value is not None for value in found.values())

    def reader():
        for line in serve.stdout:
            printed.append(line)
            listening = re.search(r"listening on \S+:(\d+)", line)
            if listening and "TLS" in line:
                found["port"] = int(listening.group(1))
            if re.search(r"\bCA\b|certificate authority", line, re.IGNORECASE):
                for path in re.findall(r"(/\S+\.(?:pem|crt))", line):
                    if found["ca_file"] is None and os.path.isfile(path):
                        found["ca_file"] = path
            if line.startswith("Connection string:"):
                key = re.search(r"SharedAccessKey=([^;\s]+)", line)
                found["key"] = key.group(1) if key else None
            if line.startswith("Connections:") or complete():
                break
        done.set()

    threading.Thread(target=reader, daemon=True).start()
    done.wait(START_TIMEOUT)
    text = "".join(printed)
    if found["key"] is None:
        try:
            code = serve.wait(2)
            fail(f"hourglass serve exited (code {code}) before it was ready", text)
        except subprocess.TimeoutExpired:
            pass
    if found["ca_file"] is None and os.path.isdir(tls_dir):
        candidates = [name for name in os.listdir(tls_dir)
                      if name.endswith(".pem") and "ca" in name.lower()]
        if len(candidates) == 1:
            found["ca_file"] = os.path.join(tls_dir, candidates[0])
    if found["key"] is None:
        fail("hourglass serve printed no 'Connection string:' line with a SharedAccessKey "
             f"within {START_TIMEOUT} s", text)
    if found["port"] is None:
        fail("hourglass serve printed no TLS port ('... TLS ... listening on HOST:PORT')", text)
    if found["ca_file"] is None:
        fail("hourglass serve printed no CA file path", text)
    return found["port"], found["key"], found["ca_file"], text


def main():
    if len(sys.argv) < 2:
        fail("usage: run_with_serve.py HOURGLASS_BIN [test file pattern]")
    binary = sys.argv[1]
    if not os.path.isfile(binary):
        fail(f"{binary}: no such file")
    with tempfile.TemporaryDirectory(prefix="hourglass-pysdk-") as work:
        tls_dir = os.path.join(work, "tls")
        command = [binary, "serve", "--port", "0", "--tls-port", "0", "--tls-dir", tls_dir,
                   "--db", os.path.join(work, "hg.db")]
        serve = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
        try:
            port, key, ca_file, printed = read_startup(serve, tls_dir)
            connection_string = (f"Endpoint=sb://localhost:{port};"
                                 "SharedAccessKeyName=RootManageSharedAccessKey;"
                                 f"SharedAccessKey={key}")
            print(f"Testing {connection_string} (CA {ca_file})", flush=True)
            tests = [sys.executable, os.path.join(here, "run_tests.py")] + sys.argv[2:3]
            env = {**os.environ, "HOURGLASS_SB_CONNECTION_STRING": connection_string,
                   "HOURGLASS_SB_CA_FILE": ca_file,
                   "HOURGLASS_SB_TEST_TIMEOUT": str(TEST_TIMEOUT - 10)}
            try:
                tests_ok = subprocess.run(tests, env=env, timeout=TEST_TIMEOUT).returncode == 0
            except subprocess.TimeoutExpired:
                fail(f"the Python SDK tests did not finish within {TEST_TIMEOUT} s")
        finally:
            if serve.poll() is None:
                serve.send_signal(signal.SIGTERM)
            started = time.monotonic()
            try:
                code = serve.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                serve.kill()
                code = None
        if code != 0:
            fail(f"hourglass serve should exit 0 on SIGTERM (exit {code}, stopped after "
                 f"{time.monotonic() - started:.1f} s)")
        sys.exit(0 if tests_ok else 1)


if __name__ == "__main__":
    main()
