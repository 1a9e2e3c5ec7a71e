"""The health gate after a (re)start: is vLLM up, serving the right name, and answering?

Stdlib only (urllib), because it runs on the host's system python before anything else is known
to work. It polls ``/health`` until it answers 200, but watches the systemd unit at the same time:
a unit that fails or restarts means the release is broken, and waiting out a one-hour start
timeout for a crash that happened in the first second is the expensive mistake this avoids.
"""

from __future__ import annotations

import ipaddress
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.errors import KimiDeployError
from ..core.service_state import UnitState


@dataclass
class HttpAnswer:
    status: int  # 0 when nothing answered
    body: str
    elapsed_ms: float

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except ValueError:
            return None


def http_request(url: str, *, method: str = "GET", payload: Any = None, api_key: str = "",
                 timeout: float = 30.0) -> HttpAnswer:
    """One HTTP request; HTTP errors are answers, connection failures are status 0."""
    data = None if payload is None else json.dumps(payload).encode("utf-8")
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if api_key:
        req.add_header("Authorization", f"Bearer {api_key}")
    start = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            body = resp.read().decode("utf-8", "replace")
            return HttpAnswer(resp.status, body, (time.monotonic() - start) * 1000)
    except urllib.error.HTTPError as err:
        body = err.read().decode("utf-8", "replace")
        return HttpAnswer(err.code, body, (time.monotonic() - start) * 1000)
    except (urllib.error.URLError, OSError) as err:
        return HttpAnswer(0, str(err), (time.monotonic() - start) * 1000)


UNIT_PROPERTIES = ("ActiveState", "SubState", "NRestarts", "MainPID", "InvocationID")


def unit_broken(initial: UnitState, now: UnitState) -> str:
    """Why the unit counts as broken since ``initial``, or "" while it may still come up."""
    if now.active_state == "failed":
        return f"the unit failed ({now.sub_state})"
    if now.n_restarts > initial.n_restarts:
        return f"the unit crashed and systemd restarted it ({now.n_restarts - initial.n_restarts} time(s))"
    if now.active_state == "inactive" and initial.active_state != "inactive":
        return "the unit stopped"
    if now.active_state == "activating" and now.sub_state == "start-post" and now.main_pid == 0:
        return "vLLM's main process exited while the unit was still starting"
    return ""


def wait_for_new_invocation(unit_state: Callable[[], UnitState], previous: str, *, timeout_s: float,
                            interval_s: float, clock: Callable[[], float] = time.monotonic,
                            sleep: Callable[[float], None] = time.sleep) -> UnitState:
    """After a queued (no-block) restart: wait until the unit runs a new invocation, and return it.

    Until then ``systemctl show`` still describes the old run, which may be the failed release
    this restart replaces; judging that state would fail the new run before it started.
    """
    start = clock()
    while True:
        state = unit_state()
        if state.invocation_id and state.invocation_id != previous:
            return state
        if clock() - start >= timeout_s:
            raise KimiDeployError(
                f"systemd did not start a new run of the unit within {timeout_s:.0f} s of the restart "
                f"(still {state.active_state}/{state.sub_state}); look at `systemctl list-jobs`"
            )
        sleep(interval_s)


def wait_healthy(base_url: str, *, timeout_s: float, interval_s: float,
                 unit_state: Callable[[], UnitState] | None = None,
                 initial: UnitState | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep,
                 probe: Callable[[str], HttpAnswer] = http_request) -> float:
    """Poll ``/health`` until 200; return seconds waited. Raise on timeout or a broken unit.

    ``initial`` is the unit's state this wait judges changes against (default: read it now).
    """
    start = clock()
    if unit_state and initial is None:
        initial = unit_state()
    last = HttpAnswer(0, "not probed yet", 0.0)
    while True:
        last = probe(base_url.rstrip("/") + "/health")
        if last.status == 200:
            return clock() - start
        if unit_state and initial:
            why = unit_broken(initial, unit_state())
            if why:
                raise KimiDeployError(f"vLLM did not become healthy: {why} after {clock() - start:.0f} s")
        if clock() - start >= timeout_s:
            raise KimiDeployError(
                f"vLLM did not answer /health with 200 within {timeout_s:.0f} s (last: "
                f"{last.status or 'no answer'} {last.body[:200]}); raise the health timeout if the "
                "model really loads this slowly, or read the unit's journal"
            )
        sleep(interval_s)


def check_models(answer: HttpAnswer, served_model_name: str) -> list[str]:
    """The ids /v1/models lists; raise unless ``served_model_name`` is among them."""
    if answer.status == 401:
        raise KimiDeployError("/v1/models answered 401: the API key the deploy holds is not the one vLLM runs with")
    doc = answer.json()
    if answer.status != 200 or not isinstance(doc, Mapping):
        raise KimiDeployError(f"/v1/models answered {answer.status}: {answer.body[:300]}")
    ids = [str(m.get("id")) for m in doc.get("data", []) if isinstance(m, Mapping)]
    if served_model_name not in ids:
        raise KimiDeployError(
            f"vLLM serves {ids}, not {served_model_name!r}: clients asking for {served_model_name!r} would get 404"
        )
    return ids


def smoke_payload(served_model_name: str, max_tokens: int = 8) -> dict[str, Any]:
    return {
        "model": served_model_name,
        "messages": [{"role": "user", "content": "Reply with one short greeting."}],
        "max_tokens": max_tokens,
        "temperature": 0,
    }


def check_smoke(answer: HttpAnswer, max_tokens: int) -> dict[str, Any]:
    """Structure of a chat completion: a choice, a finish reason, and token counts that add up."""
    doc = answer.json()
    if answer.status != 200 or not isinstance(doc, Mapping):
        raise KimiDeployError(f"smoke chat completion answered {answer.status}: {answer.body[:300]}")
    choices = doc.get("choices") or []
    usage = doc.get("usage") or {}
    if not choices or not isinstance(choices[0], Mapping):
        raise KimiDeployError(f"smoke chat completion has no choices: {answer.body[:300]}")
    finish = choices[0].get("finish_reason")
    prompt, completion = int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
    if finish not in ("stop", "length"):
        raise KimiDeployError(f"smoke chat completion finished with {finish!r}, expected stop or length")
    if prompt < 1 or not 1 <= completion <= max_tokens:
        raise KimiDeployError(f"smoke chat completion usage is implausible: {dict(usage)}")
    if int(usage.get("total_tokens") or 0) != prompt + completion:
        raise KimiDeployError(f"smoke chat completion usage does not add up: {dict(usage)}")
    return {"finish_reason": finish, "prompt_tokens": prompt, "completion_tokens": completion,
            "latency_ms": round(answer.elapsed_ms, 1)}


_WILDCARDS = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "*": "127.0.0.1", "::": "::1", "localhost": "127.0.0.1"}


def probe_address(bind_host: str) -> str:
    """The address that reaches a server bound to ``bind_host`` from the host itself.

    A wildcard is probed on loopback; an interface address on itself (loopback does not reach a
    server bound to 10.0.0.5). A host name is refused: what it resolves to on the host is not
    necessarily what vLLM bound, and a probe that never answers waits out the start timeout.
    """
    host = (bind_host or "").strip().strip("[]")
    if host in _WILDCARDS:
        return _WILDCARDS[host]
    try:
        return str(ipaddress.ip_address(host))
    except ValueError as err:
        raise KimiDeployError(
            f"kimi_bind_host {bind_host!r} is a name, not an address: the health gate cannot know what it "
            "resolves to for vLLM. Set it to an IP address of the host, or 0.0.0.0 for all of them."
        ) from err


def probe_url(bind_host: str, port: int) -> str:
    """Base URL for the health gate of a server bound to ``bind_host:port``."""
    if not 0 < int(port) < 65536:
        raise KimiDeployError(f"port {port!r} is not a TCP port")
    address = probe_address(bind_host)
    return f"http://[{address}]:{int(port)}" if ":" in address else f"http://{address}:{int(port)}"
