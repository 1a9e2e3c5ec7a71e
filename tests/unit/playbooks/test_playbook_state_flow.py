"""Issue 11 (2, 3): the playbooks wire the state decisions in (the decisions themselves are
tested as pure functions in test_release_state_flow.py and test_service_state.py)."""


import yaml
from repo_paths import REPO
from task_tree import walk_tasks


def _tasks(path):
    return yaml.safe_load((REPO / path).read_text())


def _play_roles(path):
    """The roles of the playbook's play that runs on the rollout (deploy.yml and rollback.yml are role lists)."""
    return next(p for p in _tasks(path) if p.get("hosts") == "kimi_rollout")["roles"]


def _phases(flow):
    """The deploy flow with its phase files (import_tasks) in place, as Ansible reads them."""
    tasks = []
    for task in flow or []:
        imported = task.get("ansible.builtin.import_tasks")
        if imported:
            tasks += _phases(_tasks(f"roles/kimi_deploy/tasks/{imported}"))
            continue
        expanded = dict(task)
        for key in ("block", "rescue", "always"):
            if key in expanded:
                expanded[key] = _phases(expanded[key])
        tasks.append(expanded)
    return tasks


def test_rollback_has_a_rescue_that_puts_back_what_served_and_an_always_ledger_row():
    assert _play_roles("playbooks/rollback.yml") == ["kimi.deploy.kimi_rollback"]
    block = next(t for t in _tasks("roles/kimi_rollback/tasks/main.yml") if "rescue" in t)
    rescue = list(walk_tasks(block["rescue"]))
    served = "{{ __kimi_rollback_from.current }}"
    back = [t for t in rescue if (t.get("kimi.deploy.kimi_release") or {}).get("release_id") == served]
    assert back, "no task points current back at the release that served before the rollback"
    assert any(t.get("ansible.builtin.include_role", {}).get("tasks_from") == "start.yml" for t in rescue)
    failing = [t for t in rescue if "ansible.builtin.fail" in t]
    assert failing and "__kimi_rollback_error" in failing[0]["ansible.builtin.fail"]["msg"] \
        and "__kimi_rollback_outcome" in failing[0]["ansible.builtin.fail"]["msg"]
    always_roles = [t.get("ansible.builtin.include_role", {}).get("name") for t in block["always"]]
    assert "kimi.deploy.kimi_ledger" in always_roles


def test_deploy_recovers_before_building_and_records_pending_at_the_switch():
    assert _play_roles("playbooks/deploy.yml") == ["kimi.deploy.kimi_deploy"]
    deploy = _phases(_tasks("roles/kimi_deploy/tasks/main.yml"))
    under_lock = next(t for t in deploy if t.get("name") == "Deploy under the lock")
    first = next(t for t in under_lock["block"] if "ansible.builtin.import_role" in t)["ansible.builtin.import_role"]
    assert first == {"name": "kimi.deploy.kimi_release", "tasks_from": "recover.yml"}
    activate = next(t for t in walk_tasks(under_lock["block"])
                    if t.get("ansible.builtin.import_role", {}).get("tasks_from") == "activate.yml")
    assert activate["vars"]["kimi_release_pending"] == "{{ kimi_deploy_candidate_pending }}"
    defaults = _tasks("roles/kimi_deploy/defaults/main.yml")
    assert defaults["kimi_deploy_candidate_pending"] is True
    restore = next(t for t in walk_tasks(under_lock["block"])
                   if t.get("ansible.builtin.include_role", {}).get("tasks_from") == "restore.yml")
    assert "not kimi_release_accepted" in restore["when"]  # also when this run did not move current


def test_restore_and_recover_decide_from_release_json_verdicts():
    for path in ("roles/kimi_release/tasks/restore.yml", "roles/kimi_release/tasks/recover.yml"):
        tasks = _tasks(path)
        assert any((t.get("kimi.deploy.kimi_release") or {}).get("restore") is True for t in tasks), path
        assert not any("kimi_release_previous" in str(t.get("when", "")) for t in tasks), path


def test_every_deploy_phase_has_a_documented_hook_before_and_after():
    flow = _tasks("roles/kimi_deploy/tasks/main.yml")
    hooks = [t["vars"]["__kimi_deploy_hook"] for t in walk_tasks(flow)
             if t.get("ansible.builtin.import_tasks") == "hook.yml"]
    phases = ["prepare", "candidate", "judge", "restore", "record", "prune"]
    assert sorted(hooks) == sorted(f"{when}_{phase}" for phase in phases for when in ("before", "after"))
    for phase in phases:  # each hook pair surrounds its phase's file
        order = [(t.get("vars") or {}).get("__kimi_deploy_hook") or t["ansible.builtin.import_tasks"]
                 for t in walk_tasks(flow)
                 if t.get("ansible.builtin.import_tasks") == f"{phase}.yml"
                 or (t.get("vars") or {}).get("__kimi_deploy_hook", "").endswith(f"_{phase}")]
        assert order == [f"before_{phase}", f"{phase}.yml", f"after_{phase}"], order
    specs = _tasks("roles/kimi_deploy/meta/argument_specs.yml")["argument_specs"]["main"]["options"]
    assert sorted(specs["kimi_deploy_hooks"]["options"]) == sorted(hooks)


def test_tune_proves_each_value_with_the_deploys_candidate_phase():
    value = list(walk_tasks(_tasks("roles/kimi_tune/tasks/value.yml")))
    wanted = {"name": "kimi.deploy.kimi_deploy", "tasks_from": "candidate.yml"}
    candidate = [t for t in value if t.get("ansible.builtin.include_role") == wanted]
    assert len(candidate) == 1
    assert not any(t.get("ansible.builtin.include_role", {}).get("tasks_from") in ("activate.yml", "start.yml")
                   for t in value), "tune switches and starts only through the candidate phase"
