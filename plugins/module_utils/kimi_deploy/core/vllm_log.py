"""Every fact the project reads from vLLM's own output, in one place: the log and ``/metrics``.

The ledger, the diagnosis, the calibration step and the calibration test all read vLLM's figures through
this module, so a wording vLLM changes is fixed once. Pure: text in, numbers out; no I/O.

What vLLM 0.32 logs at INFO for a GPU start (``vllm/v1/worker/gpu_model_runner.py``, ``gpu_worker.py``,
``v1/core/kv_cache_utils.py``)::

    Model loading took 191.81 GiB memory and 612.3 seconds                       -> weights
    Estimated CUDA graph memory: 2.10 GiB total                                  -> CUDA-graph reserve
    Available KV cache memory: 26.15 GiB                                         -> KV budget
    GPU KV cache size: 1,775,651 tokens, Maximum concurrency for ...             -> KV tokens
    Free memory on device (139.9/140.4 GiB) on startup. Desired GPU memory utilization is (0.92, 129.17 GiB).
    Actual usage is 193.5 GiB for consumed memory (weights + non-torch), 4.64 GiB for peak activation, and
    2.03 GiB for CUDAGraph memory. ...                                           -> requested, non-torch, activation

and at DEBUG (``VLLM_LOGGING_LEVEL=DEBUG``, a calibration start) the profile's own breakdown
(``vllm/utils/mem_utils.py`` ``MemoryProfilingResult.__repr__``)::

    Memory profiling takes 9.12 seconds. Total non KV cache memory: 196.13GiB; torch peak memory increase:
    2.54GiB; total consumed (from mem_get_info): 193.59GiB; weights memory: 191.81GiB.
    Initial free memory: 139.9 GiB; Requested memory: 0.920000 (util), 129.17 GiB

Earlier wordings are read too: V1 0.9-0.31 (``... non-torch forward increase memory: X GiB; weights
memory: X GiB``; ``Actual usage is X GiB for weight, Y GiB for peak activation, Z GiB for non-torch
memory, and W GiB for CUDAGraph memory``), V0 0.7-0.8 (``model weights take X GiB; non_torch_memory takes
X GiB; PyTorch activation peak memory takes X GiB; the rest of the memory reserved for KV Cache is X GiB``),
V0 0.6.4-0.6.6 (``Memory profiling results: ... non_torch_memory=X GiB kv_cache_size=X GiB``) and
``Loading model weights took X GB``. The CPU build logs ``Explicitly set (X/Y) GiB for KV cache``.

Never logged, in any version: the CUDA context (made before vLLM's first snapshot) and workspaces kernels
allocate outside vLLM's pool (FlashInfer's MXFP4 MoE workspace). Those reserves stay estimated.

vLLM prints GiB with two decimals: every figure here is exact to about 5 MiB, no better.
"""

from __future__ import annotations

import re
from typing import Any

GiB = 1024**3

# Reserves the planner can take from a measurement (PlanOptions field names), and what each is in vLLM.
RESERVE_ITEMS = ("activation_reserve_bytes", "non_torch_reserve_bytes", "cudagraph_reserve_bytes")
# Every memory item a start can report, in ledger order (plan memory keys).
MEMORY_ITEMS = ("requested_bytes", "weights_bytes", *RESERVE_ITEMS, "kv_budget_bytes")
# Reserves vLLM never logs: they stay estimated, and say why.
NEVER_LOGGED = {
    "out_of_pool_reserve_bytes": "the CUDA context and out-of-pool workspaces (FlashInfer's MXFP4 MoE workspace) "
                                 "are allocated outside vLLM's profile and never logged",
}
# The resolution of a logged figure: vLLM rounds GiB to two decimals.
LOG_RESOLUTION_BYTES = int(0.005 * GiB)

_NUM = r"(-?[\d.]+)"
_KV_TOKENS = re.compile(r"(?:(?:GPU|CPU|XPU|TPU|HPU)(?: \+ host)?\s+)?KV cache size:\s*([\d,_]+)\s*tokens")
_METRIC_TOKENS = re.compile(r'vllm:cache_config_info\{[^}]*kv_cache_size_tokens="(\d+)"')
_GPU_BLOCKS = re.compile(r"(?:# )?(?:GPU|cuda) blocks:\s*(\d+)")
_VERSION = re.compile(r"vLLM (?:API server )?version:? v?(\d+\.\d+\.\d+\S*)")

# (fact, pattern, converter): the last match in the text wins (a journal since the unit's last start holds
# one start; several ranks log the same figures).
_GIB_FACTS: tuple[tuple[str, re.Pattern], ...] = (
    # weights
    ("weights_loaded", re.compile(r"Model loading took " + _NUM + r" ?Gi?B")),
    ("weights_loaded", re.compile(r"Loading model weights took " + _NUM + r" ?Gi?B")),
    ("weights_profile", re.compile(r"weights memory: ?" + _NUM + r" ?GiB")),
    ("weights_profile", re.compile(r"model weights take " + _NUM + r" ?GiB")),
    ("weights_usage", re.compile(r"Actual usage is " + _NUM + r" GiB for weight,")),
    # KV budget
    ("kv_available", re.compile(r"Available KV cache memory: ?" + _NUM + r" ?GiB")),
    ("kv_available", re.compile(r"the rest of the memory reserved for KV Cache is " + _NUM + r" ?GiB")),
    ("kv_available", re.compile(r"kv_cache_size=" + _NUM + r" ?GiB")),
    ("kv_explicit", re.compile(r"Explicitly set \(" + _NUM + r"/[\d.]+\) GiB for KV cache")),
    ("kv_explicit", re.compile(r"reserved " + _NUM + r" GiB memory for KV Cache as specified by "
                               r"kv_cache_memory_bytes")),
    # requested = total x utilization
    ("requested", re.compile(r"Desired GPU memory utilization is \([\d.]+, " + _NUM + r" GiB\)")),
    ("requested", re.compile(r"Requested memory: [\d.]+ \(util\), " + _NUM + r" ?GiB")),
    ("requested", re.compile(r"x gpu_memory_utilization \([\d.]+\) = " + _NUM + r" ?GiB")),
    ("total", re.compile(r"Free memory on device \([\d.]+/" + _NUM + r" GiB\)")),
    ("free", re.compile(r"Free memory on device \(" + _NUM + r"/[\d.]+ GiB\)")),
    # non-torch
    ("consumed", re.compile(r"Actual usage is " + _NUM + r" GiB for consumed memory")),
    ("consumed_profile", re.compile(r"total consumed \(from mem_get_info\): ?" + _NUM + r" ?GiB")),
    ("non_torch_usage", re.compile(r"GiB for peak activation, " + _NUM + r" GiB for non-torch memory")),
    ("non_torch_profile", re.compile(r"non-torch forward increase memory: ?" + _NUM + r" ?GiB")),
    ("non_torch_profile", re.compile(r"non_torch_memory takes " + _NUM + r" ?GiB")),
    ("non_torch_profile", re.compile(r"non_torch_memory=" + _NUM + r" ?GiB")),
    # activation
    ("non_kv_profile", re.compile(r"Total non KV cache memory: ?" + _NUM + r" ?GiB")),
    ("peak_activation", re.compile(r"GiB for (?:consumed memory \(weights \+ non-torch\)|weight), " + _NUM
                                   + r" GiB for peak activation")),
    ("torch_peak_profile", re.compile(r"torch peak memory increase: ?" + _NUM + r" ?GiB")),
    ("torch_peak_profile", re.compile(r"PyTorch activation peak memory takes " + _NUM + r" ?GiB")),
    # CUDA graphs
    ("cudagraph_estimate", re.compile(r"Estimated CUDA graph memory: ?" + _NUM + r" ?GiB")),
    ("cudagraph_actual", re.compile(r"Graph capturing finished in \d+ secs?, took " + _NUM + r" ?GiB")),
    ("cudagraph_actual", re.compile(r"CUDA graph pool memory: " + _NUM + r" GiB \(actual\)")),
    ("cudagraph_actual", re.compile(r"and " + _NUM + r" GiB for CUDAGraph memory")),
)
_ESTIMATE_DISABLED = re.compile(r"CUDA graph memory profiling is disabled")
_PROFILE_SKIPPED = re.compile(r"skipped memory profiling|Applying persisted startup plan|Memory profiling will be "
                              r"skipped")
_STARTUP_PLAN = re.compile(r"Applying persisted startup plan \(fingerprint (\w+)\)")
_DEBUG_LINE = re.compile(r"\bDEBUG\b")
_UTIL = re.compile(r"Desired GPU memory utilization is \(([\d.]+),|Requested memory: ([\d.]+) \(util\)"
                   r"|gpu_memory_utilization[ =(]+([\d.]+)\)?")

# Any of these next to kv_available: the line comes from a version without a CUDA graph estimate.
NON_KV_KEYS = ("non_kv_profile", "torch_peak_profile", "consumed", "non_torch_usage")


def _bytes(gib: float) -> int:
    return round(gib * GiB)


def _last_number(pattern: re.Pattern, text: str) -> float | None:
    found = pattern.findall(text)
    return float(found[-1]) if found else None


def kv_cache_tokens(text: str) -> int | None:
    """The last ``KV cache size: N tokens`` vLLM logged (``GPU``/``CPU``/``GPU + host``; None before it got there).

    A journal spanning several starts holds several lines; the last one belongs to the running server.
    """
    found = _KV_TOKENS.findall(text or "")
    return int(re.sub(r"[,_]", "", found[-1])) if found else None


def metrics_kv_cache_tokens(metrics_text: str) -> int | None:
    """``kv_cache_size_tokens`` from the ``vllm:cache_config_info`` sample of ``/metrics``."""
    found = _METRIC_TOKENS.search(metrics_text or "")
    return int(found.group(1)) if found else None


def gpu_blocks(text: str) -> int | None:
    """``# GPU blocks: N`` (V0 and early V1)."""
    found = _GPU_BLOCKS.findall(text or "")
    return int(found[-1]) if found else None


def vllm_version(text: str) -> str | None:
    """The version from ``vLLM API server version 0.32.0`` (None when the log does not say)."""
    found = _VERSION.findall(text or "")
    return found[-1] if found else None


def cudagraph_estimate_gib(text: str) -> float | None:
    """``Estimated CUDA graph memory: X GiB`` (the reserve vLLM subtracts from the KV budget), in GiB."""
    return _last_number(re.compile(r"Estimated CUDA graph memory: ?" + _NUM + r" ?GiB"), text or "")


def raw_figures(text: str) -> dict[str, float]:
    """Every GiB figure the log holds, by fact name, before any arithmetic: the last line of each wording, and
    the first wording listed for a fact when a log holds several."""
    out: dict[str, float] = {}
    for name, pattern in _GIB_FACTS:
        if name not in out:
            value = _last_number(pattern, text or "")
            if value is not None:
                out[name] = value
    return out


# An item as read from the log: (bytes, where the figure came from).
_Reading = tuple[int, str]


def _logged(raw: dict[str, float], fact: str, source: str) -> _Reading | None:
    return (_bytes(raw[fact]), source) if fact in raw else None


def _first_logged(raw: dict[str, float], choices: tuple[tuple[str, str], ...]) -> _Reading | None:
    """The first ``(fact, source)`` of ``choices`` the log holds."""
    return next((_logged(raw, fact, source) for fact, source in choices if fact in raw), None)


def _cudagraph_reserve(raw: dict[str, float], estimate_applied: bool) -> _Reading | None:
    if "cudagraph_estimate" in raw:
        if estimate_applied:
            return _bytes(raw["cudagraph_estimate"]), "logged: estimated CUDA graph memory"
        return 0, ("logged: CUDA graph estimate disabled (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0), nothing "
                   "subtracted")
    if "kv_available" in raw and any(key in raw for key in NON_KV_KEYS):
        return 0, "logged: no CUDA graph estimate in this version, nothing subtracted"
    return None


def _non_torch_reserve(raw: dict[str, float], weights: _Reading | None) -> _Reading | None:
    logged = _first_logged(raw, (("non_torch_profile", "logged (profile): non-torch memory"),
                                 ("non_torch_usage", "logged: actual usage for non-torch memory")))
    if logged is not None:
        return logged
    consumed = raw.get("consumed_profile", raw.get("consumed"))
    if consumed is not None and weights is not None:
        return _bytes(consumed) - weights[0], "logged: consumed memory (weights + non-torch) - weights"
    return None


def _activation_reserve(raw: dict[str, float], estimate_applied: bool) -> _Reading | None:
    if "non_kv_profile" in raw and "consumed_profile" in raw:
        # 0.32: non_kv = consumed + transient peak headroom; the headroom is the activation reserve.
        return (_bytes(raw["non_kv_profile"]) - _bytes(raw["consumed_profile"]),
                "logged (profile): total non KV cache memory - total consumed")
    if "torch_peak_profile" in raw:
        return _logged(raw, "torch_peak_profile", "logged (profile): torch peak memory increase")
    if "peak_activation" in raw:
        # 0.32 prints peak activation = transient headroom + the CUDA-graph estimate it applied.
        peak = _bytes(raw["peak_activation"])
        if "consumed" in raw and estimate_applied:
            return peak - _bytes(raw["cudagraph_estimate"]), "logged: peak activation - estimated CUDA graph memory"
        return peak, "logged: peak activation"
    return None


def _derive_the_missing_term(items: dict[str, int], how: dict[str, str]) -> None:
    """One term of vLLM's identity missing and the rest logged: the identity gives it."""
    terms = ("requested_bytes", "weights_bytes", *RESERVE_ITEMS, "kv_budget_bytes")
    missing = [t for t in terms if t not in items]
    if len(missing) == 1 and missing[0] != "kv_budget_bytes" and missing[0] != "requested_bytes":
        others = sum(items[t] for t in (*RESERVE_ITEMS, "weights_bytes") if t in items)
        items[missing[0]] = items["requested_bytes"] - items["kv_budget_bytes"] - others
        how[missing[0]] = "derived: requested - KV budget - the other logged items"


def _not_measured(items: dict[str, int], skipped: bool) -> dict[str, str]:
    not_measured = dict(NEVER_LOGGED)
    for item in MEMORY_ITEMS:
        if item not in items:
            not_measured[item] = ("vLLM skipped memory profiling on this start (--kv-cache-memory-bytes or its "
                                  "startup plan): nothing was measured" if skipped and item in RESERVE_ITEMS
                                  else "not in this log (start with VLLM_LOGGING_LEVEL=DEBUG for the profile's "
                                       "breakdown)")
    return not_measured


def memory_profile(text: str) -> dict[str, Any]:
    """What one start measured, per item, in bytes, with where each figure came from.

    Returns ``{"items": {item: bytes}, "from": {item: "how it was read"}, "not_measured": {item: why},
    "kv_tokens", "gpu_blocks", "vllm_version", "gpu_memory_utilization", "profiling": "measured" | "skipped",
    "debug": bool, "startup_plan": fingerprint or None, "cudagraph_actual_bytes"}``.

    Items are the planner's memory keys (``MEMORY_ITEMS``). The KV budget obeys vLLM's identity
    ``kv_budget = requested - weights - non_torch - activation - cudagraph`` (``gpu_worker.py``
    ``determine_available_memory``); an item the log does not give directly is derived from it only when
    every other term was logged. When vLLM skipped profiling (``--kv-cache-memory-bytes``, or its own
    startup plan), the reserves were not measured and are left out.
    """
    text = text or ""
    raw = raw_figures(text)
    skipped = bool(_PROFILE_SKIPPED.search(text)) or "kv_explicit" in raw
    weights = _first_logged(raw, (("weights_profile", "logged (profile): weights memory"),
                                  ("weights_loaded", "logged: model loading took"),
                                  ("weights_usage", "logged: actual usage for weight")))
    readings = {
        "requested_bytes": _logged(raw, "requested", "logged: requested memory (total x gpu_memory_utilization)"),
        "weights_bytes": weights,
        "kv_budget_bytes": _first_logged(raw, (
            ("kv_available", "logged: available KV cache memory"),
            ("kv_explicit", "given: --kv-cache-memory-bytes (profiling skipped)"))),
    }
    if not skipped:
        estimate_applied = "cudagraph_estimate" in raw and not _ESTIMATE_DISABLED.search(text)
        readings["cudagraph_reserve_bytes"] = _cudagraph_reserve(raw, estimate_applied)
        readings["non_torch_reserve_bytes"] = _non_torch_reserve(raw, weights)
        readings["activation_reserve_bytes"] = _activation_reserve(raw, estimate_applied)
    items = {item: reading[0] for item, reading in readings.items() if reading is not None}
    how = {item: reading[1] for item, reading in readings.items() if reading is not None}
    if not skipped:
        _derive_the_missing_term(items, how)
    util = _UTIL.findall(text)
    utilization = next((float(v) for v in util[-1] if v), None) if util else None
    actual = raw.get("cudagraph_actual")
    plan = _STARTUP_PLAN.findall(text)
    return {
        "items": items,
        "from": how,
        "not_measured": _not_measured(items, skipped),
        "kv_tokens": kv_cache_tokens(text),
        "gpu_blocks": gpu_blocks(text),
        "vllm_version": vllm_version(text),
        "gpu_memory_utilization": utilization,
        "total_bytes": _bytes(raw["total"]) if "total" in raw else None,
        "cudagraph_actual_bytes": _bytes(actual) if actual is not None else None,
        "profiling": "skipped" if skipped else ("measured" if items else "none"),
        "startup_plan": plan[-1] if plan else None,
        "debug": bool(_DEBUG_LINE.search(text)) and "non_kv_profile" in raw,
    }
