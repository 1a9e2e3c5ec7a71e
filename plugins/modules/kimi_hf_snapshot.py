#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_hf_snapshot
short_description: Fetch a model at a pinned revision into the host's shared model store
description:
  - Resolves O(revision) (branch, tag or commit) to a commit sha and fetches the repo with
    huggingface_hub C(snapshot_download) into C(<models_dir>/<org>--<name>@<sha>), so every release
    of the same revision shares one copy.
  - Runs on the host under a python that has huggingface_hub 2.x, normally the release venv's
    (set C(ansible_python_interpreter) for this task). hf_xet is used when installed and the server
    offers Xet storage.
  - Checks free disk space first (bytes still to fetch plus headroom) and refuses with the numbers.
  - Downloads into C(<dir>.partial) and renames it when complete. Rerunning after an interruption
    fetches only the files that did not finish.
  - Writes the expected sha256 of every LFS file (git blob sha1 of small files) from the repo's tree
    listing to C(<dir>/.cache/kimi-deploy/expected.json), which M(kimi.deploy.kimi_weights_verify) reads.
  - Writes a JSON progress file while downloading; watch it with C(watch -n5 cat <progress_file>),
    or run the task with C(async) and read it between polls.
  - With O(source_path), uses weights already on the host (an NFS export, or a copy pushed from the
    controller) in place, or hardlinks or copies them into the store.
  - Check mode resolves the revision, lists the files, checks disk space and reports what would be
    fetched; it downloads nothing.
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  repo_id:
    description: Model repo as C(<org>/<name>); names the directory in the store.
    type: str
    required: true
  revision:
    description:
      - Branch, tag or 40-hex commit sha. Always resolved to a commit sha, which is returned and names the directory.
      - With O(source_path), the commit sha the files were taken from (detected from the directory when it says).
    type: str
    default: main
  root:
    description: Deploy root; the store is C(<root>/shared/models). One of O(root) and O(models_dir) is required.
    type: path
  models_dir:
    description: The model store directory itself, instead of C(<root>/shared/models).
    type: path
  endpoint:
    description:
      - Hub or mirror URL (what C(HF_ENDPOINT) holds), for example an in-house mirror.
      - Passed to every huggingface_hub call and also exported as C(HF_ENDPOINT) before it is imported.
    type: str
  token:
    description: Hub token (from Ansible Vault). Never logged, never written by this module.
    type: str
  token_file:
    description: File holding the token; refused unless its mode is 0600 or stricter.
    type: path
  allow_patterns:
    description: Only files matching one of these glob patterns are fetched (huggingface_hub semantics).
    type: list
    elements: str
  ignore_patterns:
    description: Files matching one of these glob patterns are not fetched.
    type: list
    elements: str
  max_workers:
    description: Files downloaded in parallel.
    type: int
    default: 8
  refetch:
    description:
      - Files to fetch again although present (M(kimi.deploy.kimi_weights_verify) returns them as C(refetch)).
      - A named file that is not in the repo at the pinned sha is removed (an extra shard from another revision).
    type: list
    elements: str
    default: []
  disk_headroom_bytes:
    description: Free space to leave beyond the download (the larger of this and O(disk_headroom_ratio) applies).
    type: int
    default: 2147483648
  disk_headroom_ratio:
    description: Free space to leave, as a fraction of the bytes to fetch.
    type: float
    default: 0.02
  progress_file:
    description: Progress file path. Defaults to C(<models_dir>/<org>--<name>@<sha>.progress.json).
    type: path
  progress_interval:
    description: Seconds between progress file updates.
    type: float
    default: 5
  high_performance:
    description:
      - Export C(HF_XET_HIGH_PERFORMANCE=1) (more hf_xet concurrency and memory) before importing huggingface_hub.
    type: bool
    default: false
  source_path:
    description: A model directory already on the host to use instead of downloading.
    type: path
  source_mode:
    description:
      - C(in_place) returns O(source_path) itself as RV(path).
      - C(hardlink) links its files into the store (a copy across filesystems); C(copy) copies them.
    type: str
    choices: [in_place, hardlink, copy]
    default: in_place
requirements:
  - huggingface_hub >= 2.0 on the host python (not needed with O(source_path))
seealso:
  - module: kimi.deploy.kimi_weights_verify
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.DEPLOY_LOCK
  - kimi.deploy.kimi.CHECK_MODE_NO_DIFF
"""

EXAMPLES = r"""
- name: Fetch Kimi K3 at the pinned commit from the site mirror
  kimi_hf_snapshot:
    repo_id: moonshotai/Kimi-K3
    revision: 9f62e4e9fffbd0a83ddd60e1c209d828994b3569
    root: /opt/kimi
    endpoint: https://hf-mirror.internal.example
    token: "{{ vault_hf_token }}"
    max_workers: 16
  vars:
    ansible_python_interpreter: "{{ kimi_release_venv }}/bin/python"
  async: 14400
  poll: 0
  register: __kimi_weights_job

- name: Re-fetch only the shards that failed verification
  kimi_hf_snapshot:
    repo_id: moonshotai/Kimi-K3
    revision: "{{ __kimi_weights_fetch.revision_sha }}"
    root: /opt/kimi
    refetch: "{{ __kimi_weights_verify.refetch }}"

- name: Use the copy on the NFS export where it is
  kimi_hf_snapshot:
    repo_id: moonshotai/Kimi-K3
    revision: 9f62e4e9fffbd0a83ddd60e1c209d828994b3569
    root: /opt/kimi
    source_path: /mnt/models/Kimi-K3
    source_mode: in_place
"""

RETURN = r"""
deploy_lock:
  description: The heartbeats written to the deploy lock while the task ran, and whether it was lost.
  returned: when O(deploy_lock) is given
  type: dict
  sample: {"path": "/run/kimi-deploy/deploy.lock", "beats": 41, "lost": null, "error": null}
path:
  description: The model directory to serve (in the store, or O(source_path) with C(in_place)).
  returned: always
  type: str
  sample: /opt/kimi/shared/models/moonshotai--Kimi-K3@9f62e4e9fffbd0a83ddd60e1c209d828994b3569
revision_sha:
  description: The commit sha O(revision) resolved to.
  returned: always
  type: str
files:
  description: Repo files at that sha after allow/ignore patterns (relative names).
  returned: always
  type: list
  elements: str
fetched_files:
  description: Files downloaded (or linked/copied) by this run, or that would be in check mode.
  returned: always
  type: list
  elements: str
removed_files:
  description: Files removed because O(refetch) named them and the repo does not have them at that sha.
  returned: when downloading
  type: list
  elements: str
bytes_downloaded:
  description: Bytes fetched by this run (would be, in check mode); 0 when everything was already there.
  returned: always
  type: int
bytes_total:
  description: Size of all files in RV(files).
  returned: always
  type: int
bytes_free:
  description: Free bytes on the store's filesystem before the fetch.
  returned: when anything is to be fetched or copied
  type: int
bytes_required:
  description: Bytes that had to be free (download plus headroom).
  returned: when anything is to be fetched or copied
  type: int
manifest_file:
  description: >-
    Expected checksums for M(kimi.deploy.kimi_weights_verify)
    (O(kimi.deploy.kimi_weights_verify#module:manifest_file)).
  returned: always
  type: str
progress_file:
  description: The JSON progress file (files/bytes done and total, rate, ETA, state, updated).
  returned: when downloading, outside check mode
  type: str
stopped_fetches:
  description: Pids of earlier fetches into the same store (orphaned by a killed run) this one stopped first.
  returned: when downloading, outside check mode
  type: list
  elements: int
changed:
  description: True when bytes were fetched, a file was removed, or a completed download was moved into place.
  returned: always
  type: bool
up_to_date:
  description:
    - Nothing was (in check mode, would be) fetched, moved or removed. In check mode, a role can probe with it
      and run the (asynchronous) fetch only when it is false.
  returned: always
  type: bool
"""

import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.deploy_lock import (
    LOCK_OPTION,
    keep_alive,
    lock_report,
)
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.fetch_lock import FetchLock
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.hf_fetch import (
    FetchRequest,
    fetch_snapshot,
    read_token_file,
    scrub,
    use_local_source,
)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            repo_id=dict(type="str", required=True),
            revision=dict(type="str", default="main"),
            root=dict(type="path"),
            models_dir=dict(type="path"),
            endpoint=dict(type="str"),
            token=dict(type="str", no_log=True),
            token_file=dict(type="path"),
            allow_patterns=dict(type="list", elements="str"),
            ignore_patterns=dict(type="list", elements="str"),
            max_workers=dict(type="int", default=8),
            refetch=dict(type="list", elements="str", default=[]),
            disk_headroom_bytes=dict(type="int", default=2 * 1024**3),
            disk_headroom_ratio=dict(type="float", default=0.02),
            progress_file=dict(type="path"),
            progress_interval=dict(type="float", default=5.0),
            high_performance=dict(type="bool", default=False),
            source_path=dict(type="path"),
            source_mode=dict(type="str", choices=["in_place", "hardlink", "copy"], default="in_place"),
            deploy_lock=LOCK_OPTION,
        ),
        required_one_of=[("root", "models_dir")],
        mutually_exclusive=[("root", "models_dir"), ("token", "token_file"), ("source_path", "endpoint"),
                            ("source_path", "refetch")],
        supports_check_mode=True,
    )
    p = module.params
    models_dir = p["models_dir"] or os.path.join(p["root"], "shared", "models")
    token = None
    keeper = None
    try:
        if p["source_path"]:
            with keep_alive(p["deploy_lock"]) as keeper:
                result = use_local_source(p["source_path"], repo_id=p["repo_id"], revision=p["revision"],
                                          models_dir=models_dir, mode=p["source_mode"], check_mode=module.check_mode)
            _warn(module, lock_report(keeper, result))
            module.exit_json(up_to_date=not result.get("changed"), **result)
        token = read_token_file(p["token_file"]) if p["token_file"] else p["token"]
        if token:
            module.no_log_values.add(token)  # masked wherever it might surface in the result
        # huggingface_hub reads these once, at import: set them before fetch_snapshot imports it.
        if p["endpoint"]:
            os.environ["HF_ENDPOINT"] = p["endpoint"].rstrip("/")
        if p["high_performance"]:
            os.environ["HF_XET_HIGH_PERFORMANCE"] = "1"
        os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
        request = FetchRequest(
            repo_id=p["repo_id"], revision=p["revision"], models_dir=models_dir, endpoint=p["endpoint"],
            token=token, allow_patterns=p["allow_patterns"], ignore_patterns=p["ignore_patterns"],
            max_workers=p["max_workers"], refetch=tuple(p["refetch"]), headroom_bytes=p["disk_headroom_bytes"],
            headroom_ratio=p["disk_headroom_ratio"], progress_path=p["progress_file"],
            progress_interval=p["progress_interval"])
        if module.check_mode:
            with keep_alive(p["deploy_lock"]) as keeper:
                result = fetch_snapshot(request, check_mode=True)
        else:
            # A fetch orphaned by a killed run (its async job lives on) is stopped before this one
            # touches the store; what it finished is kept, its partial files are cleaned up.
            with FetchLock(models_dir) as lock, keep_alive(p["deploy_lock"]) as keeper:
                result = fetch_snapshot(request, check_mode=False)
            result["stopped_fetches"] = lock.stopped
    except KimiDeployError as err:
        module.fail_json(msg=scrub(str(err), token))
    _warn(module, lock_report(keeper, result))
    module.exit_json(up_to_date=not result.get("changed"), **result)


def _warn(module, warning):
    if warning:
        module.warn(warning)


if __name__ == "__main__":
    main()
