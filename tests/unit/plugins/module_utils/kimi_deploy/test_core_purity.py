"""The core package stays pure: importing any of its modules pulls in no network, subprocess, thread or lock.

Each module is imported in a fresh interpreter whose import system refuses the side-effect modules,
and so does the package's own io/ half; a core file that imports one of them, directly or through
another module, fails here with the chain of imports that reached it.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import kimi_deploy.core
import pytest
from repo_paths import REPO

# Whole packages refused together with their submodules; urllib.request alone (urllib.parse is pure).
# kimi_deploy.io too: a core module may not lean on the side-effect half even where that one is harmless.
BLOCKED = ("socket", "ssl", "subprocess", "multiprocessing", "threading", "concurrent", "asyncio", "http",
           "urllib.request", "httpx", "requests", "fcntl", "pynvml", "select", "selectors", "kimi_deploy.io")

IMPORT_UNDER_BLOCK = """
import importlib, importlib.abc, sys, traceback
blocked = {blocked!r}

def refused(name):
    return any(name == b or name.startswith(b + ".") for b in blocked)

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if refused(name):
            raise ImportError(f"core purity: {{name}} may not be imported by a core module")
        return None

# Some of these may be loaded by the interpreter's own start-up: forget them so the import is seen.
for loaded in [m for m in sys.modules if refused(m)]:
    del sys.modules[loaded]
sys.meta_path.insert(0, Refuse())
sys.path[:0] = {paths!r}
try:
    importlib.import_module({module!r})
except ImportError as err:
    if "core purity" not in str(err):
        raise
    print(f"{{err}}; import chain:")
    traceback.print_exc(file=sys.stdout)
    sys.exit(3)
"""

CORE_MODULES = sorted(info.name for info in pkgutil.iter_modules(kimi_deploy.core.__path__, "kimi_deploy.core."))


def _import_blocked(module: str) -> subprocess.CompletedProcess:
    code = IMPORT_UNDER_BLOCK.format(blocked=BLOCKED, paths=[str(REPO / "plugins" / "module_utils")], module=module)
    return subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=120, check=False)


def test_the_core_package_has_modules():
    assert "kimi_deploy.core.acceptance_checks" in CORE_MODULES


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_imports_nothing_with_side_effects(module):
    result = _import_blocked(module)
    assert result.returncode == 0, f"{module} is not pure:\n{result.stdout}{result.stderr}"


def test_the_block_catches_a_module_that_is_not_pure():
    # The same harness on an io module must fail, naming what it pulled in: the test can fail.
    result = _import_blocked("kimi_deploy.io.acceptance_load")
    assert result.returncode == 3, result.stdout + result.stderr
    assert "may not be imported by a core module" in result.stdout
