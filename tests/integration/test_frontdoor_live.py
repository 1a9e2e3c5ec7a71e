"""The front door (roles/kimi_frontdoor) before the real vLLM CPU build, which runs with its own --api-key.

What the issue found on vLLM 0.32.0 is checked first (``/invocations`` answers without the key),
then that through the front door the same request is refused, a valid client key gets real
completions (streamed too) because HAProxy sends vLLM's key upstream, and /health and /metrics
answer as configured. The unit tests (tests/unit/roles/test_frontdoor.py) probe every route on a stand-in.

The acceptance group ``routes`` (check routes_unauthenticated) then probes every route through the entry
without a key and with a wrong one and must pass; the same probes straight at vLLM, its key set, must fail
on ``/invocations``: the hole the front door closes, found by the check that guards it.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
import urllib.request
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tests" / "unit"))
_spec = importlib.util.spec_from_file_location("kimi_unit_conftest", REPO_ROOT / "tests" / "unit" / "conftest.py")
_spec.loader.exec_module(importlib.util.module_from_spec(_spec))
from haproxy_run import free_port, haproxy, make_certificate, needs_haproxy
from kimi_deploy.core import acceptance_routes
from kimi_deploy.core.acceptance import AcceptanceConfig
from kimi_deploy.io.acceptance_client import probe_entry_routes
from test_frontdoor import VALID_KEY, WRONG_KEY, Client, env_of, variables, write_frontdoor
from vllm_server import PLANNED_LLAMA_API_KEY as UPSTREAM_KEY
from vllm_server import PLANNED_LLAMA_PORT

COMPLETION = json.dumps({"model": "tiny", "prompt": "hello", "max_tokens": 4}).encode()


@pytest.fixture(scope="module")
def vllm(planned_llama):
    """The session's planned tiny llama (conftest), which runs with its own --api-key."""
    return planned_llama


@pytest.fixture(scope="module")
def frontdoor(vllm, tmp_path_factory):
    certificate = make_certificate(tmp_path_factory.mktemp("tls"))
    tmp = tmp_path_factory.mktemp("frontdoor-live")
    (tmp / "tls.pem").write_text((certificate / "tls.pem").read_text())
    port, stats_port = free_port(), free_port()
    config = write_frontdoor(tmp, variables(tmp, kimi_frontdoor_port=port, kimi_frontdoor_stats_port=stats_port,
                                            kimi_frontdoor_upstream_port=PLANNED_LLAMA_PORT,
                                            kimi_api_key=UPSTREAM_KEY))
    with haproxy(config, [port, stats_port], tmp / "haproxy.log", env_of(tmp)):
        yield Client(port, certificate / "cert.pem"), tmp / "haproxy.log", certificate / "cert.pem"


def _probe(url: str, ca_file: str = "", metrics_networks: tuple[str, ...] = ()):
    """The acceptance check routes_unauthenticated against ``url``: (outcome, table)."""
    cfg = AcceptanceConfig(served_model_name="tiny", max_model_len=512, max_output_tokens=8, concurrency=1,
                           api_key=UPSTREAM_KEY, base_url=url, entry_url=url, entry_ca_file=ca_file,
                           entry_metrics_networks=list(metrics_networks))
    outcome = asyncio.run(probe_entry_routes(cfg))
    print(f"\nprobe table of {url} (passed: {outcome.passed}):\n"  # the figures of the closing note
          + acceptance_routes.table_markdown(outcome.observed["table"]))
    return outcome, {row["route"]: row for row in outcome.observed["table"]}


def test_vllm_alone_answers_invocations_without_its_key(vllm):
    """The hole the front door closes (vLLM's key guards only /v1, /v2, /inference, /cohere)."""
    request = urllib.request.Request(vllm.url + "/invocations", data=COMPLETION,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        assert response.status == 200


@needs_haproxy
def test_front_door_before_real_vllm(frontdoor):
    client, log, _unused = frontdoor
    assert client.request("POST", "/invocations", body=COMPLETION).status == 401
    assert client.request("POST", "/invocations", key=VALID_KEY, body=COMPLETION).status == 403
    assert client.request("POST", "/v1/completions", key=WRONG_KEY, body=COMPLETION).status == 401
    done = client.request("POST", "/v1/completions", key=VALID_KEY, body=COMPLETION)
    assert done.status == 200, done.body
    assert json.loads(done.body)["choices"][0]["text"] is not None
    models = client.request("GET", "/v1/models", key=VALID_KEY)
    assert [m["id"] for m in json.loads(models.body)["data"]] == ["tiny"]
    stream = client.request("POST", "/v1/completions", key=VALID_KEY, body=json.dumps(
        {"model": "tiny", "prompt": "hello", "max_tokens": 4, "stream": True}).encode())
    assert stream.status == 200 and stream.body.rstrip().endswith(b"data: [DONE]")
    assert client.request("GET", "/health").status == 200
    metrics = client.request("GET", "/metrics")
    assert metrics.status == 200 and b"vllm:num_requests_running" in metrics.body
    text = log.read_text()
    assert "key=team-a" in text and VALID_KEY not in text and UPSTREAM_KEY not in text


@needs_haproxy
def test_acceptance_routes_group_passes_through_the_front_door(frontdoor):
    client, _unused, ca_file = frontdoor
    outcome, table = _probe(f"https://127.0.0.1:{client.port}", str(ca_file))
    # Probed from 127.0.0.1, inside the entry's scrape networks (the role's default): /metrics answers it.
    assert not outcome.passed and outcome.observed["open_routes"] == ["/metrics"], outcome.detail
    outcome, table = _probe(f"https://127.0.0.1:{client.port}", str(ca_file), ("127.0.0.0/8",))
    assert outcome.passed, outcome.detail
    assert table["/health"]["no_auth"] == 200
    for route in ("/invocations", "/tokenize", "/detokenize", "/pooling", "/classify", "/score", "/scale_elastic_ep",
                  "/v1/chat/completions", "/v1/models", "/version"):
        assert (table[route]["no_auth"], table[route]["wrong_auth"]) == (401, 401), route
    assert table["/metrics"]["no_auth"] == 200 and outcome.observed["reached"] == []


def test_acceptance_routes_group_finds_the_hole_in_bare_vllm(vllm):
    """vLLM alone with its --api-key: /invocations answers 200 without the key, and the check fails naming it."""
    outcome, table = _probe(vllm.url)
    assert not outcome.passed
    assert table["/invocations"]["no_auth"] == 200 and table["/invocations"]["wrong_auth"] == 200
    assert "/invocations" in outcome.observed["open_routes"] and "POST /invocations answered" in outcome.detail
    assert table["/v1/chat/completions"]["no_auth"] == 401  # what vLLM's key does guard
    assert outcome.exchange.path == "/invocations"  # the first open route in probe order (the /v1 ones are 401)
