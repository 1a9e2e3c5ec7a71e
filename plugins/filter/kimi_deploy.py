"""Formatting-only filters for the kimi-deploy playbooks (no sizing happens here)."""

from __future__ import annotations

DOCUMENTATION = r"""
---
name: kimi_plan_node
short_description: The planner's node record from one host's gathered facts
description:
  - Turns a host's C(hostvars) entry (after kimi_gpu_facts) into the planner's node record,
    C({name, gpus, memory_total_mib, cpu_count, cpu_flags}).
options:
  _input:
    description: A host's hostvars.
    type: dict
    required: true
"""


def kimi_plan_node(hostvars: dict) -> dict:
    missing = [k for k in ("kimi_gpus", "kimi_host_memory_total_mib") if k not in hostvars]
    if missing:
        raise ValueError(f"{hostvars.get('inventory_hostname')}: no {', '.join(missing)}; gather GPU facts "
                         "on every host of the replica first (kimi_preflight)")
    return {
        "name": hostvars["inventory_hostname"],
        "gpus": hostvars["kimi_gpus"],
        "memory_total_mib": hostvars["kimi_host_memory_total_mib"],
        "cpu_count": hostvars.get("kimi_host_cpu_count"),
        "cpu_flags": hostvars.get("kimi_host_cpu_flags") or [],
    }


class FilterModule:
    def filters(self):
        return {"kimi_plan_node": kimi_plan_node}
