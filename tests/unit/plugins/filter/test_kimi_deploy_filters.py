"""The playbooks' formatting filters: a host's facts as the planner's node record, a tune.yml table row."""

from __future__ import annotations

import importlib.util

import pytest
from repo_paths import REPO

# Loaded from its file under its own name: as "kimi_deploy" it would shadow the library package.
_spec = importlib.util.spec_from_file_location("kimi_deploy_filters", REPO / "plugins" / "filter" / "kimi_deploy.py")
filters = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(filters)

GPU = {"index": 0, "name": "NVIDIA H200", "memory_total_mib": 143771}


def test_the_playbooks_find_both_filters_by_name():
    assert filters.FilterModule().filters() == {"kimi_plan_node": filters.kimi_plan_node,
                                                "kimi_tune_row": filters.kimi_tune_row}


def test_plan_node_takes_the_gathered_facts():
    hostvars = {"inventory_hostname": "gpu-1", "kimi_gpus": [GPU], "kimi_host_memory_total_mib": 2_000_000,
                "kimi_host_cpu_count": 96, "kimi_host_cpu_flags": ["avx512f"], "ansible_host": "10.0.0.1"}
    assert filters.kimi_plan_node(hostvars) == {"name": "gpu-1", "gpus": [GPU], "memory_total_mib": 2_000_000,
                                                "cpu_count": 96, "cpu_flags": ["avx512f"]}
    del hostvars["kimi_host_cpu_count"], hostvars["kimi_host_cpu_flags"]
    node = filters.kimi_plan_node(hostvars)
    assert node["cpu_count"] is None and node["cpu_flags"] == []


def test_plan_node_without_gpu_facts_names_the_host_and_the_fix():
    with pytest.raises(ValueError, match=r"gpu-2: no kimi_gpus, kimi_host_memory_total_mib; gather GPU facts"):
        filters.kimi_plan_node({"inventory_hostname": "gpu-2"})


def test_tune_row_formats_numbers_and_marks_what_is_missing():
    row = filters.kimi_tune_row({"setting": "max_num_seqs=64", "max_num_seqs": 64, "kv_tokens": 120000,
                                 "req_per_s": 3.14159, "out_tok_per_s": 812.25, "ttft_p50_ms": 41.04,
                                 "ttft_p95_ms": 90, "itl_p50_ms": 7.006, "errors": 0, "passed": True})
    assert row == "max_num_seqs=64 | 64 | 120000 | 3.14 | 812.2 | 41.0/90.0 | 7.01 | 0 | yes"
    # A bool is not a figure, and a failed row says so in capitals.
    assert filters.kimi_tune_row({"req_per_s": True, "passed": False}) == "? | - | - | - | - | -/- | - | - | NO"
