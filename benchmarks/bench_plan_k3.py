#!/usr/bin/env python
"""Benchmark the sizing engine: plan Kimi-K3 for an inventory of 64 nodes x 8 GPUs.

Prints figures (not a timed test). The baseline, measured in the same run, is planning the same model
for one node of 8 x B300 (a single candidate fits); every other figure is also given as a ratio to it.

    .venv/bin/python benchmarks/bench_plan_k3.py [--repeat 5]

Cases:
  load                  config.json + tensor table (60 rows, 497,220 tensors) -> profile and weight inventory
  1 node  x 8 B300      the baseline: fits at TP8, first candidate
  64 nodes x 8 H200     fits at 2 nodes (TP8 x PP2); the search stops there
  64 nodes x 8 H100     fits at 4 nodes (TP8 x PP4)
  64 nodes x 8 H100, unreachable need
                        1,000,000 requests: planned as replicas of the 4-node layout and refused with the
                        numbers (the search stops at the replica's depth instead of trying 1..64 nodes)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "plugins" / "module_utils"))

from kimi_deploy.core.sizing import BusinessNeed, PlanOptions, load_model, plan_deployment

MODEL = REPO / "data" / "models" / "kimi-k3"
GPUS = {  # published nvidia-smi totals (tests/fixtures/nvml/README.md)
    "B300": ("NVIDIA B300 SXM6 AC", 275_040, "10.3"),
    "H200": ("NVIDIA H200", 143_771, "9.0"),
    "H100": ("NVIDIA H100 80GB HBM3", 81_559, "9.0"),
}
NEED = BusinessNeed.from_tokens(max_input_tokens=32_768, max_output_tokens=8_192, concurrency=16)


def inventory(count: int, gpu: str) -> list[dict]:
    name, mib, cc = GPUS[gpu]
    return [{"name": f"{gpu.lower()}-{i:02d}", "memory_total_mib": 2_064_000, "cpu_count": 224,
             "gpus": [{"index": g, "name": name, "memory_total_mib": mib, "compute_capability": cc}
                      for g in range(8)]} for i in range(count)]


def timed(fn, repeat: int) -> tuple[float, object]:
    samples, result = [], None
    for _unused in range(repeat):
        start = time.perf_counter()
        result = fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per case; the median is reported")
    args = parser.parse_args(argv)

    load_s, (profile, weights) = timed(lambda: load_model(model_config=str(MODEL / "config.json"),
                                                          tensor_table=str(MODEL / "tensor-table.json"),
                                                          name="Kimi-K3"), args.repeat)
    options = PlanOptions(vllm_version="0.32.0")
    cases = [
        ("1 node x 8 B300 (baseline)", inventory(1, "B300"), NEED),
        ("64 nodes x 8 H200", inventory(64, "H200"), NEED),
        ("64 nodes x 8 H100", inventory(64, "H100"), NEED),
        ("64 nodes x 8 H100, unreachable need", inventory(64, "H100"),
         BusinessNeed(max_model_len=NEED.max_model_len, concurrency=1_000_000)),
    ]
    rows = []
    for label, nodes, need in cases:
        seconds, plan = timed(lambda nodes=nodes, need=need: plan_deployment(profile, weights, nodes, need, options),
                              args.repeat)
        rows.append((label, seconds, plan))
    baseline = rows[0][1]

    print(f"Kimi-K3 sizing benchmark (median of {args.repeat}; python {sys.version.split()[0]})")
    print(f"  load profile + tensor table ({weights.tensor_count:,} tensors): {load_s * 1e3:8.1f} ms"
          f"  ({load_s / baseline:5.1f}x baseline)")
    for label, seconds, plan in rows:
        lay = plan["layout"]
        where = f"{lay['nnodes']}x{lay['gpus_per_node']} TP{lay['tensor_parallel_size']}" \
                f" PP{lay['pipeline_parallel_size']} DP{lay['data_parallel_size']}"
        per_layout = seconds / max(1, plan["layouts_evaluated"]) * 1e3
        print(f"  {label:<38} {seconds * 1e3:8.1f} ms  ({seconds / baseline:5.1f}x baseline)  "
              f"{plan['layouts_evaluated']:4d} layouts, {per_layout:5.2f} ms/layout -> "
              f"{'fits' if plan['fits'] else 'refused'} {where}, {plan['predicted_kv_tokens']:,} KV tokens")
    return 0


if __name__ == "__main__":
    sys.exit(main())
