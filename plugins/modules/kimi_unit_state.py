#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_unit_state
short_description: Read the state of systemd units (load and active state, run, restarts, main process)
description:
  - Reads each unit's C(LoadState), C(ActiveState), C(SubState), C(InvocationID), C(NRestarts),
    C(MainPID) and C(NeedDaemonReload) with C(systemctl show).
  - A unit systemd does not know is no error; its O(units) entry says C(load_state=not-found).
  - Read-only; runs in check mode. What to do with the state is decided elsewhere (for a multi-node
    replica's start, by the filter P(kimi.deploy.kimi_replica_start#filter)).
version_added: "0.5.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  units:
    description: The units to read, with their suffix (C(kimi-vllm.service)).
    type: list
    elements: str
    required: true
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_NO_DIFF
"""

EXAMPLES = r"""
- name: Read the vLLM and Ray units of this node
  kimi.deploy.kimi_unit_state:
    units: [kimi-vllm.service, kimi-ray.service]
  register: units

- name: Say which run of vLLM is current
  ansible.builtin.debug:
    msg: "{{ units.units['kimi-vllm.service'].invocation_id }}"
"""

RETURN = r"""
units:
  description: Each unit's state, by unit name.
  returned: always
  type: dict
  sample:
    kimi-vllm.service:
      load_state: loaded
      active_state: active
      sub_state: running
      invocation_id: 0f6c2d5e4b6b4a1e9c1f3a2b7d8e9f00
      n_restarts: 0
      main_pid: 4242
      need_daemon_reload: false
  contains:
    load_state:
      description: C(LoadState) (C(not-found) for a unit systemd does not know).
      type: str
    active_state:
      description: C(ActiveState) (active, activating, inactive, failed, ...).
      type: str
    sub_state:
      description: C(SubState) (running, start-post, auto-restart, dead, ...).
      type: str
    invocation_id:
      description: C(InvocationID) of the unit's current or last run ("" when it never ran).
      type: str
    n_restarts:
      description: C(NRestarts), systemd's automatic restarts since the unit was last started by hand.
      type: int
    main_pid:
      description: C(MainPID) (0 when no main process runs).
      type: int
    need_daemon_reload:
      description: The unit file on disk is newer than systemd's copy.
      type: bool
"""

from dataclasses import asdict

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.service_state import (
    UNIT_STATE_PROPERTIES,
    UnitState,
)
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.systemd_unit import show_unit


def main():
    module = AnsibleModule(
        argument_spec=dict(units=dict(type="list", elements="str", required=True)),
        supports_check_mode=True,
    )
    try:
        units = {unit: asdict(UnitState.from_properties(show_unit(module.run_command, unit, UNIT_STATE_PROPERTIES)))
                 for unit in module.params["units"]}
    except KimiDeployError as err:
        module.fail_json(msg=str(err))
    module.exit_json(changed=False, units=units)


if __name__ == "__main__":
    main()
