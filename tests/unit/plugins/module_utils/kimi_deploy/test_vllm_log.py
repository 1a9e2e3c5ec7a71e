"""One parser for every fact read from vLLM's output (vllm_log): the KV tokens, /metrics, and each memory item
of the profile, in every wording found (vLLM 0.32 INFO and DEBUG, V1 0.9-0.31, V0 0.7-0.8, V0 0.6.4-0.6.6,
the CPU build), checked on the published GPU logs and the CPU build's own logs."""

from __future__ import annotations

import json

import pytest
from kimi_deploy.core import vllm_log
from repo_paths import FIXTURES

GiB = 1024**3


def gib(x: float) -> int:
    return round(x * GiB)


# --- the KV tokens and /metrics ---------------------------------------------------------------------------

def test_kv_tokens_from_every_pool_wording_last_start_wins():
    cpu = ("(EngineCore pid=23095) INFO 11-30 07:08:51 [kv_cache_utils.py:2327] CPU KV cache size: 1,048,576 "
           "tokens, Maximum concurrency for 512 tokens per request: 2048.00x")
    gpu = "(EngineCore_DP0 pid=1) INFO [kv_cache_utils.py:1087] GPU KV cache size: 35,760 tokens"
    assert vllm_log.kv_cache_tokens(cpu) == 1_048_576
    assert vllm_log.kv_cache_tokens(gpu) == 35_760
    assert vllm_log.kv_cache_tokens(f"{gpu}\nrestart...\n{cpu}\n") == 1_048_576  # the running server's line
    assert vllm_log.kv_cache_tokens("GPU + host KV cache size: 12 tokens") == 12
    assert vllm_log.kv_cache_tokens("nothing here") is None
    assert vllm_log.kv_cache_tokens("") is None


def test_metrics_kv_tokens():
    metrics = ('vllm:cache_config_info{block_size="128",kv_cache_memory_bytes="1073741824",'
               'kv_cache_size_tokens="2097152",num_gpu_blocks="16384"} 1.0')
    assert vllm_log.metrics_kv_cache_tokens(metrics) == 2_097_152
    assert vllm_log.metrics_kv_cache_tokens("") is None


def test_no_other_module_keeps_a_kv_tokens_parser():
    """Issue 12: one parser per vLLM fact. The ledger and kv_cache used to carry their own."""
    from kimi_deploy.core import kv_cache, ledger

    assert not hasattr(ledger, "kv_tokens_from_log")
    assert not hasattr(kv_cache, "logged_kv_cache_tokens") and not hasattr(kv_cache, "metrics_kv_cache_tokens")
    calibration_test = (FIXTURES.parent / "integration" / "test_calibration.py").read_text()
    assert "from kimi_deploy.core.vllm_log import" in calibration_test


# --- the memory items, per wording ------------------------------------------------------------------------

MEMORY_LOGS = FIXTURES / "vllm-memory-logs"  # one start each; README.md there says where each wording is from
V032_INFO = (MEMORY_LOGS / "v0.32-info.log").read_text()
V032_DEBUG = (MEMORY_LOGS / "v0.32-debug.log").read_text()
V1_0_10 = (MEMORY_LOGS / "v0.10-info-debug.log").read_text()
V0_08 = (MEMORY_LOGS / "v0.8-v0-engine.log").read_text()
V0_06 = (MEMORY_LOGS / "v0.6-v0-engine.log").read_text()


def test_vllm_032_info_gives_every_reserve_and_says_how():
    p = vllm_log.memory_profile(V032_INFO)
    assert p["items"] == {
        "requested_bytes": gib(129.17), "weights_bytes": gib(96.48), "kv_budget_bytes": gib(23.75),
        "cudagraph_reserve_bytes": gib(2.10),
        "non_torch_reserve_bytes": gib(98.48) - gib(96.48),
        # 0.32 prints peak activation with the CUDA-graph estimate it applied folded in
        "activation_reserve_bytes": gib(6.94) - gib(2.10),
    }
    assert p["from"]["activation_reserve_bytes"] == "logged: peak activation - estimated CUDA graph memory"
    assert p["kv_tokens"] == 1_612_800 and p["gpu_memory_utilization"] == 0.92
    assert p["cudagraph_actual_bytes"] == gib(1.97) and p["profiling"] == "measured" and not p["debug"]
    assert "out_of_pool_reserve_bytes" in p["not_measured"]  # CUDA context, MXFP4 workspace: never logged
    # vLLM's own identity holds on what was read: available = requested - everything else
    items = p["items"]
    assert abs(items["requested_bytes"] - sum(items[k] for k in ("weights_bytes", *vllm_log.RESERVE_ITEMS))
               - items["kv_budget_bytes"]) <= 2 * vllm_log.LOG_RESOLUTION_BYTES


def test_vllm_032_debug_breakdown_wins_over_info():
    p = vllm_log.memory_profile(V032_DEBUG)
    assert p["debug"]
    assert p["items"]["activation_reserve_bytes"] == gib(103.32) - gib(98.48)
    assert p["from"]["activation_reserve_bytes"].startswith("logged (profile)")
    assert p["items"]["weights_bytes"] == gib(96.48)


@pytest.mark.parametrize(("text", "expected"), [
    (V1_0_10, {"requested_bytes": gib(18.82), "weights_bytes": gib(8.80), "kv_budget_bytes": gib(8.60),
               "non_torch_reserve_bytes": gib(0.02), "activation_reserve_bytes": gib(1.40),
               "cudagraph_reserve_bytes": 0}),
    (V0_08, {"requested_bytes": gib(37.41), "weights_bytes": gib(34.43), "kv_budget_bytes": gib(0.13),
             "non_torch_reserve_bytes": gib(0.34), "activation_reserve_bytes": gib(2.51)}),
    (V0_06, {"weights_bytes": gib(14.9888), "kv_budget_bytes": gib(3.81), "non_torch_reserve_bytes": gib(0.35)}),
], ids=["v1-0.10", "v0-0.8", "v0-0.6"])
def test_earlier_wordings(text, expected):
    p = vllm_log.memory_profile(text)
    assert {k: p["items"].get(k) for k in expected} == expected


def test_estimate_disabled_means_nothing_subtracted():
    text = V032_INFO.replace("CUDA graph memory profiling is enabled", "CUDA graph memory profiling is disabled")
    p = vllm_log.memory_profile(text)
    assert p["items"]["cudagraph_reserve_bytes"] == 0
    assert p["items"]["activation_reserve_bytes"] == gib(6.94)


@pytest.mark.parametrize("skip_line", [
    "INFO [gpu_worker.py:660] Initial free memory 139.9 GiB, reserved 25.00 GiB memory for KV Cache as specified by "
    "kv_cache_memory_bytes config and skipped memory profiling.",
    "INFO [startup_plan.py:150] Applying persisted startup plan (fingerprint 0123abcd4567ef89): "
    "kv_cache_memory_bytes=26843545600 (25.00 GiB), recorded free-memory baseline 139.90 GiB, current 139.90 GiB. "
    "Memory profiling will be skipped.",
])
def test_a_start_that_skipped_profiling_measures_no_reserve(skip_line):
    p = vllm_log.memory_profile(skip_line + "\n" + V032_INFO.split("\n", 1)[0])
    assert p["profiling"] == "skipped"
    assert not set(vllm_log.RESERVE_ITEMS) & set(p["items"])
    assert all("skipped" in p["not_measured"][k] for k in vllm_log.RESERVE_ITEMS)


def test_version_and_cudagraph_estimate_for_the_diagnosis():
    assert vllm_log.vllm_version("INFO [api_server.py:1] vLLM API server version 0.32.0") == "0.32.0"
    assert vllm_log.cudagraph_estimate_gib(V032_INFO) == 2.10
    assert vllm_log.cudagraph_estimate_gib("nothing") is None


# --- the published GPU logs -------------------------------------------------------------------------------

_LOGGED_AS = {"weights_gib": "weights_bytes", "non_torch_gib": "non_torch_reserve_bytes",
              "activation_gib": "activation_reserve_bytes", "available_kv_gib": "kv_budget_bytes"}
# Figures a source gives in prose or in an error message, not in a line vLLM logs at start.
_NOT_LOG_LINES = {
    ("llama31-8b-rtx3090-29k", "kv_tokens"), ("llama31-8b-rtx3090-29k", "weights_gib"),
    ("deepseek-v2-lite-need-32k", "available_kv_gib"), ("minimax-m2.7-awq-spark-tp2-util085", "available_kv_gib"),
    ("minimax-m2.7-awq-spark-tp2-util085", "kv_tokens"), ("kimi-k3-tp8-fp8-pr50055", "available_kv_gib"),
    ("kimi-k3-tp8-fp8-pr50055", "kv_tokens"), ("kimi-k3-tp8-dcp8-fp8-pr50055", "available_kv_gib"),
    ("kimi-k3-tp8-dcp8-fp8-pr50055", "kv_tokens"), ("kimi-linear-48b-awq-rtx3090-tp2", "available_kv_gib"),
    ("gemma-4-31b-nvfp4-h100", "weights_gib"), ("gemma-4-31b-nvfp4-h100", "kv_tokens"),
    ("unidentified-fp8-kv-100k", "weights_gib"),
}
ENTRIES = [json.loads(line) for line in (FIXTURES / "published-gpu-logs" / "entries.jsonl").read_text().splitlines()
           if line.strip()]


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_published_gpu_logs_parse_to_the_logged_figures(entry):
    p = vllm_log.memory_profile("\n".join(entry["quote"]))
    got: dict = {k: round(p["items"][item] / GiB, 4) for k, item in _LOGGED_AS.items() if item in p["items"]}
    if p["kv_tokens"] is not None:
        got["kv_tokens"] = p["kv_tokens"]
    if p["gpu_blocks"] is not None:
        got["gpu_blocks"] = p["gpu_blocks"]
    expected = {k: v for k, v in entry["logged"].items()
                if k in (*_LOGGED_AS, "kv_tokens", "gpu_blocks") and (entry["id"], k) not in _NOT_LOG_LINES}
    assert got == expected


def test_published_logs_cover_every_memory_wording():
    parsed = [vllm_log.memory_profile("\n".join(e["quote"]))["from"] for e in ENTRIES]
    sources = {s for p in parsed for s in p.values()}
    assert {"logged: model loading took", "logged: available KV cache memory",
            "logged (profile): weights memory", "logged (profile): non-torch memory",
            "logged (profile): torch peak memory increase"} <= sources


# --- the CPU build's own logs (tests/fixtures/vllm-logs) ---------------------------------------------------

@pytest.mark.parametrize("name", ["trust_remote_code_given.log", "over_long_request.log",
                                  "clean_shutdown_engine_dead_noise.log", "tokenizer_vocab_larger_than_model.log"])
def test_cpu_build_logs_give_the_kv_space_and_tokens_and_no_reserve(name):
    p = vllm_log.memory_profile((FIXTURES / "vllm-logs" / name).read_text())
    assert p["kv_tokens"] == 2_097_152
    assert p["items"] == {"kv_budget_bytes": GiB}
    assert p["profiling"] == "skipped"  # --kv-cache-memory-bytes / VLLM_CPU_KVCACHE_SPACE: nothing profiled
