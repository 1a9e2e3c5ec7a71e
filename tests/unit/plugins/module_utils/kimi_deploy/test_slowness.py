"""slowness(): one request slow against the same GPUs' baseline, or a collapse under concurrency."""

from __future__ import annotations

import kimi_vllm_slowness
from kimi_deploy.core.slowness import metrics_from_text, rows_from_jsonl, slowness
from module_harness import run_module


def _row(day, concurrency, ttft50, ttft95=None, itl50=10.0, errors=0, accepted=True, group="gpu_nodes", **params):
    return {"time": f"2026-11-{day:02d}T00:00:00Z", "host_group": group, "concurrency": concurrency,
            "ttft_p50_ms": ttft50, "ttft_p95_ms": ttft95 if ttft95 is not None else ttft50 * 1.3,
            "itl_p50_ms": itl50, "request_errors": errors, "accepted": accepted,
            "vllm_version": params.pop("vllm_version", "0.32.0"), "quantization": params.pop("quantization", None),
            "max_num_seqs": params.pop("max_num_seqs", 64), "launch_params": params}


BASELINE = [_row(10, 1, 80.0), _row(11, 1, 84.0), _row(12, 16, 120.0, ttft95=200.0)]


def test_no_rows_is_unknown():
    assert slowness([])["verdict"] == "unknown"


def test_a_single_request_slower_than_the_baseline_is_the_build_when_the_build_changed():
    answer = slowness([*BASELINE, _row(20, 1, 200.0, itl50=25.0, quantization="fp8")])
    assert answer["verdict"] == "machine_or_build"
    assert answer["next_variable"] == {"name": "quantization", "from": "fp8", "to": None}
    assert any("2.4x" in line or "2.5x" in line for line in answer["evidence"])


def test_a_single_request_slower_with_the_same_build_is_the_machine():
    answer = slowness([*BASELINE, _row(20, 1, 90.0, itl50=30.0)])
    assert answer["verdict"] == "machine_or_build" and answer["next_variable"]["name"] == "machine"
    assert "nvidia-smi" in answer["next_step"]


def test_rows_of_other_groups_are_not_the_baseline():
    other = [_row(10, 1, 400.0, group="h100"), _row(11, 1, 420.0, group="h100")]
    answer = slowness([*other, *BASELINE, _row(20, 1, 82.0)], host_group="gpu_nodes")
    assert answer["verdict"] == "not_slow"


def test_fine_alone_but_latency_collapses_with_a_full_kv_cache():
    rows = [*BASELINE, _row(20, 1, 82.0), _row(21, 64, 900.0, ttft95=4000.0, errors=3)]
    answer = slowness(rows, metrics={"kv_cache_usage_perc": 0.98, "num_preemptions": 57, "num_requests_waiting": 20})
    assert answer["verdict"] == "concurrency_or_memory"
    assert answer["next_variable"] == {"name": "max_num_seqs", "from": 64, "to": 32}
    assert answer["next_step"].startswith("Lower max_num_seqs from 64 to 32")


def test_requests_waiting_with_kv_room_raise_max_num_seqs():
    rows = [*BASELINE, _row(20, 1, 82.0), _row(21, 64, 300.0, ttft95=1500.0, max_num_seqs=16)]
    answer = slowness(rows, metrics={"kv_cache_usage_perc": 0.35, "num_requests_waiting": 48, "num_preemptions": 0})
    assert answer["verdict"] == "concurrency_or_memory"
    assert answer["next_variable"] == {"name": "max_num_seqs", "from": 16, "to": 32}


def test_latency_that_holds_under_load_is_not_slow():
    answer = slowness([*BASELINE, _row(20, 1, 82.0), _row(21, 16, 110.0, ttft95=190.0)],
                      metrics={"kv_cache_usage_perc": 0.4})
    assert answer["verdict"] == "not_slow" and answer["next_variable"] is None


def test_metrics_are_read_from_the_prometheus_page():
    page = "\n".join(["# HELP vllm:kv_cache_usage_perc KV-cache usage. 1 means 100 percent usage.",
                      'vllm:kv_cache_usage_perc{engine="0",model_name="k3"} 0.93',
                      'vllm:num_requests_waiting{engine="0",model_name="k3"} 5.0',
                      'vllm:num_preemptions_total{engine="0",model_name="k3"} 12.0'])
    assert metrics_from_text(page) == {"kv_cache_usage_perc": 0.93, "num_requests_waiting": 5.0,
                                       "num_preemptions": 12.0}
    assert metrics_from_text('vllm:gpu_cache_usage_perc{model_name="k3"} 0.5') == {"kv_cache_usage_perc": 0.5}


def test_ledger_jsonl_lines_are_rows():
    assert rows_from_jsonl(['{"a": 1}', "", "not json", "[1]"]) == [{"a": 1}]


def test_module_is_read_only_and_prints_one_line():
    rows = [*BASELINE, _row(20, 1, 82.0), _row(21, 64, 900.0, ttft95=4000.0, errors=3)]
    page = 'vllm:kv_cache_usage_perc{engine="0"} 0.97\nvllm:num_preemptions_total{engine="0"} 9'
    result = run_module(kimi_vllm_slowness, {"ledger_rows": rows, "metrics_text": page}, check_mode=True)
    assert result["changed"] is False and result["verdict"] == "concurrency_or_memory"
    assert result["line"].startswith("speed: concurrency or memory - One request is fine")
