"""Helpers the YAML-level tests share: walk a task list, and build a kimi.deploy collection of stubs.

``stub_collection`` makes ``<tmp>/collections/ansible_collections/kimi/deploy`` with this repository's plugins,
meta and the roles named real (linked), and the other roles as stubs (``{role: {tasks file stem: [tasks]}}``; an
empty list becomes a no-op task), so a real playbook runs its real flow with the phases replaced.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import yaml
from repo_paths import REPO


def walk_tasks(tasks: Iterable[dict] | None) -> Iterator[dict]:
    """Every task, and every task inside its block, rescue and always, depth first."""
    for task in tasks or []:
        yield task
        for key in ("block", "rescue", "always"):
            yield from walk_tasks(task.get(key))


def stub_collection(tmp_path: Path, real_roles: Iterable[str], stubs: Mapping[str, Mapping[str, list]]) -> Path:
    """The collections root (for ANSIBLE_COLLECTIONS_PATH) of a kimi.deploy with ``stubs`` in place of those roles."""
    root = tmp_path / "collections"
    base = root / "ansible_collections" / "kimi" / "deploy"
    (base / "roles").mkdir(parents=True)
    for name in ("plugins", "meta", "galaxy.yml"):
        (base / name).symlink_to(REPO / name)
    for role in real_roles:
        (base / "roles" / role).symlink_to(REPO / "roles" / role)
    for role, files in stubs.items():
        (base / "roles" / role / "tasks").mkdir(parents=True)
        for name, tasks in files.items():
            (base / "roles" / role / "tasks" / f"{name}.yml").write_text(yaml.safe_dump(tasks or [
                {"name": f"Stub {role} {name}", "ansible.builtin.meta": "noop"}], sort_keys=False))
    return root
