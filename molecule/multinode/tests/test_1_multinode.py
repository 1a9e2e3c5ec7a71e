"""multinode: one replica over two hosts (vLLM CPU build, TP2, mp backend), a Ray cluster over three.

converge deployed replica mn_pair (hosts 1 and 2; host 1 is the head). The checks read the hosts
themselves: the release tree on both, the processes' command lines, node.env against the node's own
`ip` view, the journals, HTTP on the head. The later steps build on each other and run in file order:
a Ray cluster over the three hosts, refusals that must change nothing, a second release on both
nodes, and a rollback that brings both back to the first.
"""

import hashlib
import json
import re
import time

import testinfra
from kimi_molecule import (
    ROOT,
    SERVED,
    UNIT,
    api,
    current_release,
    flag_value,
    main_pid,
    process_args,
    record_timing,
    release_json,
    run_playbook,
    said,
    unit_property,
)

# The verifier runs these against the head only (molecule.yml); `host` is the head, the others are here.
WORKER = testinfra.get_host("podman://kimi-m-multinode-2")
THIRD = testinfra.get_host("podman://kimi-m-multinode-3")
IPS = {"kimi-m-multinode-1": "10.89.50.41", "kimi-m-multinode-2": "10.89.50.42", "kimi-m-multinode-3": "10.89.50.43"}
RAY_TOKEN = "molecule-ray-token"
STATE: dict[str, str] = {}


def _node_env(node) -> dict[str, str]:
    text = node.file(f"{ROOT}/shared/node.env").content_string
    pairs = (line.split("=", 1) for line in text.splitlines() if line and not line.startswith("#"))
    return {name: json.loads(value) for name, value in pairs}


def _interface_holding(node, ip: str) -> str:
    """The node's own answer, independent of the module: which interface has this address."""
    for line in node.check_output("ip -o -4 addr show").splitlines():
        parts = line.split()
        if parts[3].split("/")[0] == ip:
            return parts[1].split("@")[0]
    raise AssertionError(f"no interface holds {ip}")


def _journal(node, since_invocation: bool = True) -> str:
    inv = unit_property(node, "InvocationID")
    return node.check_output(f"journalctl -o cat --no-pager _SYSTEMD_INVOCATION_ID={inv}" if since_invocation
                             else f"journalctl -o cat --no-pager -u {UNIT}")


def _serving(host, release_id: str, max_num_seqs: int) -> None:
    """Both nodes run release_id with their own flags, and the head answers a chat completion."""
    for node, rank in ((host, 0), (WORKER, 1)):
        assert current_release(node) == release_id
        args = process_args(node, main_pid(node))
        assert args[1] == f"{ROOT}/releases/{release_id}/venv/bin/kimi-vllm", args
        assert flag_value(args, "--max-num-seqs") == str(max_num_seqs)
        assert flag_value(args, "--tensor-parallel-size") == "2" and flag_value(args, "--nnodes") == "2"
        assert flag_value(args, "--node-rank") == str(rank)
        assert flag_value(args, "--master-addr") == IPS["kimi-m-multinode-1"]
        assert ("--headless" in args) is (rank == 1)
    status, chat = api(host, "/v1/chat/completions", {
        "model": SERVED, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 5})
    assert status == 200 and chat["usage"]["completion_tokens"] == 5, chat
    assert "-tp2-" in chat["system_fingerprint"]  # vLLM names the parallel layout that answered


# -- after converge and idempotence ------------------------------------------------------------------------

def test_both_nodes_hold_the_same_release_byte_for_byte(host):
    rid = current_release(host)
    assert current_release(WORKER) == rid
    for name in ("serve", "vllm.env"):
        digests = {hashlib.sha256(n.file(f"{ROOT}/releases/{rid}/{name}").content).hexdigest() for n in (host, WORKER)}
        assert len(digests) == 1, name
    serve = host.file(f"{ROOT}/releases/{rid}/serve").content_string
    assert "$KIMI_NODE_ARGS" in serve and "10.89.50" not in serve and "--node-rank" not in serve
    doc = release_json(host, rid)
    lay = doc["inputs"]["plan"]["layout"]
    assert (lay["tensor_parallel_size"], lay["nnodes"]) == (2, 2)
    assert lay["nodes"] == ["kimi-m-multinode-1", "kimi-m-multinode-2"]
    assert doc["inputs"]["plan"]["env"]["NCCL_CUMEM_ENABLE"] == "1"  # the recipe's multi-node env is in the release
    for node in (host, WORKER):
        assert release_json(node, rid)["acceptance"]["verdict"] == "passed"  # every node records the verdict


def test_node_env_is_each_nodes_own(host):
    for node, name in ((host, "kimi-m-multinode-1"), (WORKER, "kimi-m-multinode-2")):
        env = _node_env(node)
        assert env["VLLM_HOST_IP"] == IPS[name]
        assert env["NCCL_SOCKET_IFNAME"] == env["GLOO_SOCKET_IFNAME"] == _interface_holding(node, IPS[name])
        assert env["KIMI_HEAD_ADDRESS"] == IPS["kimi-m-multinode-1"]
        proc_env = node.check_output(f"tr '\\0' '\\n' < /proc/{main_pid(node)}/environ")
        assert f"VLLM_HOST_IP={IPS[name]}" in proc_env.splitlines()


def test_head_and_worker_serve_as_one_engine(host):
    _serving(host, current_release(host), 4)
    head_log, worker_log = _journal(host), _journal(WORKER)
    assert re.search(r"DP group leader: node_rank=0.*world_size=2, local_world_size=1", head_log), head_log[-3000:]
    assert "headless multiproc executor, with head node address 10.89.50.41:29501" in worker_log, worker_log[-3000:]
    assert "rank=1 local_rank=0 distributed_init_method=tcp://10.89.50.41:29501 backend=gloo" in worker_log
    # the worker has no API server; the head's health gate proved the replica
    assert WORKER.run("curl -s -m 5 http://127.0.0.1:8000/health").rc != 0
    assert "ExecStartPost" not in WORKER.file("/etc/systemd/system/kimi-vllm.service").content_string


def _reachable(node, address: str, ports: set[int]) -> set[int]:
    """The ``ports`` a TCP connection from ``node`` opens within 3 s (a dropped SYN times out), probed at once."""
    probes = " ".join(f"(timeout 3 bash -c '</dev/tcp/{address}/{p}' 2>/dev/null && echo {p}) &" for p in sorted(ports))
    return {int(p) for p in node.check_output(f"{probes} wait").split()}


def _listening_ports(node) -> set[int]:
    """The TCP ports the node listens on beyond loopback, but SSH: on these hosts, vLLM's (the test
    hosts run nothing else, and container root may not map sockets to processes: no CAP_SYS_PTRACE)."""
    ports = set()
    for line in node.check_output("ss -Hltn").splitlines():
        local = line.split()[3]
        if not local.startswith(("127.", "[::1]")):
            ports.add(int(local.rsplit(":", 1)[1]))
    return ports - {22}


def _ip_set(value: str) -> set[str]:
    return {item.removesuffix("/32") for item in value.split()}


def test_replica_ports_answer_its_own_nodes_only(host):
    """kimi_multinode_ip_access (host_vars): the units take traffic from loopback and the replica's nodes."""
    for node in (host, WORKER):
        assert _ip_set(unit_property(node, "IPAddressDeny")) == {"0.0.0.0/0", "::/0"}
        assert _ip_set(unit_property(node, "IPAddressAllow")) == {
            "127.0.0.0/8", "::1/128", IPS["kimi-m-multinode-1"], IPS["kimi-m-multinode-2"]}
    head = IPS["kimi-m-multinode-1"]
    assert WORKER.run(f"curl -s -m 5 -o /dev/null -w '%{{http_code}}' http://{head}:8000/health").stdout == "200"
    ports = _listening_ports(host)
    assert 8000 in ports, ports  # the API; the others are the engine's inter-node ports (rendezvous, queues)
    # From host 3, outside the replica: only SSH (no filter), which proves the path is there.
    assert _reachable(THIRD, head, ports | {22}) == {22}


def test_kv_cache_prediction_holds_across_nodes(host):
    row = release_json(host, current_release(host))["ledger"][-1]
    assert row["accepted"] is True and row["predicted_kv_tokens"] == row["kv_tokens_logged"]


def test_idempotence_restarted_no_node(host):
    for node in (host, WORKER):
        first = node.file("/root/molecule-first-invocation-id").content_string.strip()
        assert first and unit_property(node, "InvocationID") == first


# -- a Ray cluster over the three hosts ------------------------------------------------------------------

def test_ray_cluster_of_head_and_two_workers(host):
    started = time.monotonic()
    run_playbook("molecule/multinode/ray_cluster.yml")
    record_timing("Ray cluster over 3 hosts, up and checked", time.monotonic() - started)
    ray = host.check_output("systemctl show -p ExecStart --value kimi-ray.service").split("path=")[1].split(" ;")[0]
    deadline = time.monotonic() + 60  # `ray status` is the autoscaler's report, refreshed every few seconds
    while True:
        status = host.check_output(f"RAY_AUTH_MODE=token RAY_AUTH_TOKEN={RAY_TOKEN} {ray} status --address "
                                   "10.89.50.41:6379")
        # before the autoscaler's first report it prints "No cluster status. It may take a few seconds ..."
        active = status.split("Active:")[1].split("Pending:")[0] if "Active:" in status else ""
        if len(re.findall(r"^\s*1 node_", active, re.M)) == 3 or time.monotonic() > deadline:
            break
        time.sleep(3)
    assert len(re.findall(r"^\s*1 node_", active, re.M)) == 3, status
    assert re.search(r"0\.0/3\.0 CPU", status), status
    for node, name in ((host, "kimi-m-multinode-1"), (WORKER, "kimi-m-multinode-2"), (THIRD, "kimi-m-multinode-3")):
        assert node.service("kimi-ray.service").is_running
        pid = node.check_output("systemctl show -p MainPID --value kimi-ray.service")
        cmdline = node.check_output(f"tr '\\0' ' ' < /proc/{pid}/cmdline")
        assert f"--node-ip-address {IPS[name]}" in cmdline
        assert ("--head" in cmdline) is (name == "kimi-m-multinode-1")
    run_playbook("molecule/multinode/ray_cluster.yml", "-e", "molecule_ray=stopped")
    assert not host.service("kimi-ray.service").is_running


# -- refusals change nothing -------------------------------------------------------------------------------

def _refused_changing_nothing(host, message: str, *args: str, playbook: str = "deploy.yml", node=None) -> None:
    """Run a playbook that must fail with message; both nodes keep their release and their process.
    `node` is (host, command that damages it, command that repairs it) for the length of the run."""
    release, pids = current_release(host), (main_pid(host), main_pid(WORKER))
    if node:
        node[0].check_output(node[1])
    try:
        proc = run_playbook(playbook, "-l", "gpu_nodes", *args, check=False)
    finally:
        if node:
            node[0].check_output(node[2])
    assert proc.returncode != 0
    assert message in said(proc), said(proc)[-3000:]
    assert current_release(host) == current_release(WORKER) == release
    assert (main_pid(host), main_pid(WORKER)) == pids


def test_ray_backend_on_the_cpu_build_is_refused_before_anything_changes(host):
    _refused_changing_nothing(host, "current platform cpu does not support ray",
                              "-e", "kimi_distributed_backend=ray", "-e", f"kimi_ray_auth_token={RAY_TOKEN}")


def test_a_limit_that_cuts_the_replica_is_refused(host):
    proc = run_playbook("deploy.yml", "-l", "kimi-m-multinode-2", check=False)
    assert proc.returncode != 0
    assert "replica mn_pair is only partly in this run" in said(proc)


def test_colliding_ports_are_refused_before_anything_changes(host):
    _refused_changing_nothing(host, "The ports of replica mn_pair collide", "-e", "kimi_multinode_master_port=8000")


def test_a_node_outside_the_ip_allow_list_is_refused_before_anything_changes(host):
    # Both nodes named 10.89.50.99: the worker reaches the head from .42, which the allow-list would drop.
    _refused_changing_nothing(host, "reaches the head (10.89.50.41) from 10.89.50.42",
                              "-e", "kimi_node_address=10.89.50.99")


def test_tune_refuses_a_multi_node_replica(host):
    """tune.yml restarts one host at a time; a replica's nodes only restart together."""
    _refused_changing_nothing(host, "is a node of replica mn_pair; tune.yml restarts one host at a time",
                              "-e", "kimi_tune_parameter=max_num_seqs", "-e", '{"kimi_tune_values": [2]}',
                              playbook="tune.yml")


def test_a_node_failing_before_the_switch_stops_the_whole_replica(host):
    """The worker alone fails (its compiler is gone): the head, fine, must not switch either."""
    _refused_changing_nothing(host, "kimi-m-multinode-2 lacks a C++ compiler", "-e", '{"kimi_concurrency": 3}',
                              node=(WORKER, "mv /usr/bin/g++ /usr/bin/g++.away", "mv /usr/bin/g++.away /usr/bin/g++"))


# -- a second release, then back, on both nodes together -----------------------------------------------------

def test_second_release_switches_both_nodes(host):
    STATE["r1"] = current_release(host)
    started = time.monotonic()
    run_playbook("deploy.yml", "-l", "gpu_nodes", "-e", '{"kimi_concurrency": 2}')
    record_timing("multinode: deploy r2 on both nodes", time.monotonic() - started)
    STATE["r2"] = current_release(host)
    assert STATE["r2"] != STATE["r1"]
    _serving(host, STATE["r2"], 2)


def test_rollback_returns_every_node_to_the_same_previous_release(host):
    invocations = {n: unit_property(n, "InvocationID") for n in (host, WORKER)}
    started = time.monotonic()
    run_playbook("rollback.yml", "-l", "gpu_nodes")
    record_timing("multinode: rollback.yml on both nodes", time.monotonic() - started)
    _serving(host, STATE["r1"], 4)
    for node in (host, WORKER):
        assert unit_property(node, "InvocationID") != invocations[node]  # restarted together
        assert node.file(f"{ROOT}/releases/{STATE['r2']}/release.json").exists
        assert len(release_json(node, STATE["r1"])["activations"]) == 2


def test_release_failing_to_start_is_replaced_on_every_node(host):
    """A flag the installed vLLM does not know (an old recipe's, the usual upgrade failure): every node's
    vLLM exits before its port listens; the diagnosis names the load phase and the flag, and the
    previous release serves again on every node. (A release that starts and then fails its smoke check
    is the host scenario's test_3.)"""
    pids = (main_pid(host), main_pid(WORKER))
    started = time.monotonic()
    proc = run_playbook("deploy.yml", "-l", "gpu_nodes", "-e", '{"kimi_plan_extra_args": ["--no-such-option"]}',
                        check=False)
    record_timing("multinode: failed release detected and the previous one serving again on both nodes",
                  time.monotonic() - started)
    printed = said(proc)
    assert proc.returncode != 0
    assert "Diagnosis: load phase, vLLM rejected its command line" in printed, printed[-3000:]
    # The head's failure and the worker's, one "fatal: [host]" line each (the [ERROR] lines repeat them).
    serving_again = f"Release {STATE['r1']} is serving again"
    failed_nodes = {re.match(r"fatal: \[([^\]\s]+)", line).group(1) for line in proc.stdout.splitlines()
                    if line.startswith("fatal: [") and serving_again in line}
    assert failed_nodes == set(IPS) - {"kimi-m-multinode-3"}, printed[-3000:]
    _serving(host, STATE["r1"], 4)
    assert main_pid(host) != pids[0] and main_pid(WORKER) != pids[1]  # the replica restarted as one
    for node in (host, WORKER):
        docs = [release_json(node, p.split("/")[-1]) for p in node.check_output(f"ls -d {ROOT}/releases/*").split()]
        failed = max(docs, key=lambda doc: doc["created_at"])
        assert failed["id"] not in (STATE["r1"], STATE["r2"]) and failed["acceptance"]["verdict"] == "failed"
