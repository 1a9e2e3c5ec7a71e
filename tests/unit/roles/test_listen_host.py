"""Behind a front door vLLM binds loopback (or the private address kimi_bind_host names); without one, as before.

The release's launcher (roles/kimi_release/templates/serve.sh.j2, the unit's argv), its vllm.env (the unit's
start-up wait) and the front door's upstream are rendered from the roles' own defaults and vars.
"""

from __future__ import annotations

import shlex

import pytest
from unit_render import REPO, render_template, role_defaults, template_value

TEMPLATES = REPO / "roles/kimi_release/templates"
PLAN = {"serve_args": ["--max-model-len", "4096"], "env": {}, "layout": {"nnodes": 1}}


def _argv(values: dict) -> list[str]:
    """The vLLM command line serve.sh execs (its last line, with the continuation lines joined)."""
    text = render_template(TEMPLATES / "serve.sh.j2", values).replace("\\\n", " ")
    line = next(raw for raw in text.splitlines() if raw.startswith("exec "))
    return shlex.split(line)


def _values(**overrides) -> dict:
    return role_defaults("kimi_release", "kimi_frontdoor", kimi_model_repo="org/tiny", kimi_plan_result=PLAN,
                         **overrides)


@pytest.mark.parametrize(("frontdoor", "bind_host", "listens"), [
    (True, "0.0.0.0", "127.0.0.1"),  # a wildcard becomes loopback: the entry is the only outside listener
    (True, "::", "127.0.0.1"),
    (True, "10.20.0.5", "10.20.0.5"),  # a private interface named in kimi_bind_host stays
    (False, "0.0.0.0", "0.0.0.0"),  # no front door: as before
    (False, "10.20.0.5", "10.20.0.5"),
])
def test_the_unit_argv_binds_where_the_front_door_expects(frontdoor, bind_host, listens):
    values = _values(kimi_frontdoor_enabled=frontdoor, kimi_bind_host=bind_host)
    argv = _argv(values)
    assert argv[argv.index("--host") + 1] == listens, argv
    assert argv[argv.index("--port") + 1] == "8000"
    env = render_template(TEMPLATES / "vllm.env.j2", values)
    assert f'KIMI_BIND_HOST="{listens}"' in env.splitlines()  # the start-up wait probes the same address
    assert template_value("kimi_listen_host", values) == listens  # release.json's service.host, the health gate
    assert template_value("kimi_frontdoor_upstream_address", values) == listens


def test_the_default_inventory_keeps_binding_every_interface():
    values = _values()
    assert values["kimi_frontdoor_enabled"] is False
    assert "0.0.0.0" in _argv(values)


def test_the_release_records_and_the_health_gate_probe_the_listen_host():
    """release.json's service.host (which a rollback's health gate reads) and the gate's fallback use it."""
    release = (REPO / "roles/kimi_release/tasks/main.yml").read_text()
    assert 'service: {host: "{{ kimi_listen_host }}"' in release
    start = (REPO / "roles/kimi_vllm/tasks/start.yml").read_text()
    assert ".host | default(kimi_listen_host, true)" in start


@pytest.mark.parametrize(("overrides", "url"), [
    ({}, "https://127.0.0.1:8443"),  # the front door on every interface: probed on loopback
    ({"kimi_frontdoor_bind_address": "10.20.0.9", "kimi_frontdoor_port": 9443}, "https://10.20.0.9:9443"),
    ({"kimi_frontdoor_tls": False}, "http://127.0.0.1:8443"),
])
def test_acceptance_probes_the_entry_where_the_front_door_listens(overrides, url):
    """kimi_acceptance's entry URL follows the front door's own settings, read from the inventory."""
    values = role_defaults("kimi_acceptance", "kimi_frontdoor", **overrides)
    assert template_value("kimi_acceptance_entry_url | trim", values) == url
    assert template_value("kimi_acceptance_entry_metrics_networks", values) == \
        values.get("kimi_frontdoor_scrape_networks")
    alone = role_defaults("kimi_acceptance")  # the front door's role not in the play: the same defaults
    assert template_value("kimi_acceptance_entry_url | trim", alone) == "https://127.0.0.1:8443"
