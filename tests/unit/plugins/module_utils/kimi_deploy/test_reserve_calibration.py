"""Calibration (issue 15 §1): a chosen start's measured reserves become a pinned file; the planner uses them where
the file's key matches, marks each item measured or estimated, and a start whose reserves differ moves the KV
budget by exactly the difference. Drift of more than 2 % is reported."""

from __future__ import annotations

import json

import pytest
from kimi_deploy.core import calibration as cal
from kimi_deploy.core import vllm_log
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.model_profile import load_profile_from_path
from kimi_deploy.core.sizing import BusinessNeed, GiB, PlanOptions, plan_deployment
from kimi_deploy.core.tensor_sharding import WeightInventory, records_from_tensor_table
from repo_paths import REPO

LOGS = REPO / "tests" / "fixtures" / "vllm-memory-logs"
NEED = BusinessNeed.from_tokens(max_input_tokens=32_768, max_output_tokens=8_192, concurrency=16)
H200_NODES = [{"name": f"gpu{i}", "memory_total_mib": 2_064_000, "cpu_count": 224,
               "gpus": [{"index": g, "name": "NVIDIA H200", "memory_total_mib": 143_771, "compute_capability": "9.0"}
                        for g in range(8)]} for i in range(2)]
IDENTITY = {"gpu_model": "NVIDIA H200", "vllm_version": "0.32.0", "model_repo": "moonshotai/Kimi-K3",
            "model_revision": "9f62e4e9fffbd0a83ddd60e1c209d828994b3569"}


@pytest.fixture(scope="module")
def plan_fn():
    profile = load_profile_from_path(REPO / "data" / "models" / "kimi-k3", name="Kimi-K3")
    weights = WeightInventory.from_records(
        records_from_tensor_table(REPO / "data" / "models" / "kimi-k3" / "tensor-table.json"), profile)
    return lambda options: plan_deployment(profile, weights, H200_NODES, NEED, options)


OPTIONS = PlanOptions(vllm_version="0.32.0")


def _calibration_from(log_name: str, plan: dict) -> dict:
    measured = vllm_log.memory_profile((LOGS / log_name).read_text())
    key = cal.plan_key(gpu="NVIDIA H200", vllm_version="0.32.0", model_repo=IDENTITY["model_repo"],
                       model_revision=IDENTITY["model_revision"], plan=plan)
    return cal.build(key=key, measured=measured, source={"release_id": "0.32.0-abc", "log": log_name})


def test_file_round_trip_is_stable(plan_fn):
    plan = plan_fn(OPTIONS)
    content = _calibration_from("v0.32-info.log", plan)
    text = cal.dumps(content)
    assert cal.check(json.loads(text)) == content
    assert cal.dumps(json.loads(text)) == text  # the same start writes the same bytes
    assert content["key"]["layout"] == "tp8-pp2-dp1-ep0-dcp1-nodes2" and content["key"]["kv_cache_dtype"] == "bfloat16"
    assert set(content["reserves"]) == set(vllm_log.RESERVE_ITEMS)
    assert "out_of_pool_reserve_bytes" in content["estimated"]


def test_a_start_whose_reserves_differ_moves_the_kv_budget_by_exactly_the_difference(plan_fn):
    """The done-when test of issue 15 §1."""
    estimated = plan_fn(OPTIONS)
    first = _calibration_from("v0.32-info.log", estimated)
    second = _calibration_from("v0.32-info-reserves-differ.log", estimated)
    plan_a = cal.plan_with_calibration(plan_fn, OPTIONS, first, IDENTITY)
    plan_b = cal.plan_with_calibration(plan_fn, OPTIONS, second, IDENTITY)
    difference = sum(second["reserves"].values()) - sum(first["reserves"].values())
    assert difference == 3 * round(0.5 * GiB)
    assert plan_a["memory"]["kv_budget_bytes"] - plan_b["memory"]["kv_budget_bytes"] == difference
    # and against the estimates, each reserve is the measured one
    est_total = sum(estimated["memory"][k] for k in vllm_log.RESERVE_ITEMS)
    assert (plan_a["memory"]["kv_budget_bytes"] - estimated["memory"]["kv_budget_bytes"]
            == est_total - sum(first["reserves"].values()))
    for item, value in first["reserves"].items():
        assert plan_a["memory"][item] == value


def test_plan_marks_each_item_measured_or_estimated(plan_fn):
    estimated = plan_fn(OPTIONS)
    plan = cal.plan_with_calibration(plan_fn, OPTIONS, _calibration_from("v0.32-info.log", estimated), IDENTITY)
    assert plan["memory"]["sources"] == {
        "weights_bytes": "estimated", "activation_reserve_bytes": "measured", "non_torch_reserve_bytes": "measured",
        "cudagraph_reserve_bytes": "measured", "out_of_pool_reserve_bytes": "estimated"}
    assert plan["calibration"]["in_use"] and plan["calibration"]["key"]["layout"] == "tp8-pp2-dp1-ep0-dcp1-nodes2"
    assert "reserves (calibration in use): weights estimated, activations measured" in plan["summary"]
    plain = cal.plan_with_calibration(plan_fn, OPTIONS, None, IDENTITY)
    assert set(plain["memory"]["sources"].values()) == {"estimated"}
    assert "no calibration in use" in plain["summary"]
    # a reserve the operator sets by hand wins over the file, and says so
    given = cal.plan_with_calibration(plan_fn, PlanOptions(vllm_version="0.32.0", non_torch_reserve_bytes=GiB),
                                      _calibration_from("v0.32-info.log", estimated), IDENTITY)
    assert given["memory"]["sources"]["non_torch_reserve_bytes"] == "given"
    assert given["memory"]["non_torch_reserve_bytes"] == GiB


@pytest.mark.parametrize(("field", "value"), [("gpu_model", "NVIDIA H100 80GB HBM3"), ("vllm_version", "0.31.0"),
                                              ("model_revision", "0" * 40)])
def test_a_calibration_for_other_inputs_is_not_used(plan_fn, field, value):
    estimated = plan_fn(OPTIONS)
    plan = cal.plan_with_calibration(plan_fn, OPTIONS, _calibration_from("v0.32-info.log", estimated),
                                     {**IDENTITY, field: value})
    assert not plan["calibration"]["in_use"]
    assert plan["memory"]["kv_budget_bytes"] == estimated["memory"]["kv_budget_bytes"]
    assert any(field in w and "not used" in w for w in plan["warnings"])


def test_a_calibration_for_another_layout_is_not_used(plan_fn):
    estimated = plan_fn(OPTIONS)
    content = _calibration_from("v0.32-info.log", estimated)
    content["key"]["layout"] = "tp8-pp1-dp1-ep0-dcp1-nodes1"
    plan = cal.plan_with_calibration(plan_fn, OPTIONS, content, IDENTITY)
    assert not plan["calibration"]["in_use"]
    assert plan["memory"]["kv_budget_bytes"] == estimated["memory"]["kv_budget_bytes"]


def test_same_inputs_same_plan(plan_fn):
    """Idempotence: the plan depends on the pinned file only, never on what a start just measured."""
    estimated = plan_fn(OPTIONS)
    content = _calibration_from("v0.32-info.log", estimated)
    assert cal.plan_with_calibration(plan_fn, OPTIONS, content, IDENTITY) == \
        cal.plan_with_calibration(plan_fn, OPTIONS, content, IDENTITY)


def test_no_calibration_from_a_start_that_skipped_profiling():
    cpu = vllm_log.memory_profile((REPO / "tests/fixtures/vllm-logs/trust_remote_code_given.log").read_text())
    key = {**IDENTITY, "gpu_model": "cpu", "layout": "tp1-pp1-dp1-ep0-dcp1-nodes1", "kv_cache_dtype": "auto"}
    with pytest.raises(KimiDeployError, match="measured no reserve"):
        cal.build(key=key, measured=cpu, source={})
    with pytest.raises(KimiDeployError, match="model_revision"):
        cal.build(key={**key, "model_revision": ""}, measured=cpu, source={})
    with pytest.raises(KimiDeployError, match="schema"):
        cal.check({"schema": 0})


def test_drift_over_two_percent_is_reported():
    calibrated = {"activation_reserve_bytes": 5 * GiB, "non_torch_reserve_bytes": 2 * GiB,
                  "cudagraph_reserve_bytes": 0, "weights_bytes": 96 * GiB}
    same = dict(calibrated)
    assert cal.drift(calibrated, same) == []
    moved = {**calibrated, "activation_reserve_bytes": int(5 * GiB * 1.021),  # +2.1 %
             "non_torch_reserve_bytes": int(2 * GiB * 1.019),                 # +1.9 %: within
             "weights_bytes": 96 * GiB + 10 * 1024**2}                        # log rounding: within
    out = cal.drift(calibrated, moved)
    assert [d["item"] for d in out] == ["activation_reserve_bytes"] and out[0]["change_pct"] == 2.1
    assert "activation_reserve_bytes" in cal.drift_warning(out[0]) and "+2.10 %" in cal.drift_warning(out[0])
    assert cal.drift(calibrated, {"cudagraph_reserve_bytes": GiB})[0]["change_pct"] is None


def test_vllm_startup_plan_is_off_and_a_calibration_start_logs_at_debug(plan_fn):
    """vLLM 0.32's VLLM_ENABLE_STARTUP_PLAN would skip profiling with a KV size saved outside the release."""
    plan = cal.plan_with_calibration(plan_fn, OPTIONS, None, IDENTITY)
    assert plan["env"]["VLLM_ENABLE_STARTUP_PLAN"] == "0"
    assert "VLLM_LOGGING_LEVEL" not in plan["env"]
    debug = cal.plan_with_calibration(plan_fn, OPTIONS, None, IDENTITY, debug_logging=True)
    assert debug["env"]["VLLM_LOGGING_LEVEL"] == "DEBUG"


def test_calibrate_step_round_trip_from_a_ledger_row_to_the_plan(plan_fn, tmp_path):
    """deploy records the start -> kimi_calibration writes the file -> the pinned file feeds the next plan."""
    import kimi_calibration
    from kimi_deploy.core import ledger
    from module_harness import run_module

    plan = cal.plan_with_calibration(plan_fn, OPTIONS, None, IDENTITY)
    facts = vllm_log.memory_profile((LOGS / "v0.32-info-reserves-differ.log").read_text())
    row = ledger.build_row(host_group="k3_h200_a", release_id="0.32.0-abc", attempt_id="a1", log_facts=facts,
                           predicted_memory=plan["memory"], plan_calibration=plan["calibration"])
    ledger.append_row(tmp_path / "ledger", row)
    dest = tmp_path / "inventory" / "calibration" / "k3-h200.json"
    args = {"ledger_dir": str(tmp_path / "ledger"), "dest": str(dest), "release_id": "0.32.0-abc",
            "host_group": "k3_h200_a"}
    dry = run_module(kimi_calibration, args, check_mode=True, diff=True)
    assert dry["changed"] and not dest.exists() and '"reserves"' in dry["diff"]["after"]
    first = run_module(kimi_calibration, args)
    again = run_module(kimi_calibration, args)
    assert first["changed"] and not again["changed"]  # the same start writes the same bytes
    content = json.loads(dest.read_text())
    assert content["reserves"] == {k: facts["items"][k] for k in vllm_log.RESERVE_ITEMS}
    assert content["source"]["release_id"] == "0.32.0-abc"
    calibrated = cal.plan_with_calibration(plan_fn, OPTIONS, content, IDENTITY)
    assert calibrated["calibration"]["in_use"]
    assert calibrated["memory"]["kv_budget_bytes"] - plan["memory"]["kv_budget_bytes"] == \
        sum(plan["memory"][k] for k in vllm_log.RESERVE_ITEMS) - sum(content["reserves"].values())
    missing = run_module(kimi_calibration, {**args, "release_id": "nope"})
    assert missing["failed"] and "no ledger row" in missing["msg"]


def test_a_calibrated_plan_reads_back_whole(plan_fn):
    """What a release stores: the plan with its calibration, memory sources and debug environment."""
    from kimi_deploy.core.plan import Plan

    estimated = plan_fn(OPTIONS)
    plan = cal.plan_with_calibration(plan_fn, OPTIONS, _calibration_from("v0.32-info.log", estimated), IDENTITY,
                                     debug_logging=True)
    assert plan["env"]["VLLM_LOGGING_LEVEL"] == "DEBUG" and plan["memory"]["sources"]
    assert Plan.from_dict(plan).to_dict() == plan
