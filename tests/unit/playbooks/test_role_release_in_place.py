"""Issue 11 (3), at role level: the kimi_release role, given weights served in place
(kimi_weights_path_mode: in_place, so kimi_weights_model_dir is outside <root>/shared/models),
builds a release whose ``model`` link resolves to them. It used to point at
``../../shared/models/<basename>``, which does not exist, and vLLM started on a dangling path."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from repo_paths import REPO


@pytest.mark.parametrize("in_place", [True, False])
def test_release_model_link_resolves(tmp_path, in_place):
    root = tmp_path / "kimi"
    weights = (tmp_path / "data" / "k3") if in_place else (root / "shared" / "models" / "org--k3@0123")
    weights.mkdir(parents=True)
    (weights / "config.json").write_text("{}")
    play = [{
        "hosts": "localhost", "connection": "local", "gather_facts": False,
        "vars": {
            "kimi_root": str(root), "kimi_model_repo": "org/k3", "kimi_model_revision": "main",
            "kimi_weights_revision_sha": "0" * 40, "kimi_weights_model_dir": str(weights), "kimi_api_key": "k",
            "kimi_vllm_packages": ["vllm"],
            "kimi_vllm_venv_result": {"key": "v1", "vllm_version": "0.32.0", "python": sys.executable},
            "kimi_plan_result": {"serve_args": [], "env": {}, "layout": {"nnodes": 1}},
        },
        "tasks": [{"ansible.builtin.include_role": {"name": "kimi.deploy.kimi_release"}}],
    }]
    (tmp_path / "play.yml").write_text(yaml.safe_dump(play))
    bindir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bindir}:{os.environ.get('PATH', '')}", "ANSIBLE_NOCOLOR": "1"}
    # The venv's own, else the one on the PATH (ansible-test's venvs have no ansible bin/ of their own).
    playbook = shutil.which("ansible-playbook", path=f"{bindir}{os.pathsep}{os.environ['PATH']}")
    proc = subprocess.run([playbook, "-i", "localhost,", str(tmp_path / "play.yml"),
                           "-e", f"ansible_python_interpreter={sys.executable}"],
                          cwd=REPO, env=env, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    (release,) = (root / "releases").iterdir()
    link = release / "model"
    assert (link / "config.json").is_file(), os.readlink(link)
    assert os.readlink(link) == (str(weights) if in_place else "../../shared/models/org--k3@0123")
