"""The Hub token reaches the fetch as a root-only file, never as a module argument.

A module argument is part of the AnsiballZ payload, which for an async task (the fetch runs for
hours) sits on the host in ~/.ansible/tmp for the whole run. Before: kimi_weights passed
``token: "{{ kimi_weights_hf_token }}"`` to both kimi_hf_snapshot calls.
"""

from __future__ import annotations

import json

import kimi_hf_snapshot
import yaml
from module_harness import run_module
from repo_paths import REPO
from task_tree import walk_tasks

TOKEN = "hf_S3CR3TTOKEN"


def _weights_tasks():
    return list(walk_tasks(yaml.safe_load((REPO / "roles/kimi_weights/tasks/main.yml").read_text())))


def test_every_fetch_reads_the_token_from_the_file():
    fetches = [t for t in _weights_tasks() if "kimi.deploy.kimi_hf_snapshot" in t]
    assert len(fetches) == 3  # the probe, the fetch, and the fetch again of failed files
    for task in fetches:
        args = task["kimi.deploy.kimi_hf_snapshot"]
        assert args["token_file"].startswith("{{ __kimi_weights_token_file if __kimi_weights_token_on_disk")
        # the token itself only in check mode, on a host where the file is not written yet
        assert args["token"] == "{{ kimi_weights_hf_token if __kimi_weights_token_in_memory | bool else omit }}"
    role_vars = yaml.safe_load((REPO / "roles/kimi_weights/vars/main.yml").read_text())
    assert "ansible_check_mode" in role_vars["__kimi_weights_token_in_memory"]
    assert role_vars["__kimi_weights_token_file"] == "{{ kimi_root }}/shared/secrets/hf-token"


def test_the_token_file_is_written_root_only_before_the_fetch():
    tasks = _weights_tasks()
    [write] = [t for t in tasks if t.get("ansible.builtin.copy", {}).get("dest") == "{{ __kimi_weights_token_file }}"]
    copy = write["ansible.builtin.copy"]
    assert copy["mode"] == "0600" and copy["owner"] == "root" and write["no_log"] is True and write["diff"] is False
    names = [t.get("name") for t in tasks]
    first_fetch = next(i for i, t in enumerate(tasks) if "kimi.deploy.kimi_hf_snapshot" in t)
    assert names.index(write["name"]) < first_fetch


def _fake_fetch(seen):
    def fetch(request, check_mode=False):
        seen.append(request.token)
        return {"changed": False, "path": "/x", "revision_sha": "a" * 40}
    return fetch


def test_module_reads_a_0600_token_file_and_never_returns_it(monkeypatch, tmp_path):
    path = tmp_path / "hf-token"
    path.write_text(TOKEN + "\n")
    path.chmod(0o600)
    seen = []
    monkeypatch.setattr(kimi_hf_snapshot, "fetch_snapshot", _fake_fetch(seen))
    result = run_module(kimi_hf_snapshot, {"repo_id": "org/model", "revision": "a" * 40, "root": str(tmp_path),
                                           "token_file": str(path)})
    assert seen == [TOKEN] and not result.get("failed")
    assert TOKEN not in json.dumps(result)


def test_module_refuses_a_token_file_others_can_read(monkeypatch, tmp_path):
    path = tmp_path / "hf-token"
    path.write_text(TOKEN)
    path.chmod(0o644)
    seen = []
    monkeypatch.setattr(kimi_hf_snapshot, "fetch_snapshot", _fake_fetch(seen))
    result = run_module(kimi_hf_snapshot, {"repo_id": "org/model", "root": str(tmp_path), "token_file": str(path)})
    assert result["failed"] and "chmod 600" in result["msg"] and seen == []
    assert TOKEN not in json.dumps(result)
