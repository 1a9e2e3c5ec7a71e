"""Acceptance suite logic: which checks run, what each expects, and how the numbers are judged.

"A server that answers hello is not accepted." Every release is proved against the OpenAI-compatible
API it serves before ``current`` points at it for good. This file is the pure half: check catalogue
and profiles, the abnormal inputs and the status each must get, vLLM's error envelopes, the search
that builds a prompt of exactly N tokens through the server's own ``/tokenize``, statistics, and the
memory-growth and latency-degradation tests. What each check concludes from its answers is
``core/acceptance_checks.py``; the HTTP half is ``io/acceptance_http.py`` and ``io/acceptance_load.py``,
driven by ``acceptance_client.py``.

Profiles
--------
``full`` (production) runs every check. ``quick`` (CI, demo) skips the checks listed in
``QUICK_SKIPS`` and runs the concurrency check for ``QUICK_DEFAULT_DURATION_S`` unless told
otherwise. The long-input checks (group ``long_input``: exactly ``max_model_len - max_output``
tokens accepted with matching usage, exactly ``max_model_len + 1`` rejected with 400 and the server
still healthy) are the ones that expose a KV-cache misconfiguration; no profile may skip them, and
``profile_plan`` refuses a profile that tries.

Expected answers (vLLM 0.32, read from its source and measured on the CPU build)
-----------------------------------------------------------------------------------
- prompt over the context: 400 ``{"error": {"message": "This model's maximum context length is N
  tokens. However, your prompt contains at least N+1 input tokens ...", "param": "input_tokens"}}``;
- text over ``max_model_len * max_chars_per_token`` characters (the longest token string of the
  vocabulary, 16 for the tiny test tokenizer): 400 before tokenizing, ``param: "input_text"``;
- empty messages, empty prompt, negative / over-long ``max_tokens``, out-of-vocabulary token id,
  unencodable text: 400 (``BadRequestError``);
- invalid JSON, missing or mistyped fields: 400 (vLLM maps FastAPI's 422 validation errors to 400;
  422 is accepted too, it is FastAPI's own default);
- a body that is not UTF-8: 400 with the flat ``{"detail": "There was an error parsing the body"}``;
- unknown model: 404 ``NotFoundError``; missing or wrong API key: 401 ``{"error": "Unauthorized"}``;
- control characters, mixed scripts, emoji, a very long line: 200 (the server must just cope).

Memory growth (concurrency check)
---------------------------------
Samples taken during the run are fitted with a least-squares line after dropping the first
``warmup_fraction`` (default 25 %) of the run, when caches, allocator pools and the KV blocks fill.
A series fails when its fitted growth rate exceeds the limit AND the fitted growth over the analysed
window exceeds a noise floor (so a one-off allocation of a few MiB on a short run does not reject a
release) AND that growth is more than twice the scatter of the samples around the fitted line (so
the sawtooth of KV usage, blocks filled by requests and freed when they finish, is not read as a
trend on a run only a few requests long). A series is not judged at all when the analysed window is
shorter than three median request lifetimes: until the requests in flight have finished and freed
their KV blocks a few times, filling is indistinguishable from a leak (seen in CI: a loaded host
whose requests took 5.8 s each, judged over 3.8 s, read KV usage rising 5 points a minute). KV-cache
usage is judged by the blocks it leaves instead, where the run has the samples for it
(``kv_cache_freed``): the usage once no request runs after the run, against the same before it (a leak
holds blocks with nothing running; seen in CI: a loaded host's 9 s window after warm-up, over three
request lifetimes, read KV usage rising 0.76 while the requests in flight grew, and every block was
freed at the end). The trend below remains for KV usage only when the server reports no running count:

======================  ==========================  =========================
series                  rate limit                  noise floor over window
======================  ==========================  =========================
server RSS (bytes)      1 % of its mean per minute  32 MiB
GPU memory used (NVML)  0.5 % of its mean per min.  256 MiB
KV-cache usage (0..1)   0.05 per minute (absolute)  0.05
======================  ==========================  =========================

At 1 %/min a process doubles in about 70 minutes: steady growth of that order under a constant load
is a leak, not a cache warming up. vLLM allocates its KV pool at start, so GPU memory should be flat.

Latency degradation (concurrency check)
---------------------------------------
Requests started after the warm-up are split by start time into four windows, and the median TTFT
and median time per output token (TPOT) of each window are taken. The run fails when the last
window is worse than ``max_latency_degradation`` (default 1.5) times the first plus a slack (TTFT
50 ms, TPOT 5 ms) AND the rise is steady: no window is better than the one before by more than the
slack, AND it is still rising in the second half: the last window is worse than the worst window of
the first half plus the slack. The slack keeps millisecond jitter on small models from deciding
anything; the steadiness keeps a burst of other load on the host (it rises, then falls) from
rejecting a release, which on a shared CI machine was measured at 3 to 7 times the quiet TTFT for
several seconds; the second-half rule keeps a step that happens once early and then holds (seen in CI
as 20, 151, 144, 142 ms when other jobs started on the host) from reading as a degradation. Windows
shorter than ``MIN_DEGRADATION_WINDOW_S`` (5 s) are not judged: a pause of a few hundred ms of a
2-core host moved the median of a 1.9 s window from 38 to 233 ms in CI, which says nothing about
the server. The quick profile's 20 s run is therefore reported, not judged; the full profile's
300 s run (windows of 56 s) is.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .errors import KimiDeployError

# --------------------------------------------------------------------------------------------------
# Check catalogue and profiles
# --------------------------------------------------------------------------------------------------

MANDATORY_GROUP = "long_input"


@dataclass(frozen=True)
class CheckSpec:
    name: str
    group: str
    expectation: str


def _abnormal(name: str, expectation: str) -> CheckSpec:
    return CheckSpec(f"abnormal_{name}", "abnormal_input", expectation + "; /health 200 afterwards")


CHECKS: tuple[CheckSpec, ...] = (
    CheckSpec("health", "server", "GET /health answers 200"),
    CheckSpec("models", "server", "GET /v1/models lists the served name with the planned max_model_len"),
    CheckSpec("api_key_missing", "api_key", "a request without the API key gets 401"),
    CheckSpec("api_key_wrong", "api_key", "a request with a wrong API key gets 401"),
    CheckSpec("routes_unauthenticated", "routes",
              "through the front door, every route without the key and with a wrong one: never 2xx (/metrics: "
              "only to its scrape networks); /health 200 without a key"),
    CheckSpec("short_chat", "short", "chat completion: 200, a message, usage counts"),
    CheckSpec("short_chat_stream", "short", "streamed chat: 200, tokens, usage, [DONE]; TTFT recorded"),
    CheckSpec("short_completion", "short", "completion: 200, text, usage counts"),
    CheckSpec("short_completion_stream", "short", "streamed completion: 200, tokens, usage, [DONE]"),
    CheckSpec("long_input_text", MANDATORY_GROUP,
              "text prompt of exactly max_model_len - max_output tokens: 200, usage.prompt_tokens equal, "
              "max_output tokens generated"),
    CheckSpec("long_input_token_ids", MANDATORY_GROUP,
              "token-id prompt of max_model_len - max_output tokens: 200, usage.prompt_tokens equal"),
    CheckSpec("long_input_chat", MANDATORY_GROUP,
              "chat whose templated prompt is max_model_len - max_output tokens: 200, usage equal"),
    CheckSpec("over_limit_text", MANDATORY_GROUP,
              "text prompt of max_model_len + 1 tokens: 400 naming the context length; /health 200"),
    CheckSpec("over_limit_token_ids", MANDATORY_GROUP,
              "token-id prompt of max_model_len + 1 tokens: 400 naming the context length; /health 200"),
    CheckSpec("over_limit_chat", MANDATORY_GROUP,
              "chat of max_model_len + 1 templated tokens: 400 naming the context length; /health 200"),
    _abnormal("empty_messages", "chat with messages [] gets 400"),
    _abnormal("empty_prompt", 'completion with prompt "" gets 400'),
    _abnormal("invalid_json", "a body that is not JSON gets 400"),
    _abnormal("missing_messages", "chat without messages gets 400"),
    _abnormal("missing_prompt", "completion without prompt gets 400"),
    _abnormal("wrong_type", 'max_tokens "many" gets 400'),
    _abnormal("negative_max_tokens", "max_tokens -1 gets 400"),
    _abnormal("huge_max_tokens", "max_tokens far above max_model_len gets 400"),
    _abnormal("unknown_model", "an unknown model name gets 404"),
    _abnormal("out_of_vocab_token", "a token id outside the vocabulary gets 400"),
    _abnormal("invalid_utf8", "a body that is not UTF-8 gets 400 (flat detail envelope)"),
    _abnormal("lone_surrogate", "text with an unpaired UTF-16 surrogate gets 400"),
    _abnormal("control_characters", "NUL, C0/C1 controls, ANSI escapes, zero-width and BOM: 200"),
    _abnormal("mixed_scripts", "Latin, CJK, kana, Cyrillic, Arabic, Hebrew, Devanagari in one prompt: 200"),
    _abnormal("emoji", "emoji with ZWJ sequences, skin tones and flags: 200"),
    _abnormal("very_long_line", "one line without whitespace, about half the context long: 200"),
    _abnormal("over_char_precheck", "a prompt longer than the server's character pre-check gets 400"),
    CheckSpec("image_input", "forms",
              "a base64 PNG in a chat message: 200, usage.prompt_tokens above the text-only request by the "
              "image's tokens computed from the model's processor config"),
    CheckSpec("image_over_limit", "forms", "one image more than --limit-mm-per-prompt gets 4xx; /health 200"),
    CheckSpec("image_corrupt", "forms", "a base64 image that is not an image gets 4xx; /health 200"),
    CheckSpec("image_url_refused", "forms",
              "an image URL on a host outside --allowed-media-domains gets 4xx before any fetch; /health 200"),
    CheckSpec("image_long_input", "forms",
              "one image and a text sized so the chat prompt is max_model_len - max_output tokens: 200, "
              "usage.prompt_tokens equal, the image's share covering its computed tokens, max_output generated"),
    CheckSpec("tools_call", "forms",
              "a tools request (tool_choice auto): 200, a well-formed envelope, calls parsed into tool_calls, "
              "no tool-call markup in content"),
    CheckSpec("tools_bad_schema", "forms", "a tool whose parameters are not a schema gets 400; /health 200"),
    CheckSpec("reasoning_split", "forms",
              "reasoning in message.reasoning (reasoning_content: the deprecated alias), no markup in content, "
              "and a --reasoning-parser served"),
    CheckSpec("structured_output", "forms",
              "structured_outputs with an enum-bounded JSON schema (thinking off where a reasoning parser runs): "
              "the content validates"),
    CheckSpec("concurrency", "load",
              "concurrency streams for duration_s: no errors, no steady memory growth, no latency "
              "degradation; request rate, tokens/s, TTFT and ITL percentiles recorded"),
)
CHECKS_BY_NAME: dict[str, CheckSpec] = {c.name: c for c in CHECKS}

# What quick (CI, demo) leaves out, and why. Everything else, the long input above all, runs.
# Latency-degradation windows shorter than this are reported, not judged (see the module docstring).
MIN_DEGRADATION_WINDOW_S = 5.0

QUICK_SKIPS: dict[str, str] = {
    "short_chat": "quick keeps the streamed chat, which covers the same endpoint",
    "short_completion_stream": "quick keeps the non-streamed completion, which covers the same endpoint",
    "abnormal_missing_prompt": "quick keeps abnormal_missing_messages for request validation",
    "abnormal_wrong_type": "quick keeps abnormal_missing_messages for request validation",
    "abnormal_invalid_utf8": "quick keeps abnormal_invalid_json for body parsing",
    "abnormal_lone_surrogate": "tokenizer robustness: same model and vLLM give the same answer every deploy",
    "abnormal_control_characters": "tokenizer robustness: same model and vLLM give the same answer every deploy",
    "abnormal_mixed_scripts": "tokenizer robustness: same model and vLLM give the same answer every deploy",
    "abnormal_emoji": "tokenizer robustness: same model and vLLM give the same answer every deploy",
    "abnormal_very_long_line": "tokenizer robustness: same model and vLLM give the same answer every deploy",
}

FULL_DEFAULT_DURATION_S = 300.0
QUICK_DEFAULT_DURATION_S = 20.0
PROFILES: dict[str, dict[str, Any]] = {
    "full": {"skips": {}, "default_duration_s": FULL_DEFAULT_DURATION_S},
    "quick": {"skips": QUICK_SKIPS, "default_duration_s": QUICK_DEFAULT_DURATION_S},
}


def profile_plan(profile: str,
                 profiles: Mapping[str, Mapping[str, Any]] | None = None) -> list[tuple[CheckSpec, str | None]]:
    """Every check in run order with the reason it is skipped (None when it runs).

    Raises when the profile is unknown or would skip a check of the mandatory long-input group.
    """
    profiles = PROFILES if profiles is None else profiles
    if profile not in profiles:
        raise KimiDeployError(f"unknown acceptance profile {profile!r}: use one of {sorted(profiles)}")
    skips = profiles[profile]["skips"]
    unknown = sorted(set(skips) - set(CHECKS_BY_NAME))
    if unknown:
        raise KimiDeployError(f"profile {profile!r} skips unknown checks {unknown}: use names from CHECKS")
    forbidden = sorted(n for n in skips if CHECKS_BY_NAME[n].group == MANDATORY_GROUP)
    if forbidden:
        raise KimiDeployError(
            f"profile {profile!r} may not skip {forbidden}: the long-input checks run in every profile, "
            "they are the ones that expose a KV-cache misconfiguration")
    return [(spec, skips.get(spec.name)) for spec in CHECKS]


# --------------------------------------------------------------------------------------------------
# Configuration
# --------------------------------------------------------------------------------------------------

# Slack added to the degradation ratio so that millisecond jitter on small models decides nothing.
TTFT_SLACK_S = 0.050
TPOT_SLACK_S = 0.005


@dataclass
class AcceptanceConfig:
    served_model_name: str
    max_model_len: int
    max_output_tokens: int
    concurrency: int
    base_url: str = "http://127.0.0.1:8000"
    api_key: str = ""
    expect_api_key: bool = True
    profile: str = "full"
    duration_s: float | None = None
    request_timeout_s: float = 600.0
    sample_interval_s: float = 2.0
    load_input_tokens: int = 512
    load_output_tokens: int = 128
    short_output_tokens: int = 16
    warmup_fraction: float = 0.25
    max_memory_growth_per_min: float = 0.01
    max_latency_degradation: float = 1.5
    server_pid: int | None = None
    # The plan the release serves (its model_forms and serve_args decide the form checks) and the declared
    # input forms (None: the plan's declared_input_forms).
    plan: dict[str, Any] | None = None
    input_forms: list[str] | None = None
    # The front door (kimi_frontdoor) the routes group probes; empty: none on this replica, the group is
    # skipped. entry_ca_file: the CA of its certificate (empty: not verified; the probes carry no key).
    # entry_routes: the paths probed (None: acceptance_routes.DEFAULT_ROUTES). entry_metrics_networks: where
    # the entry's /metrics is open without a key (kimi_frontdoor_scrape_networks).
    entry_url: str = ""
    entry_ca_file: str = ""
    entry_routes: list[str] | None = None
    entry_metrics_networks: list[str] = field(default_factory=list)

    def validate(self) -> None:
        if not self.served_model_name:
            raise KimiDeployError("served_model_name is empty: give the name the server serves (--served-model-name)")
        if self.max_model_len < 2:
            raise KimiDeployError(f"max_model_len={self.max_model_len} is too small: give the plan's max_model_len")
        if not 1 <= self.max_output_tokens < self.max_model_len:
            raise KimiDeployError(
                f"max_output_tokens={self.max_output_tokens} must be at least 1 and below max_model_len="
                f"{self.max_model_len}: the long-input check sends max_model_len - max_output_tokens prompt tokens")
        if self.concurrency < 1:
            raise KimiDeployError(f"concurrency={self.concurrency} must be at least 1: use the plan's max_num_seqs")
        if self.expect_api_key and not self.api_key:
            raise KimiDeployError(
                "expect_api_key is true but api_key is empty: pass the deploy's API key, or set expect_api_key "
                "false for a server started without --api-key")
        if self.duration_s is not None and self.duration_s <= 0:
            raise KimiDeployError(f"duration_s={self.duration_s} must be positive")
        if not 0 <= self.warmup_fraction < 0.9:
            raise KimiDeployError(f"warmup_fraction={self.warmup_fraction} must be in [0, 0.9)")
        if self.max_latency_degradation < 1:
            raise KimiDeployError(f"max_latency_degradation={self.max_latency_degradation} must be at least 1")
        if self.sample_interval_s <= 0 or self.request_timeout_s <= 0:
            raise KimiDeployError("sample_interval_s and request_timeout_s must be positive")
        if self.load_input_tokens < 1 or self.load_output_tokens < 1 or self.short_output_tokens < 1:
            raise KimiDeployError("load_input_tokens, load_output_tokens and short_output_tokens must be at least 1")
        if self.entry_url and not self.entry_url.startswith(("http://", "https://")):
            raise KimiDeployError(f"entry_url {self.entry_url!r} is not an http(s) URL: give the front door's URL, "
                                  "e.g. https://127.0.0.1:8443")
        profile_plan(self.profile)

    @property
    def long_input_tokens(self) -> int:
        return self.max_model_len - self.max_output_tokens

    @property
    def effective_duration_s(self) -> float:
        if self.duration_s is not None:
            return float(self.duration_s)
        return float(PROFILES[self.profile]["default_duration_s"])

    def load_shape(self, template_overhead: int = 0) -> tuple[int, int]:
        """(prompt tokens, output tokens) of each concurrency request, fitted inside max_model_len."""
        output = max(1, min(self.load_output_tokens, self.max_output_tokens))
        room = self.max_model_len - output - template_overhead - 8  # 8: the per-request tag
        return max(1, min(self.load_input_tokens, room)), output


# --------------------------------------------------------------------------------------------------
# Error envelopes
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ErrorEnvelope:
    """One error answer, whatever shape it came in."""

    message: str
    type: str | None = None
    param: str | None = None
    code: int | None = None
    shape: str = "nested"  # nested | flat | detail | string | text


def parse_error_envelope(  # noqa: PLR0911 - one return per error shape vLLM has used, in the docstring's order
        body: str | bytes | Mapping[str, Any] | None) -> ErrorEnvelope | None:
    """Read the error shapes vLLM has used.

    - nested (vLLM >= 0.10): ``{"error": {"message", "type", "param", "code"}}``
    - flat (older vLLM): ``{"object": "error", "message", "type", "param", "code"}``
    - FastAPI: ``{"detail": "text"}`` or ``{"detail": [{"loc", "msg", "type"}, ...]}``
    - the auth middleware: ``{"error": "Unauthorized"}``
    - anything else that is not JSON: its text (a proxy's HTML page, say)
    Returns None for an empty body or JSON that is not an error.
    """
    if body is None:
        return None
    data: Any = body
    if isinstance(body, (bytes, str)):
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
        if not text.strip():
            return None
        try:
            data = json.loads(text)
        except ValueError:
            return ErrorEnvelope(message=text.strip()[:2000], shape="text")
    if not isinstance(data, Mapping):
        return None
    err = data.get("error")
    if isinstance(err, Mapping):
        return ErrorEnvelope(str(err.get("message", "")), _opt_str(err.get("type")), _opt_str(err.get("param")),
                             _opt_int(err.get("code")), "nested")
    if isinstance(err, str):
        return ErrorEnvelope(err, shape="string")
    if "message" in data and (data.get("object") == "error" or "type" in data or "code" in data):
        return ErrorEnvelope(str(data["message"]), _opt_str(data.get("type")), _opt_str(data.get("param")),
                             _opt_int(data.get("code")), "flat")
    if "detail" in data:
        return ErrorEnvelope(_detail_message(data["detail"]), shape="detail")
    return None


def _detail_message(detail: Any) -> str:
    """FastAPI's ``detail``: a text, or a list of validation errors as ``loc: msg`` joined by '; '."""
    if not isinstance(detail, list):
        return str(detail)
    parts = []
    for item in detail:
        if isinstance(item, Mapping):
            loc = ".".join(str(p) for p in item.get("loc", ()))
            parts.append(f"{loc}: {item.get('msg', '')}" if loc else str(item.get("msg", "")))
        else:
            parts.append(str(item))
    return "; ".join(parts)


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _opt_int(value: Any) -> int | None:
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None


_CONTEXT_LIMIT_WORDS = ("maximum context length", "context length", "too long", "exceeds")


def names_context_limit(envelope: ErrorEnvelope | None) -> bool:
    """Whether an error says the prompt is over the context, in any wording vLLM has used."""
    if envelope is None:
        return False
    if envelope.param in ("input_tokens", "input_text", "prompt"):
        return True
    message = envelope.message.lower()
    return any(word in message for word in _CONTEXT_LIMIT_WORDS)


# --------------------------------------------------------------------------------------------------
# Abnormal inputs
# --------------------------------------------------------------------------------------------------

VALIDATION_STATUSES = frozenset({400, 422})

CONTROL_TEXT = "tab\there nul\x00 bell\x07 esc\x1b[31mred\x1b[0m del\x7f c1\x85\x9f zw\u200b\u200d bom\ufeff end"
MIXED_SCRIPTS_TEXT = ("hello 你好 世界 こんにちは カタカナ Привет мир مرحبا بالعالم שלום नमस्ते "
                      # Greek written as escapes: ruff (RUF001) flags its letters as look-alikes.
                      "\u0393\u03b5\u03b9\u03ac \u03c3\u03bf\u03c5 안녕하세요 ñandú Straße")
EMOJI_TEXT = "🙂🚀 family 👨\u200d👩\u200d👧\u200d👦 thumbs 👍🏽 flag 🏳️\u200d🌈 🇨🇳🇯🇵 keycap 1️⃣"


@dataclass(frozen=True)
class AbnormalCase:
    name: str
    path: str
    expected_status: frozenset[int]
    json_body: Any = None
    raw_body: bytes | None = None
    expect_usage: bool = False  # a 200 case must answer with usage counts

    @property
    def check_name(self) -> str:
        return f"abnormal_{self.name}"


def abnormal_cases(model: str, max_model_len: int) -> list[AbnormalCase]:
    """The abnormal requests, each with the status a correct server gives (see module docstring)."""
    chat, comp = "/v1/chat/completions", "/v1/completions"

    def msg(content: str) -> dict[str, Any]:
        return {"model": model, "messages": [{"role": "user", "content": content}], "max_tokens": 4}

    long_line_chars = max(16, max_model_len // 2)
    long_line = ("0123456789abcdef" * (long_line_chars // 16 + 1))[:long_line_chars]
    return [
        AbnormalCase("empty_messages", chat, frozenset({400}), {"model": model, "messages": [], "max_tokens": 4}),
        AbnormalCase("empty_prompt", comp, frozenset({400}), {"model": model, "prompt": "", "max_tokens": 4}),
        AbnormalCase("invalid_json", chat, VALIDATION_STATUSES,
                     raw_body=b'{"model": "' + model.encode() + b'", "messages": [{"role": "user", "content": '),
        AbnormalCase("missing_messages", chat, VALIDATION_STATUSES, {"model": model, "max_tokens": 4}),
        AbnormalCase("missing_prompt", comp, VALIDATION_STATUSES, {"model": model, "max_tokens": 4}),
        AbnormalCase("wrong_type", comp, VALIDATION_STATUSES, {"model": model, "prompt": "hi", "max_tokens": "many"}),
        AbnormalCase("negative_max_tokens", comp, frozenset({400}), {"model": model, "prompt": "hi", "max_tokens": -1}),
        AbnormalCase("huge_max_tokens", chat, frozenset({400}),
                     {**msg("hi"), "max_tokens": max_model_len * 1000 + 1}),
        AbnormalCase("unknown_model", chat, frozenset({404}), msg("hi") | {"model": model + "-does-not-exist"}),
        AbnormalCase("out_of_vocab_token", comp, frozenset({400}),
                     {"model": model, "prompt": [2**31 - 1, 1], "max_tokens": 4}),
        AbnormalCase("invalid_utf8", comp, VALIDATION_STATUSES,
                     raw_body=b'{"model": "' + model.encode() + b'", "prompt": "\xff\xfe\xfd", "max_tokens": 4}'),
        AbnormalCase("lone_surrogate", chat, frozenset({400}),
                     raw_body=json.dumps(msg("x")).replace('"x"', '"\\ud800x"').encode()),
        AbnormalCase("control_characters", chat, frozenset({200}), msg(CONTROL_TEXT), expect_usage=True),
        AbnormalCase("mixed_scripts", chat, frozenset({200}), msg(MIXED_SCRIPTS_TEXT), expect_usage=True),
        AbnormalCase("emoji", chat, frozenset({200}), msg(EMOJI_TEXT), expect_usage=True),
        AbnormalCase("very_long_line", comp, frozenset({200}),
                     {"model": model, "prompt": long_line, "max_tokens": 4}, expect_usage=True),
    ]


# The character pre-check rejects text longer than max_model_len * (longest token string in the
# vocabulary). The client cannot read that length, so it starts at 16 characters per token and doubles
# while the server still answers with the token-count error, up to this many characters per token.
PRECHECK_START_CHARS_PER_TOKEN = 16
PRECHECK_MAX_BODY_CHARS = 64 * 1024 * 1024


def over_precheck_lengths(max_model_len: int) -> list[int]:
    """Prompt lengths (characters) to try, shortest first, for the character pre-check case."""
    lengths = []
    per_token = PRECHECK_START_CHARS_PER_TOKEN
    while True:
        chars = max_model_len * per_token + 1
        if chars > PRECHECK_MAX_BODY_CHARS and lengths:
            break
        lengths.append(chars)
        per_token *= 2
        if per_token > 256:
            break
    return lengths


# --------------------------------------------------------------------------------------------------
# Prompts of an exact token count
# --------------------------------------------------------------------------------------------------

FILLER_WORDS = (
    "the model serves tokens from weights on every node and the operator checks memory context "
    "concurrency before traffic a release is accepted only after long input and bad input tests "
    "hello world question answer please reduce length request response error health metrics "
    "zero one two three four five six seven eight nine ten hundred thousand million"
).split()
# Appended one at a time to close the last gap of one or two tokens once whole words overshoot.
TAIL_PIECES = (" a", " 1", ".", ",", " x", "!", " 7", "?", ";", " -")


def filler_text(words: int, offset: int = 0) -> str:
    """``words`` filler words, space separated; ``offset`` rotates the start so prompts differ."""
    n = len(FILLER_WORDS)
    return " ".join(FILLER_WORDS[(offset + i) % n] for i in range(words))


def exact_token_prompt(target: int, *, max_probes: int = 96) -> Generator[str, int, str]:
    """Search for a text whose token count, as the server counts it, is exactly ``target``.

    A generator so that the HTTP side stays outside (sans-IO): it yields a candidate text, the caller
    sends back the count ``/tokenize`` gave for it, and the generator returns the text (StopIteration
    value). Counting includes whatever the server adds (BOS, the chat template), because the caller
    counts exactly what it will send. The number of filler words is bracketed and narrowed by
    interpolation and bisection (the count grows with the words), then short tail pieces close the
    last gap, since one word can be worth two or three tokens.
    """
    if target < 0:
        raise KimiDeployError(f"cannot build a prompt of {target} tokens")
    probes = _ProbeBudget(target, max_probes)
    base = yield ""
    probes.used += 1
    if base == target:
        return ""
    if base > target:
        raise KimiDeployError(
            f"an empty prompt already counts {base} tokens (special tokens or chat template), more than the "
            f"{target} asked for")
    lo_k, lo_c = 0, base
    hi_k: int | None = None
    hi_c = 0
    step = 0
    while hi_k is None or hi_k - lo_k > 1:
        probes.check()
        k = _next_word_count(target, base, (lo_k, lo_c), None if hi_k is None else (hi_k, hi_c),
                             interpolate=step % 2 == 0)
        step += 1
        count = yield filler_text(k)
        probes.used += 1
        if count == target:
            return filler_text(k)
        if count < target:
            lo_k, lo_c = k, count
        else:
            hi_k, hi_c = k, count
    return (yield from _close_last_gap(filler_text(lo_k), lo_c, target, probes))


class _ProbeBudget:
    """/tokenize calls made by one search, and the refusal once they pass the limit."""

    def __init__(self, target: int, max_probes: int) -> None:
        self.target, self.max_probes, self.used = target, max_probes, 0

    def check(self) -> None:
        if self.used > self.max_probes:
            raise KimiDeployError(
                f"no text of exactly {self.target} tokens after {self.max_probes} /tokenize calls: the tokenizer "
                "counts the filler words erratically; report the model's tokenizer")


def _close_last_gap(text: str, count: int, target: int, probes: _ProbeBudget) -> Generator[str, int, str]:
    """Append tail pieces to ``text`` (``count`` tokens, below ``target``) until it counts exactly ``target``."""
    while count < target:
        for piece in TAIL_PIECES:
            probes.check()
            candidate = text + piece
            got = yield candidate
            probes.used += 1
            if got == target:
                return candidate
            if count < got < target:
                text, count = candidate, got
                break
        else:
            raise KimiDeployError(
                f"could not close the last {target - count} token(s) to reach exactly {target} tokens: every "
                "tail piece overshoots; report the model's tokenizer")
    return text


def _next_word_count(target: int, base: int, low: tuple[int, int], high: tuple[int, int] | None, *,
                     interpolate: bool) -> int:
    """The next number of filler words to try, from the (words, tokens) known below and above ``target``.

    No upper bracket yet: extrapolate at the rate seen so far, one word past it. Then interpolation and
    bisection alternate, so an erratic tokenizer cannot stall the interpolation.
    """
    lo_k, lo_c = low
    if high is None:
        rate = (lo_c - base) / lo_k if lo_k else 1.0
        return lo_k + max(1, math.ceil((target - lo_c) / max(rate, 0.25))) + 1
    hi_k, hi_c = high
    if interpolate and hi_c > lo_c:
        k = lo_k + (target - lo_c) * (hi_k - lo_k) // (hi_c - lo_c)
        return min(max(k, lo_k + 1), hi_k - 1)
    return (lo_k + hi_k) // 2


def token_id_prompt(seed_ids: Sequence[int], n: int) -> list[int]:
    """A prompt of exactly ``n`` token ids, cycling through ``seed_ids`` (ids of ordinary text)."""
    if n < 0:
        raise KimiDeployError(f"cannot build a token-id prompt of {n} tokens")
    if not seed_ids:
        raise KimiDeployError("no seed token ids to build a token-id prompt from: /tokenize returned none")
    return [int(seed_ids[i % len(seed_ids)]) for i in range(n)]


# --------------------------------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------------------------------


def percentile(values: Iterable[float], q: float) -> float | None:
    """The q-th percentile (0..100) with linear interpolation between closest ranks (Hyndman-Fan 7)."""
    data = sorted(float(v) for v in values)
    if not data:
        return None
    if not 0 <= q <= 100:
        raise KimiDeployError(f"percentile {q} is outside 0..100")
    pos = (len(data) - 1) * q / 100.0
    lower = math.floor(pos)
    upper = min(lower + 1, len(data) - 1)
    return data[lower] + (data[upper] - data[lower]) * (pos - lower)


def distribution(values: Iterable[float], scale: float = 1.0) -> dict[str, float | int | None]:
    """count, mean, min, p50, p95, p99, max of ``values`` multiplied by ``scale`` (1000: s -> ms)."""
    data = [float(v) * scale for v in values]
    if not data:
        return {"count": 0, "mean": None, "min": None, "p50": None, "p95": None, "p99": None, "max": None}
    return {
        "count": len(data),
        "mean": sum(data) / len(data),
        "min": min(data),
        "p50": percentile(data, 50),
        "p95": percentile(data, 95),
        "p99": percentile(data, 99),
        "max": max(data),
    }


@dataclass
class StreamRecord:
    """Timings of one streamed request, seconds on one monotonic clock."""

    start: float
    end: float = 0.0
    status: int = 0
    chunk_times: list[float] = field(default_factory=list)  # arrival of each chunk carrying tokens
    chunk_tokens: list[int] = field(default_factory=list)  # tokens in that chunk (1 unless ids are sent)
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    done: bool = False  # saw "data: [DONE]"
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.status == 200 and self.done and bool(self.chunk_times)

    @property
    def ttft(self) -> float | None:
        return self.chunk_times[0] - self.start if self.chunk_times else None

    @property
    def latency(self) -> float:
        return self.end - self.start

    @property
    def output_tokens(self) -> int:
        if self.completion_tokens is not None:
            return self.completion_tokens
        return sum(self.chunk_tokens)

    def inter_token_latencies(self) -> list[float]:
        """Gap before each later chunk divided by the tokens it carries."""
        out = []
        for i in range(1, len(self.chunk_times)):
            gap = self.chunk_times[i] - self.chunk_times[i - 1]
            out.extend([gap / max(self.chunk_tokens[i], 1)] * max(self.chunk_tokens[i], 1))
        return out

    @property
    def tpot(self) -> float | None:
        """Time per output token after the first: (last chunk - first chunk) / (tokens - 1)."""
        if len(self.chunk_times) < 2 or self.output_tokens < 2:
            return None
        return (self.chunk_times[-1] - self.chunk_times[0]) / (self.output_tokens - 1)


def load_summary(records: Sequence[StreamRecord], started: float, ended: float) -> dict[str, Any]:
    """Request rate, output tokens/s, TTFT / ITL / TPOT / latency distributions (ms) of a load run."""
    good = [r for r in records if r.ok]
    wall = max(ended - started, 1e-9)
    itl = [x for r in good for x in r.inter_token_latencies()]
    out_tokens = sum(r.output_tokens for r in good)
    return {
        "requests": len(records),
        "completed": len(good),
        "errors": len(records) - len(good),
        "wall_s": wall,
        "request_rate": len(good) / wall,
        "output_tokens": out_tokens,
        "output_tokens_per_s": out_tokens / wall,
        "prompt_tokens": sum(r.prompt_tokens or 0 for r in good),
        "ttft_ms": distribution((r.ttft for r in good if r.ttft is not None), 1000.0),
        "itl_ms": distribution(itl, 1000.0),
        "tpot_ms": distribution((r.tpot for r in good if r.tpot is not None), 1000.0),
        "latency_ms": distribution((r.latency for r in good), 1000.0),
    }


def throughput_series(records: Sequence[StreamRecord], started: float, ended: float,
                      bucket_s: float = 1.0) -> list[dict[str, float]]:
    """Output tokens per second in buckets of ``bucket_s`` from the start of the run."""
    if bucket_s <= 0:
        raise KimiDeployError("bucket_s must be positive")
    n = max(1, math.ceil((ended - started) / bucket_s))
    tokens = [0] * n
    finished = [0] * n
    for r in records:
        for t, k in zip(r.chunk_times, r.chunk_tokens, strict=False):
            tokens[min(n - 1, max(0, int((t - started) / bucket_s)))] += k
        if r.ok:
            finished[min(n - 1, max(0, int((r.end - started) / bucket_s)))] += 1
    return [{"t_s": i * bucket_s, "output_tokens_per_s": tokens[i] / bucket_s,
             "requests_finished": finished[i]} for i in range(n)]


def sample_values(values: Sequence[float], limit: int = 2000) -> list[float]:
    """At most ``limit`` values spread evenly over ``values`` (kept in order), for plots."""
    if len(values) <= limit:
        return list(values)
    step = len(values) / limit
    return [values[int(i * step)] for i in range(limit)]


# --------------------------------------------------------------------------------------------------
# Memory growth and latency degradation
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GrowthRule:
    series: str
    limit_per_min: float
    relative: bool  # True: limit is a fraction of the series mean per minute
    noise_floor: float  # fitted growth over the analysed window must also exceed this (series units)
    description: str


GROWTH_RULES: dict[str, GrowthRule] = {
    "server_rss_bytes": GrowthRule("server_rss_bytes", 0.01, True, 32 * 2**20,
                                   "vLLM process tree RSS (/proc), 1 %/min and 32 MiB"),
    "api_rss_bytes": GrowthRule("api_rss_bytes", 0.01, True, 32 * 2**20,
                                "API server RSS (/metrics process_resident_memory_bytes), 1 %/min and 32 MiB"),
    "gpu_memory_used_bytes": GrowthRule("gpu_memory_used_bytes", 0.005, True, 256 * 2**20,
                                        "GPU memory used (NVML, all GPUs), 0.5 %/min and 256 MiB"),
    "kv_cache_usage": GrowthRule("kv_cache_usage", 0.05, False, 0.05,
                                 "vllm:kv_cache_usage_perc (0..1), 0.05/min and 0.05"),
}
MIN_GROWTH_SAMPLES = 5
TREND_OVER_SCATTER = 2.0
# The analysed window must hold this many median request lifetimes: over a shorter one the KV blocks,
# buffers and RSS of the requests in flight have not yet been freed once, so filling reads as a trend.
MIN_REQUEST_LIFETIMES = 3.0


def least_squares(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float]:
    """(slope, intercept) of the least-squares line through the points."""
    n = len(xs)
    if n != len(ys) or n < 2:
        raise KimiDeployError("least squares needs at least two (x, y) points of equal count")
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        raise KimiDeployError("least squares needs at least two distinct x values")
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
    return slope, my - slope * mx


def memory_growth(samples: Sequence[tuple[float, float]], rule: GrowthRule, *, run_start: float, run_end: float,
                  warmup_fraction: float = 0.25, limit_scale: float = 1.0,
                  request_lifetime_s: float = 0.0) -> dict[str, Any]:
    """Judge one memory series (``(t_seconds, value)`` samples) for steady growth; see module docstring.

    ``limit_scale`` multiplies the rate limit (the module's max_memory_growth_per_min over the 1 % default).
    ``request_lifetime_s`` is the median latency of the run's requests (``math.inf`` when none completed).
    """
    cutoff = run_start + warmup_fraction * (run_end - run_start)
    kept = [(t, v) for t, v in samples if t >= cutoff and v is not None]
    limit = rule.limit_per_min * limit_scale
    result: dict[str, Any] = {"series": rule.series, "samples": len(kept), "limit_per_min": limit,
                              "relative": rule.relative, "noise_floor": rule.noise_floor}
    if len(kept) < MIN_GROWTH_SAMPLES or len({t for t, _unused in kept}) < 2:
        result.update(passed=True, judged=False,
                      detail=f"{len(kept)} samples after warm-up, fewer than {MIN_GROWTH_SAMPLES}: not judged; "
                             "run longer or sample more often")
        return result
    window_s = run_end - cutoff
    if window_s < MIN_REQUEST_LIFETIMES * request_lifetime_s:
        lifetime = "no request completed" if math.isinf(request_lifetime_s) else \
            f"requests took {request_lifetime_s:.1f} s (median)"
        result.update(passed=True, judged=False, request_lifetime_s=request_lifetime_s,
                      detail=f"{rule.series}: {window_s:.1f} s after warm-up and {lifetime}: judged over at least "
                             f"{MIN_REQUEST_LIFETIMES:.0f} request lifetimes (the memory of requests in flight is "
                             "still filling before that); not judged; run longer")
        return result
    xs = [t for t, _unused in kept]
    ys = [v for _unused, v in kept]
    slope, intercept = least_squares(xs, ys)
    per_min = slope * 60.0
    mean = sum(ys) / len(ys)
    rate = per_min / mean if rule.relative and mean > 0 else per_min
    window_growth = slope * (xs[-1] - xs[0])
    # A trend smaller than twice the scatter around it is not a trend: KV usage under load is a
    # sawtooth (requests fill blocks, then free them) whose fitted slope over a short run can be
    # anything; a leak rises steadily, with little scatter around its line.
    residuals = [y - (slope * x + intercept) for x, y in zip(xs, ys, strict=True)]
    scatter = math.sqrt(sum(r * r for r in residuals) / (len(ys) - 2))
    steady = rate > limit and window_growth > rule.noise_floor and window_growth > TREND_OVER_SCATTER * scatter
    unit = "of the mean per minute" if rule.relative else "per minute"
    result.update(
        passed=not steady, judged=True, slope_per_s=slope, growth_per_min=rate, window_growth=window_growth,
        mean=mean, first=ys[0], last=ys[-1], scatter=scatter,
        detail=(f"{rule.series}: fitted growth {rate:.4g} {unit} (limit {limit:.4g}), {window_growth:.4g} over "
                f"{xs[-1] - xs[0]:.0f} s after warm-up (noise floor {rule.noise_floor:.4g}, scatter around the "
                f"fit {scatter:.4g})"),
    )
    return result


def kv_cache_freed(usage: Sequence[tuple[float, float]], running: Sequence[tuple[float, float]], rule: GrowthRule,
                   *, run_start: float, run_end: float) -> dict[str, Any] | None:
    """KV-cache usage judged by what a leak leaves behind: blocks still held once no request runs.

    ``usage`` and ``running`` are the samples of vllm:kv_cache_usage_perc and vllm:num_requests_running, taken
    together; the verdict compares the last idle sample before the run with the last idle one after it. None when
    either is missing (the run then falls back to the fitted trend, memory_growth). Requests fill and free blocks
    all through a run, so a rising fit over a short window is filling as often as leaking; the idle level is not.
    """
    idle = {t for t, n in running if n == 0}
    before = [(t, v) for t, v in usage if t <= run_start and t in idle]
    after = [(t, v) for t, v in usage if t >= run_end and t in idle]
    if not before or not after:
        return None
    (t0, v0), (t1, v1) = before[-1], after[-1]
    held = v1 - v0
    passed = held <= rule.noise_floor
    return {
        "series": rule.series, "samples": len(usage), "limit_per_min": rule.limit_per_min, "relative": rule.relative,
        "noise_floor": rule.noise_floor, "judged": True, "passed": passed, "idle_before": v0, "idle_after": v1,
        "window_growth": held, "growth_per_min": held / max((t1 - t0) / 60.0, 1e-9),
        "detail": (f"{rule.series}: {v0:.3f} idle before the run, {v1:.3f} once its requests had finished ("
                   + ("the blocks were freed" if passed else "blocks still held with no request running: a leak")
                   + f"; allowed {rule.noise_floor:.3g})"),
    }


def latency_degradation(records: Sequence[StreamRecord], *, run_start: float, run_end: float,
                        warmup_fraction: float = 0.25, max_ratio: float = 1.5, windows: int = 4,
                        min_requests: int = 3, min_window_s: float = MIN_DEGRADATION_WINDOW_S) -> dict[str, Any]:
    """Judge whether median TTFT and TPOT degrade steadily over the run; see module docstring."""
    cutoff = run_start + warmup_fraction * (run_end - run_start)
    analysed = [r for r in records if r.ok and r.start >= cutoff]
    width = (run_end - cutoff) / windows
    groups = [[r for r in analysed if min(int((r.start - cutoff) / width), windows - 1) == i] for i in range(windows)]
    counts = [len(g) for g in groups]
    result: dict[str, Any] = {"window_requests": counts, "max_ratio": max_ratio, "window_s": round(width, 3)}
    if min(counts) < min_requests or width < min_window_s:
        result.update(passed=True, judged=False,
                      detail=f"{counts} requests in {windows} windows of {width:.1f} s after warm-up (judged with "
                             f"at least {min_requests} requests and {min_window_s:.0f} s a window): not judged; "
                             "run longer")
        return result
    problems = []
    for metric, slack in (("ttft", TTFT_SLACK_S), ("tpot", TPOT_SLACK_S)):
        medians = [percentile([v for r in g if (v := getattr(r, metric)) is not None], 50) for g in groups]
        result[f"{metric}_window_medians_ms"] = [None if m is None else m * 1000 for m in medians]
        if any(m is None for m in medians):
            continue
        first, last = medians[0], medians[-1]
        risen = last > max_ratio * first + slack
        steady = all(b >= a - slack for a, b in itertools.pairwise(medians))
        still_rising = last > max(medians[:windows // 2]) + slack
        if risen and steady and not still_rising:
            result.setdefault("level_shifts", []).append(
                f"{metric.upper()} window medians {', '.join(f'{m * 1000:.1f}' for m in medians)} ms stepped up "
                "in the first half and then held: a change of load level, not a degradation over the run")
        elif risen and steady:
            problems.append(f"median {metric.upper()} rose steadily from {first * 1000:.1f} ms to {last * 1000:.1f} "
                            f"ms (windows {', '.join(f'{m * 1000:.1f}' for m in medians)} ms; allowed {max_ratio} x "
                            f"+ {slack * 1000:.0f} ms)")
        elif risen:
            result.setdefault("bursts", []).append(
                f"{metric.upper()} window medians {', '.join(f'{m * 1000:.1f}' for m in medians)} ms rose and fell: "
                "a burst (other load on the host?), not a steady degradation")
    result.update(passed=not problems, judged=True,
                  detail="; ".join(problems) or "no steady latency degradation across the run")
    return result


# --------------------------------------------------------------------------------------------------
# Prometheus text
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    name: str
    labels: dict[str, str]
    value: float


_SAMPLE_RE = re.compile(r"^(?P<name>[a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(?P<labels>.*)\})?\s+(?P<value>\S+)(?:\s+\S+)?$")
_LABEL_RE = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*,?')


def parse_prometheus_text(text: str) -> list[Sample]:
    """Samples of a Prometheus text exposition (comments skipped, label escapes decoded)."""
    out = []
    for raw_line in text.splitlines():
        line = raw_line.strip()
        if not line or line.startswith("#"):
            continue
        m = _SAMPLE_RE.match(line)
        if not m:
            continue
        labels = {}
        for key, raw in _LABEL_RE.findall(m.group("labels") or ""):
            labels[key] = raw.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")
        try:
            value = float(m.group("value"))
        except ValueError:
            continue
        out.append(Sample(m.group("name"), labels, value))
    return out


def metric_values(samples: Iterable[Sample], name: str) -> list[Sample]:
    return [s for s in samples if s.name == name]


def metric_total(samples: Iterable[Sample], name: str) -> float | None:
    """Sum of a metric over its label sets (engines), None when absent."""
    values = [s.value for s in samples if s.name == name]
    return sum(values) if values else None


def metric_max(samples: Iterable[Sample], name: str) -> float | None:
    values = [s.value for s in samples if s.name == name]
    return max(values) if values else None


def cache_config_from_metrics(samples: Iterable[Sample]) -> dict[str, str] | None:
    """Labels of ``vllm:cache_config_info`` for engine 0 (or the first engine), None when absent."""
    infos = metric_values(samples, "vllm:cache_config_info")
    if not infos:
        return None
    for s in infos:
        if s.labels.get("engine") == "0":
            return dict(s.labels)
    return dict(infos[0].labels)


def kv_tokens_from_metrics(samples: Iterable[Sample]) -> int | None:
    """``kv_cache_size_tokens`` that vLLM reports in ``vllm:cache_config_info`` (None when absent)."""
    info = cache_config_from_metrics(samples)
    raw = (info or {}).get("kv_cache_size_tokens")
    try:
        return int(float(raw)) if raw not in (None, "", "None") else None
    except ValueError:
        return None


# --------------------------------------------------------------------------------------------------
# Verdicts
# --------------------------------------------------------------------------------------------------

TRUNCATE_CHARS = 2000


def truncate(text: str, limit: int = TRUNCATE_CHARS) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... [truncated, {len(text)} characters in all]"


def scrub(text: str, secrets: Iterable[str]) -> str:
    for secret in secrets:
        if secret:
            text = text.replace(secret, "<redacted>")
    return text


@dataclass
class CheckResult:
    name: str
    group: str
    status: str  # passed | failed | skipped
    detail: str
    expectation: str = ""
    duration_s: float = 0.0
    observed: dict[str, Any] = field(default_factory=dict)
    request: dict[str, Any] | None = None  # recorded for failed checks
    response: dict[str, Any] | None = None

    @property
    def passed(self) -> bool | None:
        return None if self.status == "skipped" else self.status == "passed"

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["passed"] = self.passed
        return out


def suite_verdict(results: Iterable[CheckResult]) -> tuple[bool, list[str]]:
    """(accepted, failed check names in run order): accepted when no check failed."""
    failed = [r.name for r in results if r.status == "failed"]
    return not failed, failed


def rejection_message(checks: Mapping[str, Mapping[str, Any]], failed: Sequence[str]) -> str:
    """One message naming the failed checks and showing the first failure's request and response."""
    if not failed:
        return "acceptance passed"
    first = checks[failed[0]]
    parts = [f"acceptance rejected the release: {len(failed)} check(s) failed: {', '.join(failed)}.",
             f"First failure, {failed[0]}: {first.get('detail', '')}"]
    req, resp = first.get("request"), first.get("response")
    if req:
        body = truncate(str(req.get("body", "")), 500)
        parts.append(f"Request: {req.get('method', '')} {req.get('path', '')} {body}")
    if resp:
        parts.append(f"Response: {resp.get('status', '')} {truncate(str(resp.get('body', '')), 500)}")
    return " ".join(parts)
