#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_vllm_plan
short_description: Size a vLLM deployment from the GPUs and the model's own files
description:
  - Predicts what vLLM will allocate on every GPU (weights per GPU from the checkpoint's tensor list, activation,
    non-torch and CUDA-graph reserves, the KV cache in vLLM's own pages, blocks and groups), searches the layouts
    the nodes allow (TP within a node, PP and DP across nodes, expert parallel), and returns the smallest one whose
    KV cache holds O(concurrency) requests of the business context.
  - Memory first, then context (O(max_input_tokens) + O(max_output_tokens), not the model maximum), then
    concurrency (C(max_num_seqs) from O(concurrency), capped by what the KV cache holds).
  - Refuses, before anything is touched, layouts that cannot work, naming the shortfall and the smallest layout of
    the same GPUs that would.
  - On the CPU build (nodes without GPUs) sizes the KV space in bytes from the need and returns
    C(--kv-cache-memory-bytes), with the token capacity vLLM will log.
  - Read-only; reads config.json and safetensors headers (locally, or from the hub's metadata), never weights.
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  model_dir:
    description: Local model directory (C(config.json) and safetensors shards; only headers are read).
    type: path
  model_config:
    description: C(config.json) of the model, as a path or as the parsed mapping. Needs O(tensor_table).
    type: raw
  tensor_table:
    description:
      - Tensor table of the checkpoint (path or mapping), e.g. C(data/models/kimi-k3/tensor-table.json).
      - Rows with C({layer}), C({expert}) and C({block}) placeholders stand for many tensors.
    type: raw
  hf_repo:
    description: Hub repository; its C(config.json) and safetensors headers are read, no weights. Needs O(revision).
    type: str
  revision:
    description: Commit sha (or tag) of O(hf_repo).
    type: str
  hf_endpoint:
    description: Hub endpoint (a mirror); default is huggingface_hub's.
    type: str
  hf_token:
    description: Hub token for gated or private repositories.
    type: str
  model_name:
    description: Name used in messages; defaults to the directory or repository name.
    type: str
  nodes:
    description:
      - The nodes of this host group, as M(kimi.deploy.kimi_gpu_facts) reports them, C(name), C(gpus) (each with
        C(name) and C(memory_total_mib), optionally C(memory_used_mib), C(compute_capability), C(architecture)),
        C(memory_total_mib) (host RAM), C(cpu_count) and optionally C(cpu_flags).
      - Nodes with C(gpus) empty select the CPU build when O(platform=auto).
    type: list
    elements: dict
    required: true
  max_input_tokens:
    description: Longest prompt the service must accept.
    type: int
  max_output_tokens:
    description: Longest completion the service must produce.
    type: int
  max_model_len:
    description: Context length; defaults to O(max_input_tokens) + O(max_output_tokens).
    type: int
  concurrency:
    description: Requests of the full context that must run at once.
    type: int
    default: 1
  kv_cache_dtype:
    description:
      - KV cache dtype. C(auto) is the model dtype, except where the known-good table says otherwise
        (Kimi-K3 on Blackwell uses C(fp8)). C(fp8) is refused for Kimi-K3 on Hopper.
    type: str
    default: auto
    choices: [auto, bfloat16, float16, fp8, fp8_e4m3, fp8_e5m2, fp8_ds_mla]
  vllm_version:
    description: The vLLM release that will serve (C(0.32.0), C(0.32.0+cpu)); checked against feature limits.
    type: str
  platform:
    description: C(auto) is C(cpu) when no node has GPUs, else C(cuda).
    type: str
    default: auto
    choices: [auto, cuda, cpu]
  tensor_parallel_size:
    description: Fix TP instead of searching.
    type: int
  pipeline_parallel_size:
    description: Fix PP instead of searching.
    type: int
  data_parallel_size:
    description: Fix DP instead of searching (DP is only searched for MoE models, without PP).
    type: int
  enable_expert_parallel:
    description: Fix expert parallel on or off instead of searching.
    type: bool
  decode_context_parallel_size:
    description: Decode context parallel (shards the MLA KV cache across TP ranks); opt-in, must divide TP.
    type: int
    default: 1
  pp_layer_partition:
    description: Layers per pipeline stage (becomes C(VLLM_PP_LAYER_PARTITION)); by default the planner picks it.
    type: list
    elements: int
  gpu_memory_utilization:
    description: Fraction of each GPU vLLM may use; by default vLLM's default less out-of-pool workspaces.
    type: float
  max_num_seqs:
    description: Override C(max_num_seqs) (by default O(concurrency), capped by the KV cache).
    type: int
  max_num_batched_tokens:
    description: Override the per-step token budget (by default vLLM's default for the GPU).
    type: int
  block_size:
    description: Force C(--block-size) (hybrid models still align it upward, as vLLM does).
    type: int
  attention_backend:
    description: Force C(--attention-backend); its kernel block sizes enter the block-size rule.
    type: str
  kv_cache_memory_bytes:
    description: KV cache size in bytes (C(--kv-cache-memory-bytes)); vLLM then skips its own profiling.
    type: int
  activation_reserve_bytes:
    description: Override the estimated activation peak of the profile run (per GPU).
    type: int
  non_torch_reserve_bytes:
    description: Override the non-torch reserve (NCCL, all-reduce, cuBLAS workspaces; per GPU).
    type: int
  cudagraph_reserve_bytes:
    description: Override the CUDA-graph reserve (per GPU; 0 with O(enforce_eager)).
    type: int
  cuda_context_reserve_bytes:
    description: Override the CUDA context reserve outside vLLM's pool (per GPU).
    type: int
  workspace_reserve_bytes:
    description: Override the out-of-pool workspace reserve (e.g. the MXFP4 MoE workspace on Blackwell).
    type: int
  cpu_process_reserve_bytes:
    description: CPU build only, host memory of vLLM's processes besides weights and KV.
    type: int
  enforce_eager:
    description: Plan for C(--enforce-eager) (no CUDA graphs).
    type: bool
    default: false
  enable_prefix_caching:
    description:
      - Pass C(--enable-prefix-caching) (true) or C(--no-enable-prefix-caching) (false).
      - Unset leaves vLLM's default (off for Kimi-K3).
    type: bool
  speculative_config:
    description: vLLM C(--speculative-config); its C(num_speculative_tokens) enlarges the KDA state. Refused with PP.
    type: dict
  language_model_only:
    description: Skip the vision tower (C(--language-model-only)).
    type: bool
    default: false
  input_forms:
    description:
      - The input forms the users send. Unset keeps the model family's flags (the tool-call and reasoning parsers
        the model's files call for, vision as O(language_model_only) says).
      - Set, it decides the flags. C(tools) turns on the tool-call parser the model's markup calls for; C(image)
        serves O(images_per_prompt) images per prompt (C(--limit-mm-per-prompt)), and without C(image) a model with
        a vision tower is served with C(--language-model-only). The reasoning parser follows the model.
      - A plan whose context cannot hold one worst-case image (computed from the model's processor config) is
        refused, naming the variable to change.
    type: list
    elements: str
    choices: [text, image, tools]
  images_per_prompt:
    description: Images one prompt may carry when O(input_forms) has C(image) (default 1).
    type: int
  fit_images_per_prompt:
    description: Lower O(images_per_prompt) to what O(max_model_len) holds (with a warning) instead of refusing.
    type: bool
    default: false
  media_url_domains:
    description:
      - Hosts image URLs may come from, exact names (vLLM C(--allowed-media-domains) compares a URL's host with
        each before fetching; no scheme, port, path or wildcard). Applies whenever the server takes images.
      - Empty refuses every image URL (vLLM allows every host with an empty list, so the plan passes one host that
        never resolves, C(url-images-refused.invalid)); images then come inline only (base64 C(data:) URLs).
        C(file://) URLs are always refused (no C(--allowed-local-media-path)).
    type: list
    elements: str
    default: []
  cpu_amx:
    description: CPU build only, whether the host has AMX tiles (decides the MLA block size); default from C(cpu_flags).
    type: bool
  max_suggested_nodes:
    description: How many nodes of the same GPUs a refusal may suggest.
    type: int
    default: 64
  distributed_executor_backend:
    description:
      - The executor of a multi-node replica (C(kimi_distributed_backend)). C(ray) adds
        C(--distributed-executor-backend ray) to RV(plan.serve_args); C(mp) is vLLM's default and adds nothing.
      - The plan records it in C(serve_flags), where the per-node launcher reads it.
    type: str
    default: mp
    choices: [mp, ray]
  extra_args:
    description: The operator's own C(vllm serve) arguments, after the planned ones (so they win); kept in the plan.
    type: list
    elements: str
    default: []
  extra_env:
    description: The operator's environment for the unit, over the planned one (RV(plan.env)).
    type: dict
    default: {}
  fail_when_unfit:
    description: Fail when the plan does not fit (set false to print a refused plan, as plan.yml does).
    type: bool
    default: true
  calibration:
    description:
      - The content of a calibration file the calibrate step wrote (M(kimi.deploy.kimi_calibration)), pinned by the
        inventory (C(kimi_plan_calibration_file)). Its measured reserves (activation, non-torch, CUDA graphs) replace
        the estimates when its key (GPU model, vLLM version, model and revision, layout, KV dtype) matches this plan;
        otherwise the plan uses estimates and says why in C(warnings). A reserve set by hand wins over it.
      - The plan never reads a measurement by itself, so the same inputs always give the same plan.
    type: dict
  model_revision:
    description: The model revision's commit sha, for the calibration key (default O(revision)).
    type: str
  calibration_start:
    description:
      - Start vLLM with C(VLLM_LOGGING_LEVEL=DEBUG), so its memory profile logs every item (a calibration start).
        At INFO vLLM 0.32 logs the items too, but folds the CUDA-graph estimate into the peak activation.
    type: bool
    default: false
attributes:
  platform:
    platforms: posix
  check_mode:
    support: full
    details: The module only computes; it changes nothing in either mode.
  diff_mode:
    support: none
notes:
  - The memory ledger and every reserve are explained in C(docs/sizing.md).
seealso:
  - module: kimi.deploy.kimi_gpu_facts
  - module: kimi.deploy.kimi_weights_verify
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
"""

EXAMPLES = r"""
- name: Plan Kimi-K3 for this host group from the shipped profile
  kimi_vllm_plan:
    model_config: "{{ playbook_dir }}/../data/models/kimi-k3/config.json"
    tensor_table: "{{ playbook_dir }}/../data/models/kimi-k3/tensor-table.json"
    model_name: Kimi-K3
    nodes: "{{ groups['gpu_nodes'] | map('extract', hostvars, '__kimi_node_facts') | list }}"
    max_input_tokens: "{{ kimi_max_input_tokens }}"
    max_output_tokens: "{{ kimi_max_output_tokens }}"
    concurrency: "{{ kimi_concurrency }}"
    vllm_version: "{{ kimi_vllm_version }}"
  delegate_to: localhost
  run_once: true
  register: __kimi_plan

- name: Plan from a pinned hub revision (reads headers only)
  kimi_vllm_plan:
    hf_repo: moonshotai/Kimi-K3
    revision: 9f62e4e9fffbd0a83ddd60e1c209d828994b3569
    hf_token: "{{ kimi_hf_token }}"
    nodes: "{{ __kimi_nodes }}"
    max_model_len: 131072
    concurrency: 8
    fail_when_unfit: false

- name: Size with the reserves a calibration start measured (the file the calibrate step wrote)
  kimi_vllm_plan:
    model_dir: /opt/kimi/shared/models/moonshotai--Kimi-K3@9f62e4e
    model_name: moonshotai/Kimi-K3
    model_revision: 9f62e4e9fffbd0a83ddd60e1c209d828994b3569
    nodes: "{{ __kimi_nodes }}"
    max_input_tokens: 32768
    max_output_tokens: 8192
    concurrency: 16
    vllm_version: 0.32.0
    calibration: "{{ lookup('ansible.builtin.file', 'calibration/k3-h200.json') | from_json }}"

- name: Plan for users who send text, up to two images per prompt and tools (the image budget in plan.multimodal)
  kimi_vllm_plan:
    model_dir: /opt/kimi/shared/models/moonshotai--Kimi-K3@9f62e4e
    nodes: "{{ __kimi_nodes }}"
    max_input_tokens: 32768
    max_output_tokens: 8192
    input_forms: [text, image, tools]
    images_per_prompt: 2

- name: Size the CPU build's KV space for the demo
  kimi_vllm_plan:
    model_dir: /srv/kimi/shared/models/tiny-llama
    nodes: [{name: localhost, gpus: [], memory_total_mib: 16000, cpu_count: 4}]
    max_input_tokens: 768
    max_output_tokens: 256
    concurrency: 4
    vllm_version: 0.32.0+cpu
"""

RETURN = r"""
plan:
  description: The plan; C(docs/sizing.md) explains every field.
  returned: always
  type: dict
  contains:
    fits:
      description: Whether the plan fits (and no version or feature limit refuses it).
      type: bool
    reasons:
      description: Why it is refused, each with the shortfall and the fix (empty when it fits).
      type: list
      elements: str
    warnings:
      description: Advisories (e.g. KV tokens lost to a C(max_model_len) that is not a whole number of blocks).
      type: list
      elements: str
    replicas_needed:
      description: Replicas of C(replica_layout) the target concurrency takes (1 when one replica holds it). A
        concurrency beyond one replica becomes more replicas, never a deeper pipeline.
      type: int
    concurrency_per_replica:
      description: Full-length requests one replica holds at C(max_model_len).
      type: int
    gpus_total:
      description: GPUs of all the replicas together (0 on the CPU build).
      type: int
    nodes_total:
      description: Nodes all the replicas take (single-node replicas are packed C(replicas_per_node) to a node).
      type: int
    replica_layout:
      description: The replica the fleet is made of (C(description), C(tensor_parallel_size),
        C(pipeline_parallel_size), C(data_parallel_size), C(nnodes), C(gpus_per_replica), C(replicas_per_node)).
        When the inventory cannot hold the fleet, C(fits) is false and C(reasons) gives the numbers.
      type: dict
    layout:
      description: C(tensor_parallel_size), C(pipeline_parallel_size), C(data_parallel_size),
        C(data_parallel_size_local), C(enable_expert_parallel), C(decode_context_parallel_size), C(nodes) (names
        used, in rank order), C(nnodes), C(gpus_per_node), C(world_size), C(pp_layer_partition).
      type: dict
    suggested_layout:
      description: For a refused plan, the smallest layout of the same GPUs that fits (null otherwise).
      type: dict
    max_model_len:
      description: Context length served.
      type: int
    max_num_seqs:
      description: Sequences run at once.
      type: int
    max_num_batched_tokens:
      description: Token budget per scheduler step (it sets the activation peak).
      type: int
    gpu_memory_utilization:
      description: Fraction of each GPU vLLM may use (null on the CPU build).
      type: float
    kv_cache_dtype:
      description: Dtype the KV cache is stored in.
      type: str
    block_size:
      description: Tokens per KV block vLLM will use (after hybrid alignment / CPU rules).
      type: int
    memory:
      description: The per-GPU ledger of the limiting pipeline stage (C(total_bytes), C(requested_bytes),
        C(weights_bytes), C(activation_reserve_bytes), C(non_torch_reserve_bytes), C(cudagraph_reserve_bytes),
        C(out_of_pool_reserve_bytes), C(kv_budget_bytes), C(kv_bytes_per_token), C(state_bytes_per_sequence),
        C(bytes_per_block), C(blocks_per_request), C(num_blocks), C(kv_tokens), C(max_concurrency),
        C(full_length_sequences), C(stages)), and C(sources), which marks each reserve C(measured) (from the
        calibration), C(estimated) or C(given) (set by hand).
      type: dict
    calibration:
      description: C(key) (the calibration key of this plan), C(in_use), C(measured) (every item of the calibration
        in use, for the drift check), C(source) (the start it came from) and C(notes) (why a file was not used).
      type: dict
    predicted_kv_tokens:
      description: What vLLM will log as C(KV cache size, N tokens) (and report as C(kv_cache_size_tokens)).
      type: int
    serve_args:
      description: Arguments after C(vllm serve <model_dir>), without host, port, API key, served model name and
        the per-node multi-node flags (C(--nnodes), C(--node-rank), C(--master-addr), C(--headless)). Rendered
        from the plan's fields; read the fields, not this list.
      type: list
      elements: str
    serve_flags:
      description: The flags besides layout and sizes (C(kv_cache_memory_bytes), C(kv_cache_dtype), C(block_size),
        C(trust_remote_code), C(enforce_eager), C(enable_prefix_caching), C(language_model_only),
        C(limit_mm_per_prompt), C(speculative_config), C(attention_backend), C(recipe_args) (the tool-call and
        reasoning parsers the model's forms call for, then the family's known-good flags), C(attention_config),
        C(distributed_executor_backend), C(extra_args)).
      type: dict
    model_forms:
      description: What the model accepts and emits, each with its evidence from the model's files
        (C(input_forms), C(output_forms), C(vision), C(tool_calls), C(reasoning), C(structured_output)), and
        C(declared_input_forms) (O(input_forms); null when not declared). Acceptance checks these forms.
      type: dict
    multimodal:
      description: The image budget when O(input_forms) has C(image) (C(images_per_prompt), C(tokens_per_image),
        C(prompt_image_tokens), C(encoder_cache_tokens), C(encoder_cache_bytes), C(encoder_compute_tokens),
        C(profile_items_per_prompt), C(profile_items_per_batch), C(profile_encoder_tokens),
        C(profile_encoder_output_bytes) (what the profile run holds, charged as C(memory.encoder_cache_reserve_bytes)),
        C(modality), C(worst_case_size), C(url_domains) (none when image URLs are refused)); absent otherwise.
      type: dict
    schema_version:
      description: Version of this dict's shape; a release keeps it, so a later collection reads the plan back.
      type: int
    env:
      description: Environment variables for the unit.
      type: dict
    summary:
      description: A few human lines.
      type: str
  sample:
    fits: true
    layout: {tensor_parallel_size: 8, pipeline_parallel_size: 2, data_parallel_size: 1, nnodes: 2}
    max_model_len: 40960
    predicted_kv_tokens: 1775651
summary:
  description: The plan's summary lines (layout, weights per GPU, KV budget, tokens, concurrency).
  returned: always
  type: str
"""

from dataclasses import fields

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core import calibration as cal
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.sizing import (
    BACKENDS,
    BusinessNeed,
    PlanOptions,
    load_forms,
    load_model,
    plan_deployment,
)

# Options that are PlanOptions fields, passed through by name (the planner's knobs and inputs).
PLAN_OPTION_KEYS = tuple(f.name for f in fields(PlanOptions))

ARGUMENT_SPEC = dict(
    model_dir=dict(type="path"),
    model_config=dict(type="raw"),
    tensor_table=dict(type="raw"),
    hf_repo=dict(type="str"),
    revision=dict(type="str"),
    hf_endpoint=dict(type="str"),
    hf_token=dict(type="str", no_log=True),
    model_name=dict(type="str"),
    nodes=dict(type="list", elements="dict", required=True),
    max_input_tokens=dict(type="int", no_log=False),
    max_output_tokens=dict(type="int", no_log=False),
    max_model_len=dict(type="int"),
    concurrency=dict(type="int", default=1),
    kv_cache_dtype=dict(type="str", default="auto",
                        choices=["auto", "bfloat16", "float16", "fp8", "fp8_e4m3", "fp8_e5m2", "fp8_ds_mla"]),
    vllm_version=dict(type="str"),
    platform=dict(type="str", default="auto", choices=["auto", "cuda", "cpu"]),
    tensor_parallel_size=dict(type="int"),
    pipeline_parallel_size=dict(type="int"),
    data_parallel_size=dict(type="int"),
    enable_expert_parallel=dict(type="bool"),
    decode_context_parallel_size=dict(type="int", default=1),
    pp_layer_partition=dict(type="list", elements="int"),
    gpu_memory_utilization=dict(type="float"),
    max_num_seqs=dict(type="int"),
    max_num_batched_tokens=dict(type="int", no_log=False),
    block_size=dict(type="int"),
    attention_backend=dict(type="str"),
    kv_cache_memory_bytes=dict(type="int"),
    activation_reserve_bytes=dict(type="int"),
    non_torch_reserve_bytes=dict(type="int"),
    cudagraph_reserve_bytes=dict(type="int"),
    cuda_context_reserve_bytes=dict(type="int"),
    workspace_reserve_bytes=dict(type="int"),
    cpu_process_reserve_bytes=dict(type="int"),
    enforce_eager=dict(type="bool", default=False),
    enable_prefix_caching=dict(type="bool"),
    speculative_config=dict(type="dict"),
    language_model_only=dict(type="bool", default=False),
    input_forms=dict(type="list", elements="str", choices=["text", "image", "tools"]),
    images_per_prompt=dict(type="int"),
    fit_images_per_prompt=dict(type="bool", default=False),
    media_url_domains=dict(type="list", elements="str", default=[]),
    cpu_amx=dict(type="bool"),
    max_suggested_nodes=dict(type="int", default=64),
    distributed_executor_backend=dict(type="str", default="mp", choices=list(BACKENDS)),
    extra_args=dict(type="list", elements="str", default=[]),
    extra_env=dict(type="dict", default={}),
    fail_when_unfit=dict(type="bool", default=True),
    calibration=dict(type="dict"),
    model_revision=dict(type="str"),
    calibration_start=dict(type="bool", default=False),
)


def plan_options(params):
    """PlanOptions from the module's parameters (lists become the tuples the frozen dataclass holds)."""
    options = {key: params[key] for key in PLAN_OPTION_KEYS}
    options["pp_layer_partition"] = tuple(params["pp_layer_partition"]) if params["pp_layer_partition"] else None
    options["extra_args"] = tuple(params["extra_args"] or ())
    options["input_forms"] = tuple(params["input_forms"]) if params["input_forms"] is not None else None
    options["media_url_domains"] = tuple(params["media_url_domains"] or ())
    return PlanOptions(**options)


def main():
    module = AnsibleModule(
        argument_spec=ARGUMENT_SPEC,
        required_one_of=[("model_dir", "model_config", "hf_repo"), ("max_model_len", "max_input_tokens")],
        mutually_exclusive=[("model_dir", "model_config", "hf_repo")],
        required_together=[("max_input_tokens", "max_output_tokens")],
        required_by={"model_config": "tensor_table", "hf_repo": "revision"},
        supports_check_mode=True,
    )
    p = module.params
    try:
        profile, weights = load_model(
            model_dir=p["model_dir"], model_config=p["model_config"], tensor_table=p["tensor_table"],
            hf_repo=p["hf_repo"], revision=p["revision"], hf_endpoint=p["hf_endpoint"], hf_token=p["hf_token"],
            name=p["model_name"])
        forms = load_forms(model_dir=p["model_dir"], model_config=p["model_config"])
        need = BusinessNeed.from_tokens(max_input_tokens=p["max_input_tokens"],
                                        max_output_tokens=p["max_output_tokens"],
                                        max_model_len=p["max_model_len"], concurrency=p["concurrency"])
        identity = cal.plan_key(gpu=cal.gpu_model(p["nodes"]), vllm_version=p["vllm_version"],
                                model_repo=p["model_name"] or p["hf_repo"],
                                model_revision=p["model_revision"] or p["revision"])
        plan = cal.plan_with_calibration(lambda o: plan_deployment(profile, weights, p["nodes"], need, o, forms),
                                         plan_options(p), p["calibration"], identity,
                                         debug_logging=p["calibration_start"])
    except KimiDeployError as err:
        module.fail_json(msg=str(err))
    if not plan["fits"] and p["fail_when_unfit"]:
        module.fail_json(msg="; ".join(plan["reasons"]), plan=plan, summary=plan["summary"])
    module.exit_json(changed=False, plan=plan, summary=plan["summary"])


if __name__ == "__main__":
    main()
