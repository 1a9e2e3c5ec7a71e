"""Weight bytes per GPU from the tensor list, with each tensor classed the way vLLM shards it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.model_profile import load_profile, load_profile_from_path
from kimi_deploy.core.safetensors_format import tensor_nbytes
from kimi_deploy.core.tensor_sharding import (
    DENSE_MLP,
    EVERY,
    EXPERT,
    FIRST,
    KV_HEADS,
    LAST,
    REPLICATED,
    SHARED_EXPERT,
    SKIPPED,
    TP,
    VISION,
    VOCAB,
    TensorRecord,
    WeightInventory,
    WeightLayout,
    classify_tensor,
    records_from_hub,
    records_from_safetensors_dir,
    records_from_tensor_table,
    records_summary,
)
from repo_paths import REPO

MODELS = REPO / "data" / "models"
TABLE = MODELS / "kimi-k3" / "tensor-table.json"


@pytest.fixture(scope="module")
def k3():
    return load_profile_from_path(MODELS / "kimi-k3")


@pytest.fixture(scope="module")
def k3_inventory(k3):
    return WeightInventory.from_records(records_from_tensor_table(TABLE), k3)


@pytest.fixture(scope="module")
def table_rows():
    doc = json.loads(TABLE.read_text())
    sets = doc["layer_sets"]
    rows = []
    for row in doc["rows"]:
        count = (len(sets[row["layers"]]) if "layers" in row else 1) * (row.get("experts") or row.get("blocks") or 1)
        rows.append((row["name"], tensor_nbytes(row["dtype"], row["shape"]) * count))
    return rows


def _tiny(tmp_path: Path, arch: str, shards: int = 1) -> Path:
    out = tmp_path / f"{arch}-{shards}"
    subprocess.run([sys.executable, str(REPO / "tools/build_tiny_model.py"), "--arch", arch, "--out", str(out),
                    "--shards", str(shards)], check=True, capture_output=True)
    return out


def test_k3_table_expands_to_the_published_checkpoint(k3_inventory):
    records = records_from_tensor_table(TABLE)
    assert records_summary(records) == {"tensors": 497_220, "bytes": 1_560_860_324_864}
    assert k3_inventory.tensor_count == 497_220
    assert k3_inventory.total_bytes == 1_560_860_324_864
    assert k3_inventory.unclassified == [] and k3_inventory.skipped_bytes == 0


@pytest.mark.parametrize(("name", "kind", "where"), [
    ("language_model.model.embed_tokens.weight", VOCAB, FIRST),
    ("language_model.lm_head.weight", VOCAB, LAST),
    ("language_model.model.norm.weight", REPLICATED, LAST),
    ("language_model.model.layers.3.self_attn.kv_a_proj_with_mqa.weight", REPLICATED, 3),
    ("language_model.model.layers.3.self_attn.q_a_proj.weight", REPLICATED, 3),
    ("language_model.model.layers.3.self_attn.q_b_proj.weight", TP, 3),
    ("language_model.model.layers.3.self_attn.kv_b_proj.weight", TP, 3),
    ("language_model.model.layers.3.self_attn.g_proj.weight", TP, 3),
    ("language_model.model.layers.0.self_attn.k_proj.weight", TP, 0),  # KDA projection, split by heads
    ("language_model.model.layers.0.self_attn.f_a_proj.weight", REPLICATED, 0),
    ("language_model.model.layers.0.self_attn.q_conv1d.weight", TP, 0),
    ("language_model.model.layers.0.self_attn.dt_bias", TP, 0),
    ("language_model.model.layers.0.mlp.gate_proj.weight", DENSE_MLP, 0),
    ("language_model.model.layers.5.block_sparse_moe.gate.weight", REPLICATED, 5),
    ("language_model.model.layers.5.block_sparse_moe.gate.e_score_correction_bias", REPLICATED, 5),
    ("language_model.model.layers.5.block_sparse_moe.experts.17.w2.weight_packed", EXPERT, 5),
    ("language_model.model.layers.5.block_sparse_moe.shared_experts.up_proj.weight", SHARED_EXPERT, 5),
    ("language_model.model.layers.5.block_sparse_moe.routed_expert_up_proj.weight", REPLICATED, 5),
    ("language_model.model.layers.5.mlp_res_proj.weight", REPLICATED, 5),
    ("vision_tower.encoder.blocks.3.wqkv.weight", VISION, EVERY),
    ("mm_projector.proj.0.weight", VISION, EVERY),
])
def test_k3_tensors_are_classed_as_vllm_shards_them(k3, name, kind, where):
    placement, recognised = classify_tensor(name, k3)
    assert (placement.kind, placement.where, recognised) == (kind, where, True)


def test_gqa_kv_projections_and_mtp_layers(tmp_path):
    gqa = load_profile({"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4,
                        "num_key_value_heads": 2, "vocab_size": 64, "max_position_embeddings": 64})
    assert classify_tensor("model.layers.1.self_attn.v_proj.weight", gqa)[0].kind == KV_HEADS
    assert classify_tensor("model.layers.1.self_attn.q_proj.weight", gqa)[0].kind == TP
    # DeepSeek-style checkpoints carry MTP layers past num_hidden_layers; vLLM does not load them.
    assert classify_tensor("model.layers.2.eh_proj.weight", gqa)[0].kind == SKIPPED
    placement, recognised = classify_tensor("model.layers.1.mystery.weight", gqa)
    assert (placement.kind, recognised) == (REPLICATED, False)


def test_k3_tp8_bytes_per_gpu_by_independent_row_sums(k3_inventory, table_rows):
    """Sum the table rows by the vLLM 0.32 K3 code's sharding (listed here by row name) and compare."""
    replicated_modules = ("q_a_proj", "kv_a_proj_with_mqa", "q_a_layernorm", "kv_a_layernorm", "f_a_proj", "gate.",
                          "routed_expert_", "_res_", "layernorm", "o_norm", "model.norm", "A_log")
    expected = 0.0
    for name, nbytes in table_rows:
        if name.startswith(("vision_tower", "mm_projector")):
            expected += nbytes  # data-parallel ViT: a full copy on every GPU
        elif "experts.{expert}" in name:
            expected += nbytes / 8
        elif any(m in name for m in replicated_modules) and "A_log" not in name:
            expected += nbytes
        else:
            expected += nbytes / 8  # column / row / vocab parallel (vocab 163840 needs no padding at TP8)
    stage = k3_inventory.per_stage(WeightLayout(tp=8))[0]
    assert stage.total_bytes == pytest.approx(expected, abs=16)
    assert 185 * 2**30 < stage.total_bytes < 200 * 2**30  # ≈ 191.8 GiB; facts.md §4.5 estimated 184-211


def test_k3_experts_pad_at_tp16_and_split_by_ep(k3_inventory):
    experts = k3_inventory.bytes_by_kind()[EXPERT]
    tp16 = k3_inventory.per_stage(WeightLayout(tp=16))[0].by_kind[EXPERT]
    # KimiMoE pads each TP shard of the 3072-wide intermediate to >= 256 rows: 192 -> 256
    assert tp16 == pytest.approx(experts / 16 * 256 / 192, abs=2)
    ep16 = k3_inventory.per_stage(WeightLayout(tp=16, enable_expert_parallel=True))[0].by_kind[EXPERT]
    assert ep16 == pytest.approx(experts / 16, abs=2)


def test_k3_sequence_parallel_replicates_shared_experts_with_dp_and_ep(k3_inventory):
    shared = k3_inventory.bytes_by_kind()[SHARED_EXPERT]
    dp_ep = WeightLayout(tp=8, dp=4, enable_expert_parallel=True)
    by_kind = k3_inventory.per_stage(dp_ep)[0].by_kind
    assert by_kind[SHARED_EXPERT] == shared  # KimiMLP disable_tp under sequence parallel
    assert by_kind[EXPERT] == pytest.approx(k3_inventory.bytes_by_kind()[EXPERT] / 32, abs=2)
    sharded = WeightLayout(tp=8, dp=4, enable_expert_parallel=True, shard_sequence_parallel_shared_experts=True)
    assert k3_inventory.per_stage(sharded)[0].by_kind[SHARED_EXPERT] == pytest.approx(shared / 8, abs=1)
    # With PP there is no sequence parallel: shared experts stay TP-split
    assert k3_inventory.per_stage(WeightLayout(tp=8))[0].by_kind[SHARED_EXPERT] == pytest.approx(shared / 8, abs=1)


def test_pipeline_stages_split_layers_and_copy_the_vision_tower(k3_inventory):
    one = k3_inventory.per_stage(WeightLayout(tp=1))[0].total_bytes
    stages = k3_inventory.per_stage(WeightLayout(tp=1, pp=2))
    vision = k3_inventory.bytes_by_kind()[VISION]
    assert [s.layers for s in stages] == [range(0, 47), range(47, 93)]
    assert sum(s.total_bytes for s in stages) == pytest.approx(one + vision, abs=4)
    assert VOCAB in stages[0].by_kind and VOCAB in stages[1].by_kind  # embed first, lm_head last
    no_vision = k3_inventory.per_stage(WeightLayout(tp=1, language_model_only=True))[0]
    assert no_vision.total_bytes == pytest.approx(one - vision, abs=2)


def test_synthetic_inventory_by_hand():
    profile = load_profile({"num_hidden_layers": 2, "hidden_size": 8, "num_attention_heads": 4,
                            "num_key_value_heads": 2, "vocab_size": 100, "max_position_embeddings": 64})
    records = [
        TensorRecord("model.embed_tokens.weight", "BF16", (100, 8), 1600),     # 100 rows padded to 128
        TensorRecord("model.layers.0.self_attn.q_proj.weight", "BF16", (8, 8), 128),
        TensorRecord("model.layers.0.self_attn.k_proj.weight", "BF16", (4, 8), 64),
        TensorRecord("model.layers.1.input_layernorm.weight", "BF16", (8,), 16),
    ]
    inv = WeightInventory.from_records(records, profile)
    stage = inv.per_stage(WeightLayout(tp=4))[0]
    # vocab: ceil(128 / 4) rows x 16 B; q: 128 / 4; k: 2 KV heads on 4 ranks -> one head each = 64 / 2; norm: 16
    assert stage.by_kind == {VOCAB: 32 * 16, TP: 32, KV_HEADS: 32, REPLICATED: 16}
    pp = inv.per_stage(WeightLayout(tp=1, pp=2))
    assert [s.total_bytes for s in pp] == [128 * 16 + 128 + 64, 16]  # the embedding is allocated padded


def test_safetensors_headers_single_file_and_sharded_agree(tmp_path):
    single = records_from_safetensors_dir(_tiny(tmp_path, "deepseek_v3"))
    sharded = records_from_safetensors_dir(_tiny(tmp_path, "deepseek_v3", shards=3))
    assert records_summary(single) == records_summary(sharded)
    assert sorted(r.name for r in single) == sorted(r.name for r in sharded)
    model = tmp_path / "deepseek_v3-1"
    files_bytes = sum(p.stat().st_size for p in model.glob("*.safetensors"))
    assert records_summary(single)["bytes"] < files_bytes  # headers are not weights
    inv = WeightInventory.from_records(single, load_profile_from_path(model))
    assert inv.unclassified == []
    assert inv.bytes_by_kind()[EXPERT] == 8 * 3 * 64 * 128 * 2  # 8 experts x (gate, up, down) of 64 x 128 bf16


def test_missing_shard_and_empty_dir_are_reported(tmp_path):
    model = _tiny(tmp_path, "llama", shards=2)
    next(model.glob("model-00002-*.safetensors")).unlink()
    with pytest.raises(KimiDeployError, match="missing; the download is incomplete"):
        records_from_safetensors_dir(model)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(KimiDeployError, match=r"no \*\.safetensors"):
        records_from_safetensors_dir(empty)


def test_bad_tensor_tables_are_refused(tmp_path):
    with pytest.raises(KimiDeployError, match="not found"):
        records_from_tensor_table(tmp_path / "nope.json")
    with pytest.raises(KimiDeployError, match="layer set 'moe'"):
        records_from_tensor_table({"rows": [{"name": "layers.{layer}.x", "dtype": "BF16", "shape": [2],
                                             "layers": "moe"}], "layer_sets": {}})
    with pytest.raises(KimiDeployError, match="needs name, dtype and shape"):
        records_from_tensor_table({"rows": [{"name": "x"}]})


def test_hub_metadata_becomes_records(monkeypatch):
    import huggingface_hub

    tensors = {"model.layers.0.self_attn.q_proj.weight": SimpleNamespace(dtype="BF16", shape=[8, 8],
                                                                         data_offsets=(0, 128)),
               "model.embed_tokens.weight": SimpleNamespace(dtype="BF16", shape=[64, 8], data_offsets=(128, 1152))}
    seen = {}

    class FakeApi:
        def __init__(self, endpoint=None, token=None):
            seen.update(endpoint=endpoint, token=token)

        def get_safetensors_metadata(self, repo_id, revision=None):
            seen.update(repo_id=repo_id, revision=revision)
            return SimpleNamespace(files_metadata={"model.safetensors": SimpleNamespace(tensors=tensors)})

    monkeypatch.setattr(huggingface_hub, "HfApi", FakeApi)
    records = records_from_hub("org/model", "abc", "http://mirror.invalid", "tok")
    assert records_summary(records) == {"tensors": 2, "bytes": 1152}
    assert seen == {"endpoint": "http://mirror.invalid", "token": "tok", "repo_id": "org/model", "revision": "abc"}

    class BrokenApi(FakeApi):
        def get_safetensors_metadata(self, repo_id, revision=None):
            raise OSError("401 Unauthorized")

    monkeypatch.setattr(huggingface_hub, "HfApi", BrokenApi)
    with pytest.raises(KimiDeployError, match=r"401 Unauthorized.*hf_token"):
        records_from_hub("org/model", "abc")


def test_library_imports_without_huggingface_hub():
    code = ("import sys; sys.modules['huggingface_hub'] = None; "
            f"sys.path.insert(0, {str(REPO / 'plugins' / 'module_utils')!r}); "
            "import kimi_deploy.core.tensor_sharding, kimi_deploy.core.model_profile, "
            "kimi_deploy.core.sizing; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"
