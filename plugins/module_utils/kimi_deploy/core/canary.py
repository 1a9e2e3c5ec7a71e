"""The canary's verdict: does the new release serve live traffic as well as the other replicas?

After acceptance, the new release takes a share of the fleet's traffic for a window (roles/kimi_deploy
canary.yml). Its vLLM /metrics is scraped at the start and the end of the window, and so is every other
replica's. From the counters' deltas over the window:

* **requests**: ``http_requests_total`` on the OpenAI routes (handlers under ``/v1/``; the balancer's
  ``/health`` checks and Prometheus's scrapes are not traffic);
* **errors**: the 5xx responses among them, plus the requests the engine finished with reason ``error``
  (``vllm:request_success_total{finished_reason="error"}``: a stream that fails after its 200). A request
  counted by both counts twice; both sides are counted the same way;
* **TTFT p95**: from the deltas of ``vllm:time_to_first_token_seconds_bucket`` (engines summed), with
  Prometheus's ``histogram_quantile`` interpolation.

The other replicas are pooled (their deltas summed). The canary is rolled back when its error rate is above
``max(others' rate x max_error_rate_ratio, error_rate_floor)``, or its TTFT p95 above ``others' p95 x
max_ttft_p95_ratio`` and above ``ttft_p95_floor_ms``; else promoted. With fewer than ``min_requests`` (at
least 20: a p95 of fewer requests is their slowest) on the canary or on the others, nothing was compared:
the verdict is ``inconclusive`` (the caller's choice, default roll back: the canary was turned on to
require live evidence, and none came). Before that, a window that lasted ``held_s`` may be extended once,
up to ``max_window_s`` in all: ``extend_s`` is the time the requests counted so far say the window needs to
reach ``min_requests`` on both sides (a slow canary serves fewer requests in the same time; a quiet hour
brings fewer to everyone). A canary whose counters went back during the window restarted its vLLM there:
rolled back.

Pure: no I/O; /metrics text is read with acceptance.parse_prometheus_text.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .acceptance import parse_prometheus_text
from .errors import KimiDeployError

REQUESTS = "http_requests_total"
FINISHED = "vllm:request_success_total"
TTFT_BUCKET = "vllm:time_to_first_token_seconds_bucket"
TRAFFIC_PREFIX = "/v1/"
VERDICTS = ("promote", "rollback")

# Defaults of the role's kimi_canary_* variables (roles/kimi_deploy/defaults/main.yml says why each).
MAX_ERROR_RATE_RATIO = 2.0
ERROR_RATE_FLOOR = 0.01
MAX_TTFT_P95_RATIO = 1.5
TTFT_P95_FLOOR_MS = 100.0
MIN_REQUESTS = 50
# A p95 needs 1 / (1 - 0.95) = 20 observations: below that it is the window's slowest request, and one
# slow request (the first after a restart, a neighbour's burst) would decide the verdict alone.
MIN_REQUESTS_FOR_P95 = 20
INCONCLUSIVE = "rollback"


def counters(text: str) -> dict[str, Any]:
    """The counters of one /metrics scrape the verdict reads: requests and 5xx on the OpenAI routes, engine
    errors, and the TTFT histogram's cumulative bucket counts by upper bound (engines summed)."""
    samples = parse_prometheus_text(text or "")
    traffic = [s for s in samples if s.name == REQUESTS and s.labels.get("handler", "").startswith(TRAFFIC_PREFIX)]
    failed = [s for s in samples if s.name == FINISHED and s.labels.get("finished_reason") == "error"]
    buckets: dict[float, float] = {}
    for sample in samples:
        if sample.name == TTFT_BUCKET and "le" in sample.labels:
            bound = float(sample.labels["le"])  # "+Inf" reads as inf
            buckets[bound] = buckets.get(bound, 0.0) + sample.value
    return {
        "requests": sum(s.value for s in traffic),
        "server_errors": sum(s.value for s in traffic if s.labels.get("status", "").startswith("5")),
        "engine_errors": sum(s.value for s in failed),
        "ttft_buckets": buckets,
    }


def window(start: str, end: str) -> dict[str, Any]:
    """What one replica served between two scrapes (deltas), and whether a counter went back (``reset``:
    vLLM restarted in between; the end's values are then the window's, as Prometheus's rate() reads them)."""
    before, after = counters(start), counters(end)
    reset = any(after[k] < before[k] for k in ("requests", "server_errors", "engine_errors")) or any(
        after["ttft_buckets"].get(le, 0.0) < count for le, count in before["ttft_buckets"].items())
    base = {"requests": 0.0, "server_errors": 0.0, "engine_errors": 0.0, "ttft_buckets": {}} if reset else before
    return {
        "requests": after["requests"] - base["requests"],
        "server_errors": after["server_errors"] - base["server_errors"],
        "engine_errors": after["engine_errors"] - base["engine_errors"],
        "ttft_buckets": {le: count - base["ttft_buckets"].get(le, 0.0) for le, count in after["ttft_buckets"].items()},
        "reset": reset,
    }


def pooled(windows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Several replicas' windows as one: counts and bucket counts summed."""
    buckets: dict[float, float] = {}
    for one in windows:
        for le, count in one["ttft_buckets"].items():
            buckets[le] = buckets.get(le, 0.0) + count
    return {key: sum(w[key] for w in windows) for key in ("requests", "server_errors", "engine_errors")} | {
        "ttft_buckets": buckets, "reset": any(w["reset"] for w in windows)}


def histogram_quantile(q: float, buckets: Mapping[float, float]) -> float | None:
    """Prometheus's histogram_quantile over cumulative bucket counts ``{upper bound: count}``: linear
    within the bucket the rank falls in (from 0 for the first); in the +Inf bucket, the highest finite
    bound. None without observations."""
    bounds = sorted(buckets)
    if not bounds or not math.isinf(bounds[-1]) or buckets[bounds[-1]] <= 0:
        return None
    rank = q * buckets[bounds[-1]]
    lower, below = 0.0, 0.0
    for bound in bounds:
        count = buckets[bound]
        if count >= rank:
            if math.isinf(bound):
                return lower
            if count == below:
                return bound
            return lower + (bound - lower) * (rank - below) / (count - below)
        lower, below = bound, count
    return lower  # pragma: no cover - the +Inf bucket holds every observation


def figures(one: Mapping[str, Any]) -> dict[str, Any]:
    """Requests, errors, error rate and TTFT p95 (ms) of a window."""
    requests = int(one["requests"])
    errors = int(one["server_errors"] + one["engine_errors"])
    p95 = histogram_quantile(0.95, one["ttft_buckets"])
    return {"requests": requests, "errors": errors, "server_errors": int(one["server_errors"]),
            "engine_errors": int(one["engine_errors"]),
            "error_rate": round(errors / requests, 6) if requests else None,
            "ttft_p95_ms": round(p95 * 1000.0, 1) if p95 is not None else None,
            "ttft_observations": int(max(one["ttft_buckets"].values(), default=0.0))}


def _pct(rate: float | None) -> str:
    return "n/a" if rate is None else f"{100.0 * rate:.2f}%"


def _ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0f} ms"


# The extension asks for a quarter more than the rate so far says: the requests counted are whole
# ones, and a window's first seconds (a canary's share ramping up) are slower than its rest.
EXTENSION_MARGIN = 1.25


def extension_s(requests: int, min_requests: int, held_s: float, max_window_s: float) -> int:
    """Seconds to add to a window of ``held_s`` that brought ``requests`` (the fewer of the canary's and the
    others') for it to bring ``min_requests``, at the rate so far and with a margin; at most up to
    ``max_window_s`` in all, all of that when nothing came; 0 when enough came or no time is left."""
    if requests >= min_requests or held_s <= 0 or max_window_s <= held_s:
        return 0
    needed = held_s * min_requests / requests * EXTENSION_MARGIN if requests > 0 else max_window_s
    return math.ceil(min(max_window_s, needed) - held_s)


def _check_thresholds(*, max_error_rate_ratio: float, max_ttft_p95_ratio: float, error_rate_floor: float,
                      ttft_p95_floor_ms: float, min_requests: int, inconclusive: str) -> None:
    if inconclusive not in VERDICTS:
        raise KimiDeployError(f"inconclusive must be one of {', '.join(VERDICTS)}, not {inconclusive!r}")
    for name, value in (("max_error_rate_ratio", max_error_rate_ratio), ("max_ttft_p95_ratio", max_ttft_p95_ratio)):
        if value < 1:
            raise KimiDeployError(f"{name}={value}: must be >= 1 (a canary as good as the others passes)")
    for name, value in (("error_rate_floor", error_rate_floor), ("ttft_p95_floor_ms", ttft_p95_floor_ms)):
        if value < 0:
            raise KimiDeployError(f"{name}={value}: must not be negative")
    if min_requests < MIN_REQUESTS_FOR_P95:
        raise KimiDeployError(f"min_requests={min_requests}: must be at least {MIN_REQUESTS_FOR_P95} (a TTFT p95 of "
                              "fewer requests is the slowest of them)")


def verdict(canary: Mapping[str, str], others: Sequence[Mapping[str, str]], *,
            max_error_rate_ratio: float = MAX_ERROR_RATE_RATIO, error_rate_floor: float = ERROR_RATE_FLOOR,
            max_ttft_p95_ratio: float = MAX_TTFT_P95_RATIO, ttft_p95_floor_ms: float = TTFT_P95_FLOOR_MS,
            min_requests: int = MIN_REQUESTS, inconclusive: str = INCONCLUSIVE, held_s: float = 0.0,
            max_window_s: float = 0.0) -> dict[str, Any]:
    """Promote or roll back the canary from the scrapes ``{"start": text, "end": text}`` of the canary and of
    each other replica. Returns ``verdict`` (promote or rollback), ``inconclusive`` (too few requests to
    compare: the verdict is then ``inconclusive``'s), ``extend_s`` (with ``held_s`` and ``max_window_s``: when
    inconclusive, the seconds to go on for before judging the whole window again; 0 otherwise), ``reason``
    (one sentence with the figures) and ``figures`` (canary, others, thresholds)."""
    if not others:
        raise KimiDeployError("no other replica's scrapes: a canary is compared with the replicas that serve "
                              "the release before it")
    _check_thresholds(max_error_rate_ratio=max_error_rate_ratio, max_ttft_p95_ratio=max_ttft_p95_ratio,
                      error_rate_floor=error_rate_floor, ttft_p95_floor_ms=ttft_p95_floor_ms,
                      min_requests=min_requests, inconclusive=inconclusive)
    own = window(canary["start"], canary["end"])
    rest = pooled([window(o["start"], o["end"]) for o in others])
    mine, theirs = figures(own), figures(rest)
    allowed_rate = max((theirs["error_rate"] or 0.0) * max_error_rate_ratio, error_rate_floor)
    allowed_p95 = (max(theirs["ttft_p95_ms"] * max_ttft_p95_ratio, ttft_p95_floor_ms)
                   if theirs["ttft_p95_ms"] is not None else None)
    result: dict[str, Any] = {"inconclusive": False, "extend_s": 0, "figures": {
        "canary": mine, "others": {**theirs, "replicas": len(others)},
        "thresholds": {"max_error_rate": round(allowed_rate, 6), "max_ttft_p95_ms": allowed_p95,
                       "max_error_rate_ratio": max_error_rate_ratio, "error_rate_floor": error_rate_floor,
                       "max_ttft_p95_ratio": max_ttft_p95_ratio, "ttft_p95_floor_ms": ttft_p95_floor_ms,
                       "min_requests": min_requests}, "window_s": held_s}}
    if own["reset"]:
        return {**result, "verdict": "rollback",
                "reason": f"rollback: the canary's vLLM restarted during the window (its counters went back; "
                          f"{mine['requests']} requests and {mine['errors']} errors counted since)"}
    rate_text = (f"error rate {_pct(mine['error_rate'])} ({mine['errors']}/{mine['requests']}) against the others' "
                 f"{_pct(theirs['error_rate'])} ({theirs['errors']}/{theirs['requests']}, allowed "
                 f"{_pct(allowed_rate)})")
    p95_text = (f"TTFT p95 {_ms(mine['ttft_p95_ms'])} against the others' {_ms(theirs['ttft_p95_ms'])} "
                f"(allowed {_ms(allowed_p95)})")
    if mine["requests"] < min_requests or theirs["requests"] < min_requests:
        extend = extension_s(min(mine["requests"], theirs["requests"]), min_requests, held_s, max_window_s)
        window_text = f" in {held_s:.0f}s" if held_s else " in the window"
        return {**result, "verdict": inconclusive, "inconclusive": True, "extend_s": extend,
                "reason": f"{inconclusive} (inconclusive): {mine['requests']} requests on the canary and "
                          f"{theirs['requests']} on the others{window_text}, fewer than min_requests="
                          f"{min_requests}; {rate_text}"
                          + (f"; the window goes on for {extend}s more" if extend else "")}
    problems = []
    if (mine["error_rate"] or 0.0) > allowed_rate:
        problems.append(rate_text)
    if allowed_p95 is not None and mine["ttft_p95_ms"] is not None and mine["ttft_p95_ms"] > allowed_p95:
        problems.append(p95_text)
    if problems:
        return {**result, "verdict": "rollback", "reason": "rollback: " + "; ".join(problems)}
    return {**result, "verdict": "promote", "reason": f"promote: {rate_text}; {p95_text}"}


def weight_pct(share: float, other_replicas: int) -> int:
    """The canary's HAProxy weight, in percent of its configured weight, for it to get about ``share`` of
    the new requests beside ``other_replicas`` at full weight: w / (w + n) = share. Between 1 and 100."""
    if not 0 < share <= 1:
        raise KimiDeployError(f"kimi_canary_traffic_share={share}: must be in (0, 1]")
    if other_replicas < 1 or share == 1:
        return 100
    return max(1, min(100, round(100.0 * share * other_replicas / (1.0 - share))))
