"""The deploy ledger: one row per deploy attempt, accepted or not, kept on the controller.

A row holds what was deployed (host group, model repo and revision, vLLM version, every launch
parameter), what the sizing predicted against what vLLM allocated (KV-cache tokens from the plan,
from vLLM's ``KV cache size: N tokens`` log line and from ``vllm:cache_config_info`` in /metrics),
what was measured (request rate, output tokens/s, TTFT / ITL / latency percentiles), the verdict of
every acceptance check, and the release ids (this one and the one serving before).

Two files under the ledger directory, appended under an exclusive lock so that parallel plays do
not interleave: ``ledger.csv`` for people (the columns of ``LEDGER_COLUMNS`` in that order, header
written once) and ``ledger.jsonl`` for tools (the whole row, nested values included).

Secrets never reach a row: keys named like a credential (``api_key``, ``hf_token``, ``secret``,
``password``, ``Authorization`` ...) are dropped wherever they appear, command-line values of such
flags, bearer tokens, URL credentials and any value passed in ``secret_values`` are replaced with
``<redacted>``. Counts named ``*_tokens`` are not credentials and are kept.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from . import calibration, vllm_log
from .acceptance import CHECKS_BY_NAME
from .argv import argv_params, scalar
from .errors import KimiDeployError
from .files import dig
from .plan import Plan, launch_params

try:  # POSIX hosts and controllers; the lock is only skipped where fcntl does not exist
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None

CSV_NAME = "ledger.csv"
JSONL_NAME = "ledger.jsonl"
LOCK_NAME = ".ledger.lock"
REDACTED = "<redacted>"

# Launch parameters that get a column of their own in the CSV; all of them are in launch_params too.
PARAM_COLUMNS = (
    "tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size", "enable_expert_parallel",
    "decode_context_parallel_size", "max_model_len", "max_num_seqs", "max_num_batched_tokens",
    "gpu_memory_utilization", "kv_cache_dtype", "block_size", "dtype", "quantization",
)

LEDGER_COLUMNS: tuple[str, ...] = (
    "time", "host_group", "release_id", "previous_release_id", "attempt_id", "accepted", "failed_checks",
    "profile", "model_repo", "model_revision", "vllm_version", "served_model_name",
    *PARAM_COLUMNS,
    "predicted_kv_tokens", "kv_tokens_logged", "kv_tokens_metrics", "kv_tokens_ratio",
    "memory_profiling", "reserves", "calibration_in_use", "calibration_drift", "calibration_identity",
    "concurrency", "load_duration_s", "requests_completed", "request_errors", "request_rate",
    "output_tokens_per_s", "ttft_p50_ms", "ttft_p95_ms", "ttft_p99_ms", "itl_p50_ms", "itl_p95_ms",
    "itl_p99_ms", "latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "short_ttft_ms",
    "long_input_latency_ms", "server_rss_growth_per_min", "gpu_memory_growth_per_min",
    "kv_usage_growth_per_min", "suite_duration_s", "form_check_ms", "forms_served", "multimodal", "entry_routes",
    "canary", "checks",
    "launch_params", "note",
)

# What a row keeps of the canary's verdict (the module's result also has changed, failed...).
CANARY_KEYS = ("verdict", "inconclusive", "reason", "figures")

# (column, True when higher is better): what a comparison with the previous row reports.
COMPARED_METRICS: tuple[tuple[str, bool], ...] = (
    ("request_rate", True), ("output_tokens_per_s", True),
    ("ttft_p50_ms", False), ("ttft_p95_ms", False), ("ttft_p99_ms", False),
    ("itl_p50_ms", False), ("itl_p95_ms", False), ("itl_p99_ms", False),
    ("latency_p50_ms", False), ("latency_p95_ms", False), ("latency_p99_ms", False),
    ("request_errors", False), ("kv_tokens_logged", True), ("kv_tokens_metrics", True),
    ("suite_duration_s", False),
)
COMPARED_IDENTITY = ("model_repo", "model_revision", "vllm_version", "profile", "concurrency")

# ------------------------------------------------------------------------------------------ secrets

# Whole words (split at _, -, ., spaces and camelCase) that mark a credential. "tokens" is absent
# on purpose: max_num_batched_tokens or kv_tokens are counts.
_SECRET_WORDS = frozenset({
    "key", "keys", "apikey", "token", "secret", "secrets", "password", "passwords", "passwd", "passphrase",
    "authorization", "credential", "credentials", "cookie", "bearer",
})
_SECRET_SUBSTRINGS = ("password", "passwd", "secret", "apikey", "apitoken", "accesstoken", "authtoken", "hftoken",
                      "refreshtoken", "privatekey")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_FLAG_VALUE = re.compile(
    r"(--?[A-Za-z0-9_-]*(?:key|token(?!s)|secret|password|passwd)[A-Za-z0-9_-]*)(=|\s+)(?!-)(\S+)", re.IGNORECASE)
_BEARER = re.compile(r"(Bearer\s+)\S+", re.IGNORECASE)
_URL_USERINFO = re.compile(r"(\b[a-z][a-z0-9+.-]*://)[^/\s:@]+(?::[^/\s@]*)?@", re.IGNORECASE)
_HF_TOKEN = re.compile(r"\bhf_[A-Za-z0-9]{20,}\b")
_ENV_ASSIGN = re.compile(
    r"\b([A-Z0-9_]*(?:KEY|TOKEN(?!S)|SECRET|PASSWORD|PASSWD)[A-Z0-9_]*)=(\S+)")


def is_secret_name(name: str) -> bool:
    """Whether a key names a credential (api_key, HF_TOKEN, apiKey, db-password, Authorization...)."""
    text = str(name)
    words = [w.lower() for w in re.split(r"[^A-Za-z0-9]+", _CAMEL.sub("_", text)) if w]
    if any(w in _SECRET_WORDS for w in words):
        return True
    flat = re.sub(r"[^a-z0-9]", "", text.lower())
    return any(s in flat for s in _SECRET_SUBSTRINGS)


def redact_text(text: str, secret_values: Iterable[str] = ()) -> str:
    """Replace known secret values, values of credential flags and env assignments, bearer tokens,
    URL credentials and Hub tokens in free text (a command line, a journal excerpt, an error)."""
    for value in sorted((v for v in secret_values if v), key=len, reverse=True):
        text = text.replace(value, REDACTED)
    text = _FLAG_VALUE.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)
    text = _ENV_ASSIGN.sub(lambda m: f"{m.group(1)}={REDACTED}", text)
    text = _BEARER.sub(lambda m: f"{m.group(1)}{REDACTED}", text)
    text = _URL_USERINFO.sub(lambda m: f"{m.group(1)}{REDACTED}@", text)
    return _HF_TOKEN.sub(REDACTED, text)


def redact(value: Any, secret_values: Iterable[str] = ()) -> Any:
    """A copy of ``value`` with credential keys dropped and secrets in strings replaced."""
    secrets = tuple(secret_values)
    if isinstance(value, Mapping):
        return {k: redact(v, secrets) for k, v in value.items() if not is_secret_name(k)}
    if isinstance(value, (list, tuple)):
        return [redact(v, secrets) for v in value]
    if isinstance(value, str):
        return redact_text(value, secrets)
    return value


def redact_strings(value: Any, secret_values: Iterable[str] = ()) -> Any:
    """A copy of ``value`` with secrets replaced in every string; keys are kept (acceptance results,
    whose check names such as ``api_key_missing`` are not credentials, and whose values never hold one)."""
    secrets = tuple(secret_values)
    if isinstance(value, Mapping):
        return {k: redact_strings(v, secrets) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_strings(v, secrets) for v in value]
    if isinstance(value, str):
        return redact_text(value, secrets)
    return value


# ------------------------------------------------------------------------------- launch parameters

def launch_params_from(args: Mapping[str, Any] | Sequence[str] | None) -> dict[str, Any]:
    """Launch parameters as ``{snake_case_name: value}`` from a plan, a dict of parameters or a ``vllm serve`` argv.

    ``["serve", "/m", "--max-model-len", "512", "--enforce-eager", "-tp=8", "--api-key", "k"]`` gives
    ``{"model": "/m", "max_model_len": 512, "enforce_eager": True, "tensor_parallel_size": 8}``:
    numbers and booleans are typed, ``--no-x`` gives ``x: False``, secrets are dropped. A plan (any mapping
    with ``serve_args``, of any schema version) is read through ``Plan.from_dict``: its fields, not its argv.
    """
    if args is None:
        return {}
    if isinstance(args, Mapping) and "serve_args" in args:
        return redact(launch_params(Plan.from_dict(args)))
    if isinstance(args, Mapping):
        params = {str(k).lstrip("-").replace("-", "_"): scalar(v) for k, v in args.items()}
        return redact(params)
    if isinstance(args, str):
        raise KimiDeployError("launch_params is a string: pass the argv as a list or the plan's parameters as a dict")
    return redact(argv_params(args))


# ------------------------------------------------------------------------------------------- rows


def _now_iso() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _round(value: Any, digits: int = 3) -> Any:
    return round(value, digits) if isinstance(value, float) else value


# Memory items in the ledger, in the order of vLLM's identity (requested = weights + reserves + KV budget).
RESERVE_ROW_ITEMS = ("requested_bytes", "weights_bytes", *vllm_log.RESERVE_ITEMS, "out_of_pool_reserve_bytes",
                     "kv_budget_bytes")


def reserve_rows(predicted: Mapping[str, Any], facts: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each memory item: what the plan predicted (and whether that was measured or estimated), what this start
    measured (and from which line), and the error of the prediction (``error_pct`` = (measured - predicted)
    / predicted)."""
    items = facts.get("items") or {}
    read_from = facts.get("from") or {}
    not_measured = facts.get("not_measured") or {}
    plan_sources = predicted.get("sources") or {}
    out = []
    for item in RESERVE_ROW_ITEMS:
        before, after = predicted.get(item), items.get(item)
        if item == "activation_reserve_bytes" and isinstance(before, int):
            # vLLM measures one torch peak for its profile run: the encoder outputs it holds are inside it.
            before += int(predicted.get("encoder_cache_reserve_bytes") or 0)
        if before is None and after is None:
            continue
        error = after - before if isinstance(before, int) and isinstance(after, int) else None
        out.append({
            "item": item, "predicted": before, "measured": after,
            "plan": plan_sources.get(item, "computed" if item in ("requested_bytes", "kv_budget_bytes")
                                     else "estimated"),
            "error_bytes": error,
            "error_pct": round(100.0 * error / before, 2) if error is not None and before else None,
            "read_from": read_from.get(item) or not_measured.get(item, ""),
        })
    return out


def build_row(*, host_group: str, release_id: str, previous_release_id: str | None = None,
              model_repo: str = "", model_revision: str = "", vllm_version: str = "",
              launch_params: Mapping[str, Any] | Sequence[str] | None = None,
              predicted_kv_tokens: int | None = None, journal_text: str = "",
              acceptance: Mapping[str, Any] | None = None, time: str | None = None,
              attempt_id: str | None = None, note: str = "", secret_values: Iterable[str] = (),
              log_facts: Mapping[str, Any] | None = None, predicted_memory: Mapping[str, Any] | None = None,
              plan_calibration: Mapping[str, Any] | None = None,
              canary: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One ledger row (keys of ``LEDGER_COLUMNS``; ``checks`` and ``launch_params`` nested) for one attempt.

    ``log_facts`` is what ``vllm_log.memory_profile`` read from this start's log (on the host); without it,
    ``journal_text`` is parsed here. ``predicted_memory`` and ``plan_calibration`` are the plan's ``memory``
    and ``calibration``: each memory item is recorded beside its prediction (``reserves``), and an item that
    moved more than 2 % from the calibration in use is listed in ``calibration_drift``. ``canary`` is the
    canary's verdict (kimi_canary: verdict, inconclusive, reason, figures), kept as ``canary``; {} without one.
    """
    if not host_group:
        raise KimiDeployError("host_group is empty: give the inventory group this deploy targeted")
    if not release_id:
        raise KimiDeployError("release_id is empty: give the id of the release this attempt deployed")
    secrets = tuple(secret_values)
    acc = acceptance or {}
    params = launch_params_from(launch_params)
    checks = _check_verdicts(acc.get("checks"))
    load = dig(acc, "metrics", "concurrency") or {}
    growth = load.get("memory_growth") or {}
    server = acc.get("server") or {}
    facts = dict(log_facts) if log_facts else vllm_log.memory_profile(journal_text)
    logged = facts.get("kv_tokens")
    plan_cal = plan_calibration or {}
    drift = calibration.drift(plan_cal.get("measured") or {}, facts.get("items") or {}) \
        if plan_cal.get("in_use") else []
    from_metrics = server.get("kv_cache_size_tokens")
    measured = logged if logged is not None else from_metrics
    failed = [name for name, status in checks.items() if status == "failed"]
    if not acc:
        failed = ["acceptance_not_run"]

    def pct(metric: str, p: str) -> Any:
        return _round(dig(load, metric, p))

    row: dict[str, Any] = {
        "time": time or _now_iso(),
        "host_group": host_group,
        "release_id": release_id,
        "previous_release_id": previous_release_id or "",
        "attempt_id": attempt_id or "",
        "accepted": bool(acc.get("passed")) and not failed,  # acceptance's own verdict, and no failed check
        "failed_checks": failed,
        "profile": acc.get("profile", ""),
        "model_repo": model_repo,
        "model_revision": model_revision,
        "vllm_version": vllm_version or server.get("vllm_version") or "",
        "served_model_name": acc.get("served_model_name") or params.get("served_model_name", ""),
        **{name: params.get(name) for name in PARAM_COLUMNS},
        "predicted_kv_tokens": predicted_kv_tokens,
        "kv_tokens_logged": logged,
        "kv_tokens_metrics": from_metrics,
        "kv_tokens_ratio": (round(measured / predicted_kv_tokens, 4)
                            if measured is not None and predicted_kv_tokens else None),
        "memory_profiling": facts.get("profiling") or "none",
        "reserves": reserve_rows(predicted_memory or {}, facts),
        "calibration_in_use": bool(plan_cal.get("in_use")),
        "calibration_drift": drift,
        "calibration_identity": dict(plan_cal.get("key") or {}),
        "concurrency": load.get("concurrency"),
        "load_duration_s": _round(load.get("duration_s")),
        "requests_completed": load.get("completed"),
        "request_errors": load.get("errors"),
        "request_rate": _round(load.get("request_rate")),
        "output_tokens_per_s": _round(load.get("output_tokens_per_s")),
        "ttft_p50_ms": pct("ttft_ms", "p50"), "ttft_p95_ms": pct("ttft_ms", "p95"),
        "ttft_p99_ms": pct("ttft_ms", "p99"),
        "itl_p50_ms": pct("itl_ms", "p50"), "itl_p95_ms": pct("itl_ms", "p95"), "itl_p99_ms": pct("itl_ms", "p99"),
        "latency_p50_ms": pct("latency_ms", "p50"), "latency_p95_ms": pct("latency_ms", "p95"),
        "latency_p99_ms": pct("latency_ms", "p99"),
        "short_ttft_ms": dig(acc, "metrics", "short", "chat_stream", "ttft_ms"),
        "long_input_latency_ms": dig(acc, "metrics", "long", "text", "latency_ms"),
        "server_rss_growth_per_min": _round(dig(growth, "server_rss_bytes", "growth_per_min")
                                            or dig(growth, "api_rss_bytes", "growth_per_min"), 6),
        "gpu_memory_growth_per_min": _round(dig(growth, "gpu_memory_used_bytes", "growth_per_min"), 6),
        "kv_usage_growth_per_min": _round(dig(growth, "kv_cache_usage", "growth_per_min"), 6),
        "suite_duration_s": _round(acc.get("suite_duration_s")),
        # The form checks' latencies, the input forms the release served, the plan's image budget (acceptance).
        "form_check_ms": dict(dig(acc, "metrics", "forms", "latency_ms") or {}),
        "forms_served": list(dig(acc, "metrics", "forms", "served") or []),
        "multimodal": dict(dig(acc, "metrics", "forms", "multimodal") or {}),
        # The front door's probe table (route, method, no_auth and wrong_auth statuses); [] without one.
        "entry_routes": [dict(r) for r in dig(acc, "metrics", "routes") or [] if isinstance(r, Mapping)],
        # Promoted or rolled back after its window of live traffic, and why (kimi_canary_enabled); {} without one.
        "canary": {key: (canary or {})[key] for key in CANARY_KEYS if key in (canary or {})},
        "checks": checks,
        "launch_params": params,
        "note": note,
    }
    row = redact(row, secrets)
    # Check names come from the catalogue (api_key_missing is a check, not a credential): set after redact.
    row["checks"], row["failed_checks"] = checks, failed
    return row


def _check_verdicts(checks: Any) -> dict[str, str]:
    """``{check name: passed|failed|skipped}`` for the catalogue's checks; other names are dropped, so
    nothing but known names and the three words can reach a row through this column."""
    out = {}
    checks = checks if isinstance(checks, Mapping) else {}
    for name in CHECKS_BY_NAME:  # catalogue (run) order, whatever order the results were saved in
        check = checks.get(name)
        if not isinstance(check, Mapping):
            continue
        status = check.get("status")
        if status not in ("passed", "failed", "skipped"):
            status = "skipped" if check.get("passed") is None else ("passed" if check.get("passed") else "failed")
        out[name] = status
    return out


def _csv_cell(value: Any) -> str:  # noqa: PLR0911 - a dispatch on the value's type
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}" if abs(value) < 1e-3 and value else f"{round(value, 3)}"
    if isinstance(value, Mapping):
        if value and all(isinstance(v, str) for v in value.values()):  # the checks column: name=status
            return ";".join(f"{k}={v}" for k, v in value.items())
        return json.dumps(value, sort_keys=True, default=str)
    if isinstance(value, (list, tuple)):
        return ";".join(str(v) for v in value)
    return str(value)


# ------------------------------------------------------------------------------------------- files


@contextmanager
def _locked(directory: Path):
    lock_path = directory / LOCK_NAME
    with open(lock_path, "a+") as lock:
        if fcntl is not None:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def read_rows(jsonl_path: str | Path) -> list[dict[str, Any]]:
    """Rows of a JSONL ledger, oldest first; a line that does not parse is skipped (a crash mid-write)."""
    path = Path(jsonl_path)
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows


def append_row(ledger_dir: str | Path, row: Mapping[str, Any]) -> dict[str, Any]:
    """Append ``row`` to ``ledger.jsonl`` and ``ledger.csv`` under ``ledger_dir`` (created if missing).

    Returns the two paths and warnings. When an existing CSV has another header (a ledger started by
    an older version), the row is written under that header and the columns it lacks are named in a
    warning; the JSONL line always has everything.
    """
    directory = Path(ledger_dir)
    directory.mkdir(parents=True, exist_ok=True)
    csv_path, jsonl_path = directory / CSV_NAME, directory / JSONL_NAME
    warnings: list[str] = []
    line = json.dumps(dict(row), sort_keys=False, default=str, ensure_ascii=False)
    with _locked(directory):
        with open(jsonl_path, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        header: list[str] | None = None
        if csv_path.exists() and csv_path.stat().st_size > 0:
            with open(csv_path, newline="", encoding="utf-8") as fh:
                header = next(csv.reader(fh), None)
        columns = list(header) if header else list(LEDGER_COLUMNS)
        missing = [c for c in LEDGER_COLUMNS if c not in columns]
        if missing:
            warnings.append(f"{csv_path} has an older header without {missing}: those values are only in "
                            f"{jsonl_path}; move the CSV aside to start one with every column")
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
        if not header:
            writer.writeheader()
        writer.writerow({c: _csv_cell(row.get(c)) for c in columns})
        with open(csv_path, "a", encoding="utf-8", newline="") as fh:
            fh.write(buf.getvalue())
            fh.flush()
            os.fsync(fh.fileno())
    return {"csv_path": str(csv_path), "jsonl_path": str(jsonl_path), "warnings": warnings}


# -------------------------------------------------------------------------------------- comparison


def previous_row(rows: Sequence[Mapping[str, Any]], *, host_group: str, release_id: str | None = None,
                 previous_release_id: str | None = None) -> Mapping[str, Any] | None:
    """The row to compare a new one with: the latest row of the release that served before
    (``previous_release_id``) in the same host group, else the latest row of that host group for
    another release than ``release_id``."""
    same_group = [r for r in rows if r.get("host_group") == host_group]
    if previous_release_id:
        match = [r for r in same_group if r.get("release_id") == previous_release_id]
        if match:
            return match[-1]
    others = [r for r in same_group if not release_id or r.get("release_id") != release_id]
    return others[-1] if others else None


def compare_rows(previous: Mapping[str, Any] | None, current: Mapping[str, Any]) -> dict[str, Any]:
    """What changed from ``previous`` to ``current``: metrics (with direction), launch parameters,
    identity fields and check verdicts."""
    if not previous:
        return {"previous_release_id": None, "metrics": [], "launch_params": {}, "identity": {}, "checks": {}}
    metrics = []
    for name, higher_better in COMPARED_METRICS:
        before, after = previous.get(name), current.get(name)
        entry: dict[str, Any] = {"metric": name, "previous": before, "current": after, "change": None,
                                 "change_pct": None, "verdict": "n/a"}
        if isinstance(before, (int, float)) and isinstance(after, (int, float)) \
                and not isinstance(before, bool) and not isinstance(after, bool):
            change = after - before
            entry["change"] = _round(float(change))
            entry["change_pct"] = round(100.0 * change / before, 2) if before else None
            if change == 0:
                entry["verdict"] = "same"
            else:
                entry["verdict"] = "better" if (change > 0) == higher_better else "worse"
        metrics.append(entry)
    before_params = previous.get("launch_params") or {}
    after_params = current.get("launch_params") or {}
    params = {k: {"previous": before_params.get(k), "current": after_params.get(k)}
              for k in sorted(set(before_params) | set(after_params)) if before_params.get(k) != after_params.get(k)}
    identity = {k: {"previous": previous.get(k), "current": current.get(k)}
                for k in COMPARED_IDENTITY if previous.get(k) != current.get(k)}
    before_checks, after_checks = previous.get("checks") or {}, current.get("checks") or {}
    checks = {k: {"previous": before_checks.get(k), "current": after_checks.get(k)}
              for k in sorted(set(before_checks) | set(after_checks)) if before_checks.get(k) != after_checks.get(k)}
    return {"previous_release_id": previous.get("release_id"), "previous_time": previous.get("time"),
            "previous_accepted": previous.get("accepted"), "metrics": metrics, "launch_params": params,
            "identity": identity, "checks": checks}
