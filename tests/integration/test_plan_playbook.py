"""plan.yml on the example fleets, with their GPUs injected (no GPU here): read-only, right layouts."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
H200 = [{"name": "NVIDIA H200", "memory_total_mib": 143771, "count": 8}]
B300 = [{"name": "NVIDIA B300 SXM6 AC", "memory_total_mib": 275040, "count": 8}]


def plan(inventory: str, gpus: list, *extra: str) -> str:
    cmd = ["ansible-playbook", "plan.yml", "-i", f"inventories/{inventory}", "-l", "gpu_nodes",
           "-e", "ansible_connection=local", "-e", f"ansible_python_interpreter={sys.executable}",
           "-e", "ansible_become=false", "-e", json.dumps({"kimi_gpus_override": gpus}), *extra]
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}", "ANSIBLE_NOCOLOR": "1"}
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, env=env, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "changed=0" in proc.stdout and "changed=1" not in proc.stdout
    return " ".join(proc.stdout.split())  # the YAML callback wraps long lines


def test_h200_pair_is_one_replica_at_tp8_pp2():
    out = plan("example-h200-2x8", H200)
    assert "moonshotai/Kimi-K3: fits; 2 nodes x 8, TP8 x PP2" in out
    assert "--pipeline-parallel-size 2" in out and "--moe-backend marlin" in out
    assert out.count("Kimi-K3: fits") == 1 and "skipping: [h200-a-2]" in out


def test_one_h200_node_is_refused_with_the_layout_that_fits():
    out = plan("example-h200-2x8", H200, "--limit", "h200-a-1", "-e", "kimi_replica_group=")
    assert "REFUSED" in out and "Smallest layout that fits: 2 nodes x 8, TP8 x PP2" in out


@pytest.mark.parametrize("concurrency", [16])
def test_b300_node_fits_at_tp8(concurrency):
    out = plan("example-b300-8", B300, "-e", f"kimi_concurrency={concurrency}")
    assert "moonshotai/Kimi-K3: fits; 1 node x 8, TP8" in out and "max_num_seqs 16" in out
