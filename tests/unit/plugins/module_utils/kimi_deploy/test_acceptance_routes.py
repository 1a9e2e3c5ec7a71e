"""The acceptance group ``routes`` (core/acceptance_routes.py): the verdict on the probe table, the probes,
and the runner's check through a front door (an httpx stand-in here; real HAProxy before the real vLLM CPU
build in tests/integration/test_frontdoor_live.py)."""

from __future__ import annotations

import httpx
import pytest
from fake_vllm import FakeVllm
from kimi_deploy.core import acceptance as acc
from kimi_deploy.core import acceptance_routes as routes
from kimi_deploy.core import ledger
from kimi_deploy.io import acceptance_client as client

DOOR = {"no_auth": 401, "wrong_auth": 401}


def _table(**answers) -> list[dict]:
    """A door's table (/health 200, everything else 401), with ``answers`` {route: (no_auth, wrong_auth)}."""
    rows = [{"route": "/health", "method": "GET", "no_auth": 200, "wrong_auth": 200}]
    for path in ("/v1/chat/completions", "/v1/models", "/invocations", "/tokenize", "/metrics", "/scale_elastic_ep"):
        no_auth, wrong_auth = answers.get(path.strip("/").replace("/", "_"), (401, 401))
        rows.append({"route": path, "method": routes.probe_of(path, "tiny").method, "no_auth": no_auth,
                     "wrong_auth": wrong_auth})
    return rows


def test_a_door_that_refuses_every_route_passes():
    passed, detail, observed = routes.routes_verdict(_table())
    assert passed, detail
    assert "6 route(s) refused" in detail and observed["open_routes"] == [] and observed["reached"] == []


def test_invocations_answering_without_a_key_fails_naming_it():
    """The hole of vLLM 0.32: its key guards /v1 but not /invocations."""
    passed, detail, observed = routes.routes_verdict(_table(invocations=(200, 200)))
    assert not passed
    assert observed["open_routes"] == ["/invocations"]
    assert "POST /invocations answered without a key 200 and with a wrong key 200" in detail


def test_a_wrong_key_let_through_fails_too():
    passed, detail, _unused = routes.routes_verdict(_table(v1_models=(401, 200)))
    assert not passed and "GET /v1/models answered with a wrong key 200" in detail


def test_health_must_answer_without_a_key():
    rows = _table()
    rows[0] = {**rows[0], "no_auth": 401}
    passed, detail, _unused = routes.routes_verdict(rows)
    assert not passed and "GET /health without a key answered 401" in detail
    passed, detail, _unused = routes.routes_verdict(_table()[1:])
    assert not passed and "answered None" in detail


@pytest.mark.parametrize(("open_to_prober", "passes"), [(True, True), (False, False)])
def test_metrics_may_answer_only_its_scrape_network(open_to_prober, passes):
    passed, detail, _unused = routes.routes_verdict(_table(metrics=(200, 200)), metrics_open_to_prober=open_to_prober)
    assert passed is passes, detail
    assert ("scrape network" in detail) is passes and ("/metrics" in detail)


def test_an_answer_past_the_key_check_is_listed_not_passed_as_proof():
    """405 on an engine-changing route: the request reached vLLM without a key (not a 2xx, so not failed)."""
    rows = _table(scale_elastic_ep=(405, 405), tokenize=("ConnectError: refused", 0))
    passed, detail, observed = routes.routes_verdict(rows)
    assert passed
    assert observed["reached"] == ["/scale_elastic_ep (405/405)"] and "/scale_elastic_ep (405/405)" in detail


def test_engine_changing_routes_are_probed_with_a_method_they_do_not_serve():
    for path in ("/scale_elastic_ep", "/sleep", "/wake_up", "/collective_rpc", "/reset_prefix_cache",
                 "/v1/load_lora_adapter", "/start_profile"):
        assert routes.probe_of(path, "tiny") == routes.RouteProbe(path, "GET")
    invocations = routes.probe_of("/invocations", "tiny")
    assert invocations.method == "POST" and invocations.json_body["max_tokens"] == 1
    assert routes.probe_of("/v1/chat/completions", "tiny").json_body["messages"][0]["content"] == "hi"
    listed = [p.path for p in routes.probes(["/tokenize", "/health", "/tokenize", "/metrics"], "tiny")]
    assert listed == ["/health", "/tokenize", "/metrics"]


def test_the_default_routes_cover_the_issue_list():
    named = {"/invocations", "/tokenize", "/detokenize", "/pooling", "/classify", "/score", "/scale_elastic_ep",
             "/v1/chat/completions", "/v1/models", "/metrics", "/version", "/health"}
    assert named <= set(routes.DEFAULT_ROUTES)


@pytest.mark.parametrize(("address", "networks", "inside"), [
    ("127.0.0.1", ["127.0.0.0/8", "::1/128"], True),
    ("::1", ["127.0.0.0/8", "::1/128"], True),
    ("::ffff:10.1.2.3", ["10.0.0.0/8"], True),
    ("10.1.2.3", ["127.0.0.0/8", "::1/128"], False),
    (None, ["0.0.0.0/0"], False),
    ("not an address", ["0.0.0.0/0"], False),
    ("10.1.2.3", ["bad", "10.1.0.0/16"], True),
])
def test_the_prober_address_in_the_scrape_networks(address, networks, inside):
    assert routes.address_in_networks(address, networks) is inside


# ------------------------------------------------------------------ the runner through a stand-in door


class FakeDoor:
    """The front door's answers (roles/kimi_frontdoor): /health 200, no or wrong key 401; ``leak`` paths
    answer 200 as vLLM alone does for /invocations."""

    def __init__(self, leak=()):
        self.leak = set(leak)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if request.url.path == "/health" or request.url.path in self.leak:
            return httpx.Response(200, json={})
        return httpx.Response(401, json={"error": {"message": "invalid or expired API key"}})


def _run(door: FakeDoor | None, **over) -> dict:
    cfg = acc.AcceptanceConfig(served_model_name="tiny", max_model_len=128, max_output_tokens=8, concurrency=2,
                               api_key="sk-test", base_url="http://fake", profile="quick", duration_s=1.0,
                               sample_interval_s=0.05, load_input_tokens=24, load_output_tokens=4,
                               **({"entry_url": "https://entry:8443"} if door else {}), **over)
    return client.run_acceptance(cfg, transport=httpx.MockTransport(FakeVllm()), nvml_loader=lambda: None,
                                 entry_transport=httpx.MockTransport(door) if door else None)


def test_runner_probes_every_route_through_the_door_without_the_key():
    door = FakeDoor()
    results = _run(door)
    check = results["checks"]["routes_unauthenticated"]
    assert check["status"] == "passed" and check["group"] == "routes", check["detail"]
    table = results["metrics"]["routes"]
    assert [r["route"] for r in table] == ["/health", *[p for p in routes.DEFAULT_ROUTES if p != "/health"]]
    assert all(r["no_auth"] == 401 and r["wrong_auth"] == 401 for r in table[1:])
    sent = [(r.url.path, r.headers.get("authorization")) for r in door.requests]
    assert len(sent) == 2 * len(table)
    assert all(auth is None or (auth.startswith("Bearer kimi-wrong-") and "sk-test" not in auth)
               for _unused, auth in sent)
    row = ledger.build_row(host_group="g", release_id="r1", acceptance=results, secret_values=["sk-test"])
    assert row["entry_routes"] == table and row["checks"]["routes_unauthenticated"] == "passed"


def test_runner_rejects_a_release_whose_door_lets_invocations_through():
    results = _run(FakeDoor(leak={"/invocations"}))
    assert not results["passed"] and results["failed_checks"] == ["routes_unauthenticated"]
    check = results["checks"]["routes_unauthenticated"]
    assert "/invocations" in check["detail"] and check["request"]["path"] == "/invocations"
    assert check["response"]["status"] == 200


def test_runner_skips_the_group_without_a_front_door_saying_why():
    results = _run(None)
    check = results["checks"]["routes_unauthenticated"]
    assert check["status"] == "skipped" and "no front door" in check["detail"] and results["passed"]
    assert "routes" not in results["metrics"]


def test_entry_url_must_be_http():
    with pytest.raises(acc.KimiDeployError, match="entry_url"):
        acc.AcceptanceConfig(served_model_name="tiny", max_model_len=128, max_output_tokens=8, concurrency=2,
                             api_key="k", entry_url="entry:8443").validate()
