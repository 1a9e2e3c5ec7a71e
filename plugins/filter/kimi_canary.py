"""The canary's weight on the balancers for a share of the traffic (kimi_deploy core.canary)."""

from __future__ import annotations

DOCUMENTATION = r"""
---
name: kimi_canary_weight_pct
short_description: The canary's HAProxy weight, in percent of its configured one, for a share of the new requests
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
description:
  - Input is the share (0 to 1) of the traffic the canary should take beside O(other_replicas) at full weight,
    w / (w + n) = share; the answer is between 1 and 100.
  - Under leastconn the weight counts against the requests in flight, so the share holds under load; idle
    replicas take turns whatever their weights.
options:
  _input:
    description: The share, e.g. 0.1.
    type: float
    required: true
  other_replicas:
    description: How many other replicas take the rest at full weight.
    type: int
    required: true
"""

EXAMPLES = r"""
- name: A tenth of the traffic beside three other replicas (33)
  ansible.builtin.debug:
    msg: "{{ 0.1 | kimi.deploy.kimi_canary_weight_pct(3) }}"
"""

RETURN = r"""
_value:
  description: The weight in percent of the configured one (C(set weight <backend>/<server> N%)).
  type: int
"""

from ansible.errors import AnsibleFilterError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.canary import weight_pct
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError


def kimi_canary_weight_pct(share: float, other_replicas: int) -> int:
    try:
        return weight_pct(float(share), int(other_replicas))
    except (KimiDeployError, TypeError, ValueError) as err:
        raise AnsibleFilterError(f"kimi_canary_weight_pct: {err}") from err


class FilterModule:
    def filters(self):
        return {"kimi_canary_weight_pct": kimi_canary_weight_pct}
