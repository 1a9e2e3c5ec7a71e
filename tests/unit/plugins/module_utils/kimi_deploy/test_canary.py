"""The canary's verdict (core/canary.py) from vLLM /metrics scrapes.

The start of every window is the recorded scrape of the real vLLM 0.32.0 CPU build; its end is derived
from it (tests/unit/canary_scrapes.py says how).
"""

from __future__ import annotations

import math

import pytest
from canary_scrapes import RECORDED, replica, served
from kimi_deploy.core.canary import counters, extension_s, histogram_quantile, verdict, weight_pct, window
from kimi_deploy.core.errors import KimiDeployError


def test_the_recorded_scrape_is_read_as_vllm_wrote_it():
    seen = counters(RECORDED)
    assert (seen["requests"], seen["server_errors"], seen["engine_errors"]) == (2.0, 0.0, 0.0)
    assert seen["ttft_buckets"][0.005] == 0.0 and seen["ttft_buckets"][0.01] == 1.0
    assert seen["ttft_buckets"][0.06] == 2.0 and seen["ttft_buckets"][math.inf] == 2.0
    # 2 observations: rank 1.9 falls in (0.04, 0.06], where 1 of them was already counted.
    assert histogram_quantile(0.95, seen["ttft_buckets"]) == pytest.approx(0.04 + 0.02 * 0.9)


def test_the_derived_scrape_changes_only_what_it_says():
    end = served(ok=10, server_errors=2, engine_errors=1, ttft_s={0.05: 12})
    assert len(end.splitlines()) == len(RECORDED.splitlines()) + 1  # the 5xx line
    assert window(RECORDED, end) | {"ttft_buckets": None} == {
        "requests": 12.0, "server_errors": 2.0, "engine_errors": 1.0, "ttft_buckets": None, "reset": False}
    assert window(RECORDED, end)["ttft_buckets"][0.04] == 0.0 and window(RECORDED, end)["ttft_buckets"][0.06] == 12.0


def test_quantile_edges():
    assert histogram_quantile(0.95, {1.0: 0.0, math.inf: 0.0}) is None
    assert histogram_quantile(0.95, {}) is None
    assert histogram_quantile(0.95, {0.5: 1.0, 1.0: 1.0, math.inf: 10.0}) == 1.0  # in +Inf: the highest bound
    assert histogram_quantile(0.5, {0.1: 0.0, 0.2: 10.0, math.inf: 10.0}) == pytest.approx(0.15)


def test_a_canary_as_good_as_the_others_is_promoted():
    answer = verdict(replica(ok=100, ttft_s={0.05: 100}), [replica(ok=300, ttft_s={0.05: 290, 0.07: 10})])
    assert answer["verdict"] == "promote" and answer["inconclusive"] is False
    canary, others = answer["figures"]["canary"], answer["figures"]["others"]
    assert (canary["requests"], canary["errors"], others["requests"], others["replicas"]) == (100, 0, 300, 1)
    assert canary["ttft_p95_ms"] == pytest.approx(59.0) and others["ttft_p95_ms"] == pytest.approx(59.7, abs=0.1)
    assert answer["reason"].startswith("promote: error rate 0.00% (0/100)") and "59 ms" in answer["reason"]


def test_a_canary_answering_5xx_is_rolled_back_with_its_figures():
    answer = verdict(replica(ok=90, server_errors=10, ttft_s={0.05: 90}), [replica(ok=400, ttft_s={0.05: 400})])
    assert answer["verdict"] == "rollback"
    assert answer["figures"]["canary"]["error_rate"] == pytest.approx(0.1)
    assert "error rate 10.00% (10/100)" in answer["reason"] and "allowed 1.00%" in answer["reason"]


def test_engine_errors_count_as_errors():
    """A stream that fails after its 200 is counted by the engine, not by the status."""
    answer = verdict(replica(ok=100, engine_errors=5, ttft_s={0.05: 100}), [replica(ok=100, ttft_s={0.05: 100})])
    assert answer["verdict"] == "rollback" and answer["figures"]["canary"]["engine_errors"] == 5


def test_a_canary_with_a_slow_first_token_is_rolled_back():
    answer = verdict(replica(ok=100, ttft_s={2.0: 100}), [replica(ok=200, ttft_s={0.3: 200})])
    assert answer["verdict"] == "rollback"
    # 100 first tokens in (1.0, 2.5]: 1.0 + 1.5 x 0.95; 200 in (0.25, 0.5]: 0.25 + 0.25 x 0.95, x 1.5 allowed.
    assert "TTFT p95 2425 ms against the others' 488 ms (allowed 731 ms)" in answer["reason"], answer["reason"]
    assert "error rate" not in answer["reason"]  # only the rule that failed is named


@pytest.mark.parametrize(("canary", "others", "expected"), [
    # others fail 2 %, the canary 3 %: within the ratio of 2
    (dict(ok=97, server_errors=3), dict(ok=98, server_errors=2), "promote"),
    # others 1 %, canary 3 %: above 2 x 1 % and the floor
    (dict(ok=97, server_errors=3), dict(ok=99, server_errors=1), "rollback"),
    # one error in 200 against none: under the 1 % floor
    (dict(ok=199, server_errors=1), dict(ok=200), "promote"),
])
def test_the_error_rate_is_judged_against_the_ratio_and_the_floor(canary, others, expected):
    assert verdict(replica(**canary), [replica(**others)])["verdict"] == expected


def test_a_ttft_under_the_floor_is_no_reason_to_roll_back():
    """60 ms against 6 ms is ten times slower and still not a regression anyone feels."""
    fast = [replica(ok=100, ttft_s={0.005: 100})]
    assert verdict(replica(ok=100, ttft_s={0.06: 100}), fast)["verdict"] == "promote"
    assert verdict(replica(ok=100, ttft_s={0.06: 100}), fast, ttft_p95_floor_ms=10)["verdict"] == "rollback"


def test_the_others_are_pooled():
    others = [replica(ok=100, server_errors=0), replica(ok=80, server_errors=20)]
    answer = verdict(replica(ok=90, server_errors=10), others)
    assert answer["figures"]["others"]["error_rate"] == pytest.approx(0.1) and answer["verdict"] == "promote"
    assert answer["figures"]["others"]["replicas"] == 2


def test_too_few_requests_are_inconclusive_and_the_choice_is_the_callers():
    quiet = replica(ok=20, ttft_s={0.05: 20})
    answer = verdict(quiet, [replica(ok=500)])
    assert (answer["verdict"], answer["inconclusive"]) == ("rollback", True)
    assert "20 requests on the canary" in answer["reason"] and "min_requests=50" in answer["reason"]
    assert verdict(quiet, [replica(ok=500)], inconclusive="promote")["verdict"] == "promote"
    assert verdict(quiet, [replica(ok=500)], min_requests=20)["verdict"] == "promote"
    # Nothing on the others either way: no baseline to compare with.
    assert verdict(replica(ok=500), [replica(ok=3)])["inconclusive"] is True


@pytest.mark.parametrize(("requests", "held_s", "max_window_s", "extend"), [
    (14, 45, 600, 36),     # 20 at 14 per 45 s take 64 s; a quarter more: 80.4 s in all
    (10, 600, 1800, 900),  # 1,500 s in all
    (10, 600, 1000, 400),  # capped at the longest window
    (0, 60, 300, 240),     # nothing came: all the time left
    (20, 45, 600, 0),      # enough
    (5, 600, 600, 0),      # no time left
    (5, 0, 600, 0),        # no window to take a rate from
])
def test_the_extension_is_what_the_rate_so_far_needs(requests, held_s, max_window_s, extend):
    assert extension_s(requests, 20, held_s, max_window_s) == extend


def test_an_inconclusive_window_says_how_long_to_go_on():
    slow = replica(ok=14, ttft_s={2.0: 14})
    answer = verdict(slow, [replica(ok=500)], min_requests=20, held_s=45, max_window_s=600)
    assert answer["inconclusive"] is True and answer["extend_s"] == 36 and "in 45s" in answer["reason"]
    assert verdict(slow, [replica(ok=500)], min_requests=20)["extend_s"] == 0  # no window given: none
    # The fewer side sets the pace: a quiet fleet needs as long as a slow canary.
    assert verdict(replica(ok=500), [replica(ok=5)], min_requests=20, held_s=45, max_window_s=600)["extend_s"] == 180
    assert verdict(replica(ok=500), [replica(ok=500)], held_s=45, max_window_s=600)["extend_s"] == 0


def test_a_canary_that_restarted_during_the_window_is_rolled_back():
    """Counters lower at the end than at the start: its vLLM started again (systemd restarts a dead engine)."""
    restarted = {"start": served(ok=300), "end": served(ok=0)}
    answer = verdict(restarted, [replica(ok=300)])
    assert answer["verdict"] == "rollback" and "restarted" in answer["reason"]
    # The others' restarts are read as Prometheus's rate() does: from zero.
    assert verdict(replica(ok=100), [{"start": served(ok=300), "end": served(ok=100)}])["verdict"] == "promote"


def test_bad_thresholds_and_inputs_are_refused():
    with pytest.raises(KimiDeployError, match="no other replica"):
        verdict(replica(), [])
    with pytest.raises(KimiDeployError, match=r"max_ttft_p95_ratio=0\.5"):
        verdict(replica(), [replica()], max_ttft_p95_ratio=0.5)
    with pytest.raises(KimiDeployError, match="inconclusive must be"):
        verdict(replica(), [replica()], inconclusive="maybe")
    # A p95 of 13 requests is their slowest: one slow first token would decide the verdict alone.
    with pytest.raises(KimiDeployError, match="min_requests=13: must be at least 20"):
        verdict(replica(), [replica()], min_requests=13)


@pytest.mark.parametrize(("share", "others", "pct"), [(0.1, 1, 11), (0.25, 3, 100), (0.1, 3, 33),
                                                      (0.5, 1, 100), (0.001, 1, 1), (1.0, 4, 100)])
def test_weight_for_a_share_of_the_traffic(share, others, pct):
    assert weight_pct(share, others) == pct


def test_a_share_outside_zero_one_is_refused():
    with pytest.raises(KimiDeployError, match="kimi_canary_traffic_share=0"):
        weight_pct(0, 2)
