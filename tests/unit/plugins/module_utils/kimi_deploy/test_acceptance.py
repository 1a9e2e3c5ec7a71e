"""Acceptance suite: catalogue and profiles, envelopes, exact-length prompts, statistics, verdicts,
and the httpx runner against an in-process fake of vLLM's HTTP answers (tests/unit/fake_vllm.py; the
real server is exercised in tests/integration/test_acceptance_live.py, the Ansible module in
tests/unit/plugins/modules/test_kimi_vllm_acceptance.py)."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import httpx
import numpy as np
import pytest
from fake_vllm import FakeVllm
from kimi_deploy.core import acceptance as acc
from kimi_deploy.core import acceptance_checks as judge
from kimi_deploy.core.acceptance_forms import FORM_CHECKS
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.io import acceptance_client as client
from kimi_deploy.io import acceptance_http, acceptance_load
from repo_paths import REPO

# The real vLLM 0.32 bodies, from shared/reference/vllm/cpu-build.md section 3 and the live CPU server.
NESTED_513 = ('{"error":{"message":"This model\'s maximum context length is 512 tokens. However, your prompt '
              'contains at least 513 input tokens, which exceeds this limit even without any output tokens. Please '
              'reduce the length of the input prompt. (parameter=input_tokens, value=513)","type":"BadRequestError",'
              '"param":"input_tokens","code":400}}')
NESTED_CHARS = ('{"error":{"message":"This model\'s maximum context length is 512 tokens. However, your prompt '
                'contains 9996 characters (more than 8192 characters, which is the upper bound for 512 input '
                'tokens). Please reduce the length of the input prompt. (parameter=input_text, value=9996)",'
                '"type":"BadRequestError","param":"input_text","code":400}}')
# vLLM before the nested envelope (0.4-0.9): ErrorResponse had the fields at the top level.
FLAT_OLD = ('{"object":"error","message":"This model\'s maximum context length is 4096 tokens. However, you '
            'requested 4097 tokens (4097 in the messages, 0 in the completion). Please reduce the length of the '
            'messages or completion.","type":"BadRequestError","param":null,"code":400}')


# ------------------------------------------------------------------------------------ catalogue


def test_full_profile_runs_every_check_in_catalogue_order():
    plan = acc.profile_plan("full")
    assert [spec.name for spec, _unused in plan] == [c.name for c in acc.CHECKS]
    assert all(reason is None for _unused, reason in plan)


def test_quick_profile_skips_exactly_the_documented_checks_and_never_the_long_input():
    plan = acc.profile_plan("quick")
    skipped = {spec.name for spec, reason in plan if reason}
    assert skipped == set(acc.QUICK_SKIPS)
    long_group = {c.name for c in acc.CHECKS if c.group == acc.MANDATORY_GROUP}
    assert long_group == {"long_input_text", "long_input_token_ids", "long_input_chat", "over_limit_text",
                          "over_limit_token_ids", "over_limit_chat"}
    assert not long_group & skipped
    assert "concurrency" not in skipped


def test_a_profile_that_skips_the_long_input_is_refused():
    profiles = {"lazy": {"skips": {"over_limit_text": "too slow"}, "default_duration_s": 1}}
    with pytest.raises(KimiDeployError, match=r"may not skip.*over_limit_text"):
        acc.profile_plan("lazy", profiles)
    with pytest.raises(KimiDeployError, match="unknown acceptance profile"):
        acc.profile_plan("fast")
    with pytest.raises(KimiDeployError, match="unknown checks"):
        acc.profile_plan("x", {"x": {"skips": {"nope": "?"}, "default_duration_s": 1}})


def test_every_check_has_an_implementation_in_the_runner():
    runner = client.AcceptanceRunner(_config())
    for spec in acc.CHECKS:
        implemented = (hasattr(runner, f"_check_{spec.name}") or runner._abnormal_case(spec.name) is not None
                       or spec.name == "abnormal_over_char_precheck")
        assert implemented, spec.name


def test_abnormal_cases_match_the_catalogue_and_are_really_abnormal():
    cases = acc.abnormal_cases("tiny", 512)
    names = {c.check_name for c in cases}
    catalogue = {c.name for c in acc.CHECKS if c.group == "abnormal_input"}
    assert names | {"abnormal_over_char_precheck"} == catalogue
    by = {c.name: c for c in cases}
    with pytest.raises(ValueError):
        json.loads(by["invalid_json"].raw_body)
    with pytest.raises(UnicodeDecodeError):
        by["invalid_utf8"].raw_body.decode("utf-8")
    assert json.loads(by["lone_surrogate"].raw_body)["messages"][0]["content"] == "\ud800x"
    assert by["huge_max_tokens"].json_body["max_tokens"] > 512
    assert by["negative_max_tokens"].json_body["max_tokens"] < 0
    assert by["unknown_model"].json_body["model"] != "tiny"
    assert by["unknown_model"].expected_status == {404}
    assert "\x00" in acc.CONTROL_TEXT and "\x1b[" in acc.CONTROL_TEXT
    line = by["very_long_line"].json_body["prompt"]
    assert len(line) == 256 and not any(ch.isspace() for ch in line)
    assert all(c.expected_status == {200} for c in cases if c.expect_usage)


def test_over_precheck_lengths_start_just_over_the_bound_vllm_reported():
    # cpu-build.md: "more than 8192 characters, which is the upper bound for 512 input tokens"
    lengths = acc.over_precheck_lengths(512)
    assert lengths[0] == 8193
    assert lengths == sorted(lengths) and lengths[-1] == 512 * 256 + 1
    big = acc.over_precheck_lengths(262144)
    assert big[0] == 262144 * 16 + 1
    assert all(n <= acc.PRECHECK_MAX_BODY_CHARS for n in big)


# ------------------------------------------------------------------------------------ config


def _config(**over) -> acc.AcceptanceConfig:
    base = dict(served_model_name="tiny", max_model_len=128, max_output_tokens=8, concurrency=2, api_key="sk-test",
                base_url="http://fake", profile="quick", duration_s=1.0, sample_interval_s=0.05,
                load_input_tokens=24, load_output_tokens=4)
    base.update(over)
    return acc.AcceptanceConfig(**base)


@pytest.mark.parametrize(("over", "message"), [
    ({"max_output_tokens": 128}, "below max_model_len"),
    ({"max_output_tokens": 0}, "at least 1"),
    ({"api_key": ""}, "expect_api_key is true but api_key is empty"),
    ({"concurrency": 0}, "max_num_seqs"),
    ({"served_model_name": ""}, "served_model_name"),
    ({"profile": "slow"}, "unknown acceptance profile"),
    ({"duration_s": 0}, "duration_s"),
    ({"max_latency_degradation": 0.5}, "max_latency_degradation"),
])
def test_config_refuses_what_cannot_be_tested(over, message):
    with pytest.raises(KimiDeployError, match=message):
        _config(**over).validate()


def test_config_defaults_and_load_shape():
    cfg = _config(duration_s=None)
    assert cfg.effective_duration_s == acc.QUICK_DEFAULT_DURATION_S
    assert _config(duration_s=None, profile="full").effective_duration_s == acc.FULL_DEFAULT_DURATION_S
    assert cfg.long_input_tokens == 120
    # 128 context, 4 out, 10 template tokens, 8 for the tag -> at most 106 in; 24 asked.
    assert cfg.load_shape(10) == (24, 4)
    assert _config(load_input_tokens=1000).load_shape(10) == (106, 4)


# ------------------------------------------------------------------------------------ envelopes


def test_nested_envelope_of_vllm_032():
    env = acc.parse_error_envelope(NESTED_513)
    assert (env.shape, env.type, env.param, env.code) == ("nested", "BadRequestError", "input_tokens", 400)
    assert "at least 513 input tokens" in env.message
    assert acc.names_context_limit(env)
    chars = acc.parse_error_envelope(NESTED_CHARS.encode())
    assert chars.param == "input_text" and acc.names_context_limit(chars)


def test_flat_envelope_of_older_vllm():
    env = acc.parse_error_envelope(FLAT_OLD)
    assert (env.shape, env.type, env.param, env.code) == ("flat", "BadRequestError", None, 400)
    assert acc.names_context_limit(env)


def test_fastapi_detail_and_auth_string_and_text_shapes():
    assert acc.parse_error_envelope('{"detail":"Not Found"}') == acc.ErrorEnvelope("Not Found", shape="detail")
    listed = acc.parse_error_envelope({"detail": [{"loc": ["body", "messages"], "msg": "Field required",
                                                   "type": "missing"}]})
    assert listed.message == "body.messages: Field required" and listed.shape == "detail"
    assert acc.parse_error_envelope('{"error":"Unauthorized"}') == acc.ErrorEnvelope("Unauthorized", shape="string")
    text = acc.parse_error_envelope("<html>502 Bad Gateway</html>")
    assert text.shape == "text" and "502" in text.message
    assert acc.parse_error_envelope("") is None
    assert acc.parse_error_envelope('{"id": "cmpl-1", "choices": []}') is None
    assert acc.parse_error_envelope({"error": {"message": "x", "code": "bad"}}).code is None


def test_names_context_limit_is_not_fooled_by_other_400s():
    other = acc.parse_error_envelope('{"error":{"message":"max_tokens must be at least 1, got -1. (parameter='
                                     'max_tokens, value=-1)","type":"BadRequestError","param":"max_tokens",'
                                     '"code":400}}')
    assert not acc.names_context_limit(other)
    assert not acc.names_context_limit(None)


# ------------------------------------------------------------------------------ exact prompts


def _drive(search, count):
    text = next(search)
    calls = 1
    while True:
        try:
            text = search.send(count(text))
            calls += 1
        except StopIteration as stop:
            return stop.value, calls


def _bos_words(text: str) -> int:
    return 1 + len(text.split())


def _multi_token_words(text: str) -> int:
    # 10 tokens of chat template; each word costs len(word)//3 + 1; punctuation 1 each.
    tokens = 10
    for word in text.split():
        core = word.strip(".,!?;-")
        tokens += (len(core) // 3 + 1 if core else 0) + (len(word) - len(core))
    return tokens


@pytest.mark.parametrize("counter", [_bos_words, _multi_token_words])
@pytest.mark.parametrize("target", [10, 11, 57, 496, 513, 4095, 32768])
def test_exact_prompt_reaches_every_target(counter, target):
    text, calls = _drive(acc.exact_token_prompt(target), counter)
    assert counter(text) == target
    assert calls <= 40


def test_exact_prompt_with_a_real_bpe_tokenizer(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    subprocess.run([sys.executable, str(REPO / "tools/build_tiny_model.py"), "--arch", "llama", "--out",
                    str(tmp_path)], check=True, capture_output=True)
    tok = tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))

    def count(text: str) -> int:
        return len(tok.encode(text).ids)

    for target in (1, 2, 3, 17, 100, 255, 496, 513, 2047):
        text, calls = _drive(acc.exact_token_prompt(target), count)
        assert count(text) == target, target
        assert calls <= 40


def test_exact_prompt_refuses_what_cannot_be_built():
    with pytest.raises(KimiDeployError, match="already counts 12 tokens"):
        _drive(acc.exact_token_prompt(5), lambda text: 12 + len(text.split()))
    # Every word and every tail piece costs two tokens: an odd target cannot be met.
    with pytest.raises(KimiDeployError, match="could not close"):
        _drive(acc.exact_token_prompt(7), lambda text: 2 * len(text.split()) + 2 * sum(text.count(c) for c in ".,!?;"))
    # A search that needs more /tokenize calls than allowed stops with the tokenizer to blame.
    with pytest.raises(KimiDeployError, match="after 2 /tokenize calls"):
        _drive(acc.exact_token_prompt(50, max_probes=2), lambda text: 3 * len(text.split()))


def test_token_id_prompt():
    assert acc.token_id_prompt([5, 6, 7], 7) == [5, 6, 7, 5, 6, 7, 5]
    assert acc.token_id_prompt([5], 0) == []
    with pytest.raises(KimiDeployError, match="no seed token ids"):
        acc.token_id_prompt([], 3)


# ------------------------------------------------------------------------------------ statistics


def test_percentile_matches_numpy_linear():
    rng = np.random.default_rng(7)
    for n in (1, 2, 5, 100, 1001):
        values = rng.exponential(20.0, n).tolist()
        for q in (0, 50, 95, 99, 100):
            assert acc.percentile(values, q) == pytest.approx(float(np.percentile(values, q)))
    assert acc.percentile([], 50) is None
    with pytest.raises(KimiDeployError):
        acc.percentile([1.0], 101)


def test_distribution_scales_seconds_to_ms():
    d = acc.distribution([0.010, 0.020, 0.030], 1000.0)
    assert d["count"] == 3 and d["mean"] == pytest.approx(20.0) and d["p50"] == pytest.approx(20.0)
    assert d["min"] == pytest.approx(10.0) and d["max"] == pytest.approx(30.0)
    assert acc.distribution([])["p99"] is None


def _record(start, first, gaps, tokens=None, ok=True, prompt=10):
    times = [first]
    for g in gaps:
        times.append(times[-1] + g)
    rec = acc.StreamRecord(start=start, end=times[-1] + 0.001, status=200 if ok else 500, chunk_times=times,
                           chunk_tokens=tokens or [1] * len(times), prompt_tokens=prompt, done=ok)
    rec.completion_tokens = sum(rec.chunk_tokens)
    if not ok:
        rec.error = "HTTP 500"
    return rec


def test_stream_record_timings_by_hand():
    rec = _record(10.0, 10.2, [0.01, 0.03, 0.02])
    assert rec.ttft == pytest.approx(0.2)
    assert rec.inter_token_latencies() == pytest.approx([0.01, 0.03, 0.02])
    assert rec.tpot == pytest.approx(0.06 / 3)
    assert rec.latency == pytest.approx(0.261)
    # A chunk of 3 tokens after 0.03 s: three gaps of 0.01 s.
    multi = _record(0.0, 0.1, [0.03], tokens=[1, 3])
    assert multi.inter_token_latencies() == pytest.approx([0.01, 0.01, 0.01])
    assert multi.output_tokens == 4


def test_load_summary_by_hand():
    recs = [_record(0.0, 0.1, [0.01] * 9), _record(0.5, 0.7, [0.02] * 9), _record(1.0, 1.5, [], ok=False)]
    s = acc.load_summary(recs, 0.0, 2.0)
    assert (s["requests"], s["completed"], s["errors"]) == (3, 2, 1)
    assert s["request_rate"] == pytest.approx(1.0)
    assert s["output_tokens"] == 20 and s["output_tokens_per_s"] == pytest.approx(10.0)
    assert s["ttft_ms"]["p50"] == pytest.approx(150.0)
    assert s["itl_ms"]["count"] == 18 and s["itl_ms"]["p50"] == pytest.approx(15.0)


def test_throughput_series_buckets_tokens_by_arrival():
    # Tokens at 0.5, 0.7, 0.9 | 1.1 and 2.5, 2.6; the requests end at 1.101 and 2.601.
    recs = [_record(0.0, 0.5, [0.2, 0.2, 0.2]), _record(0.0, 2.5, [0.1])]
    series = acc.throughput_series(recs, 0.0, 3.0, bucket_s=1.0)
    assert [p["output_tokens_per_s"] for p in series] == [3.0, 1.0, 2.0]
    assert [p["requests_finished"] for p in series] == [0, 1, 1]


def test_least_squares_matches_numpy():
    xs = [0.0, 1.0, 2.5, 4.0, 7.0]
    ys = [1.0, 2.9, 6.1, 9.2, 15.1]
    slope, intercept = acc.least_squares(xs, ys)
    ref = np.polyfit(xs, ys, 1)
    assert slope == pytest.approx(ref[0]) and intercept == pytest.approx(ref[1])
    with pytest.raises(KimiDeployError):
        acc.least_squares([1.0, 1.0], [2.0, 3.0])


# ------------------------------------------------------------------------ memory and latency tests

GIB = 2**30
RSS = acc.GROWTH_RULES["server_rss_bytes"]


def _series(fn, seconds=300, step=5):
    return [(float(t), float(fn(t))) for t in range(0, seconds + 1, step)]


def test_flat_memory_with_noise_passes():
    rng = np.random.default_rng(1)
    noise = rng.normal(0, 4 * 2**20, 61)
    samples = [(t, 3 * GIB + noise[i]) for i, (t, _unused) in enumerate(_series(lambda t: 0))]
    v = acc.memory_growth(samples, RSS, run_start=0, run_end=300)
    assert v["passed"] and v["judged"]


def test_steady_growth_of_two_percent_a_minute_fails():
    # 3 GiB growing 61.44 MiB/min = 2 % of 3 GiB per minute; relative to the mean a little less, still > 1 %.
    samples = _series(lambda t: 3 * GIB + 0.02 * 3 * GIB * t / 60)
    v = acc.memory_growth(samples, RSS, run_start=0, run_end=300)
    assert not v["passed"]
    expected_rate = (0.02 * 3 * GIB) / (3 * GIB + 0.02 * 3 * GIB * ((75 + 300) / 2) / 60)
    assert v["growth_per_min"] == pytest.approx(expected_rate, rel=1e-6)


def test_growth_only_during_warm_up_is_ignored():
    samples = _series(lambda t: 2 * GIB + min(t, 60) * 10 * 2**20)  # +600 MiB in the first minute, then flat
    assert acc.memory_growth(samples, RSS, run_start=0, run_end=300, warmup_fraction=0.25)["passed"]
    assert not acc.memory_growth(samples, RSS, run_start=0, run_end=300, warmup_fraction=0.0)["passed"]


def test_fast_but_tiny_growth_stays_under_the_noise_floor():
    # 20 s run: 3 MiB over the window is 9 MiB/min, above 1 %/min of 500 MiB, but below the 32 MiB floor.
    samples = _series(lambda t: 500 * 2**20 + t * 0.15 * 2**20, seconds=20, step=1)
    v = acc.memory_growth(samples, RSS, run_start=0, run_end=20)
    assert v["growth_per_min"] > RSS.limit_per_min and v["passed"]


def test_kv_usage_uses_an_absolute_limit_and_limit_scale():
    kv = acc.GROWTH_RULES["kv_cache_usage"]
    leaking = _series(lambda t: 0.1 + 0.1 * t / 60)  # +10 points a minute
    assert not acc.memory_growth(leaking, kv, run_start=0, run_end=300)["passed"]
    assert acc.memory_growth(leaking, kv, run_start=0, run_end=300, limit_scale=3.0)["passed"]


def test_a_window_shorter_than_three_request_lifetimes_is_not_judged():
    # CI, a loaded host: a 5 s quick run whose requests took 5.8 s each; KV usage only filled
    # (0.1 to 0.5 over the 3.75 s after warm-up), nothing was freed yet.
    kv = acc.GROWTH_RULES["kv_cache_usage"]
    filling = [(t / 4, 0.1 * t / 4) for t in range(21)]
    v = acc.memory_growth(filling, kv, run_start=0, run_end=5, request_lifetime_s=5.8)
    assert v["passed"] and not v["judged"] and "3 request lifetimes" in v["detail"], v["detail"]
    assert "took 5.8 s" in v["detail"]
    none_done = acc.memory_growth(filling, kv, run_start=0, run_end=5, request_lifetime_s=math.inf)
    assert not none_done["judged"] and "no request completed" in none_done["detail"]
    # the same rise with requests of 1.25 s (exactly three lifetimes in the window) is judged, and fails
    v = acc.memory_growth(filling, kv, run_start=0, run_end=5, request_lifetime_s=1.25)
    assert v["judged"] and not v["passed"], v["detail"]


def _filling_run(request_s: float) -> judge.LoadRun:
    """A 5 s run at 4 streams whose KV usage rises the whole time, with requests of ``request_s``."""
    run = judge.LoadRun(in_tokens=24, out_tokens=64, duration_s=5.0, run_start=0.0, deadline=5.0, max_errors=3,
                        run_end=5.0, series={"kv_cache_usage": [[t / 4, 0.1 * t / 4] for t in range(21)]})
    for start in (0.0, 0.1, 0.2, 0.3):
        ticks = [start + request_s * k / 8 for k in range(1, 9)]
        run.records.append(acc.StreamRecord(start=start, end=start + request_s, status=200, chunk_times=ticks,
                                            chunk_tokens=[1] * 8, done=True))
    return run


@pytest.mark.parametrize(("request_s", "judged"), [(4.6, False), (1.2, True)])
def test_concurrency_judges_memory_over_the_request_lifetimes_the_run_measured(request_s, judged):
    cfg = _config(concurrency=4, duration_s=5.0)
    run = _filling_run(request_s)
    metrics = judge.load_metrics(cfg, run)
    kv = metrics["memory_growth"]["kv_cache_usage"]
    assert kv["judged"] is judged, kv["detail"]
    outcome = judge.concurrency_outcome(cfg, run, metrics)
    assert outcome.passed is not judged, outcome.detail  # the fill fails only where it is judged


def test_kv_usage_is_judged_by_the_blocks_held_once_no_request_runs():
    # CI, a loaded host: over the 9 s after warm-up (three request lifetimes) KV usage rose 0.76 as the requests in
    # flight grew; once they had finished every block was free again: not a leak.
    kv = acc.GROWTH_RULES["kv_cache_usage"]
    times = [-0.1, *[t / 2 for t in range(25)], 12.5]
    running = [0, *[min(4, 1 + t // 6) for t in range(25)], 0]
    usage = [0.0, *[0.76 * t / 24 for t in range(25)], 0.0]
    freed = acc.kv_cache_freed(list(zip(times, usage, strict=True)), list(zip(times, running, strict=True)), kv,
                               run_start=0.0, run_end=12.2)
    assert freed["judged"] and freed["passed"], freed["detail"]
    assert (freed["idle_before"], freed["idle_after"]) == (0.0, 0.0) and "the blocks were freed" in freed["detail"]
    # the same run whose blocks stay held with nothing running is a leak
    usage[-1] = 0.2
    leak = acc.kv_cache_freed(list(zip(times, usage, strict=True)), list(zip(times, running, strict=True)), kv,
                              run_start=0.0, run_end=12.2)
    assert not leak["passed"] and "still held with no request running" in leak["detail"], leak["detail"]
    # no idle sample after the run (the server still busy, or no running count): no verdict, the trend decides
    running[-1] = 2
    assert acc.kv_cache_freed(list(zip(times, usage, strict=True)), list(zip(times, running, strict=True)), kv,
                              run_start=0.0, run_end=12.2) is None


def test_the_concurrency_check_passes_a_run_whose_kv_usage_rose_and_was_freed():
    cfg = _config(concurrency=4, duration_s=5.0)
    run = _filling_run(1.2)  # the rising fit alone fails it (above)
    run.series["requests_running"] = [[t / 4, 4.0] for t in range(21)]
    for name, value in (("kv_cache_usage", 0.0), ("requests_running", 0.0)):
        run.series[name] = [[-0.1, value], *run.series[name], [5.3, value]]
    metrics = judge.load_metrics(cfg, run)
    kv = metrics["memory_growth"]["kv_cache_usage"]
    assert kv["judged"] and kv["passed"] and kv["idle_after"] == 0.0, kv["detail"]
    assert judge.concurrency_outcome(cfg, run, metrics).passed


def test_too_few_samples_are_not_judged():
    v = acc.memory_growth([(0.0, 1.0), (100.0, 2.0)], RSS, run_start=0, run_end=100)
    assert v["passed"] and not v["judged"] and "fewer than" in v["detail"]


def _load(start_times, ttft, tpot):
    return [_record(s, s + ttft(s), [tpot(s)] * 9) for s in start_times]


def test_latency_degradation_steady_rise_fails():
    starts = [i * 0.5 for i in range(200)]  # a 100 s run; 25 s warm-up; windows of 18.75 s from 25 s
    steady = _load(starts, lambda s: 0.05, lambda s: 0.004)
    assert acc.latency_degradation(steady, run_start=0, run_end=100)["passed"]
    worse = _load(starts, lambda s: 0.05 + 0.003 * s, lambda s: 0.004)  # TTFT grows 3 ms per second
    v = acc.latency_degradation(worse, run_start=0, run_end=100)
    assert not v["passed"] and "TTFT rose steadily" in v["detail"]
    # First window: starts 25.0 .. 43.5, median start 34.25 s, TTFT 50 + 3 x 34.25 ms.
    assert v["ttft_window_medians_ms"][0] == pytest.approx(50 + 3 * 34.25)
    assert v["window_requests"] == [38, 37, 38, 37]
    late_step = _load(starts, lambda s: 0.05 if s < 60 else 0.3, lambda s: 0.004)  # stays bad once bad
    assert not acc.latency_degradation(late_step, run_start=0, run_end=100)["passed"]
    tpot = _load(starts, lambda s: 0.05, lambda s: 0.004 + 0.0002 * s)  # 9 ms -> 23.9 ms per token
    assert "TPOT rose steadily" in acc.latency_degradation(tpot, run_start=0, run_end=100)["detail"]


def test_latency_degradation_ignores_bursts_and_jitter():
    starts = [i * 0.5 for i in range(200)]
    # Other load on the host: slow from 45 to 60 s, quiet, slow again from 85 s to the end.
    burst = _load(starts, lambda s: 0.4 if 45 <= s < 60 or s >= 85 else 0.05, lambda s: 0.004)
    v = acc.latency_degradation(burst, run_start=0, run_end=100)
    assert v["passed"] and v["judged"] and "burst" in v["bursts"][0]
    jitter = _load(starts, lambda s: 0.002 if s < 50 else 0.020, lambda s: 0.001)  # x10 but 18 ms < 50 ms slack
    assert acc.latency_degradation(jitter, run_start=0, run_end=100)["passed"]
    # Other jobs start on the host just after the warm-up and keep running: one step up, then flat.
    shift = _load(starts, lambda s: 0.02 if s < 40 else 0.15, lambda s: 0.004)
    v = acc.latency_degradation(shift, run_start=0, run_end=100)
    assert v["passed"] and v["judged"] and "stepped up" in v["level_shifts"][0]
    assert v["ttft_window_medians_ms"][-1] > 1.5 * v["ttft_window_medians_ms"][0] + 50  # risen, yet not failed
    # A 10 s run (windows of 1.9 s): one pause of the host in the last window is not a trend.
    short = [i * 0.1 for i in range(100)]
    spike = _load(short, lambda s: 0.233 if s >= 8.2 else 0.02, lambda s: 0.004)
    v = acc.latency_degradation(spike, run_start=0, run_end=10)
    assert v["passed"] and not v["judged"] and "windows of 1.9 s" in v["detail"]
    assert not acc.latency_degradation(spike, run_start=0, run_end=10, min_window_s=1)["passed"]  # would fail
    few = _load([0.0, 90.0], lambda s: 0.05, lambda s: 0.004)
    assert not acc.latency_degradation(few, run_start=0, run_end=100)["judged"]


# -------------------------------------------------------------------------------------- metrics

METRICS = "\n".join([
    "# HELP process_resident_memory_bytes Resident memory size in bytes.",
    "# TYPE process_resident_memory_bytes gauge",
    "process_resident_memory_bytes 6.0135424e+08",
    'vllm:kv_cache_usage_perc{engine="0",model_name="tiny"} 0.25',
    'vllm:kv_cache_usage_perc{engine="1",model_name="tiny"} 0.5',
    'vllm:num_requests_running{engine="0",model_name="tiny"} 3.0',
    'vllm:cache_config_info{block_size="128",engine="0",kv_cache_memory_bytes="1073741824",'
    'kv_cache_size_tokens="2097152",note="a \\"quoted\\" value"} 1.0',
    'vllm:cache_config_info{block_size="128",engine="1",kv_cache_size_tokens="1"} 1.0',
])


def test_prometheus_text_parsing():
    samples = acc.parse_prometheus_text(METRICS)
    assert acc.metric_total(samples, "process_resident_memory_bytes") == 601354240
    assert acc.metric_max(samples, "vllm:kv_cache_usage_perc") == 0.5
    assert acc.metric_total(samples, "vllm:num_requests_running") == 3
    assert acc.metric_total(samples, "vllm:nope") is None
    info = acc.cache_config_from_metrics(samples)
    assert info["engine"] == "0" and info["note"] == 'a "quoted" value'
    assert acc.kv_tokens_from_metrics(samples) == 2097152  # cpu-build.md: 1 GiB of KV, 2,097,152 tokens
    assert acc.kv_tokens_from_metrics([]) is None


# -------------------------------------------------------------------------------------- verdicts


def test_truncate_scrub_and_rejection_message():
    assert acc.truncate("x" * 10, 4) == "xxxx... [truncated, 10 characters in all]"
    assert acc.scrub("Bearer sk-1 and sk-1", ["sk-1", ""]) == "Bearer <redacted> and <redacted>"
    checks = {"over_limit_text": {"detail": "answered 500", "request": {"method": "POST", "path": "/v1/completions",
                                                                        "body": "{...}"},
                                  "response": {"status": 500, "body": "boom"}}}
    msg = acc.rejection_message(checks, ["over_limit_text", "models"])
    assert "2 check(s) failed: over_limit_text, models" in msg
    assert "POST /v1/completions" in msg and "Response: 500 boom" in msg
    assert acc.rejection_message({}, []) == "acceptance passed"


def test_suite_verdict_ignores_skips():
    results = [acc.CheckResult("a", "g", "passed", ""), acc.CheckResult("b", "g", "skipped", ""),
               acc.CheckResult("c", "g", "failed", "")]
    assert acc.suite_verdict(results) == (False, ["c"])
    assert acc.suite_verdict(results[:2]) == (True, [])
    assert results[1].to_dict()["passed"] is None


# ------------------------------------------------------------------- runner against a fake vLLM


def _run(fake: FakeVllm, **over) -> dict:
    cfg = _config(**over)
    return client.run_acceptance(cfg, transport=httpx.MockTransport(fake), nvml_loader=lambda: None)


def test_runner_accepts_a_good_server_and_records_numbers():
    fake = FakeVllm()
    results = _run(fake)
    failed = {n: c["detail"] for n, c in results["checks"].items() if c["status"] == "failed"}
    assert results["passed"], failed
    assert results["failed_checks"] == []
    skipped = {n for n, c in results["checks"].items() if c["status"] == "skipped"}
    # No plan given: the forms are unknown; no front door: the routes group has nothing to probe. Both say so.
    assert skipped == set(acc.QUICK_SKIPS) | set(FORM_CHECKS) | {"routes_unauthenticated"}
    assert all("no model forms" in results["checks"][n]["detail"] for n in FORM_CHECKS)
    long = results["metrics"]["long"]
    assert long["text"]["usage"]["prompt_tokens"] == 120 and long["text"]["usage"]["completion_tokens"] == 8
    assert long["chat"]["usage"]["prompt_tokens"] == 120
    assert long["over_text"]["prompt_tokens_sent"] == 129 and long["over_text"]["status"] == 400
    load = results["metrics"]["concurrency"]
    assert load["completed"] >= 2 and load["errors"] == 0
    assert load["output_tokens"] == 4 * load["completed"]
    assert load["ttft_ms"]["p50"] > 0 and load["itl_ms"]["count"] == 3 * load["completed"]
    assert "api_rss_bytes" in load["memory_growth"] and "kv_cache_usage" in load["series"]["memory"]
    assert results["server"] == {"vllm_version": "0.32.0", "kv_cache_size_tokens": 4096,
                                 "cache_config": {"engine": "0", "kv_cache_size_tokens": "4096"},
                                 "max_model_len": 128}
    # The suite sent the over-long prompt as text of exactly 129 counted tokens.
    sent = [json.loads(r.content) for r in fake.requests if r.url.path == "/v1/completions" and r.content]
    assert any(isinstance(b.get("prompt"), str) and FakeVllm.count(b["prompt"]) == 129 for b in sent)
    assert any(isinstance(b.get("prompt"), list) and len(b["prompt"]) == 129 for b in sent)


def test_runner_full_profile_runs_every_abnormal_input():
    results = _run(FakeVllm(), profile="full")
    assert results["passed"], results["msg"]
    assert all(c["status"] == "passed" for n, c in results["checks"].items()
               if n not in FORM_CHECKS and n != "routes_unauthenticated")  # no plan, no front door: skipped
    abnormal = results["metrics"]["abnormal"]
    assert abnormal["invalid_utf8"]["status"] == 400 and abnormal["unknown_model"]["status"] == 404
    assert abnormal["over_char_precheck"]["attempts"][0] == {"chars": 2049, "status": 400, "param": "input_text"}
    assert results["checks"]["abnormal_invalid_utf8"]["observed"]["error"]["shape"] == "detail"


def test_runner_rejects_a_500_on_over_long_input_and_shows_the_exchange():
    results = _run(FakeVllm(over_limit_status=500))
    assert not results["passed"]
    assert {"over_limit_text", "over_limit_token_ids", "over_limit_chat"} <= set(results["failed_checks"])
    check = results["checks"]["over_limit_text"]
    assert "server error" in check["detail"]
    assert check["request"]["path"] == "/v1/completions" and check["request"]["method"] == "POST"
    assert check["response"]["status"] == 500 and "EngineCore" in check["response"]["body"]
    assert "sk-test" not in json.dumps(results)
    assert "over_limit_text" in results["msg"] and "Response: 500" in results["msg"]


@pytest.mark.parametrize(("fault", "detail"), [
    ("error_event", "error event in the stream: EngineCore"),
    ("no_done", "the stream ended without data: [DONE]"),
])
def test_runner_rejects_broken_streams(fault, detail):
    results = _run(FakeVllm(stream_fault=fault))
    check = results["checks"]["short_chat_stream"]
    assert check["status"] == "failed" and detail in check["detail"]
    assert check["response"]["status"] == 200 and check["response"]["body"].startswith("data: {")
    assert results["checks"]["concurrency"]["status"] == "failed"


def test_runner_rejects_an_open_endpoint():
    results = _run(FakeVllm(enforce_key=False))
    assert results["failed_checks"] == ["api_key_missing", "api_key_wrong"]
    assert "not 401" in results["checks"]["api_key_missing"]["detail"]


def test_wrong_key_probe_sends_a_random_key_never_the_real_one():
    """Before: the probe sent the real key plus '-not-the-key', so a request meant to fail carried
    the real key (into proxies and access logs), and a prefix-comparing server would accept it."""
    fake = FakeVllm()
    results = _run(fake)
    assert results["checks"]["api_key_wrong"]["status"] == "passed"
    sent = [r.headers.get("authorization", "") for r in fake.requests if r.url.path.startswith("/v1")]
    wrong = [h for h in sent if h and h != "Bearer sk-test"]
    assert wrong, sent
    assert all("sk-test" not in h for h in wrong)
    # fresh each time, and never derived from the key
    keys = {acceptance_http.wrong_key("sk-test") for _unused in range(20)}
    assert len(keys) == 20 and not any("sk-test" in k for k in keys)
    assert acceptance_http.wrong_key("") and len(acceptance_http.wrong_key("")) >= 32


def test_runner_rejects_a_server_with_a_shorter_context_than_planned():
    results = _run(FakeVllm(max_model_len=96))  # the suite is told 128
    failed = results["failed_checks"]
    assert "models" in failed and "long_input_text" in failed
    assert "max_model_len=96 but the plan expects 128" in results["checks"]["models"]["detail"]
    assert "does not hold the planned max_model_len=128" in results["checks"]["long_input_text"]["detail"]


def test_runner_rejects_a_wrong_served_model_name():
    results = _run(FakeVllm(), served_model_name="other")
    assert "models" in results["failed_checks"] and "short_chat_stream" in results["failed_checks"]
    load = results["checks"]["concurrency"]
    assert load["status"] == "failed" and "requests failed (run stopped early)" in load["detail"]
    assert load["response"]["status"] == 404


def test_runner_rejects_steady_memory_growth():
    results = _run(FakeVllm(rss_growth_per_s=200 * 2**20), duration_s=1.5)
    growth = results["metrics"]["concurrency"]["memory_growth"]["api_rss_bytes"]
    assert growth["judged"] and not growth["passed"]
    assert results["failed_checks"] == ["concurrency"]
    assert "api_rss_bytes: fitted growth" in results["checks"]["concurrency"]["detail"]


def test_runner_stops_at_an_unhealthy_server():
    results = _run(FakeVllm(healthy=False))
    assert results["failed_checks"][0] == "health"
    assert all(c["status"] in ("failed", "skipped") for c in results["checks"].values())
    assert "not run" in results["checks"]["long_input_text"]["detail"]


def test_runner_skips_key_checks_without_a_key():
    results = _run(FakeVllm(enforce_key=False), api_key="", expect_api_key=False)
    assert results["passed"]
    assert results["checks"]["api_key_missing"]["status"] == "skipped"


def test_runner_samples_gpu_memory_through_nvml_when_present():
    class Mem:
        def __init__(self, used):
            self.used = used

    class FakeNvml:
        shut = False

        def nvmlInit(self):
            pass

        def nvmlDeviceGetCount(self):
            return 2

        def nvmlDeviceGetHandleByIndex(self, i):
            return i

        def nvmlDeviceGetMemoryInfo(self, h):
            return Mem((h + 1) * 2**30)

        def nvmlShutdown(self):
            FakeNvml.shut = True

    cfg = _config()
    results = client.run_acceptance(cfg, transport=httpx.MockTransport(FakeVllm()), nvml_loader=FakeNvml)
    points = results["metrics"]["concurrency"]["series"]["memory"]["gpu_memory_used_bytes"]
    assert points and all(v == 3 * 2**30 for _unused, v in points)
    assert FakeNvml.shut


def test_process_tree_rss_sums_descendants(tmp_path):
    page = acceptance_load.os.sysconf("SC_PAGE_SIZE")
    tree = {100: (1, 10), 101: (100, 20), 102: (101, 30), 200: (1, 1000)}
    for pid, (ppid, pages) in tree.items():
        d = tmp_path / str(pid)
        d.mkdir()
        (d / "stat").write_text(f"{pid} (VLLM::Worker x) S {ppid} 0 0\n")
        (d / "statm").write_text(f"999 {pages} 0 0 0 0 0\n")
    (tmp_path / "self").mkdir()
    assert acceptance_load.process_tree_rss(100, tmp_path) == 60 * page
    assert acceptance_load.process_tree_rss(101, tmp_path) == 50 * page
    assert acceptance_load.process_tree_rss(999, tmp_path) is None


def test_tokens_in_chunk():
    assert judge.tokens_in_chunk({"choices": [{"delta": {"role": "assistant", "content": ""}}]}) == 0
    assert judge.tokens_in_chunk({"choices": [{"delta": {"content": ""}}]}) == 1
    assert judge.tokens_in_chunk({"choices": [{"delta": {"content": "ab"}, "token_ids": [1, 2]}]}) == 2
    assert judge.tokens_in_chunk({"choices": [{"text": ""}]}) == 1
    assert judge.tokens_in_chunk({"choices": [], "usage": {}}) == 0


def test_load_nvml_falls_back_to_vllms_vendored_copy_without_importing_vllm(tmp_path, monkeypatch):
    pkg = tmp_path / "vllm"
    (pkg / "third_party").mkdir(parents=True)
    (pkg / "__init__.py").write_text("raise RuntimeError('importing vllm itself takes seconds; must not happen')\n")
    (pkg / "third_party" / "pynvml.py").write_text("def nvmlInit():\n    return 'vendored'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(sys.modules, "pynvml", None)  # "import pynvml" raises ImportError
    monkeypatch.delitem(sys.modules, "vllm", raising=False)
    nvml = acceptance_load.load_nvml()
    assert nvml.nvmlInit() == "vendored"
    assert "vllm" not in sys.modules


def test_gpu_memory_without_a_working_nvml():
    assert acceptance_load.GpuMemory(None).note.startswith("NVML not importable")

    class Broken:
        def nvmlInit(self):
            raise OSError("libnvidia-ml.so.1: cannot open shared object file")

    gpu = acceptance_load.GpuMemory(Broken())
    assert not gpu.available and gpu.used_bytes() is None and "did not start" in gpu.note


def test_cli_exit_codes(monkeypatch, capsys):
    monkeypatch.setattr(client, "run_acceptance", lambda config: {
        "passed": False, "failed_checks": ["models"], "suite_duration_s": 1.0, "server": {}, "msg": "rejected",
        "checks": {"models": {"status": "failed"}}})
    argv = ["--served-model-name", "tiny", "--max-model-len", "128", "--max-output-tokens", "8", "--concurrency",
            "2", "--no-api-key"]
    assert client.main(argv) == 1
    assert json.loads(capsys.readouterr().out)["failed_checks"] == ["models"]
    assert client.main([*argv[:-1], "--api-key-env", "KIMI_UNSET_FOR_TEST"]) == 2


def test_kv_usage_sawtooth_is_not_growth_but_a_steady_rise_is():
    rule = acc.GROWTH_RULES["kv_cache_usage"]
    # requests of ~2 s filling a small cache, sampled every 0.5 s; the last cycle ends high
    saw = [(t * 0.5, ((t % 4) / 4) * 0.9) for t in range(40)] + [(20.0, 0.9), (20.5, 0.95)]
    judged = acc.memory_growth(saw, rule, run_start=0.0, run_end=21.0)
    assert judged["judged"] and judged["passed"], judged["detail"]
    leak = [(t * 0.5, 0.1 + 0.02 * t + (0.01 if t % 2 else -0.01)) for t in range(40)]
    judged = acc.memory_growth(leak, rule, run_start=0.0, run_end=20.0)
    assert judged["passed"] is False and judged["scatter"] < 0.02
