"""kimi_vllm_venv against real pip and a real wheelhouse (a tiny package, so it stays fast)."""

import json
import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "plugins" / "modules"))
sys.path.insert(0, str(REPO / "tests" / "unit"))
import conftest as _unit_conftest  # noqa: F401  registers the collection's kimi_deploy
import kimi_vllm_venv
from module_harness import run_module

WHEELHOUSE = Path(os.environ.get("KIMI_WHEELHOUSE", "/var/cache/kimi-deploy/wheelhouse"))


@pytest.fixture
def tiny_package():
    wheels = sorted(WHEELHOUSE.glob("idna-*.whl"))
    if not wheels:
        pytest.fail(f"no idna wheel in {WHEELHOUSE}: run scripts/test.sh, which builds the wheelhouse")
    return "idna"


def test_build_reuse_rebuild_and_check_mode(tmp_path, tiny_package):
    args = {"venvs_dir": str(tmp_path), "packages": [tiny_package], "remove_packages": [],
            "wheelhouse": str(WHEELHOUSE), "python": "/usr/bin/python3"}
    dry = run_module(kimi_vllm_venv, args, check_mode=True)
    assert dry["changed"] and not Path(dry["path"]).exists()
    built = run_module(kimi_vllm_venv, args)
    assert built["changed"] and built["vllm_version"] == ""
    marker = json.loads((Path(built["path"]) / ".kimi-venv.json").read_text())
    assert any(line.startswith("idna==") for line in marker["installed"])
    assert os.access(Path(built["path"]) / "bin" / "kimi-vllm", os.X_OK)
    again = run_module(kimi_vllm_venv, args)
    assert again["changed"] is False and again["path"] == built["path"]
    # an interrupted install (no marker) is rebuilt from scratch
    (Path(built["path"]) / ".kimi-venv.json").unlink()
    (Path(built["path"]) / "leftover").write_text("x")
    rebuilt = run_module(kimi_vllm_venv, args)
    assert rebuilt["changed"] and not (Path(built["path"]) / "leftover").exists()


def test_missing_wheelhouse_is_explained(tmp_path):
    result = run_module(kimi_vllm_venv, {"venvs_dir": str(tmp_path), "packages": ["idna"],
                                         "wheelhouse": str(tmp_path / "nope")})
    assert result["failed"] and "not a directory" in result["msg"]


def test_unavailable_package_fails_with_pip_message(tmp_path):
    result = run_module(kimi_vllm_venv, {"venvs_dir": str(tmp_path), "packages": ["no-such-pkg-kimi==1.0"],
                                         "wheelhouse": str(WHEELHOUSE)})
    assert result["failed"] and "no-such-pkg-kimi" in result["msg"]
    assert not (Path(tmp_path) / result.get("key", "x") / ".kimi-venv.json").exists()
