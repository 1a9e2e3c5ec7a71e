"""The playbooks apply the front door, the balancers and the monitoring (issue 13): fleet.yml puts kimi_lb and
kimi_monitoring each on its own group after read-only checks, and deploy.yml / rollback.yml put each replica head's
front door before the release that serves, only when kimi_frontdoor_enabled.

The structure is read from the YAML; fleet.yml also runs for real (local connection, check mode) on an inventory
made here: with no balancer or monitoring host nothing happens, and bad inputs stop it before anything is installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from repo_paths import REPO
from task_tree import walk_tasks

FLEET = REPO / "playbooks" / "fleet.yml"


def _load(path: str | Path) -> list | dict:
    return yaml.safe_load((REPO / path).read_text())


def _role_of(task: dict) -> tuple[str, str]:
    """(role, tasks_from) of an import_role/include_role task, ('', '') for any other task."""
    ref = task.get("ansible.builtin.import_role") or task.get("ansible.builtin.include_role") or {}
    return ref.get("name", ""), ref.get("tasks_from", "main.yml")


# -- fleet.yml's shape --------------------------------------------------------------------------

def test_the_root_playbook_is_a_thin_wrapper():
    (play,) = _load("fleet.yml")
    assert play["ansible.builtin.import_playbook"] == "playbooks/fleet.yml"


def test_every_play_targets_its_own_group_never_all():
    plays = _load(FLEET)
    groups = [play["hosts"] for play in plays]
    assert groups == [
        "{{ kimi_lb_replica_group | default('gpu_nodes') }}",
        "{{ kimi_lb_group | default('lb_nodes') }}",
        "{{ kimi_monitoring_group | default('monitoring_nodes') }}",
        "{{ kimi_lb_group | default('lb_nodes') }}",
        "{{ kimi_monitoring_replica_group | default('gpu_nodes') }}:{{ kimi_lb_group | default('lb_nodes') }}",
        "{{ kimi_monitoring_group | default('monitoring_nodes') }}",
    ]
    assert not [g for g in groups if g.strip() in ("all", "*") or "localhost" in g]


def _tasks_of(plays):
    return [(index, task) for index, play in enumerate(plays) for task in play.get("tasks", [])]


def test_every_input_is_checked_before_anything_is_installed():
    plays = _load(FLEET)
    steps = [(index, _role_of(task)) for index, task in _tasks_of(plays)]
    checks = [index for index, (_role, entry) in steps if entry in ("validate.yml", "serving.yml")]
    installs = [index for index, (_role, entry) in steps if entry not in ("validate.yml", "serving.yml")]
    assert checks and installs and max(checks) < min(installs)
    for index in checks:  # read-only plays: any host's failure stops all of them (the reading play only reads)
        assert plays[index].get("any_errors_fatal") is True or _role_of(plays[index]["tasks"][0])[1] == "serving.yml"
    roles = {role for _index, (role, _entry) in steps}
    assert roles == {"kimi.deploy.kimi_release", "kimi.deploy.kimi_lb", "kimi.deploy.kimi_monitoring"}


def test_tasks_are_tagged_role_phase():
    for _index, task in _tasks_of(_load(FLEET)):
        role = _role_of(task)[0].removeprefix("kimi.deploy.")
        tags = [t for t in task["tags"] if t != "never"]
        owner = "kimi_lb" if role == "kimi_release" else role  # the serving release is read for the balancers
        assert tags and all(t.startswith(owner + "_") for t in tags), (task["name"], tags)


def test_balancers_change_one_at_a_time_and_the_dashboard_only_on_request():
    plays = _load(FLEET)
    install_lb = next(p for p in plays if any(_role_of(t) == ("kimi.deploy.kimi_lb", "main.yml") for t in p["tasks"]))
    assert install_lb["serial"] == 1 and install_lb["max_fail_percentage"] == 0
    dashboard = next(t for _i, t in _tasks_of(plays) if _role_of(t)[1] == "dashboard.yml")
    assert "never" in dashboard["tags"]


def test_the_collection_lists_fleet_as_one_of_its_playbooks():
    """test_collection_install syntax-checks kimi.deploy.<stem> of every playbooks/*.yml: fleet is one of them."""
    assert FLEET.is_file() and (REPO / "fleet.yml").is_file()


# -- the front door in the flows -------------------------------------------------------------------

FLOWS = ("roles/kimi_deploy/tasks/main.yml", "roles/kimi_deploy/tasks/candidate.yml",
         "roles/kimi_deploy/tasks/restore.yml", "roles/kimi_rollback/tasks/main.yml")


def _frontdoor_tasks(path: str) -> list[dict]:
    return [t for t in walk_tasks(_load(path)) if _role_of(t)[0] == "kimi.deploy.kimi_frontdoor"]


@pytest.mark.parametrize("path", FLOWS)
def test_the_front_door_is_touched_only_when_enabled_and_only_on_the_head(path):
    tasks = _frontdoor_tasks(path)
    assert tasks, path
    for task in tasks:
        when = task["when"] if isinstance(task["when"], list) else [task["when"]]
        assert "kimi_frontdoor_enabled | bool and inventory_hostname == kimi_replica_head" in when, task["name"]


@pytest.mark.parametrize(("path", "service"), [
    ("roles/kimi_deploy/tasks/candidate.yml", "kimi_release_switch.service"),
    ("roles/kimi_deploy/tasks/restore.yml", "kimi_release_restored.service"),
    ("roles/kimi_rollback/tasks/main.yml", "kimi_release_switch.service"),
    ("roles/kimi_rollback/tasks/main.yml", "__kimi_rollback_back.service"),
])
def test_the_front_door_follows_the_release_that_serves(path, service):
    installs = [t for t in _frontdoor_tasks(path) if _role_of(t)[1] == "main.yml"]
    assert any(service in t.get("vars", {}).get("kimi_frontdoor_serve", "") for t in installs), path


def test_the_candidate_gets_its_front_door_after_the_health_gate_and_before_acceptance():
    steps = [_role_of(t) for t in _load("roles/kimi_deploy/tasks/candidate.yml")]
    start = steps.index(("kimi.deploy.kimi_vllm", "start.yml"))
    door = steps.index(("kimi.deploy.kimi_frontdoor", "main.yml"))
    acceptance = steps.index(("kimi.deploy.kimi_acceptance", "main.yml"))
    assert start < door < acceptance


@pytest.mark.parametrize("path", ["roles/kimi_deploy/tasks/main.yml", "roles/kimi_rollback/tasks/main.yml"])
def test_front_door_inputs_are_checked_before_the_lock(path):
    steps = [_role_of(t) for t in _load(path)]
    lock = steps.index(("kimi.deploy.kimi_preflight", "lock.yml"))
    assert steps.index(("kimi.deploy.kimi_frontdoor", "validate.yml")) < lock


def test_the_front_door_upstream_follows_the_release_and_falls_back_to_the_inventory():
    from unit_render import role_defaults, template_value

    def upstream(serve: dict) -> tuple[str, int]:
        values = role_defaults("kimi_frontdoor", kimi_frontdoor_enabled=True, kimi_port=8000,
                               kimi_frontdoor_serve=serve)
        return (template_value("kimi_frontdoor_upstream_address", values),
                int(template_value("kimi_frontdoor_upstream_port", values)))

    assert upstream({}) == ("127.0.0.1", 8000)  # the inventory: kimi_listen_host, kimi_port
    assert upstream({"host": "127.0.0.1", "port": 8100}) == ("127.0.0.1", 8100)  # a release with another port
    assert upstream({"host": "0.0.0.0", "port": 8000}) == ("127.0.0.1", 8000)  # made before the front door
    assert upstream({"host": "10.20.0.5", "port": 0}) == ("10.20.0.5", 8000)  # port unknown: the inventory's


# -- ansible-playbook ------------------------------------------------------------------------------

def _env(tmp_path: Path) -> dict[str, str]:
    collections = tmp_path / "collections"
    link = collections / "ansible_collections" / "kimi" / "deploy"
    if not link.is_symlink():
        link.parent.mkdir(parents=True)
        link.symlink_to(REPO)
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}", "ANSIBLE_NOCOLOR": "1",
            "ANSIBLE_CONFIG": str(REPO / "ansible.cfg"), "ANSIBLE_COLLECTIONS_PATH": str(collections),
            "ANSIBLE_STDOUT_CALLBACK": "ansible.builtin.default"}


def test_syntax_check_with_the_example_fleet_inventory(tmp_path):
    """Only a syntax check: the example inventories' addresses are not ours."""
    proc = subprocess.run(["ansible-playbook", "--syntax-check", "-i", str(REPO / "inventories/example-fleet"),
                           str(REPO / "fleet.yml"), str(REPO / "deploy.yml"), str(REPO / "rollback.yml")],
                          capture_output=True, text=True, env=_env(tmp_path), cwd=tmp_path, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]


def test_the_example_fleet_inventory_holds_what_fleet_yml_needs(tmp_path):
    proc = subprocess.run(["ansible-inventory", "-i", str(REPO / "inventories/example-fleet"), "--list"],
                          capture_output=True, text=True, env=_env(tmp_path), cwd=tmp_path, check=True)
    inventory = json.loads(proc.stdout)
    hostvars = inventory["_meta"]["hostvars"]
    assert inventory["lb_nodes"]["hosts"] and inventory["monitoring_nodes"]["hosts"]
    heads = [inventory[group]["hosts"][0] for group in inventory["gpu_nodes"]["children"]]
    assert len(heads) == 2 and all(hostvars[head]["kimi_frontdoor_enabled"] is True for head in heads)
    lb = hostvars[inventory["lb_nodes"]["hosts"][0]]
    assert lb["kimi_lb_upstream_port"] == hostvars[heads[0]]["kimi_frontdoor_port"]
    monitoring = hostvars[inventory["monitoring_nodes"]["hosts"][0]]["ansible_host"]
    for host in (heads[0], inventory["lb_nodes"]["hosts"][0]):  # Prometheus may scrape both exporters
        networks = hostvars[host].get("kimi_frontdoor_scrape_networks") or hostvars[host]["kimi_lb_scrape_networks"]
        assert f"{monitoring}/32" in networks


def _release(root: Path, max_num_seqs: int) -> None:
    """A deploy root whose current release has a plan, as kimi_release writes it (release.json)."""
    release = root / "releases" / "r1"
    release.mkdir(parents=True)
    inputs = {"plan": {"max_num_seqs": max_num_seqs}, "service": {"port": 8000}}
    (release / "release.json").write_text(json.dumps({"id": "r1", "inputs": inputs}))
    (root / "current").symlink_to("releases/r1")


def _fleet(tmp_path: Path, groups: dict[str, list[str]], *args: str, **variables) -> tuple[int, str]:
    """One check-mode run of fleet.yml on local hosts grouped as ``groups``."""
    host_vars = {"ansible_connection": "local", "ansible_python_interpreter": sys.executable,
                 "ansible_become": False, "kimi_root": str(tmp_path / "root"), **variables}
    inventory = {"all": {"vars": host_vars, "children": {
        group: {"hosts": {host: {} for host in hosts}} for group, hosts in groups.items()}}}
    (tmp_path / "hosts.yml").write_text(yaml.safe_dump(inventory))
    proc = subprocess.run(["ansible-playbook", "--check", str(REPO / "fleet.yml"), "-i", str(tmp_path / "hosts.yml"),
                           *args], capture_output=True, text=True, env=_env(tmp_path), cwd=tmp_path, check=False)
    return proc.returncode, proc.stdout + proc.stderr


def test_without_balancer_or_monitoring_hosts_nothing_happens(tmp_path):
    rc, out = _fleet(tmp_path, {"gpu_nodes": ["h200-1"]})
    assert rc == 0, out[-3000:]
    recap = out.split("PLAY RECAP", 1)[1]
    assert "changed=0" in recap and "failed=0" in recap
    assert "ok=0" in recap, recap  # every task on the replica's node skipped: nothing read, nothing installed
    for play in ("Install the fleet balancers", "Install Prometheus with the fleet's targets and alert rules"):
        assert f"PLAY [{play}]" in out and "skipping: no hosts matched" in out


@pytest.mark.parametrize(("release", "frontdoor", "refused"), [
    (None, True, "no max_num_seqs"),  # nothing serves on the replica: no plan to size it by
    (7, False, "these heads have none (kimi_frontdoor_enabled): h200-1"),  # TLS to an entry that is not there
])
def test_bad_balancer_inputs_stop_the_run_before_anything_is_installed(tmp_path, release, frontdoor, refused):
    if release:
        _release(tmp_path / "root", release)
    rc, out = _fleet(tmp_path, {"gpu_nodes": ["h200-1"], "lb_nodes": ["lb-1"]},
                     kimi_frontdoor_enabled=frontdoor, kimi_lb_tls=False)
    assert rc != 0 and refused in " ".join(out.split()), out[-3000:]
    assert "Install HAProxy" not in out and "PLAY [Install the fleet balancers]" not in out


def test_checked_inputs_pass_with_the_plan_of_the_release_that_serves(tmp_path):
    _release(tmp_path / "root", 7)
    rc, out = _fleet(tmp_path, {"gpu_nodes": ["h200-1"], "lb_nodes": ["lb-1"], "monitoring_nodes": ["mon-1"]},
                     "--tags", "kimi_lb_validate,kimi_monitoring_validate",
                     kimi_frontdoor_enabled=True, kimi_lb_tls=False,
                     kimi_frontdoor_stats_bind_address="0.0.0.0", kimi_lb_stats_bind_address="0.0.0.0")
    assert rc == 0, out[-3000:]
    assert "Check the balancer's inputs" in out and "Check the monitoring's inputs" in out
    assert "Install HAProxy" not in out  # --tags: the checks only


def test_monitoring_through_front_doors_needs_them(tmp_path):
    rc, out = _fleet(tmp_path, {"gpu_nodes": ["h200-1"], "monitoring_nodes": ["mon-1"]},
                     "--tags", "kimi_monitoring_validate")
    assert rc != 0 and "these heads have none (kimi_frontdoor_enabled): h200-1" in " ".join(out.split()), out[-3000:]
    rc, out = _fleet(tmp_path, {"gpu_nodes": ["h200-1"], "monitoring_nodes": ["mon-1"]},
                     "--tags", "kimi_monitoring_validate", kimi_monitoring_via_frontdoor=False)
    assert rc == 0, out[-3000:]


def test_monitoring_refuses_exporters_that_listen_on_loopback_only(tmp_path):
    """The exporters' default address is loopback: Prometheus on another host would only see them down."""
    _release(tmp_path / "root", 7)
    groups = {"gpu_nodes": ["h200-1"], "lb_nodes": ["lb-1"], "monitoring_nodes": ["mon-1"]}
    rc, out = _fleet(tmp_path, groups, "--tags", "kimi_monitoring_validate", kimi_frontdoor_enabled=True,
                     kimi_lb_stats_bind_address="0.0.0.0")
    said = " ".join(out.split())
    assert rc != 0 and "these listen on loopback only: h200-1 (127.0.0.1)." in said, out[-3000:]
    assert "lb-1" not in said.split("loopback only:", 1)[1].split(".", 1)[0]
