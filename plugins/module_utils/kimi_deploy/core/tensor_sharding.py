"""Weight bytes per GPU, from the checkpoint's own tensor list, classed the way vLLM shards them.

Sources of the tensor list (no weights are read, only names, dtypes and shapes):

- local safetensors headers (``records_from_safetensors_dir``, via ``safetensors_format.read_header``);
- a tensor table such as ``data/models/kimi-k3/tensor-table.json`` (``records_from_tensor_table``):
  rows with ``{layer}``, ``{expert}`` and ``{block}`` placeholders that stand for many tensors;
- a hub repository's headers (``records_from_hub``, ``huggingface_hub.get_safetensors_metadata``),
  so a plan needs no 1.5 TB download.

How vLLM shards each tensor (``vllm/model_executor/layers/linear.py`` and the model files):

========================  =========================================================================
kind                      bytes per GPU
========================  =========================================================================
``tp``                    column/row parallel (q/o/gate/up/down, q_b/kv_b, KDA q/k/v/g/b/f_b/conv): / TP
``vocab``                 vocab parallel (embed_tokens on the first stage, lm_head on the last):
                          rows padded to 64 (``pad_vocab_size``), then / TP
``kv_heads``              GQA k/v projections: ``max(1, kv_heads // TP) / kv_heads`` (heads replicate
                          when TP exceeds them, ``QKVParallelLinear``)
``replicated``            norms, routers, MLA latent projections (q_a, kv_a: ``disable_tp``), K3 KDA
                          ``f_a``, K3 latent MoE up/down (``ReplicatedLinear``), attention-residual projs
``expert``                routed experts: / EP size (= TP x DP) with expert parallel, else / TP (K3
                          pads each TP shard of the intermediate dim to at least 256)
``shared_expert``         / TP, except Kimi K3 under sequence parallelism (EP, PP 1, TP > 1 and DP > 1
``dense_mlp``             or MegaMoE) where ``KimiMLP`` replicates them unless
                          ``VLLM_KIMI_K3_SHARD_SP_SHARED_EXPERT=1``
``vision``                vision tower + projector: data parallel, a full copy on every GPU of every
                          stage (none with ``--language-model-only``)
``skipped``               tensors vLLM does not load (MTP layers past ``num_hidden_layers``)
========================  =========================================================================

Layers go to pipeline stages by ``get_pp_indices`` (or an explicit ``VLLM_PP_LAYER_PARTITION``).
A tensor whose place is not recognised is counted as replicated (never under-estimated) and
listed in ``unclassified`` so the operator sees it.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import KimiDeployError
from .kv_cache import cdiv, default_pp_partition, stage_ranges
from .model_profile import ModelProfile
from .safetensors_format import read_header, tensor_nbytes

TP, VOCAB, KV_HEADS, REPLICATED = "tp", "vocab", "kv_heads", "replicated"
EXPERT, SHARED_EXPERT, DENSE_MLP, VISION, SKIPPED = "expert", "shared_expert", "dense_mlp", "vision", "skipped"
KINDS = (TP, VOCAB, KV_HEADS, REPLICATED, EXPERT, SHARED_EXPERT, DENSE_MLP, VISION)

FIRST, LAST, EVERY = "first", "last", "every"

# ``vocab_parallel_embedding.DEFAULT_VOCAB_PADDING_SIZE``.
VOCAB_PADDING = 64
# Kimi K3 / Kimi-Linear (``KimiMoE``): each TP shard of the expert intermediate dim is padded to at
# least this many rows when experts are TP-split (``min_moe_intermediate_per_partition``).
KIMI_MIN_MOE_INTERMEDIATE_PER_PARTITION = 256
KIMI_FAMILIES = ("kimi_k3", "kimi_linear")

_PREFIXES = ("model.language_model.", "language_model.model.", "language_model.", "model.")
_VISION = re.compile(r"^(?:model\.)?(vision_tower|visual|vision_model|vision_encoder|mm_projector|"
                     r"multi_modal_projector|vision_projector)\.")
_LAYER = re.compile(r"(?:^|\.)layers\.(\d+)\.(.+)$")
_EXPERT = re.compile(r"(?:^|\.)experts\.(?:\d+\.|w13|w2|w1|w3|gate_up_proj|down_proj|gate_proj|up_proj)")
_ROUTER = re.compile(r"(?:^|\.)(?:mlp|block_sparse_moe|moe)\.gate\.|shared_expert_gate\.")
_REPLICATED_MODULES = re.compile(
    r"(?:^|\.)(?:q_a_proj|kv_a_proj_with_mqa|q_a_layernorm|kv_a_layernorm|f_a_proj|routed_expert_down_proj|"
    r"routed_expert_up_proj|routed_expert_norm|\w*_res_proj|\w*_res_norm|o_norm|q_norm|k_norm|"
    r"\w*layernorm|\w*_norm|norm)\.")
_KV_PROJ = re.compile(r"(?:^|\.)(?:k_proj|v_proj)\.")
_DENSE_MLP = re.compile(r"(?:^|\.)mlp\.(?:gate_proj|up_proj|down_proj|gate_up_proj)\.")
_TP_MODULES = re.compile(
    r"(?:^|\.)(?:q_proj|k_proj|v_proj|o_proj|qkv_proj|q_b_proj|kv_b_proj|g_proj|b_proj|f_b_proj|"
    r"q_conv1d|k_conv1d|v_conv1d|conv1d|in_proj\w*|out_proj|gate_proj|up_proj|down_proj|gate_up_proj|"
    r"dense|fc1|fc2)\.|(?:^|\.)(?:dt_bias|A_log|D)$")


@dataclass(frozen=True)
class TensorRecord:
    """One tensor, or one table row standing for ``count`` identical tensors in each of ``layers``."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    nbytes: int
    count: int = 1
    layers: tuple[int, ...] | None = None

    @property
    def total_bytes(self) -> int:
        return self.nbytes * self.count * (len(self.layers) if self.layers is not None else 1)

    @property
    def total_tensors(self) -> int:
        return self.count * (len(self.layers) if self.layers is not None else 1)


@dataclass(frozen=True)
class Placement:
    kind: str
    where: int | str  # layer index, FIRST, LAST or EVERY


def _strip_prefix(name: str) -> str:
    for prefix in _PREFIXES:
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def classify_tensor(name: str, profile: ModelProfile, layer: int | None = None) -> tuple[Placement, bool]:
    """Where tensor ``name`` lives and how vLLM splits it; the flag says whether a rule recognised it.

    ``layer`` overrides the layer parsed from the name (table rows carry ``{layer}``).
    """
    if _VISION.match(name):
        return Placement(VISION, EVERY), True
    short = _strip_prefix(name)
    match = _LAYER.search(short)
    if match is None:
        return _classify_outside_layers(short)
    index = int(match.group(1)) if layer is None else layer
    if index >= profile.num_layers:
        return Placement(SKIPPED, index), True
    return _classify_in_layer("." + match.group(2), index, profile)


def _classify_outside_layers(short: str) -> tuple[Placement, bool]:
    """Embeddings sit on the first pipeline stage, the LM head and the final norm on the last."""
    if "embed_tokens" in short or short.startswith("wte") or short.startswith("tok_embeddings"):
        return Placement(VOCAB, FIRST), True
    if short.startswith("lm_head") or short.startswith("output."):
        return Placement(VOCAB, LAST), True
    recognised = bool(_REPLICATED_MODULES.search("." + short))
    return Placement(REPLICATED, LAST), recognised


def _classify_in_layer(rest: str, index: int, profile: ModelProfile) -> tuple[Placement, bool]:  # noqa: PLR0911 - ordered rule table
    """A tensor inside a decoder layer. The first rule that matches wins (``shared_expert_gate`` is the router,
    not a shared expert), so the rules stay one flat list, one return per tensor kind."""
    if _EXPERT.search(rest) and "shared_expert" not in rest:
        return Placement(EXPERT, index), True
    if _ROUTER.search(rest):
        return Placement(REPLICATED, index), True
    if "shared_expert" in rest:
        return Placement(SHARED_EXPERT, index), True
    if _REPLICATED_MODULES.search(rest):
        return Placement(REPLICATED, index), True
    if _KV_PROJ.search(rest) and index not in set(profile.linear_attention_layers) and profile.mla is None:
        return Placement(KV_HEADS, index), True
    if _DENSE_MLP.search(rest):
        return Placement(DENSE_MLP, index), True
    if _TP_MODULES.search(rest):
        return Placement(TP, index), True
    return Placement(REPLICATED, index), False


@dataclass(frozen=True)
class WeightLayout:
    """The parallel layout weights are split over."""

    tp: int = 1
    pp: int = 1
    dp: int = 1
    enable_expert_parallel: bool = False
    pp_partition: tuple[int, ...] | None = None
    language_model_only: bool = False
    mega_moe: bool = False
    shard_sequence_parallel_shared_experts: bool = False

    @property
    def ep_size(self) -> int:
        return self.tp * self.dp if self.enable_expert_parallel else 1


@dataclass
class StageWeights:
    stage: int
    layers: range
    total_bytes: int
    by_kind: dict[str, int]


@dataclass
class WeightInventory:
    """Checkpoint bytes aggregated by (kind, place), ready to be split for any layout quickly."""

    profile: ModelProfile
    bytes_by_place: dict[tuple[str, int | str], int]
    vocab_entries: list[tuple[str, int, int]]  # (FIRST/LAST, rows, bytes)
    total_bytes: int
    tensor_count: int
    skipped_bytes: int = 0
    unclassified: list[str] = field(default_factory=list)
    unclassified_bytes: int = 0

    @classmethod
    def from_records(cls, records: Iterable[TensorRecord], profile: ModelProfile) -> WeightInventory:
        by_place: dict[tuple[str, int | str], int] = defaultdict(int)
        vocab: list[tuple[str, int, int]] = []
        unclassified: list[str] = []
        total = tensors = skipped = unknown_bytes = 0
        for rec in records:
            total += rec.total_bytes
            tensors += rec.total_tensors
            for layer in rec.layers if rec.layers is not None else (None,):
                placement, recognised = classify_tensor(rec.name, profile, layer)
                nbytes = rec.nbytes * rec.count
                if not recognised:
                    unknown_bytes += nbytes
                    if len(unclassified) < 20 and rec.name not in unclassified:
                        unclassified.append(rec.name)
                if placement.kind == SKIPPED:
                    skipped += nbytes
                elif placement.kind == VOCAB:
                    vocab.append((str(placement.where), rec.shape[0] if rec.shape else 1, nbytes))
                else:
                    by_place[(placement.kind, placement.where)] += nbytes
        return cls(profile, dict(by_place), vocab, total, tensors, skipped, unclassified, unknown_bytes)

    def _expert_divisor(self, layout: WeightLayout) -> float:
        moe = self.profile.moe
        if layout.enable_expert_parallel:
            if moe is None:
                return float(layout.ep_size)
            # The busiest rank holds ceil(E / EP) experts.
            return moe.num_experts / cdiv(moe.num_experts, layout.ep_size)
        divisor = float(layout.tp)
        if moe is not None and layout.tp > 1 and self.profile.family in KIMI_FAMILIES:
            per_rank = moe.moe_intermediate_size // layout.tp
            if 0 < per_rank < KIMI_MIN_MOE_INTERMEDIATE_PER_PARTITION:
                divisor *= per_rank / KIMI_MIN_MOE_INTERMEDIATE_PER_PARTITION
        return divisor

    def _sequence_parallel_replicates_mlp(self, layout: WeightLayout) -> bool:
        """``KimiDecoderLayer.use_sequence_parallel`` and not the opt-in sharded variant."""
        if self.profile.family not in KIMI_FAMILIES or layout.shard_sequence_parallel_shared_experts:
            return False
        return (layout.pp == 1 and layout.enable_expert_parallel and layout.tp > 1
                and (layout.mega_moe or layout.dp > 1))

    def per_rank_bytes(self, kind: str, nbytes: int, layout: WeightLayout) -> float:
        if kind == TP:
            return nbytes / layout.tp
        if kind == KV_HEADS:
            kv = self.profile.num_kv_heads
            return nbytes * max(1, kv // layout.tp) / kv
        if kind == EXPERT:
            return nbytes / self._expert_divisor(layout)
        if kind in (SHARED_EXPERT, DENSE_MLP):
            return float(nbytes) if self._sequence_parallel_replicates_mlp(layout) else nbytes / layout.tp
        if kind == VISION:
            return 0.0 if layout.language_model_only else float(nbytes)
        return float(nbytes)  # REPLICATED

    def per_stage(self, layout: WeightLayout) -> list[StageWeights]:
        partition = layout.pp_partition or default_pp_partition(self.profile.num_layers, layout.pp)
        ranges = stage_ranges(partition)
        stage_of = {layer: s for s, rng in enumerate(ranges) for layer in rng}
        by_kind: list[dict[str, float]] = [defaultdict(float) for _unused in ranges]
        for (kind, where), nbytes in self.bytes_by_place.items():
            share = self.per_rank_bytes(kind, nbytes, layout)
            for stage in self._stages(where, stage_of, len(ranges)):
                by_kind[stage][kind] += share
        for where, rows, nbytes in self.vocab_entries:
            padded = cdiv(rows, VOCAB_PADDING) * VOCAB_PADDING
            share = cdiv(padded, layout.tp) * (nbytes / rows)
            stages = self._stages(where, stage_of, len(ranges))
            if where == FIRST and self.profile.tie_word_embeddings and len(ranges) > 1:
                stages = [*stages, len(ranges) - 1]  # the last stage's lm_head is the tied embedding
            for stage in stages:
                by_kind[stage][VOCAB] += share
        out = []
        for s, rng in enumerate(ranges):
            kinds = {k: round(v) for k, v in by_kind[s].items() if v}
            out.append(StageWeights(s, rng, sum(kinds.values()), kinds))
        return out

    @staticmethod
    def _stages(where: int | str, stage_of: dict[int, int], count: int) -> list[int]:
        if where == FIRST:
            return [0]
        if where == LAST:
            return [count - 1]
        if where == EVERY:
            return list(range(count))
        return [stage_of[int(where)]]

    def bytes_by_kind(self) -> dict[str, int]:
        out: dict[str, int] = defaultdict(int)
        for (kind, _unused), nbytes in self.bytes_by_place.items():
            out[kind] += nbytes
        for _unused, _unused, nbytes in self.vocab_entries:
            out[VOCAB] += nbytes
        return dict(out)


# --- sources --------------------------------------------------------------------------------------

def records_from_safetensors_dir(model_dir: str | Path) -> list[TensorRecord]:
    """Every tensor of the checkpoint in ``model_dir``, from the safetensors headers only."""
    model_dir = Path(model_dir)
    index = model_dir / "model.safetensors.index.json"
    if index.exists():
        try:
            weight_map = json.loads(index.read_text(encoding="utf-8"))["weight_map"]
        except (ValueError, KeyError, TypeError) as err:
            raise KimiDeployError(f"{index}: not a safetensors index (no weight_map); fetch it again") from err
        files = sorted({model_dir / f for f in weight_map.values()})
    else:
        files = sorted(model_dir.glob("*.safetensors"))
    if not files:
        raise KimiDeployError(f"{model_dir}: no *.safetensors files; the planner needs the checkpoint's "
                              "headers (or pass model_config + tensor_table, or hf_repo)")
    records = []
    for path in files:
        if not path.exists():
            raise KimiDeployError(f"{path}: listed in the index but missing; the download is incomplete")
        header = read_header(path)
        records.extend(TensorRecord(t.name, t.dtype, t.shape, t.nbytes) for t in header.tensors.values())
    return records


def load_tensor_table(table: str | Path | dict[str, Any]) -> dict[str, Any]:
    if isinstance(table, dict):
        return table
    path = Path(table)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise KimiDeployError(f"{path}: tensor table not found") from err
    except json.JSONDecodeError as err:
        raise KimiDeployError(f"{path}: tensor table is not valid JSON ({err})") from err
    if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list):
        raise KimiDeployError(f"{path}: a tensor table is a JSON object with a 'rows' list")
    return doc


def records_from_tensor_table(table: str | Path | dict[str, Any]) -> list[TensorRecord]:
    """Table rows as records; ``{expert}``/``{block}`` rows count many tensors, ``{layer}`` rows many layers."""
    doc = load_tensor_table(table)
    layer_sets = doc.get("layer_sets") or {}
    records = []
    for row in doc["rows"]:
        try:
            name, dtype, shape = str(row["name"]), str(row["dtype"]), tuple(int(d) for d in row["shape"])
        except (KeyError, TypeError, ValueError) as err:
            raise KimiDeployError(f"tensor table row {row!r} needs name, dtype and shape") from err
        layers = None
        if "{layer}" in name:
            layer_set = row.get("layers")
            if layer_set not in layer_sets:
                raise KimiDeployError(f"tensor table row {name!r}: layer set {layer_set!r} is not defined "
                                      f"in layer_sets ({', '.join(layer_sets)})")
            layers = tuple(int(i) for i in layer_sets[layer_set])
            name = name.replace("{layer}", str(layers[0]))
        count = int(row.get("experts") or row.get("blocks") or 1)
        name = name.replace("{expert}", "0").replace("{block}", "0")
        records.append(TensorRecord(name, dtype, shape, tensor_nbytes(dtype, shape), count, layers))
    return records


def records_from_hub(repo_id: str, revision: str | None = None, endpoint: str | None = None,
                     token: str | None = None) -> list[TensorRecord]:
    """Tensor list of a hub repository from its safetensors headers (HTTP range reads, no download)."""
    try:
        from huggingface_hub import HfApi
    except ImportError as err:  # pragma: no cover - depends on the controller's environment
        raise KimiDeployError("planning from hf_repo needs the huggingface_hub package on the controller; "
                              "install it or pass model_dir / model_config + tensor_table") from err
    api = HfApi(endpoint=endpoint, token=token)
    try:
        meta = api.get_safetensors_metadata(repo_id, revision=revision)
    except Exception as err:  # hub errors come in many classes; the message is what counts
        raise KimiDeployError(f"could not read safetensors metadata of {repo_id}@{revision or 'main'}: "
                              f"{type(err).__name__}: {err}; check hf_repo, revision, hf_endpoint and "
                              "hf_token") from err
    records = []
    for file_meta in meta.files_metadata.values():
        for name, info in file_meta.tensors.items():
            begin, end = info.data_offsets
            records.append(TensorRecord(name, info.dtype, tuple(info.shape), int(end) - int(begin)))
    return records


def records_summary(records: Sequence[TensorRecord]) -> dict[str, int]:
    return {"tensors": sum(r.total_tensors for r in records), "bytes": sum(r.total_bytes for r in records)}


def records_from_config(profile: ModelProfile, dtype: str = "BF16") -> list[TensorRecord]:
    """The tensor list a dense or MoE decoder's ``config.json`` determines, for checkpoints that keep every
    weight in one dtype (Llama, Qwen2/3, Qwen3-MoE, Mixtral layouts): embeddings, lm_head unless tied,
    q/k/v/o, the MLP or the routed experts (+ router, + shared expert) and the two norms of each layer.

    Checkpoints with MLA, KDA, a vision tower or quantized weights are refused: their tensor lists are not
    fixed by the text config (scales, packing, projector shapes), so read their headers instead.
    """
    if profile.mla is not None or profile.kda is not None or profile.vision is not None:
        raise KimiDeployError(f"{profile.name}: MLA, KDA or vision checkpoints need their real tensor list "
                              "(model_dir, tensor_table or hf_repo), not one derived from config.json")
    if profile.quantization is not None:
        raise KimiDeployError(f"{profile.name}: quantized ({profile.quantization.method}) checkpoints carry "
                              "scales and packed shapes config.json does not fix; read their headers")
    width = tensor_nbytes(dtype, (1,))
    h, heads, kv, hd = profile.hidden_size, profile.num_attention_heads, profile.num_kv_heads, profile.head_dim
    layers = tuple(range(profile.num_layers))

    def rec(name: str, shape: tuple[int, ...], where: tuple[int, ...] | None = layers, count: int = 1) -> TensorRecord:
        nbytes = width
        for dim in shape:
            nbytes *= dim
        return TensorRecord(name, dtype, shape, nbytes, count, where)

    out = [rec("model.embed_tokens.weight", (profile.vocab_size, h), None), rec("model.norm.weight", (h,), None)]
    if not profile.tie_word_embeddings:
        out.append(rec("lm_head.weight", (profile.vocab_size, h), None))
    out += [
        rec("model.layers.0.self_attn.q_proj.weight", (heads * hd, h)),
        rec("model.layers.0.self_attn.k_proj.weight", (kv * hd, h)),
        rec("model.layers.0.self_attn.v_proj.weight", (kv * hd, h)),
        rec("model.layers.0.self_attn.o_proj.weight", (h, heads * hd)),
        rec("model.layers.0.input_layernorm.weight", (h,)),
        rec("model.layers.0.post_attention_layernorm.weight", (h,)),
    ]
    moe = profile.moe
    if moe is not None and moe.num_shared_experts:
        raise KimiDeployError(f"{profile.name}: shared-expert sizes differ between families; read the "
                              "checkpoint's headers instead of deriving them from config.json")
    moe_layers = tuple(moe.moe_layers) if moe else ()
    dense_layers = tuple(i for i in layers if i not in set(moe_layers))
    if dense_layers:
        inter = profile.intermediate_size or 0
        if inter <= 0:
            raise KimiDeployError(f"{profile.name}: config.json has no intermediate_size for the dense MLP")
        for proj, shape in (("gate_proj", (inter, h)), ("up_proj", (inter, h)), ("down_proj", (h, inter))):
            out.append(rec(f"model.layers.0.mlp.{proj}.weight", shape, dense_layers))
    if moe and moe_layers:
        inter = moe.moe_intermediate_size
        out.append(rec("model.layers.0.mlp.gate.weight", (moe.num_experts, h), moe_layers))
        for proj, shape in (("gate_proj", (inter, h)), ("up_proj", (inter, h)), ("down_proj", (h, inter))):
            out.append(rec(f"model.layers.0.mlp.experts.0.{proj}.weight", shape, moe_layers, moe.num_experts))
    return out
