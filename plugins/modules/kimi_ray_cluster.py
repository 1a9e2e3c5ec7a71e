#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_ray_cluster
short_description: Wait until a Ray cluster has exactly the nodes and GPUs a plan needs
description:
  - Connects to the Ray cluster at O(address) as a driver and polls C(ray.nodes()) until the alive nodes, their
    addresses and their GPUs (and CPUs, when O(expected_cpus) is set) equal what the plan needs, or O(timeout_s)
    passes; then fails naming what is missing (a node that did not join, one that joined with another address than
    C(VLLM_HOST_IP), GPUs that are not there).
  - Run it on the head with the Python of the venv whose C(ray) started the cluster (C(ansible_python_interpreter)),
    before C(vllm serve --distributed-executor-backend ray) creates its placement group.
  - Read-only.
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
requirements:
  - ray (in the Python that runs the module)
options:
  address:
    description: The cluster's GCS address, C(host:port).
    type: str
    required: true
  auth_token:
    description: The cluster's token (Ray token authentication); empty when the cluster runs without one.
    type: str
    default: ""
  expected_nodes:
    description: Alive nodes the cluster must have.
    type: int
    required: true
  expected_gpus:
    description: GPUs the cluster must have in all (the plan's world size; 0 on the CPU build).
    type: int
    required: true
  expected_cpus:
    description: CPUs the cluster must have in all; unchecked when unset.
    type: float
  expected_ips:
    description: Addresses the nodes must have joined with (each node's C(VLLM_HOST_IP)).
    type: list
    elements: str
    default: []
  timeout_s:
    description: How long to wait for the nodes to join.
    type: float
    default: 300
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_NO_DIFF
"""

EXAMPLES = r"""
- name: Check the Ray cluster before vLLM uses it
  kimi_ray_cluster:
    address: 10.0.20.11:6379
    auth_token: "{{ kimi_ray_auth_token }}"
    expected_nodes: 2
    expected_gpus: 16
    expected_ips: [10.0.20.11, 10.0.20.12]
  vars:
    ansible_python_interpreter: /opt/kimi/current/venv/bin/python
"""

RETURN = r"""
nodes:
  description: The alive nodes, each C({address, cpus, gpus}).
  returned: always
  type: list
  elements: dict
waited_s:
  description: Seconds until the cluster matched.
  returned: success
  type: float
"""

import logging
import os
import sys
import time

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.multinode import ray_cluster_problems


def _summary(nodes):
    return [{"address": n.get("NodeManagerAddress"), "cpus": (n.get("Resources") or {}).get("CPU", 0),
             "gpus": (n.get("Resources") or {}).get("GPU", 0)} for n in nodes if n.get("Alive")]


def main():
    module = AnsibleModule(
        argument_spec=dict(
            address=dict(type="str", required=True),
            auth_token=dict(type="str", default="", no_log=True),
            expected_nodes=dict(type="int", required=True),
            expected_gpus=dict(type="int", required=True),
            expected_cpus=dict(type="float"),
            expected_ips=dict(type="list", elements="str", default=[]),
            timeout_s=dict(type="float", default=300),
        ),
        supports_check_mode=True,
    )
    p = module.params
    if p["auth_token"]:
        os.environ["RAY_AUTH_MODE"] = "token"
        os.environ["RAY_AUTH_TOKEN"] = p["auth_token"]
    try:
        import ray
    except ImportError as err:
        module.fail_json(msg=f"ray is not importable by {sys.executable} ({err}); add ray to kimi_vllm_packages")
    started = time.monotonic()
    try:
        ray.init(address=p["address"], logging_level=logging.ERROR, log_to_driver=False)
    except Exception as err:  # ray raises ConnectionError, RuntimeError, AuthenticationError...
        module.fail_json(msg=f"cannot join the Ray cluster at {p['address']}: {err}. Is the head's kimi-ray unit "
                             "running, and the token the same on every node?")
    try:
        while True:
            nodes = ray.nodes()
            problems = ray_cluster_problems(nodes, expected_nodes=p["expected_nodes"],
                                            expected_gpus=p["expected_gpus"], expected_cpus=p["expected_cpus"],
                                            expected_ips=p["expected_ips"])
            waited = round(time.monotonic() - started, 1)
            if not problems:
                module.exit_json(changed=False, nodes=_summary(nodes), waited_s=waited)
            if waited >= p["timeout_s"]:
                module.fail_json(msg=f"the Ray cluster at {p['address']} does not match the plan after {waited:.0f} s: "
                                     + "; ".join(problems) + ". Read `journalctl -u kimi-ray` on the missing nodes.",
                                 nodes=_summary(nodes))
            time.sleep(2)
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
