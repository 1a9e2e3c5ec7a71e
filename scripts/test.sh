#!/usr/bin/env bash
# The tests: lint, unit tests, integration tests against the real vLLM CPU build and a real hub
# mirror, and the molecule scenarios on systemd test hosts. .ci/run calls exactly this.
#
#   scripts/test.sh                 # everything (as another user it runs itself through sudo)
#   scripts/test.sh lint unit       # some stages: lint unit integration molecule demo
#   MOLECULE_SCENARIOS="host" scripts/test.sh molecule
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require_root "$@"

stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(lint unit integration molecule demo)
wants() { local s; for s in "${stages[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }

t0=$(date +%s)
bootstrap_all
cd "$REPO_ROOT" || exit 1
export KIMI_TEST_TIMINGS=$KIMI_CACHE/test-timings.tsv KIMI_TEST_PLAYBOOK_RUNS=$KIMI_CACHE/playbook-runs.tsv
: > "$KIMI_TEST_TIMINGS"
: > "$KIMI_TEST_PLAYBOOK_RUNS"
stage_time() {
  printf '%s\t%s\n' "$1" "$2" >> "$KIMI_TEST_TIMINGS"
  log "Stage $1 took $2 s ($(( $(date +%s) - t0 )) s since the start)"
}

stage_time setup $(( $(date +%s) - t0 ))

# Each stage is a function that returns non-zero on failure itself: run in a lane, as the left side
# of ||, errexit does not apply.
run_lint() {
  local s m modules=(); s=$(date +%s)
  log "Lint: ruff, ansible-lint (production profile), ansible-doc, syntax checks"
  ruff check . || return 1
  # A copy of this collection in the user's collections (molecule's prerun made one before it was
  # turned off) is found before the work tree: lint would check stale roles. Only that copy goes.
  local stale=$HOME/.ansible/collections/ansible_collections/kimi/deploy
  if [ -d "$stale" ] && [ ! -L "$stale" ]; then
    log "Removing $stale: an old installed copy of this collection would shadow the work tree"
    rm -rf "$stale"
  fi
  ansible-lint --profile production -q || return 1
  for m in plugins/modules/kimi_*.py; do modules+=("kimi.deploy.$(basename "$m" .py)"); done
  # One ansible-doc for every module (one start instead of 21); it only warns about a module whose
  # documentation it cannot read, so every name must come back with its doc.
  ansible-doc -t module --json "${modules[@]}" | python3 -c '
import json, sys
docs = json.load(sys.stdin)
unreadable = [m for m in sys.argv[1:] if not (docs.get(m) or {}).get("doc")]
sys.exit(f"ansible-doc could not read: {unreadable}" if unreadable else 0)' "${modules[@]}" || return 1
  ansible-playbook --syntax-check -i inventories/demo deploy.yml rollback.yml playbooks/*.yml >/dev/null || return 1
  stage_time lint $(( $(date +%s) - s ))
}

# The gate of every collection module (validate-modules, pylint, import, ...), on the collection as
# ansible-test stages it; the unit tests run once, in the unit stage, with plain pytest.
run_sanity() {
  local s; s=$(date +%s)
  log "ansible-test sanity"
  bash scripts/ansible_test.sh sanity || return 1
  stage_time sanity $(( $(date +%s) - s ))
}

run_unit() {
  local s; s=$(date +%s)
  log "Unit tests"
  python -m pytest -q --durations=10 tests/unit || return 1
  stage_time unit $(( $(date +%s) - s ))
}

# The integration file that runs beside the single-host scenario when the stages run in two lanes
# (it evens the lanes out); every other one runs in the other lane.
INTEGRATION_HOST_LANE=tests/integration/test_acceptance_forms_live.py

# run_integration [all|host|rest]
run_integration() {
  local s part=${1:-all} args=(tests/integration); s=$(date +%s)
  ensure_local_vllm_venv || return 1
  case $part in
    host) args=("$INTEGRATION_HOST_LANE") ;;
    rest) args+=(--ignore "$INTEGRATION_HOST_LANE") ;;
  esac
  log "Integration tests ($part; real vLLM CPU build, real hub mirror)"
  python -m pytest -q --durations=15 "${args[@]}" || return 1
  stage_time "integration $part" $(( $(date +%s) - s ))
}

# The README's first command and every command the demo prints, each from a clean environment, on
# the demo host (created when it is not running; the last printed command removes it).
run_demo() {
  local s; s=$(date +%s)
  log "Demo: the README's commands and the commands the demo prints, from a clean environment"
  KIMI_TEST_DEMO=1 python -m pytest -q tests/demo || return 1
  stage_time demo $(( $(date +%s) - s ))
}

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

# Two lanes on two cores. Most of the work is single-threaded Python (imports, Ansible's tasks, the
# CPU build's one inference thread), so a second lane puts the second core to work: the single-host
# scenario in one, every other stage in the other. Each lane's lines carry its name and go to a log
# too; a lane that fails fails the run after both have ended.
run_lane() {
  local name=$1; shift
  ( set -o pipefail; "$@" 2>&1 | tee "$KIMI_CACHE/lane-$name.log" | sed -u "s/^/[$name] /" )
}

# A lane runs all its stages even after one fails, so that one run reports every failure; it fails
# at its end when any stage failed.
run_stages() {
  local stage failed=()
  for stage in "$@"; do
    # shellcheck disable=SC2086  # a stage is a function name and its argument
    run_$stage || failed+=("$stage")
  done
  [ ${#failed[@]} -eq 0 ] || { log "Failed stages: ${failed[*]}"; return 1; }
}

# The lanes are balanced on measured stage times: the demo (a new demo host, then a deploy, a rollback and
# a tuning run as printed) follows the single-host scenario, and the other lane takes the integration files
# but the vision model's and the multinode scenario, whose fleet part runs the rolling deploy under client
# load with both canaries (three more vLLM starts), so the unit stage runs in the host lane. Without the
# rollout (KIMI_TEST_FLEET_ROLLOUT=0: a quick run, and .ci/run) the unit stage goes back to the other lane.
export KIMI_TEST_FLEET_ROLLOUT=${KIMI_TEST_FLEET_ROLLOUT:-1}
if [ "$KIMI_TEST_FLEET_ROLLOUT" = 1 ]; then
  lane_host() { run_stages lint sanity unit "integration host" "scenario host" demo; }
  lane_rest() { run_stages "integration rest" "scenario multinode"; }
else
  lane_host() { run_stages lint sanity "integration host" "scenario host" demo; }
  lane_rest() { run_stages unit "integration rest" "scenario multinode"; }
fi

scenarios=${MOLECULE_SCENARIOS:-host multinode}
all_default=false
if wants lint && wants unit && wants integration && wants molecule && wants demo \
    && [ "$scenarios" = "host multinode" ]; then
  all_default=true
fi
if $all_default && [ "${KIMI_TEST_LANES:-2}" = 2 ]; then
  start_molecule_services
  ensure_local_vllm_venv  # once, before both lanes use it
  rm -f "$KIMI_CACHE"/lane-*.log
  run_lane host lane_host & lane_host=$!
  lane_rest_rc=0
  run_lane rest lane_rest || lane_rest_rc=$?
  lane_host_rc=0
  wait "$lane_host" || lane_host_rc=$?
  [ "$lane_host_rc" -eq 0 ] || log "Lane host (the single-host scenario's lane) failed ($lane_host_rc)"
  [ "$lane_rest_rc" -eq 0 ] || log "Lane rest (the multinode scenario's lane) failed ($lane_rest_rc)"
  [ "$lane_host_rc" -eq 0 ] && [ "$lane_rest_rc" -eq 0 ] || exit 1
  # One closing line for the whole run: every pytest and testinfra session's passed tests.
  passed=$(grep -ahoE '[0-9]+ passed(, [0-9]+ [a-z]+)* in [0-9.]+s' "$KIMI_CACHE"/lane-*.log \
    | awk '{n += $1} END {print n + 0}')
else
  if wants lint; then run_lint; run_sanity; fi
  if wants unit; then run_unit; fi
  if wants integration; then run_integration all; fi
  if wants demo; then run_demo; fi
  if wants molecule; then
    start_molecule_services
    for scenario in $scenarios; do run_scenario "$scenario"; done
  fi
  passed=
fi

stage_time total $(( $(date +%s) - t0 ))
log "All requested stages passed. Measured times (s):"
column -t -s $'\t' "$KIMI_TEST_TIMINGS" >&2 || cat "$KIMI_TEST_TIMINGS" >&2
if [ -s "$KIMI_TEST_PLAYBOOK_RUNS" ]; then
  log "The molecule tests' longest playbook runs (s, exit, test, command; all in $KIMI_TEST_PLAYBOOK_RUNS):"
  # sed reads all of sort's output: head would exit early and sort's SIGPIPE would fail the run
  # under pipefail once the file outgrows a pipe buffer.
  sort -rn "$KIMI_TEST_PLAYBOOK_RUNS" | sed -n 1,15p >&2
fi
[ -z "$passed" ] || echo "tests: $passed passed, 0 failed"
