"""The K3 stand-in has the published checkpoint's layout, and the verifier accepts it.

Expected counts are the published ones: 96 shards, 497,220 tensors, 1,503,647,073,024 elements,
1453.66 GiB of tensors (the tensor table's published_totals and the reference README).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
from pathlib import Path

import pytest
from kimi_deploy.core.safetensors_format import read_header
from kimi_deploy.io.weights_verify import check_serving, verify_model
from repo_paths import REPO

_spec = importlib.util.spec_from_file_location("build_k3_standin", REPO / "tools/build_k3_standin.py")
build_k3_standin = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_k3_standin)

PUBLISHED_TENSORS = 497_220
PUBLISHED_ELEMENTS = 1_503_647_073_024
PUBLISHED_TENSOR_BYTES = 1_560_860_324_864  # reference/README: the tensor table's byte total


@pytest.fixture(scope="module")
def standin(tmp_path_factory):
    out = tmp_path_factory.mktemp("k3") / "moonshotai--Kimi-K3@9f62e4e9fffbd0a83ddd60e1c209d828994b3569"
    summary = build_k3_standin.build(out)
    return out, summary


def link_tree(src: Path, dst: Path) -> Path:
    """A private view of the stand-in in milliseconds: hardlinks (replace a file before editing it)."""
    dst.mkdir()
    for path in src.iterdir():
        os.link(path, dst / path.name)
    return dst


def test_counts_match_the_published_checkpoint(standin):
    out, summary = standin
    assert summary["tensors"] == PUBLISHED_TENSORS
    assert summary["real_elements"] == PUBLISHED_ELEMENTS
    assert summary["real_tensor_bytes"] == PUBLISHED_TENSOR_BYTES
    assert round(summary["real_tensor_bytes"] / 2**30, 2) == 1453.66
    index = json.loads((out / "model.safetensors.index.json").read_text())
    assert len(index["weight_map"]) == PUBLISHED_TENSORS
    assert index["metadata"]["total_size"] == PUBLISHED_TENSOR_BYTES


def test_ninety_six_shards_with_six_digit_totals(standin):
    out, _unused = standin
    shards = sorted(p.name for p in out.glob("*.safetensors"))
    assert len(shards) == 96
    assert shards[0] == "model-00001-of-000096.safetensors" and shards[-1] == "model-00096-of-000096.safetensors"
    assert all(re.fullmatch(r"model-\d{5}-of-000096\.safetensors", s) for s in shards)


def test_tensors_sit_where_the_report_puts_them(standin):
    out, _unused = standin
    index = json.loads((out / "model.safetensors.index.json").read_text())["weight_map"]
    assert index["language_model.model.layers.0.mlp.down_proj.weight"] == "model-00001-of-000096.safetensors"
    assert index["language_model.lm_head.weight"] == "model-00094-of-000096.safetensors"
    assert index["mm_projector.proj.0.weight"] == "model-00095-of-000096.safetensors"
    assert index["vision_tower.encoder.blocks.26.wqkv.weight"] == "model-00096-of-000096.safetensors"
    expert = "language_model.model.layers.92.block_sparse_moe.experts.895.w2.weight_packed"
    assert index[expert] == "model-00093-of-000096.safetensors"
    header = read_header(out / "model-00093-of-000096.safetensors")
    assert header.tensors[expert].dtype == "U8" and header.tensors[expert].shape == (1, 1)


def test_whole_standin_is_small(standin):
    out, _unused = standin
    assert sum(p.stat().st_size for p in out.iterdir() if p.is_file()) < 200 * 1024**2


def test_verifier_accepts_it_and_reports_what_k3_needs(standin, tmp_path):
    out, _unused = standin
    model = link_tree(out, tmp_path / out.name)
    result = verify_model(model, workers=2)
    assert result.ok, result.failed
    assert len(result.shards) == 96 and result.trust_remote_code is True
    assert result.architectures == ["KimiK3ForConditionalGeneration"]
    serving = check_serving(result, gpu_architecture="H200")
    assert serving["required_serve_args"] == ["--trust-remote-code", "--moe-backend", "marlin"]
    assert check_serving(result, gpu_architecture="B300")["required_serve_args"] == ["--trust-remote-code"]
    again = verify_model(model)
    assert again.ok and again.hashed_bytes == 0 and len(again.cached) == len(result.checked_files)


def test_a_missing_shard_of_the_real_layout_is_named(standin, tmp_path):
    out, _unused = standin
    model = link_tree(out, tmp_path / out.name)
    (model / "model-00050-of-000096.safetensors").unlink()
    truncated = model / "model-00051-of-000096.safetensors"
    truncated.unlink()
    truncated.write_bytes((out / truncated.name).read_bytes()[:1000])
    result = verify_model(model, hash_files=False, use_cache=False)
    assert set(result.failed) == {"model-00050-of-000096.safetensors", "model-00051-of-000096.safetensors"}
    assert result.failed["model-00050-of-000096.safetensors"][0].startswith("missing")
