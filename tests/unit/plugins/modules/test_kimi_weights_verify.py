"""The kimi_weights_verify module: options, results, failure messages and check mode."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import kimi_weights_verify
import pytest
from kimi_deploy.io.weights_verify import EXPECTED_MANIFEST, HASH_CACHE
from module_harness import run_module
from repo_paths import REPO

SHARD1, SHARD2 = "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"
K3_QUANT = json.loads((REPO / "data/models/kimi-k3/config.json").read_text())["text_config"][
    "quantization_config"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = {}
    for arch in ("llama", "qwen3_moe"):
        out[arch] = tmp_path_factory.mktemp(arch)
        subprocess.run([sys.executable, str(REPO / "tools/build_tiny_model.py"), "--arch", arch,
                        "--out", str(out[arch]), "--shards", "2"], check=True, capture_output=True)
    return out


@pytest.fixture
def model(built, tmp_path):
    return Path(shutil.copytree(built["llama"], tmp_path / "model"))


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_passes_and_reports(model):
    result = run_module(kimi_weights_verify, {"path": str(model)})
    assert not result.get("failed") and result["ok"] is True and result["changed"] is False
    assert result["failed_shards"] == {} and result["shards"] == [SHARD1, SHARD2]
    assert result["checked_files"] == sorted(p.name for p in model.iterdir() if p.is_file())
    assert result["hashed_bytes"] == sum(p.stat().st_size for p in model.iterdir() if p.is_file())
    assert result["sha256"][SHARD1] == sha256_of(model / SHARD1)
    assert result["architectures"] == ["LlamaForCausalLM"] and result["trust_remote_code"] is False
    assert result["architecture_supported"] is None and result["quantization"] is None
    assert result["expected_source"] == "none" and any("not compared" in n for n in result["notes"])


def test_failure_names_the_shards_and_why(model):
    expected = {SHARD1: "0" * 64, SHARD2: sha256_of(model / SHARD2)}
    (model / "tokenizer.json").unlink()
    result = run_module(kimi_weights_verify, {"path": str(model), "expected_sha256": expected})
    assert result["failed"] is True and result["ok"] is False
    assert set(result["failed_shards"]) == {SHARD1, "tokenizer"}
    assert result["failed_shards"][SHARD1].startswith("sha256 mismatch")
    assert result["msg"].startswith(f"weights in {model} failed verification, 2 file(s): {SHARD1} (sha256 mismatch")
    assert result["refetch"] == [SHARD1]  # "tokenizer" names no file: a fresh copy would not bring one
    assert f"Re-fetch {[SHARD1]!r}" in result["msg"]


def test_sha256sum_manifest_and_the_fetchers_manifest(model, tmp_path):
    names = sorted(p.name for p in model.iterdir())
    sums = subprocess.run(["sha256sum", *names], cwd=model, capture_output=True, text=True, check=True).stdout
    (tmp_path / "SHA256SUMS").write_text(sums)
    result = run_module(kimi_weights_verify, {"path": str(model), "manifest_file": str(tmp_path / "SHA256SUMS")})
    assert result["ok"] is True and result["expected_source"] == str(tmp_path / "SHA256SUMS")
    # Without an option, the manifest kimi_hf_snapshot leaves in the directory is found and used.
    manifest = model / EXPECTED_MANIFEST
    manifest.parent.mkdir(parents=True, exist_ok=True)  # the digest cache already lives there
    manifest.write_text(json.dumps({"files": {SHARD1: {"sha256": "f" * 64, "size": 1}}}))
    found = run_module(kimi_weights_verify, {"path": str(model)})
    assert found["failed"] is True and found["expected_source"] == str(manifest)
    assert found["failed_shards"][SHARD1].startswith("wrong size")


def test_check_mode_leaves_the_cache_alone_and_the_cache_makes_reverify_free(model):
    run_module(kimi_weights_verify, {"path": str(model)}, check_mode=True)
    assert not (model / HASH_CACHE).exists()
    first = run_module(kimi_weights_verify, {"path": str(model), "workers": 2})
    assert (model / HASH_CACHE).is_file() and first["cached"] == []
    again = run_module(kimi_weights_verify, {"path": str(model)})
    assert again["hashed_bytes"] == 0 and again["cached"] == first["hashed_files"]
    off = run_module(kimi_weights_verify, {"path": str(model), "cache_manifest": False, "hash": False})
    assert off["hashed_bytes"] == 0 and off["cached"] == []


def test_gpu_architecture_adds_the_serve_args(built, tmp_path):
    model = Path(shutil.copytree(built["qwen3_moe"], tmp_path / "moe"))
    config = json.loads((model / "config.json").read_text())
    config["quantization_config"] = K3_QUANT  # MXFP4 experts, as K3 has them
    (model / "config.json").write_text(json.dumps(config))
    hopper = run_module(kimi_weights_verify, {"path": str(model), "gpu_architecture": "H200", "hash": False})
    assert hopper["ok"] is True and hopper["required_serve_args"] == ["--moe-backend", "marlin"]
    assert hopper["quantization"]["gpu_capability"] == "9.0"
    blackwell = run_module(kimi_weights_verify, {"path": str(model), "gpu_architecture": "10.0", "hash": False})
    assert blackwell["required_serve_args"] == []
    volta = run_module(kimi_weights_verify, {"path": str(model), "gpu_architecture": "volta", "hash": False})
    assert volta["failed"] is True and list(volta["failed_shards"]) == ["config.json"]
    assert "cannot run on compute capability 7.0" in volta["msg"] and volta["refetch"] == []
    assert "A fresh copy of the same files would not help" in volta["msg"]


def test_bad_options_fail_with_a_message(model, tmp_path):
    both = run_module(kimi_weights_verify, {"path": str(model), "expected_sha256": {"a": "0" * 64},
                                            "manifest_file": "/x"})
    assert both["failed"] is True and "mutually exclusive" in both["msg"]
    missing = run_module(kimi_weights_verify, {"path": str(tmp_path / "nope")})
    assert missing["failed"] is True and "does not exist" in missing["msg"]
    no_python = run_module(kimi_weights_verify, {"path": str(model), "vllm_python": str(tmp_path / "python")})
    assert no_python["failed"] is True and "not an executable file" in no_python["msg"]
    bad_gpu = run_module(kimi_weights_verify, {"path": str(model), "gpu_architecture": "abacus"})
    assert bad_gpu["failed"] is True and "gpu_architecture 'abacus' is not known" in bad_gpu["msg"]
