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
#   scripts/demo.sh curl              # one chat completion through the demo's entry (https, its CA, the key)
#   scripts/demo.sh tls               # the demo's CA and the entry's certificate (made once), how to trust it
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
DEMO_TLS=$DEMO_DIR/tls DEMO_ENTRY_PORT=8443
# Where the demo's CA goes on the host: acceptance checks the entry's certificate against it
# (kimi_acceptance_entry_ca_file in inventories/demo), and the host's own trust store has it too.
DEMO_HOST_CA=/usr/local/share/ca-certificates/kimi-demo-ca.crt
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

# ensure_demo_tls: the demo's own CA (made once) and the entry's certificate for the demo host
# (IP DEMO_IP, DNS DEMO_HOST), root-only under $DEMO_TLS; the inventory hands both files to the
# front door. The server certificate is made again only when missing, not signed by this CA (or
# expired), or not for DEMO_IP, so a second run changes nothing on the host.
ensure_demo_tls() {
  local ca=$DEMO_TLS/ca.pem ca_key=$DEMO_TLS/ca.key cert=$DEMO_TLS/server.pem key=$DEMO_TLS/server.key
  (umask 077 && mkdir -p "$DEMO_TLS")
  if [ ! -s "$ca" ] || [ ! -s "$ca_key" ]; then
    log "Making the demo's CA ($ca)"
    (umask 077 && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 \
      -subj "/CN=kimi-deploy demo CA" -keyout "$ca_key" -out "$ca" \
      -addext 'basicConstraints=critical,CA:TRUE' -addext 'keyUsage=critical,keyCertSign,cRLSign' 2>/dev/null)
    rm -f "$cert"  # signed by a CA that is gone
  fi
  if [ -s "$cert" ] && [ -s "$key" ] && openssl verify -CAfile "$ca" "$cert" >/dev/null 2>&1 \
      && [[ $(openssl x509 -noout -in "$cert" -checkip "$DEMO_IP") == *'does match'* ]]; then
    return 0
  fi
  log "Making the entry's certificate for $DEMO_IP ($cert)"
  (umask 077 && openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
      -subj "/CN=$DEMO_HOST" -keyout "$key.tmp" -out "$DEMO_TLS/server.csr" 2>/dev/null \
    && openssl x509 -req -in "$DEMO_TLS/server.csr" -CA "$ca" -CAkey "$ca_key" -CAcreateserial -days 825 \
      -out "$cert.tmp" -extfile <(printf '%s\n' 'basicConstraints=critical,CA:FALSE' \
        'keyUsage=critical,digitalSignature' 'extendedKeyUsage=serverAuth' \
        'authorityKeyIdentifier=keyid,issuer' 'subjectKeyIdentifier=hash' \
        "subjectAltName=IP:$DEMO_IP,DNS:$DEMO_HOST") 2>/dev/null)
  mv "$key.tmp" "$key"
  mv "$cert.tmp" "$cert"
  rm -f "$DEMO_TLS/server.csr"
}

# The entry, its CA and how to trust it: the demo's end text and `scripts/demo.sh tls`.
print_entry() {
  cat <<EOM
  endpoint:      https://$DEMO_IP:$DEMO_ENTRY_PORT/v1   (served model $(demo_model), API key in $DEMO_DIR/api-key)
  its CA:        $DEMO_TLS/ca.pem   (made by this demo; the certificate names $DEMO_IP and $DEMO_HOST)
  trust it:      curl --cacert $DEMO_TLS/ca.pem ..., or for the whole machine (Debian):
                 cp $DEMO_TLS/ca.pem /usr/local/share/ca-certificates/kimi-demo-ca.crt && update-ca-certificates
EOM
}

# The demo's CA on the host, where acceptance reads it (written over podman, not the play, and only
# when it differs).
install_host_ca() {
  if ! podman exec "$DEMO_HOST" cat "$DEMO_HOST_CA" 2>/dev/null | cmp -s - "$DEMO_TLS/ca.pem"; then
    podman exec -i "$DEMO_HOST" sh -c "cat > $DEMO_HOST_CA && update-ca-certificates >/dev/null" < "$DEMO_TLS/ca.pem"
  fi
}

# The chat completion `scripts/demo.sh curl` sends, as the line it prints: it works pasted into a
# new root shell (the key is read from its file there, never printed).
curl_command() {
  local model
  model=$(demo_model)
  printf '%s' "curl -sS --fail-with-body --cacert $DEMO_TLS/ca.pem https://$DEMO_IP:$DEMO_ENTRY_PORT/v1/chat/completions" \
    " -H \"Authorization: Bearer \$(cat $DEMO_DIR/api-key)\" -H 'Content-Type: application/json'" \
    " -d '{\"model\":\"$model\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":16}'"
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
  ensure_demo_tls
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
  install_host_ca
  start_hub

  playbook deploy.yml "${DEMO_ARGS[@]}" "$@"
  # The newest report (the names carry no spaces: <group>-<release>-<time>.html).
  # shellcheck disable=SC2012
  report=$(ls -t "$DEMO_DIR"/ledger/reports/*.html 2>/dev/null | sed -n 1p)
  cat <<EOM

Demo deployed in $(( $(date +%s) - start )) s (model kimi-deploy/$model at $sha).
$(print_entry)
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
    printf '%s\n' "$(curl_command)" >&2
    eval "$(curl_command)"
    echo
    ;;
  tls)
    ensure_demo_tls
    print_entry
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
    # The CA stays too: a machine that trusts it keeps trusting the next demo host's entry.
    echo "demo host removed (its ledger stays in $DEMO_DIR/ledger, its CA in $DEMO_TLS)"
    ;;
  -h | --help | help)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    ;;
  *)
    echo "unknown subcommand: $1 (scripts/demo.sh --help lists them)" >&2
    exit 2
    ;;
esac
