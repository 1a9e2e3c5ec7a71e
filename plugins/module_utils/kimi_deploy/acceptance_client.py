"""Run the acceptance suite against a vLLM server with httpx's async client.

This is the only file of the package that imports a third-party library: it runs on the GPU host
under the release venv's python, where httpx is present because vLLM depends on it. The checks,
expectations and statistics live in ``acceptance.py``; this file sends the requests and times them.

It can also run on its own, which is how CI and the integration tests drive it under the vLLM venv:

    PYTHONPATH=plugins/module_utils KIMI_API_KEY=... \\
      /path/venv/bin/python -m kimi_deploy.acceptance_client --served-model-name tiny \\
      --max-model-len 512 --max-output-tokens 16 --concurrency 4 --profile quick \\
      --api-key-env KIMI_API_KEY --results-file /tmp/acceptance.json

Exit status: 0 accepted, 1 rejected (a check failed), 2 bad arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import importlib
import importlib.util
import itertools
import json
import os
import secrets
import sys
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import httpx
except ImportError:
    # Only the release venv has httpx (vLLM depends on it); the module says so with missing_required_lib.
    httpx = None
    HTTPX_IMPORT_ERROR: str | None = traceback.format_exc()
else:
    HTTPX_IMPORT_ERROR = None

from .acceptance import (
    GROWTH_RULES,
    AbnormalCase,
    AcceptanceConfig,
    CheckResult,
    CheckSpec,
    ErrorEnvelope,
    StreamRecord,
    abnormal_cases,
    cache_config_from_metrics,
    distribution,
    exact_token_prompt,
    filler_text,
    kv_tokens_from_metrics,
    latency_degradation,
    load_summary,
    memory_growth,
    metric_max,
    metric_total,
    names_context_limit,
    over_precheck_lengths,
    parse_error_envelope,
    parse_prometheus_text,
    profile_plan,
    rejection_message,
    sample_values,
    scrub,
    suite_verdict,
    throughput_series,
    token_id_prompt,
    truncate,
)
from .errors import KimiDeployError
from .files import write_json_atomic

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


def load_nvml() -> Any | None:
    """pynvml (nvidia-ml-py), else the copy vLLM vendors, loaded from its file so that vLLM itself
    is not imported; None on hosts without either."""
    try:
        return importlib.import_module("pynvml")
    except ImportError:
        pass
    spec = importlib.util.find_spec("vllm")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "third_party" / "pynvml.py"
    if not path.is_file():
        return None
    file_spec = importlib.util.spec_from_file_location("kimi_vendored_pynvml", path)
    module = importlib.util.module_from_spec(file_spec)
    try:
        file_spec.loader.exec_module(module)
    except Exception:  # a broken vendored copy only means no GPU samples
        return None
    return module


class GpuMemory:
    """Used GPU memory summed over the host's GPUs through NVML; ``available`` False without it."""

    def __init__(self, nvml: Any | None) -> None:
        self.nvml = nvml
        self.handles: list[Any] = []
        self.note = ""
        if nvml is None:
            self.note = "NVML not importable (no pynvml): GPU memory not sampled"
            return
        try:
            nvml.nvmlInit()
            self.handles = [nvml.nvmlDeviceGetHandleByIndex(i) for i in range(nvml.nvmlDeviceGetCount())]
        except Exception as err:  # NVML raises its own error classes; any of them means no GPU samples
            self.note = f"NVML did not start ({err}): GPU memory not sampled"
            self.handles = []
        if nvml is not None and not self.handles and not self.note:
            self.note = "NVML found no GPU: GPU memory not sampled"

    @property
    def available(self) -> bool:
        return bool(self.handles)

    def used_bytes(self) -> int | None:
        if not self.handles:
            return None
        return sum(int(self.nvml.nvmlDeviceGetMemoryInfo(h).used) for h in self.handles)

    def close(self) -> None:
        if self.handles:
            with contextlib.suppress(Exception):  # shutting NVML down cannot change a verdict
                self.nvml.nvmlShutdown()


def process_tree_rss(root_pid: int, proc_root: str | Path = "/proc") -> int | None:
    """RSS in bytes of ``root_pid`` and all its descendants (vLLM's API server, engine and workers)."""
    proc = Path(proc_root)
    children: dict[int, list[int]] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # Field 4 (ppid) follows the command name, which is in parentheses and may contain spaces.
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    if not (proc / str(root_pid)).exists():
        return None
    page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
    total, todo, seen = 0, [root_pid], set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            total += int((proc / str(pid) / "statm").read_text().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
        todo.extend(children.get(pid, []))
    return total


def _tokens_in_chunk(chunk: Mapping[str, Any]) -> int:
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


def wrong_key(real: str) -> str:
    """A fresh random key for the wrong-key check, never derived from the real one.

    The real key plus a suffix would send the real key over the wire (and into any proxy or access
    log) on a request meant to fail; a server comparing prefixes would even accept it.
    """
    while True:
        candidate = "kimi-wrong-" + secrets.token_urlsafe(24)
        if candidate != real and (not real or (real not in candidate and candidate not in real)):
            return candidate


class AcceptanceRunner:
    """One run of the suite; ``await AcceptanceRunner(config).run()`` returns the results dict."""

    def __init__(self, config: AcceptanceConfig, *, transport: httpx.AsyncBaseTransport | None = None,
                 nvml_loader: Callable[[], Any] = load_nvml, proc_root: str | Path = "/proc") -> None:
        config.validate()
        self.cfg = config
        self.secrets = [config.api_key] if config.api_key else []
        self.transport = transport
        self.nvml_loader = nvml_loader
        self.proc_root = proc_root
        self.client: httpx.AsyncClient | None = None
        self.results: dict[str, CheckResult] = {}
        self.metrics: dict[str, Any] = {"short": {}, "long": {}, "abnormal": {}}
        self.server: dict[str, Any] = {}
        self.notes: list[str] = []
        self._prompt_cache: dict[tuple[int, bool], str] = {}
        self._tokenize_calls = 0
        self._last_exchange: Exchange | None = None

    # ---------------------------------------------------------------------------------------- HTTP

    def _headers(self, auth: str = "key") -> dict[str, str]:
        if auth == "key" and self.cfg.api_key:
            return {"Authorization": f"Bearer {self.cfg.api_key}"}
        if auth == "wrong":
            return {"Authorization": f"Bearer {wrong_key(self.cfg.api_key)}"}
        return {}

    async def _send(self, method: str, path: str, *, json_body: Any = None, raw: bytes | None = None,
                    auth: str = "key") -> Exchange:
        content = raw if raw is not None else (None if json_body is None else json.dumps(json_body).encode())
        headers = self._headers(auth)
        if content is not None:
            headers["Content-Type"] = "application/json"
        note = {"key": "Authorization: Bearer <redacted>", "none": "no Authorization header",
                "wrong": "Authorization: Bearer <a wrong key>"}[auth]
        preview = "" if content is None else truncate(content[:4096].decode("utf-8", "replace"))
        if content is not None and len(content) > 4096:
            preview = truncate(preview, 1000) + f"... [{len(content)} bytes in all]"
        ex = Exchange(method, path, preview, headers_note=note)
        start = time.monotonic()
        try:
            resp = await self.client.request(method, path, content=content, headers=headers)
            ex.status = resp.status_code
            ex.response = resp.text
        except httpx.HTTPError as err:
            ex.error = f"{type(err).__name__}: {err}"
        ex.elapsed_s = time.monotonic() - start
        self._last_exchange = ex
        return ex

    async def _healthy(self) -> tuple[bool, Exchange]:
        ex = await self._send("GET", "/health")
        return ex.status == 200, ex

    async def _stream(self, path: str, body: dict[str, Any]) -> tuple[StreamRecord, Exchange]:
        content = json.dumps(body).encode()
        headers = {**self._headers(), "Content-Type": "application/json"}
        ex = Exchange("POST", path, truncate(content.decode("utf-8", "replace")))
        rec = StreamRecord(start=time.monotonic())
        kept_lines: list[str] = []
        try:
            async with self.client.stream("POST", path, content=content, headers=headers) as resp:
                rec.status = ex.status = resp.status_code
                if resp.status_code != 200:
                    ex.response = (await resp.aread()).decode("utf-8", "replace")
                    rec.error = f"HTTP {resp.status_code}"
                else:
                    async for line in resp.aiter_lines():
                        now = time.monotonic()
                        if not line.startswith("data:"):
                            continue
                        data = line[5:].strip()
                        chunk = None if data == "[DONE]" else json.loads(data)
                        # Keep the first events and every telling one (usage, error, [DONE]) for the record.
                        if len(kept_lines) < 3 or chunk is None or "error" in chunk or chunk.get("usage"):
                            kept_lines.append(line)
                        if chunk is None:
                            rec.done = True
                            continue
                        if "error" in chunk:  # vLLM reports a failure after the 200 as an SSE event
                            env = parse_error_envelope(chunk)
                            rec.error = f"error event in the stream: {env.message if env else data}"
                            continue
                        usage = chunk.get("usage")
                        if usage:
                            rec.prompt_tokens = usage.get("prompt_tokens")
                            rec.completion_tokens = usage.get("completion_tokens")
                        n = _tokens_in_chunk(chunk)
                        if n:
                            rec.chunk_times.append(now)
                            rec.chunk_tokens.append(n)
                    if not rec.done and rec.error is None:
                        rec.error = "the stream ended without data: [DONE]"
                    ex.response = "\n".join(kept_lines)
        except (httpx.HTTPError, ValueError) as err:
            rec.error = f"{type(err).__name__}: {err}"
            ex.error = rec.error
        rec.end = time.monotonic()
        ex.elapsed_s = rec.end - rec.start
        self._last_exchange = ex
        return rec, ex

    # ------------------------------------------------------------------------------------ prompts

    async def _count_tokens(self, text: str, chat: bool, add_special_tokens: bool = True) -> tuple[int, list[int]]:
        body: dict[str, Any] = {"model": self.cfg.served_model_name}
        if chat:
            body["messages"] = [{"role": "user", "content": text}]
        else:
            body["prompt"] = text
            body["add_special_tokens"] = add_special_tokens
        ex = await self._send("POST", "/tokenize", json_body=body)
        self._tokenize_calls += 1
        data = ex.json()
        if ex.status != 200 or not isinstance(data, dict) or "count" not in data:
            raise CheckFailed(f"/tokenize answered {ex.status or ex.error} instead of a token count: cannot build "
                              "prompts of an exact length", ex)
        return int(data["count"]), list(data.get("tokens") or [])

    async def _exact_text(self, target: int, chat: bool) -> str:
        """Text (or chat content) the server counts as exactly ``target`` tokens."""
        key = (target, chat)
        if key not in self._prompt_cache:
            search = exact_token_prompt(target)
            candidate = next(search)
            while True:
                count, _unused = await self._count_tokens(candidate, chat)
                try:
                    candidate = search.send(count)
                except StopIteration as stop:
                    self._prompt_cache[key] = stop.value
                    break
        return self._prompt_cache[key]

    async def _seed_token_ids(self) -> list[int]:
        _unused, ids = await self._count_tokens(filler_text(64), chat=False, add_special_tokens=False)
        return ids

    # ------------------------------------------------------------------------------------- driver

    async def run(self) -> dict[str, Any]:
        started_at = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        t0 = time.monotonic()
        limits = httpx.Limits(max_connections=self.cfg.concurrency + 8,
                              max_keepalive_connections=self.cfg.concurrency + 8)
        timeout = httpx.Timeout(self.cfg.request_timeout_s, connect=30.0)
        async with httpx.AsyncClient(base_url=self.cfg.base_url, timeout=timeout, limits=limits,
                                     transport=self.transport) as client:
            self.client = client
            healthy_at_start = True
            for spec, skip_reason in profile_plan(self.cfg.profile):
                if skip_reason:
                    self.results[spec.name] = CheckResult(spec.name, spec.group, "skipped",
                                                          f"skipped by profile {self.cfg.profile}: {skip_reason}",
                                                          spec.expectation)
                    continue
                if not healthy_at_start:
                    self.results[spec.name] = CheckResult(spec.name, spec.group, "failed",
                                                          "not run: the server did not answer /health at the start",
                                                          spec.expectation)
                    continue
                await self._run_check(spec)
                if spec.name == "health" and self.results["health"].status == "failed":
                    healthy_at_start = False
                    continue
                if spec.name == "health":
                    await self._read_server_info()
        accepted, failed = suite_verdict(self.results.values())
        checks = {name: r.to_dict() for name, r in self.results.items()}
        return {
            "passed": accepted,
            "failed_checks": failed,
            "msg": rejection_message(checks, failed),
            "profile": self.cfg.profile,
            "base_url": self.cfg.base_url,
            "served_model_name": self.cfg.served_model_name,
            "started_at": started_at,
            "suite_duration_s": round(time.monotonic() - t0, 3),
            "server": self.server,
            "checks": checks,
            "metrics": self.metrics,
            "notes": self.notes,
            "settings": {
                "max_model_len": self.cfg.max_model_len, "max_output_tokens": self.cfg.max_output_tokens,
                "concurrency": self.cfg.concurrency, "duration_s": self.cfg.effective_duration_s,
                "expect_api_key": self.cfg.expect_api_key, "warmup_fraction": self.cfg.warmup_fraction,
                "max_memory_growth_per_min": self.cfg.max_memory_growth_per_min,
                "max_latency_degradation": self.cfg.max_latency_degradation,
            },
        }

    async def _run_check(self, spec: CheckSpec) -> None:
        method = getattr(self, f"_check_{spec.name}", None)
        case = self._abnormal_case(spec.name)
        start = time.monotonic()
        self._last_exchange = None
        try:
            if spec.name == "abnormal_over_char_precheck":
                outcome = await self._check_over_char_precheck()
            elif case is not None:
                outcome = await self._check_abnormal(case)
            elif method is not None:
                outcome = await method()
            else:  # pragma: no cover - every catalogue entry has a method; a test asserts it
                raise KimiDeployError(f"no implementation for check {spec.name}")
        except CheckFailed as err:
            outcome = Outcome(False, str(err), err.observed, err.exchange or self._last_exchange)
        except Exception as err:  # an answer the check did not foresee fails that check, not the whole suite
            outcome = Outcome(False, f"{type(err).__name__}: {err}", exchange=self._last_exchange)
        status = "skipped" if outcome.passed is None else ("passed" if outcome.passed else "failed")
        result = CheckResult(spec.name, spec.group, status, scrub(outcome.detail, self.secrets), spec.expectation,
                             round(time.monotonic() - start, 3), outcome.observed)
        if status == "failed" and outcome.exchange is not None:
            result.request = outcome.exchange.request_record(self.secrets)
            result.response = outcome.exchange.response_record(self.secrets)
        self.results[spec.name] = result

    def _abnormal_case(self, name: str) -> AbnormalCase | None:
        if not hasattr(self, "_cases"):
            self._cases = {c.check_name: c for c in abnormal_cases(self.cfg.served_model_name, self.cfg.max_model_len)}
        return self._cases.get(name)

    async def _read_server_info(self) -> None:
        version = await self._send("GET", "/version")
        data = version.json()
        if isinstance(data, dict):
            self.server["vllm_version"] = data.get("version")
        metrics = await self._send("GET", "/metrics")
        if metrics.status == 200:
            samples = parse_prometheus_text(metrics.response)
            self.server["kv_cache_size_tokens"] = kv_tokens_from_metrics(samples)
            self.server["cache_config"] = cache_config_from_metrics(samples)
        else:
            self.notes.append(f"/metrics answered {metrics.status}: KV tokens and memory not read from it")

    # ------------------------------------------------------------------------------- server, auth

    async def _check_health(self) -> Outcome:
        ok, ex = await self._healthy()
        return Outcome(ok, "GET /health answered 200" if ok else f"GET /health answered {ex.status or ex.error}",
                       {"elapsed_ms": round(ex.elapsed_s * 1000, 2)}, ex)

    async def _check_models(self) -> Outcome:
        ex = await self._send("GET", "/v1/models")
        data = ex.json()
        if ex.status != 200 or not isinstance(data, dict):
            return Outcome(False, f"GET /v1/models answered {ex.status or ex.error}", exchange=ex)
        entries = {m.get("id"): m for m in data.get("data", []) if isinstance(m, dict)}
        observed = {"model_ids": sorted(str(k) for k in entries)}
        entry = entries.get(self.cfg.served_model_name)
        if entry is None:
            return Outcome(False, f"the server does not serve {self.cfg.served_model_name!r}, it serves "
                                  f"{observed['model_ids']}: fix served_model_name or the unit's --served-model-name",
                           observed, ex)
        served_len = entry.get("max_model_len")
        observed["max_model_len"] = served_len
        self.server["max_model_len"] = served_len
        if served_len is not None and int(served_len) != self.cfg.max_model_len:
            return Outcome(False, f"the server runs max_model_len={served_len} but the plan expects "
                                  f"{self.cfg.max_model_len}: the release was not started with the planned "
                                  "settings", observed, ex)
        return Outcome(True, f"serves {self.cfg.served_model_name!r} with max_model_len={served_len}", observed)

    async def _api_key_check(self, auth: str, what: str) -> Outcome:
        if not self.cfg.expect_api_key:
            return Outcome(None, "skipped: expect_api_key is false (the deploy sets no API key)")
        body = {"model": self.cfg.served_model_name, "messages": [{"role": "user", "content": "hi"}], "max_tokens": 1}
        observed = {}
        for method, path, payload in (("POST", "/v1/chat/completions", body), ("GET", "/v1/models", None)):
            ex = await self._send(method, path, json_body=payload, auth=auth)
            observed[f"{method} {path}"] = ex.status
            if ex.status != 401:
                return Outcome(False, f"{method} {path} with {what} answered {ex.status or ex.error}, not 401: the "
                                      "endpoint is open; start vLLM with --api-key", observed, ex)
        return Outcome(True, f"{what}: 401 on /v1/chat/completions and /v1/models", observed)

    async def _check_api_key_missing(self) -> Outcome:
        return await self._api_key_check("none", "no API key")

    async def _check_api_key_wrong(self) -> Outcome:
        return await self._api_key_check("wrong", "a wrong API key")

    # -------------------------------------------------------------------------------------- short

    def _short_body(self, chat: bool, stream: bool) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.cfg.served_model_name, "max_tokens": self.cfg.short_output_tokens}
        if chat:
            body["messages"] = [{"role": "user", "content": SHORT_PROMPT}]
        else:
            body["prompt"] = SHORT_PROMPT
        if stream:
            body.update(stream=True, stream_options={"include_usage": True}, return_token_ids=True)
        return body

    def _usage_problem(self, usage: Any, max_completion: int) -> str | None:
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

    async def _short(self, chat: bool) -> Outcome:
        path = "/v1/chat/completions" if chat else "/v1/completions"
        ex = await self._send("POST", path, json_body=self._short_body(chat, stream=False))
        data = ex.json()
        if ex.status != 200 or not isinstance(data, dict):
            return Outcome(False, f"{path} answered {ex.status or ex.error}", exchange=ex)
        choices = data.get("choices") or []
        text = None
        if choices:
            text = (choices[0].get("message") or {}).get("content") if chat else choices[0].get("text")
        if not isinstance(text, str):
            return Outcome(False, f"{path} answered 200 without generated text", exchange=ex)
        problem = self._usage_problem(data.get("usage"), self.cfg.short_output_tokens)
        observed = {"latency_ms": round(ex.elapsed_s * 1000, 2), "usage": data.get("usage"),
                    "finish_reason": choices[0].get("finish_reason")}
        self.metrics["short"][("chat" if chat else "completion")] = observed
        if problem:
            return Outcome(False, f"{path}: {problem}", observed, ex)
        return Outcome(True, f"200 in {observed['latency_ms']} ms, usage {data['usage']}", observed)

    async def _short_stream(self, chat: bool) -> Outcome:
        path = "/v1/chat/completions" if chat else "/v1/completions"
        rec, ex = await self._stream(path, self._short_body(chat, stream=True))
        usage = {"prompt_tokens": rec.prompt_tokens, "completion_tokens": rec.completion_tokens,
                 "total_tokens": None if rec.prompt_tokens is None or rec.completion_tokens is None
                 else rec.prompt_tokens + rec.completion_tokens}
        observed = {"ttft_ms": None if rec.ttft is None else round(rec.ttft * 1000, 2),
                    "latency_ms": round(rec.latency * 1000, 2), "chunks": len(rec.chunk_times),
                    "streamed_tokens": sum(rec.chunk_tokens), "usage": usage, "done": rec.done,
                    "itl_ms": distribution(rec.inter_token_latencies(), 1000.0)}
        self.metrics["short"][("chat_stream" if chat else "completion_stream")] = observed
        if not rec.ok:
            return Outcome(False, f"stream {path}: {rec.error or 'no token chunk'}", observed, ex)
        problem = self._usage_problem(usage, self.cfg.short_output_tokens)
        if problem is None and sum(rec.chunk_tokens) != rec.completion_tokens:
            problem = f"{sum(rec.chunk_tokens)} tokens streamed but usage says {rec.completion_tokens}"
        if problem:
            return Outcome(False, f"stream {path}: {problem}", observed, ex)
        return Outcome(True, f"TTFT {observed['ttft_ms']} ms, {len(rec.chunk_times)} chunks, "
                             f"{rec.completion_tokens} tokens, [DONE] seen", observed)

    async def _check_short_chat(self) -> Outcome:
        return await self._short(chat=True)

    async def _check_short_completion(self) -> Outcome:
        return await self._short(chat=False)

    async def _check_short_chat_stream(self) -> Outcome:
        return await self._short_stream(chat=True)

    async def _check_short_completion_stream(self) -> Outcome:
        return await self._short_stream(chat=False)

    # --------------------------------------------------------------------------------------- long

    async def _long_accepted(self, kind: str) -> Outcome:
        n, out = self.cfg.long_input_tokens, self.cfg.max_output_tokens
        model = self.cfg.served_model_name
        calls_before = self._tokenize_calls
        if kind == "text":
            path = "/v1/completions"
            # ignore_eos: generate all max_output tokens, so the sequence really reaches max_model_len.
            body = {"model": model, "prompt": await self._exact_text(n, chat=False), "max_tokens": out,
                    "ignore_eos": True, "temperature": 0}
        elif kind == "token_ids":
            path = "/v1/completions"
            body = {"model": model, "prompt": token_id_prompt(await self._seed_token_ids(), n), "max_tokens": out}
        else:
            path = "/v1/chat/completions"
            body = {"model": model, "messages": [{"role": "user", "content": await self._exact_text(n, chat=True)}],
                    "max_tokens": out}
        ex = await self._send("POST", path, json_body=body)
        data = ex.json()
        usage = data.get("usage") if isinstance(data, dict) else None
        observed = {"prompt_tokens_sent": n, "max_tokens": out, "latency_ms": round(ex.elapsed_s * 1000, 2),
                    "usage": usage, "tokenize_calls": self._tokenize_calls - calls_before}
        self.metrics["long"][kind] = observed
        if ex.status != 200:
            env = ex.envelope()
            hint = (f": the server refuses {n} + {out} tokens, so it does not hold the planned max_model_len="
                    f"{self.cfg.max_model_len}" if names_context_limit(env) else "")
            return Outcome(False, f"{path} with a {n}-token prompt answered {ex.status or ex.error}{hint}",
                           observed, ex)
        if not isinstance(usage, dict) or usage.get("prompt_tokens") != n:
            return Outcome(False, f"usage.prompt_tokens is {None if not usage else usage.get('prompt_tokens')}, "
                                  f"the prompt has {n} tokens by /tokenize", observed, ex)
        completion = usage.get("completion_tokens")
        if kind == "text" and completion != out:
            return Outcome(False, f"{completion} tokens generated with ignore_eos, expected {out}: the sequence "
                                  f"did not reach max_model_len={self.cfg.max_model_len}", observed, ex)
        if not isinstance(completion, int) or not 1 <= completion <= out:
            return Outcome(False, f"usage.completion_tokens is {completion!r}, expected 1..{out}", observed, ex)
        return Outcome(True, f"200, prompt {n} tokens as counted, {completion} generated, "
                             f"{observed['latency_ms']} ms", observed)

    async def _over_limit(self, kind: str) -> Outcome:
        n = self.cfg.max_model_len + 1
        model = self.cfg.served_model_name
        out = self.cfg.max_output_tokens
        if kind == "text":
            path, body = "/v1/completions", {"model": model, "prompt": await self._exact_text(n, chat=False),
                                             "max_tokens": out}
        elif kind == "token_ids":
            path, body = "/v1/completions", {"model": model, "prompt": token_id_prompt(await self._seed_token_ids(), n),
                                             "max_tokens": out}
        else:
            path, body = "/v1/chat/completions", {
                "model": model, "messages": [{"role": "user", "content": await self._exact_text(n, chat=True)}],
                "max_tokens": out}
        ex = await self._send("POST", path, json_body=body)
        env = ex.envelope()
        healthy, health_ex = await self._healthy()
        observed = {"prompt_tokens_sent": n, "status": ex.status, "healthy_after": healthy,
                    "error": None if env is None else {"message": truncate(env.message, 300), "param": env.param,
                                                       "type": env.type, "shape": env.shape}}
        self.metrics["long"][f"over_{kind}"] = observed
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

    async def _check_long_input_text(self) -> Outcome:
        return await self._long_accepted("text")

    async def _check_long_input_token_ids(self) -> Outcome:
        return await self._long_accepted("token_ids")

    async def _check_long_input_chat(self) -> Outcome:
        return await self._long_accepted("chat")

    async def _check_over_limit_text(self) -> Outcome:
        return await self._over_limit("text")

    async def _check_over_limit_token_ids(self) -> Outcome:
        return await self._over_limit("token_ids")

    async def _check_over_limit_chat(self) -> Outcome:
        return await self._over_limit("chat")

    # ----------------------------------------------------------------------------------- abnormal

    async def _check_abnormal(self, case: AbnormalCase) -> Outcome:
        ex = await self._send("POST", case.path, json_body=case.json_body, raw=case.raw_body)
        healthy, health_ex = await self._healthy()
        env = ex.envelope() if ex.status >= 400 else None
        observed: dict[str, Any] = {"status": ex.status, "expected": sorted(case.expected_status),
                                    "healthy_after": healthy}
        if env is not None:
            observed["error"] = {"message": truncate(env.message, 300), "type": env.type, "param": env.param,
                                 "shape": env.shape}
        self.metrics["abnormal"][case.name] = {"status": ex.status, "elapsed_ms": round(ex.elapsed_s * 1000, 2)}
        expected = "/".join(str(s) for s in sorted(case.expected_status))
        if ex.status not in case.expected_status:
            return Outcome(False, f"answered {ex.status or ex.error}, expected {expected}", observed, ex)
        if ex.status >= 400 and (env is None or not env.message):
            return Outcome(False, f"{ex.status} without a readable error message", observed, ex)
        if case.expect_usage:
            data = ex.json()
            problem = self._usage_problem(data.get("usage") if isinstance(data, dict) else None, 4)
            if problem:
                return Outcome(False, f"200 but {problem}", observed, ex)
        if not healthy:
            return Outcome(False, f"/health answered {health_ex.status or health_ex.error} after this request",
                           observed, health_ex)
        how = f" ({env.shape} envelope: {truncate(env.message, 120)})" if env else ""
        return Outcome(True, f"{ex.status} as expected{how}; /health 200 after", observed)

    async def _check_over_char_precheck(self) -> Outcome:
        unit = filler_text(256) + " "
        tried = []
        last_env: ErrorEnvelope | None = None
        for chars in over_precheck_lengths(self.cfg.max_model_len):
            text = (unit * (chars // len(unit) + 1))[:chars]
            ex = await self._send("POST", "/v1/completions",
                                  json_body={"model": self.cfg.served_model_name, "prompt": text, "max_tokens": 4})
            healthy, health_ex = await self._healthy()
            env = ex.envelope()
            tried.append({"chars": chars, "status": ex.status, "param": env.param if env else None})
            observed = {"attempts": tried, "healthy_after": healthy}
            self.metrics["abnormal"]["over_char_precheck"] = observed
            if ex.status != 400:
                return Outcome(False, f"a {chars}-character prompt answered {ex.status or ex.error}, expected 400",
                               observed, ex)
            if not healthy:
                return Outcome(False, f"/health answered {health_ex.status or health_ex.error} after a {chars}-"
                                      "character prompt", observed, health_ex)
            if env is not None and (env.param == "input_text" or "characters" in env.message):
                return Outcome(True, f"400 from the character pre-check at {chars} characters; /health 200 after",
                               observed)
            last_env = env
        return Outcome(True, f"400 at every length up to {tried[-1]['chars']} characters, from the token limit "
                             f"({last_env.param if last_env else '?'}): this tokenizer's longest token is longer than "
                             "the lengths tried, so the pre-check itself was not reached; /health 200 after",
                       {"attempts": tried, "precheck_reached": False})

    # --------------------------------------------------------------------------------------- load

    async def _sample(self, series: dict[str, list[list[float]]], gpu: GpuMemory) -> None:
        now = time.monotonic()
        ex = await self._send("GET", "/metrics")
        if ex.status == 200:
            samples = parse_prometheus_text(ex.response)
            for name, value in (("kv_cache_usage", metric_max(samples, "vllm:kv_cache_usage_perc")),
                                ("api_rss_bytes", metric_total(samples, "process_resident_memory_bytes")),
                                ("requests_running", metric_total(samples, "vllm:num_requests_running")),
                                ("requests_waiting", metric_total(samples, "vllm:num_requests_waiting"))):
                if value is not None:
                    series.setdefault(name, []).append([now, value])
        if self.cfg.server_pid:
            rss = process_tree_rss(self.cfg.server_pid, self.proc_root)
            if rss is not None:
                series.setdefault("server_rss_bytes", []).append([now, float(rss)])
        if gpu.available:
            used = gpu.used_bytes()
            if used is not None:
                series.setdefault("gpu_memory_used_bytes", []).append([now, float(used)])

    async def _check_concurrency(self) -> Outcome:
        cfg = self.cfg
        overhead, _unused = await self._count_tokens("", chat=True)
        in_tokens, out_tokens = cfg.load_shape(overhead)
        text = await self._exact_text(in_tokens, chat=True)
        gpu = GpuMemory(self.nvml_loader())
        if gpu.note:
            self.notes.append(gpu.note)
        records: list[StreamRecord] = []
        failures: list[Exchange] = []
        failures_all: list[StreamRecord] = []
        series: dict[str, list[list[float]]] = {}
        counter = itertools.count()
        stop = asyncio.Event()
        duration = cfg.effective_duration_s
        run_start = time.monotonic()
        deadline = run_start + duration

        # A server that fails request after request will not recover within the run: stop early.
        max_errors = max(5, cfg.concurrency)

        async def worker() -> None:
            while time.monotonic() < deadline and len(failures_all) < max_errors:
                i = next(counter)
                body = {"model": cfg.served_model_name, "max_tokens": out_tokens, "ignore_eos": True,
                        "messages": [{"role": "user", "content": f"[{i}] {text}"}], "stream": True,
                        "stream_options": {"include_usage": True}, "return_token_ids": True}
                rec, ex = await self._stream("/v1/chat/completions", body)
                records.append(rec)
                if not rec.ok:
                    failures_all.append(rec)
                    if len(failures) < 3:
                        failures.append(ex)

        async def sampler() -> None:
            while not stop.is_set():
                await self._sample(series, gpu)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(stop.wait(), cfg.sample_interval_s)

        sampler_task = asyncio.create_task(sampler())
        try:
            await asyncio.gather(*(worker() for _unused in range(cfg.concurrency)))
        finally:
            run_end = time.monotonic()
            stop.set()
            await sampler_task
            gpu.close()
        summary = load_summary(records, run_start, run_end)
        scale = cfg.max_memory_growth_per_min / DEFAULT_RSS_LIMIT_PER_MIN
        growth = {name: memory_growth(list(series[name]), rule, run_start=run_start,
                                      run_end=deadline, warmup_fraction=cfg.warmup_fraction, limit_scale=scale)
                  for name, rule in GROWTH_RULES.items() if name in series}
        degradation = latency_degradation(records, run_start=run_start, run_end=deadline,
                                          warmup_fraction=cfg.warmup_fraction, max_ratio=cfg.max_latency_degradation)
        good = [r for r in records if r.ok]
        self.metrics["concurrency"] = {
            **summary,
            "concurrency": cfg.concurrency, "duration_s": duration, "prompt_tokens_per_request": in_tokens,
            "output_tokens_per_request": out_tokens, "memory_growth": growth, "latency_degradation": degradation,
            "series": {
                "throughput": throughput_series(records, run_start, run_end),
                "memory": {name: [[round(t - run_start, 3), v] for t, v in points] for name, points in series.items()},
            },
            "samples": {
                "ttft_ms": sample_values([r.ttft * 1000 for r in good if r.ttft is not None]),
                "itl_ms": sample_values([x * 1000 for r in good for x in r.inter_token_latencies()]),
                "latency_ms": sample_values([r.latency * 1000 for r in good]),
                "start_s": sample_values([r.start - run_start for r in good]),
            },
        }
        problems = []
        if summary["errors"]:
            stopped = " (run stopped early)" if len(failures_all) >= max_errors else ""
            problems.append(f"{summary['errors']} of {summary['requests']} requests failed{stopped} "
                            f"(first: {failures_all[0].error})")
        if summary["completed"] < cfg.concurrency:
            problems.append(f"only {summary['completed']} requests completed with {cfg.concurrency} streams: "
                            "raise duration_s or look at the server")
        problems += [g["detail"] for g in growth.values() if not g["passed"]]
        if not degradation["passed"]:
            problems.append(degradation["detail"])
        observed = {k: summary[k] for k in ("requests", "completed", "errors", "request_rate", "output_tokens_per_s")}
        observed.update(ttft_p50_ms=summary["ttft_ms"]["p50"], itl_p50_ms=summary["itl_ms"]["p50"])
        if problems:
            return Outcome(False, "; ".join(problems), observed, failures[0] if failures else None)
        return Outcome(True, f"{summary['completed']} requests at {cfg.concurrency} streams in {duration:.0f} s: "
                             f"{summary['request_rate']:.2f} req/s, {summary['output_tokens_per_s']:.1f} output tok/s, "
                             f"TTFT p50 {summary['ttft_ms']['p50']:.1f} ms, ITL p50 {summary['itl_ms']['p50']:.2f} ms; "
                             f"memory steady ({', '.join(growth) or 'no series'}), latency steady", observed)


# ------------------------------------------------------------------------------------------- API


def run_acceptance(config: AcceptanceConfig, **kwargs: Any) -> dict[str, Any]:
    """Run the suite to the end and return its results (see ``AcceptanceRunner.run``)."""
    return asyncio.run(AcceptanceRunner(config, **kwargs).run())


def write_results(path: str | Path, results: Mapping[str, Any]) -> None:
    """Write the results JSON atomically (temp file + rename), readable by owner and group."""
    write_json_atomic(path, results, mode=0o640, indent=1)


def summary_line(results: Mapping[str, Any]) -> str:
    checks = results.get("checks", {})
    counts = {s: sum(1 for c in checks.values() if c["status"] == s) for s in ("passed", "failed", "skipped")}
    return (f"{'ACCEPTED' if results.get('passed') else 'REJECTED'}: {counts['passed']} passed, {counts['failed']} "
            f"failed, {counts['skipped']} skipped in {results.get('suite_duration_s')} s")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m kimi_deploy.acceptance_client",
                                description="Run the kimi-deploy acceptance suite against a vLLM server.")
    p.add_argument("--base-url", default="http://127.0.0.1:8000")
    p.add_argument("--served-model-name", required=True)
    p.add_argument("--max-model-len", type=int, required=True)
    p.add_argument("--max-output-tokens", type=int, required=True)
    p.add_argument("--concurrency", type=int, required=True)
    p.add_argument("--duration-s", type=float)
    p.add_argument("--profile", choices=["full", "quick"], default="full")
    p.add_argument("--api-key-env", default="", help="name of the environment variable holding the API key "
                                                     "(never put a key on the command line)")
    p.add_argument("--no-api-key", action="store_true", help="the server has no API key: skip the 401 checks")
    p.add_argument("--server-pid", type=int, help="PID of the vLLM API server, to sample its process tree RSS")
    p.add_argument("--sample-interval-s", type=float, default=2.0)
    p.add_argument("--load-input-tokens", type=int, default=512)
    p.add_argument("--load-output-tokens", type=int, default=128)
    p.add_argument("--request-timeout-s", type=float, default=600.0)
    p.add_argument("--results-file")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    config = AcceptanceConfig(
        served_model_name=args.served_model_name, max_model_len=args.max_model_len,
        max_output_tokens=args.max_output_tokens, concurrency=args.concurrency, base_url=args.base_url,
        api_key=os.environ.get(args.api_key_env, "") if args.api_key_env else "", expect_api_key=not args.no_api_key,
        profile=args.profile, duration_s=args.duration_s, server_pid=args.server_pid,
        sample_interval_s=args.sample_interval_s, load_input_tokens=args.load_input_tokens,
        load_output_tokens=args.load_output_tokens, request_timeout_s=args.request_timeout_s)
    try:
        config.validate()
        results = run_acceptance(config)
    except KimiDeployError as err:
        print(f"error: {err}", file=sys.stderr)  # pylint: disable=ansible-bad-function
        return 2
    if args.results_file:
        write_results(args.results_file, results)
    print(summary_line(results), file=sys.stderr)  # pylint: disable=ansible-bad-function
    if not results["passed"]:
        print(results["msg"], file=sys.stderr)  # pylint: disable=ansible-bad-function
    print(json.dumps({k: results[k] for k in ("passed", "failed_checks", "suite_duration_s", "server")}))  # pylint: disable=ansible-bad-function
    return 0 if results["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())  # pylint: disable=ansible-bad-function
