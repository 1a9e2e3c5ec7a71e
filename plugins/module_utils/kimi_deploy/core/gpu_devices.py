"""The device nodes CUDA opens, as the kernel names them, and what systemd's DeviceAllow makes of them.

A unit with ``DevicePolicy=closed`` reaches only the devices its ``DeviceAllow=char-<name>`` lines
name. systemd resolves each name against the "Character devices:" part of /proc/devices with
fnmatch(3) when the unit starts, allows every minor of each matching major, and skips a name that
matches nothing without an error (bpf-devices.c, ``bpf_devices_allow_list_major``). So a driver
that renames an entry (550.40: "nvidia-frontend" became "nvidia" and "nvidiactl") or a module loaded
after the start (nvidia_uvm) silently leaves CUDA without its devices.

``parse_proc_devices`` reads /proc/devices, ``allowed_majors`` is systemd's resolution,
``read_device_facts`` reads this host's NVIDIA device state (read-only), and ``device_problems``
turns those facts into messages that say what to do. Pure, stdlib only.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

# /proc/devices names of major 195 (GPUs, control device, modeset), before and after driver 550.40.
GPU_NAMES = ("nvidia", "nvidiactl", "nvidia-frontend")
UVM_NAME = "nvidia-uvm"
NVIDIA_VENDOR = "0x10de"
# PCI class "bridge, other" (0x0680xx): how NVSwitches appear on HGX baseboards.
NVSWITCH_CLASS_PREFIX = "0x0680"
FABRIC_MANAGER_UNIT = "nvidia-fabricmanager.service"


def parse_proc_devices(text: str, section: str = "Character") -> list[tuple[int, str]]:
    """(major, name) pairs of one section of /proc/devices, in file order (a major may repeat)."""
    entries: list[tuple[int, str]] = []
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if line.endswith("devices:"):
            inside = line == f"{section} devices:"
            continue
        if not inside or not line:
            continue
        fields = line.split(None, 1)
        if len(fields) == 2 and fields[0].isdigit():
            entries.append((int(fields[0]), fields[1].strip()))
    return entries


def allowed_majors(names: Iterable[str], proc_devices: list[tuple[int, str]]) -> dict[str, set[int]]:
    """For each DeviceAllow=char-<name>, the majors systemd allows on a host with these devices."""
    return {name: {major for major, entry in proc_devices if fnmatch.fnmatchcase(entry, name)}
            for name in names}


def nvidia_entries(proc_devices: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The character devices the NVIDIA kernel modules registered (and RDMA verbs, which NCCL opens)."""
    return [(major, name) for major, name in proc_devices
            if name.startswith("nvidia") or name == "infiniband_verbs"]


def modules_dep_has(text: str, module: str) -> bool:
    """Whether modules.dep lists a module file for ``module`` (nvidia-uvm.ko, .ko.xz, .ko.zst...)."""
    name = re.escape(module.replace("-", "_")).replace("_", "[-_]")  # modprobe treats - and _ alike
    pattern = re.compile(rf"(^|/){name}\.ko(\.\w+)?:")
    return any(pattern.search(line) for line in text.splitlines())


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None


def _char_nodes(dev_dir: str) -> dict[str, list[int]]:
    nodes: dict[str, list[int]] = {}
    try:
        names = sorted(os.listdir(dev_dir))
    except OSError:
        return nodes
    for name in names:
        if not name.startswith("nvidia"):
            continue
        try:
            info = os.stat(os.path.join(dev_dir, name))
        except OSError:
            continue
        if (info.st_mode & 0o170000) == 0o020000:  # S_IFCHR
            nodes[name] = [os.major(info.st_rdev), os.minor(info.st_rdev)]
    return nodes


def count_nvswitches(pci_dir: str = "/sys/bus/pci/devices") -> int:
    count = 0
    try:
        devices = os.listdir(pci_dir)
    except OSError:
        return 0
    for device in devices:
        vendor = (_read(os.path.join(pci_dir, device, "vendor")) or "").strip()
        klass = (_read(os.path.join(pci_dir, device, "class")) or "").strip()
        if vendor == NVIDIA_VENDOR and klass.startswith(NVSWITCH_CLASS_PREFIX):
            count += 1
    return count


def read_device_facts(proc_devices_path: str = "/proc/devices", dev_dir: str = "/dev",
                      sys_module_dir: str = "/sys/module", pci_dir: str = "/sys/bus/pci/devices",
                      modules_dir: str | None = None) -> dict[str, Any]:
    """This host's NVIDIA device state, read-only. ``fabricmanager`` is left for the caller (systemctl)."""
    if modules_dir is None:
        modules_dir = os.path.join("/lib/modules", os.uname().release)
    proc_text = _read(proc_devices_path) or ""
    modules_dep = _read(os.path.join(modules_dir, "modules.dep")) or ""
    return {
        "proc_devices": [[major, name] for major, name in parse_proc_devices(proc_text)],
        "dev_nodes": _char_nodes(dev_dir),
        "uvm_module_loaded": os.path.isdir(os.path.join(sys_module_dir, "nvidia_uvm")),
        "uvm_module_available": modules_dep_has(modules_dep, "nvidia-uvm"),
        "nvswitch_count": count_nvswitches(pci_dir),
        "fabricmanager": None,
    }


def device_problems(facts: Mapping[str, Any], device_allow: Iterable[str]) -> list[str]:
    """What keeps CUDA in the sandboxed unit from its devices on this host, each with what to do.

    ``facts`` is ``read_device_facts`` output (with ``fabricmanager`` set to the state systemctl gave
    when ``nvswitch_count`` > 0); ``device_allow`` the names of the unit's DeviceAllow=char-<name>.
    """
    names = list(device_allow)
    proc = [(int(major), str(name)) for major, name in facts.get("proc_devices") or []]
    allowed = set().union(*allowed_majors(names, proc).values()) if names else set()
    problems = []
    registered = nvidia_entries(proc)
    if not any(name in GPU_NAMES for _major, name in registered):
        problems.append(
            "/proc/devices lists no NVIDIA GPU device (nvidia, nvidiactl or nvidia-frontend): the nvidia "
            "kernel module is not loaded. Check `lsmod | grep nvidia` and `dmesg | grep -i nvrm`.")
    left_out = sorted({f"{name} ({major})" for major, name in registered if major not in allowed})
    if left_out:
        problems.append(
            f"the driver registers {', '.join(left_out)} in /proc/devices, which the units' DeviceAllow "
            f"list ({', '.join(names)}) does not name: CUDA in the sandbox could not open them. A driver "
            "that renamed its devices needs the name added to kimi_gpu_device_allow (roles/kimi/vars/main.yml).")
    nodes = facts.get("dev_nodes") or {}
    uvm_majors = {major for major, name in proc if name == UVM_NAME}
    uvm = nodes.get(UVM_NAME)
    if uvm is None and not (facts.get("uvm_module_loaded") or facts.get("uvm_module_available")):
        problems.append(
            "/dev/nvidia-uvm does not exist and the nvidia_uvm kernel module is neither loaded nor installed "
            "for the running kernel, so CUDA cannot start. Install the driver's kernel modules for this "
            "kernel (nvidia-uvm.ko), then `modprobe nvidia-uvm`.")
    elif uvm is not None and uvm_majors and uvm[0] not in uvm_majors:
        problems.append(
            f"/dev/nvidia-uvm has major {uvm[0]} but nvidia_uvm registered {sorted(uvm_majors)[0]} "
            "(a node left from an earlier load): CUDA would open the wrong device. Remove the node; "
            "kimi-nvidia-uvm.service creates it again at the next start.")
    switches = int(facts.get("nvswitch_count") or 0)
    state = facts.get("fabricmanager")
    if switches and state != "active":
        problems.append(
            f"this host has {switches} NVSwitch(es) but {FABRIC_MANAGER_UNIT} is {state or 'not running'}: "
            "without it CUDA fails to start on NVSwitch systems (\"system not yet initialized\"). Install "
            "the fabric manager of the driver's exact version and `systemctl enable --now "
            f"{FABRIC_MANAGER_UNIT}`.")
    return problems
