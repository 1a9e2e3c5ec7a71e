"""The sizing engine: layouts, reserves, refusals with the fix, serve_args/env, the CPU path.

GPU memory totals are the published nvidia-smi figures (tests/fixtures/nvml/README.md): H200 143771 MiB,
B300 SXM6 AC 275040 MiB, H100 80GB HBM3 81559 MiB; B200 183359 MiB. The expected layouts are the published
minimums (facts.md §5, recipes, issue #3), not values read back from the planner.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.model_profile import load_profile_from_path
from kimi_deploy.core.sizing import (
    CUDAGRAPH_RESERVE_BYTES,
    DEFAULT_GPU_MEMORY_UTILIZATION,
    MXFP4_MOE_WORKSPACE_BYTES,
    BusinessNeed,
    GiB,
    PlanOptions,
    activation_peak_bytes,
    attention_pp_partition,
    default_gpu_memory_utilization,
    gpu_architecture,
    load_model,
    parse_version,
    plan_deployment,
)
from kimi_deploy.core.tensor_sharding import WeightInventory, records_from_tensor_table
from kimi_deploy.io.gpu_facts import collect_nvml
from repo_paths import REPO

MODELS = REPO / "data" / "models"

H200 = ("NVIDIA H200", 143_771, "9.0")
B300 = ("NVIDIA B300 SXM6 AC", 275_040, "10.3")
B200 = ("NVIDIA B200", 183_359, "10.0")
H100 = ("NVIDIA H100 80GB HBM3", 81_559, "9.0")
NEED = BusinessNeed.from_tokens(max_input_tokens=32_768, max_output_tokens=8_192, concurrency=16)
DEPLOYMENT_OWNED = {"--host", "--port", "--api-key", "--served-model-name", "--nnodes", "--node-rank",
                    "--master-addr", "--headless"}


def nodes(count: int, gpu: tuple[str, int, str], per_node: int = 8, **extra) -> list[dict]:
    name, mib, cc = gpu
    return [{"name": f"gpu{i}", "memory_total_mib": 2_064_000, "cpu_count": 224,
             "gpus": [{"index": g, "name": name, "memory_total_mib": mib, "compute_capability": cc, **extra}
                      for g in range(per_node)]} for i in range(count)]


@pytest.fixture(scope="module")
def k3():
    profile = load_profile_from_path(MODELS / "kimi-k3", name="Kimi-K3")
    return profile, WeightInventory.from_records(records_from_tensor_table(MODELS / "kimi-k3/tensor-table.json"),
                                                 profile)


def plan_k3(k3, node_list, need=NEED, **options):
    profile, weights = k3
    return plan_deployment(profile, weights, node_list, need, PlanOptions(vllm_version="0.32.0", **options))


def layout_of(plan):
    lay = plan["layout"]
    return lay["nnodes"], lay["tensor_parallel_size"], lay["pipeline_parallel_size"], lay["data_parallel_size"]


# -- the checks -----------------------------------------------------------------------------------

def test_k3_fits_one_node_of_8_b300_at_tp8(k3):
    plan = plan_k3(k3, nodes(1, B300))
    assert plan["fits"], plan["reasons"]
    assert layout_of(plan) == (1, 8, 1, 1)
    assert plan["kv_cache_dtype"] == "fp8"  # Blackwell known-good
    assert plan["memory"]["kv_bytes_per_token"] == 13_824
    assert plan["max_num_seqs"] == 16 and plan["memory"]["full_length_sequences"] >= 16


@pytest.mark.parametrize("gpu", [H200, B200], ids=["H200", "B200"])
def test_k3_is_refused_on_one_node_and_offered_two(k3, gpu):
    plan = plan_k3(k3, nodes(1, gpu))
    assert not plan["fits"]
    reason = plan["reasons"][-1]
    assert f"8x{gpu[0]}" in reason and "does not fit" in reason
    assert "at 1 node x 8, TP8" in reason  # the shortfall names the layout it tried
    weights = plan["memory"]["weights_bytes"]
    assert f"≈ {weights / GiB:.1f} GiB per GPU" in reason
    assert "Smallest layout that fits: 2 nodes x 8, TP8 x PP2" in reason
    assert plan["suggested_layout"]["nnodes"] == 2 and plan["suggested_layout"]["pipeline_parallel_size"] == 2


@pytest.mark.parametrize("gpu", [H200, B200], ids=["H200", "B200"])
def test_k3_fits_two_nodes_at_tp8_pp2(k3, gpu):
    plan = plan_k3(k3, nodes(2, gpu))
    assert plan["fits"], plan["reasons"]
    assert layout_of(plan) == (2, 8, 2, 1)
    assert plan["layout"]["nodes"] == ["gpu0", "gpu1"]
    assert "--pipeline-parallel-size" in plan["serve_args"]


def test_k3_h100_minimum_is_32_gpus(k3):
    plan = plan_k3(k3, nodes(8, H100))
    assert plan["fits"]
    assert layout_of(plan) == (4, 8, 4, 1)
    assert plan["layout"]["world_size"] == 32
    # With three nodes the weights fit (TP8 x PP3) but the KV cache cannot hold the need: a need the
    # inventory cannot meet is refused with the numbers and the layout that would hold it.
    three = plan_k3(k3, nodes(3, H100))
    assert not three["fits"] and layout_of(three) == (3, 8, 3, 1)
    assert three["memory"]["full_length_sequences"] < NEED.concurrency
    assert three["max_num_seqs"] == three["memory"]["full_length_sequences"]
    assert f"holds {three['memory']['full_length_sequences']} of the 16 requests" in three["reasons"][-1]
    assert "4 nodes x 8, TP8 x PP4" in three["reasons"][-1]
    assert (three["replicas_needed"], three["gpus_total"]) == (1, 32)
    one = plan_k3(k3, nodes(1, H100))
    assert not one["fits"] and "4 nodes x 8, TP8 x PP4" in one["reasons"][-1]


# -- the memory ledger ------------------------------------------------------------------------------------

def test_ledger_adds_up_the_way_vllm_does(k3):
    plan = plan_k3(k3, nodes(2, H200))
    mem = plan["memory"]
    assert mem["requested_bytes"] == math.ceil(mem["total_bytes"] * plan["gpu_memory_utilization"])
    assert mem["kv_budget_bytes"] == (mem["requested_bytes"] - mem["weights_bytes"] - mem["activation_reserve_bytes"]
                                      - mem["non_torch_reserve_bytes"] - mem["cudagraph_reserve_bytes"])
    limiting = min(mem["stages"], key=lambda s: s["kv_budget_bytes"] // s["bytes_per_block"])
    assert mem["num_blocks"] == limiting["kv_budget_bytes"] // limiting["bytes_per_block"]
    assert mem["blocks_per_request"] == -(-40_960 // plan["block_size"]) + 3  # + one block per KDA group
    assert plan["predicted_kv_tokens"] == int(mem["num_blocks"] / mem["blocks_per_request"] * 40_960)
    assert mem["kv_tokens"] == plan["predicted_kv_tokens"]
    assert mem["full_length_sequences"] == (mem["num_blocks"] - 1) // mem["blocks_per_request"]


def test_gpu_memory_utilization_defaults_and_mxfp4_workspace(k3):
    total = 183_359 * 2**20
    # vLLM's default, less the out-of-pool MXFP4 workspace, floored to 0.01
    expected = math.floor((DEFAULT_GPU_MEMORY_UTILIZATION * total - MXFP4_MOE_WORKSPACE_BYTES) / total * 100) / 100
    assert default_gpu_memory_utilization(total, MXFP4_MOE_WORKSPACE_BYTES, GiB) == expected == 0.91
    assert plan_k3(k3, nodes(2, B200))["gpu_memory_utilization"] == 0.91
    hopper = plan_k3(k3, nodes(2, H200))
    assert hopper["gpu_memory_utilization"] == DEFAULT_GPU_MEMORY_UTILIZATION
    assert hopper["memory"]["out_of_pool_reserve_bytes"] == GiB  # CUDA context only, no MXFP4 workspace


@pytest.mark.parametrize("knob", ["activation_reserve_bytes", "non_torch_reserve_bytes", "cudagraph_reserve_bytes"])
def test_every_reserve_can_be_overridden(k3, knob):
    base = plan_k3(k3, nodes(2, H200))
    changed = plan_k3(k3, nodes(2, H200), **{knob: 7 * GiB})
    assert changed["memory"][knob] == 7 * GiB
    delta = 7 * GiB - base["memory"][knob]
    assert base["memory"]["kv_budget_bytes"] - changed["memory"]["kv_budget_bytes"] == delta


def test_other_overrides(k3):
    util = plan_k3(k3, nodes(2, H200), gpu_memory_utilization=0.8)
    assert util["gpu_memory_utilization"] == 0.8 and "0.80" in util["serve_args"]
    eager = plan_k3(k3, nodes(2, H200), enforce_eager=True)
    assert eager["memory"]["cudagraph_reserve_bytes"] == 0 and "--enforce-eager" in eager["serve_args"]
    assert plan_k3(k3, nodes(2, H200))["memory"]["cudagraph_reserve_bytes"] == CUDAGRAPH_RESERVE_BYTES
    fixed = plan_k3(k3, nodes(2, H200), kv_cache_memory_bytes=20 * GiB)
    assert fixed["memory"]["kv_budget_bytes"] == 20 * GiB
    assert fixed["serve_args"][fixed["serve_args"].index("--kv-cache-memory-bytes") + 1] == str(20 * GiB)
    seqs = plan_k3(k3, nodes(2, H200), max_num_seqs=5, max_num_batched_tokens=4096)
    assert (seqs["max_num_seqs"], seqs["max_num_batched_tokens"]) == (5, 4096)
    forced = plan_k3(k3, nodes(4, H200), tensor_parallel_size=8, pipeline_parallel_size=4)
    assert layout_of(forced) == (4, 8, 4, 1)


def test_activation_estimate_grows_with_the_token_budget(k3):
    profile, _unused = k3
    small = activation_peak_bytes(profile, tp=8, stage_layers=47, max_num_batched_tokens=4096, max_num_seqs=16)
    large = activation_peak_bytes(profile, tp=8, stage_layers=47, max_num_batched_tokens=8192, max_num_seqs=16)
    logits = 16 * profile.vocab_size * 4 * 3
    assert large - logits == 2 * (small - logits)


def test_pp_partition_is_chosen_for_kv_and_exported(k3):
    profile, _unused = k3
    assert attention_pp_partition(profile, 2) == (48, 45)  # 12 MLA layers per stage
    for gpu in (H200, B200):
        auto = plan_k3(k3, nodes(2, gpu))
        default = plan_k3(k3, nodes(2, gpu), pp_layer_partition=(47, 46))
        balanced = plan_k3(k3, nodes(2, gpu), pp_layer_partition=(48, 45))
        # vLLM keeps the smallest num_blocks over stages; the planner takes whichever split gives more
        assert auto["memory"]["num_blocks"] == max(default["memory"]["num_blocks"], balanced["memory"]["num_blocks"])
        assert balanced["memory"]["kv_bytes_per_token"] == 12 * 576 * (1 if gpu is B200 else 2)
        assert balanced["env"]["VLLM_PP_LAYER_PARTITION"] == "48,45"
        assert "VLLM_PP_LAYER_PARTITION" not in default["env"]  # vLLM's own split needs no variable
        chosen = auto["layout"]["pp_layer_partition"]
        assert auto["env"].get("VLLM_PP_LAYER_PARTITION") == (",".join(map(str, chosen)) if chosen else None)


# -- known-good flags, feature limits, refusals -------------------------------------------------------------

def test_serve_args_and_env_for_hopper_multinode(k3):
    plan = plan_k3(k3, nodes(2, H200))
    args = plan["serve_args"]
    assert not DEPLOYMENT_OWNED & set(args)
    assert "--trust-remote-code" in args  # auto_map
    assert args[args.index("--moe-backend") + 1] == "marlin"
    assert args[args.index("--attention-backend") + 1] == "FLASHMLA"
    assert "--disable-custom-all-reduce" in args and "--kv-cache-dtype" not in args
    assert args[args.index("--max-model-len") + 1] == "40960"
    assert plan["env"]["NCCL_CUMEM_ENABLE"] == "1"
    assert plan["block_size"] == 768  # hybrid alignment of the FLASHMLA 64 block


def test_blackwell_fp8_gets_prefill_query_quantization(k3):
    args = plan_k3(k3, nodes(1, B300))["serve_args"]
    assert args[args.index("--kv-cache-dtype") + 1] == "fp8"
    assert '"use_prefill_query_quantization":true' in args[args.index("--attention-config") + 1]
    bf16 = plan_k3(k3, nodes(1, B300), kv_cache_dtype="bfloat16")
    assert "--attention-config" not in bf16["serve_args"] and bf16["kv_cache_dtype"] == "bfloat16"


def test_fp8_kv_is_refused_for_k3_on_hopper(k3):
    plan = plan_k3(k3, nodes(2, H200), kv_cache_dtype="fp8")
    assert not plan["fits"]
    assert any("dynamo#12475" in r and "kv_cache_dtype auto" in r for r in plan["reasons"])


def test_vllm_feature_limits(k3):
    old = plan_deployment(*k3, nodes(1, B300), NEED, PlanOptions(vllm_version="0.26.0"))
    assert not old["fits"] and any(">= 0.27.1" in r for r in old["reasons"])
    dcp_old = plan_deployment(*k3, nodes(1, B300), NEED, PlanOptions(vllm_version="0.27.1",
                                                                     decode_context_parallel_size=8))
    assert any("decode context parallel" in r and ">= 0.28.0" in r for r in dcp_old["reasons"])
    dcp = plan_k3(k3, nodes(1, B300), decode_context_parallel_size=8)
    assert dcp["fits"] and dcp["memory"]["kv_bytes_per_token"] == 1_728
    assert "--decode-context-parallel-size" in dcp["serve_args"]
    spec = plan_k3(k3, nodes(2, H200), pipeline_parallel_size=2,
                   speculative_config={"method": "dspark", "num_speculative_tokens": 8})
    assert any("speculative decoding does not compose with pipeline" in r for r in spec["reasons"])
    cpu_build = plan_deployment(*k3, nodes(1, B300), NEED, PlanOptions(vllm_version="0.32.0+cpu"))
    assert any("CPU build" in r for r in cpu_build["reasons"])


def test_speculative_tokens_grow_the_kda_state(k3):
    speculative = {"method": "dspark", "num_speculative_tokens": 8, "model": "RedHatAI/Kimi-K3-speculator.dspark"}
    plan = plan_k3(k3, nodes(1, B300), speculative_config=speculative)
    assert plan["fits"]
    state = (3 + 8) * (3 * 96 * 128 // 8) * 2 + (96 // 8) * 128 * 128 * 4  # conv grows by the draft tokens
    assert plan["block_size"] == 128 * math.ceil(state / (128 * 576)) == 1664  # fp8 MLA page of 576 B/token
    args = plan["serve_args"]
    assert '"num_speculative_tokens":8' in args[args.index("--speculative-config") + 1]


def test_context_beyond_the_model_is_refused(k3):
    plan = plan_k3(k3, nodes(1, B300), need=BusinessNeed(max_model_len=2_000_000))
    assert not plan["fits"] and any("1048576 positions" in r for r in plan["reasons"])


def test_explicit_dp_and_ep(k3):
    plan = plan_k3(k3, nodes(4, H200), data_parallel_size=4, enable_expert_parallel=True)
    assert layout_of(plan) == (4, 8, 1, 4) and plan["layout"]["enable_expert_parallel"]
    assert plan["layout"]["data_parallel_size_local"] == 1
    assert {"--data-parallel-size", "--enable-expert-parallel"} <= set(plan["serve_args"])
    assert 80 * GiB < plan["memory"]["weights_bytes"] < 90 * GiB  # facts.md §4.5: TP8 x DP4 + EP32 ≈ 85 GiB


def test_bad_inputs():
    with pytest.raises(KimiDeployError, match="business need"):
        BusinessNeed.from_tokens(max_input_tokens=100)
    with pytest.raises(KimiDeployError, match="exceed max_model_len"):
        BusinessNeed.from_tokens(max_input_tokens=100, max_output_tokens=100, max_model_len=150)
    profile = load_profile_from_path(MODELS / "kimi-k3")
    weights = WeightInventory.from_records([], profile)
    with pytest.raises(KimiDeployError, match="nodes is empty"):
        plan_deployment(profile, weights, [], NEED)
    mixed = nodes(1, H200) + nodes(1, H100)
    with pytest.raises(KimiDeployError, match="different GPU models"):
        plan_deployment(profile, weights, mixed, NEED)
    with pytest.raises(KimiDeployError, match="report no GPUs"):
        plan_deployment(profile, weights, [*nodes(1, H200), {"name": "cpu", "gpus": []}], NEED,
                        PlanOptions(platform="cuda"))


def test_gpu_architecture_is_derived_when_missing():
    assert gpu_architecture({"name": "NVIDIA H200", "memory_total_mib": 1}) == "hopper"
    assert gpu_architecture({"name": "x", "compute_capability": "10.0"}) == "blackwell"
    assert gpu_architecture({"name": "x", "architecture": "ampere"}) == "ampere"
    assert parse_version("0.32.0+cpu") == (0, 32, 0) and parse_version("v0.28.0rc1") == (0, 28, 0)
    assert parse_version(None) is None


def test_nodes_straight_from_kimi_gpu_facts(k3):
    from record_nvml_facts import fake_pynvml, load_fixture

    facts = collect_nvml(fake_pynvml(load_fixture(REPO / "tests/fixtures/nvml/h200x8-r580.json")))
    node_list = [{"name": f"h{i}", "gpus": facts["gpus"], "memory_total_mib": 2_000_000, "cpu_count": 192}
                 for i in range(2)]
    plan = plan_k3(k3, node_list)
    assert plan["fits"] and plan["architecture"] == "hopper" and layout_of(plan) == (2, 8, 2, 1)


def test_busy_gpus_are_warned_about_not_refused(k3):
    plan = plan_k3(k3, nodes(2, H200, memory_used_mib=40_000))
    assert plan["fits"]
    assert any("in use now" in w for w in plan["warnings"])


# -- the CPU build -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    built = {}

    def build(arch: str) -> Path:
        if arch not in built:
            out = tmp_path_factory.mktemp(f"tiny-{arch}")
            subprocess.run([sys.executable, str(REPO / "tools/build_tiny_model.py"), "--arch", arch, "--out",
                            str(out)], check=True, capture_output=True)
            built[arch] = out
        return built[arch]

    return build


CPU_NODE = {"name": "demo", "gpus": [], "memory_total_mib": 16_000, "cpu_count": 4, "cpu_flags": ["avx512f"]}
AMX_NODE = dict(CPU_NODE, cpu_flags=["avx512f", "amx_tile", "amx_bf16"])


def test_cpu_kv_bytes_come_from_the_need(tiny):
    profile, weights = load_model(model_dir=str(tiny("llama")))
    plan = plan_deployment(profile, weights, [CPU_NODE], BusinessNeed(max_model_len=1024, concurrency=8),
                           PlanOptions(vllm_version="0.32.0+cpu"))
    assert plan["fits"] and plan["platform"] == "cpu" and plan["gpu_memory_utilization"] is None
    block_bytes = 128 * 2 * (2 * 2 * 32 * 2)  # block 128 x 2 layers x (K+V x 2 heads x 32 x bf16)
    kv_bytes = (8 * (1024 // 128) + 1) * block_bytes  # 8 full requests + the null block
    args = plan["serve_args"]
    assert args[args.index("--kv-cache-memory-bytes") + 1] == str(kv_bytes)
    assert plan["block_size"] == 128 and plan["max_num_seqs"] == 8
    assert plan["predicted_kv_tokens"] == int(65 / 8 * 1024) == 8_320
    assert "--tensor-parallel-size" not in args and "--gpu-memory-utilization" not in args
    assert "VLLM_CPU_KVCACHE_SPACE" not in plan["env"]


@pytest.mark.parametrize(("node", "block", "tokens"), [(AMX_NODE, 128, 465_920), (CPU_NODE, 16, 466_032)])
def test_cpu_mla_block_depends_on_amx(tiny, node, block, tokens):
    profile, weights = load_model(model_dir=str(tiny("deepseek_v3")))
    plan = plan_deployment(profile, weights, [node], BusinessNeed(max_model_len=512, concurrency=1),
                           PlanOptions(kv_cache_memory_bytes=GiB))
    assert (plan["block_size"], plan["predicted_kv_tokens"]) == (block, tokens)
    if block == 16:  # the reference kernel runs without chunked prefill
        assert plan["max_num_batched_tokens"] >= 512


def test_cpu_refuses_when_host_memory_cannot_hold_the_need(tiny):
    profile, weights = load_model(model_dir=str(tiny("qwen3_moe")))
    small = dict(CPU_NODE, memory_total_mib=4_096)
    plan = plan_deployment(profile, weights, [small], BusinessNeed(max_model_len=4096, concurrency=2_000))
    assert not plan["fits"]
    reason = plan["reasons"][0]
    assert "needs" in reason and "lower concurrency to" in reason and "use a host with" in reason
    allowed = int(reason.split("lower concurrency to ")[1].split()[0])
    retry = plan_deployment(profile, weights, [small], BusinessNeed(max_model_len=4096, concurrency=allowed))
    assert retry["fits"]
    assert not plan_deployment(profile, weights, [small],
                               BusinessNeed(max_model_len=4096, concurrency=allowed + 1))["fits"]


def test_cpu_refuses_models_it_cannot_run(k3):
    plan = plan_deployment(*k3, [CPU_NODE], NEED)
    assert not plan["fits"] and any("hybrid KDA" in r for r in plan["reasons"])


# -- the CPU build over a multi-node replica (one worker per node) -----------------------------------------

def _cpu_nodes(count):
    return [dict(CPU_NODE, name=f"cpu{i}") for i in range(count)]


def test_cpu_replica_of_two_nodes_is_split_by_tp(tiny):
    profile, weights = load_model(model_dir=str(tiny("llama")))
    plan = plan_deployment(profile, weights, _cpu_nodes(2), BusinessNeed(max_model_len=1024, concurrency=8),
                           PlanOptions(vllm_version="0.32.0+cpu", enforce_eager=True))
    assert plan["fits"], plan["reasons"]
    lay = plan["layout"]
    assert (lay["tensor_parallel_size"], lay["pipeline_parallel_size"], lay["nnodes"]) == (2, 1, 2)
    assert lay["nodes"] == ["cpu0", "cpu1"] and lay["world_size"] == 2
    args = plan["serve_args"]
    assert args[:2] == ["--tensor-parallel-size", "2"] and "--pipeline-parallel-size" not in args
    # each worker holds 1 of the 2 KV heads: block 128 x 2 layers x (K+V x 1 head x 32 x bf16)
    block_bytes = 128 * 2 * (2 * 1 * 32 * 2)
    assert args[args.index("--kv-cache-memory-bytes") + 1] == str((8 * (1024 // 128) + 1) * block_bytes)
    assert plan["predicted_kv_tokens"] == int(65 / 8 * 1024)


def test_cpu_pipeline_needs_the_compiled_mode(tiny):
    profile, weights = load_model(model_dir=str(tiny("llama")))
    need = BusinessNeed(max_model_len=1024, concurrency=8)
    eager = plan_deployment(profile, weights, _cpu_nodes(2), need,
                            PlanOptions(pipeline_parallel_size=2, enforce_eager=True))
    assert not eager["fits"] and any("intermediate_tensors" in r for r in eager["reasons"])
    compiled = plan_deployment(profile, weights, _cpu_nodes(2), need, PlanOptions(pipeline_parallel_size=2))
    assert compiled["fits"] and compiled["serve_args"][:2] == ["--pipeline-parallel-size", "2"]
    # one layer per stage: block 128 x 1 layer x (K+V x 2 heads x 32 x bf16)
    kv = compiled["serve_args"][compiled["serve_args"].index("--kv-cache-memory-bytes") + 1]
    assert kv == str(65 * 128 * 1 * (2 * 2 * 32 * 2))


def test_cpu_replica_shape_must_match_its_nodes(tiny):
    profile, weights = load_model(model_dir=str(tiny("llama")))
    need = BusinessNeed(max_model_len=512, concurrency=1)
    three = plan_deployment(profile, weights, _cpu_nodes(3), need)
    assert not three["fits"] and any("attention heads are not divisible by TP 3" in r for r in three["reasons"])
    wrong = plan_deployment(profile, weights, _cpu_nodes(2), need, PlanOptions(tensor_parallel_size=1))
    assert not wrong["fits"] and any("must equal the node count (2)" in r for r in wrong["reasons"])


# -- fleets, range checks, context alignment (issue 15 §3) ---------------------------------------------------

def test_concurrency_beyond_one_replica_becomes_replicas_not_a_deeper_pipeline(k3):
    need = BusinessNeed.from_tokens(max_input_tokens=32_768, max_output_tokens=8_192, concurrency=1_000_000)
    plan = plan_k3(k3, nodes(64, H100), need=need)
    assert not plan["fits"]
    # The replica is the published H100 minimum (4 nodes, TP8 x PP4), not a 47-stage pipeline.
    assert layout_of(plan) == (4, 8, 4, 1)
    per = plan["concurrency_per_replica"]
    assert per == plan["memory"]["full_length_sequences"] > 0
    assert plan["replicas_needed"] == math.ceil(1_000_000 / per)
    assert plan["gpus_total"] == plan["replicas_needed"] * 32
    assert plan["nodes_total"] == plan["replicas_needed"] * 4
    assert plan["replica_layout"]["description"] == "4 nodes x 8, TP8 x PP4"
    reason = plan["reasons"][-1]
    assert f"needs {plan['replicas_needed']:,} replicas of 4 nodes x 8, TP8 x PP4" in reason
    assert f"{plan['gpus_total']:,} GPUs" in reason and "which hold 16 replicas" in reason
    assert f"fleet: {plan['replicas_needed']:,} replica(s)" in plan["summary"]


def test_a_fleet_the_inventory_holds_fits(k3):
    one = plan_k3(k3, nodes(4, H100))  # the smallest replica holds this many full-length requests
    per = one["concurrency_per_replica"]
    need = BusinessNeed(max_model_len=NEED.max_model_len, concurrency=per + 1)
    # Two replicas of the 4-node layout on 8 nodes hold it; a deeper pipeline is never tried.
    plan = plan_k3(k3, nodes(8, H100), need=need)
    assert plan["fits"], plan["reasons"]
    assert (plan["replicas_needed"], plan["gpus_total"], plan["nodes_total"]) == (2, 64, 8)
    assert layout_of(plan) == (4, 8, 4, 1)
    short = plan_k3(k3, nodes(7, H100), need=need)
    assert not short["fits"] and "Add 1 node(s)" in short["reasons"][-1]


def test_one_replica_that_holds_the_need_is_one_replica(k3):
    plan = plan_k3(k3, nodes(1, B300))
    assert plan["fits"] and plan["replicas_needed"] == 1 and plan["gpus_total"] == 8
    assert plan["concurrency_per_replica"] >= NEED.concurrency


@pytest.mark.parametrize(("option", "value", "message"), [
    ("gpu_memory_utilization", 0.0, "gpu_memory_utilization must be in"),
    ("gpu_memory_utilization", 1.2, "gpu_memory_utilization must be in"),
    ("tensor_parallel_size", 0, "tensor_parallel_size must be >= 1"),
    ("pipeline_parallel_size", -1, "pipeline_parallel_size must be >= 1"),
    ("max_num_seqs", 0, "max_num_seqs must be >= 1"),
    ("block_size", 0, "block_size must be > 0"),
    ("kv_cache_memory_bytes", 0, "kv_cache_memory_bytes must be > 0"),
    ("cudagraph_reserve_bytes", -1, "cudagraph_reserve_bytes must be >= 0"),
])
def test_the_planner_checks_its_own_ranges(k3, option, value, message):
    with pytest.raises(KimiDeployError, match=message):
        plan_k3(k3, nodes(1, B300), **{option: value})


def test_business_need_ranges_hold_without_from_tokens():
    for bad in ({"max_model_len": 0}, {"max_model_len": 1024, "concurrency": 0}):
        with pytest.raises(KimiDeployError, match="must be a whole number >= 1"):
            BusinessNeed(**bad)


def test_no_plan_reports_zero_bytes_per_token_for_attention(k3):
    # A pipeline deeper than the 24 MLA layers leaves stages with KDA layers only; the plan still reports
    # the attention stages' bytes per token, never 0.
    plan = plan_k3(k3, nodes(32, H100), pipeline_parallel_size=32, tensor_parallel_size=8)
    assert plan["memory"]["kv_bytes_per_token"] > 0
    assert "0 B/token" not in plan["summary"]


def test_context_alignment_is_reported_and_an_aligned_length_suggested(k3):
    """K3 fp8 on B300 (block 1536 plus 3 KDA state blocks a request): the same KV memory holds about 3 %
    fewer tokens at 128K than at 1M, and 40,960 tokens leaves 1.2 % of its last block empty."""
    def plan_at(length):
        return plan_k3(k3, nodes(1, B300), need=BusinessNeed(max_model_len=length, concurrency=1),
                       tensor_parallel_size=8, kv_cache_memory_bytes=60 * GiB)
    k128, m1, k40 = plan_at(131_072), plan_at(1_048_576), plan_at(40_960)
    assert k128["block_size"] == m1["block_size"] == 1536
    assert 0.03 < 1 - k128["predicted_kv_tokens"] / m1["predicted_kv_tokens"] < 0.04
    align = k128["memory"]["context_alignment"]
    assert align["state_blocks_per_request"] == 3 and align["attention_blocks_per_request"] == 86
    assert align["suggested_max_model_len"] is None  # 131072 wastes 0.8 % of a block: below the 1 % mark
    assert any("at max_model_len 131072 the KV cache holds 4.1% fewer tokens" in w for w in k128["warnings"])
    assert not m1["warnings"]
    assert k40["memory"]["context_alignment"]["suggested_max_model_len"] == 27 * 1536
    assert any("max_model_len 41472 is a whole number of blocks" in w for w in k40["warnings"])
    assert "context alignment: 1.2% of each request's last block is empty at 40960; 41472" in k40["summary"]
    assert "context alignment" not in k128["summary"]


@pytest.mark.parametrize(("count", "options"), [(1, {}), (2, {}), (2, {"pipeline_parallel_size": 2}),
                                                (1, {"enable_prefix_caching": True})])
@pytest.mark.parametrize("arch", ["llama", "deepseek_v3"])
def test_cpu_auto_sized_kv_holds_the_target_concurrency(tiny, arch, count, options):
    """--kv-cache-memory-bytes holds ``concurrency`` full-length requests plus the null block, at a context
    that is not a whole number of blocks, for one node and a replica split over two."""
    profile, weights = load_model(model_dir=str(tiny(arch)))
    cpu_nodes = [dict(CPU_NODE, name=f"cpu{i}") for i in range(count)]
    plan = plan_deployment(profile, weights, cpu_nodes, BusinessNeed(max_model_len=500, concurrency=4),
                           PlanOptions(vllm_version="0.32.0+cpu", **options))
    mem = plan["memory"]
    assert plan["fits"], plan["reasons"]
    assert mem["num_blocks"] == 4 * mem["blocks_per_request"] + 1
    assert mem["full_length_sequences"] == 4 == plan["max_num_seqs"]
    assert plan["replicas_needed"] == 1 and plan["concurrency_per_replica"] == 4


def test_a_dense_model_scales_out_as_single_node_replicas_not_a_pipeline():
    """Llama-3.1-8B (tensor list from its config): 2,000 requests of 8K on 4 nodes of 8 H100 are replicas of
    one node each, not a pipeline across the nodes (which would hold them with the same GPUs)."""
    from kimi_deploy.core.model_profile import load_profile
    from kimi_deploy.core.tensor_sharding import records_from_config
    from published_logs import ENTRIES

    config = next(e for e in ENTRIES if e["id"] == "llama31-8b-rtx3090-20k")["config"]
    profile = load_profile({k: v for k, v in config.items() if not k.startswith("_")}, name="Llama-3.1-8B")
    weights = WeightInventory.from_records(records_from_config(profile), profile)
    plan = plan_deployment(profile, weights, nodes(4, H100), BusinessNeed(max_model_len=8192, concurrency=2000),
                           PlanOptions(vllm_version="0.32.0"))
    assert plan["fits"], plan["reasons"]
    assert plan["layout"]["nnodes"] == 1 and plan["layout"]["pipeline_parallel_size"] == 1
    assert plan["replicas_needed"] * plan["concurrency_per_replica"] >= 2000
    assert plan["nodes_total"] <= 4 and plan["replicas_needed"] > 1


# -- the typed plan: one dict shape, read back by version ------------------------------------------------

def test_the_plan_dict_reads_back_into_the_same_plan(k3, tiny):
    from kimi_deploy.core.plan import PLAN_SCHEMA_VERSION, Plan

    profile, weights = load_model(model_dir=str(tiny("llama")))
    cpu = plan_deployment(profile, weights, [CPU_NODE], BusinessNeed(max_model_len=1024, concurrency=8),
                          PlanOptions(vllm_version="0.32.0+cpu"))
    for plan in (plan_k3(k3, nodes(2, H200)), plan_k3(k3, nodes(1, B300), enable_prefix_caching=False), cpu):
        assert plan["schema_version"] == PLAN_SCHEMA_VERSION
        assert Plan.from_dict(plan).to_dict() == plan
    assert "requested_bytes" in cpu["memory"] and cpu["memory"]["requested_bytes"] is None
    assert cpu["memory"]["host_room_bytes"] > 0


def test_backend_extra_args_and_env_are_planner_inputs(k3):
    from kimi_deploy.core.plan import Plan

    plan = plan_k3(k3, nodes(2, H200), distributed_executor_backend="ray", extra_args=("--seed", "7"),
                   extra_env={"NCCL_IB_HCA": "mlx5", "NCCL_CUMEM_ENABLE": "0"})
    assert plan["serve_args"][-4:] == ["--distributed-executor-backend", "ray", "--seed", "7"]
    assert plan["env"]["NCCL_IB_HCA"] == "mlx5" and plan["env"]["NCCL_CUMEM_ENABLE"] == "0"  # the operator's win
    typed = Plan.from_dict(plan)
    assert typed.serve_flags.distributed_executor_backend == "ray" and typed.serve_flags.extra_args == ("--seed", "7")
    with pytest.raises(KimiDeployError, match="distributed_executor_backend"):
        plan_k3(k3, nodes(1, H200), distributed_executor_backend="torchrun")


def test_flags_appended_to_a_plan_after_planning_are_read_into_its_fields(k3):
    """What roles/kimi_plan does to the module's plan: the backend and the operator's flags appended to serve_args."""
    from kimi_deploy.core.plan import Plan

    planned = plan_k3(k3, nodes(2, H200))
    combined = {**planned, "serve_args": [*planned["serve_args"], "--distributed-executor-backend", "ray",
                                          "--max-num-seqs", "4", "--seed", "7"]}
    typed = Plan.from_dict(combined)
    assert typed.serve_flags.distributed_executor_backend == "ray"
    assert typed.max_num_seqs == 4 and typed.serve_flags.extra_args == ("--seed", "7")
    assert typed.layout == Plan.from_dict(planned).layout


def test_a_plan_written_before_the_schema_is_read_from_its_argv():
    from kimi_deploy.core.plan import Plan

    old = {"platform": "cuda", "layout": {"tensor_parallel_size": 8, "nnodes": 2, "nodes": ["a", "b"]},
           "max_model_len": 999, "serve_args": [
               "--tensor-parallel-size", "8", "--pipeline-parallel-size", "2", "--max-model-len", "40960",
               "--kv-cache-dtype", "fp8", "--speculative-config", '{"num_speculative_tokens":2}', "--moe-backend",
               "marlin", "--distributed-executor-backend=ray"]}
    typed = Plan.from_dict(old)
    assert typed.layout.pipeline_parallel_size == 2 and typed.layout.world_size == 16
    assert typed.max_model_len == 40960  # what ran wins over the dict's own field
    flags = typed.serve_flags
    assert flags.kv_cache_dtype == "fp8" and flags.speculative_config == {"num_speculative_tokens": 2}
    assert flags.distributed_executor_backend == "ray" and flags.extra_args == ("--moe-backend", "marlin")
    with pytest.raises(KimiDeployError, match="newer"):
        Plan.from_dict({"schema_version": 99})
