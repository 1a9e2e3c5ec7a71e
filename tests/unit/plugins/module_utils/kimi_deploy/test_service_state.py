"""Issue 11 (3): restart and daemon-reload from what the running service loaded; the health
gate probes the address vLLM binds; the unit's start-up wait reads the release's port."""

import hashlib
import importlib.machinery
import importlib.util
from unittest import mock

import kimi_vllm_health
import kimi_vllm_state
import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.service_state import (
    parse_environ,
    restart_decision,
    running_release,
    secrets_hash,
)
from kimi_deploy.io.health import probe_address, probe_url
from module_harness import run_module
from repo_paths import REPO

ACTIVE = {"ActiveState": "active", "NeedDaemonReload": "no"}


# -- restart needed? -----------------------------------------------------------------------


def test_nothing_to_do_when_the_service_loaded_everything():
    d = restart_decision(ACTIVE, current="r1", running="r1", secrets_on_disk="h", secrets_loaded="h")
    assert (d.restart, d.daemon_reload, d.reasons) == (False, False, [])


def test_a_unit_written_by_a_failed_run_is_reloaded_and_restarted():
    d = restart_decision({**ACTIVE, "NeedDaemonReload": "yes"}, current="r1", running="r1",
                         secrets_on_disk="h", secrets_loaded="h")
    assert d.restart and d.daemon_reload and "unit file" in d.reasons[0]


def test_a_rotated_key_written_by_a_failed_run_restarts():
    d = restart_decision(ACTIVE, current="r1", running="r1", secrets_on_disk="new", secrets_loaded="old")
    assert d.restart and not d.daemon_reload and "secrets" in d.reasons[0]


def test_a_service_on_another_release_than_current_restarts():
    d = restart_decision(ACTIVE, current="r2", running="r1", secrets_on_disk="h", secrets_loaded="h")
    assert d.restart and "runs release r1, current is r2" in d.reasons[0]


def test_a_rollback_onto_the_release_the_process_runs_keeps_it_serving():
    """A repaired current link: the process already runs the target, so nothing restarts."""
    d = restart_decision(ACTIVE, current="r1", running="r1", secrets_on_disk="h", secrets_loaded="h",
                         current_moved=True)
    assert (d.restart, d.reasons) == (False, [])


def test_a_rollback_restarts_a_process_whose_release_is_not_known():
    d = restart_decision(ACTIVE, current="r1", running="", secrets_on_disk="h", secrets_loaded="h",
                         current_moved=True)
    assert d.restart and "current moved to r1" in d.reasons[0]
    # without the move, an unnamed release is no reason (a service started outside a release)
    assert not restart_decision(ACTIVE, current="r1", running="", secrets_on_disk="h", secrets_loaded="h").restart


def test_a_stopped_service_needs_a_start_not_a_restart():
    d = restart_decision({"ActiveState": "inactive", "NeedDaemonReload": "yes"}, current="r2", running="",
                         secrets_on_disk="new", secrets_loaded="")
    assert d.restart is False and d.daemon_reload is True


def test_running_release_and_environ_parsing():
    cmd = ["/opt/kimi/shared/venvs/v1/bin/python3", "/opt/kimi/releases/0.32.0-abc/venv/bin/kimi-vllm", "serve"]
    assert running_release(cmd, "/opt/kimi/") == "0.32.0-abc"
    assert running_release(["/bin/sh", "/opt/kimi/current/serve"], "/opt/kimi") == ""
    # vLLM may retitle its process: the release's serve exports where it runs from
    assert running_release(["VLLM::APIServer"], "/opt/kimi", {"KIMI_RELEASE_DIR": "/opt/kimi/releases/r7"}) == "r7"
    assert parse_environ(b"A=1\0KIMI_SECRETS_SHA256=x=y\0") == {"A": "1", "KIMI_SECRETS_SHA256": "x=y"}


def test_secrets_hash_reads_the_declared_line_or_hashes_an_old_file():
    assert secrets_hash("VLLM_API_KEY=\"k\"\nKIMI_SECRETS_SHA256=abc\n") == "abc"
    assert secrets_hash("VLLM_API_KEY=\"k\"\n") == hashlib.sha256(b"VLLM_API_KEY=\"k\"\n").hexdigest()
    assert secrets_hash(None) == ""


def test_the_secrets_template_declares_its_hash():
    text = (REPO / "roles/kimi_vllm/templates/secrets.env.j2").read_text()
    assert "KIMI_SECRETS_SHA256={{" in text


def test_state_module_reports_a_restart_for_a_stale_unit(tmp_path):
    (tmp_path / "releases" / "r1").mkdir(parents=True)
    (tmp_path / "current").symlink_to("releases/r1")
    secrets = tmp_path / "secrets.env"
    secrets.write_text("KIMI_SECRETS_SHA256=aaa\n")
    show = "LoadState=loaded\nActiveState=active\nSubState=running\nNeedDaemonReload=yes\nMainPID=4242\n"
    proc = {"/proc/4242/cmdline": f"x\0{tmp_path}/releases/r1/venv/bin/kimi-vllm\0serve\0".encode(),
            "/proc/4242/environ": b"KIMI_SECRETS_SHA256=aaa\0"}
    real_read = kimi_vllm_state._read
    with mock.patch.object(kimi_vllm_state.AnsibleModule, "run_command", return_value=(0, show, "")), \
         mock.patch.object(kimi_vllm_state, "_read",
                           side_effect=lambda p, binary=False: proc.get(p) if p in proc else real_read(p, binary)):
        result = run_module(kimi_vllm_state, {"root": str(tmp_path), "secrets_file": str(secrets)},
                            check_mode=True)
    assert result["changed"] is False
    assert result["restart_required"] and result["daemon_reload"] and result["running_release"] == "r1"
    assert result["reasons"] == ["the unit file changed since the service loaded it"]


# -- the address the health gate probes -------------------------------------------------------


@pytest.mark.parametrize(("bind", "url"), [
    ("0.0.0.0", "http://127.0.0.1:8000"),
    ("", "http://127.0.0.1:8000"),
    ("10.89.50.11", "http://10.89.50.11:8000"),
    ("::", "http://[::1]:8000"),
    ("fe80::1", "http://[fe80::1]:8000"),
])
def test_probe_url_is_the_address_vllm_binds(bind, url):
    assert probe_url(bind, 8000) == url


def test_a_host_name_is_refused_before_anything_waits():
    with pytest.raises(KimiDeployError, match="IP address"):
        probe_address("gpu-1.internal")


def test_health_module_probes_the_bound_interface():
    seen = []

    def fake_http(url, **_):
        seen.append(url)
        from kimi_deploy.io.health import HttpAnswer
        return HttpAnswer(200, '{"data": [{"id": "tiny"}]}', 1.0)

    def fake_wait(base_url, **_):
        seen.append(base_url + "/health")
        return 0.5

    with mock.patch.object(kimi_vllm_health, "http_request", side_effect=fake_http), \
         mock.patch.object(kimi_vllm_health, "wait_healthy", side_effect=fake_wait):
        result = run_module(kimi_vllm_health, {"bind_host": "10.89.50.11", "port": 8011,
                                               "served_model_name": "tiny", "smoke": False})
    assert not result.get("failed"), result
    assert result["url"] == "http://10.89.50.11:8011"
    assert seen and all(u.startswith("http://10.89.50.11:8011/") for u in seen)


# -- the unit's start-up wait: port-independent, reads the release's environment ---------------


def _wait_script():
    path = REPO / "roles/kimi_vllm/files/kimi-wait-http-ok"
    loader = importlib.machinery.SourceFileLoader("kimi_wait_http_ok", str(path))
    spec = importlib.util.spec_from_loader("kimi_wait_http_ok", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_wait_script_uses_the_release_port_then_vllm_flags():
    script = _wait_script()
    assert script.health_url({"KIMI_BIND_HOST": "0.0.0.0", "KIMI_PORT": "8011"}, []) == \
        "http://127.0.0.1:8011/health"
    assert script.health_url({}, ["python", "kimi-vllm", "serve", "/m", "--host", "10.0.0.5", "--port", "9000"]) \
        == "http://10.0.0.5:9000/health"
    assert script.health_url({}, ["/bin/sh", "/opt/kimi/current/serve"]) is None


@pytest.mark.parametrize("bind", ["", "0.0.0.0", "*", "::", "localhost", "10.1.2.3", "fe80::1"])
def test_wait_script_and_health_gate_probe_the_same_address(bind):
    assert _wait_script().probe_address(bind) == probe_address(bind)


def test_the_unit_names_no_port():
    unit = (REPO / "roles/kimi_vllm/templates/kimi-vllm.service.j2").read_text()
    post = [line for line in unit.splitlines() if line.startswith("ExecStartPost=")]
    assert post and all("kimi_port" not in line and "127.0.0.1" not in line for line in post)
    env = (REPO / "roles/kimi_release/templates/vllm.env.j2").read_text()
    assert "KIMI_PORT=" in env and "KIMI_BIND_HOST=" in env
