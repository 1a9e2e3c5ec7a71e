"""Ledger rows: secrets kept out, launch parameters read from argv or a plan, KV tokens from vLLM's log
line, CSV + JSONL appends (header once, parallel writers), comparison with the previous row."""

from __future__ import annotations

import csv
import json
import multiprocessing

import pytest
from kimi_deploy.core import acceptance as acc
from kimi_deploy.core import ledger, vllm_log
from kimi_deploy.core.errors import KimiDeployError
from repo_paths import FIXTURES

SECRET = "sk-live-7f3a9c2e51b04d8e"
HF_TOKEN = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345"


# -------------------------------------------------------------------------------------- secrets


@pytest.mark.parametrize("name", ["api_key", "API_KEY", "apiKey", "x-api-key", "hf_token", "HF_TOKEN", "token",
                                  "secret", "client_secret", "db-password", "Authorization", "credentials",
                                  "access_token", "kimi_hf_token", "passwd", "apitoken"])
def test_credential_names_are_secret(name):
    assert ledger.is_secret_name(name)


@pytest.mark.parametrize("name", ["max_num_batched_tokens", "kv_tokens_logged", "prompt_tokens", "tokenizer",
                                  "tokenizer_mode", "max_tokens", "monkey", "keep_alive_s", "kv_cache_dtype",
                                  "predicted_kv_tokens", "kv_cache_size_tokens"])
def test_counts_and_ordinary_names_are_not_secret(name):
    assert not ledger.is_secret_name(name)


def test_no_ledger_column_is_mistaken_for_a_secret():
    assert not [c for c in ledger.LEDGER_COLUMNS if ledger.is_secret_name(c)]


def test_redact_text_covers_flags_env_bearer_urls_and_hub_tokens():
    text = (f"vllm serve /m --api-key {SECRET} --port 8000 --hf-token={HF_TOKEN} "
            f"HF_TOKEN={HF_TOKEN} curl -H 'Authorization: Bearer {SECRET}' https://user:pw@mirror.example/x")
    out = ledger.redact_text(text)
    assert SECRET not in out and HF_TOKEN not in out and "user:pw" not in out
    assert "--port 8000" in out and "https://<redacted>@mirror.example/x" in out
    assert ledger.redact_text("key is abc123 here", ["abc123"]) == "key is <redacted> here"
    counts = "--max-num-batched-tokens 8192 MAX_TOKENS=5 --api-key=k1 API_TOKEN=k2"
    assert ledger.redact_text(counts) == ("--max-num-batched-tokens 8192 MAX_TOKENS=5 --api-key=<redacted> "
                                          "API_TOKEN=<redacted>")


def test_redact_drops_credential_keys_at_any_depth():
    value = {"plan": {"env": {"HF_TOKEN": HF_TOKEN, "OMP_NUM_THREADS": "8"}, "api_key": SECRET},
             "hosts": [{"name": "a", "password": "pw"}], "max_num_batched_tokens": 8192}
    out = ledger.redact(value)
    assert out == {"plan": {"env": {"OMP_NUM_THREADS": "8"}}, "hosts": [{"name": "a"}], "max_num_batched_tokens": 8192}
    kept = ledger.redact_strings({"api_key_missing": {"detail": f"sent {SECRET}"}}, [SECRET])
    assert kept == {"api_key_missing": {"detail": "sent <redacted>"}}


# ---------------------------------------------------------------------------- launch parameters


def test_launch_params_from_argv():
    argv = ["serve", "/models/k3", "--max-model-len", "262144", "-tp", "8", "--pipeline-parallel-size=2",
            "--gpu-memory-utilization", "0.92", "--enforce-eager", "--no-enable-prefix-caching", "--api-key", SECRET,
            "--served-model-name", "kimi", "--seed", "-1", "--kv-cache-dtype", "fp8"]
    assert ledger.launch_params_from(argv) == {
        "model": "/models/k3", "max_model_len": 262144, "tensor_parallel_size": 8, "pipeline_parallel_size": 2,
        "gpu_memory_utilization": 0.92, "enforce_eager": True, "enable_prefix_caching": False,
        "served_model_name": "kimi", "seed": -1, "kv_cache_dtype": "fp8"}


def test_launch_params_from_a_plan_dict():
    plan = {"max-model-len": 8192, "max_num_seqs": "16", "hf_token": HF_TOKEN, "trust_remote_code": "true"}
    assert ledger.launch_params_from(plan) == {"max_model_len": 8192, "max_num_seqs": 16, "trust_remote_code": True}
    assert ledger.launch_params_from(None) == {}
    with pytest.raises(KimiDeployError, match="as a list"):
        ledger.launch_params_from("--max-model-len 512")


# ----------------------------------------------------------------------------------------- rows


def _acceptance(passed=True) -> dict:
    checks = {spec.name: {"status": "passed", "passed": True, "detail": "ok"} for spec in acc.CHECKS}
    if not passed:
        checks["long_input_text"] = {"status": "failed", "passed": False, "detail": "400",
                                     "request": {"body": f"--api-key {SECRET}"}}
    checks["not_a_catalogue_check"] = {"status": "passed"}
    return {
        "passed": passed, "failed_checks": [] if passed else ["long_input_text"], "profile": "quick",
        "served_model_name": "tiny", "suite_duration_s": 31.25,
        "server": {"vllm_version": "0.32.0", "kv_cache_size_tokens": 1048576},
        "checks": checks,
        "metrics": {
            "short": {"chat_stream": {"ttft_ms": 18.5}},
            "long": {"text": {"latency_ms": 92.8}},
            "forms": {"latency_ms": {"image_input": 412.5, "tools_call": 88.0}, "served": ["image", "text", "tools"],
                      "multimodal": {"images_per_prompt": 1, "tokens_per_image": 256, "encoder_cache_tokens": 8192}},
            "concurrency": {
                "concurrency": 4, "duration_s": 10.0, "completed": 420, "errors": 0, "request_rate": 41.9,
                "output_tokens_per_s": 670.4,
                "ttft_ms": {"p50": 20.1, "p95": 95.2, "p99": 138.9},
                "itl_ms": {"p50": 3.67, "p95": 8.54, "p99": 14.35},
                "latency_ms": {"p50": 80.4, "p95": 171.0, "p99": 256.8},
                "memory_growth": {"server_rss_bytes": {"growth_per_min": 0.0012},
                                  "kv_cache_usage": {"growth_per_min": -0.0015}},
            },
        },
    }


ARGV = ["serve", "/m", "--max-model-len", "512", "--max-num-seqs", "4", "--api-key", SECRET, "--dtype", "float32"]


def _row(**over):
    args = dict(host_group="gpu_nodes", release_id="r2", previous_release_id="r1", model_repo="tiny/llama",
                model_revision="0" * 40, launch_params=ARGV, predicted_kv_tokens=1_000_000,
                journal_text="CPU KV cache size: 1,048,576 tokens", acceptance=_acceptance(),
                time="2026-11-30T07:00:00+00:00", secret_values=[SECRET])
    args.update(over)
    return ledger.build_row(**args)


def test_build_row_maps_every_measured_number():
    row = _row()
    assert list(row) == list(ledger.LEDGER_COLUMNS)
    assert row["accepted"] is True and row["failed_checks"] == []
    assert row["vllm_version"] == "0.32.0" and row["served_model_name"] == "tiny"
    assert (row["max_model_len"], row["max_num_seqs"], row["dtype"]) == (512, 4, "float32")
    assert (row["kv_tokens_logged"], row["kv_tokens_metrics"]) == (1048576, 1048576)
    assert row["kv_tokens_ratio"] == pytest.approx(1.0486, abs=1e-4)  # 1,048,576 / 1,000,000
    assert (row["ttft_p99_ms"], row["itl_p50_ms"], row["latency_p95_ms"]) == (138.9, 3.67, 171.0)
    assert (row["request_rate"], row["output_tokens_per_s"], row["requests_completed"]) == (41.9, 670.4, 420)
    assert (row["short_ttft_ms"], row["long_input_latency_ms"]) == (18.5, 92.8)
    assert row["server_rss_growth_per_min"] == 0.0012 and row["kv_usage_growth_per_min"] == -0.0015
    assert list(row["checks"]) == [c.name for c in acc.CHECKS]  # catalogue order, unknown names dropped
    assert "api_key" not in row["launch_params"]


def test_build_row_of_a_rejected_and_of_an_unaccepted_attempt():
    rejected = _row(acceptance=_acceptance(passed=False))
    assert rejected["accepted"] is False and rejected["failed_checks"] == ["long_input_text"]
    assert rejected["checks"]["long_input_text"] == "failed"
    never = _row(acceptance=None, journal_text="", note="start failed: port in use")
    assert never["accepted"] is False and never["failed_checks"] == ["acceptance_not_run"]
    assert never["kv_tokens_logged"] is None and never["kv_tokens_ratio"] is None
    with pytest.raises(KimiDeployError, match="host_group"):
        _row(host_group="")
    with pytest.raises(KimiDeployError, match="release_id"):
        _row(release_id="")


def test_no_secret_reaches_the_row_or_the_files(tmp_path):
    row = _row(note=f"operator said HF_TOKEN={HF_TOKEN} and key {SECRET}",
               launch_params=[*ARGV, "--hf-token", HF_TOKEN], model_repo=f"https://u:{SECRET}@hub/x")
    ledger.append_row(tmp_path, row)
    for text in (json.dumps(row), (tmp_path / "ledger.csv").read_text(), (tmp_path / "ledger.jsonl").read_text()):
        assert SECRET not in text and HF_TOKEN not in text
    assert "<redacted>" in row["note"]


# ---------------------------------------------------------------------------------------- files


def test_append_writes_the_header_once_in_stable_order(tmp_path):
    for i in range(3):
        ledger.append_row(tmp_path, _row(release_id=f"r{i}"))
    with open(tmp_path / "ledger.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == list(ledger.LEDGER_COLUMNS)
    assert len(rows) == 4 and all(len(r) == len(ledger.LEDGER_COLUMNS) for r in rows)
    first = dict(zip(rows[0], rows[1], strict=True))
    assert first["release_id"] == "r0" and first["accepted"] == "true" and first["ttft_p50_ms"] == "20.1"
    assert first["checks"].startswith("health=passed;models=passed;")
    assert json.loads(first["launch_params"])["max_model_len"] == 512
    jsonl = ledger.read_rows(tmp_path / "ledger.jsonl")
    assert [r["release_id"] for r in jsonl] == ["r0", "r1", "r2"]
    assert jsonl[0]["checks"]["long_input_text"] == "passed"


def test_append_keeps_an_older_header_and_warns(tmp_path):
    (tmp_path / "ledger.csv").write_text("time,host_group,release_id\n")
    result = ledger.append_row(tmp_path, _row())
    assert result["warnings"] and "older header" in result["warnings"][0]
    lines = (tmp_path / "ledger.csv").read_text().splitlines()
    assert lines == ["time,host_group,release_id", "2026-11-30T07:00:00+00:00,gpu_nodes,r2"]
    assert ledger.read_rows(tmp_path / "ledger.jsonl")[0]["ttft_p50_ms"] == 20.1


def test_read_rows_skips_a_torn_line(tmp_path):
    path = tmp_path / "ledger.jsonl"
    path.write_text('{"release_id": "a"}\n{"release_id": \n\n{"release_id": "b"}\n')
    assert [r["release_id"] for r in ledger.read_rows(path)] == ["a", "b"]
    assert ledger.read_rows(tmp_path / "missing.jsonl") == []


def _append_many(args):
    directory, worker = args
    for i in range(10):
        ledger.append_row(directory, {"time": "t", "host_group": f"g{worker}", "release_id": f"{worker}-{i}",
                                      "note": "x" * 5000})


def test_parallel_writers_do_not_interleave(tmp_path):
    with multiprocessing.get_context("fork").Pool(4) as pool:
        pool.map(_append_many, [(str(tmp_path), w) for w in range(4)])
    rows = ledger.read_rows(tmp_path / "ledger.jsonl")
    assert len(rows) == 40 and len({r["release_id"] for r in rows}) == 40
    with open(tmp_path / "ledger.csv", newline="") as fh:
        lines = list(csv.reader(fh))
    assert lines[0] == list(ledger.LEDGER_COLUMNS) and len(lines) == 41
    assert sum(1 for line in lines if line and line[0] == "time") == 1


# ----------------------------------------------------------------------------------- comparison


def test_previous_row_prefers_the_release_that_served_before():
    rows = [{"host_group": "g", "release_id": "r1", "n": 1}, {"host_group": "g", "release_id": "r0", "n": 2},
            {"host_group": "other", "release_id": "r9", "n": 3}, {"host_group": "g", "release_id": "r2", "n": 4}]
    assert ledger.previous_row(rows, host_group="g", release_id="r2", previous_release_id="r1")["n"] == 1
    assert ledger.previous_row(rows, host_group="g", release_id="r2")["n"] == 2
    assert ledger.previous_row(rows, host_group="g", release_id="r2", previous_release_id="gone")["n"] == 2
    assert ledger.previous_row(rows, host_group="new") is None


def test_compare_rows_directions_and_changes():
    before = _row(release_id="r1")
    after = _row(launch_params=[*ARGV, "--max-num-batched-tokens", "4096"])
    after.update(request_rate=50.0, ttft_p50_ms=30.15, itl_p99_ms=14.35, vllm_version="0.33.0")
    after["checks"] = dict(after["checks"], concurrency="failed")
    cmp = ledger.compare_rows(before, after)
    by = {m["metric"]: m for m in cmp["metrics"]}
    assert by["request_rate"]["verdict"] == "better"
    assert by["request_rate"]["change_pct"] == pytest.approx(100 * (50.0 - 41.9) / 41.9, abs=0.01)
    assert by["ttft_p50_ms"]["verdict"] == "worse" and by["ttft_p50_ms"]["change_pct"] == 50.0
    assert by["itl_p99_ms"]["verdict"] == "same"
    assert cmp["launch_params"] == {"max_num_batched_tokens": {"previous": None, "current": 4096}}
    assert cmp["identity"] == {"vllm_version": {"previous": "0.32.0", "current": "0.33.0"}}
    assert cmp["checks"] == {"concurrency": {"previous": "passed", "current": "failed"}}
    assert cmp["previous_release_id"] == "r1"
    assert ledger.compare_rows(None, after)["metrics"] == []


def test_launch_params_from_a_whole_plan_use_argv_then_layout():
    plan = {"serve_args": ["--max-model-len", "512", "--kv-cache-memory-bytes", "1114112", "--enforce-eager"],
            "layout": {"tensor_parallel_size": 1, "pipeline_parallel_size": 1, "nodes": ["h1"]},
            "max_model_len": 999, "max_num_seqs": 4, "memory": {"kv_tokens": 2176}}
    params = ledger.launch_params_from(plan)
    assert params["max_model_len"] == 512  # what ran wins over the plan's own field
    assert params["tensor_parallel_size"] == 1 and params["max_num_seqs"] == 4
    assert params["enforce_eager"] is True and "nodes" not in params and "memory" not in params


# ------------------------------------------------------------------------------ measured vs predicted

_MEMORY_LOG = (FIXTURES / "vllm-memory-logs" / "v0.32-info.log").read_text()
_PREDICTED = {"requested_bytes": 138_695_231_406, "weights_bytes": 103_594_611_180,
              "activation_reserve_bytes": 2_727_000_000, "non_torch_reserve_bytes": 2 * 1024**3,
              "cudagraph_reserve_bytes": 2 * 1024**3, "out_of_pool_reserve_bytes": 1024**3,
              "kv_budget_bytes": 28_078_000_000,
              "sources": {"weights_bytes": "estimated", "activation_reserve_bytes": "estimated",
                          "non_torch_reserve_bytes": "measured", "cudagraph_reserve_bytes": "estimated",
                          "out_of_pool_reserve_bytes": "estimated"}}


def test_each_memory_item_is_recorded_beside_its_prediction_with_the_error():
    facts = vllm_log.memory_profile(_MEMORY_LOG)
    row = _row(log_facts=facts, journal_text="", predicted_memory=_PREDICTED)
    by_item = {r["item"]: r for r in row["reserves"]}
    assert list(by_item) == list(ledger.RESERVE_ROW_ITEMS)
    act = by_item["activation_reserve_bytes"]
    assert act["predicted"] == 2_727_000_000 and act["measured"] == facts["items"]["activation_reserve_bytes"]
    assert act["error_bytes"] == act["measured"] - act["predicted"]
    assert act["error_pct"] == round(100 * act["error_bytes"] / act["predicted"], 2)
    assert act["read_from"] == "logged: peak activation - estimated CUDA graph memory"
    assert by_item["non_torch_reserve_bytes"]["plan"] == "measured"
    ctx = by_item["out_of_pool_reserve_bytes"]
    assert ctx["measured"] is None and ctx["error_pct"] is None and "never logged" in ctx["read_from"]
    assert row["memory_profiling"] == "measured" and row["kv_tokens_logged"] == 1_612_800
    # the journal itself gives the same row as the facts parsed on the host
    assert _row(journal_text=_MEMORY_LOG, predicted_memory=_PREDICTED)["reserves"] == row["reserves"]


def test_the_predicted_activation_includes_the_encoder_outputs_vllm_profiles_with_it():
    facts = vllm_log.memory_profile(_MEMORY_LOG)
    with_images = {**_PREDICTED, "encoder_cache_reserve_bytes": 115_000_000}
    act = {r["item"]: r for r in _row(log_facts=facts, predicted_memory=with_images)["reserves"]}[
        "activation_reserve_bytes"]
    assert act["predicted"] == 2_727_000_000 + 115_000_000
    assert act["error_bytes"] == facts["items"]["activation_reserve_bytes"] - act["predicted"]


def test_drift_from_the_calibration_in_use_is_recorded():
    facts = vllm_log.memory_profile(_MEMORY_LOG)
    calibrated = dict(facts["items"])
    calibrated["non_torch_reserve_bytes"] = int(calibrated["non_torch_reserve_bytes"] / 1.05)  # 5 % lower then
    row = _row(log_facts=facts, predicted_memory=_PREDICTED,
               plan_calibration={"in_use": True, "measured": calibrated, "key": {"gpu_model": "NVIDIA H200"}})
    assert [d["item"] for d in row["calibration_drift"]] == ["non_torch_reserve_bytes"]
    assert row["calibration_in_use"] and row["calibration_identity"] == {"gpu_model": "NVIDIA H200"}
    unused = _row(log_facts=facts, plan_calibration={"in_use": False, "measured": calibrated})
    assert unused["calibration_drift"] == []


def test_launch_params_of_a_typed_plan_are_its_fields_then_the_recipe_and_operator_flags():
    from kimi_deploy.core.plan import Layout, Plan, ServeFlags

    plan = Plan(platform="cuda", layout=Layout(tensor_parallel_size=8, pipeline_parallel_size=2, nnodes=2,
                                               gpus_per_node=8, nodes=("a", "b")),
                max_model_len=40960, max_num_seqs=8, max_num_batched_tokens=8192, gpu_memory_utilization=0.92,
                serve_flags=ServeFlags(trust_remote_code=True, recipe_args=("--moe-backend", "marlin"),
                                       distributed_executor_backend="ray",
                                       extra_args=("--max-num-seqs", "4", "--api-key", SECRET)))
    params = ledger.launch_params_from(plan.to_dict())
    assert params["tensor_parallel_size"] == 8 and params["world_size"] == 16 and params["trust_remote_code"] is True
    assert params["moe_backend"] == "marlin" and params["distributed_executor_backend"] == "ray"
    assert params["max_num_seqs"] == 4  # the operator's flag comes last in the argv, and wins there too
    assert "api_key" not in params and SECRET not in json.dumps(params)


def test_the_row_carries_the_form_checks_latency_the_served_forms_and_the_image_budget(tmp_path):
    row = _row()
    assert row["form_check_ms"] == {"image_input": 412.5, "tools_call": 88.0}
    assert row["forms_served"] == ["image", "text", "tools"]
    assert row["multimodal"]["tokens_per_image"] == 256
    ledger.append_row(tmp_path, row)
    header, line = list(csv.reader((tmp_path / "ledger.csv").read_text().splitlines()))
    cell = dict(zip(header, line, strict=True))
    assert json.loads(cell["form_check_ms"]) == {"image_input": 412.5, "tools_call": 88.0}
    assert cell["forms_served"] == "image;text;tools"
    old = _row(acceptance={**_acceptance(), "metrics": {}})  # a suite run before the form checks existed
    assert old["form_check_ms"] == {} and old["forms_served"] == [] and old["multimodal"] == {}
