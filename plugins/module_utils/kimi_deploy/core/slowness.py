"""Slow is a diagnosis too: is the machine (or the build) slow, or do the settings collapse under load?

    slowness(ledger_rows, host_group="gpu_nodes", metrics={"kv_cache_usage_perc": 0.97,
             "num_requests_waiting": 12, "num_preemptions": 40})
    -> {"verdict": "concurrency_or_memory", "cause": "...", "next_variable": {"name": "max_num_seqs",
        "from": 64, "to": 32}, "next_step": "Lower max_num_seqs from 64 to 32 ...", "evidence": [...]}

The ledger (controller ``ledger.jsonl``, see ledger.py) has one row per benchmarked attempt with its
``concurrency`` and TTFT / ITL / latency percentiles. Rows of the same ``host_group`` ran on the same
GPUs, so they are the baseline:

* **single request already slow** - the latest single-request row (concurrency 1) has a median TTFT or
  ITL more than ``single_ratio`` times the median of the earlier accepted single-request rows. Nothing
  about concurrency explains that: it is the machine, the build or the quantisation. The next single
  variable is the first setting that differs from the baseline rows (vLLM version, quantisation, KV
  cache dtype, dtype, tensor parallel size); with none, the machine itself (clocks, power cap, another
  process on the GPU).
* **fine alone, collapses with concurrency** - single requests are within the baseline, but the latest
  loaded row (concurrency > 1) has p95 TTFT more than ``collapse_ratio`` times the single-request median,
  or failed requests, or /metrics shows the KV cache near full (``kv_cache_usage_perc`` >= 0.9),
  preemptions or waiting requests. That is the concurrency and memory settings: with the KV cache full
  or preempting, lower ``max_num_seqs`` (half, or to what the KV cache held); with requests waiting and
  KV room left, raise ``max_num_seqs`` towards the offered concurrency.

Pure: no I/O. /metrics text is read with acceptance.parse_prometheus_text (``metrics_from_text``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from statistics import median
from typing import Any

from .acceptance import metric_max, metric_total, parse_prometheus_text

SINGLE_RATIO = 1.5      # single-request median TTFT/ITL above this x the baseline: slow machine/build
COLLAPSE_RATIO = 3.0    # loaded p95 TTFT above this x the single-request median: collapse under load
KV_FULL = 0.9           # kv_cache_usage_perc at or above this: the KV cache is the limit
# Settings that change speed at concurrency 1, most likely culprit first: the next single variable.
BUILD_KEYS = ("vllm_version", "quantization", "kv_cache_dtype", "dtype", "tensor_parallel_size",
              "pipeline_parallel_size", "block_size")


def metrics_from_text(text: str) -> dict[str, float]:
    """The three gauges/counters slowness() reads, from a vLLM /metrics page (absent ones left out).

    Older vLLM names the KV gauge ``vllm:gpu_cache_usage_perc``; engines (label sets) are summed for
    counts and the fullest engine is taken for KV usage.
    """
    samples = parse_prometheus_text(text or "")
    found = {
        "kv_cache_usage_perc": metric_max(samples, "vllm:kv_cache_usage_perc"),
        "num_requests_waiting": metric_total(samples, "vllm:num_requests_waiting"),
        "num_preemptions": metric_total(samples, "vllm:num_preemptions_total"),
    }
    if found["kv_cache_usage_perc"] is None:
        found["kv_cache_usage_perc"] = metric_max(samples, "vllm:gpu_cache_usage_perc")
    return {key: value for key, value in found.items() if value is not None}


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or value in (None, ""):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _setting(row: Mapping[str, Any], key: str) -> Any:
    value = row.get(key)
    if value in (None, ""):
        value = (row.get("launch_params") or {}).get(key)
    return value


def _is_single(row: Mapping[str, Any]) -> bool:
    return _num(row.get("concurrency")) == 1


def _is_loaded(row: Mapping[str, Any]) -> bool:
    concurrency = _num(row.get("concurrency"))
    return concurrency is not None and concurrency > 1


def _shown(value: Any) -> str:
    return "unset" if value in (None, "") else str(value)


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}" if value >= 100 else f"{value:.1f}"


def _answer(verdict: str, cause: str, next_variable: dict[str, Any] | None, next_step: str,
            evidence: list[str]) -> dict[str, Any]:
    return {"verdict": verdict, "cause": cause, "next_variable": next_variable, "next_step": next_step,
            "evidence": evidence}


def slowness(rows: Iterable[Mapping[str, Any]], *, host_group: str | None = None,
             metrics: Mapping[str, Any] | None = None, single_ratio: float = SINGLE_RATIO,
             collapse_ratio: float = COLLAPSE_RATIO) -> dict[str, Any]:
    """Machine/build slow, or concurrency/memory collapse, from ledger rows and /metrics samples."""
    chosen = [dict(r) for r in rows if isinstance(r, Mapping)
              and (not host_group or r.get("host_group") == host_group)]
    chosen.sort(key=lambda r: str(r.get("time", "")))
    singles = [r for r in chosen if _is_single(r) and _num(r.get("ttft_p50_ms")) is not None]
    loaded = [r for r in chosen if _is_loaded(r) and _num(r.get("ttft_p95_ms")) is not None]
    gauges = {key: _num(value) for key, value in (metrics or {}).items()}
    if not singles and not loaded:
        return _answer("unknown", "No benchmarked ledger rows for these hosts yet: nothing to compare.", None,
                       "Run tune.yml (or deploy.yml with acceptance) to record a baseline, then diagnose again",
                       [])
    evidence: list[str] = []
    current = singles[-1] if singles else None
    baseline = [r for r in singles[:-1] if r.get("accepted")]

    # 1. One request alone is slower than the same GPUs were before: machine, build or quantisation.
    if current is not None and baseline:
        answer = _single_request_answer(current, baseline, single_ratio, evidence)
        if answer is not None:
            return answer

    # 2. Fine alone; does it collapse under concurrency?
    reference = _num(current.get("ttft_p50_ms")) if current is not None else None
    if reference is None and baseline:
        reference = median(v for v in (_num(r.get("ttft_p50_ms")) for r in baseline) if v is not None)
    heavy = loaded[-1] if loaded else None
    signals = _load_signals(heavy, reference, collapse_ratio, evidence)
    kv, waiting, preempted = (gauges.get("kv_cache_usage_perc"), gauges.get("num_requests_waiting"),
                              gauges.get("num_preemptions"))
    if kv is not None:
        evidence.append(f"/metrics kv_cache_usage_perc {kv:.2f}")
    if waiting:
        evidence.append(f"/metrics num_requests_waiting {waiting:.0f}")
    if preempted:
        evidence.append(f"/metrics num_preemptions {preempted:.0f}")
    kv_full = (kv is not None and kv >= KV_FULL) or bool(preempted)
    if kv_full:
        signals.append("kv_full")
    if waiting:
        signals.append("waiting")
    if not signals:
        return _answer("not_slow", "Single requests match the baseline and load does not collapse latency.", None,
                       "Nothing to change for speed; compare the next tune.yml value against this baseline",
                       evidence)
    seqs_row = heavy or current or {}
    if kv_full or not waiting:
        return _lower_seqs_answer(seqs_row, kv, kv_full, preempted, evidence)
    return _raise_seqs_answer(seqs_row, evidence)


def _single_request_answer(current: Mapping[str, Any], baseline: Sequence[Mapping[str, Any]],
                           single_ratio: float, evidence: list[str]) -> dict[str, Any] | None:
    """The machine-or-build answer when one request alone is slower than the accepted baseline; else None."""
    ratios = {}
    for metric in ("ttft_p50_ms", "itl_p50_ms"):
        now = _num(current.get(metric))
        before = [v for v in (_num(r.get(metric)) for r in baseline) if v is not None]
        if now is not None and before and median(before) > 0:
            ratios[metric] = (now, median(before), now / median(before))
    slow = {m: v for m, v in ratios.items() if v[2] > single_ratio}
    for metric, (now, before, ratio) in ratios.items():
        evidence.append(f"single request {metric.replace('_ms', '')}: {_fmt(now)} ms vs baseline "
                        f"{_fmt(before)} ms ({ratio:.1f}x, {len(baseline)} earlier accepted row(s))")
    if not slow:
        return None
    last = baseline[-1]
    for key in BUILD_KEYS:
        if _setting(current, key) != _setting(last, key):
            variable = {"name": key, "from": _setting(current, key), "to": _setting(last, key)}
            return _answer(
                "machine_or_build",
                "One request alone is slower than on the same GPUs before: concurrency does not explain "
                f"it. The build or quantisation changed ({key}).", variable,
                f"Change one thing: set {key} back from {_shown(variable['from'])} to "
                f"{_shown(variable['to'])} (the baseline's value) and benchmark a single request again",
                evidence)
    return _answer(
        "machine_or_build",
        "One request alone is slower than on the same GPUs before, with the same build and settings: the "
        "machine (GPU clocks, power cap, thermal throttling, another process on the GPU, a degraded link).",
        {"name": "machine", "from": None, "to": None},
        "Check nvidia-smi -q -d CLOCK,PERFORMANCE,POWER (throttle reasons) and nvidia-smi for other "
        "processes; benchmark a single request again once the GPU runs at its normal clocks", evidence)


def _load_signals(heavy: Mapping[str, Any] | None, reference: float | None, collapse_ratio: float,
                  evidence: list[str]) -> list[str]:
    """What the latest loaded row shows: 'latency' (TTFT p95 collapsed against one request), 'errors'."""
    signals: list[str] = []
    if heavy is None:
        return signals
    p95 = _num(heavy.get("ttft_p95_ms"))
    if reference and p95 is not None:
        evidence.append(f"concurrency {heavy.get('concurrency')}: TTFT p95 {_fmt(p95)} ms vs single-request "
                        f"median {_fmt(reference)} ms ({p95 / reference:.1f}x)")
        if p95 > collapse_ratio * reference:
            signals.append("latency")
    errors = _num(heavy.get("request_errors"))
    if errors:
        evidence.append(f"concurrency {heavy.get('concurrency')}: {errors:.0f} failed request(s)")
        signals.append("errors")
    return signals


def _lower_seqs_answer(seqs_row: Mapping[str, Any], kv: float | None, kv_full: bool, preempted: float | None,
                       evidence: list[str]) -> dict[str, Any]:
    """Latency or errors grow with load, or the KV cache is full: fewer sequences at once."""
    seqs = _num(_setting(seqs_row, "max_num_seqs"))
    to = max(1, int(seqs // 2)) if seqs else None
    if seqs and kv and kv > 0 and not preempted:
        to = max(1, min(to or 1, int(seqs * KV_FULL / kv)))
    variable = {"name": "max_num_seqs", "from": int(seqs) if seqs else None, "to": to}
    why = ("the KV cache is full or preempting" if kv_full else
           "latency or errors grow with concurrency")
    step = (f"Lower max_num_seqs from {int(seqs)} to {to}" if seqs else "Lower max_num_seqs (about half)")
    return _answer(
        "concurrency_or_memory",
        f"One request is fine, but {why}: the concurrency and memory settings, not the machine.", variable,
        f"{step} and benchmark at the same concurrency again; if the KV cache stays full, lower max_model_len "
        "or raise gpu_memory_utilization next (one at a time)", evidence)


def _raise_seqs_answer(seqs_row: Mapping[str, Any], evidence: list[str]) -> dict[str, Any]:
    """Requests wait while the KV cache has room: the scheduler admits too few sequences."""
    seqs = _num(_setting(seqs_row, "max_num_seqs"))
    concurrency = _num(seqs_row.get("concurrency"))
    to = int(min(seqs * 2, concurrency)) if seqs and concurrency and concurrency > seqs else (
        int(seqs * 2) if seqs else None)
    variable = {"name": "max_num_seqs", "from": int(seqs) if seqs else None, "to": to}
    return _answer(
        "concurrency_or_memory",
        "One request is fine, but requests wait in the queue while the KV cache has room: the scheduler admits "
        "too few sequences at once.", variable,
        (f"Raise max_num_seqs from {int(seqs)} to {to}" if seqs else "Raise max_num_seqs")
        + " and benchmark at the same concurrency again", evidence)


def summary_line(answer: Mapping[str, Any]) -> str:
    """One line for a playbook's output."""
    verdict = answer.get("verdict", "unknown")
    if verdict in ("unknown", "not_slow"):
        return f"speed: {verdict.replace('_', ' ')} - {answer.get('cause', '')}"
    return f"speed: {verdict.replace('_', ' ')} - {answer.get('cause', '')} Next: {answer.get('next_step', '')}"


def rows_from_jsonl(lines: Sequence[str]) -> list[dict[str, Any]]:
    """Ledger rows from ledger.jsonl's lines as read by the controller (blank or broken lines skipped)."""
    rows = []
    for raw in lines:
        text = raw.strip()
        if not text:
            continue
        try:
            value = json.loads(text)
        except ValueError:
            continue
        if isinstance(value, dict):
            rows.append(value)
    return rows
