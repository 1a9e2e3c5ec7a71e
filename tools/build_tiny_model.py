#!/usr/bin/env python
"""Build a tiny random-weight model that the real vLLM serves, with no hub and no torch.

    build_tiny_model.py --arch llama --out DIR [--seed 0] [--shards 2]

Architectures (each one a layout the deployer must size and serve):
  llama        LlamaForCausalLM, GQA (4 query heads, 2 KV heads)
  deepseek_v3  DeepseekV3ForCausalLM: MLA + MoE, the Kimi K2 layout. The CPU build's MLA kernel only
               compiles for kv_lora_rank + qk_rope_head_dim = 576, so 512 + 64.
  qwen3_moe    Qwen3MoeForCausalLM: GQA + 8 routed experts, top-2
  kimi_k25_vl  KimiK25ForConditionalGeneration: a 1-layer MoonViT3d tower + patch merger on the
               deepseek_v3 text model, with Kimi's NaViT media_proc_cfg (in_patch_limit 256, 32 patches
               a side: at most 90 tokens an image). The tower and preprocessing are K3's own (vLLM runs
               K3 images through the same kimi_k25 vision code); the K3 text model (KDA) does not run on
               CPU. The tokenizer also has Kimi K2's <think> and tool-call tokens, so it can be served
               with the kimi_k2 parsers. Weights under the checkpoint names vLLM 0.32's kimi_k25 loader
               takes (language_model.*, vision_tower.*, mm_projector.proj.*), as recorded from a real
               load in tests/fixtures/tiny-models/kimi_k25_vl-vllm-weights.json.
               See docs/multimodal-trial.md.

The tokenizer is a byte-level BPE trained with ``tokenizers`` on a corpus generated from a fixed
seed, with a ChatML chat template. Everything is deterministic: the same arguments give the same
bytes, so a model directory's content hash is a stable revision for the release id.
Weights are bf16, normal(0, 0.02); norms are ones. Output is gibberish; tests assert on structure.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plugins" / "module_utils"))
from kimi_deploy.core.safetensors_format import write_file

VOCAB_SIZE = 1024
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|pad|>"]
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)

_WORDS = (
    "the model serves tokens from weights on every node and the operator checks memory context "
    "concurrency before traffic a release is accepted only after long input and bad input tests "
    "kimi deploy vllm cache block layer expert router attention latent state shard index revision "
    "hello world question answer please reduce length request response error health metrics "
    "zero one two three four five six seven eight nine ten hundred thousand million"
).split()
_EXTRA = [
    "你好", "世界", "模型", "显存", "上下文", "并发", "こんにちは", "Привет", "مرحبا", "🙂", "🚀", "é", "ß",
]


def _corpus(seed: int, lines: int = 4000) -> list[str]:
    rng = np.random.default_rng(seed)
    vocab = _WORDS + _EXTRA
    out = []
    for _unused in range(lines):
        n = int(rng.integers(4, 16))
        words = [vocab[int(i)] for i in rng.integers(0, len(vocab), n)]
        out.append(" ".join(words) + rng.choice([".", "?", "!", ",", ":"]))
    return out


def build_tokenizer(out: Path, seed: int, extra_special: tuple[str, ...] = ()) -> dict[str, int]:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        special_tokens=SPECIAL_TOKENS + list(extra_special),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(_corpus(seed), trainer=trainer)
    tok.save(str(out / "tokenizer.json"))
    ids = {t: tok.token_to_id(t) for t in SPECIAL_TOKENS + list(extra_special)}
    _write_json(out / "tokenizer_config.json", {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "bos_token": None,
        "eos_token": "<|im_end|>",
        "pad_token": "<|pad|>",
        "unk_token": None,
        "model_max_length": 4096,
        "clean_up_tokenization_spaces": False,
        "chat_template": CHAT_TEMPLATE,
    })
    _write_json(out / "special_tokens_map.json", {"eos_token": "<|im_end|>", "pad_token": "<|pad|>"})
    return ids


def _write_json(path: Path, doc: dict) -> None:
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def _bf16(array: np.ndarray) -> bytes:
    """float32 -> bfloat16 bytes with round-to-nearest-even, little-endian."""
    bits = np.ascontiguousarray(array, dtype=np.float32).view(np.uint32)
    rounded = bits + 0x7FFF + ((bits >> 16) & 1)
    return (rounded >> 16).astype("<u2").tobytes()


class _Weights:
    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.tensors: dict[str, tuple[str, tuple[int, ...], bytes]] = {}
        self.prefix = ""

    def under(self, prefix: str) -> _Weights:
        """The same generator and tensors, every name under ``prefix`` (a sub-model of a composite)."""
        child = _Weights.__new__(_Weights)
        child.rng, child.tensors, child.prefix = self.rng, self.tensors, self.prefix + prefix
        return child

    def normal(self, name: str, *shape: int) -> None:
        self.tensors[self.prefix + name] = ("BF16", shape, _bf16(self.rng.normal(0.0, 0.02, shape)))

    def ones(self, name: str, *shape: int) -> None:
        self.tensors[self.prefix + name] = ("BF16", shape, _bf16(np.ones(shape)))

    def zeros(self, name: str, *shape: int) -> None:
        self.tensors[self.prefix + name] = ("BF16", shape, _bf16(np.zeros(shape)))

    def zeros_f32(self, name: str, *shape: int) -> None:
        self.tensors[self.prefix + name] = ("F32", shape, np.zeros(shape, dtype="<f4").tobytes())


def _common_config(arch: str, model_type: str, ids: dict[str, int]) -> dict:
    return {
        "architectures": [arch],
        "model_type": model_type,
        "vocab_size": VOCAB_SIZE,
        "hidden_size": 128,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "max_position_embeddings": 4096,
        "rms_norm_eps": 1e-6,
        "rope_theta": 10000.0,
        "hidden_act": "silu",
        "tie_word_embeddings": False,
        "torch_dtype": "bfloat16",
        "bos_token_id": ids["<|endoftext|>"],
        "eos_token_id": ids["<|im_end|>"],
        "pad_token_id": ids["<|pad|>"],
        "initializer_range": 0.02,
        "attention_bias": False,
        "use_cache": True,
    }


def _embeddings(w: _Weights, cfg: dict) -> None:
    w.normal("model.embed_tokens.weight", cfg["vocab_size"], cfg["hidden_size"])
    w.ones("model.norm.weight", cfg["hidden_size"])
    w.normal("lm_head.weight", cfg["vocab_size"], cfg["hidden_size"])


def _gqa_attention(w: _Weights, cfg: dict, p: str, qk_norm: bool) -> None:
    h, hd = cfg["hidden_size"], cfg["head_dim"]
    w.normal(f"{p}.self_attn.q_proj.weight", cfg["num_attention_heads"] * hd, h)
    w.normal(f"{p}.self_attn.k_proj.weight", cfg["num_key_value_heads"] * hd, h)
    w.normal(f"{p}.self_attn.v_proj.weight", cfg["num_key_value_heads"] * hd, h)
    w.normal(f"{p}.self_attn.o_proj.weight", h, cfg["num_attention_heads"] * hd)
    if qk_norm:
        w.ones(f"{p}.self_attn.q_norm.weight", hd)
        w.ones(f"{p}.self_attn.k_norm.weight", hd)


def _mlp(w: _Weights, p: str, hidden: int, inter: int) -> None:
    w.normal(f"{p}.gate_proj.weight", inter, hidden)
    w.normal(f"{p}.up_proj.weight", inter, hidden)
    w.normal(f"{p}.down_proj.weight", hidden, inter)


def _norms(w: _Weights, p: str, hidden: int) -> None:
    w.ones(f"{p}.input_layernorm.weight", hidden)
    w.ones(f"{p}.post_attention_layernorm.weight", hidden)


def llama(ids: dict[str, int], w: _Weights) -> dict:
    cfg = _common_config("LlamaForCausalLM", "llama", ids)
    cfg.update(intermediate_size=256, num_key_value_heads=2, head_dim=32, mlp_bias=False)
    _embeddings(w, cfg)
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}"
        _gqa_attention(w, cfg, p, qk_norm=False)
        _mlp(w, f"{p}.mlp", cfg["hidden_size"], cfg["intermediate_size"])
        _norms(w, p, cfg["hidden_size"])
    return cfg


def qwen3_moe(ids: dict[str, int], w: _Weights) -> dict:
    cfg = _common_config("Qwen3MoeForCausalLM", "qwen3_moe", ids)
    cfg.update(
        intermediate_size=256, moe_intermediate_size=64, num_experts=8, num_experts_per_tok=2,
        num_key_value_heads=2, head_dim=32, decoder_sparse_step=1, mlp_only_layers=[],
        norm_topk_prob=True, output_router_logits=False, router_aux_loss_coef=0.001,
    )
    _embeddings(w, cfg)
    h = cfg["hidden_size"]
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}"
        _gqa_attention(w, cfg, p, qk_norm=True)
        w.normal(f"{p}.mlp.gate.weight", cfg["num_experts"], h)
        for e in range(cfg["num_experts"]):
            _mlp(w, f"{p}.mlp.experts.{e}", h, cfg["moe_intermediate_size"])
        _norms(w, p, h)
    return cfg


def deepseek_v3(ids: dict[str, int], w: _Weights) -> dict:
    cfg = _common_config("DeepseekV3ForCausalLM", "deepseek_v3", ids)
    cfg.update(
        intermediate_size=256, moe_intermediate_size=64, num_key_value_heads=4,
        q_lora_rank=64, kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=32, v_head_dim=32,
        n_routed_experts=8, n_shared_experts=1, num_experts_per_tok=2, first_k_dense_replace=1,
        moe_layer_freq=1, n_group=1, topk_group=1, topk_method="noaux_tc", scoring_func="sigmoid",
        norm_topk_prob=True, routed_scaling_factor=1.0, rope_scaling=None,
    )
    _embeddings(w, cfg)
    h, heads = cfg["hidden_size"], cfg["num_attention_heads"]
    qk_head = cfg["qk_nope_head_dim"] + cfg["qk_rope_head_dim"]
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}"
        a = f"{p}.self_attn"
        w.normal(f"{a}.q_a_proj.weight", cfg["q_lora_rank"], h)
        w.ones(f"{a}.q_a_layernorm.weight", cfg["q_lora_rank"])
        w.normal(f"{a}.q_b_proj.weight", heads * qk_head, cfg["q_lora_rank"])
        w.normal(f"{a}.kv_a_proj_with_mqa.weight", cfg["kv_lora_rank"] + cfg["qk_rope_head_dim"], h)
        w.ones(f"{a}.kv_a_layernorm.weight", cfg["kv_lora_rank"])
        w.normal(f"{a}.kv_b_proj.weight", heads * (cfg["qk_nope_head_dim"] + cfg["v_head_dim"]),
                 cfg["kv_lora_rank"])
        w.normal(f"{a}.o_proj.weight", h, heads * cfg["v_head_dim"])
        if i < cfg["first_k_dense_replace"]:
            _mlp(w, f"{p}.mlp", h, cfg["intermediate_size"])
        else:
            w.normal(f"{p}.mlp.gate.weight", cfg["n_routed_experts"], h)
            w.zeros_f32(f"{p}.mlp.gate.e_score_correction_bias", cfg["n_routed_experts"])
            for e in range(cfg["n_routed_experts"]):
                _mlp(w, f"{p}.mlp.experts.{e}", h, cfg["moe_intermediate_size"])
            _mlp(w, f"{p}.mlp.shared_experts", h, cfg["moe_intermediate_size"] * cfg["n_shared_experts"])
        _norms(w, p, h)
    return cfg


KIMI_MEDIA_TOKENS = ("<|media_begin|>", "<|media_content|>", "<|media_pad|>", "<|media_end|>",
                     "<|kimi_k25_video_placeholder|>")
# Kimi K2's reasoning and tool-call markup, so the kimi_k2 parsers find their tokens.
KIMI_K2_CHAT_TOKENS = ("<think>", "</think>", "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>",
                       "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>")
# Kimi's NaViT preprocessing (the keys vLLM's KimiK25FusedVisionProcessor reads), with limits small
# enough that the worst-case image is 90 tokens.
KIMI_MEDIA_PROC_CFG = {
    "patch_size": 14, "merge_kernel_size": 2, "in_patch_limit": 256, "patch_limit_on_one_side": 32,
    "fixed_output_tokens": None, "in_patch_limit_each_frame": None, "in_patch_limit_video": None,
    "max_num_frames_each_video": None, "fixed_output_tokens_each_frame": None, "sample_fps": 1.0,
    "temporal_merge_kernel_size": 4, "timestamp_mode": "hh:mm:ss.fff",
    "image_mean": [0.5, 0.5, 0.5], "image_std": [0.5, 0.5, 0.5],
}


def _layer_norm(w: _Weights, name: str, dim: int) -> None:
    w.ones(f"{name}.weight", dim)
    w.zeros(f"{name}.bias", dim)


def _linear(w: _Weights, name: str, out_dim: int, in_dim: int) -> None:
    w.normal(f"{name}.weight", out_dim, in_dim)
    w.zeros(f"{name}.bias", out_dim)


def _moonvit_tower(w: _Weights, vision: dict) -> None:
    """MoonViT3d as vLLM's kimi_k25_vit builds it (no load_weights of its own: names are its parameters).

    Biases everywhere: ``attn_bias``, ``linear_bias`` and ``patch_embed_proj_bias`` default to true.
    """
    h, patch = vision["hidden_size"], vision["patch_size"]
    w.normal("patch_embed.proj.weight", h, 3, patch, patch)
    w.zeros("patch_embed.proj.bias", h)
    w.normal("patch_embed.pos_emb.weight", vision["init_pos_emb_height"], vision["init_pos_emb_width"], h)
    for i in range(vision["num_hidden_layers"]):
        block = f"encoder.blocks.{i}"
        _layer_norm(w, f"{block}.norm0", h)
        _layer_norm(w, f"{block}.norm1", h)
        _linear(w, f"{block}.wqkv", 3 * h, h)  # fused q, k, v: as many kv heads as heads
        _linear(w, f"{block}.wo", h, h)
        _linear(w, f"{block}.mlp.fc0", vision["intermediate_size"], h)
        _linear(w, f"{block}.mlp.fc1", h, vision["intermediate_size"])
    _layer_norm(w, "encoder.final_layernorm", h)


def _patch_merger(w: _Weights, vision: dict) -> None:
    """The "patchmerger" projector under the checkpoint's names (``proj.0``/``proj.2``, which vLLM's
    ``hf_to_vllm_mapper`` renames ``linear_1``/``linear_2``), as the published K2.5 checkpoint has them."""
    merged = vision["hidden_size"] * vision["merge_kernel_size"][0] * vision["merge_kernel_size"][1]
    _layer_norm(w, "pre_norm", vision["hidden_size"])
    _linear(w, "proj.0", merged, merged)
    _linear(w, "proj.2", vision["text_hidden_size"], merged)


def kimi_k25_vl(ids: dict[str, int], w: _Weights) -> dict:
    # The checkpoint layout vLLM's KimiK25ForConditionalGeneration loads: language_model.* (the
    # DeepSeek-V3 text model, handed to its own load_weights), vision_tower.*, mm_projector.*.
    text = deepseek_v3(ids, w.under("language_model."))
    config = {
        "architectures": ["KimiK25ForConditionalGeneration"],
        "model_type": "kimi_k25",
        "torch_dtype": "bfloat16",
        "tie_word_embeddings": False,
        # Images and videos travel as one "vision_chunk" modality, as in the published K2.5 config.
        "use_unified_vision_chunk": True,
        "image_token_id": ids["<|media_pad|>"],
        "media_placeholder_token_id": ids["<|media_pad|>"],
        "text_config": text,
        "vision_config": {
            "model_type": "kimi_k25_vision", "patch_size": KIMI_MEDIA_PROC_CFG["patch_size"],
            "init_pos_emb_height": 16, "init_pos_emb_width": 16, "init_pos_emb_time": 4,
            "pos_emb_type": "divided_fixed", "num_attention_heads": 2, "num_hidden_layers": 1,
            "hidden_size": 64, "intermediate_size": 128, "merge_kernel_size": [2, 2],
            "video_attn_type": "spatial_temporal", "merge_type": "sd2_tpool", "mm_projector_type": "patchmerger",
            "mm_hidden_size": 64, "projector_hidden_act": "gelu", "projector_ln_eps": 1e-5,
            "text_hidden_size": text["hidden_size"],
        },
    }
    _moonvit_tower(w.under("vision_tower."), config["vision_config"])
    _patch_merger(w.under("mm_projector."), config["vision_config"])
    return config


ARCHITECTURES = {"llama": llama, "deepseek_v3": deepseek_v3, "qwen3_moe": qwen3_moe, "kimi_k25_vl": kimi_k25_vl}
# Architectures whose extra files and special tokens differ from a text model's.
EXTRA_SPECIAL_TOKENS = {"kimi_k25_vl": KIMI_MEDIA_TOKENS + KIMI_K2_CHAT_TOKENS}
PREPROCESSOR_CONFIGS = {"kimi_k25_vl": {"media_proc_cfg": KIMI_MEDIA_PROC_CFG}}


def write_weights(out: Path, tensors: dict[str, tuple[str, tuple[int, ...], bytes]], shards: int) -> None:
    """One file, or ``shards`` files plus model.safetensors.index.json (HF naming, 5-digit padding)."""
    names = sorted(tensors)
    metadata = {"format": "pt"}
    if shards <= 1:
        write_file(out / "model.safetensors", tensors, metadata)
        return
    per_shard = -(-len(names) // shards)
    weight_map: dict[str, str] = {}
    total = 0
    for index in range(shards):
        chunk = names[index * per_shard:(index + 1) * per_shard]
        fname = f"model-{index + 1:05d}-of-{shards:05d}.safetensors"
        write_file(out / fname, {n: tensors[n] for n in chunk}, metadata)
        for n in chunk:
            weight_map[n] = fname
            total += len(tensors[n][2])
    _write_json(out / "model.safetensors.index.json",
                {"metadata": {"total_size": total}, "weight_map": weight_map})


def build(arch: str, out: Path, seed: int = 0, shards: int = 1) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    ids = build_tokenizer(out, seed, EXTRA_SPECIAL_TOKENS.get(arch, ()))
    weights = _Weights(seed)
    cfg = ARCHITECTURES[arch](ids, weights)
    _write_json(out / "config.json", cfg)
    if arch in PREPROCESSOR_CONFIGS:
        _write_json(out / "preprocessor_config.json", PREPROCESSOR_CONFIGS[arch])
    _write_json(out / "generation_config.json", {
        "bos_token_id": ids["<|endoftext|>"],
        "eos_token_id": [ids["<|im_end|>"], ids["<|endoftext|>"]],
        "pad_token_id": ids["<|pad|>"],
    })
    if weights.tensors:
        write_weights(out, weights.tensors, shards)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", choices=sorted(ARCHITECTURES), default="llama")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shards", type=int, default=1, help="number of safetensors shards (index if > 1)")
    args = parser.parse_args(argv)
    build(args.arch, args.out, args.seed, args.shards)
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
