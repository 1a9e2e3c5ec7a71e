#!/usr/bin/env bash
# ansible-test on the collection kimi.deploy: it wants the collection at .../ansible_collections/kimi/deploy,
# so the tracked files (and the uncommitted edits to them) are copied into such a tree under $KIMI_CACHE.
#
#   scripts/ansible_test.sh sanity          # every sanity test (--venv: its tools come from PyPI)
#   scripts/ansible_test.sh units           # the unit tests, as collection users run them
#   scripts/ansible_test.sh sanity --test pylint plugins/modules/kimi_ledger.py
#
# No container registry is reachable here, so --venv (not --docker); the Python is the controller's.
set -euo pipefail
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command=${1:?usage: scripts/ansible_test.sh sanity|units [ansible-test options]}
shift

# A fixed place, so that ansible-test's own venvs and caches (tests/output) are reused between runs.
stage=${KIMI_CACHE:-/var/cache/kimi-deploy}/ansible-test
tree=$stage/ansible_collections/kimi/deploy
mkdir -p "$tree"
[ -d "$tree/tests/output" ] && mv "$tree/tests/output" "$stage/output.keep"
rm -rf "$tree"
mkdir -p "$tree"
(cd "$REPO_ROOT" && git ls-files -z --cached --others --exclude-standard \
  | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
  | tar --null -T - -cf -) | tar -C "$tree" -xf -
[ -d "$stage/output.keep" ] && mkdir -p "$tree/tests" && mv "$stage/output.keep" "$tree/tests/output"
git -C "$tree" init -q
git -C "$tree" add -A
# --venv bootstraps pip with get-pip.py from a host that is not reachable here: use the offline
# stand-in (tools/get_pip_offline.py) under the name ansible-test looks for in its cache.
controller_python=$(dirname "$(command -v ansible-test)")/python
pip_version=$("$controller_python" - <<'PY'
import inspect, re
from ansible_test._internal import python_requirements
print(re.search(r"pip='([0-9.]+)'", inspect.getsource(python_requirements.get_venv_packages)).group(1))
PY
)
get_pip=~/.ansible/test/cache/get_pip_${pip_version//./_}.py
if ! cmp -s "$REPO_ROOT/tools/get_pip_offline.py" "$get_pip"; then
  mkdir -p "$(dirname "$get_pip")"
  cp "$REPO_ROOT/tools/get_pip_offline.py" "$get_pip"
fi
python=$("$controller_python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
cd "$tree"
ansible-test "$command" --venv --python "$python" --color no "$@"
