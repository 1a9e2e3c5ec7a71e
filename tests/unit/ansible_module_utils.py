"""Make ``kimi_deploy`` importable by the modules under plain pytest, the way Ansible ships it.

Imported for its effect by tests/unit/conftest.py and by the integration tests that run modules.

``pyproject.toml`` puts ``plugins/module_utils``, ``plugins/modules`` and this directory on the path.
Modules import ``ansible.module_utils.kimi_deploy.<name>``; library tests import
``kimi_deploy.<name>``. Every submodule, in ``core/`` and ``io/`` too, is registered under both names
as the *same* module object, so an exception class raised by the library is the one the module catches.
"""

import importlib
import pkgutil
import sys

import kimi_deploy

sys.modules["ansible.module_utils.kimi_deploy"] = kimi_deploy
for _info in pkgutil.walk_packages(kimi_deploy.__path__, "kimi_deploy."):
    _mod = importlib.import_module(_info.name)
    sys.modules[f"ansible.module_utils.{_info.name}"] = _mod
