"""Multi-node replicas: rollout batches, the network of a node, per-node flags against the K3 recipe.

The recipe commands below are copied from the published recipe as rendered in facts.md §3.2 (recipes
HEAD 2026-08-20); the route and address texts are real `ip route get` / `ip -o addr show` output.
"""

from __future__ import annotations

import shlex

import pytest
import yaml
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.model_profile import load_profile_from_path
from kimi_deploy.core.multinode import (
    NODE_FLAGS,
    RECIPE_MULTINODE_ENV,
    VLLM_DP_RPC_PORT,
    VLLM_MASTER_PORT,
    Layout,
    NodeNetwork,
    backend_of,
    check_serve_args,
    node_env,
    node_network,
    parse_route_get,
    plan_rollout,
    ray_cluster_problems,
    ray_start_args,
    render_env_file,
    replicas_per_batch,
    vllm_node_args,
)
from kimi_deploy.core.sizing import BusinessNeed, PlanOptions, plan_deployment
from kimi_deploy.core.tensor_sharding import WeightInventory, records_from_tensor_table
from repo_paths import REPO

MODELS = REPO / "data" / "models"

# Real output on a node whose bridge holds 10.89.50.1 (the gateway of the molecule network).
ROUTE_TO_PEER = "10.89.50.254 dev podman2 src 10.89.50.1 uid 0 \n    cache \n"
ROUTE_TO_SELF = "local 10.89.50.1 dev lo src 10.89.50.1 uid 0 \n    cache <local> \n"
ADDRS = (
    "1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever\n"
    "1: lo    inet6 ::1/128 scope host \\       valid_lft forever preferred_lft forever\n"
    "4: eth0    inet 192.0.2.2/24 brd 192.0.2.255 scope global eth0\\       valid_lft forever preferred_lft forever\n"
    "4: eth0    inet6 fd00::2/64 scope global nodad \\       valid_lft forever preferred_lft forever\n"
    "15: podman2    inet 10.89.50.1/24 brd 10.89.50.255 scope global podman2\\       valid_lft forever "
    "preferred_lft forever\n"
)
ROUTE_VIA_V6 = "2001:db8::1 from :: via fd00::1 dev eth0 src fd00::2 metric 1024 pref medium\n"

# facts.md §3.2: H200 x16 (2 nodes) TP8 x PP2 and B200 x16 TP8 x PP2, node 0; node 1 adds
# "--node-rank 1" (replacing 0) and "--headless".
RECIPE_H200_NODE0 = (
    "vllm serve moonshotai/Kimi-K3 --trust-remote-code --tensor-parallel-size 8 --pipeline-parallel-size 2 "
    "--nnodes 2 --node-rank 0 --master-addr $HEAD_IP "
    "--gpu-memory-utilization 0.97 --max-num-seqs 5 --max-model-len 32768 --moe-backend marlin "
    "--disable-custom-all-reduce --no-enable-flashinfer-autotune --max-num-batched-tokens 4096 "
    "--attention-backend FLASHMLA --enable-auto-tool-choice --tool-call-parser kimi_k3 --reasoning-parser kimi_k3")
RECIPE_H200_ENV = {"GLOO_SOCKET_IFNAME": "$IFACE_NAME", "NCCL_SOCKET_IFNAME": "$IFACE_NAME", "NCCL_CUMEM_ENABLE": "1",
                   "VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS": "1800",
                   "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True", "VLLM_ENGINE_READY_TIMEOUT_S": "3600"}
RECIPE_B200_NODE0 = (
    "vllm serve moonshotai/Kimi-K3 --trust-remote-code --tensor-parallel-size 8 --pipeline-parallel-size 2 "
    "--nnodes 2 --node-rank 0 --master-addr $HEAD_IP --gpu-memory-utilization 0.90 --max-num-batched-tokens 8192 "
    "--load-format fastsafetensors --no-enable-flashinfer-autotune --max-model-len 1048576 --kv-cache-dtype fp8 "
    "--attention-config '{\"use_prefill_query_quantization\":true,\"mla_prefill_backend\":\"flashinfer\"}' "
    "--enable-prefix-caching --enable-auto-tool-choice --tool-call-parser kimi_k3 --reasoning-parser kimi_k3")
RECIPE_B200_ENV = {"NCCL_CUMEM_ENABLE": "1", "VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS": "1800",
                   "VLLM_ALLREDUCE_USE_FLASHINFER": "1", "VLLM_ENGINE_READY_TIMEOUT_S": "3600"}
H200 = ("NVIDIA H200", 143_771, "9.0")
B200 = ("NVIDIA B200", 183_359, "10.0")


def _flags(argv: list[str], names) -> dict[str, str | None]:
    """Flag -> value (None for a bare flag) for the flags in ``names``."""
    out: dict[str, str | None] = {}
    for i, arg in enumerate(argv):
        if arg in names:
            nxt = argv[i + 1] if i + 1 < len(argv) else None
            out[arg] = None if nxt is None or nxt.startswith("--") else nxt
    return out


def _nodes(count, gpu):
    name, mib, cc = gpu
    return [{"name": f"node{i}", "memory_total_mib": 2_064_000, "cpu_count": 224,
             "gpus": [{"index": g, "name": name, "memory_total_mib": mib, "compute_capability": cc}
                      for g in range(8)]} for i in range(count)]


@pytest.fixture(scope="module")
def k3():
    profile = load_profile_from_path(MODELS / "kimi-k3", name="Kimi-K3")
    return profile, WeightInventory.from_records(records_from_tensor_table(MODELS / "kimi-k3/tensor-table.json"),
                                                 profile)


HEAD_IP, IFACE = "10.0.0.1", "ens1f0"  # what $HEAD_IP and $IFACE_NAME stand for in the recipe


def _recipe(text: str) -> list[str]:
    return shlex.split(text.replace("$HEAD_IP", HEAD_IP))


def _commands(plan, head=HEAD_IP):
    """The command line and environment every node would run: release part + node.env part."""
    layout = Layout.from_dict(plan["layout"])
    release_env = {**plan["env"], **RECIPE_MULTINODE_ENV}
    out = []
    for rank in range(layout.nnodes):
        network = NodeNetwork(interface=IFACE, host_ip=f"10.0.0.{rank + 1}", source="test")
        args = vllm_node_args(layout, rank=rank, head_address=head)
        argv = ["vllm", "serve", "moonshotai/Kimi-K3", *plan["serve_args"], *args]
        env = {**release_env, **node_env(rank=rank, nnodes=layout.nnodes, head_address=head, network=network,
                                         vllm_args=args)}
        out.append((argv, env))
    return out


# -- the recipe's multi-node commands ------------------------------------------------------------------

@pytest.mark.parametrize(("gpu", "recipe", "recipe_env", "options", "need"), [
    (H200, RECIPE_H200_NODE0, RECIPE_H200_ENV, {},
     BusinessNeed.from_tokens(max_input_tokens=28_672, max_output_tokens=4_096, concurrency=5)),
    (B200, RECIPE_B200_NODE0, RECIPE_B200_ENV, {"tensor_parallel_size": 8, "pipeline_parallel_size": 2},
     BusinessNeed.from_tokens(max_input_tokens=28_672, max_output_tokens=4_096, concurrency=5)),
])
def test_per_node_flags_and_env_match_the_recipe(k3, gpu, recipe, recipe_env, options, need):
    profile, weights = k3
    plan = plan_deployment(profile, weights, _nodes(2, gpu), need, PlanOptions(vllm_version="0.32.0", **options))
    assert plan["fits"], plan["reasons"]
    (node0, env0), (node1, env1) = _commands(plan)
    recipe0 = _recipe(recipe)
    # The layout and the per-node flags are the recipe's; --master-port is explicit at vLLM's default.
    layout_flags = ("--tensor-parallel-size", "--pipeline-parallel-size")
    assert _flags(node0, layout_flags) == _flags(recipe0, layout_flags) == {"--tensor-parallel-size": "8",
                                                                            "--pipeline-parallel-size": "2"}
    assert _flags(node0, NODE_FLAGS) == {**_flags(recipe0, NODE_FLAGS), "--master-port": "29501"}
    # "node 1: same args but --node-rank 1 and --headless"
    recipe1 = [*recipe0[:recipe0.index("--node-rank") + 1], "1", *recipe0[recipe0.index("--node-rank") + 2:],
               "--headless"]
    assert _flags(node1, NODE_FLAGS) == {**_flags(recipe1, NODE_FLAGS), "--master-port": "29501"}
    expected1 = list(node0)
    expected1[expected1.index("--node-rank") + 1] = "1"
    assert node1 == [*expected1, "--headless"]
    # The recipe's flags that are not sized from the hardware and the need appear as they are.
    fixed = {f for f in recipe0 if f.startswith("--")} - set(NODE_FLAGS) - {
        "--gpu-memory-utilization", "--max-num-seqs", "--max-model-len", "--max-num-batched-tokens",
        "--enable-prefix-caching"}  # sized by the planner, or a feature the operator opts into
    assert fixed <= set(node0), sorted(fixed - set(node0))
    # Environment: what the recipe sets for this layout is set, identically on both nodes but the network.
    for name, value in recipe_env.items():
        assert env0[name] == value.replace("$IFACE_NAME", IFACE) == env1[name], name
    assert {k for k in env0 if env0[k] != env1.get(k)} == {"KIMI_NODE_RANK", "KIMI_NODE_ARGS", "VLLM_HOST_IP"}


def test_tp16_over_two_nodes_matches_the_recipe_flags():
    # facts.md §3.2 "H200 TP16 (2 nodes)": --tensor-parallel-size 16 --nnodes 2 --node-rank {0,1}
    # --master-addr $HEAD_IP (+--headless on rank 1)
    layout = Layout(tensor_parallel_size=16, nnodes=2)
    assert vllm_node_args(layout, rank=0, head_address=HEAD_IP) == [
        "--nnodes", "2", "--node-rank", "0", "--master-addr", HEAD_IP, "--master-port", str(VLLM_MASTER_PORT)]
    assert vllm_node_args(layout, rank=1, head_address=HEAD_IP)[-1] == "--headless"


@pytest.mark.parametrize(("layout", "recipe0", "recipe1"), [
    # H200 "TP8·DP2": --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-address $HEAD_IP
    # (+ --data-parallel-start-rank 1 on node 1)
    (Layout(tensor_parallel_size=8, data_parallel_size=2, nnodes=2),
     "--data-parallel-size-local 1 --data-parallel-address $HEAD_IP",
     "--data-parallel-size-local 1 --data-parallel-address $HEAD_IP --data-parallel-start-rank 1"),
    # GB200 DEP16 over 4 trays: --data-parallel-size 16 --data-parallel-size-local 4 --data-parallel-address
    # $HEAD_IP (+ --data-parallel-start-rank 4 on tray 1)
    (Layout(tensor_parallel_size=1, data_parallel_size=16, nnodes=4),
     "--data-parallel-size-local 4 --data-parallel-address $HEAD_IP",
     "--data-parallel-size-local 4 --data-parallel-address $HEAD_IP --data-parallel-start-rank 4"),
])
def test_data_parallel_nodes_match_the_recipe_flags(layout, recipe0, recipe1):
    rpc = ["--data-parallel-rpc-port", str(VLLM_DP_RPC_PORT)]  # explicit at vLLM's default
    node0 = vllm_node_args(layout, rank=0, head_address=HEAD_IP)
    node1 = vllm_node_args(layout, rank=1, head_address=HEAD_IP)
    assert _flags(node0, NODE_FLAGS) == _flags(_recipe(recipe0) + rpc, NODE_FLAGS)
    # secondary nodes run the engines only (vLLM's multi-node DP: --headless with a start rank)
    assert _flags(node1, NODE_FLAGS) == _flags(_recipe(recipe1) + rpc + ["--headless"], NODE_FLAGS)


def test_data_parallel_rank_spanning_nodes_is_refused():
    with pytest.raises(KimiDeployError, match="spanning nodes"):
        vllm_node_args(Layout(tensor_parallel_size=16, data_parallel_size=2, nnodes=4),
                       rank=1, head_address="h")


def test_single_node_and_ray_flags():
    assert vllm_node_args(Layout(tensor_parallel_size=8), rank=0, head_address="h") == []
    two = Layout(tensor_parallel_size=8, pipeline_parallel_size=2, nnodes=2)
    assert vllm_node_args(two, rank=0, head_address="h", backend="ray") == []
    assert vllm_node_args(two, rank=1, head_address="h", backend="ray") is None  # no vLLM on Ray workers
    with pytest.raises(KimiDeployError, match="outside a replica"):
        vllm_node_args(two, rank=2, head_address="h")
    with pytest.raises(KimiDeployError, match="kimi_distributed_backend"):
        vllm_node_args(two, rank=0, head_address="h", backend="torchrun")


def test_backend_is_read_from_the_release_arguments():
    assert backend_of({"serve_args": ["--tensor-parallel-size", "8"]}) == "mp"
    assert backend_of({"serve_args": ["--distributed-executor-backend", "ray"]}) == "ray"
    assert backend_of({"serve_args": ["--distributed-executor-backend=ray"]}) == "ray"
    assert backend_of({"serve_args": ["--distributed-executor-backend", "mp"]}) == "mp"


def test_operator_arguments_that_fight_node_env_are_refused():
    check_serve_args(["--max-model-len", "512", "--enforce-eager"])
    with pytest.raises(KimiDeployError, match=r"--headless.*node\.env"):
        check_serve_args(["--headless"])
    with pytest.raises(KimiDeployError, match="--master-port"):
        check_serve_args(["--master-port=1234"])
    with pytest.raises(KimiDeployError, match="API server on every node"):
        check_serve_args(["--data-parallel-hybrid-lb"])


# -- the network of a node --------------------------------------------------------------------------

def test_worker_uses_the_route_to_the_head():
    net = node_network("10.89.50.254", ROUTE_TO_PEER)
    assert (net.interface, net.host_ip) == ("podman2", "10.89.50.1")


def test_head_uses_the_interface_holding_its_address_not_lo():
    net = node_network("10.89.50.1", ROUTE_TO_SELF, ADDRS)
    assert (net.interface, net.host_ip) == ("podman2", "10.89.50.1")


def test_routed_ipv6_head():
    route = parse_route_get(ROUTE_VIA_V6)
    assert route == {"local": False, "dev": "eth0", "src": "fd00::2", "via": "fd00::1"}
    assert node_network("2001:db8::1", ROUTE_VIA_V6).host_ip == "fd00::2"


def test_interface_override_keeps_the_address():
    net = node_network("10.89.50.254", ROUTE_TO_PEER, interface="bond0")
    assert (net.interface, net.host_ip) == ("bond0", "10.89.50.1")


def test_unusable_routes_are_refused():
    with pytest.raises(KimiDeployError, match="no route"):
        parse_route_get("")
    with pytest.raises(KimiDeployError, match="no interface on this node holds"):
        node_network("10.89.50.7", "local 10.89.50.7 dev lo src 10.89.50.7 uid 0\n", ADDRS)
    with pytest.raises(KimiDeployError, match="loopback"):
        node_network("127.0.0.2", "127.0.0.2 dev lo src 127.0.0.1 uid 0\n")


# -- node.env -----------------------------------------------------------------------------------------

def test_node_env_carries_place_network_and_flags_and_operator_overrides_win():
    net = NodeNetwork(interface="eth0", host_ip="10.89.50.42", source="test")
    env = node_env(rank=1, nnodes=2, head_address="10.89.50.41", network=net,
                   vllm_args=["--nnodes", "2", "--node-rank", "1", "--headless"], extra={"NCCL_SOCKET_IFNAME": "ib0"})
    assert env["VLLM_HOST_IP"] == "10.89.50.42" and env["GLOO_SOCKET_IFNAME"] == "eth0"
    assert env["NCCL_SOCKET_IFNAME"] == "ib0"
    assert env["KIMI_NODE_ARGS"] == "--nnodes 2 --node-rank 1 --headless"
    assert "KIMI_RAY_ARGS" not in env and "RAY_ADDRESS" not in env
    text = render_env_file(env, ["header"])
    assert text.startswith("# header\n") and 'KIMI_NODE_ARGS="--nnodes 2 --node-rank 1 --headless"\n' in text


def test_node_env_refuses_what_the_launcher_cannot_split():
    net = NodeNetwork(interface="eth0", host_ip="10.0.0.2", source="test")
    with pytest.raises(KimiDeployError, match="splits it on spaces"):
        node_env(rank=0, nnodes=2, head_address="h", network=net, vllm_args=["--x", "$(reboot)"])
    with pytest.raises(KimiDeployError, match="not an environment variable name"):
        node_env(rank=0, nnodes=2, head_address="h", network=net, vllm_args=[], extra={"BAD-NAME": "1"})


def test_ray_start_arguments_and_address():
    head = ray_start_args(rank=0, head_address="10.0.0.1", node_ip="10.0.0.1", num_cpus=1, temp_dir="/opt/k/ray")
    assert head[:2] == ["--head", "--port"] and "--include-dashboard" in head
    assert head[-2:] == ["--temp-dir", "/opt/k/ray"]
    worker = ray_start_args(rank=2, head_address="fd00::1", node_ip="fd00::3", port=6380)
    assert worker[:2] == ["--address", "[fd00::1]:6380"] and "--head" not in worker
    env = node_env(rank=0, nnodes=3, head_address="10.0.0.1", network=NodeNetwork("eth0", "10.0.0.1", "t"),
                   vllm_args=[], ray_args=head)
    assert env["RAY_ADDRESS"] == "10.0.0.1:6379" and env["KIMI_NODE_ARGS"] == ""


# -- the Ray cluster ------------------------------------------------------------------------------------

def _ray_node(ip, gpus=8, cpus=224, alive=True):
    return {"Alive": alive, "NodeManagerAddress": ip, "Resources": {"CPU": float(cpus), "GPU": float(gpus)}}


def test_ray_cluster_matching_the_plan_has_no_problems():
    nodes = [_ray_node("10.0.0.1"), _ray_node("10.0.0.2"), _ray_node("10.0.0.9", alive=False)]
    assert ray_cluster_problems(nodes, expected_nodes=2, expected_gpus=16, expected_ips=["10.0.0.1", "10.0.0.2"]) == []


def test_ray_cluster_problems_name_what_is_missing():
    nodes = [_ray_node("10.0.0.1"), _ray_node("10.0.0.2", gpus=7)]
    problems = ray_cluster_problems(nodes, expected_nodes=3, expected_gpus=24,
                                    expected_ips=["10.0.0.1", "10.0.0.2", "10.0.0.3"])
    assert problems[0] == "2 of 3 Ray nodes are alive; missing 10.0.0.3"
    assert "15 GPUs, the plan needs 24" in problems[1]
    wrong_ip = ray_cluster_problems([_ray_node("172.17.0.2"), _ray_node("10.0.0.2")], expected_nodes=2,
                                    expected_gpus=16, expected_ips=["10.0.0.1", "10.0.0.2"])
    assert "VLLM_HOST_IP" in wrong_ip[0]
    cpus = ray_cluster_problems([_ray_node("a", gpus=0, cpus=1)], expected_nodes=1, expected_gpus=0, expected_cpus=2)
    assert cpus == ["the cluster has 1 CPUs, 2 expected"]


# -- replicas and batches --------------------------------------------------------------------------------

GROUPS = {"all": ["a1", "a2", "b1", "b2", "c1"], "gpu_nodes": ["b1", "a1", "c1", "a2", "b2"],
          "rep_a": ["a1", "a2"], "rep_b": ["b2", "b1"]}
REPLICA_OF = {"a1": "rep_a", "a2": "rep_a", "b1": "rep_b", "b2": "rep_b", "c1": ""}


def test_replicas_keep_their_group_order_and_batches_hold_whole_replicas():
    rollout = plan_rollout(["b1", "a1", "c1", "a2", "b2"], REPLICA_OF, GROUPS)
    assert [(r.name, r.hosts) for r in rollout.replicas] == [
        ("rep_b", ("b2", "b1")), ("rep_a", ("a1", "a2")), ("c1", ("c1",))]
    assert rollout.batch_hosts() == [["b2", "b1"], ["a1", "a2"], ["c1"]]
    place = rollout.placement()
    assert place["b1"] == {"replica": "rep_b", "rank": 1, "head": "b2", "nnodes": 2, "batch": 0}
    two = plan_rollout(["b1", "a1", "c1", "a2", "b2"], REPLICA_OF, GROUPS, serial=2)
    assert two.batch_hosts() == [["b2", "b1", "a1", "a2"], ["c1"]]
    assert plan_rollout(["a1", "a2", "c1", "b1", "b2"], REPLICA_OF, GROUPS, serial="50%").batches == [
        ["rep_a", "c1"], ["rep_b"]]


def test_single_node_hosts_are_replicas_of_one_as_before():
    rollout = plan_rollout(["h1", "h2", "h3"], {}, {"all": ["h1", "h2", "h3"]})
    assert rollout.batch_hosts() == [["h1"], ["h2"], ["h3"]]


def test_part_of_a_replica_is_refused():
    with pytest.raises(KimiDeployError, match=r"replica rep_a is only partly in this run: a2 of a1, a2 is outside"):
        plan_rollout(["a1", "c1"], REPLICA_OF, GROUPS)


def test_inconsistent_replica_declarations_are_refused():
    with pytest.raises(KimiDeployError, match="not an inventory group"):
        plan_rollout(["a1"], {"a1": "nope"}, GROUPS)
    with pytest.raises(KimiDeployError, match="c1 is not one of its hosts"):
        plan_rollout(["c1"], {"c1": "rep_a"}, GROUPS)
    with pytest.raises(KimiDeployError, match="a host serves one replica"):
        plan_rollout(["a1", "a2"], {"a1": "rep_a", "a2": "rep_x"}, {**GROUPS, "rep_x": ["a2"]})


@pytest.mark.parametrize("bad", [0, "0%", "150%", "x", -1])
def test_serial_must_be_a_count_or_percentage(bad):
    with pytest.raises(KimiDeployError, match="kimi_serial"):
        replicas_per_batch(bad, 4)


def test_role_default_multinode_env_is_the_recipes():
    defaults = yaml.safe_load((REPO / "roles/kimi/defaults/main.yml").read_text())
    assert defaults["kimi_multinode_env"] == RECIPE_MULTINODE_ENV
    assert defaults["kimi_multinode_master_port"] == VLLM_MASTER_PORT
