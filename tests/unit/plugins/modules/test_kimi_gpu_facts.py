"""kimi_gpu_facts run in-process, with fake pynvml bindings put into sys.modules."""

import os
import resource
import sys
from types import ModuleType

import kimi_gpu_facts
import pytest
from module_harness import run_module
from record_nvml_facts import fake_pynvml, load_fixture
from repo_paths import FIXTURES as ALL_FIXTURES

FIXTURES = ALL_FIXTURES / "nvml"

MIB = 2**20
H200_OVERRIDE = [{"name": "NVIDIA H200", "memory_total_mib": 143771, "count": 8}]


@pytest.fixture
def bindings(monkeypatch):
    """Install fake pynvml bindings answering from a fixture file; returns the fake module."""
    def install(fixture_name):
        fake = fake_pynvml(load_fixture(FIXTURES / fixture_name))
        monkeypatch.setitem(sys.modules, "pynvml", fake)
        return fake
    return install


class UntouchablePynvml(ModuleType):
    def __getattr__(self, name):
        raise AssertionError(f"pynvml.{name} was used although gpus_override was given")


def test_nvml_host(bindings):
    fake = bindings("h200x8-r580.json")
    raw = load_fixture(FIXTURES / "h200x8-r580.json")
    result = run_module(kimi_gpu_facts, {"required_cuda": "13.0"})
    assert "failed" not in result, result
    assert result["changed"] is False
    facts = result["ansible_facts"]
    assert facts["kimi_gpu_facts_source"] == "nvml"
    assert facts["kimi_gpu_driver_version"] == "580.95.05"
    assert facts["kimi_gpu_cuda_driver_version"] == "13.0"
    assert [g["name"] for g in facts["kimi_gpus"]] == [d["nvmlDeviceGetName"] for d in raw["devices"]]
    assert [g["memory_total_mib"] for g in facts["kimi_gpus"]] == [
        d["nvmlDeviceGetMemoryInfo"]["total"] // MIB for d in raw["devices"]]
    assert [g["pci_bus_id"] for g in facts["kimi_gpus"]] == [
        d["nvmlDeviceGetPciInfo"]["busId"] for d in raw["devices"]]
    assert result["driver_problems"] == [] and result["gpu_problems"] == []
    assert "msg" not in result
    assert fake.init_count == 0  # NVML shut down again


def test_check_mode_reads_the_same_facts(bindings):
    bindings("b300x8-r580.json")
    normal = run_module(kimi_gpu_facts, {"required_cuda": "cu130"})
    bindings("b300x8-r580.json")
    checked = run_module(kimi_gpu_facts, {"required_cuda": "cu130"}, check_mode=True)
    assert checked["changed"] is False
    assert checked["ansible_facts"]["kimi_gpus"] == normal["ansible_facts"]["kimi_gpus"]
    assert len(checked["ansible_facts"]["kimi_gpus"]) == 8
    assert {g["architecture"] for g in checked["ansible_facts"]["kimi_gpus"]} == {"blackwell"}


def test_old_driver_is_reported_not_failed(bindings):
    bindings("h100x8-r535.json")
    result = run_module(kimi_gpu_facts, {"required_cuda": "13.0"})
    assert "failed" not in result
    [problem] = result["driver_problems"]
    assert "535.183.01" in problem and "r580" in problem


def test_gpu_problems_with_memory_threshold(bindings):
    bindings("h200x8-ecc-busy.json")
    result = run_module(kimi_gpu_facts, {"max_gpu_memory_used_mib": 1024})
    assert [p.split(" (")[0] for p in result["gpu_problems"]] == ["GPU 3", "GPU 6"]
    assert result["driver_problems"] == []  # no required_cuda, nothing checked


def test_override_does_not_touch_nvml(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", UntouchablePynvml("pynvml"))
    result = run_module(kimi_gpu_facts, {"gpus_override": H200_OVERRIDE, "required_cuda": "13.0"},
                        check_mode=True)
    assert "failed" not in result, result
    facts = result["ansible_facts"]
    assert facts["kimi_gpu_facts_source"] == "override"
    assert len(facts["kimi_gpus"]) == 8
    assert {(g["architecture"], g["uuid"]) for g in facts["kimi_gpus"]} == {("hopper", None)}
    assert facts["kimi_gpu_driver_version"] is None
    assert result["driver_problems"] == []


def test_override_error_names_entry_and_field():
    result = run_module(kimi_gpu_facts, {"gpus_override": [{"name": "NVIDIA H200", "memory_total_mib": "141GB"}]})
    assert result["failed"] is True
    assert "kimi_gpus_override[0].memory_total_mib must be a whole number" in result["msg"]


def test_override_with_driver_override_exercises_the_driver_check():
    result = run_module(kimi_gpu_facts, {
        "gpus_override": H200_OVERRIDE, "driver_version_override": "535.183.01",
        "cuda_driver_version_override": "12.2", "required_cuda": "13.0"})
    assert result["ansible_facts"]["kimi_gpu_driver_version"] == "535.183.01"
    assert result["ansible_facts"]["kimi_gpu_cuda_driver_version"] == "12.2"
    assert len(result["driver_problems"]) == 1


@pytest.mark.parametrize(("args", "message"), [
    ({"driver_version_override": "535.183.01", "cuda_driver_version_override": "12.2"},
     "required by 'driver_version_override': gpus_override"),
    ({"gpus_override": H200_OVERRIDE, "driver_version_override": "535.183.01"},
     "required together: driver_version_override, cuda_driver_version_override"),
])
def test_driver_override_argument_rules(args, message):
    result = run_module(kimi_gpu_facts, args)
    assert result["failed"] is True
    assert message in result["msg"]


def test_missing_pynvml_fails_with_the_fix(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", None)  # makes `import pynvml` raise ImportError
    result = run_module(kimi_gpu_facts, {})
    assert result["failed"] is True
    for needed in (sys.executable, "nvidia-ml-py", "pip install", "ansible_python_interpreter"):
        assert needed in result["msg"]


def test_missing_pynvml_is_fine_for_the_cpu_build(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", None)
    result = run_module(kimi_gpu_facts, {"require_gpus": False, "required_cuda": "13.0"})
    assert "failed" not in result
    assert result["ansible_facts"]["kimi_gpus"] == []
    assert result["ansible_facts"]["kimi_gpu_facts_source"] == "none"
    assert "nvidia-ml-py" in result["msg"]
    assert result["driver_problems"] == []


def test_nvml_init_failure_fails_with_advice(bindings):
    bindings("driver-not-loaded.json")
    result = run_module(kimi_gpu_facts, {})
    assert result["failed"] is True
    assert "NVML_ERROR_DRIVER_NOT_LOADED" in result["msg"] and "modprobe nvidia" in result["msg"]


def test_host_facts_are_this_host(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", None)
    facts = run_module(kimi_gpu_facts, {"require_gpus": False})["ansible_facts"]
    with open("/proc/meminfo") as handle:
        total_kib = int(next(line for line in handle if line.startswith("MemTotal:")).split()[1])
    assert facts["kimi_host_memory_total_mib"] == total_kib // 1024
    assert 0 < facts["kimi_host_memory_available_mib"] <= facts["kimi_host_memory_total_mib"]
    assert facts["kimi_host_cpu_count"] == len(os.sched_getaffinity(0))
    shm = os.statvfs("/dev/shm")
    assert facts["kimi_host_shm_bytes"] == shm.f_blocks * shm.f_frsize
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert facts["kimi_host_nofile_limit"] == {"soft": soft, "hard": hard}
