"""Preflight's GPU device checks (kimi_deploy.core.gpu_devices, kimi_gpu_facts check_devices) with injected facts."""

from __future__ import annotations

import os

import kimi_gpu_facts
import pytest
import yaml
from kimi_deploy.core.gpu_devices import (
    allowed_majors,
    device_problems,
    modules_dep_has,
    parse_proc_devices,
    read_device_facts,
)
from module_harness import run_module
from repo_paths import REPO

DEVICE_ALLOW = [d["name"] for d in
                yaml.safe_load((REPO / "roles/kimi/vars/main.yml").read_text())["kimi_gpu_device_allow"]]
R580 = "Character devices:\n195 nvidia\n195 nvidiactl\n509 nvidia-uvm\n511 nvidia-caps\n\nBlock devices:\n259 blkext\n"


def facts(proc=R580, **changes):
    base = {
        "proc_devices": [list(entry) for entry in parse_proc_devices(proc)],
        "dev_nodes": {"nvidia0": [195, 0], "nvidiactl": [195, 255], "nvidia-uvm": [509, 0]},
        "uvm_module_loaded": True, "uvm_module_available": True,
        "nvswitch_count": 0, "fabricmanager": None,
    }
    base.update(changes)
    return base


def test_parse_reads_only_the_character_section():
    assert parse_proc_devices(R580) == [(195, "nvidia"), (195, "nvidiactl"), (509, "nvidia-uvm"), (511, "nvidia-caps")]
    assert parse_proc_devices(R580, "Block") == [(259, "blkext")]


def test_allowed_majors_follow_systemds_fnmatch():
    proc = parse_proc_devices(R580)
    assert allowed_majors(["nvidia-frontend", "nvidia", "nvidia-*"], proc) == {
        "nvidia-frontend": set(), "nvidia": {195}, "nvidia-*": {509, 511}}


def test_a_healthy_r580_host_has_no_problem():
    assert device_problems(facts(), DEVICE_ALLOW) == []


def test_the_old_device_list_is_refused_on_a_new_driver():
    problems = device_problems(facts(), ["nvidia-frontend", "nvidia-uvm", "nvidia-caps"])
    assert len(problems) == 1
    assert "195 nvidia" not in problems[0] and "nvidia (195)" in problems[0] and "nvidiactl (195)" in problems[0]


def test_no_nvidia_module_is_named():
    problems = device_problems(facts(proc="Character devices:\n  1 mem\n", dev_nodes={}), DEVICE_ALLOW)
    assert any("no NVIDIA GPU device" in p for p in problems)


def test_missing_uvm_node_passes_while_the_module_can_be_loaded():
    """kimi-nvidia-uvm.service loads it and makes the node before the service starts."""
    injected = facts(proc="Character devices:\n195 nvidia\n195 nvidiactl\n",
                     dev_nodes={"nvidia0": [195, 0], "nvidiactl": [195, 255]}, uvm_module_loaded=False)
    assert device_problems(injected, DEVICE_ALLOW) == []


def test_missing_uvm_node_without_the_module_is_refused():
    injected = facts(dev_nodes={"nvidia0": [195, 0]}, uvm_module_loaded=False, uvm_module_available=False)
    (problem,) = device_problems(injected, DEVICE_ALLOW)
    assert problem.startswith("/dev/nvidia-uvm does not exist") and "nvidia-uvm.ko" in problem


def test_a_stale_uvm_node_is_refused():
    injected = facts(dev_nodes={"nvidia0": [195, 0], "nvidia-uvm": [237, 0]})
    (problem,) = device_problems(injected, DEVICE_ALLOW)
    assert "major 237" in problem and "509" in problem


@pytest.mark.parametrize("state", [None, "inactive", "failed", "activating"])
def test_nvswitch_systems_need_the_fabric_manager(state):
    (problem,) = device_problems(facts(nvswitch_count=4, fabricmanager=state), DEVICE_ALLOW)
    assert "4 NVSwitch(es)" in problem and "nvidia-fabricmanager.service" in problem


def test_nvswitch_systems_with_the_fabric_manager_pass():
    assert device_problems(facts(nvswitch_count=4, fabricmanager="active"), DEVICE_ALLOW) == []


def test_modules_dep_finds_compressed_and_dkms_modules():
    assert modules_dep_has("updates/dkms/nvidia-uvm.ko: updates/dkms/nvidia.ko\n", "nvidia-uvm")
    assert modules_dep_has("kernel/drivers/video/nvidia_uvm.ko.zst:\n", "nvidia-uvm")
    assert not modules_dep_has("updates/dkms/nvidia.ko:\n", "nvidia-uvm")


def test_read_device_facts_from_a_fake_host(tmp_path):
    (tmp_path / "devices").write_text(R580, encoding="ascii")
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "nvidia-caps").mkdir()  # a directory, not a node: ignored
    (dev / "nvidia0").write_text("")  # a regular file, not a node: ignored
    (tmp_path / "module" / "nvidia_uvm").mkdir(parents=True)
    for name, vendor, klass in (("0000:05:00.0", "0x10de", "0x068000"), ("0000:18:00.0", "0x10de", "0x030200"),
                                ("0000:00:01.0", "0x8086", "0x068000")):
        pci = tmp_path / "pci" / name
        pci.mkdir(parents=True)
        (pci / "vendor").write_text(vendor + "\n")
        (pci / "class").write_text(klass + "\n")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "modules.dep").write_text("updates/dkms/nvidia-uvm.ko: updates/dkms/nvidia.ko\n")
    found = read_device_facts(str(tmp_path / "devices"), str(dev), str(tmp_path / "module"), str(tmp_path / "pci"),
                              str(tmp_path / "lib"))
    assert found["proc_devices"][:2] == [[195, "nvidia"], [195, "nvidiactl"]]
    assert found["dev_nodes"] == {}
    assert found["uvm_module_loaded"] and found["uvm_module_available"]
    assert found["nvswitch_count"] == 1 and found["fabricmanager"] is None
    if os.geteuid() == 0:
        os.mknod(dev / "nvidia-uvm", 0o20666, os.makedev(509, 0))
        assert read_device_facts(str(tmp_path / "devices"), str(dev))["dev_nodes"] == {"nvidia-uvm": [509, 0]}


H200_OVERRIDE = [{"name": "NVIDIA H200", "memory_total_mib": 143771, "count": 8}]


def test_module_reports_device_problems_from_injected_facts():
    result = run_module(kimi_gpu_facts, {
        "gpus_override": H200_OVERRIDE, "check_devices": True, "device_allow": DEVICE_ALLOW,
        "devices_override": facts(nvswitch_count=4, fabricmanager="inactive")})
    assert "failed" not in result, result
    assert result["ansible_facts"]["kimi_gpu_devices"]["nvswitch_count"] == 4
    assert len(result["device_problems"]) == 1 and "fabricmanager" in result["device_problems"][0]


def test_module_skips_the_device_checks_unless_asked():
    result = run_module(kimi_gpu_facts, {"gpus_override": H200_OVERRIDE, "devices_override": facts(dev_nodes={})})
    assert result["device_problems"] == [] and result["ansible_facts"]["kimi_gpu_devices"] is None


def test_preflight_checks_devices_only_on_gpu_hosts_with_real_gpus():
    """Hosts without GPUs (kimi_platform cpu, or GPUs given by kimi_gpus_override) skip the checks."""
    tasks = yaml.safe_load((REPO / "roles/kimi_preflight/tasks/facts.yml").read_text())
    gather = next(t for t in tasks if "kimi.deploy.kimi_gpu_facts" in t)
    assert gather["kimi.deploy.kimi_gpu_facts"]["check_devices"] == (
        "{{ kimi_platform == 'cuda' and kimi_gpus_override | length == 0 }}")
    assert "kimi_gpu_device_allow" in gather["kimi.deploy.kimi_gpu_facts"]["device_allow"]
    check = next(t for t in tasks if "device_problems" in str(t.get("ansible.builtin.assert", "")))
    assert "device_problems" in check["ansible.builtin.assert"]["that"]
