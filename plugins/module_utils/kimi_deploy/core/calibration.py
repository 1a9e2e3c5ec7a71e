"""Calibration: the reserves one start measured, as an explicit, reviewable input to later plans.

A deploy never changes its own plan from what it just measured. The ``calibrate`` step turns the
measurements of a chosen start (a ledger row) into a calibration file; the inventory pins that file
(``kimi_plan_calibration_file``); the planner takes the measured reserves from it where the file's key matches
the plan, and marks every item ``measured`` or ``estimated``. Same inputs, same plan, same release.

The key is what the reserves depend on: GPU model, vLLM version, model and revision, layout, KV dtype.
A file whose key does not match the plan is not used, and the plan says why.

Pure: dicts in, dicts out; reading and writing the file is the modules' job.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from . import vllm_log
from .errors import KimiDeployError

SCHEMA = 1
KEY_FIELDS = ("gpu_model", "vllm_version", "model_repo", "model_revision", "layout", "kv_cache_dtype")
# Plan-time identity (known before the search) and plan-result identity (known after it).
INPUT_KEY_FIELDS = ("gpu_model", "vllm_version", "model_repo", "model_revision")
RESULT_KEY_FIELDS = ("layout", "kv_cache_dtype")
# A measured item drifts when it moves by more than this share of the calibrated value, and by more than
# vLLM's log can resolve (two decimals of GiB).
DRIFT_THRESHOLD = 0.02
# Every item a plan holds beside the reserves, and how it is known when no calibration gives it.
ESTIMATED_WHY = {
    "weights_bytes": "computed from the checkpoint's tensor list",
    "activation_reserve_bytes": "estimated from the model's shapes at max_num_batched_tokens",
    "non_torch_reserve_bytes": "estimated (NCCL, all-reduce and library workspaces)",
    "cudagraph_reserve_bytes": "estimated (published CUDA-graph estimates run 1-3 GiB)",
    "out_of_pool_reserve_bytes": vllm_log.NEVER_LOGGED["out_of_pool_reserve_bytes"],
}


def layout_key(layout: Mapping[str, Any]) -> str:
    """``tp8-pp2-dp1-ep0-dcp1-nodes2``: the parallel layout, as the calibration key spells it."""
    return (f"tp{layout.get('tensor_parallel_size', 1)}-pp{layout.get('pipeline_parallel_size', 1)}"
            f"-dp{layout.get('data_parallel_size', 1)}-ep{int(bool(layout.get('enable_expert_parallel')))}"
            f"-dcp{layout.get('decode_context_parallel_size', 1)}-nodes{layout.get('nnodes', 1)}")


def gpu_model(nodes: Sequence[Mapping[str, Any]]) -> str:
    """The GPU model of the first node (``cpu`` on the CPU build), as kimi_gpu_facts names it."""
    for node in nodes or ():
        for gpu in node.get("gpus") or ():
            if gpu.get("name"):
                return str(gpu["name"])
    return "cpu"


def plan_key(*, gpu: str, vllm_version: str | None, model_repo: str | None, model_revision: str | None,
             plan: Mapping[str, Any] | None = None) -> dict[str, str]:
    """The calibration key of a plan (the layout and KV dtype only once the plan is made)."""
    key = {"gpu_model": gpu or "", "vllm_version": str(vllm_version or ""), "model_repo": str(model_repo or ""),
           "model_revision": str(model_revision or "")}
    if plan is not None:
        key["layout"] = layout_key(plan.get("layout") or {})
        key["kv_cache_dtype"] = str(plan.get("kv_cache_dtype") or "")
    return key


def key_differences(wanted: Mapping[str, Any], have: Mapping[str, Any], fields: Sequence[str]) -> list[str]:
    return [f"{f} {have.get(f)!r} (plan: {wanted.get(f)!r})" for f in fields if str(wanted.get(f) or "")
            != str(have.get(f) or "")]


def build(*, key: Mapping[str, Any], measured: Mapping[str, Any], source: Mapping[str, Any]) -> dict[str, Any]:
    """A calibration file's content from one start: ``measured`` is vllm_log.memory_profile's result."""
    missing = [f for f in KEY_FIELDS if not key.get(f)]
    if missing:
        raise KimiDeployError(f"the chosen start has no {', '.join(missing)} in its ledger row: calibrate from a "
                              "row written by a deploy that recorded its plan (kimi_ledger with predicted_memory)")
    items = dict(measured.get("items") or {})
    reserves = {k: int(items[k]) for k in vllm_log.RESERVE_ITEMS if k in items}
    if measured.get("profiling") != "measured" or not reserves:
        raise KimiDeployError(
            "the chosen start measured no reserve (vLLM skipped memory profiling: --kv-cache-memory-bytes, its "
            "startup plan, or the CPU build); calibrate from a GPU start that profiled")
    return {
        "schema": SCHEMA,
        "key": {f: str(key[f]) for f in KEY_FIELDS},
        "reserves": reserves,
        "measured": {k: int(v) for k, v in sorted(items.items())},
        "measured_from": dict(sorted((measured.get("from") or {}).items())),
        "estimated": dict(sorted((measured.get("not_measured") or {}).items())),
        "source": {k: source[k] for k in sorted(source) if source[k] is not None},
    }


def dumps(calibration: Mapping[str, Any]) -> str:
    """The file's text: stable, so the same start always writes the same bytes (a review shows real changes)."""
    return json.dumps(calibration, indent=2, sort_keys=True) + "\n"


def check(calibration: Any) -> dict[str, Any]:
    """Validate a calibration's shape (as read from the pinned file); raise with what is wrong."""
    if not isinstance(calibration, Mapping):
        raise KimiDeployError("the calibration must be a mapping (the JSON the calibrate step writes)")
    if calibration.get("schema") != SCHEMA:
        raise KimiDeployError(f"calibration schema {calibration.get('schema')!r} is not {SCHEMA}: re-run the "
                              "calibrate step with this kimi-deploy")
    key, reserves = calibration.get("key"), calibration.get("reserves")
    if not isinstance(key, Mapping) or not isinstance(reserves, Mapping):
        raise KimiDeployError("the calibration has no key or reserves: re-run the calibrate step")
    bad = [k for k, v in reserves.items() if k not in vllm_log.RESERVE_ITEMS or not isinstance(v, int) or v < 0]
    if bad:
        raise KimiDeployError(f"calibration reserves {bad} are not known reserves with byte counts >= 0")
    return dict(calibration)


def apply(options: Any, calibration: Mapping[str, Any] | None) -> Any:
    """``options`` (a PlanOptions) with the calibrated reserves, except those the operator set by hand."""
    if not calibration:
        return options
    changes = {k: v for k, v in calibration["reserves"].items() if getattr(options, k) is None}
    return replace(options, **changes)


def sources(plan: Mapping[str, Any], options: Any, calibration: Mapping[str, Any] | None) -> dict[str, str]:
    """``{item: "measured" | "estimated" | "given"}`` for each memory item of the plan: ``given`` when the
    operator set the reserve by hand (``options``, before the calibration is applied), which always wins."""
    used = (calibration or {}).get("reserves") or {}
    out = {}
    for item in ESTIMATED_WHY:
        if item in vllm_log.RESERVE_ITEMS and getattr(options, item, None) is not None:
            out[item] = "given"
        elif item in used and plan.get("platform") != "cpu":
            out[item] = "measured"
        else:
            out[item] = "estimated"
    return out


def plan_with_calibration(plan_fn: Any, options: Any, calibration: Mapping[str, Any] | None,
                          key: Mapping[str, Any], *, debug_logging: bool = False) -> dict[str, Any]:
    """Plan with the calibration's measured reserves when its key matches this plan, else with estimates.

    ``plan_fn(options) -> plan``. ``debug_logging`` (a calibration start) adds ``VLLM_LOGGING_LEVEL=DEBUG``.
    The key's GPU, vLLM version, model and revision are checked first; the layout and KV dtype once the plan is
    made: when the calibrated plan lands on another layout than the one
    calibrated, the reserves do not belong to it and the plan is made again from estimates. Either way the
    plan carries ``calibration`` (key, whether a file was used and why not) and ``memory.sources``.
    """
    notes: list[str] = []
    used = None
    if calibration:
        calibration = check(calibration)
        diff = key_differences(key, calibration["key"], INPUT_KEY_FIELDS)
        if diff:
            notes.append(f"calibration not used: it was measured with {', '.join(diff)}; reserves are estimated")
        else:
            used = calibration
    plan = plan_fn(apply(options, used))
    if used is not None:
        diff = key_differences(plan_key(**_key_args(key), plan=plan), used["key"], RESULT_KEY_FIELDS)
        if diff:
            notes.append(f"calibration not used: it was measured with {', '.join(diff)}; reserves are estimated")
            used = None
            plan = plan_fn(options)
    memory = plan.setdefault("memory", {})
    memory["sources"] = sources(plan, options, used)
    plan["calibration"] = {
        "key": plan_key(**_key_args(key), plan=plan),
        "in_use": used is not None,
        "measured": dict(used.get("measured") or {}) if used else {},
        "source": dict(used.get("source") or {}) if used else {},
        "notes": notes,
    }
    plan.setdefault("warnings", []).extend(notes)
    if debug_logging:  # a calibration start: vLLM logs its memory profile's breakdown at DEBUG
        plan.setdefault("env", {})["VLLM_LOGGING_LEVEL"] = "DEBUG"
    plan["summary"] = plan.get("summary", "") + "\n" + sources_line(memory["sources"], used is not None)
    return plan


def _key_args(key: Mapping[str, Any]) -> dict[str, Any]:
    return {"gpu": key.get("gpu_model", ""), "vllm_version": key.get("vllm_version"),
            "model_repo": key.get("model_repo"), "model_revision": key.get("model_revision")}


_LABELS = {"weights_bytes": "weights", "activation_reserve_bytes": "activations",
           "non_torch_reserve_bytes": "non-torch", "cudagraph_reserve_bytes": "CUDA graphs",
           "out_of_pool_reserve_bytes": "CUDA context + workspaces"}


def sources_line(item_sources: Mapping[str, str], in_use: bool) -> str:
    """``reserves: activations measured, non-torch measured, ...`` (the line plan.yml shows)."""
    parts = ", ".join(f"{_LABELS[k]} {v}" for k, v in item_sources.items() if k in _LABELS)
    return f"reserves ({'calibration in use' if in_use else 'no calibration in use'}): {parts}"


def drift(calibrated: Mapping[str, Any], measured: Mapping[str, Any],
          threshold: float = DRIFT_THRESHOLD) -> list[dict[str, Any]]:
    """Items of this start that moved more than ``threshold`` from the calibration in use (and more than the
    log's resolution), each ``{item, calibrated, measured, change_pct}``."""
    out = []
    for item in sorted(set(calibrated) & set(measured)):
        before, after = int(calibrated[item]), int(measured[item])
        change = after - before
        if abs(change) <= vllm_log.LOG_RESOLUTION_BYTES * 2:
            continue
        if before == 0 or abs(change) > threshold * abs(before):
            out.append({"item": item, "calibrated": before, "measured": after,
                        "change_pct": round(100.0 * change / before, 2) if before else None})
    return out


def drift_warning(entry: Mapping[str, Any]) -> str:
    pct = entry["change_pct"]
    how = f"{pct:+.2f} %" if pct is not None else "from 0"
    return (f"{entry['item']} measured {entry['measured']:,} bytes, {how} against the calibration in use "
            f"({entry['calibrated']:,}): the plan's reserves no longer describe this start; re-run the "
            "calibrate step on it and pin the new file, or find what changed")


# --- the calibrate step: a chosen ledger row -> a calibration file ----------------------------------------

def choose_row(rows: Sequence[Mapping[str, Any]], *, attempt_id: str | None = None, release_id: str | None = None,
               host_group: str | None = None) -> Mapping[str, Any]:
    """The start to calibrate from: the row of ``attempt_id``, else the latest row of ``release_id`` (in
    ``host_group`` when given). Choosing is the operator's act; nothing picks "the latest deploy" by itself."""
    if not attempt_id and not release_id:
        raise KimiDeployError("name the start to calibrate from: attempt_id (a ledger row) or release_id")
    found = [r for r in rows
             if (attempt_id and r.get("attempt_id") == attempt_id)
             or (not attempt_id and r.get("release_id") == release_id
                 and (not host_group or r.get("host_group") == host_group))]
    if not found:
        what = f"attempt {attempt_id}" if attempt_id else f"release {release_id}" + (
            f" in {host_group}" if host_group else "")
        raise KimiDeployError(f"no ledger row for {what}: pick one from ledger.jsonl (its attempt_id)")
    return found[-1]


def from_ledger_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A calibration file's content from a ledger row (its ``reserves``, ``memory_profiling`` and
    ``calibration_identity``)."""
    measured: dict[str, Any] = {"items": {}, "from": {}, "not_measured": {},
                                "profiling": row.get("memory_profiling") or "none"}
    for entry in row.get("reserves") or []:
        item = entry.get("item")
        if entry.get("measured") is not None:
            measured["items"][item] = int(entry["measured"])
            measured["from"][item] = entry.get("read_from", "")
        else:
            measured["not_measured"][item] = entry.get("read_from", "")
    source = {"release_id": row.get("release_id"), "attempt_id": row.get("attempt_id") or None,
              "host_group": row.get("host_group"), "time": row.get("time")}
    return build(key=row.get("calibration_identity") or {}, measured=measured, source=source)
