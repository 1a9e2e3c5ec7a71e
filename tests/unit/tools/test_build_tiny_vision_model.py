"""The tiny Kimi K2.5-layout vision model: deterministic, and its files say what it serves."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import build_tiny_model
from kimi_deploy.core.model_forms import forms_from_dir
from kimi_deploy.core.safetensors_format import read_header
from repo_paths import FIXTURES

# What the pinned vLLM loaded from this builder's model: tools/record_vllm_weight_names.py, run on it.
VLLM_LOADED = FIXTURES / "tiny-models/kimi_k25_vl-vllm-weights.json"
TORCH_DTYPES = {"BF16": "bfloat16", "F32": "float32"}


def digest(directory: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(directory.iterdir())}


def headers(model: Path) -> dict[str, list]:
    """name -> [dtype, shape] over every safetensors file of a model directory."""
    found: dict[str, list] = {}
    for path in sorted(model.glob("*.safetensors")):
        for name, info in read_header(path).tensors.items():
            found[name] = [TORCH_DTYPES[info.dtype], list(info.shape)]
    return found


def test_same_arguments_same_bytes(tmp_path):
    first = build_tiny_model.build("kimi_k25_vl", tmp_path / "a", shards=2)
    second = build_tiny_model.build("kimi_k25_vl", tmp_path / "b", shards=2)
    assert digest(first) == digest(second)
    assert {"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors",
            "model.safetensors.index.json"} <= set(digest(first))
    assert sum(p.stat().st_size for p in first.glob("*.safetensors")) < 4 * 2**20  # a few MiB


def test_its_weights_are_the_tensors_vllm_loaded_for_it(tmp_path):
    model = build_tiny_model.build("kimi_k25_vl", tmp_path / "vl", shards=2)
    loaded = json.loads(VLLM_LOADED.read_text())
    assert loaded["architecture"] == "KimiK25ForConditionalGeneration"
    assert headers(model) == loaded["checkpoint_tensors"]
    index = json.loads((model / "model.safetensors.index.json").read_text())
    assert {name: index["weight_map"][name] for name in headers(model)} == {
        name: path.name for path in model.glob("*.safetensors") for name in read_header(path).tensors}
    assert index["metadata"]["total_size"] == sum(read_header(p).data_len for p in model.glob("*.safetensors"))


def test_the_recording_shows_every_vllm_parameter_loaded_from_the_checkpoint():
    loaded = json.loads(VLLM_LOADED.read_text())
    not_from_checkpoint = set(loaded["parameters"]) - set(loaded["loaded_parameters"])
    # MLA's absorbed matrices, which vLLM derives from kv_b_proj after loading.
    assert {name.rsplit(".", 1)[-1] for name in not_from_checkpoint} == {"W_UV", "W_UK_T"}
    # The projector is loaded through the model's hf_to_vllm_mapper (proj.0 -> linear_1, proj.2 -> linear_2).
    assert {"mm_projector.proj.0.weight", "mm_projector.proj.2.weight"} <= set(loaded["checkpoint_tensors"])
    assert {"mm_projector.linear_1.weight", "mm_projector.linear_2.weight"} <= set(loaded["loaded_parameters"])


def test_its_files_declare_a_vision_tower_and_kimi_media_tokens(tmp_path):
    model = build_tiny_model.build("kimi_k25_vl", tmp_path / "vl")
    config = json.loads((model / "config.json").read_text())
    vocab = json.loads((model / "tokenizer.json").read_text())["model"]["vocab"]
    added = {t["content"]: t["id"] for t in json.loads((model / "tokenizer.json").read_text())["added_tokens"]}
    assert config["architectures"] == ["KimiK25ForConditionalGeneration"]
    assert config["media_placeholder_token_id"] == added["<|media_pad|>"]
    assert max(*vocab.values(), *added.values()) < config["text_config"]["vocab_size"]
    forms = forms_from_dir(model)
    assert forms.vision and forms.image.method == "kimi_navit"
    assert forms.image.max_tokens_per_image == 90  # in_patch_limit 256, 32 patches a side, 2x2 merge
    assert forms.image.tokens_for_image(64, 64) == 9  # 64 px -> 5 patches -> padded to 6 -> 3 x 3
    # Kimi K2's markup tokens are in the tokenizer, so the kimi_k2 parsers can be started on it.
    assert (forms.tool_calls.parser, forms.reasoning.parser) == ("kimi_k2", "kimi_k2")
    assert forms.tool_evidence == "tokenizer has the token <|tool_calls_section_begin|>"
    assert forms.serve_flags(images_per_prompt=1) == (
        "--enable-auto-tool-choice", "--tool-call-parser", "kimi_k2", "--reasoning-parser", "kimi_k2",
        "--limit-mm-per-prompt", '{"vision_chunk":1}')


def test_text_models_are_unchanged_by_the_media_tokens(tmp_path):
    model = build_tiny_model.build("llama", tmp_path / "llama")
    added = [t["content"] for t in json.loads((model / "tokenizer.json").read_text())["added_tokens"]]
    assert added == build_tiny_model.SPECIAL_TOKENS
