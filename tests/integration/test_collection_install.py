"""The repository root is the collection kimi.deploy: its tarball builds, installs, and its playbooks
run from the installed copy by FQCN (ansible-playbook kimi.deploy.plan), away from this work tree."""

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
H200 = [{"name": "NVIDIA H200", "memory_total_mib": 143771, "count": 8}]


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    return proc.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, dict[str, str], Path, Path]:
    """The tarball, the environment, a cwd without this repo's ansible.cfg, the installed collection."""
    tmp = tmp_path_factory.mktemp("collection")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}", "ANSIBLE_NOCOLOR": "1",
           "ANSIBLE_COLLECTIONS_PATH": str(tmp / "collections")}
    env.pop("ANSIBLE_CONFIG", None)
    _run(["ansible-galaxy", "collection", "build", "--output-path", str(tmp / "dist"), str(REPO)], tmp, env)
    (tarball,) = (tmp / "dist").glob("kimi-deploy-*.tar.gz")
    _run(["ansible-galaxy", "collection", "install", "-p", str(tmp / "collections"), str(tarball)], tmp, env)
    run_dir = tmp / "run"
    run_dir.mkdir()
    return tarball, env, run_dir, tmp / "collections/ansible_collections/kimi/deploy"


def test_the_tarball_leaves_out_the_work_trees_own_state(installed):
    tarball = installed[0]
    with tarfile.open(tarball) as tar:
        names = tar.getnames()
    top = {name.split("/")[0] for name in names}
    assert {"plugins", "roles", "playbooks", "meta", "MANIFEST.json"} <= top
    assert not top & {".venv", ".ansible", ".git", "build", "molecule", ".pytest_cache"}
    assert not [name for name in names if name.startswith("tests/output") or "__pycache__" in name]


def test_every_playbook_parses_from_the_installed_collection(installed):
    _tarball, env, run_dir, root = installed
    for playbook in sorted((REPO / "playbooks").glob("*.yml")):
        _run(["ansible-playbook", "--syntax-check", "-i", "localhost,", f"kimi.deploy.{playbook.stem}"], run_dir, env)
    assert (root / "plugins/modules/kimi_vllm_plan.py").is_file()


def test_plan_runs_from_the_installed_collection(installed):
    """Roles, modules and filters resolve inside the installed collection, not through this repository."""
    _tarball, env, run_dir, root = installed
    out = _run(["ansible-playbook", "kimi.deploy.plan", "-i", str(root / "inventories/example-h200-2x8"),
                "-l", "gpu_nodes", "-e", "ansible_connection=local", "-e", "ansible_become=false",
                "-e", f"ansible_python_interpreter={sys.executable}", "-e", json.dumps({"kimi_gpus_override": H200})],
               run_dir, env)
    out = " ".join(out.split())
    assert "moonshotai/Kimi-K3: fits; 2 nodes x 8, TP8 x PP2" in out
    assert str(REPO) not in out
