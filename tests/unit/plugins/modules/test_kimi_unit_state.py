"""kimi_unit_state reads units with `systemctl show` (answered here by the recorded outputs of
tests/fixtures/systemctl-show) and changes nothing; kimi_replica_start decides from what it returns."""

from __future__ import annotations

import kimi_replica_start
import kimi_unit_state
import pytest
from ansible.errors import AnsibleFilterError
from ansible.module_utils.basic import AnsibleModule
from module_harness import run_module
from repo_paths import FIXTURES

RECORDED = {"kimi-vllm.service": "active", "kimi-ray.service": "auto_restart", "kimi-gone.service": "not_found"}


@pytest.fixture
def systemctl(monkeypatch):
    calls = []

    def run_command(self, args, **kwargs):
        calls.append(list(args))
        assert args[:2] == ["systemctl", "show"], args
        name = RECORDED.get(args[2])
        if name is None:
            return 1, "", f"Failed to get properties: no answer recorded for {args[2]}\n"
        return 0, (FIXTURES / "systemctl-show" / f"{name}.txt").read_text(), ""

    monkeypatch.setattr(AnsibleModule, "run_command", run_command)
    return calls


def test_reads_each_unit_in_check_mode_and_changes_nothing(systemctl):
    result = run_module(kimi_unit_state, {"units": ["kimi-vllm.service", "kimi-ray.service", "kimi-gone.service"]},
                        check_mode=True)
    assert result["changed"] is False and not result.get("failed"), result
    units = result["units"]
    assert units["kimi-vllm.service"] == {
        "load_state": "loaded", "active_state": "active", "sub_state": "running", "n_restarts": 0, "main_pid": 74,
        "invocation_id": "ccc43e1ab6984fc198756197f06ec629", "need_daemon_reload": False}
    assert (units["kimi-ray.service"]["active_state"], units["kimi-ray.service"]["sub_state"],
            units["kimi-ray.service"]["n_restarts"]) == ("activating", "auto-restart", 3)
    assert units["kimi-gone.service"]["load_state"] == "not-found"
    # one `systemctl show` per unit, asking every property the state holds
    assert [c[2] for c in systemctl] == ["kimi-vllm.service", "kimi-ray.service", "kimi-gone.service"]
    asked = [systemctl[0][i + 1] for i, arg in enumerate(systemctl[0]) if arg == "-p"]
    assert set(asked) == {"LoadState", "ActiveState", "SubState", "NRestarts", "MainPID", "InvocationID",
                          "NeedDaemonReload"}


def test_a_failing_systemctl_fails_the_module_with_its_words(systemctl):
    result = run_module(kimi_unit_state, {"units": ["kimi-other.service"]})
    assert result["failed"] and "systemctl show kimi-other.service failed: Failed to get properties" in result["msg"]


def test_the_filter_decides_from_what_the_module_returns(systemctl):
    units = run_module(kimi_unit_state, {"units": ["kimi-vllm.service", "kimi-ray.service"]})["units"]
    head = {"runs_vllm": True, "backend": "ray", "restart_required": False, "node_env_changed": False,
            "ray_changed": False, "vllm": units["kimi-vllm.service"], "ray": units["kimi-ray.service"]}
    decision = kimi_replica_start.FilterModule().filters()["kimi_replica_start"]({"head": head, "worker": {}})
    assert decision["restart"] is True
    assert decision["reasons"] == ["head: Ray is not active (activating/auto-restart)",
                                   "worker: did not report its state (it failed or is not in this run)"]
    assert decision["nodes"]["head"]["previous_invocation"] == "ccc43e1ab6984fc198756197f06ec629"


def test_the_filter_names_a_report_it_cannot_read():
    with pytest.raises(AnsibleFilterError, match=r"kimi_replica_start: .*backend"):
        kimi_replica_start.kimi_replica_start({"head": {"runs_vllm": True}})
