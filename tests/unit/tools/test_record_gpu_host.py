"""tools/record_gpu_host.py on a faked host: every source written where the fixtures expect it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from record_gpu_host import STEPS, Host, record_host
from record_nvml_facts import fake_pynvml, load_fixture
from repo_paths import REPO

R580 = "Character devices:\n195 nvidia\n195 nvidiactl\n509 nvidia-uvm\n\nBlock devices:\n259 blkext\n"
PROBE_RESULT = {"ok": True, "torch": "2.9.0", "torch_cuda": "13.0", "init_s": 4.2,
                "gpus": [{"index": 0, "name": "NVIDIA H200", "capability": "9.0", "free_bytes": 1, "total_bytes": 2,
                          "torch_reserved_bytes": 2097152, "context_bytes": 534773760}]}


def fake_host(tmp_path: Path, calls: list[list[str]], probe_stdout: str = json.dumps(PROBE_RESULT)) -> Host:
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc" / "devices").write_text(R580, encoding="ascii")
    (tmp_path / "proc" / "version").write_text("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05\n")
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "nvidiactl").write_text("")
    pci = tmp_path / "pci" / "0000:05:00.0"
    pci.mkdir(parents=True)
    (pci / "vendor").write_text("0x10de\n")
    (pci / "class").write_text("0x068000\n")

    def run(argv, **kwargs):
        calls.append(list(argv))
        answers = {"ls": "crw-rw-rw- 1 root root 195, 255 Dec  1 10:00 /dev/nvidiactl\n",
                   "nvidia-smi": "==============NVSMI LOG==============\nDriver Version : 580.95.05\n",
                   "systemctl": "active\n",
                   "journalctl": (REPO / "tests/fixtures/vllm-memory-logs/v0.32-info.log").read_text()}
        if Path(argv[0]).name in answers:
            return subprocess.CompletedProcess(argv, 0, answers[Path(argv[0]).name], "")
        assert kwargs["env"]["HF_HUB_OFFLINE"] == "1" and kwargs["preexec_fn"] is not None
        return subprocess.CompletedProcess(argv, 0, "torch says hello\n" + probe_stdout + "\n", "")

    return Host(proc_devices=str(tmp_path / "proc" / "devices"), dev_dir=str(dev),
                sys_module_dir=str(tmp_path / "module"), pci_dir=str(tmp_path / "pci"),
                modules_dir=str(tmp_path / "lib"), driver_version_file=str(tmp_path / "proc" / "version"),
                nvidia_smi="/usr/bin/nvidia-smi", python="/venv/bin/python", run=run,
                load_pynvml=lambda: fake_pynvml(load_fixture(REPO / "tests/fixtures/nvml/h200x8-r580.json")))


def test_records_every_source_into_one_directory(tmp_path):
    calls: list[list[str]] = []
    out = tmp_path / "out"
    summary = record_host(out, fake_host(tmp_path, calls))
    assert summary["files"] == ["cuda-probe.json", "dev-nvidia.txt", "devices.json", "nvidia-smi-q.txt",
                                "nvml.json", "proc-devices.txt", "vllm-memory.json"]
    assert list(summary["steps"]) == list(STEPS)
    assert all("error" not in step for step in summary["steps"].values()), summary["steps"]
    assert (out / "proc-devices.txt").read_text() == R580
    assert "580.95.05" in summary["driver"]
    nvml = summary["steps"]["nvml"]
    assert (nvml["driver_version"], nvml["cuda_driver_version"], len(nvml["gpus"])) == ("580.95.05", "13.0", 8)
    assert nvml["gpus"][0] == {"name": "NVIDIA H200", "memory_total_mib": 143771, "compute_capability": "9.0",
                               "mig_enabled": False}
    devices = json.loads((out / "devices.json").read_text())
    assert devices["facts"]["nvswitch_count"] == 1 and devices["facts"]["fabricmanager"] == "active"
    # no /dev/nvidia-uvm and no nvidia_uvm module on the fake host: the problem preflight would report
    assert len(devices["problems"]) == 1 and "nvidia-uvm" in devices["problems"][0]
    probe = json.loads((out / "cuda-probe.json").read_text())
    assert probe["approximation"] is True and probe["ok"] is True
    assert any("NoNewPrivileges" in a for a in probe["applied"])
    assert any("DeviceAllow" in n for n in probe["not_applied"])
    assert summary["steps"]["cuda_probe"]["context_bytes"] == [534773760]
    assert ["systemctl", "is-active", "nvidia-fabricmanager.service"] in calls
    assert json.loads((out / "record.json").read_text()) == summary
    memory = json.loads((out / "vllm-memory.json").read_text())
    assert memory["facts"]["profiling"] == "measured" and memory["facts"]["kv_tokens"] == 1_612_800
    assert summary["steps"]["vllm_memory"]["items"]["cudagraph_reserve_bytes"] == round(2.10 * 1024**3)


def test_the_nvml_file_replays_as_a_fixture(tmp_path):
    """nvml.json is in tools/record_nvml_facts.py's format: kimi_gpu_facts' tests can load it."""
    from kimi_deploy.io.gpu_facts import collect_nvml

    record_host(tmp_path / "out", fake_host(tmp_path, []), ["nvml"])
    facts = collect_nvml(fake_pynvml(load_fixture(tmp_path / "out" / "nvml.json")))
    assert facts["driver_version"] == "580.95.05" and len(facts["gpus"]) == 8


def test_a_source_that_cannot_be_read_is_recorded_not_fatal(tmp_path):
    host = fake_host(tmp_path, [], probe_stdout="")
    host.proc_devices = str(tmp_path / "missing")
    host.load_pynvml = None
    host.nvidia_smi = "no-such-nvidia-smi"
    summary = record_host(tmp_path / "out", host)
    steps = summary["steps"]
    assert "FileNotFoundError" in steps["proc_devices"]["error"]
    assert steps["nvidia_smi"] == {"skipped": "no-such-nvidia-smi is not on PATH"}
    assert steps["cuda_probe"]["ok"] is False
    assert "printed no result" in json.loads((tmp_path / "out" / "cuda-probe.json").read_text())["error"]


def test_the_real_probe_runs_with_no_new_privileges(tmp_path):
    """The probe child really starts under PR_SET_NO_NEW_PRIVS; here without torch or a GPU it reports
    why CUDA did not start instead of failing the recording."""
    host = Host(proc_devices="/proc/devices", dev_dir=str(tmp_path), python=sys.executable)
    summary = record_host(tmp_path / "out", host, ["cuda_probe"])
    probe = json.loads((tmp_path / "out" / "cuda-probe.json").read_text())
    assert probe["approximation"] is True and "python" in probe, probe
    if not probe["ok"]:
        assert probe["error"], probe
    assert summary["steps"]["cuda_probe"]["ok"] == probe["ok"]


def test_command_line_without_the_cuda_probe(tmp_path):
    proc = subprocess.run([sys.executable, str(REPO / "tools/record_gpu_host.py"), str(tmp_path / "out"),
                           "--no-cuda-probe"], capture_output=True, text=True, check=False)
    assert proc.returncode in (0, 1), proc.stderr
    record = json.loads((tmp_path / "out" / "record.json").read_text())
    assert "cuda_probe" not in record["steps"] and "proc-devices.txt" in record["files"]


@pytest.mark.parametrize("name", sorted(p.name for p in (REPO / "tests/fixtures/gpu-hosts").iterdir() if p.is_dir()))
def test_fixture_directories_use_the_recorders_file_names(name):
    known = {"proc-devices.txt", "dev-nvidia.txt", "nvidia-smi-q.txt", "nvml.json", "devices.json",
             "cuda-probe.json", "record.json"}
    files = {p.name for p in (REPO / "tests/fixtures/gpu-hosts" / name).iterdir()}
    assert files and files <= known
