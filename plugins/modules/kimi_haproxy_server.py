#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_haproxy_server
short_description: Drain a replica out of the fleet balancer, or put it back, through HAProxy's runtime API
description:
  - Sets a server of an HAProxy backend to O(state) over the admin socket (C(set server <backend>/<server> state ...)),
    then reads the state back.
  - With O(state=drain) and O(wait=true), waits until the server holds no connection and no request is queued for it,
    so requests in flight (long streams included) finish before the replica is touched; fails after O(timeout_s).
  - With O(state=drain) or O(state=maint) and O(keep_one_serving=true), first waits up to O(peer_wait_s) until
    another server of the backend serves, so the drain never leaves clients without a replica; servers in
    O(leaving) (the rest of a rolling deploy's batch) count as gone. Draining a server that serves nothing, or
    the backend's only server, goes ahead. Fails before changing anything when no other server serves.
  - With O(weight_pct), also sets the server's weight to that percent of its configured weight
    (C(set weight <backend>/<server> N%)); a canary release takes a share of the traffic at a low weight, and
    100 gives it back its whole share.
  - Changes nothing when the server is already in O(state) at that weight.
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  socket:
    description: HAProxy's admin socket (C(stats socket ... level admin)).
    type: path
    default: /run/kimi-lb/admin.sock
  backend:
    description: The backend of the replicas.
    type: str
    default: kimi_replicas
  server:
    description: The replica's server name in that backend (its head's inventory name).
    type: str
    required: true
  state:
    description: drain (no new requests), ready (back in rotation) or maint (no traffic, no health checks).
    type: str
    choices: [drain, ready, maint]
    required: true
  weight_pct:
    description: The server's weight in percent of its configured weight (C(weight) in haproxy.cfg); unset leaves it.
    type: int
  wait:
    description: With O(state=drain) or O(state=maint), wait until the server is idle.
    type: bool
    default: true
  timeout_s:
    description: How long to wait for the requests in flight to finish.
    type: float
    default: 1800
  keep_one_serving:
    description: Before a drain or maint, wait for another server that serves (see above); false takes the outage.
    type: bool
    default: true
  peer_wait_s:
    description: How long to wait for another server to serve before failing (O(keep_one_serving)).
    type: float
    default: 600
  leaving:
    description: Other servers of the backend drained by the same run at the same time; they do not count as serving.
    type: list
    elements: str
    default: []
  poll_s:
    description: Seconds between two looks at the server's connections.
    type: float
    default: 2
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_NO_DIFF
"""

EXAMPLES = r"""
- name: Drain this replica on every balancer before the deploy touches it
  kimi_haproxy_server:
    server: "{{ inventory_hostname }}"
    state: drain
    timeout_s: 1800
  delegate_to: "{{ item }}"
  loop: "{{ groups['lb_nodes'] | default([]) }}"
"""

RETURN = r"""
previous:
  description: The server's admin state before the task (drain, ready or maint).
  returned: always
  type: str
waited_s:
  description: Seconds spent waiting for the requests in flight.
  returned: when waiting
  type: float
weight:
  description: The server's weight afterwards (with O(weight_pct)).
  returned: when weight_pct is set
  type: int
previous_weight:
  description: The server's weight before the task (with O(weight_pct)).
  returned: when weight_pct is set
  type: int
status:
  description: HAProxy's status column for the server afterwards (e.g. C(DRAIN), C(UP)).
  returned: always
  type: str
peers:
  description: The backend's other servers and their status column, as the drain found them (O(keep_one_serving)).
  returned: when a drain or maint looked for a serving peer
  type: dict
peer_waited_s:
  description: Seconds spent waiting for another server to serve before the drain.
  returned: when a drain or maint looked for a serving peer
  type: float
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.haproxy_runtime import (
    backend_stats,
    peers_left_serving,
    server_admin_state,
    server_stat,
    server_weight,
    set_server_state,
    set_server_weight,
    wait_for_serving_peer,
    wait_idle,
)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            socket=dict(type="path", default="/run/kimi-lb/admin.sock"),
            backend=dict(type="str", default="kimi_replicas"),
            server=dict(type="str", required=True),
            state=dict(type="str", required=True, choices=["drain", "ready", "maint"]),
            weight_pct=dict(type="int"),
            wait=dict(type="bool", default=True),
            timeout_s=dict(type="float", default=1800),
            keep_one_serving=dict(type="bool", default=True),
            peer_wait_s=dict(type="float", default=600),
            leaving=dict(type="list", elements="str", default=[]),
            poll_s=dict(type="float", default=2),
        ),
        supports_check_mode=True,
    )
    p = module.params
    try:
        previous = server_admin_state(p["socket"], p["backend"], p["server"])
        result = {"previous": previous, "changed": previous != p["state"]}
        if p["weight_pct"] is not None:
            if not 0 <= p["weight_pct"] <= 100:
                module.fail_json(msg=f"weight_pct={p['weight_pct']}: must be 0 to 100, in percent of the "
                                     "configured weight")
            current, configured = server_weight(p["socket"], p["backend"], p["server"])
            result["previous_weight"] = current
            result["changed"] = result["changed"] or current != configured * p["weight_pct"] // 100
        leaving = [name for name in p["leaving"] if name != p["server"]]
        # Only a server now in rotation: one already drained (a killed run's re-run) takes nothing away.
        guarded = p["keep_one_serving"] and p["state"] != "ready" and previous == "ready"
        if guarded and module.check_mode:
            found = peers_left_serving(backend_stats(p["socket"], p["backend"]), p["server"], leaving)
            result.update(peers=found["peers"], peer_waited_s=0.0)
            if not found["safe"]:
                module.warn(f"No other server of {p['backend']} serves now: the drain of {p['server']} would wait "
                            f"up to {p['peer_wait_s']:.0f}s for one, then fail")
        elif guarded:
            found = wait_for_serving_peer(p["socket"], p["backend"], p["server"], leaving, p["peer_wait_s"],
                                          p["poll_s"])
            result.update(peers=found["peers"], peer_waited_s=found["waited_s"])
        if module.check_mode:
            module.exit_json(status=previous, **result)
        if p["weight_pct"] is not None:
            set_server_weight(p["socket"], p["backend"], p["server"], p["weight_pct"])
            result["weight"] = server_weight(p["socket"], p["backend"], p["server"])[0]
        set_server_state(p["socket"], p["backend"], p["server"], p["state"])
        if p["wait"] and p["state"] != "ready":
            result["waited_s"] = wait_idle(p["socket"], p["backend"], p["server"], p["timeout_s"], p["poll_s"])
        result["status"] = server_stat(p["socket"], p["backend"], p["server"]).get("status", "")
    except KimiDeployError as err:
        module.fail_json(msg=str(err))
    module.exit_json(**result)


if __name__ == "__main__":
    main()
