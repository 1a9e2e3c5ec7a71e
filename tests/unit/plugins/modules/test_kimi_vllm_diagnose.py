"""kimi_vllm_diagnose: the three log sources, journalctl's command line, check mode and bad input."""

from __future__ import annotations

import json

import kimi_vllm_diagnose
import pytest
from ansible.module_utils.basic import AnsibleModule
from module_harness import run_module
from repo_paths import FIXTURES

LOGS = FIXTURES / "vllm-logs"
KV_LOG = LOGS / "kv_cache_too_small.log"
DIAGNOSIS_FIELDS = {"phase", "cause", "evidence", "next_step", "parameter_changes", "rule", "first_error_line"}


def test_log_text_in_check_mode():
    text = KV_LOG.read_text()
    result = run_module(kimi_vllm_diagnose, {"log_text": text, "context": {"gpu_memory_utilization": 0.9}},
                        check_mode=True)
    assert not result.get("failed") and result["changed"] is False
    assert set(result) >= DIAGNOSIS_FIELDS
    assert (result["phase"], result["rule"]) == ("startup", "kv_cache_too_small_for_max_model_len")
    assert result["parameter_changes"] == {"max_model_len": 1920}
    assert result["log_lines_read"] == len(text.splitlines())


def test_log_file_reads_the_last_lines(tmp_path):
    log = tmp_path / "vllm.log"
    # An old failure, then the start that matters: only the last `lines` lines are read.
    log.write_text((LOGS / "port_in_use.log").read_text() + (LOGS / "missing_shard.log").read_text())
    tail = len((LOGS / "missing_shard.log").read_text().splitlines())
    result = run_module(kimi_vllm_diagnose, {"log_file": str(log), "lines": tail})
    assert result["log_lines_read"] == tail
    assert result["rule"] == "missing_weight_files"


def test_missing_log_file_is_explained(tmp_path):
    result = run_module(kimi_vllm_diagnose, {"log_file": str(tmp_path / "nope.log")})
    assert result["failed"] and "does not exist" in result["msg"] and "unit" in result["msg"]


@pytest.fixture
def journal(monkeypatch):
    """Replace run_command; record argv and answer with the given journal text."""
    calls = []
    answer = {"rc": 0, "out": "", "err": ""}

    def fake_run_command(self, args, **kwargs):
        calls.append(args)
        return answer["rc"], answer["out"], answer["err"]

    monkeypatch.setattr(AnsibleModule, "run_command", fake_run_command)
    return calls, answer


def test_unit_reads_journalctl_with_lines_and_since(journal):
    calls, answer = journal
    answer["out"] = "-- Boot 3f2c1d --\n" + (LOGS / "unknown_architecture.log").read_text() + "-- No entries --\n"
    result = run_module(kimi_vllm_diagnose, {"unit": "kimi-vllm.service", "lines": 500, "since": "-30min"},
                        check_mode=True)
    assert calls == [["journalctl", "-u", "kimi-vllm.service", "-o", "cat", "--no-pager", "-n", "500",
                      "--since", "-30min"]]
    assert (result["phase"], result["rule"]) == ("load", "architecture_not_supported")
    # journalctl's own "-- ... --" lines are not log lines
    assert result["log_lines_read"] == len((LOGS / "unknown_architecture.log").read_text().splitlines())


def test_unit_default_lines_and_no_since(journal):
    calls, answer = journal
    answer["out"] = "kimi-vllm.service: A process of this unit has been killed by the OOM killer.\n"
    result = run_module(kimi_vllm_diagnose, {"unit": "kimi-vllm.service"})
    assert calls == [["journalctl", "-u", "kimi-vllm.service", "-o", "cat", "--no-pager", "-n", "2000"]]
    assert result["rule"] == "host_out_of_memory" and result["changed"] is False


def test_journalctl_failure_fails_the_module(journal):
    _unused, answer = journal
    answer.update(rc=1, err="Failed to add filter for units: No data available")
    result = run_module(kimi_vllm_diagnose, {"unit": "nope.service"})
    assert result["failed"] and "journalctl -u nope.service failed" in result["msg"]
    assert "No data available" in result["msg"]


def test_empty_journal_is_unknown(journal):
    _unused, answer = journal
    answer["out"] = "-- No entries --\n"
    result = run_module(kimi_vllm_diagnose, {"unit": "kimi-vllm.service"})
    assert (result["phase"], result["rule"], result["log_lines_read"]) == ("unknown", "no_vllm_log", 0)


@pytest.mark.parametrize("args", [
    {},
    {"log_text": "x", "unit": "kimi-vllm.service"},
    {"log_text": "x", "log_file": "/tmp/x"},
    {"log_text": "x", "since": "-1h"},
])
def test_exactly_one_source(args):
    result = run_module(kimi_vllm_diagnose, args)
    assert result["failed"]


def test_bad_lines_and_bad_context_fail_with_a_message():
    assert "lines must be at least 1" in run_module(kimi_vllm_diagnose, {"log_text": "x", "lines": 0})["msg"]
    result = run_module(kimi_vllm_diagnose, {"log_text": "x", "context": {"max_model_len": "lots"}})
    assert result["failed"] and "context['max_model_len']" in result["msg"]


HEALTHY_JOURNAL = "\n".join([
    "2026-11-30T07:00:00+0000 gpu1 kimi-vllm[7]: INFO 11-30 07:00:00 [api_server.py:1] vLLM API server version 0.32.0",
    "2026-11-30T07:01:00+0000 gpu1 kimi-vllm[7]: INFO:     Application startup complete.",
    '2026-11-30T07:05:00+0000 gpu1 kimi-vllm[7]: INFO:     10.0.0.9:5 - "POST /v1/completions HTTP/1.1" 400 Bad '
    "Request",
    '2026-11-30T07:20:00+0000 gpu1 kimi-vllm[7]: INFO:     10.0.0.9:6 - "POST /v1/chat/completions HTTP/1.1" 404 Not '
    "Found",
])


def test_exclude_windows_reads_the_journal_with_times_and_drops_the_probes(journal):
    calls, answer = journal
    answer["out"] = HEALTHY_JOURNAL + "\n"
    window = {"start": "2026-11-30T07:04:00Z", "end": "2026-11-30T07:06:00Z"}  # the acceptance probes
    result = run_module(kimi_vllm_diagnose, {"unit": "kimi-vllm.service", "exclude_windows": [window]})
    assert calls == [["journalctl", "-u", "kimi-vllm.service", "-o", "short-iso", "--no-pager", "-n", "2000"]]
    assert (result["phase"], result["healthy"], result["cause_class"]) == ("none", True, "healthy")
    assert result["client_errors"] == [{"status": 404, "method": "POST", "route": "/v1/chat/completions",
                                        "count": 1}]


def test_bad_exclude_window_fails_with_the_expected_shape():
    result = run_module(kimi_vllm_diagnose, {"log_text": HEALTHY_JOURNAL, "exclude_windows": [{"start": "7am"}]})
    assert result["failed"] and "start, end" in result["msg"]


def test_root_leaves_out_the_probes_of_every_release(journal, tmp_path):
    """A deploy, a changed deploy and a rollback: the journal holds the acceptance probes of two releases."""
    calls, answer = journal
    answer["out"] = HEALTHY_JOURNAL + "\n"
    for rid, started in (("0.32.0-aaaaaaaaaa", "2026-11-30T07:04:30Z"), ("0.32.0-bbbbbbbbbb", "2026-11-30T07:19:30Z")):
        release = tmp_path / "releases" / rid
        release.mkdir(parents=True)
        (release / "release.json").write_text(json.dumps(
            {"schema_version": 1, "id": rid, "acceptance": {"started_at": started, "suite_duration_s": 20.0}}))
    result = run_module(kimi_vllm_diagnose, {"unit": "kimi-vllm.service", "root": str(tmp_path)}, check_mode=True)
    assert calls[0][:5] == ["journalctl", "-u", "kimi-vllm.service", "-o", "short-iso"]
    assert (result["phase"], result["healthy"], result["client_errors"]) == ("none", True, [])
    assert [w["start"] for w in result["excluded_windows"]] == ["2026-11-30T07:03:30Z", "2026-11-30T07:18:30Z"]


def test_a_root_without_releases_leaves_nothing_out(journal, tmp_path):
    calls, answer = journal
    answer["out"] = HEALTHY_JOURNAL + "\n"
    result = run_module(kimi_vllm_diagnose, {"unit": "kimi-vllm.service", "root": str(tmp_path / "none")})
    assert calls[0][4] == "cat" and result["excluded_windows"] == []
    assert [e["status"] for e in result["client_errors"]] == [400, 404]
