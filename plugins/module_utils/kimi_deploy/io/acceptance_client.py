"""Run the acceptance suite against a vLLM server: each check asks, then judges.

``AcceptanceRunner`` walks the catalogue of ``acceptance.py``; each check sends its requests through
``io/acceptance_http.py`` (httpx) or ``io/acceptance_load.py`` (the concurrency run) and hands the
answers to ``core/acceptance_checks.py``, which decides. httpx is present under the release venv's
python because vLLM depends on it.

It can also run on its own, which is how CI and the integration tests drive it under the vLLM venv:

    PYTHONPATH=plugins/module_utils KIMI_API_KEY=... \\
      /path/venv/bin/python -m kimi_deploy.io.acceptance_client --served-model-name tiny \\
      --max-model-len 512 --max-output-tokens 16 --concurrency 4 --profile quick \\
      --api-key-env KIMI_API_KEY --results-file /tmp/acceptance.json

Exit status: 0 accepted, 1 rejected (a check failed), 2 bad arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import sys
import time
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

try:
    import httpx
except ImportError:  # only the release venv has httpx (vLLM depends on it); kimi_vllm_acceptance says so
    httpx = None
    HTTPX_IMPORT_ERROR: str | None = traceback.format_exc()
else:
    HTTPX_IMPORT_ERROR = None

from ..core import acceptance_checks as judge
from ..core import acceptance_forms as forms_judge
from ..core import acceptance_routes as routes_judge
from ..core.acceptance import (
    AbnormalCase,
    AcceptanceConfig,
    CheckResult,
    CheckSpec,
    ErrorEnvelope,
    abnormal_cases,
    cache_config_from_metrics,
    filler_text,
    kv_tokens_from_metrics,
    over_precheck_lengths,
    parse_prometheus_text,
    profile_plan,
    token_id_prompt,
)
from ..core.acceptance_checks import CheckFailed, Outcome, summary_line
from ..core.acceptance_forms import FORM_CHECKS, FormsUnderTest
from ..core.errors import KimiDeployError
from ..core.files import write_json_atomic
from .acceptance_http import AcceptanceHttp, open_client, open_entry_client, source_address
from .acceptance_load import load_nvml, run_load

__all__ = ["AcceptanceRunner", "main", "probe_entry_routes", "run_acceptance", "summary_line", "write_results"]


class AcceptanceRunner:
    """One run of the suite; ``await AcceptanceRunner(config).run()`` returns the results dict."""

    def __init__(self, config: AcceptanceConfig, *, transport: httpx.AsyncBaseTransport | None = None,
                 nvml_loader: Callable[[], Any] = load_nvml, proc_root: str | Path = "/proc",
                 entry_transport: httpx.AsyncBaseTransport | None = None) -> None:
        config.validate()
        self.cfg = config
        self.secrets = [config.api_key] if config.api_key else []
        self.transport = transport
        self.entry_transport = entry_transport  # the front door's (tests); None: the network
        self.nvml_loader = nvml_loader
        self.proc_root = proc_root
        self.http: AcceptanceHttp | None = None
        self.results: dict[str, CheckResult] = {}
        self.metrics: dict[str, Any] = {"short": {}, "long": {}, "abnormal": {}}
        self.server: dict[str, Any] = {}
        self.notes: list[str] = []
        self._cases = {c.check_name: c for c in abnormal_cases(config.served_model_name, config.max_model_len)}
        self.forms = FormsUnderTest.from_plan(config.plan, config.input_forms)

    # ------------------------------------------------------------------------------------- driver

    async def run(self) -> dict[str, Any]:
        started_at = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        t0 = time.monotonic()
        async with open_client(self.cfg, self.transport) as client:
            self.http = AcceptanceHttp(client, self.cfg)
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
                if spec.name in FORM_CHECKS:
                    self.metrics.setdefault("forms", {}).setdefault("latency_ms", {})[spec.name] = \
                        round(self.results[spec.name].duration_s * 1000, 1)
                if spec.name == "health" and self.results["health"].status == "failed":
                    healthy_at_start = False
                    continue
                if spec.name == "health":
                    await self._read_server_info()
        if self.forms is not None:
            gap = self.forms.gap(self.results)
            self.metrics.setdefault("forms", {}).update(gap)
            self.notes.extend(m for m in gap["messages"] if "does not declare" in m)
            if self.cfg.plan and self.cfg.plan.get("multimodal"):
                self.metrics["forms"]["multimodal"] = self.cfg.plan["multimodal"]
        return judge.suite_results(self.cfg, self.results, started_at=started_at, duration_s=time.monotonic() - t0,
                                   server=self.server, metrics=self.metrics, notes=self.notes)

    async def _run_check(self, spec: CheckSpec) -> None:
        method = getattr(self, f"_check_{spec.name}", None)
        case = self._abnormal_case(spec.name)
        start = time.monotonic()
        self.http.last_exchange = None
        try:
            if case is not None:
                outcome = await self._check_abnormal(case)
            elif method is not None:
                outcome = await method()
            else:  # pragma: no cover - every catalogue entry has a method; a test asserts it
                raise KimiDeployError(f"no implementation for check {spec.name}")
        except CheckFailed as err:
            outcome = Outcome(False, str(err), err.observed, err.exchange or self.http.last_exchange)
        except Exception as err:  # an answer the check did not foresee fails that check, not the whole suite
            outcome = Outcome(False, f"{type(err).__name__}: {err}", exchange=self.http.last_exchange)
        self.results[spec.name] = judge.check_result(spec, outcome, self.secrets, time.monotonic() - start)

    def _abnormal_case(self, name: str) -> AbnormalCase | None:
        return self._cases.get(name)

    async def _read_server_info(self) -> None:
        version = await self.http.send("GET", "/version")
        data = version.json()
        if isinstance(data, dict):
            self.server["vllm_version"] = data.get("version")
        metrics = await self.http.send("GET", "/metrics")
        if metrics.status == 200:
            samples = parse_prometheus_text(metrics.response)
            self.server["kv_cache_size_tokens"] = kv_tokens_from_metrics(samples)
            self.server["cache_config"] = cache_config_from_metrics(samples)
        else:
            self.notes.append(f"/metrics answered {metrics.status}: KV tokens and memory not read from it")

    # ------------------------------------------------------------------------------- server, auth

    async def _check_health(self) -> Outcome:
        ok, ex = await self.http.healthy()
        return Outcome(ok, "GET /health answered 200" if ok else f"GET /health answered {ex.status or ex.error}",
                       {"elapsed_ms": round(ex.elapsed_s * 1000, 2)}, ex)

    async def _check_models(self) -> Outcome:
        outcome = judge.models_outcome(await self.http.send("GET", "/v1/models"), self.cfg)
        if "max_model_len" in outcome.observed:
            self.server["max_model_len"] = outcome.observed["max_model_len"]
        return outcome

    async def _api_key_check(self, auth: str, what: str) -> Outcome:
        if not self.cfg.expect_api_key:
            return Outcome(None, "skipped: expect_api_key is false (the deploy sets no API key)")
        body = {"model": self.cfg.served_model_name, "messages": [{"role": "user", "content": "hi"}], "max_tokens": 1}
        observed = {}
        for method, path, payload in (("POST", "/v1/chat/completions", body), ("GET", "/v1/models", None)):
            ex = await self.http.send(method, path, json_body=payload, auth=auth)
            observed[f"{method} {path}"] = ex.status
            if ex.status != 401:
                return Outcome(False, f"{method} {path} with {what} answered {ex.status or ex.error}, not 401: the "
                                      "endpoint is open; start vLLM with --api-key", observed, ex)
        return Outcome(True, f"{what}: 401 on /v1/chat/completions and /v1/models", observed)

    async def _check_api_key_missing(self) -> Outcome:
        return await self._api_key_check("none", "no API key")

    async def _check_api_key_wrong(self) -> Outcome:
        return await self._api_key_check("wrong", "a wrong API key")

    # ------------------------------------------------------------------------------- routes (entry)

    async def _check_routes_unauthenticated(self) -> Outcome:
        if not self.cfg.entry_url:
            return Outcome(None, "skipped: no front door on this replica (kimi_frontdoor_enabled is false): vLLM's "
                                 "own key guards only /v1, /v2, /inference and /cohere; see docs/front-door.md")
        outcome = await probe_entry_routes(self.cfg, self.entry_transport)
        self.metrics["routes"] = outcome.observed["table"]
        return outcome

    # -------------------------------------------------------------------------------------- short

    async def _short(self, chat: bool) -> Outcome:
        path = "/v1/chat/completions" if chat else "/v1/completions"
        ex = await self.http.send("POST", path, json_body=judge.short_body(self.cfg, chat, stream=False))
        outcome, observed = judge.short_outcome(ex, path, chat, self.cfg.short_output_tokens)
        if observed is not None:
            self.metrics["short"][("chat" if chat else "completion")] = observed
        return outcome

    async def _short_stream(self, chat: bool) -> Outcome:
        path = "/v1/chat/completions" if chat else "/v1/completions"
        rec, ex = await self.http.stream(path, judge.short_body(self.cfg, chat, stream=True))
        outcome = judge.short_stream_outcome(rec, ex, path, self.cfg.short_output_tokens)
        self.metrics["short"][("chat_stream" if chat else "completion_stream")] = outcome.observed
        return outcome

    async def _check_short_chat(self) -> Outcome:
        return await self._short(chat=True)

    async def _check_short_completion(self) -> Outcome:
        return await self._short(chat=False)

    async def _check_short_chat_stream(self) -> Outcome:
        return await self._short_stream(chat=True)

    async def _check_short_completion_stream(self) -> Outcome:
        return await self._short_stream(chat=False)

    # --------------------------------------------------------------------------------------- long

    async def _prompt_of(self, kind: str, n: int) -> dict[str, Any]:
        """The body fields carrying a prompt of exactly ``n`` tokens, as text, token ids or a chat message."""
        if kind == "text":
            return {"prompt": await self.http.exact_text(n, chat=False)}
        if kind == "token_ids":
            return {"prompt": token_id_prompt(await self.http.seed_token_ids(), n)}
        return {"messages": [{"role": "user", "content": await self.http.exact_text(n, chat=True)}]}

    async def _long_accepted(self, kind: str) -> Outcome:
        n, out = self.cfg.long_input_tokens, self.cfg.max_output_tokens
        calls_before = self.http.tokenize_calls
        body = {"model": self.cfg.served_model_name, **await self._prompt_of(kind, n), "max_tokens": out}
        if kind == "text":  # generate all max_output tokens, so the sequence really reaches max_model_len
            body.update(ignore_eos=True, temperature=0)
        ex = await self.http.send("POST", judge.long_path(kind), json_body=body)
        outcome = judge.long_accepted_outcome(ex, kind, self.cfg, self.http.tokenize_calls - calls_before)
        self.metrics["long"][kind] = outcome.observed
        return outcome

    async def _over_limit(self, kind: str) -> Outcome:
        n = self.cfg.max_model_len + 1
        body = {"model": self.cfg.served_model_name, **await self._prompt_of(kind, n),
                "max_tokens": self.cfg.max_output_tokens}
        ex = await self.http.send("POST", judge.long_path(kind), json_body=body)
        healthy, health_ex = await self.http.healthy()
        outcome = judge.over_limit_outcome(ex, n, healthy, health_ex)
        self.metrics["long"][f"over_{kind}"] = outcome.observed
        return outcome

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
        ex = await self.http.send("POST", case.path, json_body=case.json_body, raw=case.raw_body)
        healthy, health_ex = await self.http.healthy()
        self.metrics["abnormal"][case.name] = {"status": ex.status, "elapsed_ms": round(ex.elapsed_s * 1000, 2)}
        return judge.abnormal_outcome(case, ex, healthy, health_ex)

    async def _check_abnormal_over_char_precheck(self) -> Outcome:
        unit = filler_text(256) + " "
        tried = []
        last_env: ErrorEnvelope | None = None
        for chars in over_precheck_lengths(self.cfg.max_model_len):
            text = (unit * (chars // len(unit) + 1))[:chars]
            ex = await self.http.send("POST", "/v1/completions",
                                      json_body={"model": self.cfg.served_model_name, "prompt": text, "max_tokens": 4})
            healthy, health_ex = await self.http.healthy()
            env = ex.envelope()
            tried.append({"chars": chars, "status": ex.status, "param": env.param if env else None})
            observed = {"attempts": tried, "healthy_after": healthy}
            self.metrics["abnormal"]["over_char_precheck"] = observed
            outcome = judge.precheck_attempt_outcome(chars, ex, healthy, health_ex, observed)
            if outcome is not None:
                return outcome
            last_env = env
        return judge.precheck_not_reached_outcome(tried, last_env)

    # -------------------------------------------------------------------------------------- forms

    def _form_skip(self, name: str) -> str | None:
        if self.forms is None:
            return "the plan records no model forms (planned before they were; plan again) or no plan was given"
        return self.forms.skip_reason(name)

    async def _form_check(self, name: str, run: Callable[[FormsUnderTest], Any]) -> Outcome:
        reason = self._form_skip(name)
        image_input = self.results.get("image_input")
        if not reason and name in forms_judge.AFTER_IMAGE_INPUT and image_input.status != "passed":
            # A server that takes no image refuses every image: a 4xx here would prove nothing.
            reason = f"image_input did not pass ({image_input.status}), so a refusal would prove nothing"
        if reason:
            return Outcome(None, f"skipped: {reason}")
        return await run(self.forms)

    async def _chat(self, body: dict[str, Any]) -> judge.Exchange:
        return await self.http.send("POST", "/v1/chat/completions", json_body=body)

    async def _refused_then_healthy(self, body: dict[str, Any], what: str) -> Outcome:
        ex = await self._chat(body)
        healthy, health_ex = await self.http.healthy()
        return forms_judge.refused_outcome(ex, healthy, health_ex, what)

    async def _check_image_input(self) -> Outcome:
        async def run(forms: FormsUnderTest) -> Outcome:
            model = self.cfg.served_model_name
            text_ex = await self._chat(forms_judge.text_baseline_body(model))
            image_ex = await self._chat(forms_judge.image_body(model))
            return forms_judge.image_outcome(forms, text_ex, image_ex)
        return await self._form_check("image_input", run)

    async def _check_image_over_limit(self) -> Outcome:
        async def run(forms: FormsUnderTest) -> Outcome:
            body = forms_judge.image_body(self.cfg.served_model_name, count=int(forms.image_limit or 0) + 1)
            return await self._refused_then_healthy(body, f"{int(forms.image_limit or 0) + 1} images over a limit "
                                                          f"of {forms.image_limit}")
        return await self._form_check("image_over_limit", run)

    async def _check_image_corrupt(self) -> Outcome:
        async def run(forms: FormsUnderTest) -> Outcome:
            body = forms_judge.image_body(self.cfg.served_model_name, payload=b"not a png at all")
            return await self._refused_then_healthy(body, "a corrupt base64 image")
        return await self._form_check("image_corrupt", run)

    async def _check_image_url_refused(self) -> Outcome:
        async def run(forms: FormsUnderTest) -> Outcome:
            url = forms.refused_image_url()
            allowed = ", ".join(forms.media_domains or ())
            return await self._refused_then_healthy(forms_judge.image_url_body(self.cfg.served_model_name, url),
                                                    f"an image URL ({url}) outside --allowed-media-domains {allowed}")
        return await self._form_check("image_url_refused", run)

    async def _check_image_long_input(self) -> Outcome:
        async def run(forms: FormsUnderTest) -> Outcome:
            n, out = self.cfg.long_input_tokens, self.cfg.max_output_tokens
            image = forms_judge.data_url(forms_judge.png_bytes(*forms_judge.TEST_IMAGE_SIZE))
            # The server's own count (/tokenize runs the image processor) sizes the text: text tokens + the image's
            # tokens reach exactly the long-input target.
            text = await self.http.exact_text(n, chat=True, images=[image])
            text_tokens, _unused = await self.http.count_tokens(text, chat=True, images=[])
            ex = await self._chat(forms_judge.long_image_body(self.cfg.served_model_name, text, image, out))
            outcome = forms_judge.long_image_outcome(forms, ex, target=n, text_tokens=text_tokens, max_tokens=out)
            self.metrics["long"]["chat_image"] = outcome.observed
            return outcome
        return await self._form_check("image_long_input", run)

    async def _check_tools_call(self) -> Outcome:
        async def run(forms: FormsUnderTest) -> Outcome:
            ex = await self._chat(forms_judge.tools_body(self.cfg.served_model_name))
            return forms_judge.tools_outcome(forms, ex)
        return await self._form_check("tools_call", run)

    async def _check_tools_bad_schema(self) -> Outcome:
        async def run(forms: FormsUnderTest) -> Outcome:
            body = forms_judge.tools_body(self.cfg.served_model_name, bad_schema=True)
            return await self._refused_then_healthy(body, "a tool whose parameters are not a schema")
        return await self._form_check("tools_bad_schema", run)

    async def _check_reasoning_split(self) -> Outcome:
        async def run(forms: FormsUnderTest) -> Outcome:
            ex = await self._chat(forms_judge.reasoning_body(self.cfg.served_model_name))
            return forms_judge.reasoning_outcome(forms, ex)
        return await self._form_check("reasoning_split", run)

    async def _check_structured_output(self) -> Outcome:
        async def run(forms: FormsUnderTest) -> Outcome:
            ex = await self._chat(forms_judge.structured_body(self.cfg.served_model_name, forms))
            return forms_judge.structured_outcome(ex)
        return await self._form_check("structured_output", run)

    # --------------------------------------------------------------------------------------- load

    async def _check_concurrency(self) -> Outcome:
        overhead, _unused = await self.http.count_tokens("", chat=True)
        in_tokens, out_tokens = self.cfg.load_shape(overhead)
        text = await self.http.exact_text(in_tokens, chat=True)
        run = await run_load(self.http, self.cfg, text=text, in_tokens=in_tokens, out_tokens=out_tokens,
                             nvml_loader=self.nvml_loader, proc_root=self.proc_root, notes=self.notes)
        self.metrics["concurrency"] = judge.load_metrics(self.cfg, run)
        return judge.concurrency_outcome(self.cfg, run, self.metrics["concurrency"])


# ------------------------------------------------------------------------------------------- API


async def probe_entry_routes(cfg: AcceptanceConfig, transport: httpx.AsyncBaseTransport | None = None) -> Outcome:
    """Every route of ``cfg.entry_routes`` sent to ``cfg.entry_url`` without a key and with a wrong one, judged
    by ``acceptance_routes.routes_verdict``; the table is ``observed["table"]``."""
    rows = []
    first_open = None  # the exchange to show when the check fails
    async with open_entry_client(cfg, transport) as entry_client:
        entry = AcceptanceHttp(entry_client, cfg)
        for probe in routes_judge.probes(cfg.entry_routes or routes_judge.DEFAULT_ROUTES, cfg.served_model_name):
            row = {"route": probe.path, "method": probe.method}
            for column, auth in (("no_auth", "none"), ("wrong_auth", "wrong")):
                ex = await entry.send(probe.method, probe.path, json_body=probe.json_body, auth=auth)
                row[column] = ex.status or ex.error
                if first_open is None and probe.path != routes_judge.HEALTH_ROUTE and 200 <= ex.status < 300:
                    first_open = ex
            rows.append(row)
    # /metrics may be open to the scrape networks: judged by where these probes came from.
    source = None if transport is not None else source_address(cfg.entry_url)
    passed, detail, observed = routes_judge.routes_verdict(
        rows, metrics_open_to_prober=routes_judge.address_in_networks(source, cfg.entry_metrics_networks))
    observed.update(entry_url=cfg.entry_url, source_address=source)
    return Outcome(passed, detail, observed, None if passed else first_open or entry.last_exchange)


def run_acceptance(config: AcceptanceConfig, **kwargs: Any) -> dict[str, Any]:
    """Run the suite to the end and return its results (see ``AcceptanceRunner.run``)."""
    return asyncio.run(AcceptanceRunner(config, **kwargs).run())


def write_results(path: str | Path, results: Mapping[str, Any]) -> None:
    """Write the results JSON atomically (temp file + rename), readable by owner and group."""
    write_json_atomic(path, results, mode=0o640, indent=1)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m kimi_deploy.io.acceptance_client",
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
    p.add_argument("--plan-file", help="the release's plan (JSON): its model_forms and serve_args decide the form "
                                       "checks")
    p.add_argument("--input-forms", help="comma-separated declared input forms (text,image,tools); default: the "
                                         "plan's")
    p.add_argument("--entry-url", default="", help="the front door's URL: probe every route through it without a "
                                                   "key (check routes_unauthenticated)")
    p.add_argument("--entry-ca-file", default="", help="CA of the entry's certificate (default: not verified)")
    p.add_argument("--entry-metrics-networks", default="", help="comma-separated CIDRs the entry's /metrics is open "
                                                                "to without a key")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    config = AcceptanceConfig(
        served_model_name=args.served_model_name, max_model_len=args.max_model_len,
        max_output_tokens=args.max_output_tokens, concurrency=args.concurrency, base_url=args.base_url,
        api_key=os.environ.get(args.api_key_env, "") if args.api_key_env else "", expect_api_key=not args.no_api_key,
        profile=args.profile, duration_s=args.duration_s, server_pid=args.server_pid,
        sample_interval_s=args.sample_interval_s, load_input_tokens=args.load_input_tokens,
        load_output_tokens=args.load_output_tokens, request_timeout_s=args.request_timeout_s,
        input_forms=args.input_forms.split(",") if args.input_forms else None, entry_url=args.entry_url,
        entry_ca_file=args.entry_ca_file,
        entry_metrics_networks=[n for n in args.entry_metrics_networks.split(",") if n])
    try:
        if args.plan_file:
            config.plan = json.loads(Path(args.plan_file).read_text(encoding="utf-8"))
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
    summary = {k: results[k] for k in ("passed", "failed_checks", "suite_duration_s", "server")}
    print(json.dumps(summary))  # pylint: disable=ansible-bad-function
    return 0 if results["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())  # pylint: disable=ansible-bad-function
