#!/usr/bin/env bash
# The demo: the main job (deploy.yml) on an embedded default. Creates a local test host
# (podman, systemd as PID 1), builds the tiny model and publishes it on a local hub mirror,
# deploys it with the real vLLM CPU build, and says what happened and what to try next. Running
# it again changes nothing.
#
#   scripts/demo.sh                   # deploy (or confirm the deploy is current)
#   scripts/demo.sh deploy [ARGS...]  # the same, ARGS passed to ansible-playbook (-e kimi_concurrency=2)
#   scripts/demo.sh --vision [ARGS...]  # deploy the tiny Kimi K2.5-layout vision model instead (acceptance
#                                     # runs the image checks); --text goes back to the tiny Llama
#   scripts/demo.sh model [--vision|--text]  # the model the demo deploys (kept until changed), or change it
#   scripts/demo.sh plan|diagnose|rollback|tune [ARGS...]   # that playbook on the demo host
#   scripts/demo.sh ansible-playbook ARGS...   # any ansible-playbook command line, in the demo's environment
#   scripts/demo.sh curl              # one chat completion against the demo's endpoint
#   scripts/demo.sh host COMMAND...   # a command on the demo host (systemctl status kimi-vllm)
#   scripts/demo.sh summary           # what the last deploy did: plan, acceptance, releases
#   scripts/demo.sh commands          # the follow-up commands the demo prints at its end
#   scripts/demo.sh destroy           # remove the demo host and its network (--destroy works too)
#
# Every subcommand works from a new shell: it runs itself through sudo when not root, puts the
# controller venv on the PATH, reads the demo's API key, starts the demo's hub mirror for as long
# as a playbook runs, and runs from the repository root.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require_root "$@"

DEMO_HOST=kimi-demo-1 DEMO_IP=10.89.60.11 DEMO_NET=kimi-demo DEMO_SUBNET=10.89.60.0/24
DEMO_GATEWAY=10.89.60.1 DEMO_HUB_PORT=18060
DEMO_DIR=$KIMI_CACHE/demo
DEMO_ARGS=(-i inventories/demo -l gpu_nodes)
# The demo's models (the hub repo kimi-deploy/<name>, served as <name>) and the builder's --arch of
# each; inventories/demo/group_vars/gpu_nodes/model.yml declares what each one's users send.
declare -A DEMO_MODEL_ARCH=([tiny-llama]=llama [tiny-kimi-vl]=kimi_k25_vl)

# demo_model [--vision|--text]: the demo's model, kept in $DEMO_DIR/model (the inventory reads it
# there too, so a new shell or a bare ansible-playbook deploys the same one); KIMI_DEMO_MODEL wins.
demo_model() {
  local chosen=${KIMI_DEMO_MODEL:-}
  case "${1:-}" in
    --vision) chosen=tiny-kimi-vl ;;
    --text) chosen=tiny-llama ;;
  esac
  [ -n "$chosen" ] || chosen=$(cat "$DEMO_DIR/model" 2>/dev/null || true)
  chosen=${chosen:-tiny-llama}
  if [ -z "${DEMO_MODEL_ARCH[$chosen]:-}" ]; then
    echo "unknown demo model: $chosen (one of: ${!DEMO_MODEL_ARCH[*]})" >&2
    return 2
  fi
  if [ -n "${1:-}" ] || [ -n "${KIMI_DEMO_MODEL:-}" ]; then
    mkdir -p "$DEMO_DIR"
    echo "$chosen" > "$DEMO_DIR/model"
  fi
  echo "$chosen"
}

# The commands the demo prints at its end, one per line after its label (a trailing backslash
# continues a command). tests/demo runs exactly these, in this order, from a clean environment.
print_commands() {
  cat <<EOM
  try it:        scripts/demo.sh curl
  the service:   scripts/demo.sh host systemctl status kimi-vllm --no-pager
  what happened: scripts/demo.sh summary
  the plan:      scripts/demo.sh ansible-playbook plan.yml -i inventories/demo -l gpu_nodes
  diagnose:      scripts/demo.sh diagnose
  one change:    scripts/demo.sh deploy -e kimi_concurrency=2
  roll back:     scripts/demo.sh rollback
  tune:          scripts/demo.sh tune -e kimi_tune_parameter=max_num_seqs -e '{"kimi_tune_values": [2]}' \\
                   -e kimi_tune_duration_s=10
  remove it:     scripts/demo.sh destroy
EOM
}

demo_host_running() {
  [ "$(podman inspect -f '{{.State.Running}}' "$DEMO_HOST" 2>/dev/null)" = true ]
}

# The host's own public keys, read over podman (not the network), are the only keys SSH accepts
# for it: the demo inventory checks host keys strictly against this file.
write_known_hosts() {
  local keys
  keys=$(podman exec "$DEMO_HOST" sh -c 'cat /etc/ssh/ssh_host_*_key.pub') || return 1
  awk -v ip="$DEMO_IP" 'NF >= 2 { print ip, $1, $2 }' <<<"$keys" > "$DEMO_DIR/known_hosts.tmp"
  mv "$DEMO_DIR/known_hosts.tmp" "$DEMO_DIR/known_hosts"
}

# The mirror listens on the demo network's gateway only, for as long as this command runs (one
# that another command started is left alone).
hub_started_here=false
start_hub() {
  if [ -f "$DEMO_DIR/hub.pid" ] && kill -0 "$(cat "$DEMO_DIR/hub.pid")" 2>/dev/null; then
    return 0
  fi
  "$KIMI_VENV/bin/python" "$REPO_ROOT/tools/hub_mirror.py" serve --mirrors "$DEMO_DIR/mirrors" \
    --workdir "$DEMO_DIR/hub" --host "$DEMO_GATEWAY" --port "$DEMO_HUB_PORT" --pidfile "$DEMO_DIR/hub.pid" >/dev/null
  hub_started_here=true
  trap stop_hub EXIT
}
stop_hub() {
  if $hub_started_here; then
    "$KIMI_VENV/bin/python" "$REPO_ROOT/tools/hub_mirror.py" stop --pidfile "$DEMO_DIR/hub.pid" || true
  fi
}

# The environment every playbook on the demo host runs in, whatever the caller's shell had.
demo_env() {
  ensure_controller_venv  # cheap when built; puts the venv first on the PATH
  export LANG=${LANG:-C.UTF-8}
  export KIMI_API_KEY KIMI_DEMO_LEDGER_DIR=$DEMO_DIR/ledger
  export KIMI_DEMO_HF_ENDPOINT=http://$DEMO_GATEWAY:$DEMO_HUB_PORT
  KIMI_API_KEY=$(cat "$DEMO_DIR/api-key" 2>/dev/null || true)
  cd "$REPO_ROOT" || exit 1
}

# For the subcommands that work on the demo host made by `scripts/demo.sh`.
need_demo_host() {
  if ! demo_host_running || [ ! -s "$DEMO_DIR/api-key" ]; then
    echo "The demo host $DEMO_HOST is not running: run scripts/demo.sh first." >&2
    exit 1
  fi
  write_known_hosts
}

playbook() {
  log "ansible-playbook $*"
  ansible-playbook "$@"
}

summary() {
  "$KIMI_VENV/bin/python" "$REPO_ROOT/tools/demo_summary.py" --ledger "$DEMO_DIR/ledger/ledger.jsonl" \
    --release-json <(podman exec "$DEMO_HOST" cat /opt/kimi/current/release.json 2>/dev/null)
}

deploy() {
  local start sha report model
  start=$(date +%s)
  case "${1:-}" in
    --vision | --text) model=$(demo_model "$1"); shift ;;
    *) model=$(demo_model) ;;
  esac
  export KIMI_DEMO_MODEL=$model
  bootstrap_all
  mkdir -p "$DEMO_DIR"
  # The demo's API key: generated once, kept root-only next to the demo's other state.
  if [ ! -s "$DEMO_DIR/api-key" ]; then
    (umask 077 && python3 -c 'import secrets; print(secrets.token_urlsafe(32))' > "$DEMO_DIR/api-key")
  fi
  demo_env

  log "Publishing the tiny model $model on the demo's hub mirror"
  sha=$(publish_tiny_model "${DEMO_MODEL_ARCH[$model]}" "kimi-deploy/$model" "$DEMO_DIR/mirrors")
  start_test_host "$DEMO_HOST" "$DEMO_IP" "$DEMO_NET" "$DEMO_SUBNET"
  if [ "$model" = tiny-kimi-vl ]; then
    # The CPU build compiles the vision tower's position embedding with torch inductor at the first
    # image: the preflight asks for a C++ compiler and the Python headers, which the host gets here.
    log "Installing g++ and python3-dev on the demo host (the CPU build's vision tower compiles a kernel)"
    podman exec "$DEMO_HOST" sh -c 'command -v g++ >/dev/null && test -f /usr/include/python3*/Python.h ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
          g++ python3-dev >/dev/null; }'
  fi
  write_known_hosts
  start_hub

  playbook deploy.yml "${DEMO_ARGS[@]}" "$@"
  # The newest report (the names carry no spaces: <group>-<release>-<time>.html).
  # shellcheck disable=SC2012
  report=$(ls -t "$DEMO_DIR"/ledger/reports/*.html 2>/dev/null | head -1)
  cat <<EOM

Demo deployed in $(( $(date +%s) - start )) s (model kimi-deploy/$model at $sha).
  endpoint:      http://$DEMO_IP:8000/v1   (served model $model, API key in $DEMO_DIR/api-key)
  ledger:        $DEMO_DIR/ledger/ledger.csv (and ledger.jsonl), one row per deploy attempt
  report:        ${report:-none yet}
  on the host:   the release is /opt/kimi/current/release.json

What just happened:
$(summary)

Next, from $REPO_ROOT (each works in a new shell; not root: sudo runs it):
$(print_commands)
EOM
}

case "${1:-deploy}" in
  deploy)
    shift $(( $# > 0 ? 1 : 0 ))
    deploy "$@"
    ;;
  --vision | --text)
    deploy "$@"
    ;;
  model)
    shift
    demo_model "$@"
    ;;
  plan | diagnose | rollback | tune)
    what=$1; shift
    demo_env; need_demo_host; start_hub
    playbook "$what.yml" "${DEMO_ARGS[@]}" "$@"
    ;;
  ansible-playbook)
    shift
    demo_env
    if demo_host_running; then write_known_hosts; start_hub; fi
    playbook "$@"
    ;;
  curl)
    demo_env; need_demo_host
    model=$(demo_model)
    echo "curl -s http://$DEMO_IP:8000/v1/chat/completions -H \"Authorization: Bearer \$(cat $DEMO_DIR/api-key)\" ..." >&2
    curl -sS --fail-with-body "http://$DEMO_IP:8000/v1/chat/completions" \
      -H "Authorization: Bearer $KIMI_API_KEY" -H 'Content-Type: application/json' \
      -d "{\"model\":\"$model\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":16}"
    echo
    ;;
  host)
    shift
    need_demo_host
    podman exec "$DEMO_HOST" "$@"
    ;;
  summary)
    demo_env; need_demo_host
    summary
    ;;
  commands)
    print_commands
    ;;
  destroy | --destroy)
    if [ -f "$DEMO_DIR/hub.pid" ] && kill -0 "$(cat "$DEMO_DIR/hub.pid")" 2>/dev/null; then
      "$KIMI_VENV/bin/python" "$REPO_ROOT/tools/hub_mirror.py" stop --pidfile "$DEMO_DIR/hub.pid" || true
    fi
    # Nothing on the host is kept, so systemd is not given time to stop it cleanly.
    podman rm -f -t 0 "$DEMO_HOST" >/dev/null 2>&1 || true
    podman network rm "$DEMO_NET" >/dev/null 2>&1 || true
    rm -f "$DEMO_DIR/known_hosts"
    echo "demo host removed (its ledger stays in $DEMO_DIR/ledger)"
    ;;
  -h | --help | help)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    ;;
  *)
    echo "unknown subcommand: $1 (scripts/demo.sh --help lists them)" >&2
    exit 2
    ;;
esac
