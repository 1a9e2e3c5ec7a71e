"""GPU and host facts: NVML through fake bindings built from tests/fixtures/nvml, overrides, driver checks.

Expected values come from the fixture data (bytes -> MiB by hand), NVIDIA's compute-capability table and
the CUDA release notes' driver table, not from the code under test.
"""

import copy
import inspect
import os
import resource
from types import SimpleNamespace

import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.gpu_arch import architecture_for, capability_from_name
from kimi_deploy.io.gpu_facts import (
    collect_nvml,
    driver_problems,
    expand_override,
    format_cuda_version,
    gpu_problems,
    min_driver_for_cuda,
    nofile_limit,
    parse_cpu_flags,
    parse_meminfo,
    read_host_facts,
    resolve_gpu_facts,
    shm_size_bytes,
)
from record_nvml_facts import (
    ECC_COUNTERS,
    NVML_CONSTANTS,
    NVML_ERROR_CODES,
    error_class_name,
    fake_pynvml,
    load_fixture,
    record,
)
from repo_paths import FIXTURES as ALL_FIXTURES

FIXTURES = ALL_FIXTURES / "nvml"

MIB = 2**20
# The keys issue 2 fixes for a GPU record, written out here rather than read from the code.
GPU_RECORD_KEYS = {
    "index", "name", "uuid", "memory_total_mib", "memory_used_mib", "memory_free_mib",
    "compute_capability", "architecture", "pci_bus_id", "mig_enabled", "ecc_uncorrected_volatile",
}
# fixture -> (GPU count, driver, CUDA the driver supports, architecture) from the fixture's description.
FIXTURE_FACTS = {
    "h200x8-r580.json": (8, "580.95.05", "13.0", "hopper"),
    "b300x8-r580.json": (8, "580.82.07", "13.0", "blackwell"),
    "h100-mig.json": (1, "580.95.05", "13.0", "hopper"),
    "h200x8-ecc-busy.json": (8, "580.95.05", "13.0", "hopper"),
    "h100x8-r535.json": (8, "535.183.01", "12.2", "hopper"),
    "l40s-no-mig-ecc-off.json": (2, "580.95.05", "13.0", "ada"),
}


def fixture(name):
    return load_fixture(FIXTURES / name)


def collect(data):
    return collect_nvml(fake_pynvml(data))


# --- the fixtures through collect_nvml ---------------------------------------------------------------


def test_every_fixture_file_is_covered():
    assert {p.name for p in FIXTURES.glob("*.json")} == set(FIXTURE_FACTS) | {"driver-not-loaded.json"}


@pytest.mark.parametrize("name", sorted(FIXTURE_FACTS))
def test_nvml_facts_follow_the_fixture(name):
    data = fixture(name)
    count, driver, cuda, architecture = FIXTURE_FACTS[name]
    facts = collect(data)
    assert facts["driver_version"] == driver
    assert facts["cuda_driver_version"] == cuda
    assert len(facts["gpus"]) == count
    for index, (gpu, raw) in enumerate(zip(facts["gpus"], data["devices"], strict=True)):
        assert set(gpu) == GPU_RECORD_KEYS
        memory = raw["nvmlDeviceGetMemoryInfo"]
        major, minor = raw["nvmlDeviceGetCudaComputeCapability"]
        mig = raw["nvmlDeviceGetMigMode"]
        ecc = raw["nvmlDeviceGetTotalEccErrors"]
        assert gpu["index"] == index
        assert gpu["name"] == raw["nvmlDeviceGetName"]
        assert gpu["uuid"] == raw["nvmlDeviceGetUUID"]
        assert gpu["memory_total_mib"] == memory["total"] // MIB
        assert gpu["memory_used_mib"] == memory["used"] // MIB
        assert gpu["memory_free_mib"] == memory["free"] // MIB
        assert gpu["compute_capability"] == f"{major}.{minor}"
        assert gpu["architecture"] == architecture
        assert gpu["pci_bus_id"] == raw["nvmlDeviceGetPciInfo"]["busId"]
        assert gpu["mig_enabled"] is (isinstance(mig, list) and mig[0] == 1)
        assert gpu["ecc_uncorrected_volatile"] == (ecc.get("uncorrected_volatile") if "nvml_error" not in ecc
                                                   else None)


def test_published_memory_sizes_in_mib():
    # nvidia-smi's memory.total for these parts: H200 143771 MiB, B300 SXM6 AC 275040 MiB, H100 80GB 81559 MiB.
    assert {g["memory_total_mib"] for g in collect(fixture("h200x8-r580.json"))["gpus"]} == {143771}
    assert {g["memory_total_mib"] for g in collect(fixture("b300x8-r580.json"))["gpus"]} == {275040}
    assert collect(fixture("h100-mig.json"))["gpus"][0]["memory_total_mib"] == 81559


def test_partial_mib_round_down():
    gpus = collect(fixture("h200x8-r580.json"))["gpus"]
    # GPU 2 has 0.75 MiB in use: 0 MiB used (not rounded up to 1), 143770.25 -> 143770 MiB free.
    assert (gpus[2]["memory_used_mib"], gpus[2]["memory_free_mib"]) == (0, 143770)
    # GPU 5 has 3 MiB + 4 KiB in use: 3 used, 143767.99... -> 143767 free.
    assert (gpus[5]["memory_used_mib"], gpus[5]["memory_free_mib"]) == (3, 143767)


def test_bytes_from_old_bindings_become_text():
    data = fixture("h100x8-r535.json")
    nvml = fake_pynvml(data)
    nvml.nvmlInit()
    assert isinstance(nvml.nvmlDeviceGetName(nvml.nvmlDeviceGetHandleByIndex(0)), bytes)
    assert isinstance(nvml.nvmlSystemGetDriverVersion(), bytes)
    nvml.nvmlShutdown()
    facts = collect_nvml(nvml)
    assert facts["driver_version"] == "535.183.01"
    assert facts["gpus"][0]["name"] == "NVIDIA H100 80GB HBM3"
    assert facts["gpus"][0]["uuid"].startswith("GPU-")


def test_pci_bus_id_bytes_become_text():
    nvml = fake_pynvml(fixture("b300x8-r580.json"))
    nvml.nvmlInit()
    assert isinstance(nvml.nvmlDeviceGetPciInfo(nvml.nvmlDeviceGetHandleByIndex(0)).busId, bytes)
    nvml.nvmlShutdown()
    assert collect_nvml(nvml)["gpus"][7]["pci_bus_id"] == "00000000:DB:00.0"


def test_mig_enabled_is_read_and_reported():
    gpus = collect(fixture("h100-mig.json"))["gpus"]
    assert gpus[0]["mig_enabled"] is True
    [problem] = gpu_problems(gpus)
    assert "MIG mode enabled" in problem and "nvidia-smi -i 0 -mig 0" in problem


def test_not_supported_mig_and_ecc_give_false_and_none():
    gpus = collect(fixture("l40s-no-mig-ecc-off.json"))["gpus"]
    assert [(g["mig_enabled"], g["ecc_uncorrected_volatile"]) for g in gpus] == [(False, None), (False, None)]
    assert [(g["compute_capability"], g["architecture"]) for g in gpus] == [("8.9", "ada")] * 2
    assert gpu_problems(gpus) == []


def test_ecc_errors_and_busy_gpu_are_reported():
    gpus = collect(fixture("h200x8-ecc-busy.json"))["gpus"]
    assert [g["index"] for g in gpus if g["ecc_uncorrected_volatile"]] == [3]
    [ecc] = gpu_problems(gpus)
    assert ecc.startswith("GPU 3 (NVIDIA H200, PCI 00000000:5D:00.0) has 2 uncorrected ECC error")
    # GPU 6 holds 40 GiB + 517 MiB + 123456 B = 41477 MiB (rounded down) for another process.
    problems = gpu_problems(gpus, max_used_mib=1024)
    assert len(problems) == 2
    assert "GPU 6" in problems[1] and "41477 MiB in use" in problems[1] and "--query-compute-apps" in problems[1]
    assert gpu_problems(gpus, max_used_mib=41477) == [ecc]


def test_idle_node_has_no_gpu_problems():
    assert gpu_problems(collect(fixture("h200x8-r580.json"))["gpus"], max_used_mib=1024) == []


def test_ecc_query_asks_for_volatile_uncorrected():
    nvml = fake_pynvml(fixture("h200x8-ecc-busy.json"))
    collect_nvml(nvml)
    ecc_calls = [args[1:] for name, args in nvml.calls if name == "nvmlDeviceGetTotalEccErrors"]
    assert set(ecc_calls) == {(NVML_CONSTANTS["NVML_MEMORY_ERROR_TYPE_UNCORRECTED"],
                               NVML_CONSTANTS["NVML_VOLATILE_ECC"])}


# --- NVML errors and shutdown ------------------------------------------------------------------------


def test_shutdown_after_success():
    nvml = fake_pynvml(fixture("h200x8-r580.json"))
    collect_nvml(nvml)
    assert nvml.init_count == 0
    assert nvml.calls[0][0] == "nvmlInit" and nvml.calls[-1][0] == "nvmlShutdown"


def test_lost_gpu_names_the_gpu_and_still_shuts_down():
    data = fixture("h200x8-r580.json")
    data["devices"][4]["nvmlDeviceGetHandleByIndex"] = {"nvml_error": "NVML_ERROR_GPU_IS_LOST"}
    nvml = fake_pynvml(data)
    with pytest.raises(KimiDeployError, match=r"query of GPU 4 failed with NVML_ERROR_GPU_IS_LOST.*Xid 79"):
        collect_nvml(nvml)
    assert nvml.init_count == 0 and nvml.calls[-1][0] == "nvmlShutdown"


@pytest.mark.parametrize(("error", "advice"), [
    ("NVML_ERROR_DRIVER_NOT_LOADED", "modprobe nvidia"),
    ("NVML_ERROR_LIBRARY_NOT_FOUND", "kimi_gpus_override"),
    ("NVML_ERROR_LIB_RM_VERSION_MISMATCH", "Reboot the host"),
    ("NVML_ERROR_NO_PERMISSION", "become: true"),
    ("NVML_ERROR_UNKNOWN", "Run `nvidia-smi`"),
])
def test_init_failure_is_actionable_and_skips_shutdown(error, advice):
    nvml = fake_pynvml({"nvmlInit": {"nvml_error": error}})
    with pytest.raises(KimiDeployError, match=f"NVML initialisation failed with {error}") as caught:
        collect_nvml(nvml)
    assert advice in str(caught.value)
    assert [name for name, _unused in nvml.calls] == ["nvmlInit"]


def test_driver_not_loaded_fixture():
    with pytest.raises(KimiDeployError, match="kernel module is not loaded"):
        collect(fixture("driver-not-loaded.json"))


def test_cuda_version_v2_preferred_then_v1():
    data = fixture("h100x8-r535.json")
    data["nvmlSystemGetCudaDriverVersion_v2"] = 13000  # forward-compatibility libcuda on an r535 host
    assert collect(data)["cuda_driver_version"] == "13.0"
    data["nvmlSystemGetCudaDriverVersion_v2"] = {"nvml_error": "NVML_ERROR_FUNCTION_NOT_FOUND"}
    assert collect(data)["cuda_driver_version"] == "12.2"
    del data["nvmlSystemGetCudaDriverVersion_v2"]  # bindings without the call
    assert collect(data)["cuda_driver_version"] == "12.2"


def test_other_cuda_version_errors_are_not_swallowed():
    data = fixture("h200x8-r580.json")
    data["nvmlSystemGetCudaDriverVersion_v2"] = {"nvml_error": "NVML_ERROR_UNKNOWN"}
    with pytest.raises(KimiDeployError, match="driver query failed with NVML_ERROR_UNKNOWN"):
        collect(data)


def test_bindings_without_mig_call_report_no_mig():
    nvml = fake_pynvml(fixture("h100-mig.json"))
    del nvml.nvmlDeviceGetMigMode
    assert collect_nvml(nvml)["gpus"][0]["mig_enabled"] is False


def test_too_old_bindings_are_refused_before_init():
    nvml = fake_pynvml(fixture("h200x8-r580.json"))
    del nvml.nvmlDeviceGetCudaComputeCapability
    with pytest.raises(KimiDeployError, match="too old: it lacks nvmlDeviceGetCudaComputeCapability"):
        collect_nvml(nvml)
    assert nvml.calls == []


# --- the fake and the recorder stay honest -----------------------------------------------------------


def test_fake_matches_the_real_bindings():
    real = pytest.importorskip("pynvml")
    fake = fake_pynvml(fixture("h200x8-r580.json"))
    for name in [n for n in dir(fake) if n.startswith("nvml")]:
        assert callable(getattr(real, name, None)), f"real pynvml has no {name}"
        real_required = [p for p in inspect.signature(getattr(real, name)).parameters.values()
                         if p.default is inspect.Parameter.empty]  # GetMemoryInfo also takes version=None
        assert len(inspect.signature(getattr(fake, name)).parameters) == len(real_required), name
    for constant, value in {**NVML_ERROR_CODES, **NVML_CONSTANTS}.items():
        assert getattr(real, constant) == value, constant
        if constant in NVML_ERROR_CODES:
            assert isinstance(real.NVMLError(value), getattr(real, error_class_name(constant)))
    # ctypes char arrays read back as bytes, so the real busId is bytes, as the fake returns it.
    pci_fields = dict(real.nvmlPciInfo_t._fields_)
    assert pci_fields["busId"]._type_ is __import__("ctypes").c_char
    assert [f for f, _unused in real.c_nvmlMemory_t._fields_] == ["total", "free", "used"]


def test_real_bindings_end_to_end():
    """The real nvidia-ml-py: without a driver (CI) it must fail with the actionable message; on a
    GPU host it must return well-formed records."""
    real = pytest.importorskip("pynvml")
    try:
        facts = collect_nvml(real)
    except KimiDeployError as err:
        assert "NVML initialisation failed with NVML_ERROR_LIBRARY_NOT_FOUND" in str(err) or (
            "NVML_ERROR_DRIVER_NOT_LOADED" in str(err)), err
        return
    assert facts["gpus"] and all(set(g) == GPU_RECORD_KEYS for g in facts["gpus"])
    assert facts["driver_version"].split(".")[0].isdigit()


def test_fake_refuses_calls_before_init():
    nvml = fake_pynvml(fixture("h200x8-r580.json"))
    with pytest.raises(nvml.NVMLError_Uninitialized):
        nvml.nvmlDeviceGetCount()


@pytest.mark.parametrize("name", sorted(FIXTURE_FACTS))
def test_recorder_writes_the_fixture_shape(name):
    data = fixture(name)
    recorded = record(fake_pynvml(data))
    for key in ("nvmlSystemGetDriverVersion", "nvmlSystemGetCudaDriverVersion",
                "nvmlSystemGetCudaDriverVersion_v2", "devices"):
        assert recorded[key] == data[key], key
    assert recorded["bindings"]["strings"] == data["bindings"]["strings"]
    assert set(ECC_COUNTERS) >= set(data["devices"][0]["nvmlDeviceGetTotalEccErrors"]) - {"nvml_error"}


def test_recorder_keeps_an_init_failure():
    assert record(fake_pynvml(fixture("driver-not-loaded.json")))["nvmlInit"] == {
        "nvml_error": "NVML_ERROR_DRIVER_NOT_LOADED"}


# --- names and capabilities --------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "capability", "architecture"), [
    # NVIDIA's "CUDA GPU Compute Capability" table; H800 / A800 are the export variants of H100 / A100.
    ("NVIDIA H200", "9.0", "hopper"),
    ("NVIDIA H200 NVL", "9.0", "hopper"),
    ("NVIDIA H20", "9.0", "hopper"),
    ("NVIDIA H800", "9.0", "hopper"),
    ("NVIDIA H100 80GB HBM3", "9.0", "hopper"),
    ("NVIDIA GH200 480GB", "9.0", "hopper"),
    ("NVIDIA B200", "10.0", "blackwell"),
    ("NVIDIA GB200", "10.0", "blackwell"),
    ("NVIDIA B300 SXM6 AC", "10.3", "blackwell"),
    ("NVIDIA GB300", "10.3", "blackwell"),
    ("NVIDIA RTX PRO 6000 Blackwell Server Edition", "12.0", "blackwell"),
    ("NVIDIA A100-SXM4-80GB", "8.0", "ampere"),
    ("NVIDIA A800 80GB PCIe", "8.0", "ampere"),
    ("NVIDIA L40S", "8.9", "ada"),
    ("NVIDIA L40", "8.9", "ada"),
    ("NVIDIA L4", "8.9", "ada"),
    ("NVIDIA A10", "8.6", "ampere"),
    ("Tesla T4", "7.5", "turing"),
    ("Tesla V100-SXM2-32GB", "7.0", "volta"),
    ("NVIDIA GeForce RTX 4090", None, "unknown"),
    ("AMD Instinct MI355X", None, "unknown"),
])
def test_capability_and_architecture_from_name(name, capability, architecture):
    assert capability_from_name(name) == capability
    assert architecture_for(None, name) == architecture


def test_capability_wins_over_name():
    assert architecture_for("10.0", "NVIDIA H200") == "blackwell"
    assert architecture_for("99.0", "NVIDIA H200") == "unknown"


# --- override ----------------------------------------------------------------------------------------


def test_override_count_expands_and_unknowns_are_none():
    gpus = expand_override([
        {"name": "NVIDIA H200", "memory_total_mib": 143771, "count": 8},
        {"name": "NVIDIA B300 SXM6 AC", "memory_total_mib": 275040, "count": 2},
    ])
    assert [g["index"] for g in gpus] == list(range(10))
    assert all(set(g) == GPU_RECORD_KEYS for g in gpus)
    assert [(g["name"], g["compute_capability"], g["architecture"]) for g in gpus] == (
        [("NVIDIA H200", "9.0", "hopper")] * 8 + [("NVIDIA B300 SXM6 AC", "10.3", "blackwell")] * 2)
    for gpu in gpus:
        assert (gpu["uuid"], gpu["pci_bus_id"], gpu["ecc_uncorrected_volatile"]) == (None, None, None)
        assert (gpu["memory_used_mib"], gpu["memory_free_mib"], gpu["mig_enabled"]) == (None, None, False)


def test_override_optional_fields():
    [gpu] = expand_override([{"name": "Lab GPU", "memory_total_mib": "98304", "memory_used_mib": 1000,
                              "compute_capability": 12.0, "architecture": "Blackwell"}])
    assert gpu["memory_total_mib"] == 98304
    assert (gpu["memory_used_mib"], gpu["memory_free_mib"]) == (1000, 97304)
    assert (gpu["compute_capability"], gpu["architecture"]) == ("12.0", "blackwell")
    [float_cap] = expand_override([{"name": "x", "memory_total_mib": 1, "compute_capability": 10.3}])
    assert (float_cap["compute_capability"], float_cap["architecture"]) == ("10.3", "blackwell")


def test_override_unknown_name_without_capability():
    [gpu] = expand_override([{"name": "Mystery Accelerator", "memory_total_mib": 1024}])
    assert (gpu["compute_capability"], gpu["architecture"]) == (None, "unknown")


GOOD = {"name": "NVIDIA H200", "memory_total_mib": 143771}


@pytest.mark.parametrize(("entries", "message"), [
    (None, "must be a non-empty list"),
    ([], "must be a non-empty list"),
    ({"name": "NVIDIA H200"}, "must be a non-empty list"),
    ([GOOD, "NVIDIA H200"], r"kimi_gpus_override\[1\] must be a mapping"),
    ([GOOD, {"memory_total_mib": 143771}], r"kimi_gpus_override\[1\]\.name is required"),
    ([{"name": "NVIDIA H200"}], r"kimi_gpus_override\[0\]\.memory_total_mib is required"),
    ([{"name": "  ", "memory_total_mib": 1}], r"kimi_gpus_override\[0\]\.name must be a non-empty string"),
    ([{"name": 200, "memory_total_mib": 1}], r"kimi_gpus_override\[0\]\.name must be a non-empty string"),
    ([GOOD, {"name": "H200", "memory_total_mib": "141GB"}],
     r"kimi_gpus_override\[1\]\.memory_total_mib must be a whole number .* got '141GB'"),
    ([{"name": "H200", "memory_total_mib": 0}], r"\[0\]\.memory_total_mib must be at least 1"),
    ([{"name": "H200", "memory_total_mib": 1.5}], r"\[0\]\.memory_total_mib must be a whole number"),
    ([{**GOOD, "count": 0}], r"\[0\]\.count must be at least 1"),
    ([{**GOOD, "count": True}], r"\[0\]\.count must be a whole number"),
    ([{**GOOD, "memory_used_mib": -1}], r"\[0\]\.memory_used_mib must be at least 0"),
    ([{**GOOD, "memory_used_mib": 143772}], r"\[0\]\.memory_used_mib \(143772\) is more than memory_total_mib"),
    ([{**GOOD, "memory_total_gib": 141}], r"\[0\] has unknown key\(s\) memory_total_gib; allowed keys: name"),
    ([{**GOOD, "compute_capability": "hopper"}], r"\[0\]\.compute_capability must be MAJOR\.MINOR"),
    ([{**GOOD, "compute_capability": 9}], r"\[0\]\.compute_capability must be MAJOR\.MINOR"),
    ([{**GOOD, "architecture": ""}], r"\[0\]\.architecture must be a non-empty string"),
])
def test_override_errors_name_entry_and_field(entries, message):
    with pytest.raises(KimiDeployError, match=message):
        expand_override(entries)


# --- choosing the source -----------------------------------------------------------------------------


def _nvml_must_not_load():
    raise AssertionError("NVML was loaded although an override was given")


def _no_pynvml():
    raise ImportError("No module named 'pynvml'")


def test_override_never_loads_nvml():
    facts = resolve_gpu_facts(override=[{**GOOD, "count": 8}], load_nvml=_nvml_must_not_load,
                              require_gpus=True, python="/usr/bin/python3")
    assert facts["source"] == "override" and len(facts["gpus"]) == 8
    assert (facts["driver_version"], facts["cuda_driver_version"], facts["note"]) == (None, None, None)


def test_override_with_driver_override():
    facts = resolve_gpu_facts(override=[GOOD], load_nvml=_nvml_must_not_load, require_gpus=True,
                              python="py", driver_override=("535.183.01", "cu122"))
    assert (facts["driver_version"], facts["cuda_driver_version"]) == ("535.183.01", "12.2")


def test_driver_override_needs_gpu_override():
    with pytest.raises(KimiDeployError, match="only applies together with kimi_gpus_override"):
        resolve_gpu_facts(override=None, load_nvml=_no_pynvml, require_gpus=True, python="py",
                          driver_override=("535.183.01", "12.2"))


def test_missing_pynvml_says_what_to_install_and_where():
    with pytest.raises(KimiDeployError) as caught:
        resolve_gpu_facts(override=None, load_nvml=_no_pynvml, require_gpus=True, python="/opt/venv/bin/python")
    text = str(caught.value)
    for needed in ("pynvml", "nvidia-ml-py", "/opt/venv/bin/python -m pip install nvidia-ml-py",
                   "python3-pynvml", "ansible_python_interpreter", "kimi_gpus_override"):
        assert needed in text


def test_missing_pynvml_without_requirement_gives_no_gpus():
    facts = resolve_gpu_facts(override=None, load_nvml=_no_pynvml, require_gpus=False, python="py")
    assert (facts["gpus"], facts["source"]) == ([], "none")
    assert "nvidia-ml-py" in facts["note"]


def test_nvml_failure_with_and_without_requirement():
    def load():
        return fake_pynvml(fixture("driver-not-loaded.json"))

    with pytest.raises(KimiDeployError, match="kernel module is not loaded"):
        resolve_gpu_facts(override=None, load_nvml=load, require_gpus=True, python="py")
    facts = resolve_gpu_facts(override=None, load_nvml=load, require_gpus=False, python="py")
    assert facts["source"] == "none" and "kernel module is not loaded" in facts["note"]


def test_zero_gpus():
    data = fixture("h200x8-r580.json")
    data["devices"] = []
    with pytest.raises(KimiDeployError, match=r"NVML \(driver 580.95.05\) found 0 GPUs"):
        resolve_gpu_facts(override=None, load_nvml=lambda: fake_pynvml(data), require_gpus=True, python="py")
    facts = resolve_gpu_facts(override=None, load_nvml=lambda: fake_pynvml(data), require_gpus=False,
                              python="py")
    assert (facts["gpus"], facts["source"], facts["driver_version"]) == ([], "none", "580.95.05")


def test_nvml_source():
    facts = resolve_gpu_facts(override=None, load_nvml=lambda: fake_pynvml(fixture("b300x8-r580.json")),
                              require_gpus=True, python="py")
    assert facts["source"] == "nvml" and len(facts["gpus"]) == 8 and facts["note"] is None


# --- CUDA and the driver -----------------------------------------------------------------------------


@pytest.mark.parametrize(("cuda", "driver"), [
    # CUDA Toolkit release notes, Linux x86_64 toolkit driver per release.
    ("12.0", 525), ("12.1", 530), ("12.2", 535), ("12.3", 545), ("12.4", 550), ("12.5", 555),
    ("12.6", 560), ("12.8", 570), ("12.9", 575), ("13.0", 580),
    ("cu130", 580), ("cu129", 575), ("cu128", 570), ("13.0.2", 580), ("13", 580),
    ("13.1", 580), ("12.7", 560),  # between rows: the newest known row of that major is the floor
])
def test_min_driver_for_cuda(cuda, driver):
    assert min_driver_for_cuda(cuda) == driver


@pytest.mark.parametrize(("cuda", "message"), [
    ("14.0", "no known minimum NVIDIA driver for CUDA 14.0"),
    ("10.2", "no known minimum NVIDIA driver for CUDA 10.2"),
    ("thirteen", "CUDA version 'thirteen' is not understood"),
])
def test_min_driver_for_unknown_cuda(cuda, message):
    with pytest.raises(KimiDeployError, match=message):
        min_driver_for_cuda(cuda)


@pytest.mark.parametrize(("value", "text"), [(13000, "13.0"), (12090, "12.9"), (12020, "12.2"), (11080, "11.8")])
def test_format_cuda_version(value, text):
    assert format_cuda_version(value) == text


def test_r535_cannot_run_a_cuda13_vllm():
    facts = collect(fixture("h100x8-r535.json"))
    [problem] = driver_problems(facts, "13.0")
    assert "535.183.01" in problem and "r580" in problem and "CUDA up to 12.2" in problem
    assert "minor-version" not in problem  # a different major: no compatibility to mention
    [same_major] = driver_problems(facts, "cu128")
    assert "r570" in same_major and "minor-version compatibility" in same_major


def test_r580_runs_cuda13_and_older():
    facts = collect(fixture("h200x8-r580.json"))
    assert driver_problems(facts, "13.0") == []
    assert driver_problems(facts, "12.9") == []
    assert driver_problems(facts, None) == []


def test_reported_cuda_below_requirement_is_a_problem():
    # r580 branch, but the libcuda NVML loaded reports 12.9 (a stale libcuda on the loader path).
    assert len(driver_problems({"driver_version": "580.95.05", "cuda_driver_version": "12.9"}, "13.0")) == 1


def test_nothing_to_check_without_driver_facts():
    assert driver_problems({"driver_version": None, "cuda_driver_version": None}, "13.0") == []


# --- host --------------------------------------------------------------------------------------------

MEMINFO = """MemTotal:       24576000 kB
MemFree:         1234567 kB
MemAvailable:   20480512 kB
HugePages_Total:       0
"""


def test_parse_meminfo():
    # 24576000 kB / 1024 = 24000 MiB; 20480512 / 1024 = 20000.5 -> 20000 MiB.
    assert parse_meminfo(MEMINFO) == (24000, 20000)
    assert parse_meminfo("MemTotal: 2048 kB\n") == (2, None)
    with pytest.raises(KimiDeployError, match="no MemTotal"):
        parse_meminfo("MemFree: 1 kB\n")


def test_shm_size():
    docker_default = SimpleNamespace(f_blocks=16384, f_frsize=4096)  # 64 MiB, Docker's default /dev/shm
    assert shm_size_bytes("/dev/shm", statvfs=lambda path: docker_default) == 64 * MIB


def test_shm_missing(tmp_path):
    assert shm_size_bytes(str(tmp_path / "no-shm")) is None


def test_nofile_limit():
    assert nofile_limit(lambda which: (1024, 524288)) == {"soft": 1024, "hard": 524288}
    infinite = resource.RLIM_INFINITY
    assert nofile_limit(lambda which: (65535, infinite)) == {"soft": 65535, "hard": None}


def test_read_host_facts(tmp_path):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text(MEMINFO)
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nflags\t\t: sse avx2\n")
    facts = read_host_facts(meminfo_path=str(meminfo), shm_path=str(tmp_path / "missing"),
                            cpuinfo_path=str(cpuinfo))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert facts == {
        "cpu_flags": ["avx2", "sse"],
        "memory_total_mib": 24000,
        "memory_available_mib": 20000,
        "cpu_count": len(os.sched_getaffinity(0)),
        "shm_bytes": None,
        "nofile": {"soft": soft, "hard": hard},
    }
    stats = os.statvfs(tmp_path)
    assert read_host_facts(str(meminfo), str(tmp_path))["shm_bytes"] == stats.f_blocks * stats.f_frsize


def test_fixture_data_is_not_mutated_by_collection():
    data = fixture("h200x8-ecc-busy.json")
    before = copy.deepcopy(data)
    collect(data)
    assert data == before


def test_parse_cpu_flags_reads_the_first_processor():
    text = "processor\t: 0\nflags\t\t: fpu avx512f amx_tile avx512f\n\nprocessor\t: 1\nflags\t\t: fpu\n"
    assert parse_cpu_flags(text) == ["amx_tile", "avx512f", "fpu"]
    assert parse_cpu_flags("processor: 0\n") == []
