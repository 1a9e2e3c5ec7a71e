"""kimi_vllm_state reads the unit once (`systemctl show`, answered here by the recorded outputs of
tests/fixtures/systemctl-show) and returns, besides the restart decision, the unit's InvocationID: the run a
restart replaces, which start.yml hands to the health gate as previous_invocation."""

from __future__ import annotations

import kimi_vllm_state
import pytest
import yaml
from ansible.module_utils.basic import AnsibleModule
from module_harness import run_module
from repo_paths import FIXTURES, REPO
from task_tree import walk_tasks


@pytest.fixture
def deploy_root(tmp_path):
    (tmp_path / "releases" / "r1").mkdir(parents=True)
    (tmp_path / "current").symlink_to("releases/r1")
    secrets = tmp_path / "secrets.env"
    secrets.write_text("KIMI_SECRETS_SHA256=aaa\n")
    return {"root": str(tmp_path), "secrets_file": str(secrets), "unit": "kimi-vllm.service"}


def _answer_with(monkeypatch, recorded: str) -> list[list[str]]:
    calls = []

    def run_command(self, args, **kwargs):
        calls.append(list(args))
        return 0, (FIXTURES / "systemctl-show" / f"{recorded}.txt").read_text(), ""

    monkeypatch.setattr(AnsibleModule, "run_command", run_command)
    # the recorded MainPID 74 is some other process on this machine, if any: read nothing of /proc
    real_read = kimi_vllm_state._read
    monkeypatch.setattr(kimi_vllm_state, "_read", lambda path, binary=False: None if path.startswith("/proc/")
                        else real_read(path, binary))
    return calls


@pytest.mark.parametrize(("recorded", "invocation", "active"), [
    ("active", "ccc43e1ab6984fc198756197f06ec629", "active"),
    ("auto_restart", "b858e096b935420da35bed6b7d7f557f", "activating"),
    ("failed", "673405fe788f499da70ec1810efa3e05", "failed"),
    ("inactive", "", "inactive"),  # a stopped unit shows no InvocationID
    ("not_found", "", "inactive"),
])
def test_returns_the_units_invocation_from_the_one_systemctl_show(
        monkeypatch, deploy_root, recorded, invocation, active):
    calls = _answer_with(monkeypatch, recorded)
    result = run_module(kimi_vllm_state, deploy_root, check_mode=True)
    assert not result.get("failed") and result["changed"] is False, result
    assert (result["invocation_id"], result["active_state"]) == (invocation, active)
    assert len(calls) == 1 and calls[0][:3] == ["systemctl", "show", "kimi-vllm.service"]
    asked = [calls[0][i + 1] for i, arg in enumerate(calls[0]) if arg == "-p"]
    assert "InvocationID" in asked and "ActiveState" in asked


def test_a_stale_unit_restarts_and_names_the_run_it_replaces(monkeypatch, deploy_root):
    _answer_with(monkeypatch, "active_unit_changed")
    result = run_module(kimi_vllm_state, deploy_root)
    assert result["restart_required"] and result["daemon_reload"]
    assert result["invocation_id"] == "ccc43e1ab6984fc198756197f06ec629"


def test_invocation_id_is_documented_as_returned():
    documented = yaml.safe_load(kimi_vllm_state.RETURN)
    assert documented["invocation_id"]["returned"] == "always" and documented["invocation_id"]["type"] == "str"


def test_the_health_gate_waits_for_a_new_run_of_what_the_state_module_read():
    """start.yml reads the invocation once, with the state (no separate `systemctl show` task), and hands it to the
    health gate only when it restarts."""
    start = yaml.safe_load((REPO / "roles/kimi_vllm/tasks/start.yml").read_text())
    tasks = list(walk_tasks(start))
    state = next(t for t in tasks if "kimi.deploy.kimi_vllm_state" in t)
    health = next(t for t in tasks if "kimi.deploy.kimi_vllm_health" in t)
    assert f"{state['register']}.invocation_id" in health["kimi.deploy.kimi_vllm_health"]["previous_invocation"]
    commands = [t for t in tasks if "ansible.builtin.command" in t]
    assert commands and not any("show" in t["ansible.builtin.command"]["argv"] for t in commands)
