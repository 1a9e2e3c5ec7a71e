"""A model's shape, read from its ``config.json``: what the sizing engine needs to know.

The profile answers the questions vLLM itself asks of a config before it allocates memory:
which layers hold a per-token KV cache and how wide it is (standard attention, MLA latent),
which layers hold a fixed per-sequence recurrent state instead (KDA linear attention), how
the experts are laid out, how the checkpoint is quantized, whether a vision tower rides along,
and whether the model ships its own code (``auto_map`` -> ``--trust-remote-code``).

Multimodal wrappers (Kimi K3, Kimi K2.5) keep the language model under ``text_config``; the
text fields are read from there and the wrapper's fields (architecture, ``auto_map``,
``vision_config``) from the top level. Layer indices are 0-based everywhere in this package;
Kimi's ``linear_attn_config`` lists are 1-based and are converted here, once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import KimiDeployError

# Attention kinds a profile can have.
ATTENTION_MHA = "mha"
ATTENTION_GQA = "gqa"
ATTENTION_MLA = "mla"
ATTENTION_HYBRID_KDA_MLA = "hybrid_kda_mla"

# Bytes per element of the dtype names configs use.
DTYPE_BYTES = {
    "bfloat16": 2,
    "float16": 2,
    "half": 2,
    "float32": 4,
    "float": 4,
    "fp8": 1,
    "float8_e4m3fn": 1,
}


@dataclass(frozen=True)
class MlaDims:
    """Multi-head latent attention: the cache holds one ``kv_lora_rank + qk_rope_head_dim`` latent."""

    kv_lora_rank: int
    qk_rope_head_dim: int
    qk_nope_head_dim: int
    v_head_dim: int
    q_lora_rank: int | None

    @property
    def latent_dim(self) -> int:
        return self.kv_lora_rank + self.qk_rope_head_dim


@dataclass(frozen=True)
class KdaDims:
    """Kimi Delta Attention (linear attention): a conv state plus an fp32 recurrent state per sequence."""

    num_heads: int
    head_dim: int
    conv_kernel_size: int
    num_k_heads: int
    head_k_dim: int


@dataclass(frozen=True)
class MoeDims:
    num_experts: int
    experts_per_token: int
    num_shared_experts: int
    moe_intermediate_size: int
    moe_layers: tuple[int, ...]
    routed_expert_hidden_size: int | None = None


@dataclass(frozen=True)
class QuantInfo:
    method: str
    weight_format: str | None = None
    weight_bits: int | None = None
    ignore: tuple[str, ...] = ()

    @property
    def is_mxfp4(self) -> bool:
        fmt = (self.weight_format or "").lower()
        return "mxfp4" in fmt or self.method.lower() == "mxfp4"


@dataclass(frozen=True)
class VisionInfo:
    num_heads: int
    num_layers: int
    hidden_size: int


@dataclass(frozen=True)
class ModelProfile:
    name: str
    architecture: str
    text_architecture: str
    model_type: str
    text_model_type: str
    family: str
    attention: str
    dtype: str
    num_layers: int
    hidden_size: int
    vocab_size: int
    max_position_embeddings: int
    num_attention_heads: int
    num_kv_heads: int
    head_dim: int
    full_attention_layers: tuple[int, ...]
    linear_attention_layers: tuple[int, ...] = ()
    mla: MlaDims | None = None
    kda: KdaDims | None = None
    moe: MoeDims | None = None
    quantization: QuantInfo | None = None
    vision: VisionInfo | None = None
    trust_remote_code: bool = False
    tie_word_embeddings: bool = False
    attn_res_block_size: int | None = None
    intermediate_size: int | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def dtype_bytes(self) -> int:
        return DTYPE_BYTES[self.dtype]

    @property
    def is_hybrid(self) -> bool:
        return bool(self.linear_attention_layers)

    @property
    def uses_mla(self) -> bool:
        return self.mla is not None

    @property
    def is_moe(self) -> bool:
        return self.moe is not None

    def layer_kinds(self) -> tuple[str, ...]:
        """Per layer: ``"attention"`` (per-token KV cache) or ``"linear"`` (per-sequence state)."""
        linear = set(self.linear_attention_layers)
        return tuple("linear" if i in linear else "attention" for i in range(self.num_layers))

    def tp_divisibility_errors(self, tp: int) -> list[str]:
        """What TP size ``tp`` would break, in vLLM's own terms (empty list when it divides)."""
        errors = []
        if self.num_attention_heads % tp:
            errors.append(f"{self.num_attention_heads} attention heads are not divisible by TP {tp}")
        if self.kda is not None and self.kda.num_heads % tp:
            errors.append(f"{self.kda.num_heads} KDA heads are not divisible by TP {tp}")
        if self.attention == ATTENTION_GQA and self.num_kv_heads % tp and tp % self.num_kv_heads:
            errors.append(f"{self.num_kv_heads} KV heads and TP {tp}: neither divides the other")
        return errors


def read_config(path: str | Path) -> dict[str, Any]:
    """Load a ``config.json`` (a file, or a model directory holding one)."""
    path = Path(path)
    if path.is_dir():
        path = path / "config.json"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as err:
        raise KimiDeployError(f"{path}: no config.json there; point model_dir/model_config at the "
                              "model's directory or its config.json") from err
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        raise KimiDeployError(f"{path}: not valid JSON ({err}); fetch the model's config.json again") from err
    if not isinstance(doc, dict):
        raise KimiDeployError(f"{path}: config.json is not a JSON object")
    return doc


def load_profile(config: dict[str, Any], name: str | None = None) -> ModelProfile:
    """Build a :class:`ModelProfile` from a parsed ``config.json``."""
    if not isinstance(config, dict):
        raise KimiDeployError("model config must be a JSON object (the parsed config.json)")
    text = config.get("text_config") if isinstance(config.get("text_config"), dict) else config
    architecture = _first(config.get("architectures")) or _first(text.get("architectures")) or "unknown"
    text_architecture = _first(text.get("architectures")) or architecture
    model_type = str(config.get("model_type") or text.get("model_type") or "unknown")
    text_model_type = str(text.get("model_type") or model_type)

    num_layers = _required_int(text, "num_hidden_layers")
    hidden_size = _required_int(text, "hidden_size")
    heads = _required_int(text, "num_attention_heads")
    kv_heads = int(text.get("num_key_value_heads") or heads)
    head_dim = int(text.get("head_dim") or hidden_size // heads)
    dtype = _dtype(text, config)

    mla = _mla_dims(text)
    kda, linear_layers, attention_layers = _kda_layout(text, num_layers)
    if kda is not None:
        attention = ATTENTION_HYBRID_KDA_MLA if mla is not None else "hybrid_kda"
    elif mla is not None:
        attention = ATTENTION_MLA
    else:
        attention = ATTENTION_GQA if kv_heads < heads else ATTENTION_MHA
    if attention == "hybrid_kda":
        raise KimiDeployError(
            f"{architecture}: KDA layers next to non-MLA attention are not a layout vLLM ships; "
            "the planner sizes KDA only in the Kimi hybrid (KDA + MLA) family"
        )

    notes = []
    if text.get("sliding_window") and attention in (ATTENTION_GQA, ATTENTION_MHA):
        notes.append("sliding-window layers are sized as full attention (an upper bound on KV)")

    profile = ModelProfile(
        name=name or architecture,
        architecture=architecture,
        text_architecture=text_architecture,
        model_type=model_type,
        text_model_type=text_model_type,
        family=_family(architecture, model_type, text_model_type, kda),
        attention=attention,
        dtype=dtype,
        num_layers=num_layers,
        hidden_size=hidden_size,
        vocab_size=_required_int(text, "vocab_size"),
        max_position_embeddings=int(text.get("max_position_embeddings") or 0),
        num_attention_heads=heads,
        num_kv_heads=kv_heads,
        head_dim=head_dim,
        full_attention_layers=attention_layers,
        linear_attention_layers=linear_layers,
        mla=mla,
        kda=kda,
        moe=_moe_dims(text, num_layers),
        quantization=_quant_info(text.get("quantization_config") or config.get("quantization_config")),
        vision=_vision_info(config.get("vision_config")),
        trust_remote_code=bool(config.get("auto_map") or text.get("auto_map")),
        tie_word_embeddings=bool(text.get("tie_word_embeddings", config.get("tie_word_embeddings", False))),
        attn_res_block_size=_optional_int(text.get("attn_res_block_size")),
        intermediate_size=_optional_int(text.get("intermediate_size")),
        notes=tuple(notes),
    )
    if profile.max_position_embeddings <= 0:
        raise KimiDeployError(f"{architecture}: config has no max_position_embeddings; set max_model_len "
                              "explicitly and check the config")
    return profile


def load_profile_from_path(path: str | Path, name: str | None = None) -> ModelProfile:
    return load_profile(read_config(path), name=name)


def read_hub_config(repo_id: str, revision: str | None = None, endpoint: str | None = None,
                    token: str | None = None) -> dict[str, Any]:
    """``config.json`` of a hub repository at ``revision`` (one small file; no weights)."""
    try:
        from huggingface_hub import hf_hub_download
    except ImportError as err:  # pragma: no cover - depends on the controller's environment
        raise KimiDeployError("planning from hf_repo needs the huggingface_hub package on the controller; "
                              "install it or pass model_dir / model_config + tensor_table") from err
    try:
        path = hf_hub_download(repo_id, "config.json", revision=revision, endpoint=endpoint, token=token)
    except Exception as err:  # hub errors come in many classes; the message is what counts
        raise KimiDeployError(f"could not fetch config.json of {repo_id}@{revision or 'main'}: "
                              f"{type(err).__name__}: {err}; check hf_repo, revision, hf_endpoint and "
                              "hf_token") from err
    return read_config(path)


def _first(value: Any) -> str | None:
    if isinstance(value, list) and value:
        return str(value[0])
    return None


def _required_int(doc: dict[str, Any], key: str) -> int:
    value = doc.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise KimiDeployError(f"config.json: {key} is missing or not a positive integer ({value!r}); "
                              "this is not a decoder config the planner can size")
    return value


def _optional_int(value: Any) -> int | None:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def _dtype(text: dict[str, Any], config: dict[str, Any]) -> str:
    raw = text.get("dtype") or text.get("torch_dtype") or config.get("dtype") or config.get("torch_dtype")
    dtype = str(raw or "bfloat16").replace("torch.", "")
    if dtype not in DTYPE_BYTES:
        raise KimiDeployError(f"config.json: dtype {dtype!r} is not one the planner knows "
                              f"({', '.join(sorted(DTYPE_BYTES))})")
    return dtype


def _mla_dims(text: dict[str, Any]) -> MlaDims | None:
    if text.get("kv_lora_rank") is None:
        return None
    return MlaDims(
        kv_lora_rank=int(text["kv_lora_rank"]),
        qk_rope_head_dim=int(text.get("qk_rope_head_dim") or 0),
        qk_nope_head_dim=int(text.get("qk_nope_head_dim") or 0),
        v_head_dim=int(text.get("v_head_dim") or 0),
        q_lora_rank=_optional_int(text.get("q_lora_rank")),
    )


def _kda_layout(text: dict[str, Any], num_layers: int
                ) -> tuple[KdaDims | None, tuple[int, ...], tuple[int, ...]]:
    every = tuple(range(num_layers))
    linear = text.get("linear_attn_config")
    if not isinstance(linear, dict) or not linear.get("kda_layers"):
        return None, (), every
    # vLLM's KimiLinear config: ``is_kda_layer(i) == (i + 1) in kda_layers`` (1-based lists).
    kda_layers = tuple(sorted(int(i) - 1 for i in linear["kda_layers"]))
    if any(i < 0 or i >= num_layers for i in kda_layers):
        raise KimiDeployError(f"linear_attn_config.kda_layers has layers outside 1..{num_layers}")
    kda_set = set(kda_layers)
    attention = tuple(i for i in every if i not in kda_set)
    full = linear.get("full_attn_layers")
    if full and tuple(sorted(int(i) - 1 for i in full)) != attention:
        raise KimiDeployError("linear_attn_config: full_attn_layers and kda_layers do not partition "
                              f"the {num_layers} layers; the config is inconsistent")
    num_heads = int(linear.get("num_heads") or text["num_attention_heads"])
    head_dim = int(linear.get("head_dim") or 128)
    dims = KdaDims(
        num_heads=num_heads,
        head_dim=head_dim,
        conv_kernel_size=int(linear.get("short_conv_kernel_size") or 4),
        num_k_heads=int(linear.get("num_k_heads") or num_heads),
        head_k_dim=int(linear.get("head_k_dim") or head_dim),
    )
    return dims, kda_layers, attention


def _moe_dims(text: dict[str, Any], num_layers: int) -> MoeDims | None:
    experts = text.get("num_experts") or text.get("n_routed_experts") or text.get("num_local_experts")
    if not experts:
        return None
    if "decoder_sparse_step" in text or "mlp_only_layers" in text:  # Qwen-MoE convention
        step = int(text.get("decoder_sparse_step") or 1)
        dense = set(text.get("mlp_only_layers") or [])
        layers = tuple(i for i in range(num_layers) if i not in dense and (i + 1) % step == 0)
    else:  # DeepSeek / Kimi convention
        first_dense = int(text.get("first_k_dense_replace") or 0)
        freq = int(text.get("moe_layer_freq") or 1)
        layers = tuple(i for i in range(num_layers) if i >= first_dense and i % freq == 0)
    shared = text.get("num_shared_experts", text.get("n_shared_experts"))
    if shared is None and text.get("shared_expert_intermediate_size"):
        shared = 1
    return MoeDims(
        num_experts=int(experts),
        experts_per_token=int(text.get("num_experts_per_token") or text.get("num_experts_per_tok") or 1),
        num_shared_experts=int(shared or 0),
        moe_intermediate_size=int(text.get("moe_intermediate_size") or text.get("intermediate_size") or 0),
        moe_layers=layers,
        routed_expert_hidden_size=_optional_int(text.get("routed_expert_hidden_size")),
    )


def _quant_info(qc: Any) -> QuantInfo | None:
    if not isinstance(qc, dict) or not qc.get("quant_method"):
        return None
    fmt = qc.get("format")
    bits = None
    for group in (qc.get("config_groups") or {}).values():
        weights = (group or {}).get("weights") or {}
        bits = bits or _optional_int(weights.get("num_bits"))
        fmt = fmt or group.get("format")
    return QuantInfo(method=str(qc["quant_method"]), weight_format=fmt, weight_bits=bits,
                     ignore=tuple(str(x) for x in qc.get("ignore") or ()))


def _vision_info(vc: Any) -> VisionInfo | None:
    if not isinstance(vc, dict):
        return None
    heads = vc.get("vt_num_attention_heads") or vc.get("num_attention_heads") or vc.get("num_heads")
    layers = vc.get("vt_num_hidden_layers") or vc.get("num_hidden_layers") or vc.get("depth")
    hidden = vc.get("vt_hidden_size") or vc.get("hidden_size") or vc.get("embed_dim")
    return VisionInfo(num_heads=int(heads or 0), num_layers=int(layers or 0), hidden_size=int(hidden or 0))


def _family(architecture: str, model_type: str, text_model_type: str, kda: KdaDims | None) -> str:
    """The family the known-good flag table is keyed by (e.g. ``kimi_k3``, ``kimi_k2``)."""
    if model_type == "kimi_k3" or architecture.startswith("KimiK3"):
        return "kimi_k3"
    if kda is not None or text_model_type == "kimi_linear":
        return "kimi_linear"
    if model_type in ("kimi_k2", "kimi_k25") or architecture.startswith("KimiK25"):
        return "kimi_k2"
    return text_model_type
