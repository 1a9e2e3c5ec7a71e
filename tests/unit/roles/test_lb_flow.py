"""deploy.yml and rollback.yml drain the replica on the fleet balancer before anything serving changes and put it
back only once a proven release serves: the real playbooks, flow roles (kimi_deploy, kimi_rollback) and kimi_lb
against a real HAProxy (the balancer of test_lb.py), the phase roles replaced by stubs.

The stubs stand in for kimi_preflight, kimi_vllm, kimi_weights, kimi_plan, kimi_release, kimi_acceptance and
kimi_ledger (a collection made here, the rest of it linked to this repository). Each stub step prints the
balancer's state of the replica at that moment, read from HAProxy's runtime API, so the test sees the order:
UP while the release is prepared, DRAIN when current moves and while acceptance runs, UP after acceptance; on a
failure, DRAIN until the last accepted release serves again, and still DRAIN when nothing proven serves.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import kimi_release
import pytest
import yaml
from haproxy_run import admin_label, needs_haproxy
from module_harness import run_module
from task_tree import stub_collection

# The running balancer (a fixture of test_lb).
from test_lb import fleet  # noqa: F401  # pylint: disable=unused-import
from unit_render import REPO

REAL_ROLES = ("kimi", "kimi_deploy", "kimi_rollback", "kimi_lb")


def _step(label: str, **extra) -> dict:
    """A stub task: print the step and the balancer's state of this replica; fail when told to (fail_at)."""
    return {"name": f"Stub {label}", "ansible.builtin.debug": {
        "msg": f"STEP {label} {{{{ lookup('ansible.builtin.pipe', balancer_state) }}}}"}, **extra}


def _fail(label: str) -> dict:
    """Fails at the step fail_at names, and at those of fail_also (a step that runs only after another failure)."""
    return {"name": f"Stub {label} fails", "ansible.builtin.fail": {"msg": f"{label} failed (stub)"},
            "when": f"fail_at == '{label}' or '{label}' in fail_also"}


def _facts(**facts) -> dict:
    return {"name": "Stub facts", "ansible.builtin.set_fact": facts}


STUBS: dict[str, dict[str, list]] = {
    "kimi_preflight": {"main": [], "lock": [], "unlock": []},
    "kimi_vllm": {"main": [_facts(kimi_vllm_venv_result={"python": sys.executable, "vllm_version": "0.32.0"})],
                  "service": [], "start": [_step("start"), _fail("start")], "diagnose": []},
    "kimi_weights": {"main": []},
    "kimi_plan": {"main": [_facts(kimi_plan_result={"max_num_seqs": 4})]},
    "kimi_release": {
        # recover.yml exports whether the flow restarts the last accepted release (not here: nothing was interrupted)
        "recover": [_step("prepare"), _facts(kimi_release_recovery={"restart": False, "service": {}})],
        "main": [_facts(kimi_release_id="r2", kimi_release_previous="r1", kimi_release_accepted=False)],
        "replica": [],
        "activate": [_step("activate"), _fail("activate"),
                     _facts(kimi_release_switch={"changed": True, "release_id": "r2", "previous": "r1"})],
        "verdict": [_step("verdict")],
        "restore": [_step("restore"), _fail("restore"),
                    _facts(kimi_release_restored={"serving": "{{ restore_serving }}"})],
        "prune": [_facts(kimi_release_pruned={"rollback_target": "r1"})],
        "rollback": [_fail("rollback_before_switch"), _step("rollback"),
                     _facts(kimi_release_switch={"changed": True, "release_id": "{{ rollback_target }}"}),
                     _fail("rollback_after_switch")],
    },
    "kimi_acceptance": {"main": [_step("acceptance"), _fail("acceptance"),
                                 _facts(kimi_acceptance_result={"passed": True, "checks": {}})]},
    "kimi_ledger": {"main": [_step("record")]},
}


@pytest.fixture
def collection(tmp_path) -> Path:
    """kimi.deploy with the flow and balancer roles and the plugins of this repository, the rest stubs."""
    return stub_collection(tmp_path, REAL_ROLES, STUBS)


def _run(collection: Path, tmp_path: Path, sock: str, playbook: str, *, gpu_hosts: dict | None = None,
         limit: str = "", shown: str = "admin_label('{sock}', 'kimi_replicas', 'h200-1')",
         **overrides) -> tuple[int, list[str], str]:
    """(rc, the STEP lines in order as 'label STATE', output) of one run of the real playbook: on h200-1, or on
    ``gpu_hosts`` ({host: its variables}) within ``limit``; ``shown`` is what each step prints of the balancer."""
    # The admin state (drain/ready) the flow set, read at each step; health checks do not enter it.
    state = (f"{sys.executable} -c \"import sys; sys.path[:0] = ['{REPO}/plugins/module_utils', '{REPO}/tests/unit']; "
             "from haproxy_run import admin_label, weight; "
             f"print({shown.format(sock=sock)})\"")
    variables = {"ansible_connection": "local", "ansible_python_interpreter": sys.executable,
                 "kimi_root": str(tmp_path / "root"), "kimi_model_repo": "org/tiny", "kimi_api_key": "k" * 32,
                 "kimi_lb_runtime_socket": sock, "kimi_lb_drain_timeout_s": 10, "balancer_state": state,
                 "rollback_target": "r1",
                 "fail_at": "", "fail_also": [], "restore_serving": "r1", **overrides}
    inventory = {"all": {"vars": variables, "children": {"gpu_nodes": {"hosts": gpu_hosts or {"h200-1": {}}},
                                                         "lb_nodes": {"hosts": {"lb-local": {}}}}}}
    (tmp_path / "hosts.yml").write_text(yaml.safe_dump(inventory))
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}", "ANSIBLE_NOCOLOR": "1",
           "ANSIBLE_CONFIG": str(REPO / "ansible.cfg"), "ANSIBLE_COLLECTIONS_PATH": str(collection)}
    proc = subprocess.run(["ansible-playbook", str(REPO / playbook), "-i", str(tmp_path / "hosts.yml"),
                           *(["--limit", limit] if limit else [])],
                          capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    out = proc.stdout + proc.stderr
    return proc.returncode, re.findall(r'msg\W+STEP ([a-z_]+ [A-Z]+(?::[0-9]+)?)', out), out


def _state(sock: str) -> str:
    return admin_label(sock, "kimi_replicas", "h200-1")


@needs_haproxy
def test_deploy_drains_before_the_switch_and_puts_back_after_acceptance(fleet, collection, tmp_path):  # noqa: F811
    _port, sock, _unused, _unused = fleet
    rc, steps, out = _run(collection, tmp_path, sock, "deploy.yml")
    assert rc == 0, out[-4000:]
    assert steps == ["prepare UP", "activate DRAIN", "start DRAIN", "acceptance DRAIN", "verdict DRAIN",
                     "record UP"], out[-4000:]
    assert _state(sock) == "UP"


@needs_haproxy
def test_a_failed_release_is_put_back_only_once_the_last_accepted_one_serves(fleet, collection, tmp_path):  # noqa: F811
    _port, sock, _unused, _unused = fleet
    rc, steps, out = _run(collection, tmp_path, sock, "deploy.yml", fail_at="acceptance")
    assert rc != 0 and "acceptance failed (stub)" in out
    # the flow restarts the restored release (kimi_vllm start) while the replica is still out
    assert steps == ["prepare UP", "activate DRAIN", "start DRAIN", "acceptance DRAIN", "restore DRAIN",
                     "start DRAIN", "record UP"], out[-4000:]
    assert _state(sock) == "UP"


@needs_haproxy
def test_a_replica_without_a_proven_release_stays_out(fleet, collection, tmp_path):  # noqa: F811
    """No release was ever accepted: the restore stops the service and the replica stays drained. (A restore
    that fails never reaches the put-back: the rescue stops there, as the rollback case below shows.)"""
    _port, sock, _unused, _unused = fleet
    rc, steps, out = _run(collection, tmp_path, sock, "deploy.yml", fail_at="acceptance", restore_serving="")
    assert rc != 0, out[-3000:]
    assert steps == ["prepare UP", "activate DRAIN", "start DRAIN", "acceptance DRAIN", "restore DRAIN",
                     "record DRAIN"], out[-4000:]
    assert _state(sock) == "DRAIN"


@needs_haproxy
def test_a_failure_before_the_switch_puts_the_untouched_replica_back(fleet, collection, tmp_path):  # noqa: F811
    _port, sock, _unused, _unused = fleet
    rc, steps, out = _run(collection, tmp_path, sock, "deploy.yml", fail_at="activate")
    assert rc != 0 and "activate failed (stub)" in out
    assert steps == ["prepare UP", "activate DRAIN"], out[-4000:]
    assert _state(sock) == "UP"


@needs_haproxy
def test_without_balancers_nothing_changes(fleet, collection, tmp_path):  # noqa: F811
    _port, sock, _unused, _unused = fleet
    rc, steps, out = _run(collection, tmp_path, sock, "deploy.yml", kimi_lb_group="")
    assert rc == 0, out[-4000:]
    assert all(step.endswith(" UP") for step in steps) and "kimi_lb" not in out


@needs_haproxy
@pytest.mark.parametrize("playbook", ["deploy.yml", "rollback.yml"])
def test_a_balancer_not_installed_yet_is_left_out(fleet, collection, tmp_path, playbook):  # noqa: F811
    """The fleet's first deploy comes before fleet.yml (which sizes each replica by the release it serves):
    a balancer in the inventory without kimi-lb running (no runtime socket) sends the replica no traffic,
    so the flow goes on without it and says so, instead of failing on the missing socket."""
    _port, sock, _unused, _unused = fleet
    rc, steps, out = _run(collection, tmp_path, sock, playbook, kimi_lb_runtime_socket=str(tmp_path / "no-lb.sock"))
    assert rc == 0, out[-4000:]
    assert "No balancer serves on lb-local" in " ".join(out.split()), out[-4000:]
    assert steps and "record" in steps[-1], steps  # the flow ran to its end


@needs_haproxy
def test_rollback_drains_before_the_switch_and_puts_back_once_it_serves(fleet, collection, tmp_path):  # noqa: F811
    _port, sock, _unused, _unused = fleet
    rc, steps, out = _run(collection, tmp_path, sock, "rollback.yml")
    assert rc == 0, out[-4000:]
    assert steps == ["rollback DRAIN", "start DRAIN", "record UP"] and _state(sock) == "UP", out[-4000:]
    rc, steps, out = _run(collection, tmp_path, sock, "rollback.yml", fail_at="rollback_before_switch")
    assert rc != 0 and "current was not moved" in out and steps == []
    assert "Put the replica back on the balancers once a proven release serves again" in out
    assert _state(sock) == "UP"  # nothing serving changed: back in


def _releases(root: Path) -> tuple[str, str]:
    """A deploy root with two real releases (kimi_release module): the first accepted and current."""
    made = []
    for mml in (1, 2):
        made.append(run_module(kimi_release, {
            "root": str(root), "state": "present", "inputs": {"plan": {"mml": mml}},
            "files": {"serve": {"content": f"#!/bin/sh\nexec x --port {8000 + mml}\n", "mode": "0755"}},
            "metadata": {"served_model_name": f"m{mml}"}})["release_id"])
    run_module(kimi_release, {"root": str(root), "state": "active", "release_id": made[0]})
    run_module(kimi_release, {"root": str(root), "state": "verdict", "release_id": made[0], "verdict": "passed"})
    return made[0], made[1]


@pytest.mark.parametrize(("fail_also", "steps", "end"), [
    ([], ["rollback DRAIN", "start DRAIN", "record UP"], "UP"),  # the release that served is back, proven
    (["start"], ["rollback DRAIN", "start DRAIN", "record DRAIN"], "DRAIN"),  # putting it back failed too
])
@needs_haproxy
def test_a_failed_rollback_is_put_back_only_once_what_served_serves_again(
        fleet, collection, tmp_path, fail_also, steps, end):  # noqa: F811
    _port, sock, _unused, _unused = fleet
    serving, target = _releases(tmp_path / "root")
    rc, seen, out = _run(collection, tmp_path, sock, "rollback.yml", fail_at="rollback_after_switch",
                         fail_also=fail_also, rollback_target=target)
    assert rc != 0 and "rollback_after_switch failed (stub)" in out, out[-4000:]
    assert seen == steps, out[-4000:]
    assert _state(sock) == end
    verdict = json.loads((tmp_path / "root" / "releases" / target / "release.json").read_text())["acceptance"]
    assert verdict["verdict"] == "failed" and serving != target  # the rescue ran for real


@pytest.mark.parametrize(("fail_also", "measured", "end"), [
    # the baseline serves again: back in
    ([], ["activate DRAIN", "start DRAIN", "acceptance DRAIN", "record DRAIN"], "UP"),
    # every start fails (each setting is recorded as failed), the baseline's too: nothing proven serves, it stays out
    (["start"], ["activate DRAIN", "start DRAIN", "record DRAIN"], "DRAIN"),
])
@needs_haproxy
def test_tune_takes_the_host_out_while_it_measures_and_back_once_its_baseline_serves(
        fleet, tmp_path, fail_also, measured, end):  # noqa: F811
    """tune.yml (the real kimi_tune flow) on a host with an accepted release: out of the balancers from before
    the baseline is measured, through each value's restart, until the baseline release passes its health gate."""
    _port, sock, _unused, _unused = fleet
    stubs = {**STUBS, "kimi_ledger": {"main": [_step("record")], "rows": []}}
    collection = stub_collection(tmp_path, (*REAL_ROLES, "kimi_tune"), stubs)
    _releases(tmp_path / "root")
    rc, steps, out = _run(collection, tmp_path, sock, "tune.yml", kimi_tune_parameter="max_num_seqs",
                          kimi_tune_values=[2], fail_also=fail_also)
    assert (rc == 0) == (end == "UP"), out[-4000:]
    assert steps == measured * 2 + ["start DRAIN"], out[-4000:]  # the baseline, the value, back to the baseline
    assert _state(sock) == end
