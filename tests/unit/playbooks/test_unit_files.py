"""The systemd units as the roles render them: what CUDA needs in the sandbox, checked offline.

Units are rendered with ansible-core's Templar from the roles' defaults (tests/unit/unit_render.py).
The DeviceAllow list is checked against published /proc/devices listings of old- and new-driver
hosts (tests/fixtures/gpu-hosts/README.md says which), with systemd's own matching rule. The
systemd-analyze tests need systemd-analyze (Debian's systemd package, which scripts/common.sh installs).
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from kimi_deploy.core.gpu_devices import (
    GPU_NAMES,
    UVM_NAME,
    allowed_majors,
    nvidia_entries,
    parse_proc_devices,
)
from unit_render import REPO, directives, render

GPU_HOSTS = REPO / "tests" / "fixtures" / "gpu-hosts"
HOST_LISTINGS = sorted(p.parent.name for p in GPU_HOSTS.glob("*/proc-devices.txt"))
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
needs_systemd_analyze = pytest.mark.skipif(
    SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed (Debian package systemd)")
# (unit, placement, platform): the CUDA unit of a single host, of a replica's head and worker, the
# Ray unit of a head and a worker, and the CPU build's units (demo, CI).
UNITS = [
    ("vllm", "single", "cuda"), ("vllm", "head", "cuda"), ("vllm", "worker", "cuda"),
    ("ray", "head", "cuda"), ("ray", "worker", "cuda"),
    ("vllm", "single", "cpu"), ("ray", "head", "cpu"),
]
UNIT_IDS = [f"{u}-{p}-{k}" for u, p, k in UNITS]
CUDA_UNITS = [u for u in UNITS if u[2] == "cuda"]
CUDA_IDS = [f"{u}-{p}" for u, p, _k in CUDA_UNITS]
# systemd-analyze security --offline=true, measured on systemd 252 (Debian 12). Before this sandbox:
# CUDA 3.2, Ray 5.3, CPU 1.5. README "GPU hosts: the unit's sandbox" lists what stays off and why.
EXPOSURE_LIMIT = {"cuda": 1.9, "cpu": 1.5}
UNIT_NAMES = {"vllm": "kimi-vllm.service", "ray": "kimi-ray.service"}


def unit_text(unit: str, placement: str, platform: str) -> str:
    return render(unit, placement, kimi_platform=platform)


def device_allow(text: str) -> dict[str, str]:
    """DeviceAllow=char-<name> <access> lines as {name: access}."""
    allowed = {}
    for value in directives(text, "DeviceAllow"):
        spec, _unused, access = value.partition(" ")
        assert spec.startswith("char-"), f"DeviceAllow by path or block device: {value}"
        allowed[spec.removeprefix("char-")] = access
    return allowed


def listing(name: str) -> list[tuple[int, str]]:
    return parse_proc_devices((GPU_HOSTS / name / "proc-devices.txt").read_text(encoding="utf-8"))


# --- the device list against real hosts -------------------------------------------------------------


@pytest.mark.parametrize("host", HOST_LISTINGS)
@pytest.mark.parametrize(("unit", "placement"), [("vllm", "single"), ("vllm", "worker"), ("ray", "head")])
def test_every_nvidia_device_the_driver_registers_is_allowed(host, unit, placement):
    """Each NVIDIA (and InfiniBand verbs) entry of the host's /proc/devices is matched by a DeviceAllow
    name, as systemd matches them: on drivers since 550.40 that means `nvidia` and `nvidiactl`."""
    proc = listing(host)
    allowed = device_allow(unit_text(unit, placement, "cuda"))
    majors = set().union(*allowed_majors(allowed, proc).values())
    left_out = [f"{major} {name}" for major, name in nvidia_entries(proc) if major not in majors]
    assert left_out == [], f"{host}: the unit would deny {left_out}"


@pytest.mark.parametrize("host", [h for h in HOST_LISTINGS if any(n in GPU_NAMES for _m, n in listing(h))])
def test_the_gpus_and_the_control_device_are_read_write(host):
    """Major 195 (/dev/nvidia0..N, /dev/nvidiactl) is allowed rw under the name this host uses."""
    proc = listing(host)
    allowed = device_allow(unit_text("vllm", "single", "cuda"))
    gpu_entries = [(major, name) for major, name in proc if name in GPU_NAMES]
    for major, name in gpu_entries:
        matches = [n for n, majors in allowed_majors(allowed, proc).items() if major in majors]
        assert any(allowed[n] == "rw" for n in matches), f"{host}: {major} {name} is not allowed rw"


def test_every_allowed_name_exists_on_some_published_host():
    """No dead DeviceAllow entry: each name matches an entry of at least one listing (old or new driver)."""
    allowed = device_allow(unit_text("vllm", "single", "cuda"))
    seen = {name for host in HOST_LISTINGS for _major, name in listing(host)}
    dead = [name for name in allowed if not any(re.fullmatch(re.escape(name), entry) for entry in seen)]
    assert dead == []


def test_the_listings_cover_both_namings():
    names = {host: {name for _major, name in listing(host)} for host in HOST_LISTINGS}
    assert any({"nvidia", "nvidiactl"} <= found for found in names.values())
    assert any("nvidia-frontend" in found and UVM_NAME in found for found in names.values())


# --- nvidia_uvm before start, memlock, /proc ------------------------------------------------------


@pytest.mark.parametrize(("unit", "placement", "platform"), CUDA_UNITS, ids=CUDA_IDS)
def test_gpu_units_start_after_nvidia_uvm_is_loaded(unit, placement, platform):
    """The uvm major must exist when the unit starts (its device list is fixed then; the sandbox cannot
    load the module), so the units require the oneshot that loads it, and order after the fabric."""
    text = unit_text(unit, placement, platform)
    unit_section = text.split("[Service]")[0]
    assert "kimi-nvidia-uvm.service" in " ".join(directives(unit_section, "Requires"))
    after = " ".join(directives(unit_section, "After")).split()
    assert {"kimi-nvidia-uvm.service", "nvidia-persistenced.service", "nvidia-fabricmanager.service"} <= set(after)


def test_the_uvm_unit_is_a_oneshot_that_stays_active():
    text = render("uvm")
    assert directives(text, "Type") == ["oneshot"]
    assert directives(text, "RemainAfterExit") == ["yes"]
    assert directives(text, "ExecStart") == ["/usr/local/libexec/kimi-deploy/kimi-nvidia-uvm"]


def test_cpu_units_need_no_gpu_unit():
    for unit, placement in (("vllm", "single"), ("ray", "head")):
        text = unit_text(unit, placement, "cpu")
        assert "nvidia" not in " ".join(directives(text, "Requires") + directives(text, "After"))
        assert directives(text, "PrivateDevices") == ["yes"] and directives(text, "DeviceAllow") == []


@pytest.mark.parametrize(("unit", "placement", "platform"), CUDA_UNITS, ids=CUDA_IDS)
def test_gpu_units_may_lock_memory_for_rdma(unit, placement, platform):
    """NCCL over InfiniBand registers memory against RLIMIT_MEMLOCK; the unit has no CAP_IPC_LOCK."""
    assert directives(unit_text(unit, placement, platform), "LimitMEMLOCK") == ["infinity"]


def test_cpu_units_keep_the_default_memlock():
    """Test hosts are containers without CAP_SYS_RESOURCE: raising a hard limit there fails the start."""
    assert directives(unit_text("vllm", "single", "cpu"), "LimitMEMLOCK") == []


@pytest.mark.parametrize(("unit", "placement", "platform"), CUDA_UNITS, ids=CUDA_IDS)
def test_cuda_keeps_its_proc_files(unit, placement, platform):
    """Drivers 570+ write /proc/self/task/<tid>/comm and read /proc/driver/nvidia* during CUDA init:
    no ProcSubset=pid, no path rule over /proc, ProtectProc hides only other users' processes."""
    text = unit_text(unit, placement, platform)
    assert directives(text, "ProcSubset") == []
    assert directives(text, "ProtectProc") in ([], ["invisible"], ["ptraceable"], ["noaccess"])
    for key in ("InaccessiblePaths", "ReadOnlyPaths", "TemporaryFileSystem", "BindReadOnlyPaths"):
        assert not [v for v in directives(text, key) if "/proc" in v], key
    # JIT (torch, triton, CUDA's PTX) needs writable executable memory.
    assert directives(text, "MemoryDenyWriteExecute") == []
    assert directives(text, "PrivateDevices") == [] and directives(text, "DevicePolicy") == ["closed"]


def _sandbox(text: str) -> list[str]:
    body = text.split("[Service]", 1)[1].split("[Install]", maxsplit=1)[0]
    start = body.index("NoNewPrivileges=")
    return [line for line in body[start:].splitlines() if line and not line.startswith("#")]


@pytest.mark.parametrize("platform", ["cuda", "cpu"])
def test_vllm_and_ray_share_one_sandbox(platform):
    vllm = _sandbox(unit_text("vllm", "head", platform))
    assert _sandbox(unit_text("ray", "head", platform)) == vllm
    assert _sandbox(unit_text("ray", "worker", platform)) == _sandbox(unit_text("vllm", "worker", platform)) == vllm


@pytest.mark.parametrize(("unit", "placement", "platform"), UNITS, ids=UNIT_IDS)
def test_compile_caches_outlive_a_restart(unit, placement, platform):
    """PrivateTmp empties /tmp at every restart: the caches vLLM and torch compile into must be in a
    directory the unit may write and that stays (the deploy root's shared/cache)."""
    text = unit_text(unit, placement, platform)
    writable = directives(text, "ReadWritePaths")
    environment = dict(value.split("=", 1) for value in directives(text, "Environment"))
    for name in ("VLLM_CACHE_ROOT", "TORCHINDUCTOR_CACHE_DIR", "HOME"):
        assert any(environment[name].startswith(path) for path in writable), (name, environment[name], writable)
        assert not environment[name].startswith("/tmp")


# --- kimi_multinode_ip_access: the replica's units talk to loopback and its own nodes only ----------

REPLICA_HOSTVARS = {"h200-a-1": {"ansible_host": "10.0.0.11"},
                    "h200-a-2": {"ansible_host": "h200-a-2.example", "kimi_node_address": "10.1.0.12"}}


def _with_ip_access(unit: str, placement: str, **overrides) -> str:
    return render(unit, placement, kimi_platform="cuda", hostvars=REPLICA_HOSTVARS,
                  kimi_multinode_ip_access=True, **overrides)


@pytest.mark.parametrize(("unit", "placement"),
                         [("vllm", "head"), ("vllm", "worker"), ("ray", "head"), ("ray", "worker")])
def test_ip_access_allows_loopback_and_the_replica_nodes_only(unit, placement):
    text = _with_ip_access(unit, placement)
    assert directives(text, "IPAddressDeny") == ["any"]
    # kimi_node_address wins over ansible_host; the head's address the workers use is the head's.
    assert directives(text, "IPAddressAllow") == ["localhost", "10.0.0.11 10.1.0.12"]


def test_ip_access_adds_the_fabric_head_address_and_the_extra_networks():
    text = _with_ip_access("vllm", "worker", kimi_multinode_head_address="192.168.7.11",
                           kimi_multinode_ip_allow_extra=["10.2.0.0/24", "10.2.0.9/32", "10.0.0.11"])
    assert directives(text, "IPAddressAllow") == ["localhost", "10.0.0.11 10.1.0.12 192.168.7.11 10.2.0.0/24 10.2.0.9"]


def test_ip_access_is_on_with_the_front_door_and_only_on_a_multi_node_replica():
    assert directives(render("vllm", "head", kimi_platform="cuda", hostvars=REPLICA_HOSTVARS,
                             kimi_frontdoor_enabled=True), "IPAddressDeny") == ["any"]
    assert directives(render("vllm", "head", kimi_platform="cuda"), "IPAddressDeny") == []
    assert directives(render("vllm", "single", kimi_platform="cuda", kimi_multinode_ip_access=True),
                      "IPAddressDeny") == []


@pytest.mark.parametrize(("hostvars", "extra", "message"), [
    ({"h200-a-1": {"ansible_host": "head.example"}, "h200-a-2": {"ansible_host": "10.0.0.12"}}, [],
     "h200-a-1: 'head.example' is not an IP address; set kimi_node_address"),
    (REPLICA_HOSTVARS, ["clients.example"],
     "'clients.example' (kimi_multinode_head_address or kimi_multinode_ip_allow_extra)"),
])
def test_ip_access_refuses_a_name(hostvars, extra, message):
    with pytest.raises(Exception, match=re.escape(message)):
        render("vllm", "worker", kimi_platform="cuda", hostvars=hostvars, kimi_multinode_ip_access=True,
               kimi_multinode_ip_allow_extra=extra)


@needs_systemd_analyze
def test_systemd_analyze_verify_accepts_the_ip_access_lines(tmp_path):
    text = _with_ip_access("vllm", "worker", kimi_multinode_ip_allow_extra=["10.2.0.0/24"])
    root = _verify_root(tmp_path, "vllm", text)
    proc = subprocess.run([SYSTEMD_ANALYZE, "verify", "--man=no", f"--root={root}", UNIT_NAMES["vllm"],
                           "kimi-nvidia-uvm.service"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stderr.strip() == "" and proc.stdout.strip() == "", proc.stderr


# --- systemd's own checks ---------------------------------------------------------------------------


def _verify_root(tmp_path: Path, unit: str, text: str) -> Path:
    """A root directory for `systemd-analyze verify --root`: systemd's own units, the rendered units,
    and stub executables at the paths the units run (the units run things that only a host has)."""
    root = tmp_path / "root"
    (root / "usr/lib/systemd").mkdir(parents=True)
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    (root / "lib").symlink_to("usr/lib")
    units = root / "etc/systemd/system"
    units.mkdir(parents=True)
    (units / UNIT_NAMES[unit]).write_text(text, encoding="utf-8")
    (units / "kimi-nvidia-uvm.service").write_text(render("uvm"), encoding="utf-8")
    for key in ("ExecStart", "ExecStartPre", "ExecStartPost", "ExecStop"):
        for value in directives(text, key) + directives(render("uvm"), key):
            executable = root / value.lstrip("-+!@:").split()[0].lstrip("/")
            executable.parent.mkdir(parents=True, exist_ok=True)
            executable.write_text("#!/bin/sh\n", encoding="ascii")
            executable.chmod(0o755)
    return root


@needs_systemd_analyze
@pytest.mark.parametrize(("unit", "placement", "platform"), UNITS, ids=UNIT_IDS)
def test_systemd_analyze_verify_accepts_the_unit(tmp_path, unit, placement, platform):
    """Exit status 0 and not one warning: verify only warns about a bad value (e.g. device rights
    'rwx', LimitMEMLOCK=bogus) and ignores the line, so a warning is a failure here."""
    text = unit_text(unit, placement, platform)
    root = _verify_root(tmp_path, unit, text)
    proc = subprocess.run([SYSTEMD_ANALYZE, "verify", "--man=no", f"--root={root}", UNIT_NAMES[unit],
                           "kimi-nvidia-uvm.service"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stderr.strip() == "" and proc.stdout.strip() == "", proc.stderr


@needs_systemd_analyze
@pytest.mark.parametrize(("unit", "placement", "platform"), UNITS, ids=UNIT_IDS)
def test_systemd_analyze_security_score(tmp_path, unit, placement, platform):
    path = tmp_path / UNIT_NAMES[unit]
    path.write_text(unit_text(unit, placement, platform), encoding="utf-8")
    proc = subprocess.run([SYSTEMD_ANALYZE, "security", "--offline=true", "--no-pager", str(path)],
                          capture_output=True, text=True, check=False)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", proc.stdout + proc.stderr)
    assert found, proc.stdout + proc.stderr
    assert float(found.group(1)) <= EXPOSURE_LIMIT[platform], proc.stdout


# --- the nvidia_uvm loader --------------------------------------------------------------------------


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")
def test_uvm_loader_creates_both_nodes_with_the_registered_major(tmp_path):
    proc_devices = tmp_path / "devices"
    proc_devices.write_text("Character devices:\n195 nvidia\n195 nvidiactl\n509 nvidia-uvm\n\n"
                            "Block devices:\n508 nvidia-uvm-not-this\n", encoding="ascii")
    dev = tmp_path / "dev"
    dev.mkdir()
    os.mknod(dev / "nvidia-uvm", 0o666 | stat.S_IFCHR, os.makedev(237, 0))  # left from an earlier load
    env = dict(os.environ, KIMI_PROC_DEVICES=str(proc_devices), KIMI_DEV_DIR=str(dev), KIMI_MODPROBE="true")
    script = REPO / "roles/kimi_vllm/files/kimi-nvidia-uvm"
    for _run in range(2):  # the second run changes nothing
        proc = subprocess.run([str(script)], env=env, capture_output=True, text=True, check=False)
        assert proc.returncode == 0, proc.stderr
    for name, minor in (("nvidia-uvm", 0), ("nvidia-uvm-tools", 1)):
        info = os.stat(dev / name)
        assert stat.S_ISCHR(info.st_mode) and (os.major(info.st_rdev), os.minor(info.st_rdev)) == (509, minor)
        assert stat.S_IMODE(info.st_mode) == 0o666


def test_uvm_loader_fails_when_the_module_registers_nothing(tmp_path):
    proc_devices = tmp_path / "devices"
    proc_devices.write_text("Character devices:\n195 nvidia\n195 nvidiactl\n", encoding="ascii")
    env = dict(os.environ, KIMI_PROC_DEVICES=str(proc_devices), KIMI_DEV_DIR=str(tmp_path), KIMI_MODPROBE="true")
    proc = subprocess.run([str(REPO / "roles/kimi_vllm/files/kimi-nvidia-uvm")], env=env, capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 1 and "lists no nvidia-uvm" in proc.stderr
