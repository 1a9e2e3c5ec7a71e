#!/usr/bin/env python
"""Record what NVML says about a GPU host as JSON, and replay such JSON as fake pynvml bindings.

    record_nvml_facts.py --record OUT.json             # on a GPU host, with nvidia-ml-py installed
    record_nvml_facts.py --show FIXTURE.json [--required-cuda 13.0]

A fixture holds the answer of each nvidia-ml-py call that ``kimi_deploy.io.gpu_facts.collect_nvml`` makes,
keyed by the call's name, in the shape the real bindings return it (bytes as ints, CUDA 13.0 as 13000,
compute capability as [major, minor]). A call that failed is stored as {"nvml_error": "NVML_ERROR_..."}.
``fake_pynvml(data)`` turns a fixture back into a module object with the same API, so unit tests run
``collect_nvml`` on hosts without GPUs. ``--show`` replays a fixture through it and prints the facts.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import importlib.metadata
import json
import string
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plugins" / "module_utils"))
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.io.gpu_facts import collect_nvml, driver_problems, gpu_problems

# Values of the pynvml constants the fake needs (checked against the real module in the unit tests).
NVML_ERROR_CODES = {
    "NVML_ERROR_UNINITIALIZED": 1, "NVML_ERROR_INVALID_ARGUMENT": 2, "NVML_ERROR_NOT_SUPPORTED": 3,
    "NVML_ERROR_NO_PERMISSION": 4, "NVML_ERROR_ALREADY_INITIALIZED": 5, "NVML_ERROR_NOT_FOUND": 6,
    "NVML_ERROR_INSUFFICIENT_SIZE": 7, "NVML_ERROR_INSUFFICIENT_POWER": 8, "NVML_ERROR_DRIVER_NOT_LOADED": 9,
    "NVML_ERROR_TIMEOUT": 10, "NVML_ERROR_IRQ_ISSUE": 11, "NVML_ERROR_LIBRARY_NOT_FOUND": 12,
    "NVML_ERROR_FUNCTION_NOT_FOUND": 13, "NVML_ERROR_CORRUPTED_INFOROM": 14, "NVML_ERROR_GPU_IS_LOST": 15,
    "NVML_ERROR_RESET_REQUIRED": 16, "NVML_ERROR_OPERATING_SYSTEM": 17, "NVML_ERROR_LIB_RM_VERSION_MISMATCH": 18,
    "NVML_ERROR_IN_USE": 19, "NVML_ERROR_MEMORY": 20, "NVML_ERROR_NO_DATA": 21, "NVML_ERROR_UNKNOWN": 999,
}
NVML_CONSTANTS = {
    "NVML_DEVICE_MIG_DISABLE": 0, "NVML_DEVICE_MIG_ENABLE": 1,
    "NVML_MEMORY_ERROR_TYPE_CORRECTED": 0, "NVML_MEMORY_ERROR_TYPE_UNCORRECTED": 1,
    "NVML_VOLATILE_ECC": 0, "NVML_AGGREGATE_ECC": 1,
}
# nvmlDeviceGetTotalEccErrors(handle, errorType, counterType) answers, by fixture key.
ECC_COUNTERS = {
    "corrected_volatile": ("NVML_MEMORY_ERROR_TYPE_CORRECTED", "NVML_VOLATILE_ECC"),
    "uncorrected_volatile": ("NVML_MEMORY_ERROR_TYPE_UNCORRECTED", "NVML_VOLATILE_ECC"),
    "corrected_aggregate": ("NVML_MEMORY_ERROR_TYPE_CORRECTED", "NVML_AGGREGATE_ECC"),
    "uncorrected_aggregate": ("NVML_MEMORY_ERROR_TYPE_UNCORRECTED", "NVML_AGGREGATE_ECC"),
}
DEVICE_CALLS = (
    "nvmlDeviceGetName", "nvmlDeviceGetUUID", "nvmlDeviceGetMemoryInfo", "nvmlDeviceGetCudaComputeCapability",
    "nvmlDeviceGetPciInfo", "nvmlDeviceGetMigMode", "nvmlDeviceGetTotalEccErrors",
)


def error_class_name(constant: str) -> str:
    """NVML_ERROR_NOT_SUPPORTED -> NVMLError_NotSupported, as pynvml names its exception classes."""
    return "NVMLError_" + string.capwords(constant.replace("NVML_ERROR_", ""), "_").replace("_", "")


# --- replay -----------------------------------------------------------------------------------------


def fake_pynvml(data: dict[str, Any]) -> ModuleType:  # noqa: C901, PLR0915 - one small closure per NVML binding
    """A module object with the nvidia-ml-py API answering from a fixture.

    Like the real bindings it raises NVMLError subclasses (NVMLError_NotSupported, ...), refuses calls
    before nvmlInit, returns busId as bytes (a ctypes char array), and returns every string as bytes
    when the fixture says ``"bindings": {"strings": "bytes"}`` (nvidia-ml-py before 11.515).
    ``module.calls`` lists the calls made; ``module.init_count`` is nvmlInit minus nvmlShutdown calls.
    """
    nvml = ModuleType("pynvml")
    nvml.__dict__.update(NVML_ERROR_CODES)
    nvml.__dict__.update(NVML_CONSTANTS)
    nvml.NVML_SUCCESS = 0
    nvml.calls = []
    nvml.init_count = 0
    as_bytes = data.get("bindings", {}).get("strings") == "bytes"
    devices = data.get("devices", [])

    class NVMLError(Exception):
        _value_class: dict[int, type] = {}  # noqa: RUF012 - mirrors pynvml's class-level map

        def __new__(cls, value):
            chosen = NVMLError._value_class.get(value, cls) if cls is NVMLError else cls
            obj = Exception.__new__(chosen)
            obj.value = value
            return obj

        def __init__(self, value):
            super().__init__(value)

        def __str__(self):
            name = next((k for k, v in NVML_ERROR_CODES.items() if v == self.value), "NVML_ERROR_UNKNOWN")
            return name.replace("NVML_ERROR_", "").replace("_", " ").title()

    nvml.NVMLError = NVMLError
    for constant, value in NVML_ERROR_CODES.items():
        subclass = type(error_class_name(constant), (NVMLError,), {})
        NVMLError._value_class[value] = subclass
        setattr(nvml, subclass.__name__, subclass)

    def answer(value: Any) -> Any:
        if isinstance(value, dict) and "nvml_error" in value:
            raise NVMLError(NVML_ERROR_CODES[value["nvml_error"]])
        return value

    def text(value: str) -> str | bytes:
        return value.encode() if as_bytes else value

    def api(fn):
        @functools.wraps(fn)
        def call(*args):
            nvml.calls.append((fn.__name__, args))
            if fn.__name__ != "nvmlInit" and nvml.init_count < 1:
                raise NVMLError(NVML_ERROR_CODES["NVML_ERROR_UNINITIALIZED"])
            return fn(*args)
        setattr(nvml, fn.__name__, call)
        return call

    def device(handle: SimpleNamespace) -> dict[str, Any]:
        return devices[handle.index]

    @api
    def nvmlInit():
        answer(data.get("nvmlInit"))
        nvml.init_count += 1

    @api
    def nvmlShutdown():
        nvml.init_count -= 1

    @api
    def nvmlSystemGetDriverVersion():
        return text(answer(data["nvmlSystemGetDriverVersion"]))

    @api
    def nvmlSystemGetCudaDriverVersion():
        return answer(data["nvmlSystemGetCudaDriverVersion"])

    if "nvmlSystemGetCudaDriverVersion_v2" in data:  # absent from old bindings
        @api
        def nvmlSystemGetCudaDriverVersion_v2():
            return answer(data["nvmlSystemGetCudaDriverVersion_v2"])

    @api
    def nvmlDeviceGetCount():
        return len(devices)

    @api
    def nvmlDeviceGetHandleByIndex(index):
        if not 0 <= index < len(devices):
            raise NVMLError(NVML_ERROR_CODES["NVML_ERROR_INVALID_ARGUMENT"])
        answer(devices[index].get("nvmlDeviceGetHandleByIndex"))
        return SimpleNamespace(index=index)

    @api
    def nvmlDeviceGetName(handle):
        return text(answer(device(handle)["nvmlDeviceGetName"]))

    @api
    def nvmlDeviceGetUUID(handle):
        return text(answer(device(handle)["nvmlDeviceGetUUID"]))

    @api
    def nvmlDeviceGetMemoryInfo(handle):
        return SimpleNamespace(**answer(device(handle)["nvmlDeviceGetMemoryInfo"]))

    @api
    def nvmlDeviceGetCudaComputeCapability(handle):
        return tuple(answer(device(handle)["nvmlDeviceGetCudaComputeCapability"]))

    @api
    def nvmlDeviceGetPciInfo(handle):
        pci = dict(answer(device(handle)["nvmlDeviceGetPciInfo"]))
        pci["busId"] = pci["busId"].encode()
        return SimpleNamespace(**pci)

    @api
    def nvmlDeviceGetMigMode(handle):
        return list(answer(device(handle)["nvmlDeviceGetMigMode"]))

    @api
    def nvmlDeviceGetTotalEccErrors(handle, error_type, counter_type):
        counters = answer(device(handle)["nvmlDeviceGetTotalEccErrors"])
        for key, (type_name, counter_name) in ECC_COUNTERS.items():
            if (error_type, counter_type) == (NVML_CONSTANTS[type_name], NVML_CONSTANTS[counter_name]):
                return counters[key]
        raise NVMLError(NVML_ERROR_CODES["NVML_ERROR_INVALID_ARGUMENT"])

    return nvml


def load_fixture(path: str | Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


# --- record -----------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    return value.decode() if isinstance(value, bytes) else value


def _recorded(nvml: Any, call) -> Any:
    try:
        return call()
    except nvml.NVMLError as err:
        name = next((k for k in dir(nvml) if k.startswith("NVML_ERROR_") and getattr(nvml, k) == err.value),
                    "NVML_ERROR_UNKNOWN")
        return {"nvml_error": name}


def _ecc_counters(nvml: Any, handle: Any) -> Any:
    counters = {key: _recorded(nvml, lambda t=t, c=c: nvml.nvmlDeviceGetTotalEccErrors(
        handle, getattr(nvml, t), getattr(nvml, c))) for key, (t, c) in ECC_COUNTERS.items()}
    answers = {json.dumps(value, sort_keys=True) for value in counters.values()}
    if len(answers) == 1 and isinstance(next(iter(counters.values())), dict):
        return next(iter(counters.values()))  # the same error for every counter: store it once
    return counters


def _device(nvml: Any, index: int) -> dict[str, Any]:
    handle = _recorded(nvml, lambda: nvml.nvmlDeviceGetHandleByIndex(index))
    if isinstance(handle, dict):  # e.g. a GPU that fell off the bus
        return {"nvmlDeviceGetHandleByIndex": handle}
    memory = _recorded(nvml, lambda: nvml.nvmlDeviceGetMemoryInfo(handle))
    pci = _recorded(nvml, lambda: nvml.nvmlDeviceGetPciInfo(handle))
    capability = _recorded(nvml, lambda: list(nvml.nvmlDeviceGetCudaComputeCapability(handle)))
    return {
        "nvmlDeviceGetName": _plain(_recorded(nvml, lambda: nvml.nvmlDeviceGetName(handle))),
        "nvmlDeviceGetUUID": _plain(_recorded(nvml, lambda: nvml.nvmlDeviceGetUUID(handle))),
        "nvmlDeviceGetMemoryInfo": memory if isinstance(memory, dict) else
        {"total": memory.total, "free": memory.free, "used": memory.used},
        "nvmlDeviceGetCudaComputeCapability": capability,
        "nvmlDeviceGetPciInfo": pci if isinstance(pci, dict) else
        {"busId": _plain(pci.busId), "domain": pci.domain, "bus": pci.bus, "device": pci.device},
        "nvmlDeviceGetMigMode": _recorded(nvml, lambda: list(nvml.nvmlDeviceGetMigMode(handle))),
        "nvmlDeviceGetTotalEccErrors": _ecc_counters(nvml, handle),
    }


def record(nvml: Any) -> dict[str, Any]:
    """Everything collect_nvml reads, from real bindings, in the fixture shape."""
    try:
        bindings_version = importlib.metadata.version("nvidia-ml-py")
    except importlib.metadata.PackageNotFoundError:
        bindings_version = None
    data: dict[str, Any] = {
        "about": f"recorded on {datetime.date.today().isoformat()} with tools/record_nvml_facts.py --record",
        "source": "recorded",
    }
    init = _recorded(nvml, nvml.nvmlInit)
    if init is not None:
        data["nvmlInit"] = init
        return data
    try:
        raw_driver = _recorded(nvml, nvml.nvmlSystemGetDriverVersion)
        data["bindings"] = {"nvidia_ml_py": bindings_version,
                            "strings": "bytes" if isinstance(raw_driver, bytes) else "str"}
        data["nvmlSystemGetDriverVersion"] = _plain(raw_driver)
        data["nvmlSystemGetCudaDriverVersion"] = _recorded(nvml, nvml.nvmlSystemGetCudaDriverVersion)
        if hasattr(nvml, "nvmlSystemGetCudaDriverVersion_v2"):
            data["nvmlSystemGetCudaDriverVersion_v2"] = _recorded(nvml, nvml.nvmlSystemGetCudaDriverVersion_v2)
        data["devices"] = [_device(nvml, index) for index in range(nvml.nvmlDeviceGetCount())]
    finally:
        nvml.nvmlShutdown()
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--record", metavar="OUT", help="write this host's NVML answers to OUT (needs pynvml)")
    mode.add_argument("--show", metavar="FIXTURE", help="replay FIXTURE and print the facts it gives")
    parser.add_argument("--required-cuda", help="with --show: also print driver problems for this CUDA")
    args = parser.parse_args(argv)
    if args.record:
        try:
            import pynvml
        except ImportError:
            parser.error("pynvml is not importable: pip install nvidia-ml-py")
        Path(args.record).write_text(json.dumps(record(pynvml), indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.record}")
        return 0
    try:
        facts = collect_nvml(fake_pynvml(load_fixture(args.show)))
    except KimiDeployError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    facts["driver_problems"] = driver_problems(facts, args.required_cuda)
    facts["gpu_problems"] = gpu_problems(facts["gpus"])
    print(json.dumps(facts, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
