#!/usr/bin/env bash
# The tests: lint, unit tests, integration tests against the real vLLM CPU build and a real hub
# mirror, and the molecule scenarios on systemd test hosts. .ci/run calls exactly this.
#
#   scripts/test.sh                 # everything (as another user it runs itself through sudo)
#   scripts/test.sh lint unit       # some stages: lint unit integration molecule, and demo (not by default)
#   MOLECULE_SCENARIOS="host" scripts/test.sh molecule
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require_root "$@"

stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(lint unit integration molecule)
wants() { local s; for s in "${stages[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }

t0=$(date +%s)
bootstrap_all
cd "$REPO_ROOT"
export KIMI_TEST_TIMINGS=$KIMI_CACHE/test-timings.tsv
: > "$KIMI_TEST_TIMINGS"
stage_time() {
  printf '%s\t%s\n' "$1" "$2" >> "$KIMI_TEST_TIMINGS"
  log "Stage $1 took $2 s ($(( $(date +%s) - t0 )) s since the start)"
}

stage_time setup $(( $(date +%s) - t0 ))

if wants lint; then
  s=$(date +%s)
  log "Lint: ruff, ansible-lint (production profile), ansible-doc, syntax checks"
  ruff check .
  ansible-lint --profile production -q
  for m in plugins/modules/kimi_*.py; do
    ansible-doc -M plugins/modules "$(basename "$m" .py)" >/dev/null
  done
  for p in deploy.yml rollback.yml playbooks/*.yml; do
    ansible-playbook --syntax-check -i inventories/demo "$p" >/dev/null
  done
  stage_time lint $(( $(date +%s) - s ))
fi

if wants unit; then
  s=$(date +%s)
  log "Unit tests"
  python -m pytest -q tests/unit
  stage_time unit $(( $(date +%s) - s ))
fi

run_integration() {
  local s; s=$(date +%s)
  ensure_local_vllm_venv || return 1
  log "Integration tests (real vLLM CPU build, real hub mirror)"
  python -m pytest -q tests/integration || return 1
  stage_time integration $(( $(date +%s) - s ))
}

# Optional (not in the default list): the README's first command and every command the demo prints,
# each from a clean environment, on the demo host (created when it is not running, removed at the end).
if wants demo; then
  s=$(date +%s)
  log "Demo: the README's commands and the commands the demo prints, from a clean environment"
  KIMI_TEST_DEMO=1 python -m pytest -q tests/demo
  stage_time demo $(( $(date +%s) - s ))
fi

# The molecule network, the anchor that keeps its bridge up and the test hub mirror: shared by
# every scenario, and by concurrent runs on one machine (only what this run started is stopped).
start_molecule_services() {
  net=kimi-molecule gateway=10.89.50.1 hub_port=18050 work=$KIMI_CACHE/molecule
  mkdir -p "$work"
  log "Molecule: test hub mirror on $gateway:$hub_port"
  podman network exists "$net" || podman network create --subnet 10.89.50.0/24 "$net" >/dev/null
  started_here=()
  if [ "$(podman inspect -f '{{.State.Running}}' kimi-molecule-anchor 2>/dev/null)" != true ]; then
    podman rm -f kimi-molecule-anchor >/dev/null 2>&1 || true
    podman run -d --name kimi-molecule-anchor --network "$net" --ip 10.89.50.254 "$KIMI_HOST_IMAGE" sleep infinity >/dev/null
    started_here+=(anchor)
  fi
  publish_tiny_model llama kimi-deploy/tiny-llama "$work/mirrors" >/dev/null
  if ! { [ -f "$work/hub.pid" ] && kill -0 "$(cat "$work/hub.pid")" 2>/dev/null; }; then
    python tools/hub_mirror.py serve --mirrors "$work/mirrors" --workdir "$work/hub" --host "$gateway" \
      --port "$hub_port" --pidfile "$work/hub.pid" >/dev/null
    started_here+=(hub)
  fi
  trap stop_molecule_services EXIT
  export KIMI_TEST_HF_ENDPOINT=http://$gateway:$hub_port KIMI_TEST_LEDGER_DIR=$work/ledger
}

stop_molecule_services() {
  local what
  for what in "${started_here[@]}"; do
    case $what in
      hub) python tools/hub_mirror.py stop --pidfile "$work/hub.pid" || true ;;
      anchor) podman rm -f kimi-molecule-anchor >/dev/null 2>&1 || true ;;
    esac
  done
}

run_scenario() {
  local ms; ms=$(date +%s)
  log "Molecule scenario $1"
  molecule test -s "$1" || return 1
  stage_time "molecule $1" $(( $(date +%s) - ms ))
}

# The functions above return non-zero on failure themselves: in a lane, as the left side of ||,
# errexit does not apply.
lane_rest() { run_integration || return 1; run_scenario multinode || return 1; }

# Two lanes on two cores: much of a scenario's time is SSH round trips and waits for vLLM, so the
# single-host scenario runs beside the integration tests and the multi-node scenario. Each lane's
# lines carry its name; a lane that fails fails the run after both have ended.
run_lane() {
  local name=$1; shift
  ( set -o pipefail; "$@" 2>&1 | sed -u "s/^/[$name] /" )
}

scenarios=${MOLECULE_SCENARIOS:-host multinode}
if wants molecule; then
  start_molecule_services
fi
if wants integration && wants molecule && [ "$scenarios" = "host multinode" ] && [ "${KIMI_TEST_LANES:-2}" = 2 ]; then
  s=$(date +%s)
  run_lane host run_scenario host & lane_host=$!
  lane_rest_rc=0
  run_lane rest lane_rest || lane_rest_rc=$?
  lane_host_rc=0
  wait "$lane_host" || lane_host_rc=$?
  stage_time "integration + molecule (two lanes)" $(( $(date +%s) - s ))
  [ "$lane_host_rc" -eq 0 ] || { log "Lane host (molecule host) failed ($lane_host_rc)"; exit 1; }
  [ "$lane_rest_rc" -eq 0 ] || { log "Lane rest (integration, molecule multinode) failed ($lane_rest_rc)"; exit 1; }
else
  if wants integration; then run_integration; fi
  if wants molecule; then
    for scenario in $scenarios; do run_scenario "$scenario"; done
  fi
fi

stage_time total $(( $(date +%s) - t0 ))
log "All requested stages passed. Measured times (s):"
column -t -s $'\t' "$KIMI_TEST_TIMINGS" >&2 || cat "$KIMI_TEST_TIMINGS" >&2
