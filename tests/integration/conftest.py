"""Fixtures for tests that run the real parts: the vLLM CPU build and the tiny models."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# The modules run in-process here too, as in tests/unit.
import ansible_module_utils  # noqa: F401  # pylint: disable=unused-import
import pytest
from kimi_deploy.core.sizing import GiB
from vllm_server import (
    PLANNED_LLAMA_API_KEY,
    PLANNED_LLAMA_NEED,
    PLANNED_LLAMA_PORT,
    VLLM_VENV,
    VllmServer,
    plan_for,
    planned_env,
)

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


# One server for the files that need a healthy, planned release with an API key (the acceptance
# suite, the calibration of an explicit 1 GiB KV budget, the front door), started once per session.
@pytest.fixture(scope="session")
def planned_llama(tiny_models, vllm_venv, tmp_path_factory):
    """The tiny llama served with the plan for PLANNED_LLAMA_NEED and an explicit 1 GiB KV budget,
    its API key and bf16; ``.plan`` is that plan, ``.model_dir`` the model."""
    model = tiny_models("llama")
    plan = plan_for(model, PLANNED_LLAMA_NEED, kv_cache_memory_bytes=GiB)
    assert plan["fits"], plan["reasons"]
    log = tmp_path_factory.mktemp("planned-llama") / "vllm.log"
    args = [*plan["serve_args"], "--api-key", PLANNED_LLAMA_API_KEY, "--dtype", "bfloat16"]
    with VllmServer(model, port=PLANNED_LLAMA_PORT, args=args, env=planned_env(plan), log_path=log) as server:
        server.wait_healthy()
        server.model_dir, server.plan = model, plan
        yield server
