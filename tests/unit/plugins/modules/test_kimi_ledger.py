"""kimi_ledger module: appends one row per attempt, writes the report, honours check mode and attempt ids."""

from __future__ import annotations

import json
from pathlib import Path

import kimi_ledger
from module_harness import run_module
from test_ledger import ARGV, HF_TOKEN, SECRET, _acceptance
from test_report import _with_series


def _args(tmp_path, **over):
    args = dict(ledger_dir=str(tmp_path / "ledger"), host_group="gpu_nodes", release_id="r2",
                previous_release_id="r1", model_repo="tiny/llama", model_revision="0" * 40, launch_params=ARGV,
                predicted_kv_tokens=1048576, journal_text="CPU KV cache size: 1,048,576 tokens",
                acceptance=_with_series(_acceptance()), redact_values=[SECRET], time="2026-11-30T07:00:00+00:00")
    args.update(over)
    return args


def test_appends_a_row_and_writes_the_report(tmp_path):
    result = run_module(kimi_ledger, _args(tmp_path))
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] is True and result["appended"] is True
    ledger_dir = tmp_path / "ledger"
    lines = (ledger_dir / "ledger.jsonl").read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["release_id"] == "r2"
    assert len((ledger_dir / "ledger.csv").read_text().splitlines()) == 2
    assert result["report_path"] == str(ledger_dir / "reports" / "gpu_nodes-r2-20261130T070000.html")
    html = (ledger_dir / "reports" / "gpu_nodes-r2-20261130T070000.html").read_text()
    assert "data:image/png;base64," in html
    row = result["row"]
    assert row["kv_tokens_ratio"] == 1.0 and row["accepted"] is True and row["ttft_p50_ms"] == 20.1
    assert result["previous_row"] is None


def test_second_release_is_compared_with_the_first(tmp_path):
    run_module(kimi_ledger, _args(tmp_path, release_id="r1", previous_release_id=""))
    acceptance = _with_series(_acceptance())
    acceptance["metrics"]["concurrency"]["request_rate"] = 20.95
    result = run_module(kimi_ledger, _args(tmp_path, acceptance=acceptance, time="2026-11-30T08:00:00+00:00"))
    assert result["previous_row"]["release_id"] == "r1"
    by = {m["metric"]: m for m in result["comparison"]["metrics"]}
    assert by["request_rate"]["verdict"] == "worse" and by["request_rate"]["change_pct"] == -50.0
    assert "Previous release <code>r1</code>" in Path(result["report_path"]).read_text()


def test_a_recorded_attempt_is_not_appended_twice(tmp_path):
    first = run_module(kimi_ledger, _args(tmp_path, attempt_id="deploy-1", report=False))
    again = run_module(kimi_ledger, _args(tmp_path, attempt_id="deploy-1", report=False))
    assert first["changed"] is True and again["changed"] is False and again["appended"] is False
    assert len((tmp_path / "ledger" / "ledger.jsonl").read_text().splitlines()) == 1
    assert again["row"]["attempt_id"] == "deploy-1"


def test_check_mode_writes_nothing(tmp_path):
    result = run_module(kimi_ledger, _args(tmp_path), check_mode=True)
    assert result["changed"] is True and result["appended"] is False
    assert result["row"]["release_id"] == "r2"
    assert not (tmp_path / "ledger").exists()


def test_secrets_stay_out_of_every_file(tmp_path):
    acceptance = _with_series(_acceptance())
    acceptance["checks"]["models"]["detail"] = f"sent Bearer {SECRET}"
    args = _args(tmp_path, acceptance=acceptance, launch_params=[*ARGV, "--hf-token", HF_TOKEN],
                 note=f"key was {SECRET}")
    result = run_module(kimi_ledger, args)
    for path in (tmp_path / "ledger").rglob("*"):
        if path.is_file():
            text = path.read_text()
            assert SECRET not in text and HF_TOKEN not in text, path
    assert SECRET not in json.dumps(result)


def test_acceptance_file_and_no_acceptance(tmp_path):
    results = tmp_path / "acceptance.json"
    results.write_text(json.dumps(_acceptance(passed=False)))
    args = _args(tmp_path, acceptance_file=str(results), report=False)
    del args["acceptance"]
    result = run_module(kimi_ledger, args)
    assert result["row"]["failed_checks"] == ["long_input_text"] and result["row"]["accepted"] is False
    args = _args(tmp_path, release_id="r3", note="start failed before acceptance", report=False)
    del args["acceptance"]
    result = run_module(kimi_ledger, args)
    assert result["row"]["failed_checks"] == ["acceptance_not_run"]


def test_bad_inputs_fail_with_what_to_do(tmp_path):
    args = _args(tmp_path, acceptance_file=str(tmp_path / "missing.json"))
    del args["acceptance"]
    result = run_module(kimi_ledger, args)
    assert result["failed"] and "cannot read acceptance_file" in result["msg"]
    result = run_module(kimi_ledger, _args(tmp_path, launch_params="--max-model-len 512"))
    assert result["failed"] and "as a list" in result["msg"]
    both = _args(tmp_path, acceptance_file=str(tmp_path / "x.json"))
    result = run_module(kimi_ledger, both)
    assert result["failed"] and "mutually exclusive" in result["msg"]


def test_drift_from_the_calibration_in_use_is_warned(tmp_path):
    from kimi_deploy.core import vllm_log
    from test_ledger import _MEMORY_LOG, _PREDICTED

    facts = vllm_log.memory_profile(_MEMORY_LOG)
    calibrated = {**facts["items"], "activation_reserve_bytes": facts["items"]["activation_reserve_bytes"] // 2}
    result = run_module(kimi_ledger, _args(tmp_path, journal_text="", log_facts=facts, predicted_memory=_PREDICTED,
                                           plan_calibration={"in_use": True, "measured": calibrated}, report=False))
    assert not result.get("failed"), result.get("msg")
    warnings = [str(w) for w in result["warnings"]]  # ansible-core 2.19 returns WarningSummary objects
    assert any("activation_reserve_bytes" in w and "against the calibration in use" in w for w in warnings)
    assert [d["item"] for d in result["row"]["calibration_drift"]] == ["activation_reserve_bytes"]
    same = run_module(kimi_ledger, _args(tmp_path, journal_text="", log_facts=facts, predicted_memory=_PREDICTED,
                                         plan_calibration={"in_use": True, "measured": facts["items"]},
                                         report=False, release_id="r3"))
    assert same["row"]["calibration_drift"] == []  # (warnings persist in-process between harness runs)


def test_the_canary_verdict_is_kept_in_the_row(tmp_path):
    """The registered kimi_canary result: the row keeps which, why and the figures, not the module's bookkeeping."""
    canary = {"changed": False, "verdict": "rollback", "inconclusive": False,
              "reason": "rollback: error rate 10.00% (10/100) against the others' 0.00% (0/400, allowed 1.00%)",
              "figures": {"canary": {"requests": 100, "errors": 10}, "others": {"requests": 400, "errors": 0}}}
    result = run_module(kimi_ledger, _args(tmp_path, canary=canary, report=False))
    assert not result.get("failed"), result.get("msg")
    row = json.loads((tmp_path / "ledger" / "ledger.jsonl").read_text().splitlines()[0])
    assert row["canary"] == {key: canary[key] for key in ("verdict", "inconclusive", "reason", "figures")}
    header, values = (tmp_path / "ledger" / "ledger.csv").read_text().splitlines()[:2]
    assert "canary" in header.split(",") and "10/100" in values
    assert run_module(kimi_ledger, _args(tmp_path / "none", report=False))["row"]["canary"] == {}
