"""The front door (roles/kimi_frontdoor) before the real vLLM CPU build, which runs with its own --api-key.

What the issue found on vLLM 0.32.0 is checked first (``/invocations`` answers without the key),
then that through the front door the same request is refused, a valid client key gets real
completions (streamed too) because HAProxy sends vLLM's key upstream, and /health and /metrics
answer as configured. The unit tests (tests/unit/roles/test_frontdoor.py) probe every route on a stand-in.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import urllib.request
from pathlib import Path

import pytest
from vllm_server import VllmServer

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tests" / "unit"))
_spec = importlib.util.spec_from_file_location("kimi_unit_conftest", REPO_ROOT / "tests" / "unit" / "conftest.py")
_spec.loader.exec_module(importlib.util.module_from_spec(_spec))
from haproxy_run import free_port, haproxy, make_certificate, needs_haproxy
from test_frontdoor import UPSTREAM_KEY, VALID_KEY, WRONG_KEY, Client, env_of, variables, write_frontdoor

VLLM_PORT = 8311
COMPLETION = json.dumps({"model": "tiny", "prompt": "hello", "max_tokens": 4}).encode()


@pytest.fixture(scope="module")
def vllm(tiny_models, vllm_venv, tmp_path_factory):
    log = tmp_path_factory.mktemp("frontdoor-vllm") / "vllm.log"
    args = ["--max-model-len", "256", "--api-key", UPSTREAM_KEY]
    with VllmServer(tiny_models("llama"), port=VLLM_PORT, args=args, log_path=log) as server:
        server.wait_healthy()
        yield server


@pytest.fixture(scope="module")
def frontdoor(vllm, tmp_path_factory):
    certificate = make_certificate(tmp_path_factory.mktemp("tls"))
    tmp = tmp_path_factory.mktemp("frontdoor-live")
    (tmp / "tls.pem").write_text((certificate / "tls.pem").read_text())
    port, stats_port = free_port(), free_port()
    config = write_frontdoor(tmp, variables(tmp, kimi_frontdoor_port=port, kimi_frontdoor_stats_port=stats_port,
                                            kimi_frontdoor_upstream_port=VLLM_PORT))
    with haproxy(config, [port, stats_port], tmp / "haproxy.log", env_of(tmp)):
        yield Client(port, certificate / "cert.pem"), tmp / "haproxy.log"


def test_vllm_alone_answers_invocations_without_its_key(vllm):
    """The hole the front door closes (vLLM's key guards only /v1, /v2, /inference, /cohere)."""
    request = urllib.request.Request(vllm.url + "/invocations", data=COMPLETION,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        assert response.status == 200


@needs_haproxy
def test_front_door_before_real_vllm(frontdoor):
    client, log = frontdoor
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
