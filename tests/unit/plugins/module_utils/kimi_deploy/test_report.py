"""HTML report: verdicts with the failing exchange (escaped), plots as real PNGs, comparison, no secrets."""

from __future__ import annotations

import base64
import re

import matplotlib
from kimi_deploy.core import ledger, report
from test_ledger import SECRET, _acceptance, _row

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _with_series(acceptance: dict) -> dict:
    load = acceptance["metrics"]["concurrency"]
    load["series"] = {
        "throughput": [{"t_s": float(t), "output_tokens_per_s": 600.0 + t, "requests_finished": 40} for t in range(10)],
        "memory": {"api_rss_bytes": [[t * 1.0, 6e8 + t * 1e5] for t in range(10)],
                   "kv_cache_usage": [[t * 1.0, 0.001] for t in range(10)],
                   "requests_running": [[t * 1.0, 4.0] for t in range(10)]},
    }
    load["samples"] = {"ttft_ms": [20.0 + i % 7 for i in range(200)],
                       "itl_ms": [3.5 + (i % 5) / 10 for i in range(900)],
                       "latency_ms": [80.0 + i % 11 for i in range(200)]}
    load["memory_growth"]["api_rss_bytes"] = {"judged": True, "passed": True, "growth_per_min": 0.001}
    acceptance["settings"] = {"warmup_fraction": 0.25}
    return acceptance


def _failed_acceptance() -> dict:
    acceptance = _with_series(_acceptance(passed=False))
    acceptance["checks"]["long_input_text"].update(
        group="long_input", detail="answered 400",
        request={"method": "POST", "path": "/v1/completions", "headers": "Authorization: Bearer <redacted>",
                 "body": '{"prompt": "the model <script>alert(1)</script>"}'},
        response={"status": 400, "body": '{"error": {"message": "too long & <b>bold</b>"}}', "elapsed_ms": 3.2})
    return acceptance


def _images(text: str) -> list[bytes]:
    return [base64.b64decode(m) for m in re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", text)]


def test_report_shows_the_failed_check_with_its_exchange_escaped(tmp_path):
    acceptance = _failed_acceptance()
    row = _row(acceptance=acceptance)
    previous = _row(release_id="r1")
    result = report.render_report(row, acceptance, tmp_path / "r.html",
                                  comparison=ledger.compare_rows(previous, row))
    text = (tmp_path / "r.html").read_text()
    assert result["report_path"] == str(tmp_path / "r.html")
    assert "rejected" in text and "Failed checks: long_input_text" in text
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "too long &amp; &lt;b&gt;bold&lt;/b&gt;" in text
    assert "HTTP 400" in text and "POST" in text and "/v1/completions" in text
    for spec_name in ("health", "over_limit_chat", "abnormal_emoji", "concurrency"):
        assert f"<td>{spec_name}</td>" in text
    assert "Previous release <code>r1</code>" in text
    assert SECRET not in text


def test_report_embeds_three_real_plots_with_agg(tmp_path):
    acceptance = _with_series(_acceptance())
    result = report.render_report(_row(acceptance=acceptance), acceptance, tmp_path / "r.html")
    images = _images((tmp_path / "r.html").read_text())
    assert result["plots"] == ["latency", "throughput", "memory"]
    assert len(images) == 3 and all(img.startswith(PNG_MAGIC) for img in images)
    assert matplotlib.get_backend().lower() == "agg"
    assert result["image_files"] == []


def test_report_can_write_pngs_beside_the_html(tmp_path):
    acceptance = _with_series(_acceptance())
    result = report.render_report(_row(acceptance=acceptance), acceptance, tmp_path / "deep" / "r.html",
                                  embed_images=False)
    assert len(result["image_files"]) == 3
    text = (tmp_path / "deep" / "r.html").read_text()
    assert "base64" not in text and "src='r-latency.png'" in text
    for path in result["image_files"]:
        with open(path, "rb") as fh:
            assert fh.read(8) == PNG_MAGIC


def test_report_without_matplotlib_or_without_a_load_run(tmp_path):
    acceptance = _with_series(_acceptance())

    def no_matplotlib():
        raise ImportError("No module named 'matplotlib'")

    result = report.render_report(_row(acceptance=acceptance), acceptance, tmp_path / "a.html",
                                  pyplot_loader=no_matplotlib)
    assert result["plots"] == [] and "matplotlib is not importable" in result["notes"][-1]
    assert "matplotlib is not importable" in (tmp_path / "a.html").read_text()
    never = _row(acceptance=None)
    result = report.render_report(never, None, tmp_path / "b.html")
    text = (tmp_path / "b.html").read_text()
    assert "Not run." in text and "acceptance_not_run" in text and result["plots"] == []
    assert "No earlier row for this host group" in text


def test_report_shows_kv_tokens_and_percentiles(tmp_path):
    acceptance = _with_series(_acceptance())
    report.render_report(_row(acceptance=acceptance), acceptance, tmp_path / "r.html")
    text = (tmp_path / "r.html").read_text()
    assert "<td>logged by vLLM (KV cache size line)</td><td>1,048,576</td>" in text
    assert "<td>predicted by the plan</td><td>1,000,000</td>" in text
    assert "<td>time to first token</td><td>20.1</td><td>95.2</td><td>138.9</td>" in text


def test_report_shows_memory_items_as_a_table_and_a_bar_chart_with_the_error(tmp_path):
    from kimi_deploy.core import vllm_log
    from test_ledger import _MEMORY_LOG, _PREDICTED

    facts = vllm_log.memory_profile(_MEMORY_LOG)
    calibrated = {**facts["items"], "non_torch_reserve_bytes": 2 * 1024**3 - 200 * 1024**2}
    row = _row(log_facts=facts, predicted_memory=_PREDICTED, acceptance=None,
               plan_calibration={"in_use": True, "measured": calibrated})
    result = report.render_report(row, None, tmp_path / "r.html", embed_images=False)
    assert result["plots"] == ["memory-items"]
    png = (tmp_path / "r-memory-items.png").read_bytes()
    assert png.startswith(PNG_MAGIC)
    html = (tmp_path / "r.html").read_text()
    assert "Memory per GPU: predicted vs measured" in html
    act = next(r for r in row["reserves"] if r["item"] == "activation_reserve_bytes")
    assert f"{act['error_pct']:+.2f} %" in html and "peak activation - estimated CUDA graph memory" in html
    assert "never logged" in html  # the CUDA context stays estimated, and says so
    assert "Drift from the calibration in use" in html and "non-torch" in html
