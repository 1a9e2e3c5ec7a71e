"""Every kimi.deploy.* action a task names is a module of this collection.

ansible-lint and --syntax-check load only the task files a playbook reaches statically; a module name
misspelt in a file included at run time (tasks_from, include_tasks) would surface only when that path
runs, e.g. on the Ray backend of a multi-node replica. This reads every task file instead.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from repo_paths import REPO
from task_tree import walk_tasks

COLLECTION = "kimi.deploy."
TASK_DIRS = ("roles/*/tasks", "roles/*/handlers", "playbooks", "molecule/*")


def _task_lists(path: Path) -> list[list]:
    data = yaml.safe_load(path.read_text())
    if not isinstance(data, list):
        return []
    plays = [item for item in data if isinstance(item, dict) and "hosts" in item]
    if not plays:
        return [data]
    return [play.get(key) or [] for play in plays for key in ("pre_tasks", "tasks", "post_tasks", "handlers")]


def unknown_actions(repo: Path) -> list[str]:
    """`file: task -> action` for every kimi.deploy.* task key that is no module under plugins/modules."""
    modules = {p.stem for p in (repo / "plugins" / "modules").glob("*.py")}
    found = []
    for pattern in TASK_DIRS:
        for path in sorted(repo.glob(f"{pattern}/*.yml")):
            for tasks in _task_lists(path):
                for task in walk_tasks(tasks):
                    for key in task:
                        if key.startswith(COLLECTION) and key[len(COLLECTION):] not in modules:
                            found.append(f"{path.relative_to(repo)}: {task.get('name', '')!r} -> {key}")
    return found


def test_every_collection_action_is_one_of_its_modules():
    assert unknown_actions(REPO) == []


def test_a_misspelt_module_in_an_included_file_is_found(tmp_path):
    (tmp_path / "plugins" / "modules").mkdir(parents=True)
    (tmp_path / "plugins" / "modules" / "kimi_ray_cluster.py").write_text("")
    tasks = tmp_path / "roles" / "kimi_x" / "tasks"
    tasks.mkdir(parents=True)
    (tasks / "ray_start.yml").write_text(yaml.safe_dump([
        {"name": "Good", "kimi.deploy.kimi_ray_cluster": {}},
        {"name": "Outer", "block": [{"name": "Wait", "kimi.deploy.kimi_x_ray_cluster": {}}]},
    ]))
    assert unknown_actions(tmp_path) == ["roles/kimi_x/tasks/ray_start.yml: 'Wait' -> kimi.deploy.kimi_x_ray_cluster"]
