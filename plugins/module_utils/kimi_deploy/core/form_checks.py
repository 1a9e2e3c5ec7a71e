"""Checks of a chat-completions response against the forms a release promises (pure: JSON in, verdict out).

Each check returns a ``FormCheck``; a capability the model lacks is ``skipped`` with the reason,
never silently passed. What fails:

- tool calls: ``tool_calls`` malformed (no id, type not ``function``, no name, arguments that are not
  a JSON object), a call to an undeclared tool, ``finish_reason`` not ``tool_calls`` when calls came,
  or tool-call markup left in ``content``: with its markers (``<|tool_call_begin|>``) when special
  tokens were kept, or the call's skeleton (``functions.get_weather:0 {``) when they were skipped,
  both the sign of a server started without (or with the wrong) ``--tool-call-parser``;
- reasoning: markup (``</think>``, ``<|close|>think<|sep|>``) in ``content`` or in the reasoning
  itself, or no reasoning when the request expects it. vLLM 0.32 returns ``reasoning``;
  ``reasoning_content`` is a deprecated alias, accepted and noted;
- structured output: ``content`` that is not JSON or does not validate against the request's schema
  (the small subset of JSON Schema ``validate`` implements);
- images: ``usage.prompt_tokens`` of the image request minus that of the same text-only request must
  cover the image's computed tokens, plus at most ``placeholder_slack`` tokens of placeholder text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FormCheck:
    name: str
    ok: bool
    detail: str
    skipped: bool = False


def skipped(name: str, reason: str) -> FormCheck:
    return FormCheck(name, True, reason, skipped=True)


def _message(response: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    choices = response.get("choices") if isinstance(response, dict) else None
    if not choices or not isinstance(choices[0], dict) or not isinstance(choices[0].get("message"), dict):
        raise ValueError("not a chat.completion: no choices[0].message")
    return choices[0]["message"], choices[0].get("finish_reason")


def _markup_found(text: str | None, markers: Iterable[str], residue: Iterable[str]) -> str | None:
    if not text:
        return None
    for marker in markers:
        if marker in text:
            return marker
    for pattern in residue:
        match = re.search(pattern, text)
        if match:
            return match.group(0)
    return None


def check_tool_calls(  # noqa: C901, PLR0912 - one branch per way an envelope can be malformed
    response: dict[str, Any], *, markers: Iterable[str] = (), residue: Iterable[str] = (),
    tool_names: Iterable[str] | None = None, require_call: bool = False,
) -> FormCheck:
    """Tool calls arrived parsed, in a well-formed envelope; no call markup in ``content``."""
    name = "tool_calls"
    try:
        message, finish = _message(response)
    except ValueError as err:
        return FormCheck(name, False, str(err))
    left = _markup_found(message.get("content"), markers, residue)
    if left:
        return FormCheck(name, False, f"tool-call markup left in content ({left!r}): the tool-call parser did "
                                      "not run; check --enable-auto-tool-choice --tool-call-parser")
    calls = message.get("tool_calls") or []
    if not isinstance(calls, list):
        return FormCheck(name, False, f"tool_calls is {type(calls).__name__}, not a list")
    allowed = set(tool_names) if tool_names is not None else None
    problems = []
    for index, call in enumerate(calls):
        where = f"tool_calls[{index}]"
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            problems.append(f"{where}: no function object")
            continue
        if not isinstance(call.get("id"), str) or not call["id"]:
            problems.append(f"{where}: no id")
        if call.get("type") != "function":
            problems.append(f"{where}: type {call.get('type')!r}, not 'function'")
        fname = function.get("name")
        if not isinstance(fname, str) or not fname:
            problems.append(f"{where}: no function name")
        elif allowed is not None and fname not in allowed:
            problems.append(f"{where}: calls {fname!r}, which the request did not declare")
        try:
            arguments = json.loads(function.get("arguments"))
        except (TypeError, ValueError):
            problems.append(f"{where}: arguments are not JSON: {function.get('arguments')!r}")
        else:
            if not isinstance(arguments, dict):
                problems.append(f"{where}: arguments are {type(arguments).__name__}, not a JSON object")
    if calls and finish != "tool_calls":
        problems.append(f"finish_reason {finish!r} with {len(calls)} tool call(s), expected 'tool_calls'")
    if not calls and require_call:
        problems.append("no tool call although the request required one")
    if problems:
        return FormCheck(name, False, "; ".join(problems))
    return FormCheck(name, True, f"{len(calls)} parsed tool call(s)" if calls else "no tool call made (allowed)")


def check_reasoning(  # noqa: PLR0911 - one return per place reasoning can land
    response: dict[str, Any], *, markers: Iterable[str] = (), require_reasoning: bool = False,
) -> FormCheck:
    """Reasoning arrived in ``reasoning`` (or the deprecated ``reasoning_content``), none left in content."""
    name = "reasoning"
    try:
        message, _unused = _message(response)
    except ValueError as err:
        return FormCheck(name, False, str(err))
    markers = tuple(markers)
    left = _markup_found(message.get("content"), markers, ())
    if left:
        return FormCheck(name, False, f"reasoning markup left in content ({left!r}): the reasoning parser did not "
                                      "run; check --reasoning-parser")
    field = "reasoning" if message.get("reasoning") is not None else "reasoning_content"
    reasoning = message.get(field)
    if reasoning is not None and not isinstance(reasoning, str):
        return FormCheck(name, False, f"{field} is {type(reasoning).__name__}, not a string")
    inside = _markup_found(reasoning, markers, ())
    if inside:
        return FormCheck(name, False, f"markup inside {field} ({inside!r}): the reasoning was split at the wrong "
                                      "place")
    if not reasoning:
        if require_reasoning:
            return FormCheck(name, False, "no reasoning returned although the model reasons by default; the "
                                          "reasoning parser is missing or thinking was turned off")
        return FormCheck(name, True, "no reasoning returned (allowed)")
    alias = " (deprecated alias reasoning_content)" if field == "reasoning_content" else ""
    return FormCheck(name, True, f"{len(reasoning)} characters of reasoning in {field}{alias}")


def check_structured_output(response: dict[str, Any], schema: dict[str, Any]) -> FormCheck:
    name = "structured_output"
    try:
        message, _unused = _message(response)
    except ValueError as err:
        return FormCheck(name, False, str(err))
    try:
        value = json.loads(message.get("content") or "")
    except ValueError as err:  # strict: a raw control character inside a string is not JSON either
        return FormCheck(name, False, f"content is not JSON ({err}): {str(message.get('content'))[:80]!r}")
    errors = validate(value, schema)
    if errors:
        return FormCheck(name, False, "; ".join(errors[:5]))
    return FormCheck(name, True, "content validates against the request's schema")


def check_image_usage(text_response: dict[str, Any], image_response: dict[str, Any], *, image_tokens: int,
                      placeholder_slack: int = 32) -> FormCheck:
    """The image request's prompt grew by the image's tokens (computed from the model's files)."""
    try:
        text_prompt = int(text_response["usage"]["prompt_tokens"])
        image_prompt = int(image_response["usage"]["prompt_tokens"])
    except (KeyError, TypeError, ValueError):
        return FormCheck("image_usage", False, "usage.prompt_tokens missing from a response")
    return check_image_share(image_prompt, text_prompt, image_tokens=image_tokens, placeholder_slack=placeholder_slack)


def check_image_share(image_prompt: Any, text_prompt: int, *, image_tokens: int,
                      placeholder_slack: int = 32) -> FormCheck:
    """A prompt with an image counts the same text's ``text_prompt`` tokens plus the image's computed tokens
    (plus at most ``placeholder_slack`` tokens of placeholder text)."""
    name = "image_usage"
    if not isinstance(image_prompt, int):
        return FormCheck(name, False, "usage.prompt_tokens missing from the image request's response")
    grew = image_prompt - text_prompt
    if grew < image_tokens:
        return FormCheck(name, False, f"prompt grew by {grew} tokens with the image, fewer than its computed "
                                      f"{image_tokens}: the image was dropped or counted short")
    if grew > image_tokens + placeholder_slack:
        return FormCheck(name, False, f"prompt grew by {grew} tokens, more than the image's computed {image_tokens} "
                                      f"+ {placeholder_slack}: the image budget in the plan is wrong")
    return FormCheck(name, True, f"prompt grew by {grew} tokens for an image of {image_tokens} computed tokens")


# ---------------------------------------------------------------------------------------------
# The JSON Schema subset the acceptance's bounded schemas use.

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
SUPPORTED_KEYWORDS = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "enum", "const", "minLength",
    "maxLength", "minimum", "maximum", "minItems", "maxItems", "title", "description",
})


def validate(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:  # noqa: C901, PLR0912 - one branch per JSON Schema keyword
    """Errors of ``value`` against ``schema`` (JSON Schema subset: see SUPPORTED_KEYWORDS)."""
    unknown = set(schema) - SUPPORTED_KEYWORDS
    if unknown:
        raise ValueError(f"{path}: schema keywords {sorted(unknown)} are outside the supported subset")
    expected = schema.get("type")
    if expected is not None:
        types = expected if isinstance(expected, list) else [expected]
        if not any(_TYPES[t](value) for t in types):
            return [f"{path}: {type(value).__name__} is not {expected}"]
    errors: list[str] = []
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} is not one of {schema['enum']}")
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: {value!r} is not {schema['const']!r}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            errors.append(f"{path}: shorter than {schema['minLength']}")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            errors.append(f"{path}: longer than {schema['maxLength']}")
    if _TYPES["number"](value):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: {value} < minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: {value} > maximum {schema['maximum']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            errors.append(f"{path}: more than {schema['maxItems']} items")
        if isinstance(schema.get("items"), dict):
            for index, item in enumerate(value):
                errors += validate(item, schema["items"], f"{path}[{index}]")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        errors += [f"{path}: missing required {key!r}" for key in schema.get("required", ()) if key not in value]
        for key, item in value.items():
            if key in properties:
                errors += validate(item, properties[key], f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                errors.append(f"{path}: unexpected property {key!r}")
            elif isinstance(schema.get("additionalProperties"), dict):
                errors += validate(item, schema["additionalProperties"], f"{path}.{key}")
    return errors
