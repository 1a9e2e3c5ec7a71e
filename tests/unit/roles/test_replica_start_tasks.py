"""start_replica.yml's decision, run as Ansible runs it: the real tasks of the file (picked by name) on
two local hosts, a head and a worker, whose `systemctl` answers with the recorded outputs of
tests/fixtures/systemctl-show. What it proves beyond the pure function's table: the reports travel
through hostvars with their types (booleans, not text), a host that failed before it reported counts
as asking, every node reaches the same decision, and the workers' run check fails on a new run.
What it cannot prove (molecule's multinode scenario does): the stops and starts that follow."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml
from repo_paths import FIXTURES, REPO

TASKS = REPO / "roles/kimi_vllm/tasks/start_replica.yml"
DECISION = ["Read the state of this node's vLLM and Ray units", "Report what this node runs and what changed for it",
            "Decide for the whole replica (a node that did not report counts as asking for a restart)"]
WORKER_CHECK = ["Note which run of vLLM each worker is on",
                "Check vLLM still runs on every worker, in the run the replica started with"]
FAKE_SYSTEMCTL = """#!/bin/sh
# systemctl show <unit> -p ...: the recorded answer the host's KIMI_FAKE_UNITS names for the unit
[ "$1" = show ] || exit 1
name=$(sed -n "s/^$2=//p" "$KIMI_FAKE_UNITS")
cat "%s/$name.txt"
""" % (FIXTURES / "systemctl-show")


def _tasks(names):
    by_name = {t["name"]: t for t in yaml.safe_load(TASKS.read_text())}
    return [by_name[n] for n in names]


def _run(tmp_path, hosts, extra_tasks=(), before=()):
    """Run the decision on the given hosts ({host: {units: {unit: fixture}, ...vars}}); each host's decision."""
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    (bindir / "systemctl").write_text(FAKE_SYSTEMCTL)
    (bindir / "systemctl").chmod(0o755)
    inventory = {"all": {"hosts": {}, "vars": {
        "ansible_connection": "local", "ansible_python_interpreter": sys.executable,
        "kimi_service_name": "kimi-vllm", "kimi_replica_hosts": list(hosts), "kimi_vllm_restart_required": False,
        "kimi_vllm_current_moved": False}}}
    for rank, (host, spec) in enumerate(hosts.items()):
        units = tmp_path / f"{host}.units"
        units.write_text("".join(f"{unit}={fixture}\n" for unit, fixture in spec.pop("units").items()))
        inventory["all"]["hosts"][host] = {"kimi_node_rank": rank, "fake_units": str(units), **spec}
    (tmp_path / "inventory.yml").write_text(yaml.safe_dump(inventory))
    play = [{
        "hosts": "all", "gather_facts": False, "environment": {"KIMI_FAKE_UNITS": "{{ fake_units }}"},
        "tasks": [
            *before,
            # what kimi_node_env registered: whether node.env changed, what the node runs
            {"name": "Stand in for kimi_node_env", "ansible.builtin.set_fact": {
                "__kimi_vllm_node": {"changed": "{{ node_env_changed | default(false) }}", "runs_vllm": True,
                                     "backend": "mp"}}},
            *_tasks(DECISION),
            {"name": "Write the decision", "ansible.builtin.copy": {
                "content": "{{ __kimi_vllm_replica_start | to_json }}",
                "dest": f"{tmp_path}/{{{{ inventory_hostname }}}}.json", "mode": "0644"}},
            *extra_tasks,
        ],
    }]
    (tmp_path / "play.yml").write_text(yaml.safe_dump(play, sort_keys=False))
    venv_bin = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bindir}:{venv_bin}:{os.environ.get('PATH', '')}", "ANSIBLE_NOCOLOR": "1"}
    proc = subprocess.run([str(venv_bin / "ansible-playbook"), "-i", str(tmp_path / "inventory.yml"),
                           str(tmp_path / "play.yml")], cwd=REPO, env=env, capture_output=True, text=True, check=False)
    decisions = {h: json.loads((tmp_path / f"{h}.json").read_text()) for h in hosts
                 if (tmp_path / f"{h}.json").exists()}
    return proc, decisions


UP = {"kimi-vllm.service": "active", "kimi-ray.service": "not_found"}


def _task_output(stdout: str, name: str) -> str:
    """What Ansible printed for the task of that name (its banner to the next one)."""
    after = stdout.split(f"TASK [{name}]", 1)[1]
    return after.split("TASK [", 1)[0].split("PLAY RECAP", 1)[0]


def test_second_converge_restarts_nothing_and_the_workers_check_passes(tmp_path):
    proc, decisions = _run(tmp_path, {"head": {"units": dict(UP)}, "worker": {"units": dict(UP)}},
                           extra_tasks=_tasks(WORKER_CHECK))
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert decisions["head"] == decisions["worker"]
    assert decisions["head"]["restart"] is False and decisions["head"]["reasons"] == []
    assert decisions["head"]["nodes"]["head"]["previous_invocation"] == ""
    assert "ok: [worker]" in _task_output(proc.stdout, WORKER_CHECK[1])


def test_any_node_asking_restarts_the_replica_and_a_worker_on_another_run_fails(tmp_path):
    # the head: the caller requires a restart; the worker: its node.env changed and its vLLM failed
    hosts = {"head": {"units": dict(UP), "kimi_vllm_restart_required": True},
             "worker": {"units": {**UP, "kimi-vllm.service": "failed"}, "node_env_changed": True}}
    # then the worker's vLLM runs (noted), and systemd restarts it on its own (another InvocationID)
    runs = {"name": "The worker's vLLM runs", "ansible.builtin.copy": {
        "content": "kimi-vllm.service=active\n", "dest": "{{ fake_units }}", "mode": "0644"},
        "when": "inventory_hostname == 'worker'"}
    restarted = {"name": "The worker's vLLM restarts on its own", "ansible.builtin.copy": {
        "content": "kimi-vllm.service=auto_restart\n", "dest": "{{ fake_units }}", "mode": "0644"},
        "when": "inventory_hostname == 'worker'"}
    check = _tasks(WORKER_CHECK)
    proc, decisions = _run(tmp_path, hosts, extra_tasks=[runs, check[0], restarted, check[1]])
    assert decisions["head"] == decisions["worker"]
    assert decisions["head"]["restart"] is True
    assert decisions["head"]["reasons"] == [
        "head: a restart is required (current moved, or the unit or its secrets changed)",
        "worker: node.env changed (this node's flags or network)",
        "worker: vLLM is not active (failed/failed)"]
    assert decisions["head"]["nodes"]["head"]["previous_invocation"] == "ccc43e1ab6984fc198756197f06ec629"
    assert decisions["head"]["nodes"]["worker"]["action"] == "start"
    assert proc.returncode != 0
    checked = _task_output(proc.stdout, WORKER_CHECK[1])
    assert "fatal: [worker]" in checked and "fatal: [head]" not in checked


def test_a_node_that_failed_before_it_reported_counts_as_asking(tmp_path):
    fail_worker = {"name": "Fail the worker early", "ansible.builtin.fail": {"msg": "gone"},
                   "when": "inventory_hostname == 'worker'"}
    proc, decisions = _run(tmp_path, {"head": {"units": dict(UP)}, "worker": {"units": dict(UP)}},
                           before=[fail_worker])
    assert proc.returncode != 0 and "worker" not in decisions
    assert decisions["head"]["restart"] is True
    assert decisions["head"]["reasons"] == ["worker: did not report its state (it failed or is not in this run)"]
