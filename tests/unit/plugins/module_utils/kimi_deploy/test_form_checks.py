"""form_checks against responses the pinned vLLM's own Kimi K2 / K3 parsers produced.

The fixtures under tests/fixtures/model-forms/ were written by tools/record_form_fixtures.py: each holds
a raw model output quoted from a public source (its ``source``), the message vLLM's parsers made of
it, and the messages a server without the parser flags returns.
"""

from __future__ import annotations

import copy
import json

import pytest
from kimi_deploy.core.form_checks import (
    check_image_usage,
    check_reasoning,
    check_structured_output,
    check_tool_calls,
    skipped,
    validate,
)
from kimi_deploy.core.model_forms import derive_forms
from repo_paths import FIXTURES as REPO_FIXTURES

FIXTURES = REPO_FIXTURES / "model-forms"
K2_FORMS = derive_forms({"model_type": "kimi_k2"}, tokenizer_config={
    "chat_template": "<think></think><|tool_calls_section_begin|>"})
K3_FORMS = derive_forms({"model_type": "kimi_k3"})
TOOL_CASES = ["k2-tool-call-single", "k2-tool-calls-parallel", "k3-tool-call"]
REASONING_CASES = ["k2-reasoning", "k3-reasoning", "k3-tool-call"]


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def forms_for(name: str):
    return K3_FORMS if name.startswith("k3") else K2_FORMS


def tool_names(doc: dict) -> list[str]:
    return [t["function"]["name"] for t in doc["tools"]]


def test_every_fixture_names_its_source_and_the_parser_that_made_it():
    recorded = [p for p in FIXTURES.glob("*.json") if not p.name.startswith("tiny-")]
    assert len(recorded) == 5
    for path in recorded:
        doc = json.loads(path.read_text())
        assert doc["source"].startswith("https://github.com/vllm-project/vllm/"), path.name
        assert doc["recorded_with"]["vllm"].startswith("0.32"), path.name


def test_a_real_servers_truncated_required_call_fails():
    """A real answer: the forced call was cut at max_tokens inside the tool's name, and vLLM's parser still
    returned it as a call. Its name is not a declared tool, and finish_reason says it was cut."""
    doc = fixture("tiny-k25-required-call-truncated")
    result = check_tool_calls(doc["response"], markers=K2_FORMS.content_markers, residue=K2_FORMS.content_residue,
                              tool_names=tool_names(doc), require_call=True)
    assert not result.ok
    assert "calls 'functions.get_we', which the request did not declare" in result.detail
    assert "finish_reason 'length'" in result.detail


@pytest.mark.parametrize("name", TOOL_CASES)
def test_parsed_tool_calls_pass(name):
    doc, forms = fixture(name), forms_for(name)
    result = check_tool_calls(doc["response"], markers=forms.content_markers, residue=forms.content_residue,
                              tool_names=tool_names(doc), require_call=True)
    assert result.ok, result.detail
    assert "parsed tool call" in result.detail


@pytest.mark.parametrize("name", TOOL_CASES)
@pytest.mark.parametrize("variant", ["unparsed_response", "unparsed_with_special_tokens"])
def test_a_server_without_the_tool_parser_fails(name, variant):
    """Markup left in content fails, whether the special tokens were kept or skipped on decode."""
    doc, forms = fixture(name), forms_for(name)
    result = check_tool_calls(doc[variant], markers=forms.content_markers, residue=forms.content_residue,
                              tool_names=tool_names(doc))
    assert not result.ok
    assert "markup left in content" in result.detail


def test_the_wrong_parser_flag_fails_too():
    """A K3 server started with the K2 parser leaves XTML in content; K3's markers catch it."""
    doc = fixture("k3-tool-call")
    result = check_tool_calls(doc["unparsed_with_special_tokens"], markers=K3_FORMS.content_markers)
    assert not result.ok and "<|open|>" in result.detail


@pytest.mark.parametrize("mutate, expected", [
    (lambda c: c.update(arguments='{"city": "Beijing"'), "arguments are not JSON"),
    (lambda c: c.update(arguments='["Beijing"]'), "not a JSON object"),
    (lambda c: c.update(name=""), "no function name"),
    (lambda c: c.update(name="delete_everything"), "did not declare"),
])
def test_malformed_envelopes_fail(mutate, expected):
    doc = fixture("k2-tool-call-single")
    response = copy.deepcopy(doc["response"])
    mutate(response["choices"][0]["message"]["tool_calls"][0]["function"])
    result = check_tool_calls(response, tool_names=tool_names(doc))
    assert not result.ok and expected in result.detail


def test_envelope_fields_and_finish_reason_are_checked():
    response = copy.deepcopy(fixture("k2-tool-call-single")["response"])
    call = response["choices"][0]["message"]["tool_calls"][0]
    call["type"], call["id"] = "tool", ""
    response["choices"][0]["finish_reason"] = "stop"
    detail = check_tool_calls(response).detail
    assert "no id" in detail and "'tool'" in detail and "finish_reason 'stop'" in detail


def test_no_call_is_allowed_unless_required():
    response = fixture("k2-reasoning")["response"]
    assert check_tool_calls(response).ok
    assert not check_tool_calls(response, require_call=True).ok


@pytest.mark.parametrize("name", REASONING_CASES)
def test_parsed_reasoning_passes(name):
    doc, forms = fixture(name), forms_for(name)
    result = check_reasoning(doc["response"], markers=forms.content_markers, require_reasoning=True)
    assert result.ok and "in reasoning" in result.detail


def test_reasoning_content_alias_is_accepted_and_named():
    response = copy.deepcopy(fixture("k2-reasoning")["response"])
    message = response["choices"][0]["message"]
    message["reasoning_content"] = message.pop("reasoning")
    result = check_reasoning(response, markers=K2_FORMS.content_markers, require_reasoning=True)
    assert result.ok and "deprecated alias reasoning_content" in result.detail


@pytest.mark.parametrize("name", ["k2-reasoning", "k3-reasoning"])
def test_a_server_without_the_reasoning_parser_fails(name):
    doc, forms = fixture(name), forms_for(name)
    kept = check_reasoning(doc["unparsed_with_special_tokens"], markers=forms.content_markers)
    assert not kept.ok and "reasoning markup left in content" in kept.detail
    # Special tokens skipped: no markup survives, but the reasoning the model always produces is missing.
    skipped_tokens = check_reasoning(doc["unparsed_response"], markers=forms.content_markers,
                                     require_reasoning=True)
    assert not skipped_tokens.ok and "no reasoning returned" in skipped_tokens.detail


def test_markup_inside_reasoning_fails():
    response = copy.deepcopy(fixture("k2-reasoning")["response"])
    response["choices"][0]["message"]["reasoning"] = "step</think>final answer"
    assert not check_reasoning(response, markers=K2_FORMS.content_markers).ok


SCHEMA = {"type": "object", "additionalProperties": False, "required": ["city", "days"],
          "properties": {"city": {"type": "string", "maxLength": 20},
                         "days": {"type": "integer", "minimum": 1, "maximum": 7},
                         "unit": {"enum": ["c", "f"]}}}


def _content(text: str) -> dict:
    return {"choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]}


@pytest.mark.parametrize("text, ok", [
    ('{"city": "Oslo", "days": 3}', True),
    ('{"city": "Oslo", "days": 3, "unit": "c"}', True),
    ('{"city": "Oslo"}', False),
    ('{"city": "Oslo", "days": 9}', False),
    ('{"city": "Oslo", "days": true}', False),
    ('{"city": "Oslo", "days": 3, "extra": 1}', False),
    ('{"city": "Oslo", "days": 3, "unit": "k"}', False),
    ("Oslo for three days", False),
    # What the tiny K2.5 model returned under a guided schema on the CPU build (docs/multimodal-trial.md):
    # a raw U+0004 inside a string, which strict JSON forbids.
    ('{ "city"\n\t:\n "П\x04串latent;" ,\n"days" \t:5\n}', False),
    ('{ "city"\n\t:\n "П串latent;" ,\n"days" \t:5\n}', True),
])
def test_structured_output_validates(text, ok):
    assert check_structured_output(_content(text), SCHEMA).ok is ok


def test_validator_agrees_with_jsonschema_on_the_subset():
    jsonschema = pytest.importorskip("jsonschema")
    samples = [{"city": "Oslo", "days": 3}, {"city": "x" * 21, "days": 3}, {"days": 0}, [], {"city": 1, "days": 2},
               {"city": "Oslo", "days": 3.5}, {"city": "Oslo", "days": 7, "unit": "f"}]
    for sample in samples:
        theirs = not list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(sample))
        assert (not validate(sample, SCHEMA)) is theirs, sample


def test_validator_refuses_keywords_outside_its_subset():
    with pytest.raises(ValueError, match="outside the supported subset"):
        validate({}, {"type": "object", "patternProperties": {}})


def test_image_usage_must_cover_the_computed_tokens():
    def usage(n):
        return {"usage": {"prompt_tokens": n}}

    assert check_image_usage(usage(19), usage(19 + 90 + 6), image_tokens=90).ok
    dropped = check_image_usage(usage(19), usage(25), image_tokens=90)
    assert not dropped.ok and "dropped or counted short" in dropped.detail
    over = check_image_usage(usage(19), usage(19 + 400), image_tokens=90)
    assert not over.ok and "budget in the plan is wrong" in over.detail
    assert not check_image_usage({}, usage(1), image_tokens=1).ok


def test_skips_carry_their_reason():
    result = skipped("image", "the model has no vision tower (config.json has no vision_config)")
    assert result.ok and result.skipped and "vision tower" in result.detail
