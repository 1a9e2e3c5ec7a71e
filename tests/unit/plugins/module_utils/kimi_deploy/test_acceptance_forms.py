"""The acceptance's form checks against a fake vLLM that answers as the real one did on the tiny vision model."""

from __future__ import annotations

import json
import struct
import zlib

import httpx
import pytest
from fake_vllm import FakeVllm
from kimi_deploy.core import acceptance as acc
from kimi_deploy.core.acceptance_checks import Exchange
from kimi_deploy.core.acceptance_forms import (
    FORM_CHECKS,
    FormsUnderTest,
    long_image_outcome,
    png_bytes,
    tools_outcome,
)
from kimi_deploy.core.model_forms import derive_forms
from kimi_deploy.core.model_profile import read_config
from kimi_deploy.io import acceptance_client as client
from repo_paths import FIXTURES, REPO

# The tiny K2.5 vision model's forms (tools/build_tiny_model.py --arch kimi_k25_vl): Kimi NaViT limits, the
# vision_chunk modality, K2 markup from the family; a 64x64 image is 9 tokens.
TINY_VL = derive_forms({"model_type": "kimi_k25", "use_unified_vision_chunk": True, "vision_config": {},
                        "text_config": {"hidden_size": 64}},
                       preprocessor={"media_proc_cfg": {"patch_size": 14, "merge_kernel_size": 2, "in_patch_limit": 256,
                                                        "patch_limit_on_one_side": 32}})
PARSERS = ["--enable-auto-tool-choice", "--tool-call-parser", "kimi_k2", "--reasoning-parser", "kimi_k2"]
IMAGES_1 = ["--limit-mm-per-prompt", '{"vision_chunk":1}', "--allowed-media-domains", "url-images-refused.invalid"]


def plan(args, declared=("text", "image", "tools"), forms=TINY_VL):
    return {"model_forms": {**forms.record(), "declared_input_forms": sorted(declared) if declared else None},
            "serve_args": ["--max-model-len", "128", *args]}


def run(fake, the_plan, **over):
    cfg = acc.AcceptanceConfig(served_model_name="tiny", max_model_len=128, max_output_tokens=8, concurrency=2,
                               api_key="sk-test", base_url="http://fake", profile="quick", duration_s=1.0,
                               sample_interval_s=0.05, load_input_tokens=24, load_output_tokens=4, plan=the_plan,
                               **over)
    return client.run_acceptance(cfg, transport=httpx.MockTransport(fake), nvml_loader=lambda: None)


def statuses(results):
    return {name: results["checks"][name]["status"] for name in FORM_CHECKS}


def test_a_release_serving_its_declared_forms_passes_every_form_check_with_its_latency():
    fake = FakeVllm(image_limit=1, tool_parser="kimi_k2", reasoning_parser="kimi_k2")
    results = run(fake, plan([*PARSERS, *IMAGES_1]))
    assert results["passed"], results["msg"]
    assert set(statuses(results).values()) == {"passed"}
    image = results["checks"]["image_input"]["observed"]
    assert image["image_tokens_computed"] == 9
    assert image["prompt_tokens"]["image"] - image["prompt_tokens"]["text"] == 18  # 9 + the placeholder text
    forms = results["metrics"]["forms"]
    assert forms["served"] == ["image", "text", "tools"] and forms["missing"] == [] and forms["extra"] == []
    assert set(forms["latency_ms"]) == set(FORM_CHECKS) and all(v > 0 for v in forms["latency_ms"].values())
    # On a reasoning server the guided request turns thinking off, or the grammar waits for the end of reasoning.
    structured = [json.loads(r.content) for r in fake.requests if b"structured_outputs" in r.content]
    assert structured[0]["chat_template_kwargs"] == {"thinking": False}
    assert structured[0]["structured_outputs"]["json"] == {"enum": ["yes", "no"]}
    assert results["checks"]["structured_output"]["observed"]["content"] == '"yes"'


def test_an_image_url_outside_the_allowed_hosts_is_refused_before_any_fetch():
    listed = [*IMAGES_1[:2], "--allowed-media-domains", "images.example.com", "kimi-acceptance-not-allowed.example"]
    forms = FormsUnderTest.from_plan(plan(listed))
    assert forms.media_domains == ("images.example.com", "kimi-acceptance-not-allowed.example")
    url = forms.refused_image_url()
    assert httpx.URL(url).host not in forms.media_domains  # never one the release allows
    fake = FakeVllm(image_limit=1, tool_parser="kimi_k2", reasoning_parser="kimi_k2", media_domains=forms.media_domains)
    results = run(fake, plan([*PARSERS, *listed]))
    check = results["checks"]["image_url_refused"]
    assert check["status"] == "passed" and check["observed"]["status"] == 400, check
    assert "allowed domains" in check["observed"]["message"] and check["observed"]["healthy_after"]
    sent = [r for r in fake.requests if b'"url": "http' in r.content]
    assert len(sent) == 1 and json.loads(sent[0].content)["messages"][0]["content"][0]["image_url"]["url"] == url


def test_a_server_that_fetches_image_urls_despite_the_plan_fails_and_one_without_a_policy_is_skipped():
    ignoring = run(FakeVllm(image_limit=1, tool_parser="kimi_k2", reasoning_parser="kimi_k2", media_domains=None),
                   plan([*PARSERS, *IMAGES_1]))
    assert ignoring["failed_checks"] == ["image_url_refused"]
    assert "answered 500" in ignoring["checks"]["image_url_refused"]["detail"]
    unplanned = run(FakeVllm(image_limit=1, tool_parser="kimi_k2", reasoning_parser="kimi_k2", media_domains=None),
                    plan([*PARSERS, *IMAGES_1[:2]]))
    assert unplanned["passed"], unplanned["msg"]
    assert "no --allowed-media-domains planned" in unplanned["checks"]["image_url_refused"]["detail"]


def test_the_long_input_with_an_image_reaches_the_target_and_counts_text_and_image():
    results = run(FakeVllm(image_limit=1, tool_parser="kimi_k2", reasoning_parser="kimi_k2"),
                  plan([*PARSERS, *IMAGES_1]))
    check = results["checks"]["image_long_input"]
    assert check["status"] == "passed", check
    observed = check["observed"]
    assert observed["target_prompt_tokens"] == 128 - 8
    assert observed["usage"] == {"prompt_tokens": 120, "completion_tokens": 8}
    assert observed["usage"]["prompt_tokens"] - observed["text_tokens"] == 9 + 9  # the image and its placeholder
    assert results["metrics"]["long"]["chat_image"] == observed


def long_answer(prompt, completion=8, status=200):
    body = {"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "length", "message": {
        "role": "assistant", "content": "ok"}}], "usage": {"prompt_tokens": prompt, "completion_tokens": completion}}
    return Exchange("POST", "/v1/chat/completions", "{}", status=status, response=json.dumps(body))


@pytest.mark.parametrize(("answer", "why"), [
    (long_answer(102), "expected 120"),  # the image dropped: only the text counted
    (long_answer(120, completion=3), "did not reach max_model_len"),
    (long_answer(0, status=400), "answered 400"),
])
def test_a_long_image_prompt_refused_counted_short_or_cut_fails(answer, why):
    forms = FormsUnderTest.from_plan(plan(IMAGES_1))
    outcome = long_image_outcome(forms, answer, target=120, text_tokens=102, max_tokens=8)
    assert outcome.passed is False and why in outcome.detail, outcome.detail


def test_a_long_image_prompt_whose_image_counts_fewer_tokens_than_computed_fails():
    forms = FormsUnderTest.from_plan(plan(IMAGES_1))
    outcome = long_image_outcome(forms, long_answer(120), target=120, text_tokens=115, max_tokens=8)
    assert outcome.passed is False and "fewer than its computed 9" in outcome.detail
    assert long_image_outcome(forms, long_answer(120), target=120, text_tokens=102, max_tokens=8).passed


def test_vision_disabled_by_mistake_fails_the_image_check_by_name():
    results = run(FakeVllm(image_limit=0, tool_parser="kimi_k2", reasoning_parser="kimi_k2"),
                  plan([*PARSERS, "--language-model-only"]))
    assert not results["passed"]
    assert results["failed_checks"] == ["image_input"]
    assert "--language-model-only" in results["checks"]["image_input"]["detail"]
    # A server that takes no image refuses a corrupt one too: that proves nothing, so it says why it did not run.
    assert "image_input did not pass" in results["checks"]["image_corrupt"]["detail"]
    assert results["checks"]["image_over_limit"]["status"] == "skipped"
    assert results["metrics"]["forms"]["missing"] == ["image"]
    assert "image_input" in results["msg"]


def test_a_missing_or_broken_tool_parser_fails_the_tools_check():
    missing = run(FakeVllm(image_limit=1, tool_parser=None, reasoning_parser="kimi_k2"),
                  plan(["--reasoning-parser", "kimi_k2", *IMAGES_1]))
    assert missing["failed_checks"] == ["tools_call"]
    assert "--tool-call-parser" in missing["checks"]["tools_call"]["detail"]
    broken = run(FakeVllm(image_limit=1, tool_parser="unparsed", reasoning_parser="kimi_k2"),
                 plan([*PARSERS, *IMAGES_1]))
    assert broken["failed_checks"] == ["tools_call"]
    assert "markup left in content" in broken["checks"]["tools_call"]["detail"]


def test_a_reasoning_model_served_without_its_parser_fails_the_reasoning_check():
    results = run(FakeVllm(image_limit=1, tool_parser="kimi_k2", reasoning_parser=None),
                  plan([*PARSERS[:3], *IMAGES_1]))
    assert results["failed_checks"] == ["reasoning_split"]
    assert "serves no --reasoning-parser" in results["checks"]["reasoning_split"]["detail"]


def test_undeclared_forms_are_skipped_with_the_reason_and_extra_ones_noted():
    text_only = run(FakeVllm(image_limit=0, tool_parser="kimi_k2", reasoning_parser="kimi_k2"),
                    plan([*PARSERS, "--language-model-only"], declared=("text",)))
    assert text_only["passed"], text_only["msg"]
    checks = text_only["checks"]
    assert {checks[n]["status"] for n in ("image_input", "image_over_limit", "image_corrupt")} == {"skipped"}
    assert "--language-model-only" in checks["image_input"]["detail"]
    # Tools are served although not declared: checked, and the results say so.
    assert checks["tools_call"]["status"] == "passed"
    assert text_only["metrics"]["forms"]["extra"] == ["tools"]
    assert any("'tools' input, which the inventory does not declare" in n for n in text_only["notes"])


def test_a_model_without_vision_or_tools_skips_those_checks_naming_the_evidence():
    llama = derive_forms({"model_type": "llama", "architectures": ["LlamaForCausalLM"]})
    results = run(FakeVllm(), plan([], declared=None, forms=llama))
    assert results["passed"], results["msg"]
    checks = results["checks"]
    assert "takes no images" in checks["image_input"]["detail"]
    assert "no vision_config" in checks["image_input"]["detail"]
    assert "emits no tool calls" in checks["tools_call"]["detail"]
    assert "no reasoning markup" in checks["reasoning_split"]["detail"]
    assert checks["structured_output"]["status"] == "passed"


def test_input_forms_given_to_the_acceptance_override_the_plans():
    forms = FormsUnderTest.from_plan(plan(IMAGES_1, declared=None), ["text", "image"])
    assert forms.declared == {"text", "image"} and forms.image_limit == 1 and not forms.tools_served
    assert forms.skip_reason("tools_call") == "tools are not declared (input_forms) and the release serves no " \
                                              "tool-call parser"
    assert FormsUnderTest.from_plan({"serve_args": []}) is None


def test_the_test_image_is_a_valid_png():
    data = png_bytes(64, 64)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    _unused, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and struct.unpack(">II", data[16:24]) == (64, 64)
    idat = data.index(b"IDAT")
    size = struct.unpack(">I", data[idat - 4:idat])[0]
    assert len(zlib.decompress(data[idat + 4:idat + 4 + size])) == 64 * (1 + 64 * 3)


@pytest.mark.parametrize("name", FORM_CHECKS)
def test_every_form_check_is_in_the_catalogue_and_implemented(name):
    assert acc.CHECKS_BY_NAME[name].group == "forms"
    assert hasattr(client.AcceptanceRunner, f"_check_{name}")


@pytest.mark.parametrize("variant", ["unparsed_response", "unparsed_with_special_tokens"])
def test_recorded_k3_answers_of_a_server_without_its_tool_parser_fail_the_tools_check(variant):
    """What vLLM returns for K3's recorded tool call when --tool-call-parser kimi_k3 is missing or wrong."""
    doc = json.loads((FIXTURES / "model-forms" / "k3-tool-call.json").read_text())
    k3 = derive_forms(read_config(REPO / "data" / "models" / "kimi-k3"))
    forms = FormsUnderTest.from_plan(plan(["--enable-auto-tool-choice", "--tool-call-parser", "kimi_k2"], forms=k3))
    exchange = Exchange("POST", "/v1/chat/completions", "{}", status=200, response=json.dumps(doc[variant]))
    outcome = tools_outcome(forms, exchange)
    assert outcome.passed is False and "markup left in content" in outcome.detail


def test_a_served_parser_other_than_the_models_fails_even_when_the_answer_looks_clean():
    """A random model emits no markup for a wrong parser to leave behind: the argv itself names the mistake."""
    wrong = ["--enable-auto-tool-choice", "--tool-call-parser", "hermes", "--reasoning-parser", "deepseek_r1"]
    results = run(FakeVllm(image_limit=1, tool_parser="hermes", reasoning_parser="deepseek_r1"),
                  plan([*wrong, *IMAGES_1]))
    assert results["failed_checks"] == ["tools_call", "reasoning_split"]
    assert "serves --tool-call-parser hermes but the model's markup needs kimi_k2" in \
        results["checks"]["tools_call"]["detail"]
    assert "--reasoning-parser deepseek_r1" in results["checks"]["reasoning_split"]["detail"]
    forms = FormsUnderTest.from_plan(plan(["--limit-mm-per-prompt", "image=2"]))
    assert forms.image_limit is None  # not JSON: no planned limit, and the suite still runs
