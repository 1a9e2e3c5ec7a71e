"""KV cache accounting against published figures (issue #3, facts.md §4) and vLLM's own rules.

Expected numbers come from the published formulas, e.g. MLA: layers x (kv_lora_rank + qk_rope_head_dim)
x bytes; KDA: (kernel-1) x conv_dim/TP x 2 + heads/TP x head_dim^2 x 4, written out in each test.
"""

from __future__ import annotations

import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.kv_cache import (
    attention_page_bytes_per_token,
    build_kv_cache_layout,
    check_pp_partition,
    default_pp_partition,
    hybrid_block_size,
    kda_state_bytes_per_layer,
    kv_cache_groups,
)
from kimi_deploy.core.model_profile import load_profile, load_profile_from_path, read_config
from repo_paths import REPO

MODELS = REPO / "data" / "models"
GiB = 1024**3


@pytest.fixture(scope="module")
def k3():
    return load_profile_from_path(MODELS / "kimi-k3")


@pytest.fixture(scope="module")
def k3_mla_layers():
    """0-based MLA layer indices straight from the published config (1-based list)."""
    return [i - 1 for i in read_config(MODELS / "kimi-k3")["text_config"]["linear_attn_config"]["full_attn_layers"]]


def _tiny(kind: str):
    base = {"num_hidden_layers": 2, "hidden_size": 128, "num_attention_heads": 4, "vocab_size": 1024,
            "max_position_embeddings": 4096, "torch_dtype": "bfloat16"}
    if kind == "llama":
        return load_profile({**base, "num_key_value_heads": 2, "head_dim": 32})
    return load_profile({**base, "num_key_value_heads": 4, "q_lora_rank": 64, "kv_lora_rank": 512,
                         "qk_rope_head_dim": 64, "qk_nope_head_dim": 32, "v_head_dim": 32})


# -- the checks ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("tp", "pp", "dcp", "dtype", "partition", "expected"), [
    (8, 1, 1, "auto", None, 27_648),      # bf16, TP8: 24 x 576 x 2, replicated on every TP rank
    (8, 1, 1, "fp8", None, 13_824),       # fp8, TP8: 24 x 576 x 1
    (8, 2, 1, "auto", (48, 45), 13_824),  # bf16, TP8 x PP2 with 12 MLA layers per stage
    (8, 1, 8, "fp8", None, 1_728),        # fp8, TP8 + DCP8: 24 x 576 / 8
])
def test_k3_kv_bytes_per_token_per_gpu(k3, tp, pp, dcp, dtype, partition, expected):
    kv = build_kv_cache_layout(k3, tp=tp, pp=pp, dcp=dcp, kv_cache_dtype=dtype, pp_partition=partition)
    assert {kv.stage_kv_bytes_per_token(s) for s in range(pp)} == {expected}


def test_k3_pp2_default_split_puts_13_mla_layers_on_the_last_stage(k3, k3_mla_layers):
    # vLLM's get_pp_indices gives the spare layer of 93 / 2 to the first stage: 47 + 46 layers.
    kv = build_kv_cache_layout(k3, tp=8, pp=2)
    assert kv.partition == (47, 46)
    first = sum(1 for i in k3_mla_layers if i < 47)
    assert (first, 24 - first) == (11, 13)
    assert [kv.stage_kv_bytes_per_token(s) for s in range(2)] == [first * 1152, (24 - first) * 1152]


def test_k3_kda_state_at_tp8_is_69_layers_of_814080_bytes(k3):
    conv = (4 - 1) * (96 * 128 + 2 * 96 * 128) // 8 * 2   # bf16 conv state
    recurrent = (96 // 8) * 128 * 128 * 4                   # fp32 recurrent state
    assert conv + recurrent == 814_080
    assert kda_state_bytes_per_layer(k3, 8) == 814_080
    kv = build_kv_cache_layout(k3, tp=8)
    assert kv.stage_state_bytes_per_sequence(0) == 69 * 814_080 == 56_171_520


def test_k2_61_mla_layers_bf16_is_70272_bytes_per_token():
    k2 = load_profile_from_path(MODELS / "kimi-k2-instruct")
    kv = build_kv_cache_layout(k2, tp=8, kv_cache_dtype="auto")
    assert kv.stage_kv_bytes_per_token(0) == 61 * 576 * 2 == 70_272
    assert build_kv_cache_layout(k2, tp=8, kv_cache_dtype="fp8").stage_kv_bytes_per_token(0) == 35_136


def test_kimi_linear_kv_and_state_match_facts():
    kl = load_profile_from_path(MODELS / "kimi-linear-48b")
    kv = build_kv_cache_layout(kl, tp=1)
    assert kv.stage_kv_bytes_per_token(0) == 7 * 576 * 2 == 8_064
    assert kda_state_bytes_per_layer(kl, 1) == 3 * 3 * 32 * 128 * 2 + 32 * 128 * 128 * 4 == 2_170_880


# -- hybrid block-size alignment and groups (facts.md §4.3 table) ----------------------------------------

@pytest.mark.parametrize(("tp", "dtype", "spec_tokens", "block"), [
    (8, "auto", 0, 768), (8, "fp8", 0, 1536), (1, "auto", 0, 5760), (4, "fp8", 0, 2944),
    (16, "auto", 0, 384), (16, "fp8", 0, 768), (8, "auto", 7, 768), (8, "auto", 8, 896),
])
def test_k3_hybrid_block_sizes(k3, tp, dtype, spec_tokens, block):
    kv = build_kv_cache_layout(k3, tp=tp, kv_cache_dtype=dtype, block_size=64, kernel_min_block=64,
                               num_speculative_tokens=spec_tokens)
    assert kv.block_size == block
    # The attention page now holds a whole KDA state: page >= state, and the smallest multiple of 128 that does.
    assert kv.page_bytes >= kv.state_bytes_per_layer
    assert (block - 128) * kv.attn_page_bytes_per_token < kv.state_bytes_per_layer


def test_hybrid_block_size_rule_by_hand():
    # 128 * ceil(814080 / (128 * 1152)) = 128 * 6
    assert hybrid_block_size(1152, 814_080, 16, 16, uses_mla=True) == 768
    # Without MLA the kernel block (16) is the alignment: 16 * ceil(1000 / (16 * 8)) = 128
    assert hybrid_block_size(8, 1000, 16, 16, uses_mla=False) == 128
    # A block already larger than needed is kept (vLLM only raises it)
    assert hybrid_block_size(1152, 814_080, 2048, 64, uses_mla=True) == 2048


def test_k3_groups_one_mla_group_of_24_and_three_kda_groups(k3):
    groups = kv_cache_groups(k3)
    kinds = sorted((g.kind, len(g.layers)) for g in groups)
    assert kinds == [("attention", 24), ("linear", 23), ("linear", 23), ("linear", 23)]
    kv = build_kv_cache_layout(k3, tp=8)
    # One block id costs the largest group's pages: 24 x 768 x 1152 bytes ("21.23 MB")
    assert kv.stage_bytes_per_block(0) == 24 * 768 * 1152 == 21_233_664
    # A request takes ceil(L / 768) MLA blocks plus one block per KDA group
    assert kv.blocks_per_request(32_768) == -(-32_768 // 768) + 3


def test_prefix_caching_keeps_two_state_blocks_per_group(k3):
    kv = build_kv_cache_layout(k3, tp=8, prefix_caching=True)
    assert kv.blocks_per_request(768) == 1 + 3 * 2
    kv = build_kv_cache_layout(k3, tp=8, prefix_caching=True, prefill_checkpoint_blocks=1)
    assert kv.blocks_per_request(768) == 1 + 3 * 3


def test_uniform_models_have_one_group_of_every_layer():
    groups = kv_cache_groups(_tiny("llama"))
    assert len(groups) == 1 and groups[0].layers == (0, 1)


# -- pages for standard attention and MLA ---------------------------------------------------------------

def test_gqa_page_replicates_kv_heads_beyond_tp():
    llama = _tiny("llama")  # 2 KV heads of 32
    assert attention_page_bytes_per_token(llama, 1, "auto") == 2 * 2 * 32 * 2
    assert attention_page_bytes_per_token(llama, 2, "auto") == 2 * 1 * 32 * 2
    assert attention_page_bytes_per_token(llama, 4, "auto") == 2 * 1 * 32 * 2  # max(1, 2 // 4)
    assert attention_page_bytes_per_token(llama, 1, "fp8") == 2 * 2 * 32 * 1


def test_mla_page_is_not_split_by_tp_and_fp8_ds_mla_is_656_bytes():
    mla = _tiny("mla")
    assert attention_page_bytes_per_token(mla, 1, "auto") == attention_page_bytes_per_token(mla, 4, "auto") == 1152
    assert attention_page_bytes_per_token(mla, 4, "fp8_ds_mla") == 656
    with pytest.raises(KimiDeployError, match="only exists for MLA"):
        attention_page_bytes_per_token(_tiny("llama"), 1, "fp8_ds_mla")
    with pytest.raises(KimiDeployError, match="not supported"):
        attention_page_bytes_per_token(mla, 1, "int3")


# -- capacity as vLLM logs it ---------------------------------------------------------------------------

def test_llama_1gib_cpu_capacity_matches_the_published_log():
    kv = build_kv_cache_layout(_tiny("llama"), block_size=128)
    blocks = GiB // kv.stage_bytes_per_block(0)
    # cpu-build.md: "CPU KV cache size: 2,097,152 tokens, Maximum concurrency for 512 tokens: 4096.00x"
    assert kv.capacity_tokens(blocks, 512) == 2_097_152
    assert round(kv.max_concurrency(blocks, 512), 2) == 4096.00


@pytest.mark.parametrize(("block", "tokens"), [(128, 465_920), (16, 466_032)])
def test_deepseek_1gib_cpu_capacity_depends_on_the_mla_block(block, tokens):
    # AMX CPU MLA keeps block 128 (this build logs 465,920); the reference kernel forces 16 (older trial: 466,032).
    kv = build_kv_cache_layout(_tiny("mla"), block_size=block)
    assert kv.capacity_tokens(GiB // kv.stage_bytes_per_block(0), 512) == tokens


def test_capacity_rounds_requests_to_whole_blocks():
    kv = build_kv_cache_layout(_tiny("llama"), block_size=128)
    # 1000 tokens take ceil(1000 / 128) = 8 blocks; 16384 blocks hold 2048 such requests
    assert kv.capacity_tokens(16_384, 1000) == int(16_384 / 8 * 1000) == 2_048_000
    assert kv.holds_one_request(9, 1000) and not kv.holds_one_request(8, 1000)  # the null block
    assert kv.blocks_for(3, 1000) == 3 * 8 + 1
    assert kv.largest_max_model_len(5, 4096) == 4 * 128


# -- pipeline partitions ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("layers", "pp", "parts"), [
    (93, 2, (47, 46)), (93, 4, (23, 23, 24, 23)), (61, 2, (31, 30)), (10, 4, (2, 3, 3, 2)), (93, 3, (31, 31, 31)),
])
def test_default_partition_mirrors_get_pp_indices(layers, pp, parts):
    assert default_pp_partition(layers, pp) == parts


def test_bad_partitions_are_refused():
    with pytest.raises(KimiDeployError, match="VLLM_PP_LAYER_PARTITION"):
        check_pp_partition([40, 40], 93, 2)
    with pytest.raises(KimiDeployError, match="between 1 and"):
        default_pp_partition(2, 3)
    with pytest.raises(KimiDeployError, match="must divide"):
        build_kv_cache_layout(_tiny("mla"), tp=4, dcp=3)
