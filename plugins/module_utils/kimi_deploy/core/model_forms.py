"""What a model accepts and emits (its *forms*), read from the model's own files.

Capabilities come from the checkpoint, never from a table keyed by model name:

- images: ``config.json`` has a ``vision_config``; the image processor config
  (``preprocessor_config.json``, ``processor_config.json``) says how an image becomes tokens, and
  the worst-case tokens per image are computed the way the pinned vLLM computes them for profiling
  (Kimi NaViT: ``KimiK3ProcessingInfo.get_max_image_size`` + ``navit_resize_image``; Qwen2-VL:
  ``get_image_size_with_most_features``; fixed-size CLIP/SigLIP towers: ``(image_size/patch)^2``);
- tool calls and reasoning: the markup the chat template (or the tokenizer's special tokens) uses
  picks the vLLM parser. K3 has no Jinja template (its prompt is built by ``encoding_k3.py``), so
  its XTML markers are found among the tokenizer's tokens, and, with config.json alone, the family
  (``model_type``) is the evidence, recorded as such;
- structured output: a request field of vLLM (``structured_outputs``), so no serve flag.

Each capability carries its evidence and the serve flags it needs, so a plan and a release can say
why a flag is there.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import KimiDeployError
from .model_profile import read_config

FORM_TEXT = "text"
FORM_IMAGE = "image"
FORM_TOOLS = "tools"
FORM_REASONING = "reasoning"
FORM_STRUCTURED = "structured_output"
# The input forms an inventory can declare (what its users send).
DECLARABLE_INPUT_FORMS = (FORM_TEXT, FORM_IMAGE, FORM_TOOLS)


# Image URLs. vLLM 0.32 checks an http(s) image URL's host (lower-cased by urllib3's parse_url) against
# --allowed-media-domains, exact names, before fetching anything (MediaConnector.load_from_url[_async] ->
# _assert_url_in_allowed_media_domains, multimodal/media/connector.py): a ValueError, answered 400. An empty
# list allows every host, so "no URL images" is one host that can never resolve (RFC 6761: .invalid).
# file:// URLs stay refused: the plan never sets --allowed-local-media-path. data: URLs (base64) always work.
URL_IMAGES_REFUSED_HOST = "url-images-refused.invalid"
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOST_NAME = re.compile(rf"^(?=.{{1,253}}$){_LABEL}(?:\.{_LABEL})*$")


def media_domain_errors(domains: Sequence[str]) -> list[str]:
    """What is wrong with image-URL host names (vLLM compares hosts exactly: no scheme, port, path or wildcard)."""
    bad = [d for d in domains if not isinstance(d, str) or not _HOST_NAME.match(d.strip().lower())]
    errors = [f"media_url_domains {bad} are not host names: give exact hosts such as images.example.com (vLLM "
              "compares a URL's host with each, no scheme, port, path or wildcard)"] if bad else []
    if any(isinstance(d, str) and d.strip().lower() == URL_IMAGES_REFUSED_HOST for d in domains):
        errors.append(f"{URL_IMAGES_REFUSED_HOST} stands for 'no URL images'; leave media_url_domains empty instead")
    return errors


def media_url_hosts(domains: Sequence[str]) -> tuple[str, ...]:
    """The hosts as vLLM compares them (lower case), each once, in the given order."""
    return tuple(dict.fromkeys(d.strip().lower() for d in domains))


def allowed_media_domains(domains: Sequence[str]) -> tuple[str, ...]:
    """``--allowed-media-domains`` for the hosts image URLs may come from; none: URL images refused."""
    return media_url_hosts(domains) or (URL_IMAGES_REFUSED_HOST,)


@dataclass(frozen=True)
class ChatMarkup:
    """One chat format's markup, the vLLM parser that understands it, and what proves it is present."""

    name: str
    parser: str
    markers: tuple[str, ...]  # text that must never reach a client's ``content`` when parsed
    evidence: tuple[str, ...]  # any of these in the chat template or tokenizer tokens detects the format
    # What is left when the parser did not run and vLLM skipped the special tokens (its default):
    # the markers vanish but the call's skeleton stays in ``content``.
    residue: tuple[str, ...] = ()  # regular expressions


# Order matters: the first format whose evidence is found wins (K3's XTML before generic <think>).
TOOL_CALL_MARKUPS = (
    ChatMarkup("kimi_k3", "kimi_k3",
               ("<|open|>tools<|sep|>", "<|close|>tools<|sep|>", "<|open|>call", "<|close|>call<|sep|>",
                "<|open|>argument", "<|close|>argument<|sep|>"),
               ("<|open|>tools<|sep|>", "<|open|>call"),
               (r'call tool="[^"]+" index="\d+"', r'argument key="[^"]+" type="\w+"')),
    ChatMarkup("kimi_k2", "kimi_k2",
               ("<|tool_calls_section_begin|>", "<|tool_calls_section_end|>", "<|tool_call_begin|>",
                "<|tool_call_argument_begin|>", "<|tool_call_end|>"),
               ("<|tool_calls_section_begin|>", "<|tool_call_begin|>"),
               (r"functions\.[\w.-]+:\d+\s*\{",)),
    ChatMarkup("hermes", "hermes", ("<tool_call>", "</tool_call>"), ("<tool_call>",)),
)
REASONING_MARKUPS = (
    ChatMarkup("kimi_k3", "kimi_k3", ("<|open|>think<|sep|>", "<|close|>think<|sep|>"),
               ("<|open|>think<|sep|>", "<|close|>think<|sep|>")),
    ChatMarkup("kimi_k2", "kimi_k2", ("<think>", "</think>"), ("<think>",)),
    ChatMarkup("think_tags", "deepseek_r1", ("<think>", "</think>"), ("<think>",)),
)
# XTML is built from three special tokens; a tokenizer that has all three speaks K3's format.
_XTML_TOKENS = ("<|open|>", "<|sep|>", "<|close|>")
# With config.json alone, the family is the only evidence of the chat format (recorded as such).
_FAMILY_MARKUP = {"kimi_k3": ("kimi_k3", "kimi_k3"), "kimi_k25": ("kimi_k2", "kimi_k2"), "kimi_k2": ("kimi_k2", None)}


@dataclass(frozen=True)
class ImageBudget:
    """How one image turns into tokens, and the worst case vLLM profiles and caches for."""

    method: str  # kimi_navit | qwen2_vl | fixed_grid
    patch_size: int
    merge_size: int
    max_tokens_per_image: int
    max_width: int  # the image size that gives the worst case (pixels)
    max_height: int
    max_patches_per_image: int  # encoder input at the worst case
    source: str  # the file the limits came from
    in_patch_limit: int | None = None  # kimi_navit
    side_limit: int | None = None  # kimi_navit: patches on one side
    fixed_output_tokens: int | None = None  # kimi_navit
    min_pixels: int | None = None  # qwen2_vl
    max_pixels: int | None = None  # qwen2_vl

    _PARAMS = ("method", "patch_size", "merge_size", "in_patch_limit", "side_limit", "fixed_output_tokens",
               "min_pixels", "max_pixels")

    def processor_params(self) -> dict[str, Any]:
        """What ``from_record`` needs to count any image's tokens again (the plan carries it to acceptance)."""
        return {name: getattr(self, name) for name in self._PARAMS}

    @classmethod
    def from_record(cls, image: dict[str, Any]) -> ImageBudget:
        """The budget a plan recorded (``ModelForms.record()["vision"]["image"]``)."""
        params = image.get("processor") or {}
        if not params.get("method"):
            raise KimiDeployError("the plan's image record has no processor parameters; plan the release again")
        width, height = image.get("worst_case_size") or (0, 0)
        return cls(method=str(params["method"]), patch_size=int(params["patch_size"]),
                   merge_size=int(params["merge_size"]), max_tokens_per_image=int(image["max_tokens_per_image"]),
                   max_width=int(width), max_height=int(height),
                   max_patches_per_image=int(image.get("max_patches_per_image") or 0),
                   source=str(image.get("source") or ""),
                   **{k: params.get(k) for k in ("in_patch_limit", "side_limit", "fixed_output_tokens",
                                                 "min_pixels", "max_pixels")})

    def tokens_for_image(self, width: int, height: int) -> int:
        """Embedding tokens one ``width`` x ``height`` image becomes (what usage's prompt_tokens grows by,
        less the few text tokens of the placeholder around it)."""
        if self.method == "kimi_navit":
            return navit_resize(width, height, self.patch_size, self.merge_size, int(self.in_patch_limit or 0),
                                int(self.side_limit or 0), self.fixed_output_tokens)[0]
        if self.method == "qwen2_vl":
            h, w = qwen2_vl_smart_resize(height, width, self.patch_size * self.merge_size,
                                         int(self.min_pixels or 0), int(self.max_pixels or 0))
            return (h // self.patch_size) * (w // self.patch_size) // (self.merge_size ** 2)
        return self.max_tokens_per_image  # fixed grid: every image is resized to the same size


@dataclass(frozen=True)
class ModelForms:
    vision: bool
    vision_evidence: str
    image: ImageBudget | None  # None: no vision, or the image processor config is absent/unknown
    image_problem: str | None  # why ``image`` is None although ``vision`` is True
    tool_calls: ChatMarkup | None
    tool_evidence: str
    reasoning: ChatMarkup | None
    reasoning_evidence: str
    encoder_output_width: int  # hidden size of the embeddings the encoder cache holds (text hidden size)
    # The key vLLM counts images under: K2.5-style configs (``use_unified_vision_chunk``) send images
    # and videos as one "vision_chunk" modality, and ``{"image": N}`` would allow none of them.
    image_modality: str = "image"
    structured_output: bool = True  # vLLM's ``structured_outputs`` request field; needs no serve flag

    @property
    def input_forms(self) -> frozenset[str]:
        forms = {FORM_TEXT}
        if self.vision:
            forms.add(FORM_IMAGE)
        if self.tool_calls:
            forms.add(FORM_TOOLS)
        return frozenset(forms)

    @property
    def output_forms(self) -> frozenset[str]:
        forms = {FORM_TEXT, FORM_STRUCTURED}
        if self.tool_calls:
            forms.add(FORM_TOOLS)
        if self.reasoning:
            forms.add(FORM_REASONING)
        return frozenset(forms)

    @property
    def content_markers(self) -> tuple[str, ...]:
        """Markup that, found in a response's ``content``, shows a parser did not run."""
        markers: list[str] = []
        for markup in (self.tool_calls, self.reasoning):
            if markup:
                markers.extend(m for m in markup.markers if m not in markers)
        return tuple(markers)

    def served_forms(self, *, images_per_prompt: int = 0, tools: bool = True) -> frozenset[str]:
        """The input forms a server started with ``serve_flags(images_per_prompt=..., tools=...)`` accepts."""
        forms = {FORM_TEXT}
        if self.vision and self.image is not None and images_per_prompt > 0:
            forms.add(FORM_IMAGE)
        if self.tool_calls and tools:
            forms.add(FORM_TOOLS)
        return frozenset(forms)

    def record(self) -> dict[str, Any]:
        """A JSON-ready summary for the plan and the release record: each form with its evidence."""
        image = None
        if self.image is not None:
            image = {"method": self.image.method, "max_tokens_per_image": self.image.max_tokens_per_image,
                     "worst_case_size": [self.image.max_width, self.image.max_height],
                     "max_patches_per_image": self.image.max_patches_per_image, "source": self.image.source,
                     "modality": self.image_modality, "processor": self.image.processor_params()}
        return {
            "input_forms": sorted(self.input_forms),
            "output_forms": sorted(self.output_forms),
            "vision": {"present": self.vision, "evidence": self.vision_evidence, "image": image,
                       "problem": self.image_problem},
            "tool_calls": {"parser": self.tool_calls.parser if self.tool_calls else None,
                           "evidence": self.tool_evidence},
            "reasoning": {"parser": self.reasoning.parser if self.reasoning else None,
                          "evidence": self.reasoning_evidence},
            "structured_output": {"present": self.structured_output, "request_field": "structured_outputs"},
        }

    @property
    def content_residue(self) -> tuple[str, ...]:
        """Patterns of an unparsed call whose special-token markers were skipped on decode."""
        return tuple(p for markup in (self.tool_calls, self.reasoning) if markup for p in markup.residue)

    def parser_flags(self, *, tools: bool = True, reasoning: bool = True) -> tuple[str, ...]:
        """The tool-call and reasoning parser flags (the planner's only source of them)."""
        flags: list[str] = []
        if self.tool_calls and tools:
            flags += ["--enable-auto-tool-choice", "--tool-call-parser", self.tool_calls.parser]
        if self.reasoning and reasoning:
            flags += ["--reasoning-parser", self.reasoning.parser]
        return tuple(flags)

    def image_limit(self, images_per_prompt: int) -> dict[str, int] | None:
        """``--limit-mm-per-prompt`` for ``images_per_prompt`` images; None: serve text only
        (``--language-model-only`` when the model has a vision tower)."""
        if images_per_prompt <= 0:
            return None
        if not self.vision:
            raise KimiDeployError(f"images requested but the model has no vision tower ({self.vision_evidence})")
        if self.image is None:
            raise KimiDeployError(f"images requested but the image budget is unknown: {self.image_problem}")
        return {self.image_modality: images_per_prompt}

    def serve_flags(self, *, images_per_prompt: int = 0, tools: bool = True, reasoning: bool = True) -> tuple[str, ...]:
        """The vLLM flags these forms need. ``images_per_prompt`` 0 serves text only."""
        flags = list(self.parser_flags(tools=tools, reasoning=reasoning))
        limit = self.image_limit(images_per_prompt)
        if limit is not None:
            flags += ["--limit-mm-per-prompt", json.dumps(limit, separators=(",", ":"))]
        elif self.vision:
            flags.append("--language-model-only")
        return tuple(flags)


@dataclass(frozen=True)
class MultimodalBudget:
    """The image side of a plan: what vLLM will reserve, and whether one prompt can hold its images."""

    images_per_prompt: int
    tokens_per_image: int
    prompt_image_tokens: int  # images_per_prompt * tokens_per_image
    encoder_cache_tokens: int  # vLLM: max(max_num_batched_tokens, tokens per item)
    encoder_cache_bytes: int
    encoder_compute_tokens: int
    # What vLLM's profile run feeds the encoder (``MultiModalBudget._get_max_items``): the memory the
    # plan must hold for the vision tower's activations at startup.
    profile_items_per_prompt: int
    profile_items_per_batch: int
    problems: tuple[str, ...]  # empty when the plan holds
    encoder_output_bytes_per_token: int = 0  # text hidden size x dtype bytes

    @property
    def profile_encoder_tokens(self) -> int:
        return self.profile_items_per_batch * self.tokens_per_image

    @property
    def profile_encoder_output_bytes(self) -> int:
        """Encoder outputs vLLM's profile run holds while it profiles the language model: the memory the
        KV budget loses to images (``memory.encoder_cache_reserve_bytes``)."""
        return self.profile_encoder_tokens * self.encoder_output_bytes_per_token

    @property
    def fits(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class FormsGap:
    missing: frozenset[str]  # declared by the inventory, not served: acceptance fails
    extra: frozenset[str]  # served, not declared: the release says so

    def messages(self) -> list[str]:
        missing = [f"the inventory declares {f!r} input but the release cannot serve it" for f in sorted(self.missing)]
        extra = [f"the release serves {f!r} input, which the inventory does not declare" for f in sorted(self.extra)]
        return missing + extra


def compare_forms(served: frozenset[str], declared: set[str] | frozenset[str]) -> FormsGap:
    return FormsGap(missing=frozenset(declared) - served, extra=served - frozenset(declared))


def multimodal_budget(forms: ModelForms, *, images_per_prompt: int, max_model_len: int,
                      max_num_batched_tokens: int, max_num_seqs: int = 256, chunked_prefill: bool = True,
                      text_reserve: int = 256, dtype_bytes: int = 2) -> MultimodalBudget:
    """Check that a prompt of ``images_per_prompt`` worst-case images plus ``text_reserve`` tokens fits.

    vLLM (0.32, ``compute_mm_encoder_budget``) sizes the encoder cache and the encoder compute budget
    as ``max(max_num_batched_tokens, max tokens per item)``; the cache holds encoder outputs of
    width ``text hidden size``. A prompt whose images alone exceed ``max_model_len`` is refused by the
    server (400) however the cache is sized, so that is the planner's refusal.
    """
    if forms.image is None:
        raise KimiDeployError(f"no image budget: {forms.image_problem or forms.vision_evidence}")
    per_image = forms.image.max_tokens_per_image
    prompt_tokens = per_image * images_per_prompt
    problems: list[str] = []
    if prompt_tokens + text_reserve > max_model_len:
        fitting = max(0, (max_model_len - text_reserve) // per_image)
        problems.append(
            f"{images_per_prompt} image(s) of up to {forms.image.max_width}x{forms.image.max_height} take "
            f"{prompt_tokens} tokens, plus {text_reserve} of text exceeds max_model_len {max_model_len}; "
            f"allow at most {fitting} image(s) per prompt, or raise max_model_len to "
            f"{prompt_tokens + text_reserve}")
    cache_tokens = max(max_num_batched_tokens, per_image)
    # vLLM quietly profiles fewer images per prompt than the limit when max_model_len cannot hold them.
    items_per_prompt = max(1, min(images_per_prompt, max_model_len // per_image))
    requests = max_num_seqs if chunked_prefill else min(max_num_seqs, max_num_batched_tokens // per_image)
    items_per_batch = max(1, min(cache_tokens // per_image, requests * items_per_prompt))
    return MultimodalBudget(
        images_per_prompt=images_per_prompt, tokens_per_image=per_image, prompt_image_tokens=prompt_tokens,
        encoder_cache_tokens=cache_tokens,
        encoder_cache_bytes=cache_tokens * forms.encoder_output_width * dtype_bytes,
        encoder_compute_tokens=cache_tokens, profile_items_per_prompt=items_per_prompt,
        profile_items_per_batch=items_per_batch, problems=tuple(problems),
        encoder_output_bytes_per_token=forms.encoder_output_width * dtype_bytes)


def max_images_that_fit(forms: ModelForms, *, max_model_len: int, text_reserve: int = 256) -> int:
    """The largest images-per-prompt a plan can allow (0: not even one worst-case image fits)."""
    if forms.image is None:
        return 0
    return max(0, (max_model_len - text_reserve) // forms.image.max_tokens_per_image)


# ---------------------------------------------------------------------------------------------
# Image token arithmetic, per image-processor kind (ported from the pinned vLLM's own functions).


def navit_resize(width: int, height: int, patch_size: int, merge: int, in_patch_limit: int,
                 side_limit: int, fixed_output_tokens: int | None = None) -> tuple[int, int]:
    """Kimi's NaViT resize: (tokens, patches) for an image of ``width`` x ``height``."""
    scale = min(1.0,
                math.sqrt(in_patch_limit / (max(1.0, width // patch_size) * max(1.0, height // patch_size))),
                side_limit * patch_size / width, side_limit * patch_size / height)
    new_w = min(max(1, int(width * scale)), side_limit * patch_size)
    new_h = min(max(1, int(height * scale)), side_limit * patch_size)
    factor = merge * patch_size
    padded_w = new_w + (factor - new_w % factor) % factor
    padded_h = new_h + (factor - new_h % factor) % factor
    patches = (padded_w // patch_size) * (padded_h // patch_size)
    tokens = fixed_output_tokens if fixed_output_tokens is not None else (padded_h // factor) * (padded_w // factor)
    return tokens, patches


def _navit_worst_case(patch_size: int, merge: int, in_patch_limit: int, side_limit: int,
                      fixed_output_tokens: int | None) -> tuple[int, int, int, int]:
    """(tokens, patches, width, height) of the image vLLM profiles with: the search of
    ``KimiK3ProcessingInfo.get_max_image_size`` over every patch-grid size up to the side limit."""
    max_side = side_limit * patch_size
    best = (-1, -1, max_side, max_side)
    for width_patches in range(side_limit + 1):
        width = min((width_patches + 1) * patch_size - 1, max_side)
        for height_patches in range(width_patches, side_limit + 1):
            height = min((height_patches + 1) * patch_size - 1, max_side)
            tokens, patches = navit_resize(width, height, patch_size, merge, in_patch_limit, side_limit,
                                           fixed_output_tokens)
            if (tokens, patches) > best[:2]:
                best = (tokens, patches, width, height)
    return best


def qwen2_vl_smart_resize(height: int, width: int, factor: int, min_pixels: int, max_pixels: int) -> tuple[int, int]:
    """transformers' Qwen2-VL ``smart_resize``: round to ``factor``, then scale into [min, max] pixels."""
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h_bar = max(factor, math.floor(height / beta / factor) * factor)
        w_bar = max(factor, math.floor(width / beta / factor) * factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


def _qwen2_vl_worst_case(patch_size: int, merge: int, max_pixels: int) -> tuple[int, int, int, int]:
    """vLLM's ``Qwen2VLProcessingInfo.get_image_size_with_most_features``: factor the largest token
    count into a grid whose aspect ratio the processor accepts (<= 200)."""
    unit = patch_size * merge
    for tokens in range(max_pixels // (unit * unit), 0, -1):
        short = next(d for d in range(math.isqrt(tokens), 0, -1) if tokens % d == 0)
        long = tokens // short
        if long / short <= 200:
            return tokens, tokens * merge * merge, unit * long, unit * short
    raise KimiDeployError(f"max_pixels {max_pixels} is smaller than one {unit}x{unit} token")


def _image_budget(config: dict[str, Any], vision: dict[str, Any], preprocessor: dict[str, Any] | None,
                  processor: dict[str, Any] | None) -> tuple[ImageBudget | None, str | None]:
    pre = preprocessor or {}
    media = pre.get("media_proc_cfg") if isinstance(pre.get("media_proc_cfg"), dict) else None
    if media is None and "in_patch_limit" in pre:
        media = pre
    if media is not None:
        patch = int(media.get("patch_size") or vision.get("patch_size"))
        merge = _first_int(media.get("merge_kernel_size") or vision.get("merge_kernel_size"))
        limit, side = int(media["in_patch_limit"]), int(media["patch_limit_on_one_side"])
        fixed = media.get("fixed_output_tokens")
        tokens, patches, width, height = _navit_worst_case(patch, merge, limit, side,
                                                           int(fixed) if fixed is not None else None)
        return ImageBudget("kimi_navit", patch, merge, tokens, width, height, patches,
                           "preprocessor_config.json media_proc_cfg", in_patch_limit=limit, side_limit=side,
                           fixed_output_tokens=int(fixed) if fixed is not None else None), None
    merge_size = vision.get("spatial_merge_size") or pre.get("merge_size")
    if merge_size:
        size = pre.get("size") if isinstance(pre.get("size"), dict) else {}
        max_pixels = pre.get("max_pixels") or size.get("longest_edge")
        if not max_pixels:
            return None, "preprocessor_config.json gives no max_pixels / size.longest_edge"
        patch = int(vision.get("patch_size") or pre.get("patch_size"))
        tokens, patches, width, height = _qwen2_vl_worst_case(patch, int(merge_size), int(max_pixels))
        min_pixels = pre.get("min_pixels") or size.get("shortest_edge") or 0
        return ImageBudget("qwen2_vl", patch, int(merge_size), tokens, width, height, patches,
                           "preprocessor_config.json max_pixels", min_pixels=int(min_pixels),
                           max_pixels=int(max_pixels)), None
    if vision.get("image_size") and vision.get("patch_size"):
        patch, side = int(vision["patch_size"]), int(vision["image_size"]) // int(vision["patch_size"])
        tokens = side * side
        strategy = (processor or {}).get("vision_feature_select_strategy",
                                         config.get("vision_feature_select_strategy"))
        if strategy == "full":
            tokens += 1  # the CLS token is kept
        return ImageBudget("fixed_grid", patch, 1, tokens, int(vision["image_size"]), int(vision["image_size"]),
                           side * side, "config.json vision_config.image_size"), None
    if preprocessor is None:
        return None, "preprocessor_config.json is absent: the per-image token limit cannot be computed"
    return None, "unknown image processor (no media_proc_cfg, spatial_merge_size or image_size)"


def _first_int(value: Any) -> int:
    return int(value[0] if isinstance(value, (list, tuple)) else value)


# ---------------------------------------------------------------------------------------------
# Chat markup.


def _template_text(tokenizer_config: dict[str, Any] | None, chat_template: str | None) -> str:
    parts = [chat_template or ""]
    template = (tokenizer_config or {}).get("chat_template")
    if isinstance(template, str):
        parts.append(template)
    elif isinstance(template, list):  # named templates: [{"name": ..., "template": ...}]
        parts += [t.get("template", "") for t in template if isinstance(t, dict)]
    return "\n".join(parts)


def _tokenizer_tokens(tokenizer_config: dict[str, Any] | None) -> set[str]:
    doc = tokenizer_config or {}
    tokens = {str(v.get("content")) for v in (doc.get("added_tokens_decoder") or {}).values() if isinstance(v, dict)}
    tokens.update(str(t) for t in doc.get("additional_special_tokens") or () if isinstance(t, str))
    return tokens


def _detect(markups: tuple[ChatMarkup, ...], template: str, tokens: set[str],
            kimi_family: bool) -> tuple[ChatMarkup | None, str]:
    xtml = all(t in tokens for t in _XTML_TOKENS)
    for markup in markups:
        if markup.name == "kimi_k2" and markups is REASONING_MARKUPS and not kimi_family:
            continue  # <think> in a non-Kimi template is the generic think-tag format
        if markup.name == "think_tags" and kimi_family:
            continue
        in_template = [e for e in markup.evidence if e in template]
        if in_template:
            return markup, f"chat template contains {in_template[0]}"
        if markup.name == "kimi_k3" and xtml:
            return markup, "tokenizer has the XTML tokens " + " ".join(_XTML_TOKENS)
        in_tokens = [e for e in markup.evidence if e in tokens]
        if in_tokens:
            return markup, f"tokenizer has the token {in_tokens[0]}"
    return None, ""


def derive_forms(config: dict[str, Any], *, preprocessor: dict[str, Any] | None = None,
                 processor: dict[str, Any] | None = None, tokenizer_config: dict[str, Any] | None = None,
                 chat_template: str | None = None, added_tokens: tuple[str, ...] = ()) -> ModelForms:
    """The forms of a model, from the parsed contents of its files (any but config.json may be None).

    ``added_tokens``: the special tokens of a ``tokenizer.json`` (its ``added_tokens``), which a fast
    tokenizer's ``tokenizer_config.json`` need not repeat."""
    model_type = str(config.get("model_type") or "")
    text = config.get("text_config") if isinstance(config.get("text_config"), dict) else config
    architectures = [str(a) for a in config.get("architectures") or ()]
    vision = config.get("vision_config") if isinstance(config.get("vision_config"), dict) else None
    if vision is not None:
        vision_evidence = "config.json has vision_config"
        image, image_problem = _image_budget(config, vision, preprocessor, processor)
    else:
        vision_evidence = f"config.json has no vision_config ({', '.join(architectures) or model_type})"
        image, image_problem = None, None

    template = _template_text(tokenizer_config, chat_template)
    tokens = _tokenizer_tokens(tokenizer_config) | set(added_tokens)
    text_type = str(text.get("model_type") or "")
    kimi_family = model_type.startswith("kimi") or text_type.startswith("kimi")
    tool, tool_evidence = _detect(TOOL_CALL_MARKUPS, template, tokens, kimi_family)
    reasoning, reasoning_evidence = _detect(REASONING_MARKUPS, template, tokens, kimi_family)
    has_chat_files = bool(template.strip()) or bool(tokens)
    family_tool, family_reasoning = _FAMILY_MARKUP.get(model_type, (None, None))
    if tool is None and not has_chat_files and family_tool:
        tool = next(m for m in TOOL_CALL_MARKUPS if m.name == family_tool)
        tool_evidence = f"no chat template or tokenizer config read; family {model_type} uses {family_tool} markup"
    if reasoning is None and not has_chat_files and family_reasoning:
        reasoning = next(m for m in REASONING_MARKUPS if m.name == family_reasoning)
        reasoning_evidence = (f"no chat template or tokenizer config read; family {model_type} "
                              f"uses {family_reasoning} markup")
    if tool is None:
        tool_evidence = tool_evidence or "no tool-call markup in the chat template or tokenizer"
    if reasoning is None:
        reasoning_evidence = reasoning_evidence or "no reasoning markup in the chat template or tokenizer"
    return ModelForms(
        vision=vision is not None, vision_evidence=vision_evidence, image=image, image_problem=image_problem,
        tool_calls=tool, tool_evidence=tool_evidence, reasoning=reasoning, reasoning_evidence=reasoning_evidence,
        encoder_output_width=int(text.get("hidden_size") or 0),
        image_modality="vision_chunk" if config.get("use_unified_vision_chunk") else "image")


def _read_json(path: Path) -> dict[str, Any] | None:
    if not path.is_file():
        return None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise KimiDeployError(f"{path}: not valid JSON ({err})") from err
    return doc if isinstance(doc, dict) else None


def forms_from_dir(model_dir: str | Path) -> ModelForms:
    """Read a model directory (config.json required; the processor and tokenizer files if present)."""
    model_dir = Path(model_dir)
    template_file = model_dir / "chat_template.jinja"
    template_json = _read_json(model_dir / "chat_template.json") or {}
    template = template_file.read_text(encoding="utf-8") if template_file.is_file() else template_json.get(
        "chat_template")
    tokenizer = _read_json(model_dir / "tokenizer.json") or {}
    added = tuple(str(t.get("content")) for t in tokenizer.get("added_tokens") or () if isinstance(t, dict))
    return derive_forms(read_config(model_dir),
                        preprocessor=_read_json(model_dir / "preprocessor_config.json"),
                        processor=_read_json(model_dir / "processor_config.json"),
                        tokenizer_config=_read_json(model_dir / "tokenizer_config.json"),
                        chat_template=template if isinstance(template, str) else None, added_tokens=added)
