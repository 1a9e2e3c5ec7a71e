"""Rolling batches of whole replicas: deploy.yml's and rollback.yml's own hosts/serial, run for real.

The plays below are deploy.yml's and rollback.yml's second play (their hosts and serial, read from the
files), with one task that prints the batch, after the real replicas.yml. Local connection, no hosts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]

INVENTORY = {
    "all": {
        "vars": {"ansible_connection": "local", "ansible_python_interpreter": sys.executable},
        "children": {
            # gpu_nodes lists the hosts interleaved; the replica groups decide the order within a replica
            "gpu_nodes": {"hosts": {"b2": {}, "a1": {}, "solo": {}, "a2": {}, "b1": {}}},
            "rep_a": {"hosts": {"a1": {}, "a2": {}}, "vars": {"kimi_replica_group": "rep_a"}},
            "rep_b": {"hosts": {"b1": {}, "b2": {}}, "vars": {"kimi_replica_group": "rep_b"}},
        },
    }
}


def _batches(tmp_path: Path, playbook: str, *extra: str) -> tuple[int, list[list[str]], str]:
    real = yaml.safe_load((REPO / "playbooks" / playbook).read_text())
    play = real[1]
    probe = [
        {"name": "Group", "ansible.builtin.import_playbook": str(REPO / "playbooks" / "replicas.yml")},
        {"name": "Batches", "hosts": play["hosts"], "serial": play["serial"], "gather_facts": False,
         "max_fail_percentage": play["max_fail_percentage"],
         "tasks": [{"name": "batch", "ansible.builtin.debug": {"msg": "BATCH {{ ansible_play_batch | to_json }}"},
                    "run_once": True},
                   {"name": "fail one host", "ansible.builtin.fail": {"msg": "boom"},
                    "when": "inventory_hostname == (fail_host | default(''))"}]},
    ]
    (tmp_path / "probe.yml").write_text(yaml.safe_dump(probe, sort_keys=False))
    (tmp_path / "hosts.yml").write_text(yaml.safe_dump(INVENTORY, sort_keys=False))
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}", "ANSIBLE_NOCOLOR": "1",
           "ANSIBLE_CONFIG": str(REPO / "ansible.cfg"), "ANSIBLE_LIBRARY": str(REPO / "plugins/modules"),
           "ANSIBLE_MODULE_UTILS": str(REPO / "plugins/module_utils")}
    proc = subprocess.run(["ansible-playbook", str(tmp_path / "probe.yml"), "-i", str(tmp_path / "hosts.yml"), *extra],
                          capture_output=True, text=True, env=env, cwd=REPO, check=False)
    batches = [json.loads(line.split("BATCH ", 1)[1]) for line in proc.stdout.splitlines()
               if line.strip().startswith("msg: BATCH [")]
    return proc.returncode, batches, proc.stdout + proc.stderr


@pytest.mark.parametrize("playbook", ["deploy.yml", "rollback.yml"])
def test_each_batch_is_one_whole_replica_head_first(tmp_path, playbook):
    rc, batches, out = _batches(tmp_path, playbook)
    assert rc == 0, out[-3000:]
    assert batches == [["b1", "b2"], ["a1", "a2"], ["solo"]], out[-3000:]


def test_serial_counts_replicas(tmp_path):
    rc, batches, out = _batches(tmp_path, "deploy.yml", "-e", "kimi_serial=2")
    assert rc == 0 and batches == [["b1", "b2", "a1", "a2"], ["solo"]], out[-3000:]


def test_a_failed_node_stops_the_rollout_before_the_next_replica(tmp_path):
    rc, batches, out = _batches(tmp_path, "deploy.yml", "-e", "fail_host=b2")
    assert rc != 0 and batches == [["b1", "b2"]], out[-3000:]
    assert "a1" not in out.split("PLAY RECAP")[0].split("Batches")[-1]


def test_a_limit_that_cuts_a_replica_is_refused(tmp_path):
    rc, batches, out = _batches(tmp_path, "deploy.yml", "--limit", "a1,solo")
    assert rc != 0 and batches == []
    assert "replica rep_a is only partly in this run: a2 of a1, a2 is outside the play" in " ".join(out.split())
