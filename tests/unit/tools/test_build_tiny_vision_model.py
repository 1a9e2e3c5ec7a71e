"""The tiny Kimi K2.5-layout vision model: deterministic, and its files say what it serves."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import build_tiny_model
from kimi_deploy.core.model_forms import forms_from_dir


def digest(directory: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(directory.iterdir())}


def test_same_arguments_same_bytes(tmp_path):
    first = build_tiny_model.build("kimi_k25_vl", tmp_path / "a")
    second = build_tiny_model.build("kimi_k25_vl", tmp_path / "b")
    assert digest(first) == digest(second)
    assert "model.safetensors" not in digest(first)  # served with --load-format dummy


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
