"""Issue 11 (2, 3): the playbooks wire the state decisions in (the decisions themselves are
tested as pure functions in test_release_state_flow.py and test_service_state.py)."""


import yaml
from repo_paths import REPO


def _tasks(path):
    return yaml.safe_load((REPO / path).read_text())


def _walk(tasks):
    for task in tasks or []:
        yield task
        for key in ("block", "rescue", "always"):
            yield from _walk(task.get(key))


def _play(path):
    return next(p for p in _tasks(path) if "tasks" in p)


def test_rollback_has_a_rescue_that_puts_back_what_served_and_an_always_ledger_row():
    block = next(t for t in _play("playbooks/rollback.yml")["tasks"] if "rescue" in t)
    rescue = list(_walk(block["rescue"]))
    served = "{{ __kimi_rollback_from.current }}"
    back = [t for t in rescue if (t.get("kimi_release") or {}).get("release_id") == served]
    assert back, "no task points current back at the release that served before the rollback"
    assert any(t.get("ansible.builtin.include_role", {}).get("tasks_from") == "start.yml" for t in rescue)
    failing = [t for t in rescue if "ansible.builtin.fail" in t]
    assert failing and "__kimi_rollback_error" in failing[0]["ansible.builtin.fail"]["msg"] \
        and "__kimi_rollback_outcome" in failing[0]["ansible.builtin.fail"]["msg"]
    always_roles = [t.get("ansible.builtin.include_role", {}).get("name") for t in block["always"]]
    assert "kimi_ledger" in always_roles


def test_deploy_recovers_before_building_and_records_pending_at_the_switch():
    deploy = _play("playbooks/deploy.yml")["tasks"]
    under_lock = next(t for t in deploy if t.get("name") == "Deploy under the lock")
    first = under_lock["block"][0]["ansible.builtin.import_role"]
    assert first == {"name": "kimi_release", "tasks_from": "recover.yml"}
    activate = next(t for t in _walk(under_lock["block"])
                    if t.get("ansible.builtin.import_role", {}).get("tasks_from") == "activate.yml")
    assert activate["vars"]["__kimi_release_pending"] is True
    restore = next(t for t in _walk(under_lock["block"])
                   if t.get("ansible.builtin.include_role", {}).get("tasks_from") == "restore.yml")
    assert "not __kimi_release_accepted" in restore["when"]  # also when this run did not move current


def test_restore_and_recover_decide_from_release_json_verdicts():
    for path in ("roles/kimi_release/tasks/restore.yml", "roles/kimi_release/tasks/recover.yml"):
        tasks = _tasks(path)
        assert any((t.get("kimi_release") or {}).get("restore") is True for t in tasks), path
        assert not any("kimi_release_previous" in str(t.get("when", "")) for t in tasks), path
