"""The acceptance checks of the model's forms: images, tool calls, reasoning, structured output (pure).

What to check comes from the plan: the model's forms with their evidence (``plan["model_forms"]``,
written by the planner from the model's files), the input forms the inventory declares, and the argv
the release serves (``serve_args``: parsers, ``--limit-mm-per-prompt``, ``--language-model-only``).
Each check runs, or is skipped with its reason; never silently:

- a form the model lacks is skipped, naming the evidence (no ``vision_config``, no tool-call markup);
- a form neither declared nor served is skipped, naming the flag that turns it off;
- a declared form always runs, so a release that cannot serve it fails that check by name
  (``--language-model-only`` on a model whose users send images fails ``image_input``);
- a form served but not declared runs too, and the results note it.

The requests are built here and judged here (``form_checks.py`` holds the response checks proven on
recorded K2/K3 responses); ``io/acceptance_client.py`` sends them.
"""

from __future__ import annotations

import base64
import json
import struct
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import form_checks
from .acceptance_checks import Exchange, Outcome
from .argv import split_argv
from .model_forms import (
    FORM_IMAGE,
    FORM_TEXT,
    FORM_TOOLS,
    REASONING_MARKUPS,
    TOOL_CALL_MARKUPS,
    ImageBudget,
    compare_forms,
)

FORM_CHECKS = ("image_input", "image_over_limit", "image_corrupt", "image_url_refused", "image_long_input",
               "tools_call", "tools_bad_schema", "reasoning_split", "structured_output")
# Checks that prove something only once image_input passed (a server that takes no image refuses them all).
AFTER_IMAGE_INPUT = ("image_over_limit", "image_corrupt", "image_url_refused", "image_long_input")
# The input form each check proves (served when its check passed).
CHECK_FORM = {"image_input": FORM_IMAGE, "tools_call": FORM_TOOLS}

TEST_IMAGE_SIZE = (64, 64)
WEATHER_TOOL = {"type": "function", "function": {
    "name": "get_weather", "description": "Current weather of a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
# A top-level enum: the guided answer is exactly "yes" or "no". An object leaves whitespace slots that the
# grammar lets a model fill up to max_tokens (seen live on the tiny model: 25 lines of it, no closing brace), and
# vLLM 0.32 takes disable_any_whitespace only as a server setting (--structured-outputs-config), not per request.
ANSWER_SCHEMA = {"enum": ["yes", "no"]}
STRUCTURED_MAX_TOKENS = 16
FORMS_MAX_TOKENS = 16
# An image URL host no release allows (RFC 2606 reserves .example: it never resolves, should vLLM try).
NOT_ALLOWED_IMAGE_HOST = "kimi-acceptance-not-allowed.example"


def png_bytes(width: int, height: int) -> bytes:
    """A deterministic RGB PNG (a gradient), written without an imaging library."""
    def row(y: int) -> bytes:
        pixels = (((x * 7 + y * 3) % 256, (x * 5) % 256, (y * 11) % 256) for x in range(width))
        return b"\x00" + bytes(v for pixel in pixels for v in pixel)

    rows = b"".join(row(y) for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + \
        chunk(b"IEND", b"")


def data_url(payload: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(payload).decode('ascii')}"


def _flag(argv: Sequence[str], flag: str) -> str | None:
    """The value of the last ``flag`` in ``argv`` (vLLM's parser: the last one wins), '' for a bare flag."""
    value = None
    for i, arg in enumerate(argv):
        if arg == flag:
            value = argv[i + 1] if i + 1 < len(argv) and not argv[i + 1].startswith("--") else ""
        elif arg.startswith(flag + "="):
            value = arg.split("=", 1)[1]
    return value


def _flag_values(argv: Sequence[str], flag: str) -> tuple[str, ...] | None:
    """The values of the last ``flag`` that takes several (argv.MULTI_VALUE_FLAGS); None when absent."""
    items, _unused = split_argv(argv)
    name = flag.lstrip("-").replace("-", "_")
    values = [value for item, value, _tokens in items if item == name]
    return tuple(str(v) for v in values[-1]) if values else None


def _markup(markups: Sequence[Any], parser: str | None) -> Any:
    return next((m for m in markups if m.parser == parser), None)


@dataclass(frozen=True)
class FormsUnderTest:
    """What the acceptance checks of a release's forms, read from its plan."""

    declared: frozenset[str] | None  # the inventory's input forms; None: not declared
    vision: bool
    vision_evidence: str
    image: ImageBudget | None
    image_problem: str | None
    image_modality: str
    image_limit: int | None  # --limit-mm-per-prompt for the image modality; None: vLLM's default
    vision_off: bool  # --language-model-only
    tool_parser: str | None  # the model's markup; None: it emits no tool calls
    tool_evidence: str
    tools_served: bool  # --enable-auto-tool-choice --tool-call-parser in the argv
    reasoning_parser: str | None
    reasoning_evidence: str
    reasoning_served: bool
    tool_parser_served: str | None = None  # the parser names in the argv (a wrong one fails its check)
    reasoning_parser_served: str | None = None
    media_domains: tuple[str, ...] | None = None  # --allowed-media-domains; None: vLLM fetches from any host

    @classmethod
    def from_plan(cls, plan: Mapping[str, Any] | None,
                  input_forms: Sequence[str] | None = None) -> FormsUnderTest | None:
        """None when the plan carries no forms (written before the planner recorded them)."""
        record = (plan or {}).get("model_forms")
        if not isinstance(record, Mapping):
            return None
        argv = [str(a) for a in (plan or {}).get("serve_args") or ()]
        declared = input_forms if input_forms is not None else record.get("declared_input_forms")
        vision = record.get("vision") or {}
        image_record = vision.get("image")
        modality = (image_record or {}).get("modality") or "image"
        try:
            limit = json.loads(_flag(argv, "--limit-mm-per-prompt") or "{}").get(modality)
        except (ValueError, AttributeError):
            limit = None  # a limit written some other way: the over-limit check says it has none to go over
        tools, reasoning = record.get("tool_calls") or {}, record.get("reasoning") or {}
        return cls(
            declared=frozenset(declared) if declared is not None else None,
            vision=bool(vision.get("present")), vision_evidence=str(vision.get("evidence") or ""),
            image=ImageBudget.from_record(image_record) if image_record else None,
            image_problem=vision.get("problem"), image_modality=modality,
            image_limit=int(limit) if limit is not None else None,
            vision_off=_flag(argv, "--language-model-only") is not None,
            tool_parser=tools.get("parser"), tool_evidence=str(tools.get("evidence") or ""),
            tools_served=_flag(argv, "--tool-call-parser") is not None and
            _flag(argv, "--enable-auto-tool-choice") is not None,
            reasoning_parser=reasoning.get("parser"), reasoning_evidence=str(reasoning.get("evidence") or ""),
            reasoning_served=_flag(argv, "--reasoning-parser") is not None,
            tool_parser_served=_flag(argv, "--tool-call-parser"),
            reasoning_parser_served=_flag(argv, "--reasoning-parser"),
            media_domains=_flag_values(argv, "--allowed-media-domains"),
        )

    def parser_mismatch(self, kind: str) -> str | None:
        """A served parser that is not the one the model's markup needs (the answer would be left unparsed)."""
        model, served = ((self.tool_parser, self.tool_parser_served) if kind == "tool-call" else
                         (self.reasoning_parser, self.reasoning_parser_served))
        if model and served and served != model:
            return (f"the release serves --{kind}-parser {served} but the model's markup needs {model} "
                    f"({self.tool_evidence if kind == 'tool-call' else self.reasoning_evidence})")
        return None

    def declares(self, form: str) -> bool:
        return self.declared is not None and form in self.declared

    def skip_reason(self, check: str) -> str | None:  # noqa: PLR0911 - one return per reason a check does not run
        """Why ``check`` does not run for this release (None: it runs)."""
        if check.startswith("image_"):
            if not self.vision and not self.declares(FORM_IMAGE):
                return f"the model takes no images ({self.vision_evidence})"
            if self.vision_off and not self.declares(FORM_IMAGE):
                return "images are not declared (input_forms) and the release serves none (--language-model-only)"
            if check == "image_over_limit" and self.image_limit is None:
                return "no --limit-mm-per-prompt planned: the limit is vLLM's default, not the plan's"
            if check == "image_url_refused" and self.media_domains is None:
                return ("no --allowed-media-domains planned: vLLM would fetch an image URL from any host (plan "
                        "again: kimi_media_url_domains)")
            return None
        if check.startswith("tools_"):
            if self.tool_parser is None and not self.declares(FORM_TOOLS):
                return f"the model emits no tool calls ({self.tool_evidence})"
            if not self.tools_served and not self.declares(FORM_TOOLS):
                return "tools are not declared (input_forms) and the release serves no tool-call parser"
            return None
        if check == "reasoning_split" and self.reasoning_parser is None:
            return f"the model emits no reasoning markup ({self.reasoning_evidence})"
        return None

    @property
    def thinking_off(self) -> dict[str, Any]:
        """Request fields that turn thinking off where a reasoning parser runs: guided decoding and a forced
        call wait for the end of reasoning otherwise (docs/multimodal-trial.md, run 4)."""
        return {"chat_template_kwargs": {"thinking": False}} if self.reasoning_served else {}

    def refused_image_url(self) -> str:
        """An image URL on a host the release does not allow: vLLM refuses it before fetching."""
        host = NOT_ALLOWED_IMAGE_HOST
        while host in (self.media_domains or ()):
            host = "not-" + host
        return f"http://{host}/kimi-acceptance.png"

    def test_image_tokens(self) -> int:
        if self.image is None:
            raise ValueError(f"the per-image tokens are unknown: {self.image_problem or self.vision_evidence}")
        return self.image.tokens_for_image(*TEST_IMAGE_SIZE)

    def gap(self, results: Mapping[str, Any]) -> dict[str, Any]:
        """Declared against served (served: the form's check passed); ``extra`` is noted, ``missing`` failed."""
        served = {FORM_TEXT} | {form for check, form in CHECK_FORM.items()
                                if getattr(results.get(check), "status", None) == "passed"}
        declared = self.declared if self.declared is not None else frozenset()
        gap = compare_forms(frozenset(served), declared | {FORM_TEXT})
        return {"declared": sorted(self.declared) if self.declared is not None else None, "served": sorted(served),
                "missing": sorted(gap.missing), "extra": sorted(gap.extra) if self.declared is not None else [],
                "messages": gap.messages() if self.declared is not None else []}


# ------------------------------------------------------------------------------------------ requests


def image_message(text: str, images: Sequence[str]) -> dict[str, Any]:
    parts: list[dict[str, Any]] = [{"type": "image_url", "image_url": {"url": url}} for url in images]
    return {"role": "user", "content": [*parts, {"type": "text", "text": text}]}


def chat_body(model: str, messages: list[dict[str, Any]], max_tokens: int = FORMS_MAX_TOKENS,
              **extra: Any) -> dict[str, Any]:
    return {"model": model, "messages": messages, "max_tokens": max_tokens, "temperature": 0, **extra}


IMAGE_PROMPT = "Describe the picture in one word."


def text_baseline_body(model: str) -> dict[str, Any]:
    """The image request without its image: the same prompt as parts, so only the image differs."""
    return chat_body(model, [image_message(IMAGE_PROMPT, [])], max_tokens=1)


def image_body(model: str, count: int = 1, payload: bytes | None = None) -> dict[str, Any]:
    url = data_url(payload if payload is not None else png_bytes(*TEST_IMAGE_SIZE))
    return chat_body(model, [image_message(IMAGE_PROMPT, [url] * count)], max_tokens=1)


def image_url_body(model: str, url: str) -> dict[str, Any]:
    return chat_body(model, [image_message(IMAGE_PROMPT, [url])], max_tokens=1)


def long_image_body(model: str, text: str, image: str, max_tokens: int) -> dict[str, Any]:
    """One image and ``text`` sized to the long-input target; all ``max_tokens`` generated (ignore_eos), so the
    sequence reaches max_model_len as in the text long-input check."""
    return chat_body(model, [image_message(text, [image])], max_tokens=max_tokens, ignore_eos=True)


def tools_body(model: str, *, bad_schema: bool = False) -> dict[str, Any]:
    tool = WEATHER_TOOL
    if bad_schema:
        tool = {"type": "function", "function": {**WEATHER_TOOL["function"], "parameters": "not a schema"}}
    return chat_body(model, [{"role": "user", "content": "What is the weather in Paris?"}], tools=[tool],
                     tool_choice="auto")


def reasoning_body(model: str) -> dict[str, Any]:
    return chat_body(model, [{"role": "user", "content": "Is seven a prime number? Think, then answer."}])


def structured_body(model: str, forms: FormsUnderTest) -> dict[str, Any]:
    return chat_body(model, [{"role": "user", "content": "Is the sky blue? Answer yes or no."}],
                     max_tokens=STRUCTURED_MAX_TOKENS,
                     structured_outputs={"json": ANSWER_SCHEMA},
                     **forms.thinking_off)


# ------------------------------------------------------------------------------------------ verdicts


def _observed(*exchanges: Exchange, **more: Any) -> dict[str, Any]:
    return {"elapsed_ms": round(sum(ex.elapsed_s for ex in exchanges) * 1000, 2), **more}


def _ok_json(ex: Exchange, what: str) -> dict[str, Any]:
    """The 200 answer's JSON, or a failure naming what was refused."""
    data = ex.json()
    if ex.status != 200 or not isinstance(data, dict):
        env = ex.envelope()
        raise _Refused(f"{what} answered {ex.status or ex.error}: {env.message if env else ex.response[:200]}")
    return data


class _Refused(Exception):
    pass


def image_outcome(forms: FormsUnderTest, text_ex: Exchange, image_ex: Exchange) -> Outcome:
    """The image request answered 200 and its prompt grew by the image's computed tokens."""
    tokens = forms.test_image_tokens()
    observed = _observed(image_ex, image_tokens_computed=tokens, image_size=list(TEST_IMAGE_SIZE))
    try:
        text, image = _ok_json(text_ex, "the text-only baseline"), _ok_json(image_ex, "a base64 PNG request")
    except _Refused as err:
        hint = " (the release serves no images: --language-model-only?)" if forms.vision_off else ""
        return Outcome(False, f"{err}{hint}", observed, image_ex)
    verdict = form_checks.check_image_usage(text, image, image_tokens=tokens)
    observed["prompt_tokens"] = {"text": (text.get("usage") or {}).get("prompt_tokens"),
                                 "image": (image.get("usage") or {}).get("prompt_tokens")}
    return Outcome(verdict.ok, verdict.detail, observed, image_ex)


def long_image_outcome(forms: FormsUnderTest, ex: Exchange, *, target: int, text_tokens: int,
                       max_tokens: int) -> Outcome:
    """The near-limit prompt with an image: 200, ``usage.prompt_tokens`` exactly the target, of which the
    image's share (over the same text alone, ``text_tokens``) covers its computed tokens, and every requested
    token generated."""
    tokens = forms.test_image_tokens()
    observed = _observed(ex, target_prompt_tokens=target, text_tokens=text_tokens, image_tokens_computed=tokens)
    try:
        data = _ok_json(ex, f"a chat of {target} prompt tokens with one image")
    except _Refused as err:
        return Outcome(False, str(err), observed, ex)
    usage = data.get("usage") or {}
    observed["usage"] = {k: usage.get(k) for k in ("prompt_tokens", "completion_tokens")}
    verdict = form_checks.check_image_share(usage.get("prompt_tokens"), text_tokens, image_tokens=tokens)
    if usage.get("prompt_tokens") != target:
        return Outcome(False, f"usage.prompt_tokens {usage.get('prompt_tokens')}, expected {target} (text "
                              f"{text_tokens} + the image); {verdict.detail}", observed, ex)
    if not verdict.ok:
        return Outcome(False, verdict.detail, observed, ex)
    if usage.get("completion_tokens") != max_tokens:
        return Outcome(False, f"usage.completion_tokens {usage.get('completion_tokens')}, expected {max_tokens}: "
                              "the sequence did not reach max_model_len", observed, ex)
    return Outcome(True, f"{target} prompt tokens (text {text_tokens}, image {target - text_tokens} for "
                         f"{tokens} computed) + {max_tokens} generated", observed)


def refused_outcome(ex: Exchange, healthy: bool, health_ex: Exchange, what: str, statuses: range = range(400, 500)
                    ) -> Outcome:
    """``what`` must be refused with a 4xx (the client's fault), and the server must stay healthy."""
    env = ex.envelope()
    observed = _observed(ex, status=ex.status, message=env.message[:200] if env else None, healthy_after=healthy)
    if ex.status not in statuses:
        return Outcome(False, f"{what} answered {ex.status or ex.error}, expected "
                              f"{statuses.start}-{statuses.stop - 1}", observed, ex)
    if not healthy:
        return Outcome(False, f"{what} was refused ({ex.status}) but /health then answered "
                              f"{health_ex.status or health_ex.error}", observed, health_ex)
    return Outcome(True, f"{what}: {ex.status}, /health 200 afterwards", observed)


def tools_outcome(forms: FormsUnderTest, ex: Exchange) -> Outcome:
    """200, a well-formed envelope, calls parsed into ``tool_calls``, no call markup left in ``content``."""
    markup = _markup(TOOL_CALL_MARKUPS, forms.tool_parser)
    observed = _observed(ex, status=ex.status)
    try:
        data = _ok_json(ex, "a tools request (tool_choice auto)")
    except _Refused as err:
        return Outcome(False, f"{err}; serve the tool-call parser (--enable-auto-tool-choice --tool-call-parser)",
                       observed, ex)
    verdict = form_checks.check_tool_calls(data, markers=markup.markers if markup else (),
                                           residue=markup.residue if markup else (),
                                           tool_names=[WEATHER_TOOL["function"]["name"]])
    mismatch = forms.parser_mismatch("tool-call")
    if verdict.ok and mismatch:
        return Outcome(False, mismatch, observed, ex)
    return Outcome(verdict.ok, verdict.detail, observed, ex)


def reasoning_outcome(forms: FormsUnderTest, ex: Exchange) -> Outcome:
    markup = _markup(REASONING_MARKUPS, forms.reasoning_parser)
    observed = _observed(ex, status=ex.status, parser_served=forms.reasoning_served)
    try:
        data = _ok_json(ex, "a chat request")
    except _Refused as err:
        return Outcome(False, str(err), observed, ex)
    verdict = form_checks.check_reasoning(data, markers=markup.markers if markup else ())
    mismatch = forms.parser_mismatch("reasoning")
    if verdict.ok and mismatch:
        return Outcome(False, mismatch, observed, ex)
    if verdict.ok and not forms.reasoning_served:
        return Outcome(False, f"the model reasons ({forms.reasoning_evidence}) but the release serves no "
                              "--reasoning-parser: reasoning would reach clients inside content", observed, ex)
    return Outcome(verdict.ok, verdict.detail, observed, ex)


def structured_outcome(ex: Exchange) -> Outcome:
    observed = _observed(ex, status=ex.status)
    try:
        data = _ok_json(ex, "a structured_outputs request")
    except _Refused as err:
        return Outcome(False, str(err), observed, ex)
    verdict = form_checks.check_structured_output(data, ANSWER_SCHEMA)
    observed["content"] = str(((data.get("choices") or [{}])[0].get("message") or {}).get("content"))[:200]
    return Outcome(verdict.ok, verdict.detail, observed, ex)
