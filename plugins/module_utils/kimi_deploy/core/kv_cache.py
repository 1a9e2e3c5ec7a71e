"""KV cache accounting, the way vLLM's V1 engine does it (vLLM 0.32 source is the reference).

Per layer and per block, vLLM allocates one *page*:

- standard attention (MHA/GQA): ``2 * block * kv_heads_per_rank * head_dim * b`` where
  ``kv_heads_per_rank = max(1, kv_heads // TP)`` (``ModelConfig.get_num_kv_heads``);
- MLA: ``block * (kv_lora_rank + qk_rope_head_dim) * b``, the same on every TP rank
  (``MLAAttentionSpec``, ``num_kv_heads=1``); ``fp8_ds_mla`` stores 656 bytes per token;
- KDA (linear attention, ``MambaSpec``): a fixed state per sequence, conv state
  ``(kernel - 1 + num_spec) * (heads*head_dim + 2*k_heads*head_k_dim) / TP`` in the model dtype plus a
  recurrent state ``heads/TP * head_dim^2`` in fp32 (``MambaStateShapeCalculator.kda_state_shape``).

Hybrid models share one block pool, so every page must have the same size:
``Platform._align_hybrid_block_size`` raises the attention block size until an attention page
holds the KDA state, and pads the KDA page up to it. Layers are then split into groups of equal
size (``_get_kv_cache_groups_uniform_page_size``); one block id costs ``group_size`` pages,
which is the divisor of ``num_blocks``. With pipeline parallelism each stage only holds its own
layers and vLLM keeps the smallest ``num_blocks`` across stages.

The capacity vLLM logs (``KV cache size: N tokens``) is ``int(num_blocks / blocks_per_request *
max_model_len)`` (``get_kv_cache_capacity``), computed here with the same float arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import KimiDeployError
from .model_profile import DTYPE_BYTES, ModelProfile

# KV cache dtypes the planner accepts (a subset of vLLM's CacheDType) and their bytes per element.
KV_CACHE_DTYPE_BYTES = {
    "bfloat16": 2,
    "float16": 2,
    "fp8": 1,
    "fp8_e4m3": 1,
    "fp8_e5m2": 1,
    "fp8_ds_mla": 1,
}
# FlashMLA-sparse's fp8 layout: 512 fp8 latent + 4 fp32 scales + 64 bf16 rope (kv_cache_interface).
FP8_DS_MLA_BYTES_PER_TOKEN = 656
# KDA recurrent state dtype (``MambaStateDtypeCalculator.kda_state_dtype`` with ssm dtype "auto").
KDA_RECURRENT_STATE_BYTES = 4
# Hybrid MLA models round the manager block to a multiple of this ("TRTLLM/FlashInfer MLA decode
# kernels require the physical number of kernel blocks to be aligned to 128").
MLA_HYBRID_BLOCK_ALIGNMENT = 128

# Smallest kernel block of each attention backend (``get_supported_kernel_block_sizes``), which is
# what vLLM picks when its default of 16 is not supported. Facts about backends, not answers.
ATTENTION_BACKEND_MIN_BLOCK = {
    "FLASH_ATTN": 16,
    "FLASHINFER": 16,
    "TRITON_ATTN": 16,
    "FLASH_ATTN_MLA": 16,
    "TRITON_MLA": 16,
    "FLASHMLA": 64,
    "FLASHINFER_MLA": 32,
    "TOKENSPEED_MLA": 32,
    "CUTLASS_MLA": 128,
    "CPU_ATTN": 32,
    "CPU_MLA": 16,
    "AMX_MLA": 32,
}
# vLLM's CacheConfig.DEFAULT_BLOCK_SIZE on CUDA.
CUDA_DEFAULT_BLOCK_SIZE = 16


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def resolve_kv_cache_dtype(kv_cache_dtype: str, model_dtype: str) -> str:
    """``auto`` means the model dtype; anything else must be a dtype vLLM can store KV in."""
    if kv_cache_dtype == "auto":
        return model_dtype
    if kv_cache_dtype not in KV_CACHE_DTYPE_BYTES:
        raise KimiDeployError(f"kv_cache_dtype {kv_cache_dtype!r} is not supported by the planner; use one "
                              f"of auto, {', '.join(KV_CACHE_DTYPE_BYTES)}")
    return kv_cache_dtype


def kv_dtype_bytes(kv_cache_dtype: str, model_dtype: str) -> int:
    resolved = resolve_kv_cache_dtype(kv_cache_dtype, model_dtype)
    return KV_CACHE_DTYPE_BYTES.get(resolved) or DTYPE_BYTES[resolved]


def attention_page_bytes_per_token(profile: ModelProfile, tp: int, kv_cache_dtype: str) -> int:
    """Bytes one token occupies in one attention layer on one rank."""
    b = kv_dtype_bytes(kv_cache_dtype, profile.dtype)
    if profile.mla is not None:
        if resolve_kv_cache_dtype(kv_cache_dtype, profile.dtype) == "fp8_ds_mla":
            return FP8_DS_MLA_BYTES_PER_TOKEN
        return profile.mla.latent_dim * b
    if kv_cache_dtype == "fp8_ds_mla":
        raise KimiDeployError("kv_cache_dtype fp8_ds_mla only exists for MLA models; use fp8 or auto")
    kv_heads_per_rank = max(1, profile.num_kv_heads // tp)
    return 2 * kv_heads_per_rank * profile.head_dim * b


def kda_state_bytes_per_layer(profile: ModelProfile, tp: int, num_speculative_tokens: int = 0) -> int:
    """Conv + recurrent state of one KDA layer for one sequence on one rank, before page padding."""
    kda = profile.kda
    if kda is None:
        return 0
    conv_dim = kda.num_heads * kda.head_dim + 2 * kda.num_k_heads * kda.head_k_dim
    if conv_dim % tp or kda.num_heads % tp:
        raise KimiDeployError(f"KDA dims ({kda.num_heads} heads, conv {conv_dim}) are not divisible by TP {tp}")
    conv = (kda.conv_kernel_size - 1 + num_speculative_tokens) * (conv_dim // tp) * profile.dtype_bytes
    recurrent = (kda.num_heads // tp) * kda.head_dim * kda.head_dim * KDA_RECURRENT_STATE_BYTES
    return conv + recurrent


def hybrid_block_size(attn_page_1_token: int, state_page: int, block_size: int,
                      kernel_min_block: int, uses_mla: bool) -> int:
    """``Platform._align_hybrid_block_size``: smallest aligned block whose attention page holds the state."""
    alignment = max(kernel_min_block, block_size)
    if uses_mla:
        alignment = max(alignment, MLA_HYBRID_BLOCK_ALIGNMENT)
    aligned = alignment * cdiv(state_page, alignment * attn_page_1_token)
    aligned = kernel_min_block * cdiv(aligned, kernel_min_block)
    return max(block_size, aligned)


def default_pp_partition(num_layers: int, pp: int) -> tuple[int, ...]:
    """Layers per pipeline stage as ``vllm.distributed.utils.get_pp_indices`` splits them."""
    if pp < 1 or pp > num_layers:
        raise KimiDeployError(f"pipeline_parallel_size {pp} must be between 1 and the {num_layers} layers")
    parts = [num_layers // pp] * pp
    for i in range(2, num_layers % pp + 2):
        parts[-i] += 1
    return tuple(parts)


def check_pp_partition(partition: Sequence[int], num_layers: int, pp: int) -> tuple[int, ...]:
    parts = tuple(int(p) for p in partition)
    if len(parts) != pp or sum(parts) != num_layers or min(parts) < 1:
        raise KimiDeployError(f"pp_layer_partition {list(parts)} must be {pp} positive counts summing to "
                              f"{num_layers} layers (it becomes VLLM_PP_LAYER_PARTITION)")
    return parts


def stage_ranges(partition: Sequence[int]) -> list[range]:
    out, start = [], 0
    for count in partition:
        out.append(range(start, start + count))
        start += count
    return out


@dataclass(frozen=True)
class KvCacheGroup:
    kind: str  # "attention" or "linear"
    layers: tuple[int, ...]


def kv_cache_groups(profile: ModelProfile) -> list[KvCacheGroup]:
    """Layers grouped as ``get_kv_cache_groups`` does (one group when every layer is alike)."""
    attention = profile.full_attention_layers
    linear = profile.linear_attention_layers
    if not linear:
        return [KvCacheGroup("attention", attention)]
    buckets = [("linear", linear), ("attention", attention)] if linear[0] < attention[0] else \
        [("attention", attention), ("linear", linear)]
    smallest = min(len(layers) for _unused, layers in buckets)
    largest = max(len(layers) for _unused, layers in buckets)
    group_size = largest if largest < smallest * 1.5 else smallest
    groups = []
    for kind, layers in buckets:
        count = cdiv(len(layers), group_size)
        groups.extend(KvCacheGroup(kind, layers[i::count]) for i in range(count))
    return groups


@dataclass(frozen=True)
class KvCacheLayout:
    """Everything about one layout's KV cache that does not depend on the memory budget."""

    block_size: int
    kv_cache_dtype: str
    attn_page_bytes_per_token: int
    state_bytes_per_layer: int  # raw KDA state per layer per sequence (0 without linear layers)
    page_bytes: int  # bytes of one layer's page in one block (uniform after hybrid alignment)
    groups: tuple[KvCacheGroup, ...]
    partition: tuple[int, ...]
    dcp: int
    linear_blocks_per_request: int

    @property
    def pp(self) -> int:
        return len(self.partition)

    def stage_group_layers(self, stage: int) -> list[tuple[KvCacheGroup, int]]:
        rng = stage_ranges(self.partition)[stage]
        return [(g, sum(1 for layer in g.layers if layer in rng)) for g in self.groups]

    def stage_bytes_per_block(self, stage: int) -> int:
        """``_get_kv_cache_bytes_per_block`` for this stage's projected groups."""
        return max(count for _unused, count in self.stage_group_layers(stage)) * self.page_bytes

    def stage_kv_bytes_per_token(self, stage: int) -> int:
        attn = sum(count for g, count in self.stage_group_layers(stage) if g.kind == "attention")
        return attn * self.attn_page_bytes_per_token // self.dcp

    def stage_state_bytes_per_sequence(self, stage: int) -> int:
        linear = sum(count for g, count in self.stage_group_layers(stage) if g.kind == "linear")
        return linear * self.state_bytes_per_layer

    def blocks_per_request(self, max_model_len: int) -> int:
        """Block ids one request at ``max_model_len`` takes from the shared pool (summed over groups)."""
        total = 0
        for group in self.groups:
            if group.kind == "attention":
                total += cdiv(cdiv(max_model_len, self.dcp), self.block_size)
            else:
                total += self.linear_blocks_per_request
        return total

    def num_blocks(self, stage_budgets: Sequence[int]) -> int:
        """Blocks every rank allocates: the minimum over stages of ``budget // bytes_per_block``."""
        if len(stage_budgets) != self.pp:
            raise KimiDeployError(f"{len(stage_budgets)} stage budgets for {self.pp} pipeline stages")
        return max(0, min(b // self.stage_bytes_per_block(s) for s, b in enumerate(stage_budgets)))

    def max_concurrency(self, num_blocks: int, max_model_len: int) -> float:
        return num_blocks / self.blocks_per_request(max_model_len)

    def capacity_tokens(self, num_blocks: int, max_model_len: int) -> int:
        """What vLLM logs as ``KV cache size: N tokens`` (``get_kv_cache_capacity``)."""
        return int(self.max_concurrency(num_blocks, max_model_len) * max_model_len)

    def holds_one_request(self, num_blocks: int, max_model_len: int) -> bool:
        """vLLM's startup check, net of the null block the pool keeps for itself."""
        return num_blocks - 1 >= self.blocks_per_request(max_model_len)

    def blocks_for(self, sequences: int, max_model_len: int) -> int:
        """Blocks needed to hold ``sequences`` requests at ``max_model_len``, plus the null block."""
        return sequences * self.blocks_per_request(max_model_len) + 1

    def largest_max_model_len(self, num_blocks: int, ceiling: int) -> int:
        """Longest context one request can have with ``num_blocks`` (vLLM's estimate_max_model_len)."""
        lo, hi, best = 1, ceiling, 0
        while lo <= hi:
            mid = (lo + hi) // 2
            if self.holds_one_request(num_blocks, mid):
                best, lo = mid, mid + 1
            else:
                hi = mid - 1
        return best


def build_kv_cache_layout(profile: ModelProfile, *, tp: int = 1, pp: int = 1, dcp: int = 1,
                          kv_cache_dtype: str = "auto", block_size: int = CUDA_DEFAULT_BLOCK_SIZE,
                          kernel_min_block: int | None = None, pp_partition: Sequence[int] | None = None,
                          num_speculative_tokens: int = 0, prefix_caching: bool = False,
                          prefill_checkpoint_blocks: int = 0) -> KvCacheLayout:
    """The KV cache vLLM builds for ``profile`` on one TP x PP (x DCP) layout.

    ``block_size`` is the block vLLM has chosen before hybrid alignment (the platform default or
    the backend's preferred size); ``kernel_min_block`` the attention backend's smallest kernel
    block (defaults to ``block_size``). Prefix caching on a hybrid model switches the KDA state
    to "align" mode, which keeps two state blocks per request (``MambaSpec.max_memory_usage_bytes``).
    """
    if dcp > 1 and tp % dcp:
        raise KimiDeployError(f"decode_context_parallel_size {dcp} must divide tensor_parallel_size {tp}")
    dtype = resolve_kv_cache_dtype(kv_cache_dtype, profile.dtype)
    attn_1 = attention_page_bytes_per_token(profile, tp, kv_cache_dtype)
    state = kda_state_bytes_per_layer(profile, tp, num_speculative_tokens)
    kernel_min = kernel_min_block or block_size
    block = block_size
    if state:
        block = hybrid_block_size(attn_1, state, block_size, kernel_min, profile.uses_mla)
    page = block * attn_1
    partition = check_pp_partition(pp_partition, profile.num_layers, pp) if pp_partition \
        else default_pp_partition(profile.num_layers, pp)
    linear_blocks = (2 + prefill_checkpoint_blocks if prefix_caching else 1) + num_speculative_tokens
    return KvCacheLayout(
        block_size=block,
        kv_cache_dtype=dtype,
        attn_page_bytes_per_token=attn_1,
        state_bytes_per_layer=state,
        page_bytes=page,
        groups=tuple(kv_cache_groups(profile)),
        partition=partition,
        dcp=dcp,
        linear_blocks_per_request=linear_blocks,
    )


# vLLM's "GPU KV cache size: N tokens" line changed meaning: up to 0.19 it printed
# ``num_blocks // len(groups) * min_block_size`` (vllm#40691); by 0.24 it prints
# ``int(max_concurrency * max_model_len)`` (club-3090 logs of 0.24.0; vllm#54662 quotes the code).
# The release in between that switched is not pinned down here, so versions 0.20-0.23 are "unknown".
LOG_FORMULA_BLOCKS_UNTIL = (0, 19, 99)
LOG_FORMULA_CONCURRENCY_FROM = (0, 24, 0)


def log_capacity_formula(version: tuple[int, int, int] | None) -> str | None:
    """``"blocks"`` or ``"concurrency"``: how this vLLM version computes its logged KV tokens (None: unknown)."""
    if version is None:
        return None
    if version <= LOG_FORMULA_BLOCKS_UNTIL:
        return "blocks"
    if version >= LOG_FORMULA_CONCURRENCY_FROM:
        return "concurrency"
    return None


@dataclass(frozen=True)
class KvFromMemory:
    """What vLLM derives from one stage's KV budget (``Available KV cache memory``)."""

    num_blocks: int
    block_size: int
    blocks_formula_tokens: int  # num_blocks // groups * block_size (* dcp), the pre-0.20 log line
    capacity_tokens: int | None  # int(num_blocks / blocks_per_request * max_model_len), the newer log line
    bytes_per_block: int


def kv_from_available_memory(layout: KvCacheLayout, available_bytes: int, max_model_len: int | None = None,
                             stage: int = 0) -> KvFromMemory:
    """Blocks and the logged token figures for ``available_bytes`` of KV budget on ``stage``'s ranks."""
    bpb = layout.stage_bytes_per_block(stage)
    num_blocks = max(0, int(available_bytes) // bpb)
    blocks_tokens = num_blocks // len(layout.groups) * layout.block_size * layout.dcp
    capacity = layout.capacity_tokens(num_blocks, max_model_len) if max_model_len else None
    return KvFromMemory(num_blocks, layout.block_size, blocks_tokens, capacity, bpb)


def kv_bytes_needed(layout: KvCacheLayout, max_model_len: int, stage: int = 0) -> int:
    """vLLM's "X GiB KV cache is needed" for one request of ``max_model_len``: the sum over the stage's
    layers of ``max_memory_usage_bytes`` (attention: ``cdiv(L, block)`` pages; linear: its state pages)."""
    total = 0
    for group, count in layout.stage_group_layers(stage):
        if group.kind == "attention":
            pages = cdiv(cdiv(max_model_len, layout.dcp), layout.block_size)
        else:
            pages = layout.linear_blocks_per_request
        total += count * pages * layout.page_bytes
    return total


def estimate_max_model_len(layout: KvCacheLayout, available_bytes: int, ceiling: int, stage: int = 0) -> int:
    """vLLM's ``estimate_max_model_len``: the longest request whose KV need fits ``available_bytes``."""
    lo, hi, best = 1, ceiling, 0
    while lo <= hi:
        mid = (lo + hi) // 2
        if kv_bytes_needed(layout, mid, stage) <= available_bytes:
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    return best
