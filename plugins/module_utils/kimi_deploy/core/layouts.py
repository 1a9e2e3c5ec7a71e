"""The layout search: every way the nodes can hold one replica (TP within a node, PP and DP across nodes, EP),
in the order the planner tries them (fewest GPUs first, then simplest)."""

from __future__ import annotations

from .inputs import PlanOptions
from .kv_cache import default_pp_partition
from .model_profile import ModelProfile
from .plan import Layout


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


class LayoutSearch:
    """The layouts a model's profile and the operator's overrides allow."""

    def __init__(self, profile: ModelProfile, options: PlanOptions) -> None:
        self.profile = profile
        self.options = options

    def candidates(self, gpus_per_node: int, max_nodes: int) -> list[Layout]:
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
                            out.append(Layout(
                                tensor_parallel_size=tp, pipeline_parallel_size=pp, data_parallel_size=dp,
                                enable_expert_parallel=ep, decode_context_parallel_size=o.decode_context_parallel_size,
                                nnodes=nnodes, gpus_per_node=world // nnodes, pp_layer_partition=o.pp_layer_partition))
        out.sort(key=lambda lay: (lay.world_size, lay.nnodes, lay.data_parallel_size, lay.pipeline_parallel_size,
                                  lay.enable_expert_parallel))
        return out

    def _shape_allowed(  # noqa: PLR0911 - one return per vLLM layout constraint
        self, tp: int, pp: int, dp: int, nnodes: int, gpus_per_node: int, node_tp: int
    ) -> bool:
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
