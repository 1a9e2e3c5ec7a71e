#!/usr/bin/env bash
# The tests: lint, unit tests, integration tests against the real vLLM CPU build and a real hub
# mirror, and the molecule scenarios on systemd test hosts. .ci/run calls exactly this.
#
#   scripts/test.sh                 # everything (as another user it runs itself through sudo)
#   scripts/test.sh lint unit       # some stages: lint unit integration molecule, and demo (not by default)
#   MOLECULE_SCENARIOS="default" scripts/test.sh molecule
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
stage_time() { printf '%s\t%s\n' "$1" "$2" >> "$KIMI_TEST_TIMINGS"; }

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

if wants integration; then
  s=$(date +%s)
  ensure_local_vllm_venv
  log "Integration tests (real vLLM CPU build, real hub mirror)"
  python -m pytest -q tests/integration
  stage_time integration $(( $(date +%s) - s ))
fi

# Optional (not in the default list): the README's first command and every command the demo prints,
# each from a clean environment, on the demo host (created when it is not running, removed at the end).
if wants demo; then
  s=$(date +%s)
  log "Demo: the README's commands and the commands the demo prints, from a clean environment"
  KIMI_TEST_DEMO=1 python -m pytest -q tests/demo
  stage_time demo $(( $(date +%s) - s ))
fi

if wants molecule; then
  s=$(date +%s)
  net=kimi-molecule gateway=10.89.50.1 hub_port=18050 work=$KIMI_CACHE/molecule
  mkdir -p "$work"
  log "Molecule: test hub mirror on $gateway:$hub_port, scenarios ${MOLECULE_SCENARIOS:-default multinode rollback check_mode faults}"
  podman network exists "$net" || podman network create --subnet 10.89.50.0/24 "$net" >/dev/null
  # A parked container keeps the network's bridge (and so its gateway address) up for the mirror.
  # Both are shared by concurrent runs on one machine: only what this run started is stopped.
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
  cleanup_molecule() {
    local what
    for what in "${started_here[@]}"; do
      case $what in
        hub) python tools/hub_mirror.py stop --pidfile "$work/hub.pid" || true ;;
        anchor) podman rm -f kimi-molecule-anchor >/dev/null 2>&1 || true ;;
      esac
    done
  }
  trap cleanup_molecule EXIT
  export KIMI_TEST_HF_ENDPOINT=http://$gateway:$hub_port KIMI_TEST_LEDGER_DIR=$work/ledger
  for scenario in ${MOLECULE_SCENARIOS:-default multinode rollback check_mode faults}; do
    ms=$(date +%s)
    molecule test -s "$scenario"
    stage_time "molecule $scenario" $(( $(date +%s) - ms ))
  done
  stage_time molecule $(( $(date +%s) - s ))
fi

stage_time total $(( $(date +%s) - t0 ))
log "All requested stages passed. Measured times (s):"
column -t -s $'\t' "$KIMI_TEST_TIMINGS" >&2 || cat "$KIMI_TEST_TIMINGS" >&2
