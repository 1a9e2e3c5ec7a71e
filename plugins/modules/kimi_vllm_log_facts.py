#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Ansible module: read vLLM's figures from the unit's journal on the host and return only the figures."""

from __future__ import annotations

DOCUMENTATION = r"""
---
module: kimi_vllm_log_facts
short_description: Read what vLLM measured at start (memory items, KV tokens) from the unit's journal, on the host
description:
  - Reads the journal of the unit's last start (its systemd invocation) on the host and returns only the figures
    vLLM logged about memory, through the project's one parser (C(kimi_deploy.core.vllm_log)), so thousands of journal
    lines never travel to the controller.
  - "Items: the requested memory (total x gpu_memory_utilization), weights, the activation, non-torch and CUDA-graph
    reserves, the KV budget, and the KV tokens. vLLM 0.32 logs them at INFO; a calibration start
    (C(VLLM_LOGGING_LEVEL=DEBUG)) adds the profile's own breakdown. The CUDA context and out-of-pool workspaces are
    never logged and are returned in C(facts.not_measured)."
  - Read-only.
version_added: "0.2.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  unit:
    description: The systemd unit (without C(.service)) whose last start is read. Ignored with O(text).
    type: str
  text:
    description: The log text to read instead of the journal (a captured log, a test).
    type: str
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_NO_DIFF
seealso:
  - module: kimi.deploy.kimi_ledger
"""

EXAMPLES = r"""
- name: Read what vLLM measured at its last start
  kimi_vllm_log_facts:
    unit: kimi-vllm
  register: kimi_log_facts
"""

RETURN = r"""
facts:
  description:
    - "C(items): bytes per item (C(requested_bytes), C(weights_bytes), C(activation_reserve_bytes),
      C(non_torch_reserve_bytes), C(cudagraph_reserve_bytes), C(kv_budget_bytes)); C(from): the line each was read
      from; C(not_measured): the items not in this log and why; C(profiling): C(measured), C(skipped) (vLLM was
      given the KV size, or applied its own startup plan) or C(none); C(kv_tokens), C(gpu_blocks), C(vllm_version),
      C(gpu_memory_utilization), C(total_bytes), C(cudagraph_actual_bytes), C(startup_plan), C(debug)."
  returned: always
  type: dict
  sample:
    items: {weights_bytes: 103594611180, activation_reserve_bytes: 5196910756, kv_budget_bytes: 25501368320}
    profiling: measured
    kv_tokens: 1612800
lines:
  description: How many journal lines were read on the host.
  returned: always
  type: int
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.vllm_log import memory_profile
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.systemd_unit import show_unit


def main():
    module = AnsibleModule(
        argument_spec=dict(unit=dict(type="str"), text=dict(type="str")),
        required_one_of=[("unit", "text")],
        supports_check_mode=True,
    )
    text = module.params["text"]
    if text is None:
        unit = module.params["unit"]
        try:
            invocation = show_unit(module.run_command, f"{unit}.service", ("InvocationID",)).get("InvocationID", "")
        except KimiDeployError:
            invocation = ""  # systemd could not be asked: no start to read, as for a unit that never ran
        text = ""
        if invocation:
            rc, text, err = module.run_command(["journalctl", "-o", "cat", "--no-pager",
                                                f"_SYSTEMD_INVOCATION_ID={invocation}"])
            if rc != 0:
                module.warn(f"journalctl could not read {unit}'s last start ({err.strip()}): no figures recorded")
                text = ""
    module.exit_json(changed=False, facts=memory_profile(text), lines=len(text.splitlines()))


if __name__ == "__main__":
    main()
