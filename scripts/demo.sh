#!/usr/bin/env bash
# The demo: the main job (deploy.yml) on an embedded default. Creates a local test host
# (podman, systemd as PID 1), builds the tiny model and publishes it on a local hub mirror,
# deploys it with the real vLLM CPU build, and says where the endpoint, the release and its
# records are. Running it again changes nothing.
#
#   sudo scripts/demo.sh            # deploy (or confirm the deploy is current)
#   sudo scripts/demo.sh --destroy  # remove the demo host and its network
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

DEMO_HOST=kimi-demo-1 DEMO_IP=10.89.60.11 DEMO_NET=kimi-demo DEMO_SUBNET=10.89.60.0/24
DEMO_GATEWAY=10.89.60.1 DEMO_HUB_PORT=18060
DEMO_DIR=$KIMI_CACHE/demo

if [ "${1:-}" = --destroy ]; then
  require_root
  podman rm -f "$DEMO_HOST" >/dev/null 2>&1 || true
  podman network rm "$DEMO_NET" >/dev/null 2>&1 || true
  echo "demo host removed"
  exit 0
fi

start=$(date +%s)
bootstrap_all
mkdir -p "$DEMO_DIR"

# The demo's API key: generated once, kept root-only next to the demo's other state.
if [ ! -s "$DEMO_DIR/api-key" ]; then
  (umask 077 && python3 -c 'import secrets; print(secrets.token_urlsafe(32))' > "$DEMO_DIR/api-key")
fi
export KIMI_API_KEY; KIMI_API_KEY=$(cat "$DEMO_DIR/api-key")

log "Publishing the tiny model on the demo's hub mirror"
sha=$(publish_tiny_model llama kimi-deploy/tiny-llama "$DEMO_DIR/mirrors")

start_test_host "$DEMO_HOST" "$DEMO_IP" "$DEMO_NET" "$DEMO_SUBNET"

# The mirror listens on the demo network's gateway only, for as long as the deploy runs.
"$KIMI_VENV/bin/python" "$REPO_ROOT/tools/hub_mirror.py" serve --mirrors "$DEMO_DIR/mirrors" \
  --workdir "$DEMO_DIR/hub" --host "$DEMO_GATEWAY" --port "$DEMO_HUB_PORT" --pidfile "$DEMO_DIR/hub.pid" >/dev/null
trap '"$KIMI_VENV/bin/python" "$REPO_ROOT/tools/hub_mirror.py" stop --pidfile "$DEMO_DIR/hub.pid"' EXIT
export KIMI_DEMO_HF_ENDPOINT=http://$DEMO_GATEWAY:$DEMO_HUB_PORT KIMI_DEMO_LEDGER_DIR=$DEMO_DIR/ledger

log "ansible-playbook deploy.yml -i inventories/demo -l gpu_nodes"
cd "$REPO_ROOT"
ansible-playbook deploy.yml -i inventories/demo -l gpu_nodes

cat <<EOM

Demo deployed in $(( $(date +%s) - start )) s (model kimi-deploy/tiny-llama at $sha).
  endpoint:      http://$DEMO_IP:8000/v1   (API key in $DEMO_DIR/api-key)
  served model:  tiny-llama
  try it:        curl -s http://$DEMO_IP:8000/v1/chat/completions -H "Authorization: Bearer \$(sudo cat $DEMO_DIR/api-key)" \\
                   -H 'Content-Type: application/json' -d '{"model":"tiny-llama","messages":[{"role":"user","content":"hi"}],"max_tokens":16}'
  ledger:        $DEMO_DIR/ledger/ledger.csv (and ledger.jsonl), one row per deploy attempt
  report:        $(ls -t "$DEMO_DIR"/ledger/reports/*.html 2>/dev/null | head -1)
  on the host:   sudo podman exec $DEMO_HOST systemctl status kimi-vllm; the release is /opt/kimi/current/release.json
  roll back:     ansible-playbook rollback.yml -i inventories/demo -l gpu_nodes
EOM
