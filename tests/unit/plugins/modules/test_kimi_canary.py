"""kimi_canary module: the verdict from given scrapes, or from URLs it scrapes twice a window apart.

The URLs are served by a real HTTP server on loopback that answers the recorded vLLM /metrics until the
window has started, then a scrape derived from it (canary_scrapes.served) with the traffic of the window.
"""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Iterator

import kimi_canary
from canary_scrapes import RECORDED, replica, served
from module_harness import run_module


def test_scrapes_given_give_the_verdict_and_change_nothing():
    result = run_module(kimi_canary, {"canary": replica(ok=90, server_errors=10),
                                      "others": [replica(ok=400), replica(ok=300)]})
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] is False and result["verdict"] == "rollback"
    assert result["figures"]["others"]["replicas"] == 2 and "10/100" in result["reason"]


def test_thresholds_and_the_inconclusive_choice_reach_the_verdict():
    quiet = {"canary": replica(ok=5), "others": [replica(ok=5)]}
    assert run_module(kimi_canary, quiet)["verdict"] == "rollback"
    promoted = run_module(kimi_canary, {**quiet, "inconclusive": "promote"}, check_mode=True)
    assert (promoted["verdict"], promoted["inconclusive"]) == ("promote", True)
    assert run_module(kimi_canary, {**quiet, "min_requests": 5})["inconclusive"] is False


def test_a_scrape_missing_its_end_is_refused():
    result = run_module(kimi_canary, {"canary": {"start": RECORDED}, "others": [replica()]})
    assert result["failed"] and "canary has no end scrape" in result["msg"]


class _Replica(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, end: str) -> None:
        self.texts = [RECORDED, end]
        self.scrapes = 0
        super().__init__(("127.0.0.1", 0), _Metrics)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/metrics"


class _Metrics(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = self.server.texts[min(self.server.scrapes, 1)].encode()
        self.server.scrapes += 1
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@contextlib.contextmanager
def _serving(end: str) -> Iterator[_Replica]:
    server = _Replica(end)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def test_urls_are_scraped_at_both_ends_of_the_window():
    with _serving(served(ok=100, ttft_s={2.0: 100})) as canary, _serving(served(ok=200, ttft_s={0.3: 200})) as other:
        result = run_module(kimi_canary, {"canary_url": canary.url, "other_urls": [other.url], "window_s": 0.2})
        assert (canary.scrapes, other.scrapes) == (2, 2)
    assert not result.get("failed"), result.get("msg")
    assert result["verdict"] == "rollback" and result["figures"]["canary"]["requests"] == 100
    assert "TTFT p95 2425 ms" in result["reason"]


def test_an_unreachable_replica_fails_naming_its_url():
    with _serving(served(ok=100)) as canary:
        result = run_module(kimi_canary, {"canary_url": canary.url, "other_urls": ["http://127.0.0.1:9/metrics"],
                                          "window_s": 0})
    assert result["failed"] and "cannot scrape http://127.0.0.1:9/metrics" in result["msg"]
