"""Stand-in for get-pip.py, which ansible-test downloads from a host this network cannot reach.

ansible-test --venv makes its virtual environments without pip and runs this script (from its cache,
~/.ansible/test/cache/get_pip_<version>.py) inside them with the pip it wants, e.g. ``pip==24.2``. The
interpreter's own bundled pip (ensurepip, no network) installs that pip from the package index.
scripts/ansible_test.sh puts it in the cache.
"""

import ensurepip
import os
import subprocess
import sys

# get-pip.py's own switches: they are not pip's, and mean "do not also install these".
GET_PIP_ONLY = {"--no-setuptools", "--no-wheel"}

ensurepip.bootstrap(upgrade=True)
# ensurepip points pip at an empty config (os.environ, in-process); the real pip must read the machine's.
env = {name: value for name, value in os.environ.items() if name not in {"PIP_CONFIG_FILE", "ENSUREPIP_OPTIONS"}}
pip_args = [arg for arg in sys.argv[1:] if arg not in GET_PIP_ONLY]
sys.exit(subprocess.call([sys.executable, "-m", "pip", "install", "--upgrade", *pip_args], env=env))
