"""The front door (roles/kimi_frontdoor) rendered from the role's defaults and run for real.

HAProxy (Debian's package) runs the rendered haproxy.cfg on loopback with TLS (a certificate made
here) in front of a stand-in upstream (tests/unit/haproxy_run.py): every route of the role's own
kimi_frontdoor_probe_routes is probed without a key, with a wrong key, an expired key and a valid
key; the access log must carry a request id and the key's name, never a key.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import re
import shutil
import ssl
import subprocess
import time
from pathlib import Path

import pytest
from haproxy_run import check_config, free_port, haproxy, make_certificate, needs_haproxy, upstream
from kimi_frontdoor import NEVER_EPOCH, kimi_frontdoor_key_map, not_after_epoch
from unit_render import REPO, directives, render_template, role_defaults, template_value

TEMPLATES = REPO / "roles/kimi_frontdoor/templates"
VALID_KEY = "team-a-" + "k" * 40
ROTATED_KEY = "team-b-" + "r" * 40  # the old key of a rotation, still inside its overlap window
EXPIRED_KEY = "team-c-" + "e" * 40
WRONG_KEY = "team-a-" + "w" * 40
UPSTREAM_KEY = "vllm-own-key-" + "u" * 30
KEYS = [
    {"name": "team-a", "key": VALID_KEY, "not_after": ""},
    {"name": "team-b", "key": ROTATED_KEY, "not_after": "2999-01-01T00:00:00Z"},
    {"name": "team-c", "key": EXPIRED_KEY, "not_after": "2020-01-01"},
]
MAX_BODY = 4096


def variables(tmp: Path, **overrides) -> dict:
    values = {"inventory_hostname": "h200-1", "kimi_api_key": UPSTREAM_KEY, "kimi_frontdoor_enabled": True,
              "kimi_frontdoor_config_dir": str(tmp),
              "kimi_frontdoor_run_user": "", "kimi_frontdoor_api_keys": KEYS,
              "kimi_frontdoor_bind_address": "127.0.0.1", "kimi_frontdoor_max_body_bytes": MAX_BODY}
    return role_defaults("kimi_frontdoor", **{**values, **overrides})


def write_frontdoor(tmp: Path, values: dict) -> Path:
    for name in ("haproxy.cfg", "api-keys.map", "api-key-names.map", "frontdoor.env"):
        (tmp / name).write_text(render_template(TEMPLATES / f"{name}.j2", values))
    return tmp / "haproxy.cfg"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> Path:
    return make_certificate(tmp_path_factory.mktemp("tls"))


def env_of(tmp: Path) -> dict[str, str]:
    """The unit's environment: what systemd's EnvironmentFile= reads from frontdoor.env."""
    pairs = [line.split("=", 1) for line in (tmp / "frontdoor.env").read_text().splitlines()
             if "=" in line and not line.startswith("#")]
    return {**os.environ, **dict(pairs)}


class Client:
    def __init__(self, port: int, cafile: Path) -> None:
        self.port = port
        self.context = ssl.create_default_context(cafile=str(cafile))

    def request(self, method: str, path: str, key: str | None = None, body: bytes | None = None,
                headers: dict | None = None) -> http.client.HTTPResponse:
        conn = http.client.HTTPSConnection("127.0.0.1", self.port, context=self.context, timeout=10)
        all_headers = dict(headers or {})
        if key is not None:
            all_headers["Authorization"] = f"Bearer {key}"
        if body is not None:
            all_headers.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=body, headers=all_headers)
        response = conn.getresponse()
        response.body = response.read()
        conn.close()
        return response


def probe_method(path: str) -> tuple[str, bytes | None]:
    if path in ("/health", "/v1/models", "/version", "/metrics", "/ping"):
        return "GET", None
    return "POST", json.dumps({"model": "kimi", "prompt": "hi", "max_tokens": 1}).encode()


# -- the key map filter ----------------------------------------------------------------------

def test_key_map_holds_digests_and_expiry_not_keys():
    text = kimi_frontdoor_key_map(KEYS)
    assert VALID_KEY not in text
    lines = dict(line.split() for line in text.splitlines())
    assert len(lines) == 3
    assert sorted(lines.values()) == sorted([str(NEVER_EPOCH), str(not_after_epoch("2999-01-01T00:00:00Z")),
                                             str(not_after_epoch("2020-01-01T23:59:59"))])
    assert kimi_frontdoor_key_map(KEYS, "name").split()[1::2] == ["team-a", "team-b", "team-c"]


def test_not_after_of_a_date_is_the_end_of_that_day_utc():
    assert not_after_epoch("2020-01-01") == 1577923199
    assert not_after_epoch("2020-01-01T12:00:00+02:00") == 1577872800


@pytest.mark.parametrize(("keys", "message"), [
    ([{"name": "a", "key": "short"}], "at least"),
    ([{"name": "a", "key": "x" * 30}, {"name": "a", "key": "y" * 30}], "used twice"),
    ([{"name": "a", "key": "x" * 30}, {"name": "b", "key": "x" * 30}], "same key"),
    ([{"name": "a b", "key": "x" * 30}], "letters"),
    ([{"name": "a", "key": "x" * 30, "not_after": "next week"}], "ISO"),
])
def test_key_map_refuses_bad_entries(keys, message):
    with pytest.raises(ValueError, match=message):
        kimi_frontdoor_key_map(keys)


# -- the rendered configuration --------------------------------------------------------------

@needs_haproxy
@pytest.mark.parametrize("tls", [True, False])
def test_rendered_config_is_valid_for_haproxy(tmp_path, certificate, tls):
    (tmp_path / "tls.pem").write_text((certificate / "tls.pem").read_text())
    config = write_frontdoor(tmp_path, variables(tmp_path, kimi_frontdoor_tls=tls))
    result = check_config(config, env_of(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    text = config.read_text()
    assert VALID_KEY not in text and UPSTREAM_KEY not in text  # keys only in 0600 files, never in the cfg
    assert ("ssl crt" in text) is tls


def test_probe_routes_cover_open_refused_and_extra_routes(tmp_path):
    routes = template_value("kimi_frontdoor_probe_routes",
                            variables(tmp_path, kimi_frontdoor_extra_routes=["/tokenize"]))
    by_path = {r["path"]: r for r in routes}
    assert by_path["/health"] == {"path": "/health", "method": "GET", "auth": False, "expect": 200}
    assert by_path["/v1/chat/completions"]["expect"] == "2xx"
    assert by_path["/tokenize"]["expect"] == "2xx"  # opened by the inventory
    assert by_path["/invocations"]["expect"] == 403
    assert by_path["/scale_elastic_ep"]["expect"] == 403


# -- HAProxy running the rendered configuration ----------------------------------------------

@pytest.fixture(scope="module")
def running(tmp_path_factory, certificate):
    """The front door on loopback (TLS) before the stand-in upstream: (client, upstream, log, probes)."""
    tmp = tmp_path_factory.mktemp("frontdoor")
    (tmp / "tls.pem").write_text((certificate / "tls.pem").read_text())
    port, stats_port = free_port(), free_port()
    with upstream() as server:
        values = variables(tmp, kimi_frontdoor_port=port, kimi_frontdoor_stats_port=stats_port,
                           kimi_frontdoor_upstream_port=server.port)
        config = write_frontdoor(tmp, values)
        log = tmp / "haproxy.log"
        with haproxy(config, [port, stats_port], log, env_of(tmp)):
            yield (Client(port, certificate / "cert.pem"), server, log,
                   template_value("kimi_frontdoor_probe_routes", values), stats_port)


@needs_haproxy
def test_probe_table(running):
    """Every probed route: 401 without/with a wrong or expired key, its expected answer with a valid key."""
    client, _server, _log, probes, _unused = running
    table = []
    for probe in probes:
        method, body = probe_method(probe["path"])
        row = {"route": probe["path"]}
        for label, key in (("no key", None), ("wrong key", WRONG_KEY), ("expired key", EXPIRED_KEY),
                           ("valid key", VALID_KEY), ("rotated key", ROTATED_KEY)):
            row[label] = client.request(method, probe["path"], key=key, body=body).status
        table.append(row)
    print("\n" + "\n".join(" | ".join(str(v) for v in row.values()) for row in table))
    for row, probe in zip(table, probes, strict=True):
        if not probe["auth"]:
            assert {row[k] for k in ("no key", "wrong key", "expired key", "valid key")} == {200}, row
            continue
        assert (row["no key"], row["wrong key"], row["expired key"]) == (401, 401, 401), row
        assert client.request(method, probe["path"], body=body).getheader("WWW-Authenticate") == "Bearer"
        expected = 200 if probe["expect"] == "2xx" else probe["expect"]
        assert row["valid key"] == expected and row["rotated key"] == expected, row


@needs_haproxy
def test_upstream_gets_vllm_key_and_request_id_never_client_key(running):
    client, server, _log, _unused, _unused = running
    server.seen.clear()
    response = client.request("POST", "/v1/chat/completions", key=VALID_KEY, body=b"{}",
                              headers={"X-Request-Id": "client-chosen"})
    assert response.status == 200
    (seen,) = server.seen
    assert seen["authorization"] == f"Bearer {UPSTREAM_KEY}"
    assert seen["request_id"] != "client-chosen" and response.getheader("X-Request-Id") == seen["request_id"]


@needs_haproxy
def test_access_log_has_request_id_and_key_name_never_a_key(running):
    client, _server, log, _unused, _unused = running
    response = client.request("POST", "/v1/completions?api_key=x", key=VALID_KEY, body=b"{}")
    request_id = response.getheader("X-Request-Id")
    client.request("POST", "/v1/completions", key=WRONG_KEY, body=b"{}")
    client.request("POST", "/v1/completions", key=EXPIRED_KEY, body=b"{}")
    text = log.read_text()
    assert f"id={request_id}" in text
    assert "key=team-a" in text
    for secret in (VALID_KEY, WRONG_KEY, EXPIRED_KEY, ROTATED_KEY, UPSTREAM_KEY, "api_key=x"):
        assert secret not in text


@needs_haproxy
def test_body_limit_and_chunked_bodies(running):
    client, server, _log, _unused, _unused = running
    server.seen.clear()
    big = client.request("POST", "/v1/completions", key=VALID_KEY, body=b"x" * (MAX_BODY + 1))
    assert big.status == 413
    fits = client.request("POST", "/v1/completions", key=VALID_KEY, body=b"x" * MAX_BODY)
    assert fits.status == 200
    # A chunked body's size is unknown until it has passed: refused on its headers alone.
    conn = http.client.HTTPSConnection("127.0.0.1", client.port, context=client.context, timeout=10)
    conn.putrequest("POST", "/v1/completions")
    conn.putheader("Authorization", f"Bearer {VALID_KEY}")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    assert conn.getresponse().status == 411
    conn.close()
    assert len(server.seen) == 1


@needs_haproxy
def test_metrics_open_to_scrape_network_and_exporter_counts_by_code(running):
    client, _server, _log, _unused, stats_port = running
    assert client.request("GET", "/metrics").status == 200  # the test connects from 127.0.0.1
    conn = http.client.HTTPConnection("127.0.0.1", stats_port, timeout=10)
    conn.request("GET", "/metrics")
    exported = conn.getresponse().read().decode()
    assert 'haproxy_frontend_http_responses_total{proxy="kimi_entry",code="4xx"}' in exported


@needs_haproxy
def test_metrics_outside_scrape_network_needs_its_credential(tmp_path, certificate):
    (tmp_path / "tls.pem").write_text((certificate / "tls.pem").read_text())
    password_hash = subprocess.run(["openssl", "passwd", "-6", "scrape-secret"], capture_output=True, text=True,
                                   check=True).stdout.strip()
    port, stats_port = free_port(), free_port()
    with upstream() as server:
        config = write_frontdoor(tmp_path, variables(
            tmp_path, kimi_frontdoor_port=port, kimi_frontdoor_stats_port=stats_port,
            kimi_frontdoor_upstream_port=server.port, kimi_frontdoor_scrape_networks=["10.99.0.0/16"],
            kimi_frontdoor_metrics_password_hash=password_hash))
        with haproxy(config, [port], tmp_path / "haproxy.log", env_of(tmp_path)):
            client = Client(port, certificate / "cert.pem")
            good = base64.b64encode(b"prometheus:scrape-secret").decode()
            bad = base64.b64encode(b"prometheus:guess").decode()
            assert client.request("GET", "/metrics").status == 403
            assert client.request("GET", "/metrics", headers={"Authorization": f"Basic {bad}"}).status == 403
            assert client.request("GET", "/metrics", headers={"Authorization": f"Basic {good}"}).status == 200
            # An API key is not a scrape credential.
            assert client.request("GET", "/metrics", key=VALID_KEY).status == 403


@needs_haproxy
def test_a_dead_engine_is_out_at_its_first_500_and_back_once_healthy(tmp_path, certificate):
    """vLLM answers 500 at once to every request once its engine is gone. The first 500 takes it out of the
    entry: the next request gets the entry's own 503 (a balancer retries that on another replica) without
    reaching vLLM, and two passed /health checks, a second apart while out, put it back."""
    (tmp_path / "tls.pem").write_text((certificate / "tls.pem").read_text())
    port = free_port()
    with upstream() as server:
        config = write_frontdoor(tmp_path, variables(tmp_path, kimi_frontdoor_port=port,
                                                     kimi_frontdoor_stats_port=free_port(),
                                                     kimi_frontdoor_upstream_port=server.port))
        with haproxy(config, [port], tmp_path / "haproxy.log", env_of(tmp_path)):
            client = Client(port, certificate / "cert.pem")

            def complete() -> int:
                return client.request("POST", "/v1/completions", key=VALID_KEY, body=b"{}").status

            assert complete() == 200
            server.status, server.healthy = 500, False  # the engine is gone; its API server still answers
            server.seen.clear()
            assert [complete(), complete(), complete()] == [500, 503, 503]
            assert len(server.seen) == 1
            server.status, server.healthy = 200, True  # restarted
            deadline = time.monotonic() + 15
            while complete() != 200:
                assert time.monotonic() < deadline, "vLLM not back in the entry within 15 s of /health passing"
                time.sleep(0.2)


# -- the units -------------------------------------------------------------------------------

SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
needs_systemd_analyze = pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed")
# systemd-analyze security --offline=true on systemd 252 (Debian 12): 2.3 measured. What stays:
# a root master (it reads the root-only keys, then drops to haproxy), network access, setuid/setgid,
# and kill (the master signals its workers, which run as haproxy: 2.2 without it, and no reload worked).
FRONTDOOR_EXPOSURE_LIMIT = 2.3


@needs_systemd_analyze
@pytest.mark.parametrize("unit", ["kimi-frontdoor", "kimi-lb"])
def test_haproxy_unit_sandbox_score(tmp_path, unit):
    """Both HAProxy units come from the one shared template, each with its own name and paths."""
    values = role_defaults("kimi_frontdoor", "kimi_lb", **{"kimi_api_key": UPSTREAM_KEY})
    role = "kimi_frontdoor" if unit == "kimi-frontdoor" else "kimi_lb"
    path = tmp_path / f"{unit}.service"
    path.write_text(render_template(REPO / "roles" / role / "templates" / f"{unit}.service.j2", values))
    proc = subprocess.run([SYSTEMD_ANALYZE, "security", "--offline=true", "--no-pager", str(path)],
                          capture_output=True, text=True, check=False)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", proc.stdout + proc.stderr)
    assert found, proc.stdout + proc.stderr
    assert float(found.group(1)) <= FRONTDOOR_EXPOSURE_LIMIT, proc.stdout
    text = path.read_text()
    config_dir = values["kimi_frontdoor_config_dir" if role == "kimi_frontdoor" else "kimi_lb_config_dir"]
    assert directives(text, "ExecStart") == [
        f"/usr/sbin/haproxy -Ws -f {config_dir}/haproxy.cfg -p /run/{unit}/haproxy.pid -S /run/{unit}/master.sock"]
    assert directives(text, "RuntimeDirectory") == [unit]
    # vLLM's key stays in the root-only environment file; the balancer has none.
    assert directives(text, "EnvironmentFile") == ([f"{config_dir}/frontdoor.env"] if role == "kimi_frontdoor" else [])
    assert UPSTREAM_KEY not in text


def _real_uid(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("Uid:")))


@pytest.mark.parametrize("unit", ["kimi-frontdoor", "kimi-lb"])
def test_haproxy_unit_master_can_signal_its_workers(tmp_path, unit):
    """The master (root) stops its workers (kimi_frontdoor_run_user, another user) at every reload and stop.
    Without CAP_KILL in the unit's bounding set the signal is refused (EPERM): a reload left the old workers
    serving the old keys, and a stop hung until systemd's SIGKILL (found by the demo's first deploy).
    Here a process as nobody stands in for a worker, signalled under the rendered unit's bounding set."""
    values = role_defaults("kimi_frontdoor", "kimi_lb", **{"kimi_api_key": UPSTREAM_KEY})
    role = "kimi_frontdoor" if unit == "kimi-frontdoor" else "kimi_lb"
    text = render_template(REPO / "roles" / role / "templates" / f"{unit}.service.j2", values)
    (caps,) = directives(text, "CapabilityBoundingSet")
    bounding = ",".join(["-all", *("+" + cap.removeprefix("CAP_").lower() for cap in caps.split())])
    worker = subprocess.Popen(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "30"])
    try:
        # Until setpriv has dropped to nobody the child is root's own, which root may always signal.
        deadline = time.monotonic() + 10
        while _real_uid(worker.pid) != 65534 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _real_uid(worker.pid) == 65534

        def signal_under(bounding_set: str) -> subprocess.CompletedProcess:
            return subprocess.run(["setpriv", f"--bounding-set={bounding_set}", "--", "kill", "-0", str(worker.pid)],
                                  capture_output=True, text=True, check=False)
        refused = signal_under(bounding.replace(",+kill", ""))
        assert refused.returncode != 0 and "not permitted" in refused.stderr  # the check itself can tell
        allowed = signal_under(bounding)
        assert allowed.returncode == 0, f"{caps}: {allowed.stderr}"
    finally:
        worker.kill()
        worker.wait()
