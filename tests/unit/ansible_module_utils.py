"""Make the collection's Python importable under plain pytest, the way Ansible loads it.

Imported for its effect by tests/unit/conftest.py and by the integration tests that run modules.

Modules import ``ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.<name>``; library
tests import ``kimi_deploy.<name>``. Every submodule, in ``core/`` and ``io/`` too, is registered
under both names as the *same* module object, so an exception class raised by the library is the one
the module catches.

The collection is found where ansible-test puts it (this tree is ``.../ansible_collections/kimi/deploy``)
or through the repository's link ``.ansible/collections/ansible_collections/kimi/deploy``
(scripts/collection_link.sh, which ansible.cfg's collections_path reads too).
"""

import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
COLLECTION_PACKAGE = "ansible_collections.kimi.deploy"


def _collections_root() -> Path:
    if REPO_ROOT.parent.parent.name == "ansible_collections":
        return REPO_ROOT.parents[2]
    subprocess.run(["bash", str(REPO_ROOT / "scripts" / "collection_link.sh")], check=True)
    return REPO_ROOT / ".ansible" / "collections"


COLLECTIONS_ROOT = _collections_root()
if str(COLLECTIONS_ROOT) not in sys.path:
    sys.path.insert(0, str(COLLECTIONS_ROOT))
# The ansible commands the tests run find kimi.deploy there too, whatever ansible.cfg they read.
# (ansible-test sets it already, to this one directory, and its pytest plugin wants it left so.)
if str(COLLECTIONS_ROOT) not in os.environ.get("ANSIBLE_COLLECTIONS_PATH", "").split(os.pathsep):
    os.environ["ANSIBLE_COLLECTIONS_PATH"] = os.pathsep.join(
        p for p in (str(COLLECTIONS_ROOT), os.environ.get("ANSIBLE_COLLECTIONS_PATH")) if p)

kimi_deploy = importlib.import_module(f"{COLLECTION_PACKAGE}.plugins.module_utils.kimi_deploy")
sys.modules["kimi_deploy"] = kimi_deploy
for _info in pkgutil.walk_packages(kimi_deploy.__path__, f"{kimi_deploy.__name__}."):
    _mod = importlib.import_module(_info.name)
    sys.modules["kimi_deploy." + _info.name[len(kimi_deploy.__name__) + 1:]] = _mod
