"""GPU and host facts for preflight: NVML through pynvml, or an operator-written override.

``collect_nvml(nvml)`` takes a pynvml-like module object (the nvidia-ml-py API) so tests can pass
fake bindings; the Ansible module imports the real ``pynvml`` lazily and hands it in.
``expand_override(entries)`` turns a ``kimi_gpus_override`` list into the same GPU records for hosts
without GPUs (the demo, molecule). ``driver_problems`` / ``gpu_problems`` turn facts into messages
that say what to change. ``read_host_facts`` reads memory, CPUs, /dev/shm and the open-file limit.

Every GPU record has exactly the keys in ``GPU_KEYS``.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..core.errors import KimiDeployError
from ..core.gpu_arch import architecture_for, capability_from_name

MIB = 1024 * 1024

GPU_KEYS = (
    "index", "name", "uuid", "memory_total_mib", "memory_used_mib", "memory_free_mib",
    "compute_capability", "architecture", "pci_bus_id", "mig_enabled", "ecc_uncorrected_volatile",
)

# Linux driver branch that ships with each CUDA toolkit (CUDA Toolkit release notes, "Toolkit Driver
# Version"). CUDA minor-version compatibility lets a 12.x build start on r525+ and a 13.x build on
# r580+ with a reduced feature set; the deployer asks for the toolkit's own driver.
MIN_DRIVER_BY_CUDA = {
    (11, 8): 520,
    (12, 0): 525, (12, 1): 530, (12, 2): 535, (12, 3): 545, (12, 4): 550, (12, 5): 555,
    (12, 6): 560, (12, 8): 570, (12, 9): 575,
    (13, 0): 580,
}

# Calls collect_nvml cannot do without; nvidia-ml-py3 7.x (2017) lacks the CUDA ones.
NVML_REQUIRED_CALLS = (
    "nvmlInit", "nvmlShutdown", "nvmlSystemGetDriverVersion", "nvmlSystemGetCudaDriverVersion",
    "nvmlDeviceGetCount", "nvmlDeviceGetHandleByIndex", "nvmlDeviceGetName", "nvmlDeviceGetUUID",
    "nvmlDeviceGetMemoryInfo", "nvmlDeviceGetCudaComputeCapability", "nvmlDeviceGetPciInfo",
    "nvmlDeviceGetTotalEccErrors",
)

OVERRIDE_REQUIRED = ("name", "memory_total_mib")
OVERRIDE_OPTIONAL = ("count", "compute_capability", "architecture", "memory_used_mib")

# What to do about each NVML error an operator can meet, keyed by the pynvml constant's name.
_NVML_ADVICE = {
    "NVML_ERROR_LIBRARY_NOT_FOUND": (
        "libnvidia-ml.so.1 was not found, so the NVIDIA driver is not installed (or its libraries are not "
        "on the loader path). Install the NVIDIA data-centre driver and reboot; on a host without GPUs "
        "set kimi_gpus_override instead"),
    "NVML_ERROR_DRIVER_NOT_LOADED": (
        "the NVIDIA kernel module is not loaded. Check `lsmod | grep nvidia` and `dmesg | grep -i nvrm`, "
        "then `modprobe nvidia` or reboot after installing the driver (Secure Boot refuses unsigned modules)"),
    "NVML_ERROR_LIB_RM_VERSION_MISMATCH": (
        "the NVIDIA user-space library and the loaded kernel module are different versions, usually a "
        "driver upgrade without a reboot. Reboot the host, or unload and reload the nvidia kernel modules"),
    "NVML_ERROR_NO_PERMISSION": (
        "this user may not open /dev/nvidia*. Run the task with become: true, or add the user to the group "
        "that owns the device nodes"),
    "NVML_ERROR_GPU_IS_LOST": (
        "a GPU has fallen off the bus. Look for Xid 79 in the kernel log, then reset the GPU or reboot"),
    "NVML_ERROR_RESET_REQUIRED": (
        "a GPU needs a reset. Run `nvidia-smi -r -i <index>` with nothing running on it, or reboot"),
}


# --- names, capabilities, versions -----------------------------------------------------------------


def _text(value: Any) -> str:
    """pynvml returns bytes from older releases (and from ctypes char-array fields such as busId)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace").rstrip("\0")
    return str(value)


def parse_cuda_version(text: str | int | float) -> tuple[int, int]:
    """``"13.0"``, ``"13"``, ``"13.0.2"``, ``"cu130"`` or ``"cu129"`` -> (major, minor)."""
    raw = str(text).strip().lower()
    wheel_tag = re.fullmatch(r"cu(\d{2,3})", raw)
    if wheel_tag:
        digits = wheel_tag.group(1)
        return int(digits[:-1]), int(digits[-1])
    dotted = re.fullmatch(r"(\d+)(?:\.(\d+))?(?:\.\d+)?", raw)
    if not dotted:
        raise KimiDeployError(
            f"CUDA version {text!r} is not understood: write it as MAJOR.MINOR (e.g. '13.0') or as a wheel "
            "tag (e.g. 'cu130')")
    return int(dotted.group(1)), int(dotted.group(2) or 0)


def format_cuda_version(nvml_value: int) -> str:
    """NVML encodes CUDA 13.0 as 13000 and 12.9 as 12090."""
    return f"{nvml_value // 1000}.{(nvml_value % 1000) // 10}"


def min_driver_for_cuda(cuda_version: str) -> int:
    """Oldest Linux driver branch (e.g. 580) that ships with the given CUDA toolkit.

    A minor release newer than the table (13.1) gets the newest known row of its major, a lower bound.
    """
    major, minor = parse_cuda_version(cuda_version)
    same_major = [key for key in MIN_DRIVER_BY_CUDA if key[0] == major and key[1] <= minor]
    if not same_major:
        known = ", ".join(f"{a}.{b}" for a, b in MIN_DRIVER_BY_CUDA)
        raise KimiDeployError(
            f"no known minimum NVIDIA driver for CUDA {major}.{minor}; known CUDA versions: {known}. "
            "Set required_cuda to the CUDA version the pinned vLLM wheel was built for")
    return MIN_DRIVER_BY_CUDA[max(same_major)]


def _driver_branch(driver_version: str) -> int:
    head = driver_version.split(".", 1)[0]
    if not head.isdigit():
        raise KimiDeployError(
            f"NVIDIA driver version {driver_version!r} is not understood: expected e.g. '580.95.05'")
    return int(head)


# --- NVML -------------------------------------------------------------------------------------------


def _error_name(nvml: Any, err: Exception) -> str:
    value = getattr(err, "value", None)
    for attr in dir(nvml):
        if attr.startswith("NVML_ERROR_") and getattr(nvml, attr) == value:
            return attr
    return f"NVML error {value}"


def _nvml_failure(nvml: Any, err: Exception, what: str) -> KimiDeployError:
    name = _error_name(nvml, err)
    advice = _NVML_ADVICE.get(name, "Run `nvidia-smi` on the host to see the same error and fix it there")
    return KimiDeployError(f"NVML {what} failed with {name} ({err}): {advice}.")


def _is_not_supported(nvml: Any, err: Exception) -> bool:
    return getattr(err, "value", None) == getattr(nvml, "NVML_ERROR_NOT_SUPPORTED", 3)


def _cuda_driver_version(nvml: Any) -> int:
    # _v2 reports the libcuda actually loaded (it differs with a forward-compatibility package);
    # drivers and bindings without it answer FunctionNotFound / lack the attribute.
    v2 = getattr(nvml, "nvmlSystemGetCudaDriverVersion_v2", None)
    if v2 is not None:
        try:
            return v2()
        except nvml.NVMLError as err:
            if getattr(err, "value", None) != nvml.NVML_ERROR_FUNCTION_NOT_FOUND:
                raise
    return nvml.nvmlSystemGetCudaDriverVersion()


def _mig_enabled(nvml: Any, handle: Any) -> bool:
    query = getattr(nvml, "nvmlDeviceGetMigMode", None)
    if query is None:
        return False
    try:
        current, _pending = query(handle)
    except nvml.NVMLError as err:
        if _is_not_supported(nvml, err):  # GPUs without MIG (Ada, consumer parts)
            return False
        raise
    return current == nvml.NVML_DEVICE_MIG_ENABLE


def _ecc_uncorrected_volatile(nvml: Any, handle: Any) -> int | None:
    try:
        return int(nvml.nvmlDeviceGetTotalEccErrors(
            handle, nvml.NVML_MEMORY_ERROR_TYPE_UNCORRECTED, nvml.NVML_VOLATILE_ECC))
    except nvml.NVMLError as err:
        if _is_not_supported(nvml, err):  # no ECC on the part, or ECC switched off
            return None
        raise


def _nvml_gpu(nvml: Any, index: int) -> dict[str, Any]:
    handle = nvml.nvmlDeviceGetHandleByIndex(index)
    name = _text(nvml.nvmlDeviceGetName(handle))
    memory = nvml.nvmlDeviceGetMemoryInfo(handle)
    major, minor = nvml.nvmlDeviceGetCudaComputeCapability(handle)
    capability = f"{major}.{minor}"
    return {
        "index": index,
        "name": name,
        "uuid": _text(nvml.nvmlDeviceGetUUID(handle)),
        "memory_total_mib": memory.total // MIB,
        "memory_used_mib": memory.used // MIB,
        "memory_free_mib": memory.free // MIB,
        "compute_capability": capability,
        "architecture": architecture_for(capability, name),
        "pci_bus_id": _text(nvml.nvmlDeviceGetPciInfo(handle).busId),
        "mig_enabled": _mig_enabled(nvml, handle),
        "ecc_uncorrected_volatile": _ecc_uncorrected_volatile(nvml, handle),
    }


def collect_nvml(nvml: Any) -> dict[str, Any]:
    """Driver and per-GPU facts through a pynvml-like module; always shuts NVML down again.

    Returns ``{"driver_version": "580.95.05", "cuda_driver_version": "13.0", "gpus": [...]}``.
    Raises KimiDeployError with what to do when NVML cannot start or a GPU cannot be read.
    """
    missing = [call for call in NVML_REQUIRED_CALLS if not hasattr(nvml, call)]
    if missing:
        raise KimiDeployError(
            f"the pynvml module found ({getattr(nvml, '__file__', nvml)}) is too old: it lacks "
            f"{', '.join(missing)}. Install a current nvidia-ml-py for this interpreter and remove the "
            "abandoned nvidia-ml-py3 package if it is installed")
    try:
        nvml.nvmlInit()
    except nvml.NVMLError as err:
        raise _nvml_failure(nvml, err, "initialisation") from err
    what = "driver query"
    try:
        driver_version = _text(nvml.nvmlSystemGetDriverVersion())
        cuda_driver_version = format_cuda_version(_cuda_driver_version(nvml))
        gpus = []
        for index in range(nvml.nvmlDeviceGetCount()):
            what = f"query of GPU {index}"
            gpus.append(_nvml_gpu(nvml, index))
    except nvml.NVMLError as err:
        raise _nvml_failure(nvml, err, what) from err
    finally:
        # The facts are read (or the error is on its way); a failed shutdown leaves nothing to undo.
        with contextlib.suppress(nvml.NVMLError):
            nvml.nvmlShutdown()
    return {"driver_version": driver_version, "cuda_driver_version": cuda_driver_version, "gpus": gpus}


# --- override ---------------------------------------------------------------------------------------


def _whole_number(entry_label: str, field: str, value: Any, *, minimum: int, example: str) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise KimiDeployError(
            f"{entry_label}.{field} must be a whole number ({example}), got {value!r}")
    if value < minimum:
        raise KimiDeployError(f"{entry_label}.{field} must be at least {minimum} ({example}), got {value}")
    return value


def _override_capability(entry_label: str, value: Any) -> str:
    # YAML reads `compute_capability: 9.0` as the float 9.0, and str(9.0) is "9.0".
    text = str(value).strip() if isinstance(value, (str, float)) and not isinstance(value, bool) else ""
    if not re.fullmatch(r"\d+\.\d+", text):
        raise KimiDeployError(
            f"{entry_label}.compute_capability must be MAJOR.MINOR such as '9.0' (Hopper) or '10.0' "
            f"(Blackwell B200), got {value!r}")
    return text


def expand_override(entries: Any) -> list[dict[str, Any]]:
    """Normalise a ``kimi_gpus_override`` list into GPU records, one per GPU (``count`` expanded).

    Values the operator did not give and cannot be derived (uuid, PCI bus, ECC, memory in use) are
    None; ``mig_enabled`` is False because an override describes whole GPUs.
    """
    if not isinstance(entries, list) or not entries:
        raise KimiDeployError(
            "kimi_gpus_override must be a non-empty list of GPU descriptions, e.g. "
            "[{name: 'NVIDIA H200', memory_total_mib: 143771, count: 8}]")
    gpus: list[dict[str, Any]] = []
    for position, entry in enumerate(entries):
        gpu, count = _override_gpu(f"kimi_gpus_override[{position}]", entry)
        for _unused in range(count):
            gpus.append({"index": len(gpus), **gpu})
    return gpus


def _override_gpu(label: str, entry: Any) -> tuple[dict[str, Any], int]:
    """One override entry checked: (its GPU record without the index, how many such GPUs)."""
    if not isinstance(entry, Mapping):
        raise KimiDeployError(
            f"{label} must be a mapping with name and memory_total_mib, got {type(entry).__name__} "
            f"{entry!r}")
    unknown = sorted(set(entry) - set(OVERRIDE_REQUIRED) - set(OVERRIDE_OPTIONAL))
    if unknown:
        allowed = ", ".join(OVERRIDE_REQUIRED + OVERRIDE_OPTIONAL)
        raise KimiDeployError(f"{label} has unknown key(s) {', '.join(unknown)}; allowed keys: {allowed}")
    for field in OVERRIDE_REQUIRED:
        if entry.get(field) is None:
            raise KimiDeployError(f"{label}.{field} is required (e.g. name: 'NVIDIA H200', "
                                  "memory_total_mib: 143771)")
    name = entry["name"]
    if not isinstance(name, str) or not name.strip():
        raise KimiDeployError(f"{label}.name must be a non-empty string such as 'NVIDIA H200', got {name!r}")
    name = name.strip()
    total = _whole_number(label, "memory_total_mib", entry["memory_total_mib"], minimum=1,
                          example="MiB, e.g. 143771 for an H200")
    count = _whole_number(label, "count", entry.get("count", 1), minimum=1, example="GPUs, e.g. 8")
    used = None
    if entry.get("memory_used_mib") is not None:
        used = _whole_number(label, "memory_used_mib", entry["memory_used_mib"], minimum=0,
                             example="MiB already in use, e.g. 0")
        if used > total:
            raise KimiDeployError(
                f"{label}.memory_used_mib ({used}) is more than memory_total_mib ({total})")
    if entry.get("compute_capability") is not None:
        capability = _override_capability(label, entry["compute_capability"])
    else:
        capability = capability_from_name(name)
    gpu = {
        "name": name,
        "uuid": None,
        "memory_total_mib": total,
        "memory_used_mib": used,
        "memory_free_mib": None if used is None else total - used,
        "compute_capability": capability,
        "architecture": _override_architecture(label, entry.get("architecture"), capability, name),
        "pci_bus_id": None,
        "mig_enabled": False,
        "ecc_uncorrected_volatile": None,
    }
    return gpu, count


def _override_architecture(label: str, value: Any, capability: str | None, name: str) -> str:
    """The architecture the operator wrote (lower case), else the one the capability or name implies."""
    if value is None:
        return architecture_for(capability, name)
    if not isinstance(value, str) or not value.strip():
        raise KimiDeployError(f"{label}.architecture must be a non-empty string such as 'hopper', got {value!r}")
    return value.strip().lower()


# --- choosing the source ----------------------------------------------------------------------------


def missing_pynvml_message(python: str) -> str:
    return (
        f"the Python module pynvml (package nvidia-ml-py) cannot be imported by {python}, the interpreter "
        "that runs this module, so the GPUs cannot be read. Install it for that interpreter "
        f"(`{python} -m pip install nvidia-ml-py`, or the distribution's python3-pynvml package where "
        "there is one), or set ansible_python_interpreter for this task to a virtualenv that has it. "
        "On a host without GPUs set kimi_gpus_override (or require_gpus: false for the CPU build)")


def resolve_gpu_facts(*, override: Any, load_nvml: Callable[[], Any], require_gpus: bool, python: str,
                      driver_override: tuple[str, str] | None = None) -> dict[str, Any]:
    """Pick the source (override, NVML, or none) and return its facts.

    ``load_nvml`` imports pynvml (raising ImportError where it is missing), so this module never
    touches NVML when an override is given. Returns ``gpus``, ``source`` ("override" | "nvml" |
    "none"), ``driver_version``, ``cuda_driver_version`` and ``note`` (why the list is empty, or None).
    """
    if override is not None:
        driver_version, cuda_version = driver_override or (None, None)
        if cuda_version is not None:
            major, minor = parse_cuda_version(cuda_version)
            cuda_version = f"{major}.{minor}"
        return {"gpus": expand_override(override), "source": "override", "driver_version": driver_version,
                "cuda_driver_version": cuda_version, "note": None}
    if driver_override is not None:
        raise KimiDeployError("a driver version override only applies together with kimi_gpus_override; "
                              "on a GPU host the driver is read through NVML")
    try:
        nvml = load_nvml()
        facts = collect_nvml(nvml)
    except ImportError as err:
        reason = missing_pynvml_message(python)
        if require_gpus:
            raise KimiDeployError(reason[0].upper() + reason[1:] + ".") from err
        return _no_gpus(f"no GPU facts: {reason}")
    except KimiDeployError as err:
        if require_gpus:
            raise
        return _no_gpus(f"no GPU facts: {err}")
    if not facts["gpus"]:
        reason = (f"NVML (driver {facts['driver_version']}) found 0 GPUs: compare `nvidia-smi -L` with "
                  "`lspci | grep -i nvidia` (GPUs bound to vfio-pci for passthrough are invisible to NVML); "
                  "on a host without GPUs set kimi_gpus_override or require_gpus: false")
        if require_gpus:
            raise KimiDeployError(reason[0].upper() + reason[1:] + ".")
        return _no_gpus(reason) | {"driver_version": facts["driver_version"],
                                   "cuda_driver_version": facts["cuda_driver_version"]}
    return facts | {"source": "nvml", "note": None}


def _no_gpus(note: str) -> dict[str, Any]:
    return {"gpus": [], "source": "none", "driver_version": None, "cuda_driver_version": None, "note": note}


# --- problems ---------------------------------------------------------------------------------------


def driver_problems(facts: Mapping[str, Any], required_cuda: str | None) -> list[str]:
    """Messages when the driver in ``facts`` is too old for ``required_cuda``; [] when it is not
    (or when there is nothing to check: no requirement, or no driver facts, as on override hosts)."""
    if not required_cuda:
        return []
    major, minor = parse_cuda_version(required_cuda)
    required = f"{major}.{minor}"
    needed_branch = min_driver_for_cuda(required)
    driver_version = facts.get("driver_version")
    if not driver_version:
        return []
    branch = _driver_branch(driver_version)
    supported = facts.get("cuda_driver_version")
    supported_tuple = parse_cuda_version(supported) if supported else None
    if branch >= needed_branch and (supported_tuple is None or supported_tuple >= (major, minor)):
        return []
    supports = f" (it supports CUDA up to {supported})" if supported else ""
    message = (f"NVIDIA driver {driver_version}{supports} is older than r{needed_branch}, which CUDA "
               f"{required} needs; the pinned vLLM is built for CUDA {required}. Upgrade the driver to "
               f"r{needed_branch} or newer and reboot")
    if supported:
        message += f", or pin a vLLM build for CUDA {supported} or older"
    if supported_tuple is not None and supported_tuple[0] == major:
        message += (". CUDA minor-version compatibility may start it anyway with a reduced feature set, "
                    "but PTX from the newer toolkit then fails with 'the provided PTX was compiled with "
                    "an unsupported toolchain'")
    return [message + "."]


def _gpu_label(gpu: Mapping[str, Any]) -> str:
    where = f", PCI {gpu['pci_bus_id']}" if gpu.get("pci_bus_id") else ""
    return f"GPU {gpu['index']} ({gpu['name']}{where})"


def gpu_problems(gpus: Iterable[Mapping[str, Any]], max_used_mib: int | None = None) -> list[str]:
    """Messages for GPUs vLLM cannot use as they are: MIG on, uncorrected ECC errors, and (when
    ``max_used_mib`` is given) memory already held by another process."""
    problems = []
    for gpu in gpus:
        label = _gpu_label(gpu)
        if gpu["mig_enabled"]:
            problems.append(
                f"{label} has MIG mode enabled; vLLM needs whole GPUs. Disable it with "
                f"`nvidia-smi -i {gpu['index']} -mig 0` (then reset the GPU or reboot), or leave this GPU out.")
        errors = gpu["ecc_uncorrected_volatile"]
        if errors:
            problems.append(
                f"{label} has {errors} uncorrected ECC error(s) since the driver loaded, so its memory "
                "cannot be trusted. Check `nvidia-smi -q -d ECC,ROW_REMAPPER -i "
                f"{gpu['index']}` and the kernel log for Xid errors, reset the GPU "
                f"(`nvidia-smi -r -i {gpu['index']}`) or have it replaced before serving on it.")
        used = gpu["memory_used_mib"]
        if max_used_mib is not None and used is not None and used > max_used_mib:
            problems.append(
                f"{label} already has {used} MiB in use, more than the {max_used_mib} MiB allowed: another "
                "process holds it. Find it with `nvidia-smi --query-compute-apps=pid,process_name,"
                "used_memory --format=csv` and stop it, or leave this GPU out.")
    return problems


# --- host -------------------------------------------------------------------------------------------


def parse_meminfo(text: str) -> tuple[int, int | None]:
    """(MemTotal, MemAvailable) in MiB from /proc/meminfo text (values there are kB = KiB)."""
    values = {}
    for line in text.splitlines():
        key, _unused, rest = line.partition(":")
        fields = rest.split()
        if fields and fields[0].isdigit():
            values[key.strip()] = int(fields[0])
    if "MemTotal" not in values:
        raise KimiDeployError("/proc/meminfo has no MemTotal line: is /proc mounted on this host?")
    available = values.get("MemAvailable")  # absent before Linux 3.14
    return values["MemTotal"] // 1024, None if available is None else available // 1024


def shm_size_bytes(path: str = "/dev/shm", statvfs: Callable[[str], Any] = os.statvfs) -> int | None:
    """Size of the filesystem at ``path`` (NCCL and vLLM's shared-memory broadcast live there);
    None when there is no such mount."""
    try:
        stats = statvfs(path)
    except FileNotFoundError:
        return None
    return stats.f_blocks * stats.f_frsize


def nofile_limit(getrlimit: Callable[[int], tuple[int, int]] | None = None) -> dict[str, int | None]:
    """RLIMIT_NOFILE of this process as {"soft", "hard"}; None stands for unlimited."""
    import resource

    soft, hard = (getrlimit or resource.getrlimit)(resource.RLIMIT_NOFILE)

    def finite(limit: int) -> int | None:
        return None if limit == resource.RLIM_INFINITY else limit

    return {"soft": finite(soft), "hard": finite(hard)}


def usable_cpu_count() -> int:
    """CPUs this process may run on (respects cpusets and affinity, unlike os.cpu_count)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def parse_cpu_flags(cpuinfo: str) -> list[str]:
    """The first processor's ``flags`` from /proc/cpuinfo, sorted (vLLM's CPU kernels depend on
    them: AMX tiles change the MLA block size, AVX-512 picks the kernel build)."""
    for line in cpuinfo.splitlines():
        key, _unused, value = line.partition(":")
        if key.strip() == "flags":
            return sorted(set(value.split()))
    return []


def read_host_facts(meminfo_path: str = "/proc/meminfo", shm_path: str = "/dev/shm",
                    cpuinfo_path: str = "/proc/cpuinfo") -> dict[str, Any]:
    with open(meminfo_path, encoding="ascii", errors="replace") as handle:
        total_mib, available_mib = parse_meminfo(handle.read())
    try:
        with open(cpuinfo_path, encoding="ascii", errors="replace") as handle:
            cpu_flags = parse_cpu_flags(handle.read())
    except OSError:
        cpu_flags = []
    return {
        "cpu_flags": cpu_flags,
        "memory_total_mib": total_mib,
        "memory_available_mib": available_mib,
        "cpu_count": usable_cpu_count(),
        "shm_bytes": shm_size_bytes(shm_path),
        "nofile": nofile_limit(),
    }
