"""Run the real HAProxy (Debian's package) on loopback with a rendered configuration, for tests.

The upstream is a stand-in HTTP server from Python's http.server that answers 200 to any path and
records the Authorization header it was sent: enough to check routing and authentication, which
are HAProxy's; what vLLM answers is the integration tests' business.
"""

from __future__ import annotations

import contextlib
import http.server
import json
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

HAPROXY = shutil.which("haproxy") or ("/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None)
needs_haproxy = pytest.mark.skipif(HAPROXY is None, reason="haproxy is not installed (Debian package haproxy)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Upstream(http.server.ThreadingHTTPServer):
    """Answers 200 with a JSON body to every method and path; remembers what it was sent.

    ``/slow?s=<seconds>`` answers after that long (a request in flight); ``healthy = False`` makes
    /health answer 503 (a replica that fails its health check); ``status`` answers every other request
    with that code (a replica whose vLLM is gone: 503 from its front door; 500 from a dying engine).
    """

    daemon_threads = True

    def __init__(self) -> None:
        self.seen: list[dict] = []
        self.healthy = True
        self.status = 200
        super().__init__(("127.0.0.1", 0), _UpstreamHandler)

    @property
    def port(self) -> int:
        return self.server_address[1]

    def handle_error(self, request: object, client_address: object) -> None:
        """HAProxy's health checks close with a reset once they have the status: not an error here."""


class _UpstreamHandler(http.server.BaseHTTPRequestHandler):
    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        path, _unused, query = self.path.partition("?")
        if path == "/health":
            self._send(200 if self.server.healthy else 503, b"")
            return
        self.server.seen.append({"path": self.path, "authorization": self.headers.get("Authorization"),
                                 "request_id": self.headers.get("X-Request-Id")})
        if path == "/slow":
            time.sleep(float(query.removeprefix("s=") or 1))
        self._send(self.server.status, json.dumps({"path": self.path, "port": self.server.port}).encode())

    def _send(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_DELETE = _answer

    def log_message(self, *args: object) -> None:
        pass


@contextlib.contextmanager
def upstream() -> Iterator[Upstream]:
    server = Upstream()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def make_certificate(directory: Path) -> Path:
    """A self-signed certificate for 127.0.0.1 in ``directory``: cert.pem, key.pem and tls.pem (HAProxy's
    crt: both). The demo makes its own CA the same way."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", str(directory / "key.pem"), "-out", str(directory / "cert.pem"), "-days", "1",
                    "-subj", "/CN=kimi-frontdoor-test", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    (directory / "tls.pem").write_text((directory / "cert.pem").read_text() + (directory / "key.pem").read_text())
    return directory


def check_config(config: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([HAPROXY, "-c", "-f", str(config)], capture_output=True, text=True, env=env, check=False)


@contextlib.contextmanager
def haproxy(config: Path, ports: list[int], log: Path, env: dict[str, str] | None = None) -> Iterator[None]:
    """HAProxy in the foreground (-db: its log goes to stdout, here ``log``), until every port listens."""
    with log.open("wb") as out:
        proc = subprocess.Popen([HAPROXY, "-db", "-f", str(config)], stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            deadline = time.monotonic() + 15
            while any(not _listening(p) for p in ports):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"haproxy did not start: {log.read_text(errors='replace')[-2000:]}")
                time.sleep(0.05)
            yield
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def admin_label(sock: str, backend: str, server: str, attempts: int = 5) -> str:
    """What an operator set on the server, "UP" (ready), "DRAIN" or "MAINT", whatever its health checks say
    (production's reader): on a loaded CI host a stand-in can miss a check and read DOWN in `show stat`."""
    # Imported here: the library is on the path only once the unit tests' conftest ran.
    from kimi_deploy.core.errors import KimiDeployError  # pylint: disable=import-outside-toplevel
    from kimi_deploy.io.haproxy_runtime import server_admin_state  # pylint: disable=import-outside-toplevel

    for attempt in range(attempts):
        try:
            return {"ready": "UP", "drain": "DRAIN", "maint": "MAINT"}[server_admin_state(sock, backend, server)]
        except (OSError, KimiDeployError):
            if attempt == attempts - 1:
                raise
            time.sleep(0.5)
    raise AssertionError("unreachable")


def weight(sock: str, backend: str, server: str) -> int:
    """The server's current weight (the canary's share sets it below the configured 100)."""
    from kimi_deploy.io.haproxy_runtime import server_weight  # pylint: disable=import-outside-toplevel

    return server_weight(sock, backend, server)[0]
