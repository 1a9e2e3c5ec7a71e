"""The planner's KV and weight math against vLLM startup logs published in issues and write-ups.

Corpus: ``tests/fixtures/published-gpu-logs/entries.jsonl`` (provenance in its README). Every entry quotes
what its source shows; nothing here is fitted to it. The planner gets the *logged* available KV memory and
must land on the logged KV tokens (or blocks, or "GiB needed", or estimated max length) within 0.5 %; where
the log prints the weights and the config fixes the tensor list, the weights per GPU within 2 %. Entries the
math does not explain yet are kept, with the reason, and asserted to still disagree, so a fix that explains
one shows up as a failure asking to promote it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kimi_deploy.kv_cache import (
    build_kv_cache_layout,
    estimate_max_model_len,
    kv_bytes_needed,
    kv_from_available_memory,
    log_capacity_formula,
)
from kimi_deploy.model_profile import load_profile, load_profile_from_path
from kimi_deploy.sizing import parse_version
from kimi_deploy.tensor_sharding import WeightInventory, WeightLayout, records_from_config

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "fixtures" / "published-gpu-logs" / "entries.jsonl"
GiB = 1024**3
KV_TOLERANCE = 0.005
WEIGHTS_TOLERANCE = 0.02
LAYOUT_KINDS = {"dense_gqa", "mla", "sliding_window", "hybrid_linear", "moe", "quantized"}

ENTRIES = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


def _profile(entry):
    config = entry["config"]
    if "path" in config:
        return load_profile_from_path(REPO / config["path"], name=entry["model"])
    return load_profile({k: v for k, v in config.items() if not k.startswith("_")}, name=entry["model"])


def _layout(entry):
    launch = entry["launch"]
    return build_kv_cache_layout(_profile(entry), tp=launch.get("tp") or 1, dcp=launch.get("dcp") or 1,
                                 kv_cache_dtype=launch.get("kv_cache_dtype") or "auto",
                                 block_size=launch.get("block_size") or 16,
                                 prefix_caching=bool(launch.get("enable_prefix_caching")))


def predictions(entry) -> dict[str, float]:
    """The planner's figure for every logged figure it can compute, keyed like ``entry["logged"]``."""
    if not entry.get("config"):
        return {}
    logged, launch = entry["logged"], entry["launch"]
    layout = _layout(entry)
    out: dict[str, float] = {}
    length = launch.get("max_model_len")
    if "available_kv_gib" in logged:
        available = int(logged["available_kv_gib"] * GiB)
        kv = kv_from_available_memory(layout, available, length)
        if "gpu_blocks" in logged:
            out["gpu_blocks"] = kv.num_blocks
        formula = "blocks" if entry["engine"] == "v0" else log_capacity_formula(parse_version(entry["vllm_version"]))
        if formula == "concurrency" and kv.capacity_tokens is not None:
            out["kv_tokens"] = kv.capacity_tokens
        elif formula == "blocks" or len(layout.groups) == 1:
            # The older line; for one group at a block-aligned length both lines agree.
            out["kv_tokens"] = kv.blocks_formula_tokens
        if "estimated_max_model_len" in logged:
            out["estimated_max_model_len"] = estimate_max_model_len(layout, available, length)
    if "kv_needed_gib" in logged and length:
        out["kv_needed_gib"] = kv_bytes_needed(layout, length) / GiB
    if "weights_gib" in logged:
        profile = _profile(entry)
        try:
            records = records_from_config(profile)
        except Exception:  # quantized, MLA, vision: the config does not fix the tensor list
            records = None
        if records is not None:
            weights = WeightInventory.from_records(records, profile)
            stage = weights.per_stage(WeightLayout(tp=launch.get("tp") or 1))[0]
            out["weights_gib"] = stage.total_bytes / GiB
    return {k: v for k, v in out.items() if k in logged}


def _error(predicted: float, logged: float) -> float:
    return (predicted - logged) / logged


def test_corpus_is_what_the_issue_asks_for():
    assert len(ENTRIES) >= 20
    kinds = set().union(*(set(e["kinds"]) for e in ENTRIES))
    assert kinds >= LAYOUT_KINDS
    ids = [e["id"] for e in ENTRIES]
    assert len(ids) == len(set(ids))
    for entry in ENTRIES:
        assert entry["source"]["url"].startswith("https://"), entry["id"]
        assert entry["quote"] and entry["logged"], entry["id"]
        assert {"vllm_version", "gpu", "layout", "launch"} <= set(entry), entry["id"]
        assert entry["expect"] in ("match", "unexplained", "report"), entry["id"]
        if entry["expect"] != "match":
            assert entry.get("reason"), f"{entry['id']}: say why it is not (yet) explained"
        if entry["config"]:
            assert entry["config"].get("_source"), f"{entry['id']}: the config needs its source"


MATCHES = [e for e in ENTRIES if e["expect"] == "match"]


@pytest.mark.parametrize("entry", MATCHES, ids=[e["id"] for e in MATCHES])
def test_planner_reproduces_the_logged_kv_figures(entry):
    predicted = predictions(entry)
    kv_keys = {"kv_tokens", "gpu_blocks", "kv_needed_gib", "estimated_max_model_len"} & set(predicted)
    assert kv_keys, f"{entry['id']}: nothing to compare"
    for key in kv_keys:
        assert abs(_error(predicted[key], entry["logged"][key])) <= KV_TOLERANCE, \
            (entry["id"], key, predicted[key], entry["logged"][key])


WEIGHTS = [e for e in MATCHES if "weights_gib" in predictions(e)]


@pytest.mark.parametrize("entry", WEIGHTS, ids=[e["id"] for e in WEIGHTS])
def test_planner_weights_per_gpu_match_the_log(entry):
    predicted = predictions(entry)["weights_gib"]
    assert abs(_error(predicted, entry["logged"]["weights_gib"])) <= WEIGHTS_TOLERANCE, (predicted, entry["logged"])


def test_some_weights_are_checked():
    assert WEIGHTS, "at least one entry must check weights per GPU against a log"


UNEXPLAINED = [e for e in ENTRIES if e["expect"] == "unexplained" and predictions(e)]


@pytest.mark.parametrize("entry", UNEXPLAINED, ids=[e["id"] for e in UNEXPLAINED])
def test_unexplained_entries_still_disagree(entry):
    """If this fails, the planner now explains the entry: move it to ``expect: match`` and say why."""
    predicted = predictions(entry)
    worst = max(abs(_error(v, entry["logged"][k])) for k, v in predicted.items())
    assert worst > KV_TOLERANCE, (entry["id"], predicted)
