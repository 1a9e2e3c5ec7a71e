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
# kimi_tune_row formats one tune.yml result as a table line (formatting only).


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


def kimi_tune_row(result: dict) -> str:
    """One line of tune.yml's summary table."""

    def num(key: str, digits: int = 1) -> str:
        value = result.get(key)
        return f"{value:.{digits}f}" if isinstance(value, (int, float)) and not isinstance(value, bool) else "-"

    return " | ".join([
        str(result.get("setting", "?")), str(result.get("max_num_seqs", "-")), str(result.get("kv_tokens", "-")),
        num("req_per_s", 2), num("out_tok_per_s"), f"{num('ttft_p50_ms')}/{num('ttft_p95_ms')}", num("itl_p50_ms", 2),
        str(result.get("errors", "-")), "yes" if result.get("passed") else "NO",
    ])


class FilterModule:
    def filters(self):
        return {"kimi_plan_node": kimi_plan_node, "kimi_tune_row": kimi_tune_row}
