#!/usr/bin/env python
"""Record what the GPU-unit tests and the sizing ledger need from a real GPU host, into one directory.

    sudo python3 tools/record_gpu_host.py OUT_DIR [--service-user kimi-vllm] [--python VENV/bin/python]
    python3 tools/record_gpu_host.py OUT_DIR --no-cuda-probe      # facts only, nothing runs on the GPUs

OUT_DIR gets one file per source, named as tests/fixtures/gpu-hosts/ expects them, and record.json,
which lists the files and holds every measurement:

    proc-devices.txt   /proc/devices (the names DeviceAllow=char-<name> is matched against)
    dev-nvidia.txt     ls -l of /dev/nvidia*, /dev/nvidia-caps*, /dev/infiniband
    nvidia-smi-q.txt   nvidia-smi -q
    nvml.json          the NVML answers kimi_gpu_facts reads (tools/record_nvml_facts.py format)
    devices.json       kimi_deploy.core.gpu_devices.read_device_facts (+ fabric manager state) and the
                       problems preflight would report for the units' device list
    cuda-probe.json    torch's CUDA start in a child process with the unit's restrictions that can
                       be had without systemd (an approximation: see "applied" and "not_applied"),
                       and what it measured: CUDA context size per GPU (NVML used memory before and
                       after the context), free/total memory, start time
    vllm-memory.json   what the last start of the vLLM unit (--unit, default kimi-vllm) measured, per memory item,
                       read from its journal by kimi_deploy.core.vllm_log (the figures and the lines they came from,
                       never the whole journal); start it with kimi_plan_calibration_start for the DEBUG breakdown
    record.json        host, driver, kernel, the files above and a summary of each step

Each step is a function in STEPS; the measured ledger's step is vllm_memory.
A step that cannot run (no nvidia-smi, no torch) is recorded with its reason, never fatal.
Recorded files hold GPU UUIDs, PCI bus ids and the host name: review them before publishing.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import pwd
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "plugins" / "module_utils"))
import yaml
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.gpu_devices import FABRIC_MANAGER_UNIT, device_problems, read_device_facts
from kimi_deploy.core.vllm_log import memory_profile
from kimi_deploy.io.gpu_facts import collect_nvml

SCHEMA = 1

# The child process torch starts CUDA in. It prints one JSON object; NVML (when importable) measures
# the memory the CUDA context takes on each GPU: used after the context minus used before it.
CUDA_PROBE = r"""
import json, os, sys, time
out = {"python": sys.version.split()[0]}
try:
    import pynvml
    pynvml.nvmlInit()
    handles = [pynvml.nvmlDeviceGetHandleByIndex(i) for i in range(pynvml.nvmlDeviceGetCount())]
    used = lambda: [pynvml.nvmlDeviceGetMemoryInfo(h).used for h in handles]
except Exception as err:  # no NVML: no context size
    handles, used = [], None
    out["nvml_error"] = repr(err)
before = used() if used else None
start = time.monotonic()
try:
    import torch
    out["torch"] = torch.__version__
    out["torch_cuda"] = torch.version.cuda
    torch.cuda.init()
    count = torch.cuda.device_count()
    for i in range(count):
        torch.zeros(1, device=f"cuda:{i}")
    torch.cuda.synchronize()
    out["init_s"] = round(time.monotonic() - start, 3)
    out["gpus"] = []
    for i in range(count):
        free, total = torch.cuda.mem_get_info(i)
        out["gpus"].append({"index": i, "name": torch.cuda.get_device_name(i),
                            "capability": ".".join(map(str, torch.cuda.get_device_capability(i))),
                            "free_bytes": free, "total_bytes": total,
                            "torch_reserved_bytes": torch.cuda.memory_reserved(i)})
    if before is not None:
        after = used()
        for gpu in out["gpus"]:
            if gpu["index"] < len(after):
                gpu["context_bytes"] = after[gpu["index"]] - before[gpu["index"]] - gpu["torch_reserved_bytes"]
    out["ok"] = True
except Exception as err:
    out["ok"] = False
    out["error"] = f"{type(err).__name__}: {err}"
print(json.dumps(out))
"""


@dataclass
class Host:
    """Where the recorder looks; every path and command can be pointed at fakes (the unit tests do)."""

    proc_devices: str = "/proc/devices"
    dev_dir: str = "/dev"
    sys_module_dir: str = "/sys/module"
    pci_dir: str = "/sys/bus/pci/devices"
    modules_dir: str | None = None
    driver_version_file: str = "/proc/driver/nvidia/version"
    nvidia_smi: str = "nvidia-smi"
    python: str = sys.executable
    service_user: str | None = None
    unit: str = "kimi-vllm"
    run: Callable[..., subprocess.CompletedProcess] = subprocess.run
    load_pynvml: Callable[[], Any] | None = None
    notes: list[str] = field(default_factory=list)


def _command(host: Host, argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess | str:
    """The finished process, or why it could not run."""
    try:
        return host.run(argv, capture_output=True, text=True, check=False, timeout=600, **kwargs)
    except (OSError, subprocess.SubprocessError) as err:
        return f"{argv[0]}: {err}"


def step_proc_devices(host: Host, out: Path) -> dict[str, Any]:
    text = Path(host.proc_devices).read_text(encoding="utf-8", errors="replace")
    (out / "proc-devices.txt").write_text(text, encoding="utf-8")
    return {"file": "proc-devices.txt"}


def step_dev_nvidia(host: Host, out: Path) -> dict[str, Any]:
    dev = Path(host.dev_dir)
    infiniband = [str(dev / "infiniband")] if (dev / "infiniband").exists() else []
    paths = sorted(str(p) for p in dev.glob("nvidia*")) + infiniband
    if not paths:
        return {"skipped": f"no {dev}/nvidia* nodes"}
    proc = _command(host, ["ls", "-l", *paths])
    if isinstance(proc, str):
        return {"skipped": proc}
    (out / "dev-nvidia.txt").write_text(proc.stdout, encoding="utf-8")
    return {"file": "dev-nvidia.txt"}


def step_nvidia_smi(host: Host, out: Path) -> dict[str, Any]:
    if shutil.which(host.nvidia_smi) is None and not os.path.isabs(host.nvidia_smi):
        return {"skipped": f"{host.nvidia_smi} is not on PATH"}
    proc = _command(host, [host.nvidia_smi, "-q"])
    if isinstance(proc, str):
        return {"skipped": proc}
    (out / "nvidia-smi-q.txt").write_text(proc.stdout + proc.stderr, encoding="utf-8")
    return {"file": "nvidia-smi-q.txt", "rc": proc.returncode}


def step_nvml(host: Host, out: Path) -> dict[str, Any]:
    from record_nvml_facts import fake_pynvml, record

    try:
        nvml = host.load_pynvml() if host.load_pynvml else __import__("pynvml")
    except ImportError:
        return {"skipped": "pynvml is not importable (pip install nvidia-ml-py)"}
    data = record(nvml)
    (out / "nvml.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    # What kimi_gpu_facts makes of these answers (the same code: gpu_facts.collect_nvml on a replay).
    try:
        facts = collect_nvml(fake_pynvml(data))
    except KimiDeployError as err:
        return {"file": "nvml.json", "error": str(err)}
    return {"file": "nvml.json", "driver_version": facts["driver_version"],
            "cuda_driver_version": facts["cuda_driver_version"],
            "gpus": [{k: g[k] for k in ("name", "memory_total_mib", "compute_capability", "mig_enabled")}
                     for g in facts["gpus"]]}


def step_devices(host: Host, out: Path) -> dict[str, Any]:
    facts = read_device_facts(host.proc_devices, host.dev_dir, host.sys_module_dir, host.pci_dir, host.modules_dir)
    if facts["nvswitch_count"]:
        proc = _command(host, ["systemctl", "is-active", FABRIC_MANAGER_UNIT])
        facts["fabricmanager"] = proc if isinstance(proc, str) else proc.stdout.strip()
    names = [d["name"] for d in yaml.safe_load((REPO / "roles/kimi/vars/main.yml").read_text())[
        "kimi_gpu_device_allow"]]
    problems = device_problems(facts, names)
    (out / "devices.json").write_text(json.dumps({"facts": facts, "device_allow": names, "problems": problems},
                                                 indent=2) + "\n", encoding="utf-8")
    return {"file": "devices.json", "problems": problems}


def _restrict(host: Host) -> tuple[Callable[[], None] | None, list[str], list[str]]:
    """What of the unit's sandbox a child process can get without systemd."""
    applied = ["NoNewPrivileges (prctl PR_SET_NO_NEW_PRIVS)", "the unit's offline Hugging Face / vLLM environment"]
    not_applied = ["DevicePolicy=closed + DeviceAllow (needs the unit's cgroup)",
                   "ProtectSystem/ProtectProc/ProtectKernel* (need systemd's mount namespace)",
                   "SystemCallFilter (needs seccomp from systemd)", "LimitMEMLOCK=infinity (needs the unit)"]
    user = None
    if host.service_user and os.geteuid() == 0:
        try:
            user = pwd.getpwnam(host.service_user)
            applied.append(f"runs as {host.service_user}, no capabilities")
        except KeyError:
            not_applied.append(f"user {host.service_user} does not exist: runs as root")
    else:
        not_applied.append("the service user (needs root and --service-user)")

    def preexec() -> None:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if user is not None:
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
        if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")

    return preexec, applied, not_applied


def step_cuda_probe(host: Host, out: Path) -> dict[str, Any]:
    preexec, applied, not_applied = _restrict(host)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "VLLM_NO_USAGE_STATS": "1", "HOME": "/tmp", "PYTHONUNBUFFERED": "1"}
    proc = _command(host, [host.python, "-c", CUDA_PROBE], env=env, preexec_fn=preexec)
    result: dict[str, Any] = {"approximation": True, "applied": applied, "not_applied": not_applied}
    if isinstance(proc, str):
        result.update(ok=False, error=proc)
    else:
        try:
            result.update(json.loads(proc.stdout.strip().splitlines()[-1]))
        except (IndexError, ValueError):
            result.update(ok=False, error=f"the probe printed no result (rc {proc.returncode}): {proc.stderr[-2000:]}")
    (out / "cuda-probe.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return {"file": "cuda-probe.json", "ok": result.get("ok", False),
            "context_bytes": [g.get("context_bytes") for g in result.get("gpus", [])]}


_MEMORY_LINE = ("Model loading took", "Loading model weights took", "Memory profiling", "memory reserved for KV",
                "KV cache memory", "KV cache size", "CUDA graph", "Free memory on device", "Requested memory",
                "Initial free memory", "non_torch_memory", "startup plan", "vLLM API server version")


def step_vllm_memory(host: Host, out: Path) -> dict[str, Any]:
    proc = _command(host, ["journalctl", "-u", f"{host.unit}.service", "-o", "cat", "--no-pager", "-n", "200000"])
    if isinstance(proc, str) or proc.returncode != 0:
        return {"skipped": proc if isinstance(proc, str) else f"journalctl rc {proc.returncode}: {proc.stderr[-500:]}"}
    text = proc.stdout
    facts = memory_profile(text)
    lines = [line for line in text.splitlines() if any(m in line for m in _MEMORY_LINE)]
    (out / "vllm-memory.json").write_text(json.dumps({"unit": host.unit, "facts": facts, "lines": lines[-200:]},
                                                     indent=2) + "\n", encoding="utf-8")
    return {"file": "vllm-memory.json", "profiling": facts["profiling"], "items": facts["items"]}


STEPS: dict[str, Callable[[Host, Path], dict[str, Any]]] = {
    "proc_devices": step_proc_devices,
    "dev_nvidia": step_dev_nvidia,
    "nvidia_smi": step_nvidia_smi,
    "nvml": step_nvml,
    "devices": step_devices,
    "cuda_probe": step_cuda_probe,
    "vllm_memory": step_vllm_memory,
}


def record_host(out: Path, host: Host, steps: list[str] | None = None) -> dict[str, Any]:
    """Run the steps into ``out`` and write record.json; returns it."""
    out.mkdir(parents=True, exist_ok=True)
    driver = Path(host.driver_version_file)
    summary: dict[str, Any] = {
        "schema": SCHEMA,
        "recorded_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "tool": "tools/record_gpu_host.py",
        "host": platform.node().split(".")[0],
        "kernel": platform.release(),
        "driver": driver.read_text(encoding="utf-8", errors="replace").strip() if driver.exists() else None,
        "steps": {},
    }
    for name in steps or list(STEPS):
        try:
            summary["steps"][name] = STEPS[name](host, out)
        except Exception as err:  # one failed source must not lose the others
            summary["steps"][name] = {"error": f"{type(err).__name__}: {err}"}
    summary["files"] = sorted(p.name for p in out.iterdir() if p.name != "record.json")
    (out / "record.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    parser.add_argument("out", type=Path, help="directory to write (created)")
    parser.add_argument("--python", default=sys.executable,
                        help="interpreter with torch for the CUDA probe (a release venv's bin/python)")
    parser.add_argument("--service-user", help="run the CUDA probe as this user (needs root), e.g. kimi-vllm")
    parser.add_argument("--no-cuda-probe", action="store_true", help="do not start CUDA")
    parser.add_argument("--unit", default="kimi-vllm", help="the vLLM unit whose last start's memory is recorded")
    args = parser.parse_args(argv)
    steps = [s for s in STEPS if not (args.no_cuda_probe and s == "cuda_probe")]
    summary = record_host(args.out, Host(python=args.python, service_user=args.service_user, unit=args.unit), steps)
    print(json.dumps(summary["steps"], indent=2))
    return 0 if all("error" not in s for s in summary["steps"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
