#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_node_env
short_description: Write this node's place in a multi-node replica (node.env), with its network found on the node
description:
  - Renders C(<root>/shared/node.env), the one file of a multi-node replica that differs between its nodes, so the
    release (launcher and vllm.env) is the same, with the same id, on every node.
  - C(KIMI_NODE_ARGS) holds the vLLM flags of this node (C(--nnodes), C(--node-rank), C(--master-addr),
    C(--master-port), C(--headless), or the C(--data-parallel-*) address and start rank), rendered from the layout
    of the release C(current) points at, so a rollback to a release of another layout brings its own flags.
  - The network is read on the node itself, never copied between hosts - the interface that routes to the head
    (C(ip route get)) becomes C(NCCL_SOCKET_IFNAME) and C(GLOO_SOCKET_IFNAME), its address C(VLLM_HOST_IP). On the
    head, the interface holding the head address.
  - For the Ray backend, C(KIMI_RAY_ARGS) (the C(ray start) arguments of this node) and C(RAY_ADDRESS).
  - O(state=query) computes and checks all of it and writes nothing (preflight, and the plan's dry render).
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  root:
    description: Deploy root; the layout and arguments come from C(<root>/current/release.json), unless O(layout).
    type: path
    required: true
  path:
    description: The file to write. Default C(<root>/shared/node.env).
    type: path
  state:
    description: C(present) writes the file; C(query) only computes and checks.
    type: str
    choices: [present, query]
    default: present
  replica:
    description: Name of the replica (for the file's header).
    type: str
    default: ""
  rank:
    description: This node's rank in the replica (0 is the head).
    type: int
    required: true
  nnodes:
    description: Nodes in the replica (the inventory's count; the release must have been planned for as many).
    type: int
    required: true
  head_address:
    description: Address of the head as the other nodes reach it (an IP, or a name this node resolves).
    type: str
    required: true
  interface:
    description: Force C(NCCL_SOCKET_IFNAME)/C(GLOO_SOCKET_IFNAME) to this interface instead of the route's.
    type: str
    default: ""
  for_release:
    description:
      - Render the vLLM flags of the release C(current) points at (C(KIMI_NODE_ARGS)). False for a file that only
        needs the node's network and Ray arguments (C(ray.env)).
    type: bool
    default: true
  backend:
    description: C(mp) or C(ray). Default is what the release's own arguments select.
    type: str
    choices: [mp, ray]
  layout:
    description: A plan's C(layout), to render for it instead of the current release's (plan time, checks).
    type: dict
  serve_args:
    description: A plan's C(serve_args), checked for flags that belong in node.env; with O(layout).
    type: list
    elements: str
  master_port:
    description: C(--master-port) (mp without DP).
    type: int
    default: 29501
  dp_rpc_port:
    description: C(--data-parallel-rpc-port) (DP across nodes).
    type: int
    default: 13345
  ray:
    description: Ray settings, used with the C(ray) backend - C(port), C(num_cpus), C(num_gpus), C(object_store_bytes),
      C(temp_dir) (unset values are Ray's own defaults).
    type: dict
    default: {}
  extra_env:
    description: Environment added last (operator overrides).
    type: dict
    default: {}
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_DIFF
"""

EXAMPLES = r"""
- name: Write this node's place in the replica
  kimi_node_env:
    root: /opt/kimi
    replica: k3_h200_a
    rank: 1
    nnodes: 2
    head_address: 10.0.20.11
"""

RETURN = r"""
path:
  description: The node.env file.
  returned: always
  type: str
env:
  description: What the file holds (name to value).
  returned: always
  type: dict
interface:
  description: The interface NCCL and Gloo use.
  returned: always
  type: str
  sample: eth0
host_ip:
  description: This node's address on the route to the head (C(VLLM_HOST_IP)).
  returned: always
  type: str
head_ip:
  description: The head address, resolved on this node.
  returned: always
  type: str
network_source:
  description: How the interface was found.
  returned: always
  type: str
backend:
  description: The backend the release (or O(backend)) selects.
  returned: always
  type: str
runs_vllm:
  description: Whether vLLM runs on this node (false on Ray workers).
  returned: always
  type: bool
vllm_args:
  description: The per-node vLLM flags (empty on a single-node release, the head of a Ray replica).
  returned: always
  type: list
  elements: str
ray_args:
  description: The C(ray start) arguments of this node, with the Ray backend.
  returned: when the backend is ray
  type: list
  elements: str
planned_gpus:
  description: GPUs the release's plan runs on in all (0 on the CPU build, or without a release).
  returned: always
  type: int
release_id:
  description: The release the flags were rendered for (none with O(layout)).
  returned: always
  type: str
"""

import ipaddress
import os
import socket
import tempfile
from pathlib import Path

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.multinode import (
    Layout,
    backend_of,
    check_serve_args,
    node_env,
    node_network,
    planned_gpus,
    ray_start_args,
    render_env_file,
    vllm_node_args,
)
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.releases import load_release, read_current


def _positive(value):
    """A count from Ansible (int, numeric string, None, 0): None unless it is positive."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if number > 0 else None


def _resolve(address):
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(address, None, proto=socket.IPPROTO_TCP)
    except OSError as err:
        raise KimiDeployError(f"this node cannot resolve the head address {address!r} ({err}); set "
                              "kimi_multinode_head_address to an IP the nodes reach each other at") from err
    return infos[0][4][0]


def _network(module, head_ip, interface):
    ip = module.get_bin_path("ip", required=True)
    rc, route, err = module.run_command([ip, "route", "get", head_ip])
    if rc != 0:
        raise KimiDeployError(f"no route from this node to the head {head_ip}: {err.strip() or route.strip()}")
    addrs = ""
    if route.lstrip().startswith("local"):
        rc, addrs, err = module.run_command([ip, "-o", "addr", "show"])
        if rc != 0:
            raise KimiDeployError(f"`ip -o addr show` failed: {err.strip()}")
    return node_network(head_ip, route, addrs, interface)


def _release_plan(root):
    rid = read_current(root)
    if rid is None:
        return None, None
    return rid, (load_release(root, rid).meta.get("inputs") or {}).get("plan") or {}


def _vllm_args(p, plan, release_id, head_ip, backend):
    """This node's vLLM flags from the plan, which must be laid out over this replica's node count."""
    check_serve_args(plan.get("serve_args") or [])
    layout = Layout.from_dict(plan.get("layout") or {})
    if layout.nnodes != p["nnodes"]:
        where = f"release {release_id}" if release_id else "the plan"
        raise KimiDeployError(f"{where} is laid out over {layout.nnodes} node(s) but this replica has "
                              f"{p['nnodes']}; deploy a release planned for this replica, or roll back with "
                              "-e kimi_rollback_to=<a release of this replica>")
    return vllm_node_args(layout, rank=p["rank"], head_address=head_ip, backend=backend,
                          master_port=p["master_port"], dp_rpc_port=p["dp_rpc_port"])


def run(module):
    p = module.params
    root = Path(p["root"])
    path = Path(p["path"] or root / "shared" / "node.env")
    if not 0 <= p["rank"] < p["nnodes"]:
        raise KimiDeployError(f"rank {p['rank']} is outside a replica of {p['nnodes']} nodes")
    head_ip = _resolve(p["head_address"])
    network = _network(module, head_ip, p["interface"])

    release_id = ""
    plan = None
    if p["layout"] is not None:
        plan = {"layout": p["layout"], "serve_args": p["serve_args"] or []}
    elif p["for_release"] and root.exists():
        release_id, plan = _release_plan(root)
    backend = p["backend"] or backend_of(plan or {})

    vllm_args = None if plan is None else _vllm_args(p, plan, release_id, head_ip, backend)
    ray_args = None
    ray = p["ray"] or {}
    if backend == "ray":
        ray_args = ray_start_args(rank=p["rank"], head_address=head_ip, node_ip=network.host_ip,
                                  port=_positive(ray.get("port")) or 6379,
                                  num_cpus=_positive(ray.get("num_cpus")), num_gpus=_positive(ray.get("num_gpus")),
                                  object_store_bytes=_positive(ray.get("object_store_bytes")),
                                  temp_dir=str(ray.get("temp_dir") or ""))
    env = node_env(rank=p["rank"], nnodes=p["nnodes"], head_address=head_ip, network=network,
                   vllm_args=vllm_args, ray_args=ray_args, ray_port=_positive(ray.get("port")) or 6379,
                   extra=p["extra_env"])
    role = "head (rank 0, API server)" if p["rank"] == 0 else f"worker (rank {p['rank']})"
    header = [
        f"kimi-deploy: this node's place in replica {p['replica'] or '?'} - {role} of {p['nnodes']} nodes.",
        "Read by the vLLM (and Ray) units after the release's vllm.env; not part of any release, so the",
        "release is the same on every node. Network: " + network.source + ".",
    ]
    if release_id:
        header.append(f"Flags rendered for release {release_id} ({backend} backend).")
    content = render_env_file(env, header)

    result = {
        "changed": False, "path": str(path), "env": env, "interface": network.interface, "host_ip": network.host_ip,
        "head_ip": head_ip, "network_source": network.source, "backend": backend,
        "runs_vllm": vllm_args is not None, "vllm_args": vllm_args or [], "release_id": release_id,
        "planned_gpus": planned_gpus(plan or {}),
    }
    if ray_args is not None:
        result["ray_args"] = ray_args
    if p["state"] == "query":
        return result
    before = path.read_text(encoding="utf-8") if path.is_file() else ""
    if before != content:
        result["changed"] = True
        if module._diff:
            result["diff"] = {"before": before, "after": content, "before_header": str(path), "after_header": str(path)}
        if not module.check_mode:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".node.env.")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(content)
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
    return result


def main():
    module = AnsibleModule(
        argument_spec=dict(
            root=dict(type="path", required=True),
            path=dict(type="path"),
            state=dict(type="str", default="present", choices=["present", "query"]),
            replica=dict(type="str", default=""),
            rank=dict(type="int", required=True),
            nnodes=dict(type="int", required=True),
            head_address=dict(type="str", required=True),
            interface=dict(type="str", default=""),
            for_release=dict(type="bool", default=True),
            backend=dict(type="str", choices=["mp", "ray"]),
            layout=dict(type="dict"),
            serve_args=dict(type="list", elements="str"),
            master_port=dict(type="int", default=29501),
            dp_rpc_port=dict(type="int", default=13345),
            ray=dict(type="dict", default={}),
            extra_env=dict(type="dict", default={}),
        ),
        required_by={"serve_args": ["layout"]},
        supports_check_mode=True,
    )
    try:
        module.exit_json(**run(module))
    except KimiDeployError as err:
        module.fail_json(msg=str(err))


if __name__ == "__main__":
    main()
