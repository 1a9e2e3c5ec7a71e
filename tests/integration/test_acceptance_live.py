"""The acceptance suite against the real vLLM CPU build serving the tiny llama model with an API key.

The client runs where production runs it, under the vLLM venv's python (httpx comes with vLLM):
once as the Ansible module (ad-hoc, ``ansible_python_interpreter`` = the venv's python) and once as
``python -m kimi_deploy.io.acceptance_client``. A good release passes every check with the numbers filled
in; releases configured to fail (the plan's max_model_len larger than the server's, a wrong served
model name) are rejected with the failing checks named and their request and response recorded.
The ledger row and the HTML report are then written from the live results.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from vllm_server import PLANNED_LLAMA_API_KEY, VllmServer

REPO_ROOT = Path(__file__).resolve().parents[2]
import kimi_ledger
import kimi_vllm_acceptance
from module_harness import run_module

API_KEY = PLANNED_LLAMA_API_KEY
MAX_MODEL_LEN = 512
MAX_OUTPUT = 16
CONCURRENCY = 4
LOAD_SECONDS = 10


def _derived_kv_tokens(model_dir: Path, kv_bytes: int = 2**30, dtype_bytes: int = 2) -> int:
    """KV tokens a 1 GiB CPU KV space holds for this model in bf16: bytes / (layers x K,V x heads x dim x 2)."""
    cfg = json.loads((model_dir / "config.json").read_text())
    head_dim = cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]
    per_token = cfg["num_hidden_layers"] * 2 * cfg["num_key_value_heads"] * head_dim * dtype_bytes
    return kv_bytes // per_token


@pytest.fixture(scope="module")
def server(planned_llama):
    """The session's planned tiny llama (conftest): max_model_len 512, max_num_seqs 4, 1 GiB of KV."""
    assert planned_llama.plan["max_model_len"] == MAX_MODEL_LEN
    assert planned_llama.plan["max_num_seqs"] == CONCURRENCY
    return planned_llama


def _cli(vllm_venv: Path, srv: VllmServer, results: Path, *extra: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT / "plugins" / "module_utils"), KIMI_TEST_API_KEY=API_KEY)
    argv = [str(vllm_venv / "bin" / "python"), "-m", "kimi_deploy.io.acceptance_client", "--base-url", srv.url,
            "--served-model-name", "tiny", "--max-output-tokens", str(MAX_OUTPUT), "--concurrency", str(CONCURRENCY),
            "--profile", "quick", "--api-key-env", "KIMI_TEST_API_KEY", "--results-file", str(results),
            "--load-input-tokens", "128", "--load-output-tokens", "32", "--sample-interval-s", "1", *extra]
    return subprocess.run(argv, check=False, env=env, capture_output=True, text=True, timeout=600, cwd=REPO_ROOT)


@pytest.fixture(scope="module")
def good_results(server, vllm_venv, tmp_path_factory):
    """The module, run by Ansible under the vLLM venv's python, against the good release."""
    out = tmp_path_factory.mktemp("acceptance-good") / "results.json"
    module_args = {
        "base_url": server.url, "served_model_name": "tiny", "api_key": "{{ lookup('env', 'KIMI_TEST_API_KEY') }}",
        "max_model_len": MAX_MODEL_LEN, "max_output_tokens": MAX_OUTPUT, "concurrency": CONCURRENCY,
        "profile": "quick", "duration_s": LOAD_SECONDS, "sample_interval_s": 1, "load_input_tokens": 128,
        "load_output_tokens": 32, "server_pid": server.proc.pid, "results_file": str(out),
    }
    env = dict(os.environ, KIMI_TEST_API_KEY=API_KEY, ANSIBLE_LIBRARY=str(REPO_ROOT / "plugins" / "modules"),
               ANSIBLE_MODULE_UTILS=str(REPO_ROOT / "plugins" / "module_utils"))
    proc = subprocess.run(
        [str(REPO_ROOT / ".venv" / "bin" / "ansible"), "localhost", "-i", "localhost,", "-c", "local",
         "-m", "kimi_vllm_acceptance", "-a", json.dumps(module_args),
         "-e", f"ansible_python_interpreter={vllm_venv / 'bin' / 'python'}"],
        check=False, env=env, capture_output=True, text=True, timeout=600, cwd=REPO_ROOT)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert API_KEY not in proc.stdout
    return json.loads(out.read_text())


def test_a_good_release_passes_every_check_with_numbers(good_results, server):
    results = good_results
    ran = {n: c for n, c in results["checks"].items() if c["status"] != "skipped"}
    assert not [n for n, c in ran.items() if c["status"] != "passed"], results["msg"]
    assert results["passed"] and results["profile"] == "quick"
    # The form checks need a plan (the model's forms); this run gives none, and they say so.
    forms = {n: c for n, c in results["checks"].items() if c["group"] == "forms"}
    assert forms and all(c["status"] == "skipped" and "plan" in c["detail"] for c in forms.values()), forms
    assert {n for n, c in results["checks"].items() if c["status"] == "skipped" and n not in forms} == {
        "short_chat", "short_completion_stream", "abnormal_missing_prompt", "abnormal_wrong_type",
        "abnormal_invalid_utf8", "abnormal_lone_surrogate", "abnormal_control_characters", "abnormal_mixed_scripts",
        "abnormal_emoji", "abnormal_very_long_line", "routes_unauthenticated"}  # the last: no front door here
    long = results["metrics"]["long"]
    for kind in ("text", "token_ids", "chat"):
        assert long[kind]["usage"]["prompt_tokens"] == MAX_MODEL_LEN - MAX_OUTPUT
    assert long["text"]["usage"]["completion_tokens"] == MAX_OUTPUT  # ignore_eos: the sequence reached 512
    for kind in ("text", "token_ids", "chat"):
        over = long[f"over_{kind}"]
        assert (over["status"], over["error"]["param"], over["healthy_after"]) == (400, "input_tokens", True)
        assert over["prompt_tokens_sent"] == MAX_MODEL_LEN + 1
    precheck = results["metrics"]["abnormal"]["over_char_precheck"]["attempts"][0]
    assert precheck == {"chars": 8193, "status": 400, "param": "input_text"}
    assert results["checks"]["api_key_missing"]["observed"] == {"POST /v1/chat/completions": 401,
                                                                "GET /v1/models": 401}
    short = results["metrics"]["short"]["chat_stream"]
    assert short["ttft_ms"] > 0 and short["done"] and short["streamed_tokens"] == short["usage"]["completion_tokens"]
    load = results["metrics"]["concurrency"]
    assert load["errors"] == 0 and load["completed"] >= CONCURRENCY
    assert load["request_rate"] > 0 and load["output_tokens_per_s"] > 0
    # ignore_eos, 32 asked but capped at max_output_tokens (16): every request generates exactly 16.
    assert load["output_tokens_per_request"] == MAX_OUTPUT
    assert load["output_tokens"] == MAX_OUTPUT * load["completed"]
    for key in ("ttft_ms", "itl_ms", "tpot_ms", "latency_ms"):
        assert load[key]["count"] > 0 and 0 < load[key]["p50"] <= load[key]["p95"] <= load[key]["p99"]
    memory = load["series"]["memory"]
    assert {"server_rss_bytes", "api_rss_bytes", "kv_cache_usage"} <= set(memory)
    assert all(v > 1e8 for _unused, v in memory["server_rss_bytes"])  # the whole process tree, hundreds of MiB
    assert all(g["passed"] for g in load["memory_growth"].values())
    # KV usage judged by the blocks held once the run's requests had finished: this build frees every one.
    kv = load["memory_growth"]["kv_cache_usage"]
    assert kv["judged"] and (kv["idle_before"], kv["idle_after"]) == (0.0, 0.0), kv["detail"]
    assert results["server"]["vllm_version"] == "0.32.0"
    assert results["server"]["kv_cache_size_tokens"] == _derived_kv_tokens(server.model_dir)
    print("\nquick suite:", results["suite_duration_s"], "s;", json.dumps(
        {k: load[k] for k in ("request_rate", "output_tokens_per_s", "ttft_ms", "itl_ms", "latency_ms")}))


def test_a_context_shorter_than_planned_is_rejected(server, vllm_venv, tmp_path):
    results_file = tmp_path / "results.json"
    proc = _cli(vllm_venv, server, results_file, "--max-model-len", str(2 * MAX_MODEL_LEN), "--duration-s", "3")
    assert proc.returncode == 1, proc.stderr[-3000:]
    results = json.loads(results_file.read_text())
    failed = results["failed_checks"]
    assert {"models", "long_input_text", "long_input_token_ids", "long_input_chat"} <= set(failed)
    check = results["checks"]["long_input_text"]
    assert "does not hold the planned max_model_len=1024" in check["detail"]
    assert check["request"]["path"] == "/v1/completions" and check["response"]["status"] == 400
    assert "maximum context length is 512 tokens" in check["response"]["body"]
    assert "max_model_len=512 but the plan expects 1024" in results["checks"]["models"]["detail"]
    assert "long_input_text" in proc.stderr and API_KEY not in proc.stdout + proc.stderr
    assert API_KEY not in results_file.read_text()


def test_a_wrong_served_model_name_is_rejected(server):
    result = run_module(kimi_vllm_acceptance, {
        "base_url": server.url, "served_model_name": "kimi-k3", "api_key": API_KEY, "max_model_len": MAX_MODEL_LEN,
        "max_output_tokens": MAX_OUTPUT, "concurrency": CONCURRENCY, "profile": "quick", "duration_s": 3})
    assert result["failed"] is True and result["passed"] is False
    assert result["msg"].startswith("acceptance rejected the release:")
    assert "models" in result["failed_checks"] and "long_input_text" in result["failed_checks"]
    assert "does not serve 'kimi-k3'" in result["checks"]["models"]["detail"]
    assert result["checks"]["abnormal_unknown_model"]["status"] == "passed"  # a 404 is still a 404
    assert server.healthy()


def test_ledger_row_and_report_hold_the_measured_numbers(good_results, server, tmp_path):
    expected_kv = _derived_kv_tokens(server.model_dir)
    result = run_module(kimi_ledger, {
        "ledger_dir": str(tmp_path / "ledger"), "host_group": "ci", "release_id": "live-1",
        "model_repo": "tiny/llama", "model_revision": "local", "launch_params": server.argv[1:],
        "predicted_kv_tokens": expected_kv, "journal_text": server.log_text(), "acceptance": good_results,
        "redact_values": [API_KEY]})
    assert not result.get("failed"), result.get("msg")
    row = result["row"]
    assert row["accepted"] is True and row["failed_checks"] == []
    assert row["kv_tokens_logged"] == expected_kv == row["kv_tokens_metrics"] and row["kv_tokens_ratio"] == 1.0
    assert (row["max_model_len"], row["dtype"], row["vllm_version"]) == (MAX_MODEL_LEN, "bfloat16", "0.32.0")
    load = good_results["metrics"]["concurrency"]
    assert row["ttft_p50_ms"] == round(load["ttft_ms"]["p50"], 3) > 0
    assert row["output_tokens_per_s"] == round(load["output_tokens_per_s"], 3) > 0
    assert row["checks"]["long_input_text"] == "passed" and row["checks"]["short_chat"] == "skipped"
    html = Path(result["report_path"]).read_text()
    assert html.count("data:image/png;base64,") == 3
    for path in (tmp_path / "ledger").rglob("*"):
        if path.is_file():
            assert API_KEY not in path.read_text(), path
