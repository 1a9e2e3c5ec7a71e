"""A GPU's architecture from its compute capability or its name, as NVIDIA's tables give them.

Pure, so that sizing can name an architecture without importing the NVML reader (``gpu_facts.py``).
"""

from __future__ import annotations

import re

# Compute capability -> architecture, from NVIDIA's "CUDA GPU Compute Capability" table.
ARCHITECTURE_BY_CAPABILITY = {
    "7.0": "volta", "7.2": "volta", "7.5": "turing",
    "8.0": "ampere", "8.6": "ampere", "8.7": "ampere", "8.9": "ada",
    "9.0": "hopper",
    "10.0": "blackwell", "10.3": "blackwell", "11.0": "blackwell", "12.0": "blackwell", "12.1": "blackwell",
}

# Name token -> compute capability, for override entries that give only a name. Matched as whole
# words on the upper-cased NVML name, so "H20" does not match "H200" and "B200" does not match "GB200".
# Same sources, plus the MIG user guide (H20 9.0); H800/A800 are the export variants of H100/A100.
CAPABILITY_BY_NAME_TOKEN = (
    ("GB300", "10.3"), ("B300", "10.3"),
    ("GB200", "10.0"), ("B200", "10.0"),
    (r"RTX PRO \d+ BLACKWELL", "12.0"),
    ("GH200", "9.0"), ("H200", "9.0"), ("H100", "9.0"), ("H800", "9.0"), ("H20", "9.0"),
    ("A100", "8.0"), ("A800", "8.0"), ("A30", "8.0"),
    ("L40S", "8.9"), ("L40", "8.9"), ("L4", "8.9"),
    ("A40", "8.6"), ("A10", "8.6"),
    ("V100", "7.0"), ("T4", "7.5"),
)


def capability_from_name(name: str) -> str | None:
    upper = name.upper()
    for token, capability in CAPABILITY_BY_NAME_TOKEN:
        if re.search(rf"(?<![A-Z0-9]){token}(?![A-Z0-9])", upper):
            return capability
    return None


def architecture_for(capability: str | None, name: str) -> str:
    """Architecture from the compute capability, else from the name, else ``"unknown"``."""
    if capability is None:
        capability = capability_from_name(name)
    return ARCHITECTURE_BY_CAPABILITY.get(capability or "", "unknown")
