"""kimi_vllm_acceptance run in-process against the fake vLLM: check mode, results file, verdicts, refusals."""

from __future__ import annotations

import json

import httpx
import kimi_vllm_acceptance
import pytest
from fake_vllm import FakeVllm
from haproxy_run import upstream
from kimi_deploy.io import acceptance_client as client
from module_harness import run_module


def _module_args(**over):
    args = dict(served_model_name="tiny", api_key="sk-test", max_model_len=128, max_output_tokens=8, concurrency=2,
                profile="quick", duration_s=1.0, sample_interval_s=0.05, load_input_tokens=24, load_output_tokens=4,
                base_url="http://fake")
    args.update(over)
    return args


@pytest.fixture
def fake_transport(monkeypatch):
    holder = {"fake": FakeVllm()}
    real = client.run_acceptance

    def run(config):
        return real(config, transport=httpx.MockTransport(holder["fake"]), nvml_loader=lambda: None)

    monkeypatch.setattr(kimi_vllm_acceptance, "run_acceptance", run)
    return holder


def test_module_check_mode_sends_nothing(fake_transport):
    result = run_module(kimi_vllm_acceptance, _module_args(), check_mode=True)
    assert result["skipped"] is True and result["changed"] is False
    assert fake_transport["fake"].requests == []


def test_module_passes_and_writes_results(fake_transport, tmp_path):
    out = tmp_path / "acc" / "results.json"
    result = run_module(kimi_vllm_acceptance, _module_args(results_file=str(out)))
    assert not result.get("failed"), result.get("msg")
    assert result["passed"] is True and result["changed"] is False
    assert result["results_file"] == str(out)
    saved = json.loads(out.read_text())
    assert saved["passed"] and saved["checks"].keys() == result["checks"].keys()
    assert oct(out.stat().st_mode & 0o777) == "0o640"
    assert "sk-test" not in out.read_text()


def test_module_fails_the_task_naming_the_checks(fake_transport):
    fake_transport["fake"] = FakeVllm(over_limit_status=500)
    result = run_module(kimi_vllm_acceptance, _module_args())
    assert result["failed"] is True and result["passed"] is False
    assert result["msg"].startswith("acceptance rejected the release: 3 check(s) failed: over_limit_text, "
                                    "over_limit_token_ids, over_limit_chat.")
    assert "Request: POST /v1/completions" in result["msg"] and "Response: 500" in result["msg"]
    assert result["checks"]["over_limit_text"]["response"]["status"] == 500


def test_module_returns_the_verdict_without_failing_when_told(fake_transport):
    fake_transport["fake"] = FakeVllm(over_limit_status=500)
    result = run_module(kimi_vllm_acceptance, _module_args(fail_on_reject=False))
    assert not result.get("failed") and result["passed"] is False
    assert result["failed_checks"] == ["over_limit_text", "over_limit_token_ids", "over_limit_chat"]


def test_module_refuses_bad_settings_before_sending(fake_transport):
    result = run_module(kimi_vllm_acceptance, _module_args(max_output_tokens=200))
    assert result["failed"] and "below max_model_len" in result["msg"]
    assert fake_transport["fake"].requests == []


def test_module_without_httpx_says_which_python_to_use(monkeypatch):
    monkeypatch.setattr(kimi_vllm_acceptance, "HTTPX_IMPORT_ERROR", "ModuleNotFoundError: No module named 'httpx'")
    result = run_module(kimi_vllm_acceptance, _module_args())
    assert result["failed"] and "httpx" in result["msg"] and "ansible_python_interpreter" in result["msg"]


def test_module_probes_the_entry_it_is_given(fake_transport):
    """entry_url and entry_metrics_networks reach the routes check: a server open on every route (a stand-in
    answering 200 to anything, as vLLM alone does to /invocations) is rejected, naming the routes."""
    with upstream() as entry:
        result = run_module(kimi_vllm_acceptance, _module_args(
            entry_url=f"http://127.0.0.1:{entry.port}", entry_metrics_networks=["127.0.0.0/8"], fail_on_reject=False))
        sent = {seen["path"] for seen in entry.seen}
    assert result["failed_checks"] == ["routes_unauthenticated"]
    check = result["checks"]["routes_unauthenticated"]
    assert "/invocations" in check["observed"]["open_routes"] and "/metrics" not in check["observed"]["open_routes"]
    assert check["observed"]["source_address"] == "127.0.0.1"
    assert {"/invocations", "/scale_elastic_ep", "/tokenize"} <= sent
    assert [r["route"] for r in result["metrics"]["routes"]][:2] == ["/health", "/v1/chat/completions"]
    assert all(seen["authorization"] in (None, "") or "sk-test" not in seen["authorization"] for seen in entry.seen)


def test_module_skips_the_routes_group_without_an_entry(fake_transport):
    result = run_module(kimi_vllm_acceptance, _module_args())
    assert result["checks"]["routes_unauthenticated"]["status"] == "skipped"
    assert "no front door" in result["checks"]["routes_unauthenticated"]["detail"]
