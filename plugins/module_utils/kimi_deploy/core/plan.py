"""The plan, typed: what the planner decided (``Layout``, ``Memory``, the sizes) and what vLLM is told (``ServeFlags``).

``Plan.to_dict`` is the plan the roles read (``kimi_plan_result``) and ``release.json`` stores, with
``schema_version``; ``Plan.from_dict`` reads every version written so far. ``render_argv`` is the one place a
plan becomes ``vllm serve`` arguments; consumers read the fields (``plan.serve_flags.distributed_executor_backend``,
``plan.layout.nnodes``), never the argv.

Version 0 (no ``schema_version``) is the untyped dict of releases written before: its ``serve_args`` is the
truth of what ran, so it is read back into the fields. A version-1 dict whose ``serve_args`` was extended after
planning (flags appended by a playbook) is read the same way for the appended part.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from .argv import argv_params, split_argv
from .errors import KimiDeployError

PLAN_SCHEMA_VERSION = 1
BACKENDS = ("mp", "ray")


@dataclass(frozen=True)
class Layout:
    """How one replica spreads the model: the parallel sizes vLLM takes, and the nodes it takes them on."""

    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 1
    data_parallel_size: int = 1
    enable_expert_parallel: bool = False
    decode_context_parallel_size: int = 1
    nnodes: int = 1
    gpus_per_node: int = 1
    pp_layer_partition: tuple[int, ...] | None = None
    nodes: tuple[str, ...] = ()

    @property
    def world_size(self) -> int:
        return self.tensor_parallel_size * self.pipeline_parallel_size * self.data_parallel_size

    @property
    def data_parallel_size_local(self) -> int:
        """DP ranks on each node (vLLM ``--data-parallel-size-local``)."""
        dp = self.data_parallel_size
        return max(1, dp // self.nnodes) if dp > 1 else 1

    def describe(self) -> str:
        parts = [f"TP{self.tensor_parallel_size}"]
        if self.pipeline_parallel_size > 1:
            parts.append(f"PP{self.pipeline_parallel_size}")
        if self.data_parallel_size > 1:
            parts.append(f"DP{self.data_parallel_size}")
        text = " x ".join(parts)
        if self.enable_expert_parallel:
            text += f" + EP{self.tensor_parallel_size * self.data_parallel_size}"
        if self.decode_context_parallel_size > 1:
            text += f" + DCP{self.decode_context_parallel_size}"
        where = f"{self.nnodes} nodes x {self.gpus_per_node}" if self.nnodes > 1 else f"1 node x {self.gpus_per_node}"
        return f"{where}, {text}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "tensor_parallel_size": self.tensor_parallel_size,
            "pipeline_parallel_size": self.pipeline_parallel_size,
            "data_parallel_size": self.data_parallel_size,
            "data_parallel_size_local": self.data_parallel_size_local,
            "enable_expert_parallel": self.enable_expert_parallel,
            "decode_context_parallel_size": self.decode_context_parallel_size,
            "nodes": list(self.nodes),
            "nnodes": self.nnodes,
            "gpus_per_node": self.gpus_per_node,
            "world_size": self.world_size,
            "pp_layer_partition": list(self.pp_layer_partition) if self.pp_layer_partition else None,
        }

    @classmethod
    def from_dict(cls, layout: Mapping[str, Any]) -> Layout:
        """A plan's ``layout``; absent sizes are vLLM's defaults (1), derived keys are recomputed."""
        try:
            nodes = tuple(str(n) for n in layout.get("nodes") or ())
            partition = layout.get("pp_layer_partition")
            return cls(
                tensor_parallel_size=int(layout.get("tensor_parallel_size") or 1),
                pipeline_parallel_size=int(layout.get("pipeline_parallel_size") or 1),
                data_parallel_size=int(layout.get("data_parallel_size") or 1),
                enable_expert_parallel=bool(layout.get("enable_expert_parallel")),
                decode_context_parallel_size=int(layout.get("decode_context_parallel_size") or 1),
                nnodes=int(layout.get("nnodes") or len(nodes) or 1),
                gpus_per_node=int(1 if layout.get("gpus_per_node") is None else layout["gpus_per_node"]),
                pp_layer_partition=tuple(int(p) for p in partition) if partition else None,
                nodes=nodes,
            )
        except (TypeError, ValueError, AttributeError) as err:
            raise KimiDeployError(f"the plan's layout is not readable ({err}); plan the release again") from err


@dataclass(frozen=True)
class Memory:
    """The per-GPU ledger of the limiting pipeline stage (per host on the CPU build), in bytes."""

    total_bytes: int = 0
    requested_bytes: int | None = None
    weights_bytes: int = 0
    weights_bytes_max_stage: int = 0
    weights_by_kind: dict[str, int] = field(default_factory=dict)
    activation_reserve_bytes: int = 0
    # Encoder outputs vLLM's profile run holds at its peak when images are served (MemoryAccounting.encoder_cache_bytes)
    encoder_cache_reserve_bytes: int = 0
    non_torch_reserve_bytes: int = 0
    cudagraph_reserve_bytes: int = 0
    out_of_pool_reserve_bytes: int = 0
    kv_budget_bytes: int = 0
    kv_bytes_per_token: int = 0
    state_bytes_per_sequence: int = 0
    bytes_per_block: int = 0
    blocks_per_request: int = 0
    num_blocks: int = 0
    kv_tokens: int = 0
    max_concurrency: float = 0.0
    full_length_sequences: int = 0
    stages: list[dict[str, Any]] = field(default_factory=list)
    context_alignment: dict[str, Any] | None = None
    host_room_bytes: int | None = None  # CPU build: host memory left for KV after weights and processes
    sources: dict[str, str] | None = None  # per reserve: measured, estimated or given (calibration.py)

    _OPTIONAL = ("context_alignment", "host_room_bytes", "sources")

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        for name in self._OPTIONAL:
            if out[name] is None:
                del out[name]
        return out

    @classmethod
    def from_dict(cls, memory: Mapping[str, Any]) -> Memory:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in memory.items() if k in known})


@dataclass(frozen=True)
class ServeFlags:
    """What vLLM is told besides the layout and the sizes: planner inputs, the recipe's flags, the operator's."""

    kv_cache_memory_bytes: int | None = None  # explicit on CUDA; the planned KV space on the CPU build
    kv_cache_dtype: str | None = None  # only when it is not the model's own dtype
    block_size: int | None = None
    trust_remote_code: bool = False
    enforce_eager: bool = False
    enable_prefix_caching: bool | None = None
    language_model_only: bool = False
    limit_mm_per_prompt: dict[str, int] | None = None  # {modality: images} when the declared forms send images
    # Hosts image URLs may come from (model_forms.allowed_media_domains) when the server takes images; None: no flag.
    allowed_media_domains: tuple[str, ...] | None = None
    speculative_config: dict[str, Any] | None = None
    attention_backend: str | None = None
    recipe_args: tuple[str, ...] = ()  # the known-good flags of the model family on this GPU
    attention_config: dict[str, Any] | None = None
    distributed_executor_backend: str = "mp"
    extra_args: tuple[str, ...] = ()  # the operator's, last, so they win

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["recipe_args"], out["extra_args"] = list(self.recipe_args), list(self.extra_args)
        if self.allowed_media_domains is not None:
            out["allowed_media_domains"] = list(self.allowed_media_domains)
        return out

    @classmethod
    def from_dict(cls, flags: Mapping[str, Any]) -> ServeFlags:
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in flags.items() if k in known}
        for name in ("recipe_args", "extra_args"):
            values[name] = tuple(str(a) for a in values.get(name) or ())
        if values.get("allowed_media_domains") is not None:
            values["allowed_media_domains"] = tuple(str(d) for d in values["allowed_media_domains"])
        return cls(**values)


@dataclass(frozen=True)
class Plan:
    fits: bool = False
    reasons: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    platform: str = "cuda"
    architecture: str = ""
    model: dict[str, Any] = field(default_factory=dict)
    layout: Layout = field(default_factory=Layout)
    suggested_layout: dict[str, Any] | None = None
    max_model_len: int = 0
    max_num_seqs: int = 0
    max_num_batched_tokens: int = 0
    gpu_memory_utilization: float | None = None
    kv_cache_dtype: str = ""
    block_size: int = 0
    concurrency_target: int = 1
    memory: Memory = field(default_factory=Memory)
    predicted_kv_tokens: int = 0
    layouts_evaluated: int = 0
    replicas_needed: int | None = None
    concurrency_per_replica: int | None = None
    gpus_total: int = 0
    nodes_total: int = 0
    replica_layout: dict[str, Any] | None = None
    serve_flags: ServeFlags = field(default_factory=ServeFlags)
    env: dict[str, str] = field(default_factory=dict)
    summary: str = ""
    calibration: dict[str, Any] | None = None
    # What the model accepts and emits, with evidence (ModelForms.record()), and the declared input forms.
    model_forms: dict[str, Any] | None = None
    # The image side of the plan (MultimodalBudget): images per prompt, tokens per image, encoder cache.
    multimodal: dict[str, Any] | None = None

    _OPTIONAL = ("calibration", "model_forms", "multimodal")  # absent from the dict when None (older plans)

    @property
    def serve_args(self) -> list[str]:
        return render_argv(self)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"schema_version": PLAN_SCHEMA_VERSION}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("layout", "memory", "serve_flags"):
                value = value.to_dict()
            elif f.name in ("reasons", "warnings"):
                value = list(value)
            out[f.name] = value
        for name in self._OPTIONAL:
            if out[name] is None:
                del out[name]
        out["serve_args"] = render_argv(self)
        return out

    @classmethod
    def from_dict(cls, plan: Mapping[str, Any]) -> Plan:
        """A plan of any schema version (see the module docstring); unknown keys are ignored."""
        if not isinstance(plan, Mapping):
            raise KimiDeployError(f"a plan must be a mapping, not {type(plan).__name__}")
        version = int(plan.get("schema_version") or 0)
        if version > PLAN_SCHEMA_VERSION:
            raise KimiDeployError(f"the plan has schema_version {version}, newer than this collection reads "
                                  f"({PLAN_SCHEMA_VERSION}); update the collection")
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {k: v for k, v in plan.items() if k in known}
        values["layout"] = Layout.from_dict(plan.get("layout") or {})
        values["memory"] = Memory.from_dict(plan.get("memory") or {})
        values["serve_flags"] = ServeFlags.from_dict(plan.get("serve_flags") or {})
        values["reasons"] = tuple(plan.get("reasons") or ())
        values["warnings"] = tuple(plan.get("warnings") or ())
        values["env"] = {str(k): str(v) for k, v in (plan.get("env") or {}).items()}
        parsed = cls(**values)
        if "serve_args" not in plan:
            return parsed
        stored = [str(a) for a in plan.get("serve_args") or ()]
        rendered = render_argv(parsed)
        if version >= 1 and stored == rendered:
            return parsed
        if version >= 1 and stored[:len(rendered)] == rendered:
            return _with_argv(parsed, stored[len(rendered):])  # flags appended after planning
        # Version 0, or an argv changed by hand: what ran is the argv; the fields follow it.
        return _with_argv(replace(parsed, serve_flags=ServeFlags()), stored)


# vllm serve flags that are plan fields, by where they live.
_LAYOUT_FLAGS = ("tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size", "enable_expert_parallel",
                 "decode_context_parallel_size")
_SIZE_FLAGS = ("max_model_len", "max_num_seqs", "max_num_batched_tokens", "gpu_memory_utilization")
_FLAG_FIELDS = ("kv_cache_memory_bytes", "kv_cache_dtype", "block_size", "trust_remote_code", "enforce_eager",
                "enable_prefix_caching", "language_model_only", "limit_mm_per_prompt", "allowed_media_domains",
                "speculative_config", "attention_backend", "attention_config", "distributed_executor_backend")
_JSON_FLAGS = ("speculative_config", "attention_config", "limit_mm_per_prompt")


def _with_argv(plan: Plan, argv: Sequence[str]) -> Plan:
    """``plan`` with the flags of ``argv`` read into its fields; flags that are no field become extra args."""
    items, positional = split_argv(argv)
    layout: dict[str, Any] = {}
    sizes: dict[str, Any] = {}
    flags: dict[str, Any] = {}
    extra: list[str] = []
    for name, value, tokens in items:
        if name in _LAYOUT_FLAGS:
            layout[name] = value
        elif name in _SIZE_FLAGS:
            sizes[name] = value
        elif name in _FLAG_FIELDS:
            typed = value
            if name in _JSON_FLAGS and isinstance(value, str):
                try:
                    typed = json.loads(value)
                except ValueError:
                    extra += tokens
                    continue
            elif name in ("kv_cache_dtype", "attention_backend", "distributed_executor_backend"):
                typed = str(value)
            elif name == "allowed_media_domains":
                typed = tuple(str(v) for v in (value if isinstance(value, tuple) else (value,)))
            flags[name] = typed
        else:
            extra += tokens
    extra += positional
    serve_flags = replace(plan.serve_flags, extra_args=plan.serve_flags.extra_args + tuple(extra), **flags)
    return replace(plan, layout=replace(plan.layout, **layout), serve_flags=serve_flags, **sizes)


def render_argv(plan: Plan) -> list[str]:  # noqa: C901, PLR0912 - one branch per vLLM flag, in argv order
    """The arguments after ``vllm serve <model>``: layout, sizes, flags, the recipe's, the operator's last."""
    lay, flags, cuda = plan.layout, plan.serve_flags, plan.platform == "cuda"
    args: list[str] = []
    if not cuda and lay.nnodes > 1:  # one CPU worker per node of the replica
        if lay.tensor_parallel_size > 1:
            args += ["--tensor-parallel-size", str(lay.tensor_parallel_size)]
        if lay.pipeline_parallel_size > 1:
            args += ["--pipeline-parallel-size", str(lay.pipeline_parallel_size)]
    if cuda:
        args += ["--tensor-parallel-size", str(lay.tensor_parallel_size)]
        if lay.pipeline_parallel_size > 1:
            args += ["--pipeline-parallel-size", str(lay.pipeline_parallel_size)]
        if lay.data_parallel_size > 1:
            args += ["--data-parallel-size", str(lay.data_parallel_size)]
        if lay.enable_expert_parallel:
            args.append("--enable-expert-parallel")
        if lay.decode_context_parallel_size > 1:
            args += ["--decode-context-parallel-size", str(lay.decode_context_parallel_size)]
    args += ["--max-model-len", str(plan.max_model_len), "--max-num-seqs", str(plan.max_num_seqs),
             "--max-num-batched-tokens", str(plan.max_num_batched_tokens)]
    if cuda and plan.gpu_memory_utilization is not None:
        args += ["--gpu-memory-utilization", f"{plan.gpu_memory_utilization:.2f}"]
    if flags.kv_cache_memory_bytes is not None:
        args += ["--kv-cache-memory-bytes", str(flags.kv_cache_memory_bytes)]
    if flags.kv_cache_dtype:
        args += ["--kv-cache-dtype", flags.kv_cache_dtype]
    if flags.block_size:
        args += ["--block-size", str(flags.block_size)]
    if flags.trust_remote_code:
        args.append("--trust-remote-code")
    if flags.enforce_eager:
        args.append("--enforce-eager")
    if flags.enable_prefix_caching is not None:
        args.append("--enable-prefix-caching" if flags.enable_prefix_caching else "--no-enable-prefix-caching")
    if flags.language_model_only:
        args.append("--language-model-only")
    if flags.limit_mm_per_prompt:
        args += ["--limit-mm-per-prompt", _compact_json(flags.limit_mm_per_prompt)]
    if flags.allowed_media_domains:
        args += ["--allowed-media-domains", *flags.allowed_media_domains]
    if flags.speculative_config:
        args += ["--speculative-config", _compact_json(flags.speculative_config)]
    if flags.attention_backend:
        args += ["--attention-backend", flags.attention_backend]
    args += list(flags.recipe_args)
    if flags.attention_config:
        args += ["--attention-config", _compact_json(flags.attention_config)]
    if flags.distributed_executor_backend != "mp":
        args += ["--distributed-executor-backend", flags.distributed_executor_backend]
    return args + list(flags.extra_args)


def _compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def launch_params(plan: Plan) -> dict[str, Any]:
    """``{name: value}`` of what the plan launches (the ledger's columns and comparisons): layout sizes, scalar
    fields, flags that are set, then the recipe's and the operator's flags (which win, as in vLLM's parser)."""
    params: dict[str, Any] = {}
    for name, value in {**plan.layout.to_dict(), **plan.to_dict()}.items():
        if not isinstance(value, (Mapping, list, tuple)) and name != "schema_version":
            params[name] = value
    for name, value in plan.serve_flags.to_dict().items():
        if name in ("recipe_args", "extra_args") or value is None or value is False:
            continue
        if name == "distributed_executor_backend" and value == "mp":
            continue
        params[name] = value
    params.update(argv_params([*plan.serve_flags.recipe_args, *plan.serve_flags.extra_args]))
    return params
