"""host_status(): what a host is doing now (systemd), restarts since the deploy, last failure, health."""

from __future__ import annotations

import json

import kimi_vllm_status
import pytest
from ansible.module_utils.basic import AnsibleModule
from kimi_deploy.core.diagnose import diagnose, last_failure
from kimi_deploy.core.host_status import acceptance_windows, host_status, parse_time, probe_windows, service_state
from module_harness import run_module

RELEASE = {"id": "0.32.0-abc1234567", "activations": ["2026-11-30T09:00:00.000000Z", "2026-12-01T10:00:00.123456Z"],
           "acceptance": {"verdict": "passed", "started_at": "2026-12-01T10:05:00+00:00", "suite_duration_s": 240.0}}

# A start that fails on the KV cache, systemd's restart, and a second start that fails the same way.
KV_FAIL = ("ERROR 12-01 10:02:00 [core.py:1] ValueError: To serve at least one request with the models's max seq "
           "len (32768), (4.00 GiB KV cache is needed, which is larger than the available KV cache memory (2.00 "
           "GiB). Based on the available memory, the estimated maximum model length is 16384.")
FAILED_JOURNAL = "\n".join([
    "Started kimi-vllm.service - Kimi K3 on vLLM.",
    "INFO 12-01 10:01:00 [api_server.py:1] vLLM API server version 0.32.0",
    "INFO 12-01 10:01:30 [gpu_model_runner.py:1] Model loading took 60.1 GiB and 25 s",
    KV_FAIL,
    "kimi-vllm.service: Main process exited, code=exited, status=1/FAILURE",
    "Started kimi-vllm.service - Kimi K3 on vLLM.",
    "INFO 12-01 10:03:00 [api_server.py:1] vLLM API server version 0.32.0",
    "INFO 12-01 10:03:30 [gpu_model_runner.py:1] Model loading took 60.1 GiB and 25 s",
    KV_FAIL.replace("10:02:00", "10:04:00"),
])
# A healthy host: served, one client error during the acceptance probes (10:05-10:09), two after.
HEALTHY_JOURNAL = "\n".join([
    "2026-12-01T10:00:05+0000 gpu1 kimi-vllm[7]: INFO 12-01 10:00:05 [api_server.py:1] vLLM API server version "
    "0.32.0",
    "2026-12-01T10:01:00+0000 gpu1 kimi-vllm[7]: INFO:     Application startup complete.",
    '2026-12-01T10:06:00+0000 gpu1 kimi-vllm[7]: INFO:     127.0.0.1:5 - "POST /v1/completions HTTP/1.1" 400 Bad '
    "Request",
    '2026-12-01T11:20:00+0000 gpu1 kimi-vllm[7]: INFO:     10.0.0.9:5 - "POST /v1/completions HTTP/1.1" 400 Bad '
    "Request",
    '2026-12-01T11:21:00+0000 gpu1 kimi-vllm[7]: INFO:     10.0.0.9:6 - "POST /v1/chat/completions HTTP/1.1" 404 Not '
    "Found",
])


def _unit(active, sub, restarts="0", started="Tue 2026-12-01 10:00:30 UTC", result="success"):
    return {"ActiveState": active, "SubState": sub, "NRestarts": restarts, "ExecMainStartTimestamp": started,
            "Result": result}


@pytest.mark.parametrize(("active", "sub", "result", "state"), [
    ("active", "running", "success", "serving"),
    ("activating", "start", "success", "starting"),
    ("activating", "start-post", "success", "starting"),
    ("activating", "auto-restart", "exit-code", "restarting"),
    ("failed", "failed", "exit-code", "failed"),
    ("inactive", "dead", "exit-code", "failed"),
    ("inactive", "dead", "success", "stopped"),
])
def test_state_comes_from_systemd(active, sub, result, state):
    assert service_state(_unit(active, sub, result=result)) == state


def test_times_from_release_json_and_systemd():
    assert parse_time("2026-12-01T10:00:00.123456Z") == parse_time("Tue 2026-12-01 10:00:00 UTC")
    assert parse_time("2026-12-01T12:00:00+02:00") == parse_time("2026-12-01T10:00:00Z")
    assert parse_time("n/a") is None and parse_time("Tue 2026-12-01 10:00:00 CET") is None


def test_the_acceptance_window_is_read_from_release_json():
    assert acceptance_windows(RELEASE) == [{"start": "2026-12-01T10:04:00Z", "end": "2026-12-01T10:10:00Z"}]
    assert acceptance_windows({"acceptance": {"verdict": "passed"}}) == []


def test_probe_windows_are_every_releases_oldest_first():
    older = {"acceptance": {"started_at": "2026-11-30T09:00:00Z", "suite_duration_s": 30}}
    never_judged = {"acceptance": {"verdict": "failed"}}
    assert probe_windows([RELEASE, never_judged, older]) == [
        {"start": "2026-11-30T08:59:00Z", "end": "2026-11-30T09:01:30Z"},
        {"start": "2026-12-01T10:04:00Z", "end": "2026-12-01T10:10:00Z"}]
    assert probe_windows([]) == []


def test_a_failed_host_names_its_last_failure_and_the_restarts_since_the_deploy():
    unit = _unit("activating", "auto-restart", restarts="2", started="Tue 2026-12-01 10:03:00 UTC",
                 result="exit-code")
    answer = host_status(unit, RELEASE, diagnose(FAILED_JOURNAL), last_failure(FAILED_JOURNAL))
    assert (answer["state"], answer["restarts_since_deploy"], answer["healthy"]) == ("restarting", 2, False)
    failure = answer["last_failure"]
    assert (failure["phase"], failure["cause_class"]) == ("startup", "kv_cache_insufficient")
    assert failure["parameter_changes"] == {"max_model_len": 16384}
    assert answer["lines"][0] == ("state: restarting (activating/auto-restart), release 0.32.0-abc1234567 activated "
                                  "2026-12-01T10:00:00Z, 2 restart(s) since")
    assert answer["lines"][1].startswith("last failure: startup / kv_cache_insufficient: ")
    assert answer["lines"][2].startswith("next step: 1. Lower max_model_len from 32768 to 16384")


def test_a_host_serving_again_after_a_crash_still_shows_the_crash():
    journal = FAILED_JOURNAL + "\nINFO:     Application startup complete."
    answer = host_status(_unit("active", "running", restarts="1", started="Tue 2026-12-01 10:03:00 UTC"), RELEASE,
                         diagnose(journal), last_failure(journal))
    assert answer["state"] == "serving" and answer["healthy"] is False
    assert answer["last_failure"]["cause_class"] == "kv_cache_insufficient"


def test_a_healthy_host_counts_client_errors_outside_the_acceptance_probes():
    windows = acceptance_windows(RELEASE)
    answer = host_status(_unit("active", "running"), RELEASE, diagnose(HEALTHY_JOURNAL, exclude_windows=windows),
                         last_failure(HEALTHY_JOURNAL, exclude_windows=windows))
    assert (answer["state"], answer["healthy"], answer["last_failure"]) == ("serving", True, None)
    assert answer["client_errors"] == [
        {"status": 400, "method": "POST", "route": "/v1/completions", "count": 1},
        {"status": 404, "method": "POST", "route": "/v1/chat/completions", "count": 1}]
    assert answer["lines"] == [
        "state: serving (active/running), release 0.32.0-abc1234567 activated 2026-12-01T10:00:00Z, 0 restart(s) "
        "since",
        "health: healthy; client errors outside the acceptance probes: 1x 400 POST /v1/completions, 1x 404 POST "
        "/v1/chat/completions"]


def test_a_service_not_restarted_into_the_release_says_so():
    answer = host_status(_unit("active", "running", restarts="4", started="Mon 2026-11-30 09:00:10 UTC"), RELEASE,
                         diagnose(HEALTHY_JOURNAL), None)
    assert answer["restarted_into_release"] is False and answer["restarts_since_deploy"] == 0
    assert "has not been restarted since this release was activated" in answer["lines"][0]


# ----- the module: systemctl show, release.json and journalctl, read-only -------------------------------------

@pytest.fixture
def host(monkeypatch, tmp_path):
    release_dir = tmp_path / "releases" / RELEASE["id"]
    release_dir.mkdir(parents=True)
    (release_dir / "release.json").write_text(json.dumps(RELEASE))
    (tmp_path / "current").symlink_to(release_dir)
    calls = []
    answers = {"systemctl": "ActiveState=active\nSubState=running\nResult=success\nNRestarts=0\n"
                            "ExecMainStartTimestamp=Tue 2026-12-01 10:00:30 UTC\nLoadState=loaded\n",
               "journalctl": "-- Boot 3f2c1d --\n" + HEALTHY_JOURNAL + "\n"}

    def fake_run_command(self, args, **kwargs):
        calls.append(args)
        return 0, answers[args[0]], ""

    monkeypatch.setattr(AnsibleModule, "run_command", fake_run_command)
    return tmp_path, calls


def test_module_reads_the_journal_since_the_activation_in_check_mode(host):
    root, calls = host
    result = run_module(kimi_vllm_status, {"root": str(root)}, check_mode=True)
    assert not result.get("failed") and result["changed"] is False
    assert (result["state"], result["healthy"], result["release_id"]) == ("serving", True, RELEASE["id"])
    assert calls[0][:3] == ["systemctl", "show", "kimi-vllm.service"]
    assert calls[1][calls[1].index("--since") + 1] == "2026-12-01 10:00:00 UTC"
    assert "short-iso" in calls[1]
    assert result["slow"] is None and len(result["lines"]) == 2


def test_module_answers_the_speed_question_with_ledger_rows(host):
    root, _unused = host
    rows = [{"host_group": "gpu_nodes", "time": f"2026-11-{day}T00:00:00Z", "concurrency": 1, "accepted": True,
             "ttft_p50_ms": ttft, "itl_p50_ms": 10.0, "vllm_version": "0.32.0"}
            for day, ttft in (("28", 80.0), ("29", 82.0))]
    rows.append({"host_group": "gpu_nodes", "time": "2026-12-01T10:00:00Z", "concurrency": 1, "accepted": True,
                 "ttft_p50_ms": 250.0, "itl_p50_ms": 31.0, "vllm_version": "0.33.0"})
    result = run_module(kimi_vllm_status, {"root": str(root), "ledger_rows": rows, "host_group": "gpu_nodes"})
    assert result["slow"]["verdict"] == "machine_or_build"
    assert result["slow"]["next_variable"] == {"name": "vllm_version", "from": "0.33.0", "to": "0.32.0"}
    assert result["lines"][-1].startswith("speed: machine or build")
