"""Issue 12: the restart of a multi-node replica, decided in Python (core/replica_start.py).

Each case is a branch of the decision start_replica.yml made in Jinja before (its
"Note whether this node needs the replica restarted" and "Decide for the whole replica" tasks):

  node asks = restart_required or node.env changed
              or (runs vLLM and vLLM's ActiveState != active)
              or (backend ray and (Ray's ActiveState != active or this node's Ray changed))
  replica restarts = any node asks, a node without an answer counting as asking
  previous invocation (health gate) = vLLM's InvocationID before, when the replica restarts, else ""
  leave Ray = backend is not ray and systemd knows a kimi-ray unit (LoadState != not-found)

The unit states are the recorded `systemctl show` outputs of tests/fixtures/systemctl-show.
"""

from __future__ import annotations

import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.replica_start import NodeReport, node_restart_reasons, replica_start
from kimi_deploy.core.service_state import UnitState
from repo_paths import FIXTURES


def unit(name: str) -> UnitState:
    return UnitState.parse((FIXTURES / "systemctl-show" / f"{name}.txt").read_text())


def report(*, runs_vllm=True, backend="mp", vllm="active", ray="not_found", restart_required=False,
           node_env_changed=False, ray_changed=False) -> NodeReport:
    return NodeReport(runs_vllm=runs_vllm, backend=backend, vllm=unit(vllm), ray=unit(ray),
                      restart_required=restart_required, node_env_changed=node_env_changed,
                      ray_changed=ray_changed)


# (case, this node's report, whether it asks for the replica's restart, the words of its reason)
NODE_CASES = [
    ("second converge (mp): everything runs, nothing changed", report(), False, None),
    ("second converge (ray head): both units run, nothing changed",
     report(backend="ray", ray="active"), False, None),
    ("Ray worker: vLLM is kept off it, its Ray runs",
     report(runs_vllm=False, backend="ray", vllm="inactive", ray="active"), False, None),
    ("caller requires it (current moved, unit or secrets changed)", report(restart_required=True), True,
     "restart is required"),
    ("node.env changed (flags, network)", report(node_env_changed=True), True, "node.env changed"),
    ("vLLM failed", report(vllm="failed"), True, "vLLM is not active (failed/failed)"),
    ("vLLM stopped", report(vllm="inactive"), True, "vLLM is not active (inactive/dead)"),
    ("vLLM crash-looping (activating between restarts)", report(vllm="auto_restart"), True,
     "vLLM is not active (activating/auto-restart)"),
    ("vLLM unit never installed", report(vllm="not_found"), True, "vLLM is not active (inactive/dead)"),
    ("ray: Ray unit failed", report(backend="ray", ray="failed"), True, "Ray is not active (failed/failed)"),
    ("ray: Ray unit not installed yet", report(backend="ray", ray="not_found"), True, "Ray is not active"),
    ("ray: this node's Ray env, token or unit changed", report(backend="ray", ray="active", ray_changed=True),
     True, "Ray environment, token or unit changed"),
    ("mp: a stale Ray change of an earlier run does not count", report(ray_changed=True, ray="active"), False,
     None),
    ("mp: a stopped Ray unit does not count", report(ray="failed"), False, None),
    ("a unit file changed on disk alone does not count (the caller's restart_required says so)",
     report(vllm="active_unit_changed"), False, None),
]


@pytest.mark.parametrize(("case", "node", "asks", "words"), NODE_CASES, ids=[c[0] for c in NODE_CASES])
def test_a_node_asks_for_a_restart_in_exactly_the_cases_of_before(case, node, asks, words):
    reasons = node_restart_reasons(node)
    assert bool(reasons) is asks, (case, reasons)
    if words:
        assert any(words in r for r in reasons), reasons


def test_second_converge_restarts_nothing():
    decision = replica_start({"head": report(), "worker": report()})
    assert decision.restart is False and decision.reasons == []
    assert {n.action for n in decision.nodes.values()} == {"nothing"}
    assert {n.previous_invocation for n in decision.nodes.values()} == {""}  # the gate waits for no new run


def test_one_node_asking_restarts_every_node_with_its_reason():
    decision = replica_start({"head": report(), "worker": report(vllm="failed")})
    assert decision.restart is True
    assert decision.reasons == ["worker: vLLM is not active (failed/failed)"]
    assert decision.nodes["head"].action == "restart" and decision.nodes["head"].reasons == []
    assert decision.nodes["worker"].action == "start"  # nothing of it runs: only started
    # the head's gate waits for a run other than the one before the restart
    assert decision.nodes["head"].previous_invocation == unit("active").invocation_id


def test_a_node_that_did_not_report_counts_as_asking():
    decision = replica_start({"head": report(), "worker": None})
    assert decision.restart is True
    assert decision.reasons == ["worker: did not report its state (it failed or is not in this run)"]
    assert decision.nodes["head"].action == "restart"
    assert replica_start({"head": report(), "worker": {}}).restart is True  # hostvars' default


def test_every_reason_of_every_node_is_kept_in_replica_order():
    decision = replica_start({"head": report(restart_required=True, node_env_changed=True),
                              "worker": report(backend="ray", ray="failed", runs_vllm=False)})
    assert [r.split(":")[0] for r in decision.reasons] == ["head", "head", "worker"]


@pytest.mark.parametrize(("backend", "ray", "leave"), [
    ("mp", "active", True),  # a rollback across backends: Ray must go
    ("mp", "failed", True),
    ("mp", "not_found", False),  # never had Ray: nothing to stop
    ("ray", "active", False),
])
def test_ray_is_left_when_the_release_does_not_use_it(backend, ray, leave):
    node = report(backend=backend, ray=ray)
    assert replica_start({"n": node}).nodes["n"].leave_ray is leave


def test_reports_as_the_playbook_hands_them_in():
    # set_fact's values: the flags as booleans (or their text), the units as kimi_unit_state returns them
    from dataclasses import asdict
    as_set = {"runs_vllm": True, "backend": "mp", "restart_required": "False", "node_env_changed": False,
              "ray_changed": "True", "vllm": asdict(unit("active")), "ray": asdict(unit("not_found"))}
    decision = replica_start({"head": as_set, "worker": {**as_set, "node_env_changed": "true"}})
    assert decision.restart is True and decision.reasons == [
        "worker: node.env changed (this node's flags or network)"]
    assert decision.as_dict()["nodes"]["head"] == {
        "action": "restart", "reasons": [], "previous_invocation": unit("active").invocation_id, "leave_ray": False}


def test_a_flag_that_is_neither_true_nor_false_is_refused():
    with pytest.raises(KimiDeployError, match="restart_required"):
        replica_start({"head": {"runs_vllm": True, "backend": "mp", "restart_required": "maybe"}})
