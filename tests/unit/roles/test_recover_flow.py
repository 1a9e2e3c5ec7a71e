"""A run killed after its switch left current on a pending release: kimi_release recover.yml puts the last
accepted release back and exports kimi_release_recovery; kimi_deploy's prepare restarts it from that fact. Run
here for real (kimi_release and its module on a deploy root of real releases), with the restart task taken
from roles/kimi_deploy/tasks/prepare.yml as it is and kimi_vllm start.yml a stub that prints what it was given."""

from __future__ import annotations

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


def _flow_restart_task() -> dict:
    tasks = yaml.safe_load((REPO / "roles/kimi_deploy/tasks/prepare.yml").read_text())
    return next(t for t in walk_tasks(tasks)
                if (t.get("ansible.builtin.include_role") or {}).get("tasks_from") == "start.yml")


def _run(tmp_path: Path, root: Path) -> tuple[int, str]:
    collections = stub_collection(tmp_path, ("kimi", "kimi_release"), {"kimi_vllm": {"start": START_STUB}})
    play = [{"name": "Prepare's first step", "hosts": "localhost", "gather_facts": False, "tasks": [
        {"name": "Recover", "ansible.builtin.import_role": {"name": "kimi.deploy.kimi_release",
                                                             "tasks_from": "recover.yml"}},
        _flow_restart_task()]}]
    (tmp_path / "play.yml").write_text(yaml.safe_dump(play, sort_keys=False))
    variables = {"ansible_connection": "local", "ansible_python_interpreter": sys.executable,
                 "kimi_root": str(root), "kimi_model_repo": "org/tiny", "kimi_api_key": "k" * 32}
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}", "ANSIBLE_NOCOLOR": "1",
           "ANSIBLE_CONFIG": str(REPO / "ansible.cfg"), "ANSIBLE_COLLECTIONS_PATH": str(collections)}
    args = [f"{k}={v}" for k, v in variables.items()]
    proc = subprocess.run(["ansible-playbook", str(tmp_path / "play.yml"), "-i", "localhost,",
                           *[a for kv in args for a in ("-e", kv)]],
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
    rc, out = _run(tmp_path, root)
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
    rc, out = _run(tmp_path, root)
    assert rc == 0, out[-4000:]
    assert "STEP start" not in out and "which was never accepted" not in out, out[-4000:]
    assert os.readlink(root / "current") == f"releases/{accepted}"
