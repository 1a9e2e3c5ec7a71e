"""Multi-node replicas: which hosts serve one copy of the model together, and each node's place in it.

A replica is an inventory group (``kimi_replica_group``) whose first host is the head (rank 0, the
API server) and whose other hosts are workers; a host without a group is a replica of its own.
Everything here is the same on every node of a replica except what :func:`node_env` renders, so
a release (the ``serve`` launcher, ``vllm.env``) is byte-identical, hence the same id, on all of
them. The per-node part lives in ``<root>/shared/node.env``:

* ``KIMI_NODE_ARGS``: the vLLM launcher flags of this node (``--nnodes``, ``--node-rank``,
  ``--master-addr``, ``--master-port``, ``--headless``, or the ``--data-parallel-*`` address and
  start rank), rendered from the layout of the release ``current`` points at, so a rollback to a
  release of another layout gets its own flags;
* the network of this node: ``VLLM_HOST_IP`` and ``NCCL_SOCKET_IFNAME`` / ``GLOO_SOCKET_IFNAME``,
  the interface that routes to the head, read from ``ip route get <head>`` on the node itself;
* ``KIMI_RAY_ARGS`` / ``RAY_ADDRESS`` for the Ray backend.

Backends (vLLM ``config/parallel.py``): ``mp`` (the recipes' choice) runs one vLLM per node, rank 0
with the API server, the others ``--headless``; ``ray`` runs ``ray start --head`` / ``ray start
--address`` on the nodes and ``vllm serve --distributed-executor-backend ray`` on the head only.
"""

from __future__ import annotations

import ipaddress
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import KimiDeployError
from .plan import BACKENDS, Layout, Plan

# vLLM's defaults (config/parallel.py: master_port, data_parallel_rpc_port) and Ray's GCS port.
VLLM_MASTER_PORT = 29501
VLLM_DP_RPC_PORT = 13345
RAY_GCS_PORT = 6379

# The K3 recipe's multi-node settings (facts.md §3.2, §3.4): NCCL's cuMem allocator for pipeline
# stages, an hour for the engine to come up while 1.4 TiB load, half an hour per model step.
RECIPE_MULTINODE_ENV = {
    "NCCL_CUMEM_ENABLE": "1",
    "VLLM_ENGINE_READY_TIMEOUT_S": "3600",
    "VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS": "1800",
}

# Launcher flags this module owns; an operator passing one of them by hand would fight node.env.
NODE_FLAGS = ("--nnodes", "--node-rank", "--master-addr", "--master-port", "--headless",
              "--data-parallel-address", "--data-parallel-start-rank", "--data-parallel-size-local",
              "--data-parallel-rpc-port", "--data-parallel-rank")
# Layouts where every node runs its own API server: not one replica behind one head.
PER_NODE_API_FLAGS = ("--data-parallel-hybrid-lb", "--data-parallel-external-lb")

_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


# --------------------------------------------------------------------------------------------
# Replicas and rolling batches


@dataclass(frozen=True)
class Replica:
    name: str
    hosts: tuple[str, ...]

    @property
    def head(self) -> str:
        return self.hosts[0]


@dataclass
class Rollout:
    replicas: list[Replica]
    batches: list[list[str]] = field(default_factory=list)  # replica names, in rollout order

    def batch_hosts(self) -> list[list[str]]:
        by_name = {r.name: r for r in self.replicas}
        return [[h for name in batch for h in by_name[name].hosts] for batch in self.batches]

    def placement(self) -> dict[str, dict[str, Any]]:
        """Per host: its replica, rank, head, node count and batch."""
        out = {}
        by_name = {r.name: r for r in self.replicas}
        for index, batch in enumerate(self.batches):
            for name in batch:
                replica = by_name[name]
                for rank, host in enumerate(replica.hosts):
                    out[host] = {"replica": name, "rank": rank, "head": replica.head,
                                 "nnodes": len(replica.hosts), "batch": index}
        return out

    def as_dict(self) -> dict[str, Any]:
        placement = self.placement()
        return {
            "replicas": [{"name": r.name, "hosts": list(r.hosts), "head": r.head} for r in self.replicas],
            "batches": self.batches,
            "batch_hosts": self.batch_hosts(),
            "placement": placement,
            "order": [{"host": h, **placement[h]} for batch in self.batch_hosts() for h in batch],
        }


def replicas_per_batch(serial: int | str, replica_count: int) -> int:
    """``kimi_serial`` as replicas per batch: a count, or ``"N%"`` of the replicas (at least one)."""
    text = str(serial).strip()
    try:
        if text.endswith("%"):
            percent = float(text[:-1])
            if not 0 < percent <= 100:
                raise ValueError
            return max(1, math.ceil(replica_count * percent / 100))
        count = int(text)
        if count < 1:
            raise ValueError
        return count
    except ValueError:
        raise KimiDeployError(f"kimi_serial {serial!r} must be a number of replicas (1, 2, ...) or a "
                              "percentage of them ('25%'); each rolling batch holds that many replicas") from None


def plan_rollout(play_hosts: Sequence[str], replica_group_of: Mapping[str, str],
                 groups: Mapping[str, Sequence[str]], serial: int | str = 1) -> Rollout:
    """Group the play's hosts into replicas (head first) and the replicas into rolling batches.

    ``replica_group_of`` maps a host to its ``kimi_replica_group`` ('' for a single-node replica);
    ``groups`` is the inventory's ``groups``. A replica is deployed or rolled back whole: a play
    that holds only part of one is refused, as is a host that two replicas claim.
    """
    if not play_hosts:
        raise KimiDeployError("no hosts to deploy: the play matched none (check -l and gpu_nodes)")
    in_play = set(play_hosts)
    replicas: dict[str, Replica] = {}
    owner: dict[str, str] = {}
    for host in play_hosts:
        group = (replica_group_of.get(host) or "").strip()
        if not group:
            name, members = host, (host,)
        else:
            if group not in groups:
                raise KimiDeployError(f"{host}: kimi_replica_group is {group!r}, which is not an inventory group; "
                                      "name the group whose hosts serve this replica (head first)")
            members = tuple(dict.fromkeys(groups[group]))
            if host not in members:
                raise KimiDeployError(f"{host}: kimi_replica_group is {group!r} but {host} is not one of its "
                                      f"hosts ({', '.join(members)}); add it there or set the variable on the "
                                      "group itself (group_vars/<group>)")
            name = group
        for member in members:
            claimed = (replica_group_of.get(member) or "").strip() or member
            if claimed != name:
                raise KimiDeployError(
                    f"{member} is a host of replica group {name!r} but its kimi_replica_group is "
                    f"{replica_group_of.get(member) or '(empty)'!r}; a host serves one replica: set "
                    f"kimi_replica_group: {name} in group_vars/{name} and take {member} out of other replica groups")
            if owner.setdefault(member, name) != name:
                raise KimiDeployError(f"{member} belongs to two replicas ({owner[member]}, {name}); a host serves one")
        missing = [m for m in members if m not in in_play]
        if missing:
            raise KimiDeployError(
                f"replica {name} is only partly in this run: {', '.join(missing)} of {', '.join(members)} "
                f"{'is' if len(missing) == 1 else 'are'} outside the play (--limit, or not in gpu_nodes). "
                "A replica is deployed and rolled back whole, so that no replica runs mixed releases: "
                f"add {', '.join(missing)} to the limit, or limit to other replicas")
        replicas.setdefault(name, Replica(name, members))
    ordered = list(replicas.values())
    per_batch = replicas_per_batch(serial, len(ordered))
    names = [r.name for r in ordered]
    batches = [names[i:i + per_batch] for i in range(0, len(names), per_batch)]
    return Rollout(replicas=ordered, batches=batches)


# --------------------------------------------------------------------------------------------
# The network of a node, from its own routing table


@dataclass(frozen=True)
class NodeNetwork:
    interface: str
    host_ip: str
    source: str  # how it was found, for the record


def parse_route_get(text: str) -> dict[str, Any]:
    """``ip route get <addr>``: ``{"dev", "src", "via", "local"}`` of the first route line."""
    line = next((ln for ln in text.splitlines() if ln.strip() and not ln.startswith((" ", "\t"))), "")
    tokens = line.split()
    if not tokens:
        raise KimiDeployError(f"`ip route get` printed no route ({text.strip()!r}); check that the head's "
                              "address is right and that this node has a route to it")
    route: dict[str, Any] = {"local": tokens[0] == "local", "dev": None, "src": None, "via": None}
    for key in ("dev", "src", "via"):
        if key in tokens[:-1]:
            route[key] = tokens[tokens.index(key) + 1]
    if not route["dev"]:
        raise KimiDeployError(f"`ip route get` names no device in {line!r}; this node has no usable route to the head")
    return route


def parse_addr_owner(text: str, address: str) -> str:
    """``ip -o addr show``: the interface that holds ``address`` (a name like ``eth0``)."""
    wanted = ipaddress.ip_address(address)
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 4 or parts[2] not in ("inet", "inet6"):
            continue
        try:
            held = ipaddress.ip_interface(parts[3]).ip
        except ValueError:
            continue
        if held == wanted:
            return parts[1].split("@", 1)[0]
    raise KimiDeployError(f"no interface on this node holds {address}; the head address must be one of the head's "
                          "own addresses (set kimi_multinode_head_address)")


def node_network(head_ip: str, route_text: str, addr_text: str = "", interface: str = "") -> NodeNetwork:
    """The interface this node reaches the head through, and its address on it.

    On a worker that is the route to the head (``dev`` and ``src``). On the head the route to its
    own address is the loopback (``local ... dev lo``), so the interface is the one holding that
    address. ``interface`` (``kimi_multinode_network_interface``) overrides the device, never the IP.
    """
    route = parse_route_get(route_text)
    if route["local"]:
        dev = parse_addr_owner(addr_text, head_ip)
        found = NodeNetwork(interface=dev, host_ip=head_ip, source=f"{head_ip} is held by {dev} (this is the head)")
    else:
        if not route["src"]:
            raise KimiDeployError(f"the route to the head {head_ip} via {route['dev']} names no source address; "
                                  "give that interface an address")
        found = NodeNetwork(interface=route["dev"], host_ip=route["src"],
                            source=f"ip route get {head_ip}: dev {route['dev']} src {route['src']}"
                                   + (f" via {route['via']}" if route["via"] else ""))
    if found.interface == "lo" and not route["local"]:
        raise KimiDeployError(f"the route to the head {head_ip} leaves through lo; the head address must be "
                              "reachable from the other nodes, not a loopback address")
    if interface:
        return NodeNetwork(interface=interface, host_ip=found.host_ip,
                           source=f"{found.source}; interface set to {interface} by kimi_multinode_network_interface")
    return found


# --------------------------------------------------------------------------------------------
# Per-node launcher flags


def backend_of(plan: Mapping[str, Any]) -> str:
    """The executor a plan (or a release's stored plan, of any version) selects: ``ray`` or ``mp``."""
    return "ray" if Plan.from_dict(plan).serve_flags.distributed_executor_backend == "ray" else "mp"


def planned_gpus(plan: Mapping[str, Any]) -> int:
    """GPUs a plan runs on, in all (its world size on CUDA, none on the CPU build)."""
    if plan.get("platform") != "cuda":  # a partial plan (layout only) names no platform: no GPUs to count
        return 0
    return Plan.from_dict(plan).layout.world_size


def check_serve_args(serve_args: Sequence[str]) -> None:
    """Refuse arguments that would fight the per-node flags or need an API server on every node."""
    owned = sorted({a.split("=", 1)[0] for a in serve_args} & set(NODE_FLAGS))
    if owned:
        raise KimiDeployError(f"{', '.join(owned)} must not be in the release's arguments (kimi_plan_extra_args or "
                              "overrides): node.env sets them per node from the inventory. Remove them")
    per_node_api = sorted({a.split("=", 1)[0] for a in serve_args} & set(PER_NODE_API_FLAGS))
    if per_node_api:
        raise KimiDeployError(f"{', '.join(per_node_api)} runs an API server on every node; deploy each node as its "
                              "own replica (no kimi_replica_group) behind your load balancer instead")


def vllm_node_args(layout: Layout, *, rank: int, head_address: str, backend: str = "mp",
                   master_port: int = VLLM_MASTER_PORT, dp_rpc_port: int = VLLM_DP_RPC_PORT) -> list[str] | None:
    """The vLLM flags node ``rank`` adds to the release's command, or None when vLLM does not run there.

    * one node: nothing;
    * ``ray``: nothing on the head (the release says ``--distributed-executor-backend ray``), and
      no vLLM on the other nodes (they run Ray workers);
    * ``mp`` without DP: ``--nnodes N --node-rank R --master-addr HEAD --master-port P``, and
      ``--headless`` on R > 0 (the recipes' TP8 x PP2 and TP16 commands);
    * ``mp`` with DP, whole DP ranks per node: ``--data-parallel-size-local L
      --data-parallel-address HEAD --data-parallel-rpc-port P``, and on R > 0
      ``--data-parallel-start-rank R*L --headless`` (the recipes' TP8 x DP2 and DEP commands).
    """
    if backend not in BACKENDS:
        raise KimiDeployError(f"kimi_distributed_backend {backend!r} must be one of {', '.join(BACKENDS)}")
    if not 0 <= rank < max(layout.nnodes, 1):
        raise KimiDeployError(f"node rank {rank} is outside a replica of {layout.nnodes} node(s)")
    if layout.nnodes <= 1:
        return []
    if backend == "ray":
        return [] if rank == 0 else None
    if layout.data_parallel_size <= 1:
        args = ["--nnodes", str(layout.nnodes), "--node-rank", str(rank), "--master-addr", head_address,
                "--master-port", str(master_port)]
        return [*args, "--headless"] if rank else args
    local = layout.data_parallel_size_local
    if local < 1 or local * layout.nnodes != layout.data_parallel_size:
        raise KimiDeployError(
            f"data_parallel_size {layout.data_parallel_size} over {layout.nnodes} nodes with "
            f"data_parallel_size_local {local}: a data-parallel rank spanning nodes (TP x PP larger than a node) "
            "is not supported by the per-node launcher; use TP x PP across the nodes (no DP), or DP with whole "
            "ranks on every node")
    args = ["--data-parallel-size-local", str(local), "--data-parallel-address", head_address,
            "--data-parallel-rpc-port", str(dp_rpc_port)]
    if rank:
        args += ["--data-parallel-start-rank", str(rank * local), "--headless"]
    return args


def ray_start_args(*, rank: int, head_address: str, node_ip: str, port: int = RAY_GCS_PORT,
                   num_cpus: int | None = None, num_gpus: int | None = None,
                   object_store_bytes: int | None = None, temp_dir: str = "") -> list[str]:
    """``ray start`` arguments of node ``rank`` (the unit adds ``--block``)."""
    if rank == 0:
        args = ["--head", "--port", str(port), "--node-ip-address", node_ip, "--include-dashboard", "false",
                "--disable-usage-stats"]
    else:
        args = ["--address", f"{_host_port(head_address, port)}", "--node-ip-address", node_ip,
                "--disable-usage-stats"]
    if num_cpus is not None:
        args += ["--num-cpus", str(num_cpus)]
    if num_gpus is not None:
        args += ["--num-gpus", str(num_gpus)]
    if object_store_bytes:
        args += ["--object-store-memory", str(object_store_bytes)]
    if temp_dir:
        args += ["--temp-dir", temp_dir]
    return args


def _host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


# --------------------------------------------------------------------------------------------
# node.env


def node_env(*, rank: int, nnodes: int, head_address: str, network: NodeNetwork,
             vllm_args: list[str] | None, ray_args: list[str] | None = None, ray_port: int = RAY_GCS_PORT,
             extra: Mapping[str, Any] | None = None) -> dict[str, str]:
    """The environment of one node: its place in the replica, its network, its launcher flags.

    ``extra`` (``kimi_multinode_node_env``) comes last, so an operator can override any of it,
    e.g. ``NCCL_SOCKET_IFNAME`` on hosts with bonded interfaces, or add ``NCCL_IB_HCA``.
    """
    env = {
        "KIMI_NODE_RANK": str(rank),
        "KIMI_NNODES": str(nnodes),
        "KIMI_HEAD_ADDRESS": head_address,
        "VLLM_HOST_IP": network.host_ip,
        "NCCL_SOCKET_IFNAME": network.interface,
        "GLOO_SOCKET_IFNAME": network.interface,
    }
    if vllm_args is not None:
        env["KIMI_NODE_ARGS"] = " ".join(vllm_args)
    if ray_args is not None:
        env["KIMI_RAY_ARGS"] = " ".join(ray_args)
        env["RAY_ADDRESS"] = _host_port(head_address, ray_port)
    for name, value in (extra or {}).items():
        env[str(name)] = str(value)
    for name, value in env.items():
        if not _ENV_NAME.match(name):
            raise KimiDeployError(f"{name!r} is not an environment variable name; fix kimi_multinode_node_env")
        if any(ord(c) < 32 for c in value):
            raise KimiDeployError(f"{name} holds a control character; environment values are one line")
        if name in ("KIMI_NODE_ARGS", "KIMI_RAY_ARGS") and any(c in value for c in "*?[$`\\\"'"):
            raise KimiDeployError(f"{name}={value!r}: the launcher splits it on spaces; quotes, globs and $ are "
                                  "not allowed there")
    return env


def render_env_file(env: Mapping[str, str], header: Sequence[str] = ()) -> str:
    """A systemd ``EnvironmentFile``: one ``NAME="value"`` per line, double-quoted with JSON escapes."""
    import json

    lines = [f"# {line}" for line in header]
    lines += [f"{name}={json.dumps(str(value))}" for name, value in env.items()]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# The Ray cluster a replica needs


def ray_cluster_problems(nodes: Sequence[Mapping[str, Any]], *, expected_nodes: int, expected_gpus: int,
                         expected_cpus: float | None = None, expected_ips: Sequence[str] = ()) -> list[str]:
    """What is wrong with the cluster ``ray.nodes()`` describes, against the plan (empty when ready).

    The placement group vLLM creates needs exactly the planned GPUs; a node that joined with
    another address than the one vLLM will use (``VLLM_HOST_IP``) breaks it (vLLM #7815, #14186).
    """
    alive = [n for n in nodes if n.get("Alive", n.get("alive", False))]
    ips = [str(n.get("NodeManagerAddress", "")) for n in alive]
    gpus = sum(float((n.get("Resources") or {}).get("GPU", 0)) for n in alive)
    cpus = sum(float((n.get("Resources") or {}).get("CPU", 0)) for n in alive)
    problems = []
    if len(alive) != expected_nodes:
        missing = [ip for ip in expected_ips if ip not in ips]
        extra = [ip for ip in ips if expected_ips and ip not in expected_ips]
        problems.append(f"{len(alive)} of {expected_nodes} Ray nodes are alive"
                        + (f"; missing {', '.join(missing)}" if missing else "")
                        + (f"; not of this replica: {', '.join(extra)}" if extra else ""))
    elif expected_ips and sorted(ips) != sorted(expected_ips):
        problems.append(f"Ray nodes joined as {', '.join(sorted(ips))} but the replica's nodes are "
                        f"{', '.join(sorted(expected_ips))} (VLLM_HOST_IP); fix kimi_multinode_network_interface or "
                        "the head address")
    if round(gpus) != expected_gpus:
        problems.append(f"the cluster has {gpus:g} GPUs, the plan needs {expected_gpus} "
                        "(a node that lost a GPU, or CUDA_VISIBLE_DEVICES hiding some)")
    if expected_cpus is not None and abs(cpus - expected_cpus) > 1e-6:
        problems.append(f"the cluster has {cpus:g} CPUs, {expected_cpus:g} expected")
    return problems
