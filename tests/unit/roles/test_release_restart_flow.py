"""kimi_release moves current back; the flow (kimi_deploy) restarts what serves again from the facts it exports.

recover.yml: a run killed after its switch left current on a pending release; the last accepted release is put
back (kimi_release_recovery) and prepare.yml restarts it. restore.yml: the candidate failed; it is marked failed,
the last accepted release is put back (kimi_release_restored) and the flow's restore.yml restarts it. Run here for
real (kimi_release and its module on a deploy root of real releases), with the flow's tasks taken from
roles/kimi_deploy/tasks/ as they are and kimi_vllm start.yml a stub that prints what it was given."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import kimi_release
import pytest
import yaml
from module_harness import run_module
from repo_paths import REPO
from task_tree import stub_collection, walk_tasks

START_STUB = [{"name": "Stub start", "ansible.builtin.debug": {
    "msg": "STEP start restart={{ kimi_vllm_restart_required }} port={{ kimi_vllm_serve.port }}"}}]


def _release(root: Path, port: int) -> str:
    return run_module(kimi_release, {
        "root": str(root), "state": "present", "inputs": {"plan": {"port": port}},
        "files": {"serve": {"content": f"#!/bin/sh\nexec x --port {port}\n", "mode": "0755"}},
        "metadata": {"served_model_name": "m"}})["release_id"]


def _flow_tasks(phase: str, roles: set[str]) -> list[dict]:
    """The tasks of kimi_deploy's phase file that call one of these roles (the others need a GPU host)."""
    tasks = yaml.safe_load((REPO / f"roles/kimi_deploy/tasks/{phase}.yml").read_text())
    calls = [t for t in walk_tasks(tasks)
             if any((t.get(k) or {}).get("name", "").rsplit(".", 1)[-1] in roles
                    for k in ("ansible.builtin.include_role", "ansible.builtin.import_role"))]
    assert calls, f"no call of {roles} in kimi_deploy {phase}.yml"
    return calls


def _run(tmp_path: Path, root: Path, tasks: list[dict], **extra) -> tuple[int, str]:
    collections = stub_collection(tmp_path, ("kimi", "kimi_release"), {"kimi_vllm": {"start": START_STUB}})
    play = [{"name": "A phase of the deploy", "hosts": "localhost", "gather_facts": False, "tasks": tasks}]
    (tmp_path / "play.yml").write_text(yaml.safe_dump(play, sort_keys=False))
    variables = {"ansible_connection": "local", "ansible_python_interpreter": sys.executable,
                 "kimi_root": str(root), "kimi_model_repo": "org/tiny", "kimi_api_key": "k" * 32, **extra}
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}", "ANSIBLE_NOCOLOR": "1",
           "ANSIBLE_CONFIG": str(REPO / "ansible.cfg"), "ANSIBLE_COLLECTIONS_PATH": str(collections)}
    (tmp_path / "vars.json").write_text(json.dumps(variables))
    proc = subprocess.run(["ansible-playbook", str(tmp_path / "play.yml"), "-i", "localhost,",
                           "-e", f"@{tmp_path / 'vars.json'}"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.fixture
def root(tmp_path) -> Path:
    return tmp_path / "root"


def test_an_unjudged_current_is_replaced_and_the_flow_restarts_the_accepted_release(tmp_path, root):
    accepted, pending = _release(root, 8001), _release(root, 8002)
    run_module(kimi_release, {"root": str(root), "state": "active", "release_id": accepted})
    run_module(kimi_release, {"root": str(root), "state": "verdict", "release_id": accepted, "verdict": "passed"})
    run_module(kimi_release, {"root": str(root), "state": "active", "release_id": pending, "pending": True})
    rc, out = _run(tmp_path, root, _flow_tasks("prepare", {"kimi_release", "kimi_vllm"})[:2])
    assert rc == 0, out[-4000:]
    said = " ".join(out.split())
    assert f"current pointed at {pending}, which was never accepted (pending;" in said, out[-4000:]
    assert f"The last accepted release {accepted} serves again" in said
    assert re.findall(r"STEP start \S+ \S+", out) == ["STEP start restart=True port=8001"], out[-4000:]
    assert os.readlink(root / "current") == f"releases/{accepted}"


def test_an_accepted_current_is_left_alone_and_nothing_restarts(tmp_path, root):
    accepted = _release(root, 8001)
    run_module(kimi_release, {"root": str(root), "state": "active", "release_id": accepted})
    run_module(kimi_release, {"root": str(root), "state": "verdict", "release_id": accepted, "verdict": "passed"})
    rc, out = _run(tmp_path, root, _flow_tasks("prepare", {"kimi_release", "kimi_vllm"})[:2])
    assert rc == 0, out[-4000:]
    assert "STEP start" not in out and "which was never accepted" not in out, out[-4000:]
    assert os.readlink(root / "current") == f"releases/{accepted}"


def test_a_failed_candidate_is_rejected_and_the_flow_restarts_the_accepted_release(tmp_path, root):
    accepted, failed = _release(root, 8001), _release(root, 8002)
    run_module(kimi_release, {"root": str(root), "state": "active", "release_id": accepted})
    run_module(kimi_release, {"root": str(root), "state": "verdict", "release_id": accepted, "verdict": "passed"})
    switch = run_module(kimi_release, {"root": str(root), "state": "active", "release_id": failed, "pending": True})
    # kimi_deploy's restore.yml without the diagnosis and the front door: restore, restart, Ray (not multi-node)
    tasks = _flow_tasks("restore", {"kimi_release", "kimi_vllm"})
    assert [t["name"] for t in tasks][-3:] == [
        "Restore the last accepted release",
        "Restart the last accepted release and wait until it serves again",
        "Stop Ray too when no release was ever accepted (multi-node)"]
    rc, out = _run(tmp_path, root, tasks[-3:], kimi_release_id=failed, kimi_release_switch=switch,
                   kimi_release_accepted=False)
    assert rc == 0, out[-4000:]
    assert re.findall(r"STEP start \S+ \S+", out) == ["STEP start restart=True port=8001"], out[-4000:]
    assert os.readlink(root / "current") == f"releases/{accepted}"
    verdict = json.loads((root / "releases" / failed / "release.json").read_text())["acceptance"]["verdict"]
    assert verdict == "failed"
