"""Make ``kimi_deploy`` and the modules importable under plain pytest, the way Ansible ships them.

Modules import ``ansible.module_utils.kimi_deploy.<name>``; library tests import
``kimi_deploy.<name>``. Every submodule is registered under both names as the *same* module
object, so an exception class raised by the library is the one the module catches.
"""

import importlib
import pkgutil
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "plugins" / "module_utils"))
sys.path.insert(0, str(REPO_ROOT / "plugins" / "modules"))
# After module_utils: plugins/filter/kimi_deploy.py must not shadow the kimi_deploy package.
sys.path.append(str(REPO_ROOT / "plugins" / "filter"))

import kimi_deploy

sys.modules["ansible.module_utils.kimi_deploy"] = kimi_deploy
for _info in pkgutil.iter_modules(kimi_deploy.__path__):
    _mod = importlib.import_module(f"kimi_deploy.{_info.name}")
    sys.modules[f"ansible.module_utils.kimi_deploy.{_info.name}"] = _mod
