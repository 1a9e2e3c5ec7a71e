"""What a plan is made from: the nodes (GPU facts), the business need, and the planner's knobs (``PlanOptions``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import KimiDeployError
from .model_forms import DECLARABLE_INPUT_FORMS, FORM_IMAGE, media_domain_errors
from .plan import BACKENDS


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
    # The input forms the users send (text, image, tools); None: not declared, the flags stay as the family's
    # table and language_model_only say. Declared: the tool parser only with tools, and images either
    # --limit-mm-per-prompt images_per_prompt (default 1) or --language-model-only.
    input_forms: tuple[str, ...] | None = None
    images_per_prompt: int | None = None
    fit_images_per_prompt: bool = False  # lower images_per_prompt to what max_model_len holds instead of refusing
    # Hosts image URLs may come from (exact names, vLLM --allowed-media-domains); empty: URL images refused, images
    # only inline (base64 data URLs). Applies whenever the server takes images.
    media_url_domains: tuple[str, ...] = ()
    cpu_amx: bool | None = None
    max_suggested_nodes: int = 64
    # Passed through to the release: the executor of a multi-node replica, the operator's flags and environment.
    distributed_executor_backend: str = "mp"
    extra_args: tuple[str, ...] = ()
    extra_env: dict[str, str] | None = None

    @property
    def declared_images_per_prompt(self) -> int | None:
        """Images per prompt the declared forms ask for: None undeclared, 0 text only."""
        if self.input_forms is None:
            return None
        return (self.images_per_prompt or 1) if FORM_IMAGE in self.input_forms else 0

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
        if self.distributed_executor_backend not in BACKENDS:
            errors.append(f"distributed_executor_backend must be one of {', '.join(BACKENDS)} "
                          f"(got {self.distributed_executor_backend!r})")
        if self.num_speculative_tokens < 0:
            errors.append(f"num_speculative_tokens must be >= 0 (got {self.num_speculative_tokens})")
        return errors + self._form_errors()

    def _form_errors(self) -> list[str]:
        errors = []
        unknown = sorted(set(self.input_forms or ()) - set(DECLARABLE_INPUT_FORMS))
        if unknown:
            errors.append(f"input_forms {unknown} unknown: use {', '.join(DECLARABLE_INPUT_FORMS)}")
        if self.images_per_prompt is not None and self.images_per_prompt < 1:
            errors.append(f"images_per_prompt must be >= 1 (got {self.images_per_prompt}); leave image out of "
                          "input_forms to serve text only")
        if self.input_forms is not None and FORM_IMAGE in self.input_forms and self.language_model_only:
            errors.append("input_forms declares image but language_model_only is true (vision off); drop one")
        return errors + media_domain_errors(self.media_url_domains)
