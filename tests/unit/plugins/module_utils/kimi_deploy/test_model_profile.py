"""Model profiles from config.json: attention kinds, layer maps, MoE, quantization, vision, remote code."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.model_profile import (
    ATTENTION_GQA,
    ATTENTION_HYBRID_KDA_MLA,
    ATTENTION_MHA,
    ATTENTION_MLA,
    load_profile,
    load_profile_from_path,
    read_config,
    read_hub_config,
)
from repo_paths import REPO

MODELS = REPO / "data" / "models"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    built = {}

    def build(arch: str) -> Path:
        if arch not in built:
            out = tmp_path_factory.mktemp(f"tiny-{arch}")
            subprocess.run([sys.executable, str(REPO / "tools/build_tiny_model.py"), "--arch", arch, "--out", str(out)],
                           check=True, capture_output=True)
            built[arch] = out
        return built[arch]

    return build


def test_kimi_k3_is_a_hybrid_of_24_mla_and_69_kda_layers_inside_text_config():
    raw = read_config(MODELS / "kimi-k3")
    profile = load_profile(raw, name="Kimi-K3")
    linear = raw["text_config"]["linear_attn_config"]
    assert profile.family == "kimi_k3"
    assert profile.attention == ATTENTION_HYBRID_KDA_MLA
    assert profile.architecture == "KimiK3ForConditionalGeneration"
    assert profile.text_architecture == "KimiLinearForCausalLM"
    assert profile.num_layers == 93
    # The config's lists are 1-based (vLLM: is_kda_layer(i) == (i + 1) in kda_layers).
    assert profile.full_attention_layers == tuple(i - 1 for i in linear["full_attn_layers"])
    assert profile.linear_attention_layers == tuple(i - 1 for i in linear["kda_layers"])
    assert len(profile.full_attention_layers) == 24 and len(profile.linear_attention_layers) == 69
    assert profile.full_attention_layers[:3] == (3, 7, 11) and profile.full_attention_layers[-2:] == (91, 92)
    assert profile.layer_kinds()[:4] == ("linear", "linear", "linear", "attention")
    assert profile.mla.latent_dim == 512 + 64
    assert (profile.kda.num_heads, profile.kda.head_dim, profile.kda.conv_kernel_size) == (96, 128, 4)
    assert profile.max_position_embeddings == 1_048_576
    assert profile.dtype == "bfloat16" and profile.dtype_bytes == 2


def test_kimi_k3_moe_quantization_vision_and_remote_code():
    profile = load_profile_from_path(MODELS / "kimi-k3")
    moe = profile.moe
    assert (moe.num_experts, moe.experts_per_token, moe.num_shared_experts) == (896, 16, 2)
    assert moe.moe_intermediate_size == 3072 and moe.routed_expert_hidden_size == 3584
    assert moe.moe_layers == tuple(range(1, 93))  # first_k_dense_replace 1, moe_layer_freq 1
    assert profile.quantization.method == "compressed-tensors"
    assert profile.quantization.is_mxfp4 and profile.quantization.weight_bits == 4
    assert "re:.*self_attn.*" in profile.quantization.ignore
    assert profile.vision.num_heads == 12 and profile.vision.num_layers == 27
    assert profile.trust_remote_code  # auto_map -> --trust-remote-code
    assert profile.attn_res_block_size == 12


def test_kimi_k2_is_pure_mla_with_61_layers():
    profile = load_profile_from_path(MODELS / "kimi-k2-instruct")
    assert profile.family == "kimi_k2"
    assert profile.attention == ATTENTION_MLA
    assert profile.full_attention_layers == tuple(range(61))
    assert profile.linear_attention_layers == () and profile.kda is None
    assert profile.mla.latent_dim == 576 and profile.mla.q_lora_rank == 1536
    assert profile.moe.num_experts == 384 and profile.moe.moe_layers == tuple(range(1, 61))
    assert profile.quantization.method == "fp8"
    assert profile.trust_remote_code is False  # the shipped key-field excerpt has no auto_map


def test_kimi_linear_has_7_mla_and_20_kda_layers_and_no_q_lora():
    profile = load_profile_from_path(MODELS / "kimi-linear-48b")
    assert profile.family == "kimi_linear"
    assert profile.attention == ATTENTION_HYBRID_KDA_MLA
    assert profile.full_attention_layers == (3, 7, 11, 15, 19, 23, 26)
    assert len(profile.linear_attention_layers) == 20
    assert profile.mla.q_lora_rank is None
    assert profile.kda.num_heads == 32


def test_tiny_models_cover_gqa_mla_and_qwen_moe(tiny):
    llama = load_profile_from_path(tiny("llama"))
    assert llama.attention == ATTENTION_GQA and (llama.num_attention_heads, llama.num_kv_heads) == (4, 2)
    assert llama.head_dim == 32 and llama.moe is None and not llama.trust_remote_code
    deepseek = load_profile_from_path(tiny("deepseek_v3"))
    assert deepseek.attention == ATTENTION_MLA and deepseek.mla.latent_dim == 576
    assert deepseek.moe.moe_layers == (1,)  # first_k_dense_replace 1 of 2 layers
    qwen = load_profile_from_path(tiny("qwen3_moe"))
    assert qwen.attention == ATTENTION_GQA
    assert qwen.moe.moe_layers == (0, 1) and qwen.moe.num_shared_experts == 0


def test_mha_when_kv_heads_equal_heads_and_text_config_wins_over_top_level():
    wrapper = {
        "architectures": ["SomeVLForConditionalGeneration"],
        "model_type": "some_vl",
        "auto_map": {"AutoConfig": "configuration_some.SomeConfig"},
        "vision_config": {"num_attention_heads": 16, "num_hidden_layers": 24, "hidden_size": 1024},
        "text_config": {"architectures": ["SomeForCausalLM"], "model_type": "some", "num_hidden_layers": 4,
                        "hidden_size": 256, "num_attention_heads": 8, "num_key_value_heads": 8,
                        "vocab_size": 1000, "max_position_embeddings": 2048, "torch_dtype": "float16"},
    }
    profile = load_profile(wrapper)
    assert profile.attention == ATTENTION_MHA
    assert profile.dtype == "float16" and profile.head_dim == 32
    assert profile.trust_remote_code and profile.vision.num_heads == 16
    assert profile.architecture == "SomeVLForConditionalGeneration"


def test_tp_divisibility_speaks_vllm_terms():
    k3 = load_profile_from_path(MODELS / "kimi-k3")
    assert k3.tp_divisibility_errors(8) == []
    assert any("96 attention heads" in e for e in k3.tp_divisibility_errors(5))
    assert any("KDA heads" in e for e in k3.tp_divisibility_errors(7))
    gqa = load_profile({"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 12,
                        "num_key_value_heads": 4, "vocab_size": 64, "max_position_embeddings": 64})
    assert gqa.tp_divisibility_errors(2) == []
    assert gqa.tp_divisibility_errors(12) == []  # 12 is a multiple of 4: KV heads are replicated
    assert any("KV heads" in e for e in gqa.tp_divisibility_errors(6))


def test_missing_and_broken_configs_say_what_to_fix(tmp_path):
    with pytest.raises(KimiDeployError, match=r"no config\.json"):
        read_config(tmp_path)
    (tmp_path / "config.json").write_text("{not json")
    with pytest.raises(KimiDeployError, match="not valid JSON"):
        read_config(tmp_path)
    with pytest.raises(KimiDeployError, match="num_hidden_layers"):
        load_profile({"hidden_size": 8, "num_attention_heads": 1, "vocab_size": 8})
    with pytest.raises(KimiDeployError, match="JSON object"):
        load_profile(["not", "a", "dict"])  # type: ignore[arg-type]


def test_inconsistent_kda_layer_lists_are_refused():
    raw = copy.deepcopy(read_config(MODELS / "kimi-k3"))
    raw["text_config"]["linear_attn_config"]["full_attn_layers"] = [4, 8]
    with pytest.raises(KimiDeployError, match="do not partition"):
        load_profile(raw)


def test_hub_config_is_read_through_huggingface_hub(monkeypatch, tmp_path):
    import huggingface_hub

    (tmp_path / "config.json").write_text(json.dumps(read_config(MODELS / "kimi-k2-instruct")))
    calls = {}

    def fake_download(repo_id, filename, revision=None, endpoint=None, token=None):
        calls.update(repo_id=repo_id, filename=filename, revision=revision, endpoint=endpoint, token=token)
        return str(tmp_path / "config.json")

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", fake_download)
    config = read_hub_config("moonshotai/Kimi-K2-Instruct", "abc123", "http://mirror.invalid", "tok")
    assert config["num_hidden_layers"] == 61
    assert calls == {"repo_id": "moonshotai/Kimi-K2-Instruct", "filename": "config.json", "revision": "abc123",
                     "endpoint": "http://mirror.invalid", "token": "tok"}

    def failing(*args, **kwargs):
        raise OSError("404 Not Found")

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", failing)
    with pytest.raises(KimiDeployError, match=r"could not fetch config\.json.*check hf_repo"):
        read_hub_config("nope/nope", "main")
