"""Static HTML report of one deploy attempt: verdicts, measurements, plots, and what changed.

One self-contained file per attempt, readable without a server: the verdict of every acceptance
check (failed ones with the exact request and response), the ledger row's numbers, plots of the
concurrency run (latency distribution, throughput over time, memory over time) and a comparison
with the previous release's row. Plots are matplotlib PNGs, embedded as base64 by default or
written next to the HTML; matplotlib is imported only here, lazily, with the Agg backend, and a
controller without it still gets the report, without plots and saying why.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .acceptance import CHECKS, TRUNCATE_CHARS
from .files import dig, write_atomic
from .ledger import LEDGER_COLUMNS, PARAM_COLUMNS

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;max-width:1200px;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}td,th{border:1px solid #ddd;padding:.25em .6em;
text-align:left;vertical-align:top}th{background:#f5f5f5}.passed{color:#1a7f37}.failed{color:#cf222e;font-weight:bold}
.skipped{color:#777}.better{color:#1a7f37}.worse{color:#cf222e}.badge{display:inline-block;padding:.2em .8em;
border-radius:.3em;color:#fff}.badge.passed{background:#1a7f37;color:#fff}.badge.failed{background:#cf222e;color:#fff}
pre{background:#f6f8fa;padding:.6em;overflow-x:auto;white-space:pre-wrap;word-break:break-all;font-size:.85em}
img{max-width:100%;border:1px solid #eee;margin:.5em 0}.num{text-align:right;font-variant-numeric:tabular-nums}
"""


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def _fmt(value: Any) -> str:  # noqa: PLR0911 - one rendering per value type
    if value is None or value == "":
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:,.3f}".rstrip("0").rstrip(".") if abs(value) < 1e6 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "-"
    if isinstance(value, Mapping):
        return json.dumps(value, sort_keys=True, default=str)
    return str(value)


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], raw: bool = False) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c if raw else _e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


# -------------------------------------------------------------------------------------------- plots


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    return buf.getvalue()


def plot_latency(plt: Any, load: Mapping[str, Any]) -> bytes | None:
    samples = load.get("samples") or {}
    panels = [(key, title) for key, title in (("ttft_ms", "Time to first token"), ("itl_ms", "Inter-token latency"),
                                              ("latency_ms", "Request latency")) if samples.get(key)]
    if not panels:
        return None
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 3.4), squeeze=False)
    for ax, (key, title) in zip(axes[0], panels, strict=True):
        ax.hist(samples[key], bins=40, color="#4c72b0", alpha=0.85)
        dist = load.get(key) or {}
        for p, style in (("p50", "-"), ("p95", "--"), ("p99", ":")):
            if dist.get(p) is not None:
                ax.axvline(dist[p], color="#c44e52", linestyle=style, label=f"{p} {dist[p]:.1f} ms")
        ax.set_title(title)
        ax.set_xlabel("ms")
        ax.set_ylabel("count")
        ax.legend(fontsize=8)
    fig.tight_layout()
    data = _png(fig)
    plt.close(fig)
    return data


_ITEM_LABELS = {"requested_bytes": "requested", "weights_bytes": "weights", "activation_reserve_bytes": "activations",
                "non_torch_reserve_bytes": "non-torch", "cudagraph_reserve_bytes": "CUDA graphs",
                "out_of_pool_reserve_bytes": "CUDA context + workspaces", "kv_budget_bytes": "KV budget"}
_GiB = 1024**3


def plot_reserves(plt: Any, reserves: Sequence[Mapping[str, Any]]) -> bytes | None:
    """Predicted vs measured GiB per memory item (the items the start measured), with the error of each."""
    rows = [r for r in reserves if r.get("measured") is not None and r.get("predicted") is not None]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(8, 0.55 * len(rows) + 1.2))
    ys = list(range(len(rows)))
    predicted = [r["predicted"] / _GiB for r in rows]
    measured = [r["measured"] / _GiB for r in rows]
    ax.barh([y + 0.2 for y in ys], predicted, height=0.4, color="#4c72b0", label="predicted")
    ax.barh([y - 0.2 for y in ys], measured, height=0.4, color="#dd8452", label="measured")
    for y, r, m in zip(ys, rows, measured, strict=True):
        if r.get("error_pct") is not None:
            ax.text(m, y - 0.2, f"  {r['error_pct']:+.1f} %", va="center", fontsize=8)
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{_ITEM_LABELS.get(r['item'], r['item'])} ({r.get('plan', '')})" for r in rows])
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("GiB per GPU (log scale)")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    data = _png(fig)
    plt.close(fig)
    return data


def plot_throughput(plt: Any, load: Mapping[str, Any]) -> bytes | None:
    series = dig(load, "series", "throughput") or []
    if not series:
        return None
    t = [p["t_s"] for p in series]
    fig, ax = plt.subplots(figsize=(10, 3.4))
    ax.plot(t, [p["output_tokens_per_s"] for p in series], color="#4c72b0", label="output tokens/s")
    ax.set_xlabel("seconds since the start of the run")
    ax.set_ylabel("output tokens/s")
    ax2 = ax.twinx()
    ax2.bar(t, [p.get("requests_finished", 0) for p in series], width=0.8 * (t[1] - t[0] if len(t) > 1 else 1),
            color="#55a868", alpha=0.3, label="requests finished")
    ax2.set_ylabel("requests finished per bucket")
    ax.set_title(f"Throughput at {load.get('concurrency')} concurrent streams")
    ax.legend(loc="upper left", fontsize=8)
    ax2.legend(loc="upper right", fontsize=8)
    data = _png(fig)
    plt.close(fig)
    return data


_MEMORY_PANELS = (
    ("server_rss_bytes", "vLLM process tree RSS", 2**20, "MiB"),
    ("api_rss_bytes", "API server RSS (/metrics)", 2**20, "MiB"),
    ("gpu_memory_used_bytes", "GPU memory used (NVML)", 2**30, "GiB"),
    ("kv_cache_usage", "KV-cache usage", 0.01, "%"),
    ("requests_running", "requests running", 1, "requests"),
)


def plot_memory(plt: Any, load: Mapping[str, Any], warmup_s: float | None = None) -> bytes | None:
    memory = dig(load, "series", "memory") or {}
    panels = [p for p in _MEMORY_PANELS if memory.get(p[0])]
    if not panels:
        return None
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, 2.2 * len(panels)), sharex=True, squeeze=False)
    growth = load.get("memory_growth") or {}
    for ax, (key, title, scale, unit) in zip(axes[:, 0], panels, strict=True):
        points = memory[key]
        ax.plot([p[0] for p in points], [p[1] / scale for p in points], marker=".", color="#4c72b0")
        verdict = growth.get(key)
        judged = ""
        if verdict and verdict.get("judged"):
            judged = f" (fitted growth {verdict['growth_per_min']:.3g}/min: {'ok' if verdict['passed'] else 'FAIL'})"
        ax.set_title(title + judged, fontsize=9)
        ax.set_ylabel(unit)
        if warmup_s:
            ax.axvspan(0, warmup_s, color="#999", alpha=0.15)
    axes[-1, 0].set_xlabel("seconds since the start of the run (grey: warm-up, not judged)")
    data = _png(fig)
    plt.close(fig)
    return data


# ------------------------------------------------------------------------------------------ sections


def _verdict_section(acceptance: Mapping[str, Any]) -> str:
    checks = acceptance.get("checks") or {}
    order = [c.name for c in CHECKS if c.name in checks] + sorted(set(checks) - {c.name for c in CHECKS})
    rows = []
    for name in order:
        c = checks[name]
        status = c.get("status") or ("passed" if c.get("passed") else "failed")
        rows.append([_e(name), _e(c.get("group", "")), f'<span class="{_e(status)}">{_e(status)}</span>',
                     f'<span class="num">{_e(_fmt(c.get("duration_s")))}</span>', _e(c.get("expectation", "")),
                     _e(c.get("detail", ""))])
    out = ["<h2>Acceptance checks</h2>",
           _table(["check", "group", "verdict", "seconds", "expected", "observed"], rows, raw=True)]
    failed = [n for n in order if (checks[n].get("status") or "") == "failed"]
    if failed:
        out.append("<h2>Failed checks: request and response</h2>")
        for name in failed:
            c = checks[name]
            req, resp = c.get("request") or {}, c.get("response") or {}
            out.append(f'<h3 class="failed">{_e(name)}</h3><p>{_e(c.get("detail", ""))}</p>')
            if req:
                out.append(f"<p>Request: <code>{_e(req.get('method'))} {_e(req.get('path'))}</code> "
                           f"({_e(req.get('headers', ''))})</p><pre>{_e(req.get('body', ''))}</pre>")
            if resp:
                extra = f", {_e(resp.get('error'))}" if resp.get("error") else ""
                out.append(f"<p>Response: <code>HTTP {_e(resp.get('status'))}</code> after "
                           f"{_e(resp.get('elapsed_ms'))} ms{extra}</p><pre>{_e(resp.get('body', ''))}</pre>")
            if not req and not resp:
                out.append("<p>No request was recorded for this check.</p>")
        out.append(f"<p class='skipped'>Bodies are cut at {TRUNCATE_CHARS} characters; the API key is never "
                   "recorded.</p>")
    return "\n".join(out)


def _numbers_section(row: Mapping[str, Any]) -> str:
    kv_rows = [["predicted by the plan", _fmt(row.get("predicted_kv_tokens"))],
               ["logged by vLLM (KV cache size line)", _fmt(row.get("kv_tokens_logged"))],
               ["reported in /metrics (cache_config_info)", _fmt(row.get("kv_tokens_metrics"))],
               ["measured / predicted", _fmt(row.get("kv_tokens_ratio"))]]
    perf = [["concurrency", _fmt(row.get("concurrency"))], ["run length (s)", _fmt(row.get("load_duration_s"))],
            ["requests completed", _fmt(row.get("requests_completed"))],
            ["request errors", _fmt(row.get("request_errors"))],
            ["requests/s", _fmt(row.get("request_rate"))], ["output tokens/s", _fmt(row.get("output_tokens_per_s"))]]
    pct_rows = [[label, *(_fmt(row.get(f"{key}_{p}_ms")) for p in ("p50", "p95", "p99"))]
                for key, label in (("ttft", "time to first token"), ("itl", "inter-token latency"),
                                   ("latency", "request latency"))]
    return "\n".join([
        "<h2>KV-cache tokens</h2>", _table(["source", "tokens"], kv_rows),
        "<h2>Throughput and latency (concurrency run)</h2>", _table(["measure", "value"], perf),
        _table(["ms", "p50", "p95", "p99"], pct_rows),
        _table(["memory growth per minute", "value"],
               [["server RSS (fraction of mean)", _fmt(row.get("server_rss_growth_per_min"))],
                ["GPU memory (fraction of mean)", _fmt(row.get("gpu_memory_growth_per_min"))],
                ["KV-cache usage (absolute)", _fmt(row.get("kv_usage_growth_per_min"))]]),
    ])


def _gib(value: Any) -> str:
    return "-" if value is None else f"{value / _GiB:,.2f}"


def _reserves_section(row: Mapping[str, Any]) -> str:
    reserves = row.get("reserves") or []
    out = ["<h2>Memory per GPU: predicted vs measured</h2>"]
    if not reserves:
        return out[0] + "<p>No plan memory or measurement recorded.</p>"
    rows = [[_ITEM_LABELS.get(r["item"], r["item"]), r.get("plan", ""), _gib(r.get("predicted")),
             _gib(r.get("measured")), _gib(r.get("error_bytes")),
             "-" if r.get("error_pct") is None else f"{r['error_pct']:+.2f} %", r.get("read_from", "")]
            for r in reserves]
    out.append(_table(["item", "plan", "predicted GiB", "measured GiB", "error GiB", "error", "measured from"], rows))
    out.append(f"<p>vLLM's memory profile on this start: {_e(row.get('memory_profiling', 'none'))}. "
               f"Calibration in use: {_e(_fmt(row.get('calibration_in_use')))}.</p>")
    drift = row.get("calibration_drift") or []
    if drift:
        out.append("<p class='failed'>Drift from the calibration in use (more than 2 %):</p>")
        out.append(_table(["item", "calibrated GiB", "measured GiB", "change"],
                          [[_ITEM_LABELS.get(d["item"], d["item"]), _gib(d["calibrated"]), _gib(d["measured"]),
                            "from 0" if d.get("change_pct") is None else f"{d['change_pct']:+.2f} %"]
                           for d in drift]))
    return "\n".join(out)


def _comparison_section(comparison: Mapping[str, Any] | None) -> str:
    if not comparison or not comparison.get("previous_release_id"):
        return "<h2>Compared with the previous release</h2><p>No earlier row for this host group in the ledger.</p>"
    out = [f"<h2>Compared with the previous release</h2><p>Previous release <code>"
           f"{_e(comparison['previous_release_id'])}</code> ({_e(comparison.get('previous_time'))}, accepted: "
           f"{_e(_fmt(comparison.get('previous_accepted')))}).</p>"]
    rows = []
    for m in comparison.get("metrics", []):
        pct = m.get("change_pct")
        verdict = m.get("verdict", "n/a")
        rows.append([_e(m["metric"]), _e(_fmt(m.get("previous"))), _e(_fmt(m.get("current"))),
                     _e("-" if pct is None else f"{pct:+.1f} %"), f'<span class="{_e(verdict)}">{_e(verdict)}</span>'])
    out.append(_table(["metric", "previous", "this release", "change", ""], rows, raw=True))
    for key, title in (("identity", "Deployment identity"), ("launch_params", "Launch parameters that changed"),
                       ("checks", "Checks whose verdict changed")):
        changes = comparison.get(key) or {}
        if changes:
            out.append(f"<h3>{_e(title)}</h3>")
            out.append(_table(["name", "previous", "this release"],
                              [[k, _fmt(v.get("previous")), _fmt(v.get("current"))] for k, v in changes.items()]))
    if not any(comparison.get(k) for k in ("identity", "launch_params")):
        out.append("<p>Same model, vLLM version and launch parameters as the previous release.</p>")
    return "\n".join(out)


def _params_section(row: Mapping[str, Any]) -> str:
    params = row.get("launch_params") or {}
    rows = [[k, _fmt(v)] for k, v in sorted(params.items())]
    if not rows:
        rows = [[k, _fmt(row.get(k))] for k in PARAM_COLUMNS if row.get(k) is not None]
    return "<h2>Launch parameters</h2>" + (_table(["parameter", "value"], rows) if rows else "<p>None recorded.</p>")


# -------------------------------------------------------------------------------------------- render


def render_report(row: Mapping[str, Any], acceptance: Mapping[str, Any] | None, out_path: str | Path, *,
                  comparison: Mapping[str, Any] | None = None, embed_images: bool = True,
                  pyplot_loader: Callable[[], Any] = _pyplot) -> dict[str, Any]:
    """Write the HTML report to ``out_path``; return its path, the image files and notes."""
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    acceptance = acceptance or {}
    load = dig(acceptance, "metrics", "concurrency") or {}
    notes: list[str] = list(acceptance.get("notes") or [])
    images: list[tuple[str, str, bytes]] = []
    try:
        plt = pyplot_loader()
    except ImportError as err:
        plt = None
        notes.append(f"matplotlib is not importable on the controller ({err}): report written without plots")
    if plt is not None and load:
        duration = load.get("duration_s")
        warmup = dig(acceptance, "settings", "warmup_fraction")
        warmup_s = duration * warmup if duration and warmup else None
        for name, caption, maker in (
                ("latency", "Latency distribution", lambda: plot_latency(plt, load)),
                ("throughput", "Throughput over the concurrency run", lambda: plot_throughput(plt, load)),
                ("memory", "Memory over time", lambda: plot_memory(plt, load, warmup_s))):
            data = maker()
            if data:
                images.append((name, caption, data))
    elif not load:
        notes.append("no concurrency run in these results: no plots of it")
    if plt is not None:
        data = plot_reserves(plt, row.get("reserves") or [])
        if data:
            images.append(("memory-items", "Memory per GPU: predicted vs measured", data))
    image_files: list[str] = []
    figures = []
    for name, caption, data in images:
        if embed_images:
            src = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
        else:
            png = out.with_name(f"{out.stem}-{name}.png")
            write_atomic(png, data)
            image_files.append(str(png))
            src = png.name
        figures.append(f"<h3>{_e(caption)}</h3><img alt='{_e(caption)}' src='{src}'>")
    accepted = bool(row.get("accepted"))
    verdict = "accepted" if accepted else "rejected"
    summary_columns = ("time", "host_group", "release_id", "previous_release_id", "model_repo", "model_revision",
                       "vllm_version", "served_model_name", "profile", "suite_duration_s")
    summary_rows = [[c, _fmt(row.get(c))] for c in summary_columns]
    failed = row.get("failed_checks") or []
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{_e(row.get('host_group'))} {_e(row.get('release_id'))}: {verdict}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>Release <code>{_e(row.get('release_id'))}</code> on {_e(row.get('host_group'))} "
        f"<span class='badge {'passed' if accepted else 'failed'}'>{verdict}</span></h1>",
        f"<p class='failed'>Failed checks: {_e(', '.join(failed))}</p>" if failed else "",
        _table(["", ""], summary_rows),
        _verdict_section(acceptance) if acceptance.get("checks") else "<h2>Acceptance checks</h2><p>Not run.</p>",
        _numbers_section(row),
        _reserves_section(row),
        "<h2>Plots</h2>" + ("".join(figures) if figures else "<p>No plots.</p>"),
        _comparison_section(comparison),
        _params_section(row),
        ("<h2>Notes</h2><ul>" + "".join(f"<li>{_e(n)}</li>" for n in notes) + "</ul>") if notes else "",
        f"<p class='skipped'>Ledger columns: {_e(', '.join(LEDGER_COLUMNS))}.</p>",
        "</body></html>",
    ]
    write_atomic(out, "\n".join(p for p in parts if p).encode("utf-8"))
    plots = [name for name, _unused, _unused in images]
    return {"report_path": str(out), "image_files": image_files, "plots": plots, "notes": notes}
