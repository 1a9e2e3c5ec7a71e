"""The planner and the model's forms: parser flags from the model's files, declared input forms, the image budget."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from kimi_deploy.core.model_forms import derive_forms, forms_from_dir
from kimi_deploy.core.model_profile import load_profile_from_path, read_config
from kimi_deploy.core.plan import Plan
from kimi_deploy.core.sizing import BusinessNeed, PlanOptions, load_forms, plan_deployment
from kimi_deploy.core.tensor_sharding import WeightInventory, records_from_tensor_table
from repo_paths import REPO

K3_DIR = REPO / "data" / "models" / "kimi-k3"
H200_NODES = [{"name": f"gpu{i}", "memory_total_mib": 2_064_000, "cpu_count": 224,
               "gpus": [{"index": g, "name": "NVIDIA H200", "memory_total_mib": 143_771, "compute_capability": "9.0"}
                        for g in range(8)]} for i in range(2)]
NEED = BusinessNeed.from_tokens(max_input_tokens=32_768, max_output_tokens=8_192, concurrency=16)
# Kimi's NaViT limits (patch 14, merge 2x2, 1024 patches, 64 per side): 256 tokens for the worst-case image.
KIMI_MEDIA = {"patch_size": 14, "merge_kernel_size": 2, "in_patch_limit": 1024, "patch_limit_on_one_side": 64}
CPU_NODE = {"name": "demo", "gpus": [], "memory_total_mib": 16_000, "cpu_count": 4, "cpu_flags": ["avx512f"]}


@pytest.fixture(scope="module")
def k3():
    profile = load_profile_from_path(K3_DIR, name="Kimi-K3")
    weights = WeightInventory.from_records(records_from_tensor_table(K3_DIR / "tensor-table.json"), profile)
    forms = derive_forms(read_config(K3_DIR), preprocessor={"media_proc_cfg": KIMI_MEDIA})
    return profile, weights, forms


@pytest.fixture(scope="module")
def tiny_vision(tmp_path_factory):
    out = tmp_path_factory.mktemp("tiny-k25-vl")
    subprocess.run([sys.executable, str(REPO / "tools/build_tiny_model.py"), "--arch", "kimi_k25_vl", "--out",
                    str(out)], check=True, capture_output=True)
    return out


def plan_k3(k3, need=NEED, **options):
    profile, weights, forms = k3
    return plan_deployment(profile, weights, H200_NODES, need, PlanOptions(vllm_version="0.32.0", **options), forms)


def flag_value(args, flag):
    return args[args.index(flag) + 1] if flag in args else None


def test_undeclared_forms_keep_the_family_flags_and_record_the_forms(k3):
    plan = plan_k3(k3)
    args = plan["serve_args"]
    assert flag_value(args, "--tool-call-parser") == "kimi_k3" and flag_value(args, "--reasoning-parser") == "kimi_k3"
    assert "--enable-auto-tool-choice" in args
    assert args.count("--tool-call-parser") == 1  # one source: the forms, not also the family table
    assert "--language-model-only" not in args and "--limit-mm-per-prompt" not in args
    assert plan["model_forms"]["vision"]["present"] and plan["model_forms"]["declared_input_forms"] is None
    assert "multimodal" not in plan


def test_text_and_tools_declared_turn_vision_off_and_drop_its_weights(k3):
    undeclared = plan_k3(k3)
    plan = plan_k3(k3, input_forms=("text", "tools"))
    assert "--language-model-only" in plan["serve_args"] and plan["serve_flags"]["language_model_only"]
    assert flag_value(plan["serve_args"], "--tool-call-parser") == "kimi_k3"
    assert plan["memory"]["weights_bytes"] < undeclared["memory"]["weights_bytes"]  # the vision tower is not loaded
    assert plan["model_forms"]["declared_input_forms"] == ["text", "tools"]


def test_text_only_drops_the_tool_parser_but_keeps_reasoning(k3):
    args = plan_k3(k3, input_forms=("text",))["serve_args"]
    assert "--tool-call-parser" not in args and "--enable-auto-tool-choice" not in args
    assert flag_value(args, "--reasoning-parser") == "kimi_k3"


def test_images_declared_give_the_limit_and_the_budget(k3):
    plan = plan_k3(k3, input_forms=("text", "image", "tools"), images_per_prompt=4)
    args = plan["serve_args"]
    assert json.loads(flag_value(args, "--limit-mm-per-prompt")) == {"image": 4}
    assert "--language-model-only" not in args
    mm = plan["multimodal"]
    per_image = k3[2].image.max_tokens_per_image
    assert mm["images_per_prompt"] == 4 and mm["tokens_per_image"] == per_image
    assert mm["prompt_image_tokens"] == 4 * per_image
    assert mm["encoder_cache_tokens"] == max(plan["max_num_batched_tokens"], per_image)
    assert mm["encoder_cache_bytes"] == mm["encoder_cache_tokens"] * 7168 * 2  # K3 text hidden size, bf16
    assert "images: 4 per prompt" in plan["summary"]
    # The release reads the plan back with the limit as a field, not an extra argument.
    back = Plan.from_dict(plan)
    assert back.serve_flags.limit_mm_per_prompt == {"image": 4} and back.serve_flags.extra_args == ()
    assert back.multimodal == mm and back.to_dict()["serve_args"] == args


def test_a_context_that_cannot_hold_one_image_is_refused_naming_the_variable(k3):
    per_image = k3[2].image.max_tokens_per_image
    need = BusinessNeed(max_model_len=per_image, concurrency=1)
    plan = plan_k3(k3, need=need, input_forms=("text", "image"))
    assert not plan["fits"]
    assert any("cannot hold one image" in r and "kimi_max_input_tokens" in r for r in plan["reasons"])
    assert "--limit-mm-per-prompt" not in plan["serve_args"]


def test_too_many_images_are_refused_or_lowered_when_allowed(k3):
    per_image = k3[2].image.max_tokens_per_image
    need = BusinessNeed(max_model_len=2 * per_image + 256, concurrency=1)
    refused = plan_k3(k3, need=need, input_forms=("text", "image"), images_per_prompt=3)
    assert not refused["fits"] and any("kimi_images_per_prompt" in r for r in refused["reasons"])
    lowered = plan_k3(k3, need=need, input_forms=("text", "image"), images_per_prompt=3, fit_images_per_prompt=True)
    assert lowered["fits"] and lowered["multimodal"]["images_per_prompt"] == 2
    assert json.loads(flag_value(lowered["serve_args"], "--limit-mm-per-prompt")) == {"image": 2}
    assert any("lowered from 3 to 2" in w for w in lowered["warnings"])


def test_images_on_a_model_without_vision_or_against_language_model_only_are_refused(k3):
    profile, weights, _unused = k3
    text_only = derive_forms({"model_type": "kimi_k3"})
    plan = plan_deployment(profile, weights, H200_NODES, NEED,
                           PlanOptions(vllm_version="0.32.0", input_forms=("text", "image")), text_only)
    assert not plan["fits"] and any("cannot take images" in r for r in plan["reasons"])
    with pytest.raises(Exception, match="language_model_only"):
        plan_k3(k3, input_forms=("image",), language_model_only=True)
    with pytest.raises(Exception, match="input_forms"):
        plan_k3(k3, input_forms=("images",))


def test_the_tiny_vision_model_dir_gives_its_parsers_and_vision_chunk_limit(tiny_vision):
    # The tiny vision model has no weights (vLLM serves it with --load-format dummy): size it with none.
    profile = load_profile_from_path(tiny_vision)
    weights = WeightInventory.from_records([], profile)
    forms = load_forms(model_dir=str(tiny_vision))
    assert forms == forms_from_dir(tiny_vision)
    plan = plan_deployment(profile, weights, [CPU_NODE], BusinessNeed(max_model_len=2048, concurrency=2),
                           PlanOptions(vllm_version="0.32.0+cpu", input_forms=("text", "image", "tools"),
                                       images_per_prompt=2), forms)
    args = plan["serve_args"]
    assert plan["fits"], plan["reasons"]
    assert json.loads(flag_value(args, "--limit-mm-per-prompt")) == {"vision_chunk": 2}
    assert flag_value(args, "--tool-call-parser") == "kimi_k2" and flag_value(args, "--reasoning-parser") == "kimi_k2"
    assert plan["multimodal"]["tokens_per_image"] == forms.image.max_tokens_per_image
    assert plan["model_forms"]["vision"]["image"]["modality"] == "vision_chunk"


def profiled_encoder_bytes(plan, per_image, images, hidden=7168, dtype_bytes=2):
    """vLLM 0.32's profile run: ``MultiModalBudget._get_max_items`` worst-case images, each ``per_image`` encoder
    outputs of the text hidden size, held while the language model is profiled (chunked prefill on)."""
    budget = max(plan["max_num_batched_tokens"], per_image)
    per_prompt = max(1, min(images, plan["max_model_len"] // per_image))
    items = max(1, min(budget // per_image, plan["max_num_seqs"] * per_prompt))
    return items * per_image * hidden * dtype_bytes


@pytest.mark.parametrize("images", [1, 4])
def test_images_charge_the_profiled_encoder_outputs_to_every_gpu_and_the_kv_budget_pays(k3, images):
    per_image = k3[2].image.max_tokens_per_image
    undeclared = plan_k3(k3)  # vision tower loaded, no images profiled
    plan = plan_k3(k3, input_forms=("text", "image", "tools"), images_per_prompt=images)
    mem, before = plan["memory"], undeclared["memory"]
    charged = mem["encoder_cache_reserve_bytes"]
    assert charged == profiled_encoder_bytes(plan, per_image, images) > 0
    assert charged == plan["multimodal"]["profile_encoder_output_bytes"]
    assert plan["layout"] == undeclared["layout"] and mem["weights_bytes"] == before["weights_bytes"]
    assert before["encoder_cache_reserve_bytes"] == 0
    assert mem["kv_budget_bytes"] == before["kv_budget_bytes"] - charged
    assert mem["num_blocks"] <= before["num_blocks"]
    assert "encoder cache 0.1" in plan["summary"] and "encoder cache" not in undeclared["summary"]


def test_vision_weights_are_charged_with_images_and_dropped_without(k3):
    with_images = plan_k3(k3, input_forms=("text", "image"))["memory"]
    text_only = plan_k3(k3, input_forms=("text",))["memory"]
    vision = with_images["weights_by_kind"].get("vision", 0)
    assert vision > 0 and "vision" not in text_only["weights_by_kind"]
    assert with_images["weights_bytes"] - text_only["weights_bytes"] == vision
    assert text_only["encoder_cache_reserve_bytes"] == 0


def test_a_measured_activation_reserve_already_holds_the_encoder_outputs(k3):
    plan = plan_k3(k3, input_forms=("text", "image"), activation_reserve_bytes=3 * 1024**3)
    assert plan["memory"]["encoder_cache_reserve_bytes"] == 0  # vLLM's torch peak included them
    assert plan["multimodal"]["profile_encoder_output_bytes"] > 0


def test_the_cpu_plan_drops_vision_weights_without_images_and_holds_encoder_outputs_with_them(k3):
    profile, weights, forms = k3
    node = {**CPU_NODE, "memory_total_mib": 4_000_000}

    def cpu_plan(**options):
        return plan_deployment(profile, weights, [node], NEED, PlanOptions(vllm_version="0.32.0+cpu", **options),
                               forms)
    text_only, with_images = cpu_plan(input_forms=("text",)), cpu_plan(input_forms=("text", "image"))
    assert "vision" not in text_only["memory"]["weights_by_kind"]
    assert with_images["memory"]["weights_by_kind"]["vision"] > 0
    assert text_only["memory"]["encoder_cache_reserve_bytes"] == 0
    assert with_images["memory"]["encoder_cache_reserve_bytes"] == with_images["multimodal"][
        "profile_encoder_output_bytes"] > 0


def test_image_urls_are_refused_unless_hosts_are_listed_and_the_policy_is_a_planned_flag(k3):
    refused = plan_k3(k3, input_forms=("text", "image"))
    assert refused["serve_args"][refused["serve_args"].index("--allowed-media-domains"):][:2] == [
        "--allowed-media-domains", "url-images-refused.invalid"]
    assert refused["multimodal"]["url_domains"] == [] and "image URLs refused" in refused["summary"]
    listed = plan_k3(k3, input_forms=("text", "image"), media_url_domains=("images.example.com", "CDN.Example.org"))
    args = listed["serve_args"]
    at = args.index("--allowed-media-domains")
    assert args[at + 1:at + 3] == ["images.example.com", "cdn.example.org"] and args[at + 3].startswith("--")
    assert listed["serve_flags"]["allowed_media_domains"] == ["images.example.com", "cdn.example.org"]
    assert listed["multimodal"]["url_domains"] == ["images.example.com", "cdn.example.org"]
    back = Plan.from_dict(listed)
    assert back.serve_flags.allowed_media_domains == ("images.example.com", "cdn.example.org")
    assert back.serve_flags.extra_args == () and back.to_dict()["serve_args"] == args


def test_the_url_policy_follows_whether_the_server_takes_images(k3):
    assert "--allowed-media-domains" in plan_k3(k3)["serve_args"]  # undeclared: vLLM would take images
    text_only = plan_k3(k3, input_forms=("text", "tools"), media_url_domains=("images.example.com",))
    assert "--allowed-media-domains" not in text_only["serve_args"]
    assert text_only["serve_flags"]["allowed_media_domains"] is None
    profile, weights, _unused = k3
    no_vision = plan_deployment(profile, weights, H200_NODES, NEED, PlanOptions(vllm_version="0.32.0"),
                                derive_forms({"model_type": "kimi_k3"}))
    assert "--allowed-media-domains" not in no_vision["serve_args"]


@pytest.mark.parametrize("domain", ["https://images.example.com", "*.example.com", "images.example.com:443",
                                    "images.example.com/cats", "", "url-images-refused.invalid"])
def test_media_url_domains_must_be_exact_host_names(k3, domain):
    with pytest.raises(Exception, match="media_url_domains"):
        plan_k3(k3, input_forms=("text", "image"), media_url_domains=("images.example.com", domain))


def test_a_plan_read_from_its_argv_keeps_every_allowed_host(k3):
    plan = plan_k3(k3, input_forms=("text", "image"), media_url_domains=("a.example", "b.example"))
    v0 = {k: v for k, v in plan.items() if k not in ("schema_version", "serve_flags")}  # a release written before
    back = Plan.from_dict(v0)
    assert back.serve_flags.allowed_media_domains == ("a.example", "b.example")
    assert "b.example" not in back.serve_flags.extra_args and back.to_dict()["serve_args"] == plan["serve_args"]
