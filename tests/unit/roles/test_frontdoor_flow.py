"""deploy.yml and rollback.yml point the replica's front door at the release that serves: the real playbooks, flow
roles and the front door's own defaults, argument specs and input checks, with the phase roles and the front door's
install replaced by the stubs of test_lb_flow.py (no balancer here: kimi_lb_group is empty).

The front door's stub prints the upstream its real defaults derive from what the flow passes (kimi_frontdoor_serve),
so the test sees where the entry would send requests at each step: to the candidate after its health gate and before
acceptance, back to the restored release (its own port) after a failure, to the target of a rollback.
"""

from __future__ import annotations

import copy
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from task_tree import stub_collection
from test_lb_flow import REAL_ROLES, STUBS, _facts
from unit_render import REPO

CANDIDATE = {"host": "127.0.0.1", "port": 8000, "served_model_name": "m"}
OLD_RELEASE = {"host": "0.0.0.0", "port": 8100, "served_model_name": "m"}  # made before the front door


def _stubs() -> dict[str, dict[str, list]]:
    stubs = copy.deepcopy(STUBS)
    release = stubs["kimi_release"]
    release["activate"][-1] = _facts(kimi_release_switch={"changed": True, "release_id": "r2", "previous": "r1",
                                                          "service": CANDIDATE})
    release["restore"][-1] = _facts(kimi_release_restored={"serving": "r1", "service": OLD_RELEASE})
    release["rollback"][2] = _facts(kimi_release_switch={"changed": True, "release_id": "r1", "service": OLD_RELEASE})
    return stubs


@pytest.fixture
def collection(tmp_path) -> Path:
    root = stub_collection(tmp_path, REAL_ROLES, _stubs())
    base = root / "ansible_collections" / "kimi" / "deploy"
    # The front door: its real defaults, vars, argument specs and input checks; the install prints the upstream.
    door = base / "roles" / "kimi_frontdoor"
    (door / "tasks").mkdir(parents=True)
    for name in ("defaults", "vars", "meta"):
        (door / name).symlink_to(REPO / "roles" / "kimi_frontdoor" / name)
    (door / "tasks" / "validate.yml").symlink_to(REPO / "roles" / "kimi_frontdoor" / "tasks" / "validate.yml")
    (door / "tasks" / "main.yml").write_text(yaml.safe_dump([{
        "name": "Stub frontdoor", "ansible.builtin.debug": {
            "msg": "STEP frontdoor {{ kimi_frontdoor_upstream_address }}:{{ kimi_frontdoor_upstream_port }}"}}]))
    return root


def _run(collection: Path, tmp_path: Path, playbook: str, **overrides) -> tuple[int, list[str], str]:
    """(rc, the STEP lines in order, output) of one run of the real playbook."""
    variables = {"ansible_connection": "local", "ansible_python_interpreter": sys.executable,
                 "kimi_root": str(tmp_path / "root"), "kimi_model_repo": "org/tiny", "kimi_api_key": "k" * 32,
                 "kimi_lb_group": "", "balancer_state": "echo -", "rollback_target": "r1",
                 "fail_at": "", "fail_also": [], "restore_serving": "r1",
                 "kimi_frontdoor_enabled": True, "kimi_frontdoor_tls": False,
                 "kimi_frontdoor_api_keys": [{"name": "team-a", "key": "a" * 32, "not_after": ""}], **overrides}
    inventory = {"all": {"vars": variables, "children": {"gpu_nodes": {"hosts": {"h200-1": {}}}}}}
    (tmp_path / "hosts.yml").write_text(yaml.safe_dump(inventory))
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}", "ANSIBLE_NOCOLOR": "1",
           "ANSIBLE_CONFIG": str(REPO / "ansible.cfg"), "ANSIBLE_COLLECTIONS_PATH": str(collection)}
    proc = subprocess.run(["ansible-playbook", str(REPO / playbook), "-i", str(tmp_path / "hosts.yml")],
                          capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    out = proc.stdout + proc.stderr
    # A stub step prints "STEP <label> -" (balancer_state), the front door "STEP frontdoor <address>:<port>".
    steps = re.findall(r"msg\W+STEP (frontdoor [0-9.]+:[0-9]+|[a-z_]+(?= -))", out)
    return proc.returncode, steps, out


def test_the_entry_points_at_the_candidate_after_its_health_gate_and_before_acceptance(collection, tmp_path):
    rc, steps, out = _run(collection, tmp_path, "deploy.yml")
    assert rc == 0, out[-4000:]
    assert steps == ["prepare", "activate", "start", "frontdoor 127.0.0.1:8000", "acceptance", "verdict",
                     "record"], out[-4000:]


def test_after_a_failure_the_entry_follows_the_restored_release_to_its_own_port(collection, tmp_path):
    rc, steps, out = _run(collection, tmp_path, "deploy.yml", fail_at="acceptance")
    assert rc != 0 and "acceptance failed (stub)" in out
    # A release made before the front door binds a wildcard: the entry reaches it on loopback, at its port.
    assert steps == ["prepare", "activate", "start", "frontdoor 127.0.0.1:8000", "acceptance", "restore", "start",
                     "frontdoor 127.0.0.1:8100", "record"], out[-4000:]


def test_without_the_front_door_the_flow_is_as_before(collection, tmp_path):
    rc, steps, out = _run(collection, tmp_path, "deploy.yml", kimi_frontdoor_enabled=False,
                          kimi_frontdoor_api_keys=[])
    assert rc == 0, out[-4000:]
    assert steps == ["prepare", "activate", "start", "acceptance", "verdict", "record"], out[-4000:]


def test_missing_keys_stop_the_deploy_before_anything_changes(collection, tmp_path):
    rc, steps, out = _run(collection, tmp_path, "deploy.yml", kimi_frontdoor_api_keys=[])
    assert rc != 0 and "client API keys (kimi_frontdoor_api_keys" in " ".join(out.split()), out[-4000:]
    assert steps == [], out[-4000:]


def test_a_key_too_short_stops_the_deploy_before_anything_changes(collection, tmp_path):
    """The key rules (length, names, duplicates, expiry dates) are the front door's install-time filter's: found
    there, the candidate had already started and the last accepted release had to be restored."""
    rc, steps, out = _run(collection, tmp_path, "deploy.yml",
                          kimi_frontdoor_api_keys=[{"name": "team-a", "key": "short-key", "not_after": ""}])
    assert rc != 0 and "API key 'team-a': at least 24 characters" in " ".join(out.split()), out[-4000:]
    assert steps == [], out[-4000:]


def test_a_rollback_points_the_entry_at_its_target(collection, tmp_path):
    rc, steps, out = _run(collection, tmp_path, "rollback.yml")
    assert rc == 0, out[-4000:]
    assert steps == ["rollback", "start", "frontdoor 127.0.0.1:8100", "record"], out[-4000:]
