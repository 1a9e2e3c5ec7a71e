"""Fixtures for tests that run the real parts: the vLLM CPU build and the tiny models."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# The modules run in-process here too, as in tests/unit.
import ansible_module_utils  # noqa: F401  # pylint: disable=unused-import
import pytest
from vllm_server import VLLM_VENV

REPO_ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(items):
    for item in items:
        item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def vllm_venv() -> Path:
    if not (VLLM_VENV / "bin" / "python").exists():
        pytest.fail(f"the vLLM CPU venv {VLLM_VENV} is missing: run scripts/test.sh (it builds it)")
    return VLLM_VENV


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory):
    """Factory: tiny_models("llama", shards=2) -> path of a freshly built tiny model (cached per session)."""
    built: dict[tuple[str, int], Path] = {}

    def build(arch: str = "llama", shards: int = 1) -> Path:
        key = (arch, shards)
        if key not in built:
            out = tmp_path_factory.mktemp(f"tiny-{arch}-{shards}")
            subprocess.run([sys.executable, str(REPO_ROOT / "tools/build_tiny_model.py"), "--arch", arch,
                            "--out", str(out), "--shards", str(shards)], check=True, capture_output=True)
            built[key] = out
        return built[key]

    return build
