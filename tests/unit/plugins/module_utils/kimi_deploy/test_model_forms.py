"""model_forms: capabilities, serve flags and image budgets from a model's own files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.model_forms import (
    FORM_IMAGE,
    FORM_REASONING,
    FORM_TOOLS,
    derive_forms,
    forms_from_dir,
    max_images_that_fit,
    multimodal_budget,
    navit_resize,
)

CONFIGS = Path(os.environ.get("KIMI_REFERENCE_CONFIGS", "/work/shared/reference/configs"))

# The shape of Kimi's media_proc_cfg (K2.5 / K3 preprocessor_config.json), small limits for speed.
KIMI_MEDIA = {"patch_size": 14, "merge_kernel_size": 2, "in_patch_limit": 1024, "patch_limit_on_one_side": 64,
              "fixed_output_tokens": None}


def reference(name: str) -> dict:
    path = CONFIGS / f"{name}.config.json"
    if not path.is_file():
        pytest.skip(f"{path} not present")
    return json.loads(path.read_text())


def test_k3_published_config_alone_reads_vision_and_its_family_parsers():
    forms = derive_forms(reference("kimi-k3"))
    assert forms.vision and forms.image is None
    assert "preprocessor_config.json is absent" in forms.image_problem
    assert (forms.tool_calls.parser, forms.reasoning.parser) == ("kimi_k3", "kimi_k3")
    assert "family kimi_k3" in forms.tool_evidence  # said, not hidden: no template was read
    assert forms.encoder_output_width == 7168  # text_config.hidden_size
    assert forms.serve_flags() == ("--enable-auto-tool-choice", "--tool-call-parser", "kimi_k3",
                                   "--reasoning-parser", "kimi_k3", "--language-model-only")
    with pytest.raises(KimiDeployError, match="image budget is unknown"):
        forms.serve_flags(images_per_prompt=1)


def test_k3_with_a_media_config_serves_images_and_its_worst_case_exceeds_the_square():
    forms = derive_forms(reference("kimi-k3"), preprocessor={"media_proc_cfg": KIMI_MEDIA})
    assert forms.input_forms == {"text", FORM_IMAGE, FORM_TOOLS}
    assert forms.output_forms >= {FORM_TOOLS, FORM_REASONING}
    # A square image at the patch limit is 32x32 patches -> 16x16 = 256 tokens; padding odd grids to the
    # merge kernel makes some elongated image worse, which is what vLLM profiles with.
    assert navit_resize(448, 448, 14, 2, 1024, 64) == (256, 1024)
    assert forms.image.max_tokens_per_image > 256
    width, height = forms.image.max_width, forms.image.max_height
    assert forms.image.tokens_for_image(width, height) == forms.image.max_tokens_per_image
    assert "--limit-mm-per-prompt" in forms.serve_flags(images_per_prompt=2)
    assert forms.serve_flags(images_per_prompt=2)[-1] == '{"image":2}'
    assert "--language-model-only" not in forms.serve_flags(images_per_prompt=2)


def test_k2_instruct_has_tools_no_reasoning_no_vision():
    forms = derive_forms(reference("kimi-k2-instruct"))
    assert not forms.vision and forms.reasoning is None
    assert forms.tool_calls.parser == "kimi_k2"
    assert forms.serve_flags() == ("--enable-auto-tool-choice", "--tool-call-parser", "kimi_k2")
    with pytest.raises(KimiDeployError, match="no vision tower"):
        forms.serve_flags(images_per_prompt=1)


def test_kimi_linear_declares_nothing_beyond_text():
    forms = derive_forms(reference("kimi-linear-48b"))
    assert forms.input_forms == {"text"} and forms.serve_flags() == ()


def test_chat_template_markers_pick_the_parsers():
    k2_thinking = derive_forms({"model_type": "kimi_k2"}, tokenizer_config={
        "chat_template": "{{ '<think>' }}…<|tool_calls_section_begin|><|tool_call_begin|>"})
    assert (k2_thinking.tool_calls.name, k2_thinking.reasoning.name) == ("kimi_k2", "kimi_k2")
    assert k2_thinking.tool_evidence == "chat template contains <|tool_calls_section_begin|>"
    qwen = derive_forms({"model_type": "qwen3"}, chat_template="<tool_call>\n{{ x }}</tool_call><think>")
    assert (qwen.tool_calls.parser, qwen.reasoning.parser) == ("hermes", "deepseek_r1")
    chatml = derive_forms({"model_type": "llama"}, tokenizer_config={"chat_template": "<|im_start|>"})
    assert chatml.tool_calls is None and chatml.reasoning is None and chatml.serve_flags() == ()


def test_k3_xtml_tokens_in_the_tokenizer_are_the_evidence_when_there_is_no_template():
    tokens = {str(i): {"content": t} for i, t in enumerate(["<|open|>", "<|sep|>", "<|close|>", "<|media_pad|>"])}
    forms = derive_forms({"model_type": "kimi_k3"}, tokenizer_config={"added_tokens_decoder": tokens})
    assert forms.tool_calls.parser == "kimi_k3" and "XTML tokens" in forms.tool_evidence
    assert "<|close|>think<|sep|>" in forms.content_markers
    # A tokenizer config that was read but shows no markup overrides the family default.
    plain = derive_forms({"model_type": "kimi_k3"}, tokenizer_config={"added_tokens_decoder": {"0": {"content": "x"}}})
    assert plain.tool_calls is None


def test_qwen2_vl_budget_follows_vllms_factorisation():
    config = {"model_type": "qwen2_vl", "vision_config": {"patch_size": 14, "spatial_merge_size": 2},
              "text_config": {"hidden_size": 128}}
    forms = derive_forms(config, preprocessor={"min_pixels": 3136, "max_pixels": 224 * 224})
    assert forms.image.max_tokens_per_image == 64  # 224*224 / 28^2
    assert (forms.image.max_width, forms.image.max_height) == (224, 224)
    # 1000x700 is scaled down into max_pixels; 56x56 stays 2x2 tokens.
    assert forms.image.tokens_for_image(1000, 700) <= 64
    assert forms.image.tokens_for_image(56, 56) == 4
    # A prime token count cannot form an allowed aspect ratio (> 200), so vLLM steps down.
    prime = derive_forms(config, preprocessor={"max_pixels": 211 * 28 * 28})
    assert prime.image.max_tokens_per_image == 210


def test_fixed_grid_tower_counts_the_cls_token_only_with_the_full_strategy():
    config = {"model_type": "llava", "vision_config": {"image_size": 336, "patch_size": 14},
              "text_config": {"hidden_size": 4096}}
    assert derive_forms(config).image.max_tokens_per_image == 576
    full = derive_forms(config, processor={"vision_feature_select_strategy": "full"})
    assert full.image.max_tokens_per_image == 577


def test_multimodal_budget_refuses_a_plan_that_cannot_hold_one_image():
    forms = derive_forms(reference("kimi-k3"), preprocessor={"media_proc_cfg": KIMI_MEDIA})
    per_image = forms.image.max_tokens_per_image
    fits = multimodal_budget(forms, images_per_prompt=1, max_model_len=per_image + 256, max_num_batched_tokens=128)
    assert fits.fits
    assert fits.encoder_cache_tokens == per_image  # max(batched tokens, one item)
    assert fits.encoder_cache_bytes == per_image * 7168 * 2
    tight = multimodal_budget(forms, images_per_prompt=2, max_model_len=per_image + 256, max_num_batched_tokens=8192)
    assert not tight.fits and "allow at most 1 image(s)" in tight.problems[0]
    assert tight.encoder_cache_tokens == 8192
    # vLLM would have profiled 1 image per prompt, 8192 // per_image images per batch.
    assert tight.profile_items_per_prompt == 1
    assert tight.profile_items_per_batch == 8192 // per_image
    assert tight.profile_encoder_tokens == (8192 // per_image) * per_image
    # Without chunked prefill, one batch holds max_num_batched_tokens // per_image requests at most.
    unchunked = multimodal_budget(forms, images_per_prompt=1, max_model_len=per_image + 256,
                                  max_num_batched_tokens=2 * per_image, max_num_seqs=64, chunked_prefill=False)
    assert unchunked.profile_items_per_batch == 2
    assert max_images_that_fit(forms, max_model_len=per_image + 255) == 0
    assert max_images_that_fit(forms, max_model_len=3 * per_image + 256) == 3


def test_tiny_text_model_has_only_text(tmp_path):
    import build_tiny_model

    build_tiny_model.build("llama", tmp_path / "llama")
    forms = forms_from_dir(tmp_path / "llama")
    assert forms.input_forms == {"text"} and not forms.vision and forms.serve_flags() == ()


def test_unified_vision_chunk_models_count_images_under_vision_chunk():
    """K2.5-style configs: vLLM rejects every image ("At most 0 image(s)") under an "image" limit."""
    config = {"model_type": "kimi_k25", "use_unified_vision_chunk": True, "vision_config": {"patch_size": 14}}
    forms = derive_forms(config, preprocessor={"media_proc_cfg": KIMI_MEDIA})
    assert forms.serve_flags(images_per_prompt=1)[-2:] == ("--limit-mm-per-prompt", '{"vision_chunk":1}')


def test_record_is_json_and_names_the_evidence():
    forms = derive_forms(reference("kimi-k3"), preprocessor={"media_proc_cfg": KIMI_MEDIA})
    record = json.loads(json.dumps(forms.record()))
    assert record["input_forms"] == ["image", "text", "tools"]
    assert record["tool_calls"]["parser"] == "kimi_k3" and "family kimi_k3" in record["tool_calls"]["evidence"]
    assert record["vision"]["image"]["max_tokens_per_image"] == forms.image.max_tokens_per_image
    assert record["vision"]["image"]["modality"] == "image"


def test_declared_forms_against_served_forms():
    from kimi_deploy.core.model_forms import compare_forms

    forms = derive_forms(reference("kimi-k3"), preprocessor={"media_proc_cfg": KIMI_MEDIA})
    text_only = forms.served_forms(images_per_prompt=0)
    gap = compare_forms(text_only, {"text", "image"})
    assert gap.missing == {"image"} and gap.extra == {"tools"}
    assert gap.messages() == ["the inventory declares 'image' input but the release cannot serve it",
                              "the release serves 'tools' input, which the inventory does not declare"]
    assert not compare_forms(forms.served_forms(images_per_prompt=1), {"text", "image", "tools"}).messages()
    no_budget = derive_forms(reference("kimi-k3"))  # no preprocessor config: images cannot be planned
    assert "image" not in no_budget.served_forms(images_per_prompt=1)
