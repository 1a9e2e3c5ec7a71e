#!/usr/bin/env bash
# The repository root is the collection kimi.deploy. ansible.cfg's collections_path
# (.ansible/collections) finds it through this link, so the playbooks, ansible-doc and the unit tests
# use the FQCNs (kimi.deploy.kimi_vllm_plan) straight from the work tree. Idempotent; git ignores it.
set -euo pipefail
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
link=$REPO_ROOT/.ansible/collections/ansible_collections/kimi/deploy
if [ "$(readlink "$link" 2>/dev/null)" != "$REPO_ROOT" ]; then
  mkdir -p "$(dirname "$link")"
  ln -sfn "$REPO_ROOT" "$link"
fi
