"""Calibration: the planner's predicted KV capacity equals what the real vLLM (CPU build) allocates.

For each tiny model the project builds (Llama-style GQA, DeepSeek-V3-style MLA + MoE, Qwen3-MoE),
the planner sizes the KV space from a business need (8 requests of 1024 tokens, the bytes computed
by the planner), and for the Llama-style model also from an explicit 1 GiB. vLLM is started with the
plan's own ``serve_args`` and environment; its ``CPU KV cache size: N tokens`` log line and the
``kv_cache_size_tokens`` label of ``vllm:cache_config_info`` in ``/metrics`` must both equal
``plan["predicted_kv_tokens"]``.

Set ``KIMI_CALIBRATION_RECORD=<file>`` to append each case's figures as a JSON line.
"""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path

import pytest
from kimi_deploy.core.sizing import BusinessNeed
from kimi_deploy.core.vllm_log import kv_cache_tokens, metrics_kv_cache_tokens
from vllm_server import VllmServer, plan_for, planned_env

FIRST_PORT = 8101
# Each case is one cold start of the CPU build (about a minute on the CI machine), except the explicit
# 1 GiB budget on the dense model: that is the session's planned llama (conftest.planned_llama), which
# the acceptance suite runs against too. MLA and MoE run at the budget the business need gives.
CASES = [("llama", "need"), ("llama", "1GiB"), ("deepseek_v3", "need"), ("qwen3_moe", "need")]
NEED = BusinessNeed(max_model_len=1024, concurrency=8)


def _measured(server: VllmServer) -> tuple[int | None, int | None]:
    """The KV tokens the server logged at start and reports in /metrics."""
    logged = kv_cache_tokens(server.log_text())
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as resp:
        return logged, metrics_kv_cache_tokens(resp.read().decode())


@pytest.mark.parametrize(("arch", "kv"), CASES, ids=[f"{a}-{k}" for a, k in CASES])
def test_predicted_kv_tokens_equal_vllm(arch, kv, tiny_models, vllm_venv, request):
    if kv == "1GiB":
        server = request.getfixturevalue("planned_llama")
        plan = server.plan
        assert server.model_dir == tiny_models(arch)
        logged, metric = _measured(server)
    else:
        model = tiny_models(arch)
        plan = plan_for(model, NEED)
        port = FIRST_PORT + CASES.index((arch, kv))
        with VllmServer(model, port=port, args=plan["serve_args"], env=planned_env(plan),
                        log_path=Path(f"/tmp/kimi-calibration-{arch}-{kv}.log")) as server:
            server.wait_healthy(timeout=420)
            logged, metric = _measured(server)
    assert plan["fits"], plan["reasons"]
    assert "--kv-cache-memory-bytes" in plan["serve_args"]

    record = {"arch": arch, "kv": kv, "kv_cache_memory_bytes": plan["memory"]["kv_budget_bytes"],
              "block_size": plan["block_size"], "predicted": plan["predicted_kv_tokens"], "logged": logged,
              "metrics": metric}
    if os.environ.get("KIMI_CALIBRATION_RECORD"):
        with open(os.environ["KIMI_CALIBRATION_RECORD"], "a", encoding="utf-8") as fh:
            fh.write(json.dumps(record) + "\n")
    assert logged == plan["predicted_kv_tokens"], record
    assert metric == plan["predicted_kv_tokens"], record
