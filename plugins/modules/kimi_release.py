#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_release
short_description: Create, activate, judge, list and prune vLLM releases under a deploy root
description:
  - Manages C(<root>/releases/<id>/) directories and the relative C(<root>/current) symlink.
  - A release is built in a hidden staging directory and renamed into place, so a release directory
    is either complete or absent. Once created it is immutable; creating it again with other content fails.
  - C(current) is swapped with one rename, so a reader sees the old or the new release, never none.
  - Releases are ordered by C(created_at) in their C(release.json), never by mtime. The rollback
    target is the release that served before the current one and whose acceptance did not fail.
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  root:
    description: Deploy root on the host (holds C(releases/), C(shared/) and C(current)).
    type: path
    required: true
  state:
    description:
      - C(present) creates the release if missing.
      - C(active) points C(current) at it and records the activation. It also repairs a C(current)
        link that is damaged (not a link, or pointing at a missing release); every other state refuses one.
        A directory or file in the way is renamed aside (C(<root>/.current.replaced.*)), never deleted.
      - C(verdict) records the acceptance verdict in its C(release.json).
      - C(recorded) appends O(record) (a ledger row) to the C(ledger) list of its C(release.json),
        once per C(attempt_id).
      - C(pruned) removes every release that did not pass acceptance (failed or never judged), then
        the accepted ones beyond the newest O(keep); never the current one or its rollback target.
        With O(collect_unused), it also removes the weights and venvs under C(shared/) that no
        release left on disk uses.
      - C(query) only reads.
    type: str
    choices: [present, active, verdict, recorded, pruned, query]
    default: query
  release_id:
    description:
      - Release id. For O(state=present) it defaults to one derived from O(inputs), the content of
        O(files) and O(links), and O(version_label), so the same inputs give the same release.
      - For O(state=active) either this or O(rollback=true) is needed.
    type: str
  inputs:
    description:
      - Everything that defines the release (plan, model revision, packages, templates). Hashed into the id.
      - C(inputs.plan) is the plan (the output of M(kimi.deploy.kimi_vllm_plan)), stored once in C(release.json).
    type: dict
    default: {}
  version_label:
    description: Readable prefix of a derived id, for example the vLLM version.
    type: str
    default: ""
  metadata:
    description:
      - Extra fields stored in C(release.json) at creation (not part of the id).
      - A C(plan) here must equal C(inputs.plan) and is not stored a second time.
    type: dict
    default: {}
  files:
    description: Files of the release, name to C({content, mode}). Names are relative and may not contain C(..).
    type: dict
    default: {}
  links:
    description: Symlinks inside the release, name to target (relative targets are kept as given).
    type: dict
    default: {}
  model_dir:
    description:
      - With O(state=present), the weights directory the release's C(model) link points at,
        relative when it is in C(<root>/shared/models), absolute otherwise (weights served in place).
    type: path
  owner:
    description: Owner of created files (the release directory itself stays root-owned).
    type: str
  group:
    description: Group of created files.
    type: str
  rollback:
    description: With O(state=active), activate the rollback target instead of O(release_id).
    type: bool
    default: false
  restore:
    description:
      - With O(state=active), make the last accepted release serve when C(current) is not accepted
        (pending after a run that died before its verdict, failed, or never judged). Nothing changes
        when C(current) passed acceptance, or when no release ever did (RV(serving) is then null).
    type: bool
    default: false
  replica_nodes:
    description:
      - The nodes of the replica this host is part of (1 for a host that is a replica of its own). With
        O(restore=true) or O(rollback=true), only a release laid out over that many nodes is a target, as one
        planned for a replica of another size cannot start here (RV(passed_over) names those skipped). A
        named O(release_id) of another size is refused before C(current) moves. 0 takes any release.
    type: int
    default: 0
  pending:
    description:
      - With O(state=active), record the verdict C(pending) in the same write as the activation, so a
        run that dies before judging the release leaves a trace the next run acts on.
    type: bool
    default: false
  verdict:
    description: With O(state=verdict), the acceptance verdict.
    type: str
    choices: [passed, failed, pending]
  details:
    description: With O(state=verdict), a summary stored next to the verdict (no secrets).
    type: dict
    default: {}
  record:
    description: With O(state=recorded), the row to append (it should carry an C(attempt_id)).
    type: dict
    default: {}
  keep:
    description:
      - With O(state=pruned), how many newest accepted releases to keep.
      - Failed and never-judged releases do not count, and are pruned.
    type: int
    default: 3
  collect_unused:
    description:
      - With O(state=pruned), remove C(shared/models/*) and C(shared/venvs/*) entries that no release
        left on disk links to.
      - Downloads and builds in progress (C(*.partial), hidden names) are never removed.
    type: bool
    default: false
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_DIFF
"""

EXAMPLES = r"""
- name: Create the release
  kimi_release:
    root: /opt/kimi
    state: present
    version_label: "0.32.0"
    inputs: "{{ release_inputs }}"
    files:
      serve: {content: "{{ lookup('template', 'serve.sh.j2') }}", mode: "0755"}
    links:
      venv: ../../shared/venvs/vllm-0.32.0-1a2b3c4d
  register: release

- name: Point current at it
  kimi_release:
    root: /opt/kimi
    state: active
    release_id: "{{ release.release_id }}"

- name: Go back to the release that served before
  kimi_release:
    root: /opt/kimi
    state: active
    rollback: true

- name: Put the last accepted release back if current was never judged
  kimi_release:
    root: /opt/kimi
    state: active
    restore: true
"""

RETURN = r"""
release_id:
  description: The release acted on (for C(active) with C(rollback), the target).
  returned: when a release is named or derived
  type: str
  sample: 0.32.0-5d41402abc4b
path:
  description: Directory of the release.
  returned: when a release is named or derived
  type: str
  sample: /opt/kimi/releases/0.32.0-5d41402abc4b
current:
  description: Release C(current) points at after the task (before it, in check mode if nothing changed).
  returned: always
  type: str
previous:
  description: Release C(current) pointed at before the task.
  returned: always
  type: str
repaired:
  description: With O(state=active), what was wrong with a damaged C(current) link this activation replaced.
  returned: when C(current) was damaged
  type: str
activated_at:
  description: UTC time of the activation this task recorded.
  returned: when O(state=active) moved C(current)
  type: str
rollback_target:
  description: Release a rollback would activate now (of O(replica_nodes) nodes when given), or null.
  returned: always
  type: str
passed_over:
  description:
    - Accepted releases that were not a target because they are laid out over another number of nodes than
      O(replica_nodes), newest first, as C(<id> (<n> nodes)).
  returned: always
  type: list
  elements: str
  sample: ["0.32.0+cpu-3ba88ec2d515 (2 nodes)"]
serving:
  description:
    - With O(restore=true), the release that serves after the task (C(current) when it is accepted,
      else the last accepted one), or null when no release ever passed acceptance.
  returned: when O(restore=true)
  type: str
service:
  description:
    - How the release acted on serves, from its C(release.json) (C(inputs.service)), or for a release
      written before that field, from the flags of its C(serve) launcher. Port 0 or "" when unknown.
  returned: when a release is named or derived
  type: dict
  sample: {host: 0.0.0.0, port: 8000, served_model_name: moonshotai/Kimi-K3}
releases:
  description: All complete releases, oldest first, with created_at, activations and acceptance verdict.
  returned: always
  type: list
  elements: dict
pruned:
  description: Releases removed (or that would be, in check mode).
  returned: when O(state=pruned)
  type: list
  elements: str
collected:
  description: Shared weights and venvs removed (or that would be), as C(shared/<kind>/<name>).
  returned: when O(state=pruned)
  type: list
  elements: str
  sample: [shared/venvs/vllm-0.28.1-1a2b3c4d5e]
"""

import grp
import hashlib
import os
import pwd
import shutil
from datetime import datetime, timezone
from pathlib import Path

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.files import write_json_atomic
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.releases import (
    PENDING,
    RELEASE_FILE,
    SHARED_DIR,
    collectable_shared,
    list_releases,
    load_release,
    model_link,
    new_release_doc,
    passed_over,
    read_current,
    release_service,
    releases_dir,
    rollback_target,
    serving_target,
    swap_current,
    to_prune,
    validate_id,
)
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.releases import (
    release_id as derive_release_id,
)


def _now():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _safe_name(name):
    if not name or name.startswith("/") or ".." in Path(name).parts:
        raise KimiDeployError(f"release file or link name {name!r} must be relative and stay inside the release")
    return name


def _ids(owner, group):
    uid = pwd.getpwnam(owner).pw_uid if owner else -1
    gid = grp.getgrnam(group).gr_gid if group else -1
    return uid, gid


def _differences(path, files, links):
    """Names whose on-disk content differs from what was asked (the release is immutable)."""
    diffs = []
    for name, spec in files.items():
        target = path / name
        if not target.is_file() or target.read_text(encoding="utf-8") != spec["content"]:
            diffs.append(name)
    for name, dest in links.items():
        link = path / name
        if not link.is_symlink() or os.readlink(link) != dest:
            diffs.append(name)
    return diffs


def _create(root, rid, files, links, doc, owner, group):
    base = releases_dir(root)
    base.mkdir(parents=True, exist_ok=True)
    staging = base / f".{rid}.partial"
    if staging.exists():
        shutil.rmtree(staging)  # left by an interrupted run; it was never visible as a release
    staging.mkdir(mode=0o755)
    uid, gid = _ids(owner, group)
    for name, spec in files.items():
        target = staging / _safe_name(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, int(spec.get("mode", "0644"), 8))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(spec["content"])
        os.chmod(target, int(spec.get("mode", "0644"), 8))
        if uid != -1 or gid != -1:
            os.chown(target, uid, gid)
    for name, dest in links.items():
        os.symlink(dest, staging / _safe_name(name))
    write_json_atomic(staging / RELEASE_FILE, doc)
    os.rename(staging, base / rid)


def _normalise_files(files):
    out = {}
    for name, given in files.items():
        spec = {"content": given} if isinstance(given, str) else given
        mode = str(spec.get("mode", "0644"))
        out[_safe_name(name)] = {"content": str(spec.get("content", "")), "mode": mode}
    return out


def _identity(inputs, files, links):
    """What names a release: its inputs plus the exact content of its files and links."""
    digests = {name: hashlib.sha256(spec["content"].encode("utf-8")).hexdigest() + ":" + spec["mode"]
               for name, spec in files.items()}
    return {"inputs": inputs, "files": digests, "links": dict(links)}


def _summaries(releases):
    return [
        {"id": r.id, "created_at": r.created_at, "activations": r.activations, "acceptance": r.acceptance}
        for r in releases
    ]


def run(module):
    p = module.params
    root = Path(p["root"])
    state = p["state"]
    damaged = ""
    try:
        current = read_current(root) if root.exists() else None
    except KimiDeployError as err:
        if state != "active":
            raise
        # Activating a release is the repair for a damaged current link: proceed as if none.
        current, damaged = None, str(err)
    result = {"changed": False, "current": current, "previous": current}
    if damaged:
        result["repaired"] = damaged
    change = _STATE_CHANGES.get(state)  # query changes nothing: it only reports
    if change is not None:
        change(module, root, current, result)
    return _finish(module, root, result)


def _make_present(module, root, current, result):
    """Create the release the inputs name, unless it exists; an existing one must match (releases are immutable)."""
    p = module.params
    files = _normalise_files(p["files"])
    if p["model_dir"]:
        p["links"] = {**p["links"], "model": model_link(root, p["model_dir"])}
    rid = p["release_id"] or derive_release_id(_identity(p["inputs"], files, p["links"]), p["version_label"])
    validate_id(rid)
    path = releases_dir(root) / rid
    result.update(release_id=rid, path=str(path))
    if (path / RELEASE_FILE).is_file():
        diffs = _differences(path, files, p["links"])
        if diffs:
            raise KimiDeployError(
                f"release {rid} already exists with different {', '.join(sorted(diffs))}; releases are "
                "immutable. Something changed on disk by hand, or the inputs that name the release do "
                "not cover these files. Remove the release directory or change an input."
            )
        return
    result["changed"] = True
    result["diff"] = {"before": {"release": None}, "after": {"release": rid}}
    if not module.check_mode:
        doc = new_release_doc({**p["metadata"], "id": rid, "created_at": _now(), "activations": [],
                               "acceptance": {}}, p["inputs"])
        _create(root, rid, files, p["links"], doc, p["owner"], p["group"])


def _release_to_activate(module, root, current, result):
    """The release ``state=active`` points current at: the one restore or rollback finds, or the one named.
    None when restore finds nothing to serve (then nothing is activated)."""
    p = module.params
    nodes = p["replica_nodes"]
    if p["restore"]:
        target = serving_target(list_releases(root), current, nodes)
        rid = target.id if target else current
        result["serving"] = rid if target or _is_accepted(root, current) else None
        return rid
    if p["rollback"]:
        target = rollback_target(list_releases(root), current, nodes)
        if target is None:
            skipped = _passed_over(root, current, nodes)
            raise KimiDeployError(
                f"no release to roll back to under {releases_dir(root)}: none other than "
                f"{current or '(none)'} has served and passed acceptance"
                + (f" on a replica of {nodes} node(s) (laid out for another size: {', '.join(skipped)})"
                   if skipped else "") + ". Name one with kimi_rollback_to."
            )
        return target.id
    if p["release_id"]:
        rid = validate_id(p["release_id"])
        if (releases_dir(root) / rid / RELEASE_FILE).is_file():
            release = load_release(root, rid)
            if not release.fits(nodes):
                raise KimiDeployError(
                    f"release {rid} is laid out over {release.nodes} node(s) but this replica has {nodes}: it "
                    "cannot start here. Name a release of this replica, or put the hosts back in the replica "
                    "group it was planned for.")
        return rid
    raise KimiDeployError("state=active needs release_id or rollback=true")


def _make_active(module, root, current, result):
    """Point current at the release, recording the activation (and a pending verdict when asked) in it."""
    rid = _release_to_activate(module, root, current, result)
    if rid is None:
        result["release_id"] = None
        return
    path = releases_dir(root) / rid
    result.update(release_id=rid, path=str(path))
    if not (path / RELEASE_FILE).is_file() and not module.check_mode:
        raise KimiDeployError(f"cannot activate {rid}: {path} is not a complete release")
    if current == rid:
        return
    result["changed"] = True
    result["current"] = rid
    result["diff"] = {"before": {"current": current}, "after": {"current": rid}}
    result["activated_at"] = _now()
    if not module.check_mode:
        release = load_release(root, rid)
        doc = dict(release.meta)
        doc["activations"] = [*release.activations, result["activated_at"]]
        if module.params["pending"]:
            doc["acceptance"] = {"verdict": PENDING, "recorded_at": result["activated_at"]}
        write_json_atomic(path / RELEASE_FILE, doc)
        swap_current(root, rid)


def _named_release(module, root, current, result):
    """The release a verdict or a record is written to: the one named, else current."""
    rid = validate_id(module.params["release_id"] or current or "")
    result.update(release_id=rid, path=str(releases_dir(root) / rid))
    return load_release(root, rid)


def _record_verdict(module, root, current, result):
    p = module.params
    release = _named_release(module, root, current, result)
    old = release.meta.get("acceptance") or {}
    new = {"verdict": p["verdict"], **p["details"]}
    if {k: v for k, v in old.items() if k != "recorded_at"} == new:
        return
    result["changed"] = True
    result["diff"] = {"before": {"acceptance": old}, "after": {"acceptance": new}}
    if not module.check_mode:
        doc = dict(release.meta)
        doc["acceptance"] = {**new, "recorded_at": _now()}
        write_json_atomic(releases_dir(root) / release.id / RELEASE_FILE, doc)


def _record_ledger_row(module, root, current, result):
    """Append the ledger row to the release, once per attempt id."""
    record = module.params["record"]
    release = _named_release(module, root, current, result)
    rows = list(release.meta.get("ledger") or [])
    attempt = record.get("attempt_id")
    if attempt and any(r.get("attempt_id") == attempt for r in rows):
        return
    result["changed"] = True
    if not module.check_mode:
        doc = dict(release.meta)
        doc["ledger"] = [*rows, record]
        write_json_atomic(releases_dir(root) / release.id / RELEASE_FILE, doc)


def _prune(module, root, current, result):
    """Remove the releases beyond ``keep`` and, when asked, the shared downloads no remaining release uses."""
    p = module.params
    releases = list_releases(root)
    # The rollback target of this replica's size is kept as well as the latest of any size.
    fitting = rollback_target(releases, current, p["replica_nodes"])
    doomed = to_prune(releases, current, p["keep"], protect=[fitting.id] if fitting else [])
    result["pruned"] = [r.id for r in doomed]
    on_disk = [d.name for d in releases_dir(root).iterdir()] if releases_dir(root).is_dir() else []
    remaining = set(on_disk) - set(result["pruned"])
    collect = collectable_shared(root, remaining) if p["collect_unused"] else []
    result["collected"] = [f"{SHARED_DIR}/{kind}/{name}" for kind, name in collect]
    if not (doomed or collect):
        return
    result["changed"] = True
    result["diff"] = {"before": {"releases": [r.id for r in list_releases(root)],
                                 "shared": result["collected"]},
                      "after": {"releases": [r.id for r in list_releases(root) if r not in doomed],
                                "shared": []}}
    if not module.check_mode:
        for r in doomed:
            shutil.rmtree(releases_dir(root) / r.id)
        for kind, name in collect:
            shutil.rmtree(root / SHARED_DIR / kind / name)
            progress = root / SHARED_DIR / kind / f"{name}.progress.json"
            if progress.is_file():
                progress.unlink()


# What each state changes, filling ``result``; state=query has none.
_STATE_CHANGES = {
    "present": _make_present,
    "active": _make_active,
    "verdict": _record_verdict,
    "recorded": _record_ledger_row,
    "pruned": _prune,
}


def _is_accepted(root, rid):
    return bool(rid) and load_release(root, rid).acceptance == "passed"


def _passed_over(root, current, nodes, releases=None):
    found = releases if releases is not None else list_releases(root)
    return [f"{r.id} ({r.nodes} nodes)" for r in passed_over(found, current, nodes)]


def _finish(module, root, result):
    rid = result.get("release_id")
    if rid and (releases_dir(root) / rid / RELEASE_FILE).is_file():
        release = load_release(root, rid)
        serve = releases_dir(root) / rid / "serve"
        serve_text = serve.read_text(encoding="utf-8", errors="replace") if serve.is_file() else ""
        result["service"] = release_service(release.meta, serve_text)
    releases = list_releases(root)
    target = rollback_target(releases, result["current"], module.params["replica_nodes"])
    result["releases"] = _summaries(releases)
    result["rollback_target"] = target.id if target else None
    result["passed_over"] = _passed_over(root, result["current"], module.params["replica_nodes"], releases)
    if not module._diff:
        result.pop("diff", None)
    return result


def main():
    module = AnsibleModule(
        argument_spec=dict(
            root=dict(type="path", required=True),
            state=dict(type="str", default="query",
                       choices=["present", "active", "verdict", "recorded", "pruned", "query"]),
            release_id=dict(type="str"),
            inputs=dict(type="dict", default={}),
            version_label=dict(type="str", default=""),
            metadata=dict(type="dict", default={}),
            files=dict(type="dict", default={}),
            links=dict(type="dict", default={}),
            model_dir=dict(type="path"),
            owner=dict(type="str"),
            group=dict(type="str"),
            rollback=dict(type="bool", default=False),
            restore=dict(type="bool", default=False),
            replica_nodes=dict(type="int", default=0),
            pending=dict(type="bool", default=False),
            verdict=dict(type="str", choices=["passed", "failed", PENDING]),
            details=dict(type="dict", default={}),
            record=dict(type="dict", default={}),
            keep=dict(type="int", default=3),
            collect_unused=dict(type="bool", default=False),
        ),
        required_if=[("state", "verdict", ["verdict"])],
        mutually_exclusive=[("rollback", "restore")],
        supports_check_mode=True,
    )
    try:
        module.exit_json(**run(module))
    except KimiDeployError as err:
        module.fail_json(msg=str(err))


if __name__ == "__main__":
    main()
