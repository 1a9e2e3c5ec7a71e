"""kimi_canary module: the verdict from given scrapes, or from URLs it scrapes twice a window apart.

The URLs are served by a real HTTP server on loopback (canary_scrapes.metrics_server) that answers the
recorded vLLM /metrics at its first scrape, then a scrape derived from it with the traffic of the window.
"""

from __future__ import annotations

import kimi_canary
from canary_scrapes import RECORDED, metrics_server, replica, served
from module_harness import run_module


def test_scrapes_given_give_the_verdict_and_change_nothing():
    result = run_module(kimi_canary, {"canary": replica(ok=90, server_errors=10),
                                      "others": [replica(ok=400), replica(ok=300)]})
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] is False and result["verdict"] == "rollback"
    assert result["figures"]["others"]["replicas"] == 2 and "10/100" in result["reason"]


def test_thresholds_and_the_inconclusive_choice_reach_the_verdict():
    quiet = {"canary": replica(ok=20), "others": [replica(ok=20)]}
    assert run_module(kimi_canary, quiet)["verdict"] == "rollback"
    promoted = run_module(kimi_canary, {**quiet, "inconclusive": "promote"}, check_mode=True)
    assert (promoted["verdict"], promoted["inconclusive"]) == ("promote", True)
    assert run_module(kimi_canary, {**quiet, "min_requests": 20})["inconclusive"] is False
    refused = run_module(kimi_canary, {**quiet, "min_requests": 5})
    assert refused["failed"] and "min_requests=5: must be at least 20" in refused["msg"]


def test_a_scrape_missing_its_end_is_refused():
    result = run_module(kimi_canary, {"canary": {"start": RECORDED}, "others": [replica()]})
    assert result["failed"] and "canary has no end scrape" in result["msg"]


def test_urls_are_scraped_at_both_ends_of_the_window():
    slow, fast = served(ok=100, ttft_s={2.0: 100}), served(ok=200, ttft_s={0.3: 200})
    with metrics_server(slow) as canary, metrics_server(fast) as other:
        result = run_module(kimi_canary, {"canary_url": canary.url, "other_urls": [other.url], "window_s": 0.2})
        assert (canary.scrapes, other.scrapes) == (2, 2)
    assert not result.get("failed"), result.get("msg")
    assert result["verdict"] == "rollback" and result["figures"]["canary"]["requests"] == 100
    assert "TTFT p95 2425 ms" in result["reason"]


def test_an_unreachable_replica_fails_naming_its_url():
    with metrics_server(served(ok=100)) as canary:
        result = run_module(kimi_canary, {"canary_url": canary.url, "other_urls": ["http://127.0.0.1:9/metrics"],
                                          "window_s": 0})
    assert result["failed"] and "cannot scrape http://127.0.0.1:9/metrics" in result["msg"]


def test_a_window_with_too_few_requests_goes_on_as_long_as_its_rate_says_then_is_judged_whole():
    """The CI run with the rollout on: a canary made slow served 14 requests in its 45 s, fewer than 20, and was
    rolled back as inconclusive instead of by its TTFT. At 14 in 45 s, 20 take 64 s; with the margin, 81 s."""
    early, later = served(ok=14, ttft_s={2.0: 14}), served(ok=40, ttft_s={2.0: 40})
    fast = served(ok=200, ttft_s={0.3: 200})
    with metrics_server(early, later) as canary, metrics_server(fast) as other:
        result = run_module(kimi_canary, {"canary_url": canary.url, "other_urls": [other.url], "window_s": 0.45,
                                          "min_requests": 20, "max_window_s": 1.35})
        assert (canary.scrapes, other.scrapes) == (3, 3)
    assert not result.get("failed"), result.get("msg")
    assert (result["verdict"], result["inconclusive"]) == ("rollback", False), result["reason"]
    assert result["figures"]["canary"]["requests"] == 40 and "TTFT p95" in result["reason"]
    # Without time left, the first look is the verdict.
    with metrics_server(early, later) as canary, metrics_server(fast) as other:
        quiet = run_module(kimi_canary, {"canary_url": canary.url, "other_urls": [other.url], "window_s": 0.1,
                                         "min_requests": 20})
        assert canary.scrapes == 2
    assert quiet["inconclusive"] is True and quiet["extend_s"] == 0


def test_given_scrapes_say_how_long_to_go_on():
    answer = run_module(kimi_canary, {"canary": replica(ok=14), "others": [replica(ok=200)], "min_requests": 20,
                                      "held_s": 45, "max_window_s": 600})
    assert answer["inconclusive"] is True and answer["extend_s"] == 36  # 45 s x 20/14 x 1.25 = 80.4 s in all
    assert "the window goes on for 36s more" in answer["reason"]
