"""The start of a multi-node replica, decided from every node's report (kimi_deploy core.replica_start)."""

from __future__ import annotations

DOCUMENTATION = r"""
---
name: kimi_replica_start
short_description: Whether a multi-node replica restarts as a whole, and each node's start with its reasons
version_added: "0.5.0"
author: kimi-deploy contributors (!UNKNOWN)
description:
  - Input maps every host of the replica to its report (an empty one for a host that did not report,
    which counts as asking for a restart).
  - A node asks for the replica's restart when a restart is required, its node.env changed, it runs vLLM
    and its vLLM unit is not active, or (Ray backend) its Ray unit is not active or its Ray environment,
    token or unit changed. Any node asking restarts every node.
options:
  _input:
    description:
      - Host name to report, C({runs_vllm, backend, restart_required, node_env_changed, ray_changed, vllm, ray}),
        where C(vllm) and C(ray) are units as M(kimi.deploy.kimi_unit_state) returns them.
    type: dict
    required: true
"""

EXAMPLES = r"""
- name: Decide for the whole replica
  ansible.builtin.set_fact:
    replica_start: >-
      {{ dict(kimi_replica_hosts | zip(kimi_replica_hosts | map('extract', hostvars)
              | map(attribute='node_report', default={}))) | kimi.deploy.kimi_replica_start }}
"""

RETURN = r"""
_value:
  description:
    - C(restart) (bool), C(reasons) (every node's reasons, each prefixed with its host name) and C(nodes),
      by host, C({action, reasons, previous_invocation, leave_ray}).
    - C(action) is C(restart), C(start) (nothing of the node runs) or C(nothing).
  type: dict
"""

from ansible.errors import AnsibleFilterError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.replica_start import replica_start


def kimi_replica_start(reports: dict) -> dict:
    try:
        return replica_start(reports).as_dict()
    except (KimiDeployError, KeyError) as err:
        raise AnsibleFilterError(f"kimi_replica_start: {err}") from err


class FilterModule:
    def filters(self):
        return {"kimi_replica_start": kimi_replica_start}
