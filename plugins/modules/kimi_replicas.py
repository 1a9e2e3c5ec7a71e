#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_replicas
short_description: Group the hosts of a play into replicas and rolling batches of whole replicas
description:
  - A replica is the inventory group a host names in C(kimi_replica_group) (its first host is the head, rank 0),
    or the host alone when that is empty.
  - Returns the replicas in the play's order, each with its hosts head first, and the rolling batches of
    O(serial) replicas each, so that a playbook can run one batch at a time and never split a replica.
  - Refuses a play that holds only part of a replica (a C(--limit) that cuts one), a host whose group does not
    list it, and a host claimed by two replicas, saying what to change.
  - Pure computation on inventory data; run it on the controller. Changes nothing.
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  hosts:
    description: The play's hosts, in play order (C(ansible_play_hosts_all)).
    type: list
    elements: str
    required: true
  replica_group_of:
    description: Each host's C(kimi_replica_group) (empty for a single-node replica). Hosts not listed have none.
    type: dict
    default: {}
  groups:
    description: The inventory's C(groups).
    type: dict
    required: true
  serial:
    description: Replicas per rolling batch, a count or a percentage such as C(25%).
    type: raw
    default: 1
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_NO_DIFF
"""

EXAMPLES = r"""
- name: Order the replicas into rolling batches
  kimi_replicas:
    hosts: "{{ ansible_play_hosts_all }}"
    replica_group_of: "{{ dict(ansible_play_hosts_all | zip(ansible_play_hosts_all | map('extract', hostvars)
                          | map(attribute='kimi_replica_group', default=''))) }}"
    groups: "{{ groups }}"
    serial: "{{ kimi_serial | default(1) }}"
  delegate_to: localhost
  run_once: true
  register: rollout
"""

RETURN = r"""
replicas:
  description: The replicas, in play order, each C({name, hosts, head}).
  returned: always
  type: list
  elements: dict
  sample: [{name: k3_h200_a, hosts: [h200-a-1, h200-a-2], head: h200-a-1}]
batches:
  description: Replica names per rolling batch.
  returned: always
  type: list
  elements: list
batch_hosts:
  description: Hosts per rolling batch, each replica head first.
  returned: always
  type: list
  elements: list
placement:
  description: Per host, C({replica, rank, head, nnodes, batch}).
  returned: always
  type: dict
order:
  description: Every host in rollout order (batch by batch, each replica head first), with its placement.
  returned: always
  type: list
  elements: dict
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.multinode import plan_rollout


def main():
    module = AnsibleModule(
        argument_spec=dict(
            hosts=dict(type="list", elements="str", required=True),
            replica_group_of=dict(type="dict", default={}),
            groups=dict(type="dict", required=True),
            serial=dict(type="raw", default=1),
        ),
        supports_check_mode=True,
    )
    p = module.params
    try:
        rollout = plan_rollout(p["hosts"], {k: str(v or "") for k, v in p["replica_group_of"].items()},
                               {k: list(v or []) for k, v in p["groups"].items()}, p["serial"])
    except KimiDeployError as err:
        module.fail_json(msg=str(err))
    module.exit_json(changed=False, **rollout.as_dict())


if __name__ == "__main__":
    main()
