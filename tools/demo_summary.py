#!/usr/bin/env python
"""What the demo's deploy just did, in a few lines: the plan's memory ledger, the acceptance verdict with
its headline figures, the release serving now and the one before it.

Reads the host's ``release.json`` (the release ``current`` points at) and the controller's ``ledger.jsonl``
(the latest row of that release). scripts/demo.sh prints it at the end of the demo and on
``scripts/demo.sh summary``:

    demo_summary.py --ledger /var/cache/kimi-deploy/demo/ledger/ledger.jsonl --release-json FILE
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plugins" / "module_utils"))
from kimi_deploy.core.releases import read_release_doc


def size(n: Any) -> str:
    """Bytes in the unit that keeps a tiny model and K3 readable alike."""
    if not isinstance(n, (int, float)):
        return "?"
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if abs(n) >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n:.0f} B"


def number(value: Any, unit: str = "") -> str:
    if not isinstance(value, (int, float)):
        return "?"
    return f"{value:,.0f}{unit}"


def memory_lines(plan: dict[str, Any], row: dict[str, Any] | None) -> list[str]:
    """The plan's memory ledger in three lines: memory, KV cache, context and concurrency."""
    mem = plan.get("memory") or {}
    if plan.get("platform") == "cpu":
        first = (f"memory:   CPU host {size(mem.get('total_bytes'))}, "
                 f"room for vLLM {size(mem.get('host_room_bytes'))}; weights {size(mem.get('weights_bytes'))} "
                 f"-> KV space {size(mem.get('kv_budget_bytes'))} "
                 f"(--kv-cache-memory-bytes {mem.get('kv_budget_bytes')})")
    else:
        first = (f"memory:   per GPU {size(mem.get('total_bytes'))} x {plan.get('gpu_memory_utilization')} = "
                 f"{size(mem.get('requested_bytes'))}; weights {size(mem.get('weights_bytes'))}, activations "
                 f"{size(mem.get('activation_reserve_bytes'))}, non-torch {size(mem.get('non_torch_reserve_bytes'))}, "
                 f"CUDA graphs {size(mem.get('cudagraph_reserve_bytes'))} -> KV {size(mem.get('kv_budget_bytes'))}")
    logged = (row or {}).get("kv_tokens_logged")
    kv = (f"KV:       {number(mem.get('kv_bytes_per_token'))} B/token ({plan.get('kv_cache_dtype')}), block "
          f"{plan.get('block_size')} -> {number(mem.get('num_blocks'))} blocks, "
          f"{number(plan.get('predicted_kv_tokens'))} tokens predicted")
    kv += f", {number(logged)} logged by vLLM" if logged is not None else ""
    context = (f"context:  max_model_len {plan.get('max_model_len')}, {mem.get('full_length_sequences')} full-length "
               f"sequences fit (target {plan.get('concurrency_target')}) -> max_num_seqs {plan.get('max_num_seqs')}")
    return [first, kv, context]


def acceptance_line(release: dict[str, Any], row: dict[str, Any] | None) -> str:
    verdict = release.get("acceptance")
    verdict = verdict.get("verdict") if isinstance(verdict, dict) else verdict
    if row is None:
        return f"acceptance: {verdict or 'no ledger row for this release'}"
    checks = list((row.get("checks") or {}).values())
    head = "passed" if row.get("accepted") else "FAILED (" + ", ".join(row.get("failed_checks") or []) + ")"
    return (f"acceptance: {head} at {row.get('time')}, {checks.count('passed')} checks "
            f"({checks.count('skipped')} skipped by the {row.get('profile')} profile); "
            f"{row.get('concurrency')} streams: {number(row.get('output_tokens_per_s'))} output tok/s, "
            f"TTFT p50 {number(row.get('ttft_p50_ms'), ' ms')}, "
            f"latency p95 {number(row.get('latency_p95_ms'), ' ms')}, {row.get('request_errors')} errors")


def summarize(release: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    rid = release.get("id", "?")
    mine = [r for r in rows if r.get("release_id") == rid]
    row = mine[-1] if mine else None
    plan = (read_release_doc(release).get("inputs") or {}).get("plan") or {}
    lines = [*memory_lines(plan, row), acceptance_line(release, row)]
    previous = (row or {}).get("previous_release_id") or "none (the first release on this host)"
    lines.append(f"release:  {rid} serving (created {release.get('created_at', '?')}); the one before: {previous}")
    return "\n".join("  " + line for line in lines)


def read_rows(path: Path) -> list[dict[str, Any]]:
    rows = []
    if path.is_file():
        for line in path.read_text().splitlines():
            if line.strip():
                rows.append(json.loads(line))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ledger", type=Path, required=True, help="the controller's ledger.jsonl")
    ap.add_argument("--release-json", type=Path, required=True, help="the host's current release.json")
    args = ap.parse_args(argv)
    text = args.release_json.read_text()
    if not text.strip():
        print("  no release on the demo host yet", file=sys.stderr)
        return 1
    print(summarize(json.loads(text), read_rows(args.ledger)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
