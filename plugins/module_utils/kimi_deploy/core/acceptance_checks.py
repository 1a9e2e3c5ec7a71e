"""What each acceptance check concludes from the answers it got: pure, no network.

``io/acceptance_http.py`` sends the requests and ``io/acceptance_load.py`` drives the concurrency
run; ``acceptance_client.py`` asks them for the answers and hands those to the functions here,
which return an ``Outcome`` (passed, detail, observed numbers, the exchange to show on failure).
The catalogue, expectations and statistics themselves are in ``acceptance.py``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .acceptance import (
    GROWTH_RULES,
    AbnormalCase,
    AcceptanceConfig,
    CheckResult,
    CheckSpec,
    ErrorEnvelope,
    StreamRecord,
    distribution,
    kv_cache_freed,
    latency_degradation,
    load_summary,
    memory_growth,
    names_context_limit,
    parse_error_envelope,
    percentile,
    rejection_message,
    sample_values,
    scrub,
    suite_verdict,
    throughput_series,
    truncate,
)

SHORT_PROMPT = "Say hello to the operator in one short sentence."
DEFAULT_RSS_LIMIT_PER_MIN = GROWTH_RULES["server_rss_bytes"].limit_per_min


@dataclass
class Exchange:
    """One request and its answer, kept short enough to show in a report."""

    method: str
    path: str
    body: str
    status: int = 0
    response: str = ""
    elapsed_s: float = 0.0
    error: str | None = None
    headers_note: str = "Authorization: Bearer <redacted>"

    def json(self) -> Any:
        try:
            return json.loads(self.response)
        except ValueError:
            return None

    def envelope(self) -> ErrorEnvelope | None:
        return parse_error_envelope(self.response)

    def request_record(self, secrets: list[str]) -> dict[str, Any]:
        return {"method": self.method, "path": self.path, "headers": self.headers_note,
                "body": scrub(truncate(self.body), secrets)}

    def response_record(self, secrets: list[str]) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "body": scrub(truncate(self.response), secrets),
                               "elapsed_ms": round(self.elapsed_s * 1000, 2)}
        if self.error:
            out["error"] = scrub(self.error, secrets)
        return out


@dataclass
class Outcome:
    passed: bool | None  # None: skipped at run time
    detail: str
    observed: dict[str, Any] = field(default_factory=dict)
    exchange: Exchange | None = None


class CheckFailed(Exception):
    """Raised inside a check to fail it at once, with the exchange that showed the problem."""

    def __init__(self, detail: str, exchange: Exchange | None = None, observed: dict[str, Any] | None = None):
        super().__init__(detail)
        self.exchange = exchange
        self.observed = observed or {}


# ------------------------------------------------------------------------------------- streaming


def tokens_in_chunk(chunk: Mapping[str, Any]) -> int:
    """Generated tokens an SSE chunk carries: its token_ids when sent, else 1 per content chunk."""
    choices = chunk.get("choices") or []
    if not choices:
        return 0
    choice = choices[0]
    ids = choice.get("token_ids")
    if isinstance(ids, list) and ids:
        return len(ids)
    if "delta" in choice:
        delta = choice.get("delta") or {}
        if "role" in delta:  # vLLM's opening chat chunk: the role, no token yet
            return 0
        return 1 if any(k in delta for k in ("content", "reasoning", "reasoning_content", "tool_calls")) else 0
    return 1 if "text" in choice else 0


@dataclass
class SseReader:
    """Reads one streamed answer line by line into its ``StreamRecord``; ValueError on a bad JSON event."""

    record: StreamRecord
    kept_lines: list[str] = field(default_factory=list)  # the first events and every telling one

    def feed(self, line: str, now: float) -> None:
        if not line.startswith("data:"):
            return
        rec = self.record
        data = line[5:].strip()
        chunk = None if data == "[DONE]" else json.loads(data)
        if len(self.kept_lines) < 3 or chunk is None or "error" in chunk or chunk.get("usage"):
            self.kept_lines.append(line)
        if chunk is None:
            rec.done = True
            return
        if "error" in chunk:  # vLLM reports a failure after the 200 as an SSE event
            env = parse_error_envelope(chunk)
            rec.error = f"error event in the stream: {env.message if env else data}"
            return
        usage = chunk.get("usage")
        if usage:
            rec.prompt_tokens = usage.get("prompt_tokens")
            rec.completion_tokens = usage.get("completion_tokens")
        n = tokens_in_chunk(chunk)
        if n:
            rec.chunk_times.append(now)
            rec.chunk_tokens.append(n)

    def finish(self) -> str:
        """The kept lines, for the exchange; an error on the record if [DONE] never came."""
        if not self.record.done and self.record.error is None:
            self.record.error = "the stream ended without data: [DONE]"
        return "\n".join(self.kept_lines)


# ------------------------------------------------------------------------------------ server, short


def models_outcome(ex: Exchange, cfg: AcceptanceConfig) -> Outcome:
    """GET /v1/models serves the planned name with the planned max_model_len (``observed`` has it when read)."""
    data = ex.json()
    if ex.status != 200 or not isinstance(data, dict):
        return Outcome(False, f"GET /v1/models answered {ex.status or ex.error}", exchange=ex)
    entries = {m.get("id"): m for m in data.get("data", []) if isinstance(m, dict)}
    observed = {"model_ids": sorted(str(k) for k in entries)}
    entry = entries.get(cfg.served_model_name)
    if entry is None:
        return Outcome(False, f"the server does not serve {cfg.served_model_name!r}, it serves "
                              f"{observed['model_ids']}: fix served_model_name or the unit's --served-model-name",
                       observed, ex)
    served_len = entry.get("max_model_len")
    observed["max_model_len"] = served_len
    if served_len is not None and int(served_len) != cfg.max_model_len:
        return Outcome(False, f"the server runs max_model_len={served_len} but the plan expects "
                              f"{cfg.max_model_len}: the release was not started with the planned "
                              "settings", observed, ex)
    return Outcome(True, f"serves {cfg.served_model_name!r} with max_model_len={served_len}", observed)


def short_body(cfg: AcceptanceConfig, chat: bool, stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = {"model": cfg.served_model_name, "max_tokens": cfg.short_output_tokens}
    if chat:
        body["messages"] = [{"role": "user", "content": SHORT_PROMPT}]
    else:
        body["prompt"] = SHORT_PROMPT
    if stream:
        body.update(stream=True, stream_options={"include_usage": True}, return_token_ids=True)
    return body


def usage_problem(usage: Any, max_completion: int) -> str | None:
    if not isinstance(usage, dict):
        return "no usage in the answer"
    prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
    total = usage.get("total_tokens")
    if not isinstance(prompt, int) or prompt < 1:
        return f"usage.prompt_tokens is {prompt!r}"
    if not isinstance(completion, int) or not 1 <= completion <= max_completion:
        return f"usage.completion_tokens is {completion!r}, expected 1..{max_completion}"
    if total is not None and total != prompt + completion:
        return f"usage.total_tokens {total} is not prompt {prompt} + completion {completion}"
    return None


def short_outcome(ex: Exchange, path: str, chat: bool, max_completion: int) -> tuple[Outcome, dict[str, Any] | None]:
    """(outcome, the numbers to record: None when the answer had no generated text)."""
    data = ex.json()
    if ex.status != 200 or not isinstance(data, dict):
        return Outcome(False, f"{path} answered {ex.status or ex.error}", exchange=ex), None
    choices = data.get("choices") or []
    text = None
    if choices:
        text = (choices[0].get("message") or {}).get("content") if chat else choices[0].get("text")
    if not isinstance(text, str):
        return Outcome(False, f"{path} answered 200 without generated text", exchange=ex), None
    problem = usage_problem(data.get("usage"), max_completion)
    observed = {"latency_ms": round(ex.elapsed_s * 1000, 2), "usage": data.get("usage"),
                "finish_reason": choices[0].get("finish_reason")}
    if problem:
        return Outcome(False, f"{path}: {problem}", observed, ex), observed
    return Outcome(True, f"200 in {observed['latency_ms']} ms, usage {data['usage']}", observed), observed


def short_stream_outcome(rec: StreamRecord, ex: Exchange, path: str, max_completion: int) -> Outcome:
    usage = {"prompt_tokens": rec.prompt_tokens, "completion_tokens": rec.completion_tokens,
             "total_tokens": None if rec.prompt_tokens is None or rec.completion_tokens is None
             else rec.prompt_tokens + rec.completion_tokens}
    observed = {"ttft_ms": None if rec.ttft is None else round(rec.ttft * 1000, 2),
                "latency_ms": round(rec.latency * 1000, 2), "chunks": len(rec.chunk_times),
                "streamed_tokens": sum(rec.chunk_tokens), "usage": usage, "done": rec.done,
                "itl_ms": distribution(rec.inter_token_latencies(), 1000.0)}
    if not rec.ok:
        return Outcome(False, f"stream {path}: {rec.error or 'no token chunk'}", observed, ex)
    problem = usage_problem(usage, max_completion)
    if problem is None and sum(rec.chunk_tokens) != rec.completion_tokens:
        problem = f"{sum(rec.chunk_tokens)} tokens streamed but usage says {rec.completion_tokens}"
    if problem:
        return Outcome(False, f"stream {path}: {problem}", observed, ex)
    return Outcome(True, f"TTFT {observed['ttft_ms']} ms, {len(rec.chunk_times)} chunks, "
                         f"{rec.completion_tokens} tokens, [DONE] seen", observed)


# ------------------------------------------------------------------------------------------- long


def long_path(kind: str) -> str:
    return "/v1/chat/completions" if kind == "chat" else "/v1/completions"


def long_accepted_outcome(ex: Exchange, kind: str, cfg: AcceptanceConfig, tokenize_calls: int) -> Outcome:
    """A prompt of exactly max_model_len - max_output tokens is accepted and counted as sent."""
    n, out, path = cfg.long_input_tokens, cfg.max_output_tokens, long_path(kind)
    data = ex.json()
    usage = data.get("usage") if isinstance(data, dict) else None
    observed = {"prompt_tokens_sent": n, "max_tokens": out, "latency_ms": round(ex.elapsed_s * 1000, 2),
                "usage": usage, "tokenize_calls": tokenize_calls}
    if ex.status != 200:
        env = ex.envelope()
        hint = (f": the server refuses {n} + {out} tokens, so it does not hold the planned max_model_len="
                f"{cfg.max_model_len}" if names_context_limit(env) else "")
        return Outcome(False, f"{path} with a {n}-token prompt answered {ex.status or ex.error}{hint}", observed, ex)
    if not isinstance(usage, dict) or usage.get("prompt_tokens") != n:
        return Outcome(False, f"usage.prompt_tokens is {None if not usage else usage.get('prompt_tokens')}, "
                              f"the prompt has {n} tokens by /tokenize", observed, ex)
    completion = usage.get("completion_tokens")
    if kind == "text" and completion != out:
        return Outcome(False, f"{completion} tokens generated with ignore_eos, expected {out}: the sequence "
                              f"did not reach max_model_len={cfg.max_model_len}", observed, ex)
    if not isinstance(completion, int) or not 1 <= completion <= out:
        return Outcome(False, f"usage.completion_tokens is {completion!r}, expected 1..{out}", observed, ex)
    return Outcome(True, f"200, prompt {n} tokens as counted, {completion} generated, "
                         f"{observed['latency_ms']} ms", observed)


def over_limit_outcome(ex: Exchange, n: int, healthy: bool, health_ex: Exchange) -> Outcome:
    """A prompt one token over max_model_len gets a 400 naming the context length, and the server lives."""
    env = ex.envelope()
    observed = {"prompt_tokens_sent": n, "status": ex.status, "healthy_after": healthy,
                "error": None if env is None else {"message": truncate(env.message, 300), "param": env.param,
                                                   "type": env.type, "shape": env.shape}}
    if ex.status != 400:
        what = "a server error" if ex.status >= 500 else "not a 400"
        return Outcome(False, f"a {n}-token prompt (one over max_model_len) answered {ex.status or ex.error}, "
                              f"{what}", observed, ex)
    if not names_context_limit(env):
        return Outcome(False, "400, but the error does not name the context length: "
                              f"{env.message if env else ex.response!r}", observed, ex)
    if not healthy:
        return Outcome(False, f"/health answered {health_ex.status or health_ex.error} after the over-long "
                              "request", observed, health_ex)
    return Outcome(True, f"400 ({env.shape} envelope, param {env.param}), /health 200 after", observed)


# --------------------------------------------------------------------------------------- abnormal


def abnormal_outcome(case: AbnormalCase, ex: Exchange, healthy: bool, health_ex: Exchange) -> Outcome:
    env = ex.envelope() if ex.status >= 400 else None
    observed: dict[str, Any] = {"status": ex.status, "expected": sorted(case.expected_status),
                                "healthy_after": healthy}
    if env is not None:
        observed["error"] = {"message": truncate(env.message, 300), "type": env.type, "param": env.param,
                             "shape": env.shape}
    expected = "/".join(str(s) for s in sorted(case.expected_status))
    if ex.status not in case.expected_status:
        return Outcome(False, f"answered {ex.status or ex.error}, expected {expected}", observed, ex)
    if ex.status >= 400 and (env is None or not env.message):
        return Outcome(False, f"{ex.status} without a readable error message", observed, ex)
    if case.expect_usage:
        data = ex.json()
        problem = usage_problem(data.get("usage") if isinstance(data, dict) else None, 4)
        if problem:
            return Outcome(False, f"200 but {problem}", observed, ex)
    if not healthy:
        return Outcome(False, f"/health answered {health_ex.status or health_ex.error} after this request",
                       observed, health_ex)
    how = f" ({env.shape} envelope: {truncate(env.message, 120)})" if env else ""
    return Outcome(True, f"{ex.status} as expected{how}; /health 200 after", observed)


def precheck_attempt_outcome(chars: int, ex: Exchange, healthy: bool, health_ex: Exchange,
                             observed: dict[str, Any]) -> Outcome | None:
    """The verdict after one over-long prompt of ``chars`` characters; None: try a longer one."""
    env = ex.envelope()
    if ex.status != 400:
        return Outcome(False, f"a {chars}-character prompt answered {ex.status or ex.error}, expected 400",
                       observed, ex)
    if not healthy:
        return Outcome(False, f"/health answered {health_ex.status or health_ex.error} after a {chars}-"
                              "character prompt", observed, health_ex)
    if env is not None and (env.param == "input_text" or "characters" in env.message):
        return Outcome(True, f"400 from the character pre-check at {chars} characters; /health 200 after", observed)
    return None


def precheck_not_reached_outcome(tried: list[dict[str, Any]], last_env: ErrorEnvelope | None) -> Outcome:
    return Outcome(True, f"400 at every length up to {tried[-1]['chars']} characters, from the token limit "
                         f"({last_env.param if last_env else '?'}): this tokenizer's longest token is longer than "
                         "the lengths tried, so the pre-check itself was not reached; /health 200 after",
                   {"attempts": tried, "precheck_reached": False})


# ------------------------------------------------------------------------------------------- load


@dataclass
class LoadRun:
    """What the concurrency run saw: every request, the first failures, the memory series (monotonic s)."""

    in_tokens: int
    out_tokens: int
    duration_s: float
    run_start: float
    deadline: float
    max_errors: int
    run_end: float = 0.0
    records: list[StreamRecord] = field(default_factory=list)
    failures: list[StreamRecord] = field(default_factory=list)
    failure_exchanges: list[Exchange] = field(default_factory=list)  # the first three, for the report
    series: dict[str, list[list[float]]] = field(default_factory=dict)


def load_metrics(cfg: AcceptanceConfig, run: LoadRun) -> dict[str, Any]:
    """The concurrency section of the results: summary, growth and degradation tests, series, samples."""
    summary = load_summary(run.records, run.run_start, run.run_end)
    scale = cfg.max_memory_growth_per_min / DEFAULT_RSS_LIMIT_PER_MIN
    latencies = [r.latency for r in run.records if r.ok]
    lifetime = percentile(latencies, 50) if latencies else math.inf
    growth = {name: memory_growth(list(run.series[name]), rule, run_start=run.run_start,
                                  run_end=run.deadline, warmup_fraction=cfg.warmup_fraction, limit_scale=scale,
                                  request_lifetime_s=lifetime)
              for name, rule in GROWTH_RULES.items() if name in run.series}
    freed = kv_cache_freed(run.series.get("kv_cache_usage", []), run.series.get("requests_running", []),
                           GROWTH_RULES["kv_cache_usage"], run_start=run.run_start, run_end=run.run_end)
    if freed is not None:
        growth["kv_cache_usage"] = freed
    degradation = latency_degradation(run.records, run_start=run.run_start, run_end=run.deadline,
                                      warmup_fraction=cfg.warmup_fraction, max_ratio=cfg.max_latency_degradation)
    good = [r for r in run.records if r.ok]
    return {
        **summary,
        "concurrency": cfg.concurrency, "duration_s": run.duration_s, "prompt_tokens_per_request": run.in_tokens,
        "output_tokens_per_request": run.out_tokens, "memory_growth": growth, "latency_degradation": degradation,
        "series": {
            "throughput": throughput_series(run.records, run.run_start, run.run_end),
            "memory": {name: [[round(t - run.run_start, 3), v] for t, v in points]
                       for name, points in run.series.items()},
        },
        "samples": {
            "ttft_ms": sample_values([r.ttft * 1000 for r in good if r.ttft is not None]),
            "itl_ms": sample_values([x * 1000 for r in good for x in r.inter_token_latencies()]),
            "latency_ms": sample_values([r.latency * 1000 for r in good]),
            "start_s": sample_values([r.start - run.run_start for r in good]),
        },
    }


def concurrency_outcome(cfg: AcceptanceConfig, run: LoadRun, metrics: Mapping[str, Any]) -> Outcome:
    """Passed when every request completed, enough did, memory stayed flat and latency steady."""
    problems = []
    if metrics["errors"]:
        stopped = " (run stopped early)" if len(run.failures) >= run.max_errors else ""
        problems.append(f"{metrics['errors']} of {metrics['requests']} requests failed{stopped} "
                        f"(first: {run.failures[0].error})")
    if metrics["completed"] < cfg.concurrency:
        problems.append(f"only {metrics['completed']} requests completed with {cfg.concurrency} streams: "
                        "raise duration_s or look at the server")
    growth, degradation = metrics["memory_growth"], metrics["latency_degradation"]
    problems += [g["detail"] for g in growth.values() if not g["passed"]]
    if not degradation["passed"]:
        problems.append(degradation["detail"])
    observed = {k: metrics[k] for k in ("requests", "completed", "errors", "request_rate", "output_tokens_per_s")}
    observed.update(ttft_p50_ms=metrics["ttft_ms"]["p50"], itl_p50_ms=metrics["itl_ms"]["p50"])
    if problems:
        return Outcome(False, "; ".join(problems), observed,
                       run.failure_exchanges[0] if run.failure_exchanges else None)
    return Outcome(True, f"{metrics['completed']} requests at {cfg.concurrency} streams in {run.duration_s:.0f} s: "
                         f"{metrics['request_rate']:.2f} req/s, {metrics['output_tokens_per_s']:.1f} output tok/s, "
                         f"TTFT p50 {metrics['ttft_ms']['p50']:.1f} ms, ITL p50 {metrics['itl_ms']['p50']:.2f} ms; "
                         f"memory steady ({', '.join(growth) or 'no series'}), latency steady", observed)


# ----------------------------------------------------------------------------------------- results


def check_result(spec: CheckSpec, outcome: Outcome, secrets: list[str], duration_s: float) -> CheckResult:
    """The recorded result of one check; a failed one keeps its request and response, secrets scrubbed."""
    status = "skipped" if outcome.passed is None else ("passed" if outcome.passed else "failed")
    result = CheckResult(spec.name, spec.group, status, scrub(outcome.detail, secrets), spec.expectation,
                         round(duration_s, 3), outcome.observed)
    if status == "failed" and outcome.exchange is not None:
        result.request = outcome.exchange.request_record(secrets)
        result.response = outcome.exchange.response_record(secrets)
    return result


def suite_results(cfg: AcceptanceConfig, results: Mapping[str, CheckResult], *, started_at: str, duration_s: float,
                  server: dict[str, Any], metrics: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    """The results document of one run: verdict, message, every check, metrics and the settings used."""
    accepted, failed = suite_verdict(results.values())
    checks = {name: r.to_dict() for name, r in results.items()}
    return {
        "passed": accepted,
        "failed_checks": failed,
        "msg": rejection_message(checks, failed),
        "profile": cfg.profile,
        "base_url": cfg.base_url,
        "served_model_name": cfg.served_model_name,
        "started_at": started_at,
        "suite_duration_s": round(duration_s, 3),
        "server": server,
        "checks": checks,
        "metrics": metrics,
        "notes": notes,
        "settings": {
            "max_model_len": cfg.max_model_len, "max_output_tokens": cfg.max_output_tokens,
            "concurrency": cfg.concurrency, "duration_s": cfg.effective_duration_s,
            "expect_api_key": cfg.expect_api_key, "warmup_fraction": cfg.warmup_fraction,
            "max_memory_growth_per_min": cfg.max_memory_growth_per_min,
            "max_latency_degradation": cfg.max_latency_degradation,
        },
    }


def summary_line(results: Mapping[str, Any]) -> str:
    checks = results.get("checks", {})
    counts = {s: sum(1 for c in checks.values() if c["status"] == s) for s in ("passed", "failed", "skipped")}
    return (f"{'ACCEPTED' if results.get('passed') else 'REJECTED'}: {counts['passed']} passed, {counts['failed']} "
            f"failed, {counts['skipped']} skipped in {results.get('suite_duration_s')} s")
