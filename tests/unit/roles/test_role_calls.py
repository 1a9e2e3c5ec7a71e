"""Only the flow roles compose roles: every other role is a leaf that calls no other role.

kimi_deploy, kimi_rollback and kimi_tune run the phases; a leaf role does its own work and exports
documented facts (docs/facts.md) that the flow reads to decide what runs next. A leaf that includes
or imports another role (or depends on one in meta/main.yml, besides the shared ``kimi`` role, which
holds only the variables every role derives from the inventory) fails here, naming file and task,
unless ALLOWED names the call with the reason it stays. The check that no role reads another's
private ``__<role>_*`` variables is tests/unit/playbooks/test_private_vars.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import yaml
from repo_paths import REPO
from task_tree import walk_tasks

FLOW_ROLES = {"kimi_deploy", "kimi_rollback", "kimi_tune"}
SHARED_ROLE = "kimi"
ROLE_CALLS = ("ansible.builtin.include_role", "ansible.builtin.import_role", "include_role", "import_role")

# (calling role, its task file, called role): a call a leaf may keep, with its reason. None today: the
# Ray cluster of a multi-node replica is kimi_vllm's own (ray_*.yml), started in lockstep with vLLM.
ALLOWED: dict[tuple[str, str, str], str] = {}


def _called_role(task: dict) -> str | None:
    for key in ROLE_CALLS:
        if key in task:
            spec = task[key]
            name = spec["name"] if isinstance(spec, dict) else spec
            return name.rsplit(".", 1)[-1]
    return None


def role_calls(repo: Path) -> list[tuple[str, str, str, str]]:
    """(role, file under the role, called role, task name) for every include/import of another role,
    and every meta dependency other than the shared role (task name: "meta dependency")."""
    calls = []
    for role_dir in sorted(p for p in (repo / "roles").iterdir() if p.is_dir()):
        role = role_dir.name
        for path in sorted([*role_dir.glob("tasks/*.yml"), *role_dir.glob("handlers/*.yml")]):
            for task in walk_tasks(yaml.safe_load(path.read_text())):
                called = _called_role(task)
                if called is not None and called != role:
                    calls.append((role, str(path.relative_to(role_dir)), called, task.get("name", "")))
        meta = role_dir / "meta" / "main.yml"
        deps = (yaml.safe_load(meta.read_text()) or {}).get("dependencies") if meta.exists() else None
        for dep in deps or []:
            called = (dep["role"] if isinstance(dep, dict) else dep).rsplit(".", 1)[-1]
            if called != SHARED_ROLE:
                calls.append((role, "meta/main.yml", called, "meta dependency"))
    return calls


def leaf_calls(repo: Path, allowed: Mapping | None = None) -> list[str]:
    """`roles/<role>/<file>: <task> -> <called role>` for every call a leaf makes that ALLOWED does not name."""
    allowed = ALLOWED if allowed is None else allowed
    return [f"roles/{role}/{path}: {name!r} -> {called}" for role, path, called, name in role_calls(repo)
            if role not in FLOW_ROLES and (role, path, called) not in allowed]


def _role(tmp_path: Path, role: str, tasks: list, deps: list | None = None) -> None:
    (tmp_path / "roles" / role / "tasks").mkdir(parents=True)
    (tmp_path / "roles" / role / "meta").mkdir()
    (tmp_path / "roles" / role / "tasks" / "main.yml").write_text(yaml.safe_dump(tasks))
    (tmp_path / "roles" / role / "meta" / "main.yml").write_text(yaml.safe_dump({"dependencies": deps or []}))


def test_a_leaf_calling_another_role_is_found_in_blocks_and_meta(tmp_path):
    nested = [{"name": "Outer", "block": [{"name": "Start it", "ansible.builtin.include_role": {
        "name": "kimi.deploy.kimi_b", "tasks_from": "start.yml"}}]}]
    _role(tmp_path, "kimi_a", nested, deps=[{"role": "kimi.deploy.kimi"}, {"role": "kimi.deploy.kimi_c"}])
    own_file = {"name": "Own file", "ansible.builtin.import_role": {"name": "kimi_b", "tasks_from": "x.yml"}}
    _role(tmp_path, "kimi_b", [own_file])
    _role(tmp_path, "kimi_deploy", [{"name": "Compose", "ansible.builtin.import_role": {"name": "kimi.deploy.kimi_a"}}])
    assert leaf_calls(tmp_path) == ["roles/kimi_a/tasks/main.yml: 'Start it' -> kimi_b",
                                    "roles/kimi_a/meta/main.yml: 'meta dependency' -> kimi_c"]
    allowed = {("kimi_a", "tasks/main.yml", "kimi_b"), ("kimi_a", "meta/main.yml", "kimi_c")}
    assert leaf_calls(tmp_path, allowed=allowed) == []


def test_only_the_flow_roles_call_other_roles():
    found = leaf_calls(REPO)
    assert not found, ("leaf roles that call another role (move the call into kimi_deploy, kimi_rollback or "
                       "kimi_tune, and export what the flow needs as a documented fact):\n" + "\n".join(found))


def test_every_allowed_call_still_exists_and_says_why():
    made = {(role, path, called) for role, path, called, _name in role_calls(REPO)}
    stale = set(ALLOWED) - made
    assert not stale, f"ALLOWED names calls that no longer exist (remove them): {sorted(stale)}"
    assert all(len(reason) > 40 for reason in ALLOWED.values())
