"""Replay the published GPU log corpus through the planner (shared by the test and the README table).

    python tests/unit/published_logs.py --write    # refresh the table in the corpus README
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if __name__ == "__main__":  # run as a script: make the library importable the way conftest does
    sys.path.insert(0, str(REPO / "plugins" / "module_utils"))

from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.kv_cache import (
    build_kv_cache_layout,
    estimate_max_model_len,
    kv_bytes_needed,
    kv_from_available_memory,
    log_capacity_formula,
)
from kimi_deploy.core.model_profile import load_profile, load_profile_from_path
from kimi_deploy.core.sizing import parse_version
from kimi_deploy.core.tensor_sharding import WeightInventory, WeightLayout, records_from_config

CORPUS_DIR = REPO / "tests" / "fixtures" / "published-gpu-logs"
CORPUS = CORPUS_DIR / "entries.jsonl"
README = CORPUS_DIR / "README.md"
TABLE_START, TABLE_END = "<!-- table:start -->", "<!-- table:end -->"
GiB = 1024**3
COUNTS = ("kv_tokens", "gpu_blocks", "estimated_max_model_len")

ENTRIES = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


def profile_of(entry):
    config = entry["config"]
    if "path" in config:
        return load_profile_from_path(REPO / config["path"], name=entry["model"])
    return load_profile({k: v for k, v in config.items() if not k.startswith("_")}, name=entry["model"])


def layout_of(entry):
    launch = entry["launch"]
    return build_kv_cache_layout(profile_of(entry), tp=launch.get("tp") or 1, dcp=launch.get("dcp") or 1,
                                 kv_cache_dtype=launch.get("kv_cache_dtype") or "auto",
                                 block_size=launch.get("block_size") or 16,
                                 prefix_caching=bool(launch.get("enable_prefix_caching")))


def predictions(entry) -> dict[str, float]:
    """The planner's figure for every logged figure it can compute, keyed like ``entry["logged"]``."""
    if not entry.get("config"):
        return {}
    logged, launch = entry["logged"], entry["launch"]
    layout = layout_of(entry)
    out: dict[str, float] = {}
    length = launch.get("max_model_len")
    if "available_kv_gib" in logged:
        available = int(logged["available_kv_gib"] * GiB)
        kv = kv_from_available_memory(layout, available, length)
        out["gpu_blocks"] = kv.num_blocks
        formula = "blocks" if entry["engine"] == "v0" else log_capacity_formula(parse_version(entry["vllm_version"]))
        if formula == "concurrency" and kv.capacity_tokens is not None:
            out["kv_tokens"] = kv.capacity_tokens
        elif formula == "blocks" or len(layout.groups) == 1:
            # The older line; for one group at a block-aligned length both lines agree.
            out["kv_tokens"] = kv.blocks_formula_tokens
        if length:
            out["estimated_max_model_len"] = estimate_max_model_len(layout, available, length)
    if length:
        out["kv_needed_gib"] = kv_bytes_needed(layout, length) / GiB
    if "weights_gib" in logged:
        profile = profile_of(entry)
        try:
            records = records_from_config(profile)
        except KimiDeployError:  # quantized, MLA, vision: the config does not fix the tensor list
            records = None
        if records is not None:
            stage = WeightInventory.from_records(records, profile).per_stage(WeightLayout(tp=launch.get("tp") or 1))[0]
            out["weights_gib"] = stage.total_bytes / GiB
    return {k: v for k, v in out.items() if k in logged}


def error(predicted: float, logged: float) -> float:
    return (predicted - logged) / logged


def _fmt(key: str, value: float) -> str:
    return f"{value:,.0f}" if key in COUNTS else f"{value:.4g}"


def table_rows() -> list[str]:
    rows = []
    for e in ENTRIES:
        cells = [f"{k} {_fmt(k, v)} vs {_fmt(k, e['logged'][k])} ({100 * error(v, e['logged'][k]):+.2f} %)"
                 for k, v in predictions(e).items()]
        if not cells and e["config"] and "available_kv_gib" in e["logged"]:
            layout = layout_of(e)
            kv = kv_from_available_memory(layout, int(e["logged"]["available_kv_gib"] * GiB),
                                          e["launch"].get("max_model_len"))
            dcp = f" x DCP {layout.dcp}" if layout.dcp > 1 else ""
            cap = (f", capacity at {e['launch']['max_model_len']:,}: {kv.capacity_tokens:,}"
                   if kv.capacity_tokens else "")
            cells.append(f"pool {kv.num_blocks:,} blocks x {kv.block_size}{dcp} = "
                         f"{kv.num_blocks * kv.block_size * layout.dcp:,} tokens{cap} (no logged token figure to test)")
        launch, gib = e["launch"], e["logged"].get("available_kv_gib")
        rows.append(f"| `{e['id']}` | {', '.join(e['kinds'])} | {e['vllm_version'] or 'not stated'} | {e['gpu']} | "
                    f"{launch.get('tp') or '?'} | {launch.get('max_model_len') or 'not stated'} | "
                    f"{gib if gib is not None else '-'} | {'; '.join(cells) or '-'} | {e['expect']} |")
    return rows


def rendered_readme() -> str:
    text = README.read_text(encoding="utf-8")
    head, rest = text.split(TABLE_START, 1)
    _unused, tail = rest.split(TABLE_END, 1)
    header = ("| id | kinds | vLLM | GPU | TP | max_model_len | available KV GiB | planner vs log | status |\n"
              "|---|---|---|---|---|---|---|---|---|\n")
    return head + TABLE_START + "\n" + header + "\n".join(table_rows()) + "\n" + TABLE_END + tail


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        README.write_text(rendered_readme(), encoding="utf-8")
    else:
        sys.stdout.write("\n".join(table_rows()) + "\n")
