"""The kimi_vllm_plan module: option handling, read-only behaviour, refusals, the three model sources."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import kimi_vllm_plan
import pytest
from module_harness import run_module
from repo_paths import REPO

K3 = REPO / "data" / "models" / "kimi-k3"


def h200_nodes(count: int) -> list[dict]:
    return [{"name": f"h200-{i}", "memory_total_mib": 2_000_000, "cpu_count": 192,
             "gpus": [{"name": "NVIDIA H200", "memory_total_mib": 143_771, "compute_capability": "9.0"}] * 8}
            for i in range(count)]


K3_ARGS = {"model_config": str(K3 / "config.json"), "tensor_table": str(K3 / "tensor-table.json"),
           "model_name": "Kimi-K3", "max_input_tokens": 32_768, "max_output_tokens": 8_192, "concurrency": 8,
           "vllm_version": "0.32.0"}


@pytest.mark.parametrize("check_mode", [False, True])
def test_plans_k3_on_two_h200_nodes_without_changing_anything(check_mode):
    result = run_module(kimi_vllm_plan, {**K3_ARGS, "nodes": h200_nodes(2)}, check_mode=check_mode)
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] is False
    plan = result["plan"]
    assert plan["fits"] and plan["layout"]["pipeline_parallel_size"] == 2
    assert plan["max_model_len"] == 40_960 and plan["max_num_seqs"] == 8
    assert result["summary"] == plan["summary"] and "TP8 x PP2" in result["summary"]
    for key in ("serve_args", "env", "memory", "predicted_kv_tokens", "gpu_memory_utilization", "block_size",
                "kv_cache_dtype", "max_num_batched_tokens", "reasons"):
        assert key in plan


def test_refused_plan_fails_with_the_fix_unless_asked_not_to():
    failed = run_module(kimi_vllm_plan, {**K3_ARGS, "nodes": h200_nodes(1)})
    assert failed["failed"]
    assert "Smallest layout that fits: 2 nodes x 8, TP8 x PP2" in failed["msg"]
    assert failed["plan"]["fits"] is False
    printed = run_module(kimi_vllm_plan, {**K3_ARGS, "nodes": h200_nodes(1), "fail_when_unfit": False})
    assert not printed.get("failed") and printed["plan"]["suggested_layout"]["nnodes"] == 2


def test_model_config_may_be_a_mapping_and_overrides_pass_through():
    config = json.loads((K3 / "config.json").read_text())
    args = {**K3_ARGS, "model_config": config, "nodes": h200_nodes(2), "activation_reserve_bytes": 3 * 2**30,
            "pp_layer_partition": [48, 45], "enable_prefix_caching": True}
    plan = run_module(kimi_vllm_plan, args)["plan"]
    assert plan["memory"]["activation_reserve_bytes"] == 3 * 2**30
    assert plan["env"]["VLLM_PP_LAYER_PARTITION"] == "48,45"
    assert "--enable-prefix-caching" in plan["serve_args"]
    assert plan["memory"]["blocks_per_request"] == -(-40_960 // 768) + 3 * 2  # align mode keeps 2 states


def test_model_dir_on_the_cpu_build(tmp_path):
    subprocess.run([sys.executable, str(REPO / "tools/build_tiny_model.py"), "--arch", "llama", "--out",
                    str(tmp_path)], check=True, capture_output=True)
    result = run_module(kimi_vllm_plan, {
        "model_dir": str(tmp_path), "max_model_len": 512, "concurrency": 4, "vllm_version": "0.32.0+cpu",
        "nodes": [{"name": "localhost", "gpus": [], "memory_total_mib": 8000, "cpu_count": 2}]})
    plan = result["plan"]
    assert plan["fits"] and plan["platform"] == "cpu"
    assert plan["predicted_kv_tokens"] == int((4 * 4 + 1) / 4 * 512)
    assert "--kv-cache-memory-bytes" in plan["serve_args"]


def test_hf_repo_reads_config_and_headers_from_the_hub(monkeypatch, tmp_path):
    import huggingface_hub
    from kimi_deploy.core import sizing

    (tmp_path / "config.json").write_text((K3 / "config.json").read_text())
    monkeypatch.setattr(huggingface_hub, "hf_hub_download",
                        lambda repo, name, revision=None, endpoint=None, token=None: str(tmp_path / "config.json"))
    from kimi_deploy.core.tensor_sharding import records_from_tensor_table

    seen = {}

    def fake_records(repo, revision, endpoint, token):
        seen.update(repo=repo, revision=revision, token=token)
        return records_from_tensor_table(K3 / "tensor-table.json")

    monkeypatch.setattr(sizing, "records_from_hub", fake_records)
    args = {key: value for key, value in K3_ARGS.items() if key not in ("model_config", "tensor_table")}
    result = run_module(kimi_vllm_plan, {**args, "hf_repo": "moonshotai/Kimi-K3", "revision": "9f62e4e9",
                                         "hf_token": "hf_secret", "nodes": h200_nodes(2)})
    assert result["plan"]["fits"]
    assert seen == {"repo": "moonshotai/Kimi-K3", "revision": "9f62e4e9", "token": "hf_secret"}
    assert "hf_secret" not in json.dumps(result)


@pytest.mark.parametrize(("args", "message"), [
    ({"model_dir": "/nonexistent", "model_config": "x.json"}, "mutually exclusive"),
    ({"model_config": str(K3 / "config.json")}, "tensor_table"),
    ({"hf_repo": "moonshotai/Kimi-K3"}, "revision"),
    ({"model_dir": "/nonexistent"}, "no config.json"),
])
def test_bad_option_combinations_fail(args, message):
    base = {"nodes": h200_nodes(1), "max_model_len": 1024}
    result = run_module(kimi_vllm_plan, {**base, **args})
    assert result["failed"] and message in result["msg"]


def test_documentation_parses():
    # The venv's own, else the one on the PATH (ansible-test's venvs have no ansible bin/ of their own).
    ansible_doc = shutil.which("ansible-doc", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    out = subprocess.run([ansible_doc, "-t", "module", "--json",
                          "kimi.deploy.kimi_vllm_plan"], cwd=REPO, capture_output=True, text=True, check=True)
    doc = json.loads(out.stdout)["kimi.deploy.kimi_vllm_plan"]["doc"]
    assert doc["options"]["hf_token"]["type"] == "str"
    assert doc["attributes"]["check_mode"]["support"] == "full"


def test_a_pinned_calibration_file_feeds_the_plan_and_marks_the_items():
    from kimi_deploy.core import calibration, vllm_log

    args = {**K3_ARGS, "nodes": h200_nodes(2), "model_revision": "9f62e4e9"}
    estimated = run_module(kimi_vllm_plan, args)["plan"]
    assert estimated["calibration"]["in_use"] is False and estimated["env"]["VLLM_ENABLE_STARTUP_PLAN"] == "0"
    facts = vllm_log.memory_profile((REPO / "tests/fixtures/vllm-memory-logs/v0.32-info.log").read_text())
    content = calibration.build(key=estimated["calibration"]["key"], measured=facts, source={"release_id": "r1"})
    assert content["key"]["gpu_model"] == "NVIDIA H200" and content["key"]["model_repo"] == "Kimi-K3"
    result = run_module(kimi_vllm_plan, {**args, "calibration": json.loads(calibration.dumps(content)),
                                         "calibration_start": True})
    plan = result["plan"]
    assert plan["calibration"]["in_use"] and plan["memory"]["sources"]["activation_reserve_bytes"] == "measured"
    assert plan["memory"]["activation_reserve_bytes"] == content["reserves"]["activation_reserve_bytes"]
    assert plan["env"]["VLLM_LOGGING_LEVEL"] == "DEBUG"
    assert "activations measured" in result["summary"]


def test_options_are_the_plan_option_fields_and_documented():
    """The planner's knobs come from PlanOptions' fields; DOCUMENTATION and argument_spec list the same options."""
    import yaml
    from kimi_deploy.core.sizing import PlanOptions

    documented = yaml.safe_load(kimi_vllm_plan.DOCUMENTATION)["options"]
    assert set(documented) == set(kimi_vllm_plan.ARGUMENT_SPEC)
    assert set(kimi_vllm_plan.PLAN_OPTION_KEYS) <= set(kimi_vllm_plan.ARGUMENT_SPEC)
    for name, spec in kimi_vllm_plan.ARGUMENT_SPEC.items():
        assert documented[name]["type"] == spec["type"], name
        assert documented[name].get("default") == spec.get("default"), name
        assert documented[name].get("choices") == spec.get("choices"), name
    options = kimi_vllm_plan.plan_options({**{k: s.get("default") for k, s in kimi_vllm_plan.ARGUMENT_SPEC.items()},
                                           "pp_layer_partition": [30, 31], "extra_args": ["--seed", "7"]})
    assert options == PlanOptions(pp_layer_partition=(30, 31), extra_args=("--seed", "7"), extra_env={})


def test_the_backend_and_the_operators_flags_go_through_the_planner():
    args = {**K3_ARGS, "nodes": h200_nodes(2), "distributed_executor_backend": "ray", "extra_args": ["--seed", "7"],
            "extra_env": {"NCCL_IB_HCA": "mlx5"}}
    plan = run_module(kimi_vllm_plan, args)["plan"]
    assert plan["serve_flags"]["distributed_executor_backend"] == "ray"
    assert plan["serve_args"][-4:] == ["--distributed-executor-backend", "ray", "--seed", "7"]
    assert plan["env"]["NCCL_IB_HCA"] == "mlx5"


def test_declared_input_forms_decide_vision_and_images_without_a_processor_config_are_refused():
    text_tools = run_module(kimi_vllm_plan, {**K3_ARGS, "nodes": h200_nodes(2), "input_forms": ["text", "tools"]})
    assert not text_tools.get("failed"), text_tools.get("msg")
    assert "--language-model-only" in text_tools["plan"]["serve_args"]
    assert text_tools["plan"]["model_forms"]["declared_input_forms"] == ["text", "tools"]
    # data/models/kimi-k3 has config.json only: the per-image tokens cannot be computed, so images are refused.
    images = run_module(kimi_vllm_plan, {**K3_ARGS, "nodes": h200_nodes(2), "input_forms": ["text", "image"]})
    assert images["failed"] and "cannot take images" in images["msg"] and "preprocessor_config.json" in images["msg"]
