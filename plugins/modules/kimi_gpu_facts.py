#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Ansible module: read GPU facts through NVML (or take them from an override) and host limits."""

from __future__ import annotations

DOCUMENTATION = r"""
---
module: kimi_gpu_facts
short_description: Read GPU, driver and host facts for a vLLM deployment
description:
  - Reads the driver version, the CUDA version the driver supports and, for every GPU, its name, UUID,
    memory (total, used, free in MiB), compute capability, architecture, PCI bus id, MIG mode and
    volatile uncorrected ECC error count, through NVML (the C(pynvml) module of the C(nvidia-ml-py)
    package, imported only when needed).
  - On hosts without GPUs (the demo, molecule) O(gpus_override) describes the GPUs instead and NVML is not
    touched; the facts then say C(override) as their source and values that cannot be known are null.
  - Also reads host facts the preflight checks need, memory, usable CPUs, the size of C(/dev/shm) and the
    open-file limit.
  - Reports, without failing, a driver too old for O(required_cuda), GPUs with MIG enabled or uncorrected
    ECC errors, and (with O(max_gpu_memory_used_mib)) GPUs already holding memory. The caller decides
    whether these stop the play.
  - Read-only; never changes anything.
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
requirements:
  - On GPU hosts, the C(nvidia-ml-py) package for the Python that runs this module, and the NVIDIA driver.
options:
  gpus_override:
    description:
      - GPUs to report instead of asking NVML, for hosts without GPUs. Each item needs C(name) and
        C(memory_total_mib); C(count) (default 1) repeats it, and C(compute_capability) (such as C("9.0")),
        C(architecture) and C(memory_used_mib) are optional. Capability and architecture are looked up from
        the name when left out.
      - Any other key, a missing required key or a value of the wrong kind fails with the entry and field named.
    type: list
    elements: dict
  require_gpus:
    description:
      - Fail with what to fix when no GPU can be read (pynvml missing, NVML cannot start, or 0 GPUs) and
        O(gpus_override) is not given.
      - Set to V(false) for the CPU build; the module then returns an empty C(kimi_gpus) and says why in C(msg).
    type: bool
    default: true
  required_cuda:
    description:
      - The CUDA version the pinned vLLM wheel is built for, as C(13.0) or a wheel tag such as C(cu130).
      - When given, C(driver_problems) lists what is wrong with the driver for it.
    type: str
  max_gpu_memory_used_mib:
    description:
      - Report in C(gpu_problems) every GPU that already has more than this many MiB in use, by another
        process. Left out, memory in use is only reported in the facts.
    type: int
  driver_version_override:
    description:
      - With O(gpus_override), the driver version to report (such as C(535.183.01)), so a test host can
        exercise the driver check. Requires O(cuda_driver_version_override).
    type: str
  cuda_driver_version_override:
    description:
      - With O(gpus_override), the CUDA version the overridden driver supports (such as C(12.2)).
    type: str
  check_devices:
    description:
      - Also read the NVIDIA device state the sandboxed service depends on (C(/proc/devices), C(/dev/nvidia*),
        the nvidia_uvm module, NVSwitches and C(nvidia-fabricmanager.service)) and report in C(device_problems)
        what would keep CUDA from its devices. For GPU hosts; V(false) on the CPU build.
    type: bool
    default: false
  device_allow:
    description:
      - With O(check_devices), the names of the units' C(DeviceAllow=char-<name>) lines; a device the driver
        registers that none of them matches (systemd's fnmatch) is a problem.
    type: list
    elements: str
    default: []
  devices_override:
    description:
      - With O(check_devices), the device facts to judge instead of reading them (tests, rehearsals); the keys of
        C(kimi_gpu_devices).
    type: dict
attributes:
  platform:
    platforms: posix
  check_mode:
    support: full
    description: The module only reads, so check mode runs it in full and returns the same facts.
  diff_mode:
    support: none
  facts:
    support: full
notes:
  - The open-file limit is that of the process running this module; the service's own limit comes from its
    systemd unit (C(LimitNOFILE)).
  - Memory in use comes from NVML's C(nvmlDeviceGetMemoryInfo); recent drivers count a few MiB of driver
    reservation as used on an idle GPU.
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - ansible.builtin.action_common_attributes.facts
"""

EXAMPLES = r"""
- name: Read the GPUs and require a driver for CUDA 13.0
  kimi_gpu_facts:
    required_cuda: "13.0"
  register: kimi_gpu_check

- name: Stop when the driver or a GPU is not fit to serve
  ansible.builtin.assert:
    that: kimi_gpu_check.driver_problems + kimi_gpu_check.gpu_problems | length == 0
    fail_msg: "{{ (kimi_gpu_check.driver_problems + kimi_gpu_check.gpu_problems) | join(' ') }}"

- name: Describe eight H200s on a host without GPUs (demo, molecule)
  kimi_gpu_facts:
    gpus_override:
      - name: NVIDIA H200
        memory_total_mib: 143771
        count: 8

- name: CPU build, no GPUs expected
  kimi_gpu_facts:
    require_gpus: false
"""

RETURN = r"""
ansible_facts:
  description: Facts set on the host.
  returned: success
  type: dict
  contains:
    kimi_gpus:
      description: One record per GPU, in NVML index order.
      type: list
      elements: dict
      sample:
        - index: 0
          name: NVIDIA H200
          uuid: GPU-5a1d3c2e-0000-4000-8000-000000000000
          memory_total_mib: 143771
          memory_used_mib: 0
          memory_free_mib: 143771
          compute_capability: "9.0"
          architecture: hopper
          pci_bus_id: "00000000:18:00.0"
          mig_enabled: false
          ecc_uncorrected_volatile: 0
      contains:
        index: {description: NVML index; for override GPUs the position after expanding count., type: int}
        name: {description: Product name as NVML reports it., type: str}
        uuid: {description: GPU UUID; null for override GPUs., type: str}
        memory_total_mib: {description: Total memory in MiB., type: int}
        memory_used_mib: {description: Memory in use in MiB; null for override GPUs that do not give it., type: int}
        memory_free_mib: {description: Free memory in MiB; null when used is unknown., type: int}
        compute_capability: {description: "CUDA compute capability, such as C(9.0); null when unknown.", type: str}
        architecture: {description: "hopper, blackwell, ampere, ada, ... or unknown.", type: str}
        pci_bus_id: {description: PCI bus id; null for override GPUs., type: str}
        mig_enabled: {description: MIG mode currently on (false where MIG is not supported)., type: bool}
        ecc_uncorrected_volatile:
          description: Uncorrected ECC errors since the driver loaded; null without ECC.
          type: int
    kimi_gpu_facts_source:
      description: Where the GPU facts come from.
      type: str
      choices: [nvml, override, none]
    kimi_gpu_driver_version:
      description: NVIDIA driver version; null without NVML unless overridden.
      type: str
      sample: "580.95.05"
    kimi_gpu_cuda_driver_version:
      description: Highest CUDA version the driver supports, as MAJOR.MINOR.
      type: str
      sample: "13.0"
    kimi_host_memory_total_mib:
      description: MemTotal from /proc/meminfo in MiB.
      type: int
    kimi_host_memory_available_mib:
      description: MemAvailable from /proc/meminfo in MiB (null on kernels older than 3.14).
      type: int
    kimi_host_cpu_count:
      description: CPUs this process may run on (cpuset and affinity applied).
      type: int
    kimi_host_shm_bytes:
      description: Size of the /dev/shm filesystem in bytes; null when it is not mounted.
      type: int
    kimi_host_cpu_flags:
      description: CPU feature flags of the first processor in /proc/cpuinfo (the planner reads AMX from them).
      type: list
      elements: str
    kimi_host_nofile_limit:
      description: Open-file limit (RLIMIT_NOFILE) of the module's process; null means unlimited.
      type: dict
      sample: {soft: 1024, hard: 524288}
    kimi_gpu_devices:
      description: With O(check_devices), the NVIDIA device state read; null otherwise.
      type: dict
      sample:
        proc_devices: [[195, nvidia], [195, nvidiactl], [509, nvidia-uvm]]
        dev_nodes: {nvidia0: [195, 0], nvidiactl: [195, 255], nvidia-uvm: [509, 0]}
        uvm_module_loaded: true
        uvm_module_available: true
        nvswitch_count: 4
        fabricmanager: active
driver_problems:
  description: What is wrong with the driver for O(required_cuda), each with what to do. Empty when fine or not checked.
  returned: always
  type: list
  elements: str
gpu_problems:
  description: GPUs with MIG enabled, uncorrected ECC errors, or more memory in use than O(max_gpu_memory_used_mib).
  returned: always
  type: list
  elements: str
device_problems:
  description: With O(check_devices), what keeps CUDA in the sandboxed unit from its devices, each with what to do.
  returned: always
  type: list
  elements: str
msg:
  description: Why C(kimi_gpus) is empty when O(require_gpus=false) and no GPU could be read.
  returned: when no GPU facts were found
  type: str
"""

import importlib
import sys

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.gpu_devices import (
    FABRIC_MANAGER_UNIT,
    device_problems,
    read_device_facts,
)
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.gpu_facts import (
    driver_problems,
    gpu_problems,
    read_host_facts,
    resolve_gpu_facts,
)


def _load_pynvml():
    # Imported here, not at the top, so the module runs on CPU hosts without nvidia-ml-py.
    return importlib.import_module("pynvml")


def _device_facts(module):
    if module.params["devices_override"] is not None:
        return dict(module.params["devices_override"])
    devices = read_device_facts()
    if devices["nvswitch_count"]:
        _rc, out, _err = module.run_command(["systemctl", "is-active", FABRIC_MANAGER_UNIT])
        devices["fabricmanager"] = out.strip() or "unknown"
    return devices


def main():
    module = AnsibleModule(
        argument_spec={
            "gpus_override": {"type": "list", "elements": "dict"},
            "require_gpus": {"type": "bool", "default": True},
            "required_cuda": {"type": "str"},
            "max_gpu_memory_used_mib": {"type": "int"},
            "driver_version_override": {"type": "str"},
            "cuda_driver_version_override": {"type": "str"},
            "check_devices": {"type": "bool", "default": False},
            "device_allow": {"type": "list", "elements": "str", "default": []},
            "devices_override": {"type": "dict"},
        },
        required_together=[("driver_version_override", "cuda_driver_version_override")],
        required_by={"driver_version_override": ("gpus_override",)},
        supports_check_mode=True,
    )
    params = module.params
    driver_override = None
    if params["driver_version_override"] is not None:
        driver_override = (params["driver_version_override"], params["cuda_driver_version_override"])
    try:
        facts = resolve_gpu_facts(
            override=params["gpus_override"], load_nvml=_load_pynvml, require_gpus=params["require_gpus"],
            python=sys.executable, driver_override=driver_override)
        host = read_host_facts()
        problems_driver = driver_problems(facts, params["required_cuda"])
        problems_gpu = gpu_problems(facts["gpus"], params["max_gpu_memory_used_mib"])
        devices = None
        problems_device = []
        if params["check_devices"]:
            devices = _device_facts(module)
            problems_device = device_problems(devices, params["device_allow"])
    except (KimiDeployError, OSError) as err:
        module.fail_json(msg=str(err))

    result = {
        "changed": False,
        "ansible_facts": {
            "kimi_gpus": facts["gpus"],
            "kimi_gpu_facts_source": facts["source"],
            "kimi_gpu_driver_version": facts["driver_version"],
            "kimi_gpu_cuda_driver_version": facts["cuda_driver_version"],
            "kimi_host_memory_total_mib": host["memory_total_mib"],
            "kimi_host_memory_available_mib": host["memory_available_mib"],
            "kimi_host_cpu_count": host["cpu_count"],
            "kimi_host_shm_bytes": host["shm_bytes"],
            "kimi_host_cpu_flags": host["cpu_flags"],
            "kimi_host_nofile_limit": host["nofile"],
            "kimi_gpu_devices": devices,
        },
        "driver_problems": problems_driver,
        "gpu_problems": problems_gpu,
        "device_problems": problems_device,
    }
    if facts["note"]:
        result["msg"] = facts["note"]
    module.exit_json(**result)


if __name__ == "__main__":
    main()
