#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_weights_verify
short_description: Verify a model directory before vLLM loads it
description:
  - Checks that C(model.safetensors.index.json) is complete (every shard it names exists, none is
    missing, extra shards are reported, any zero padding of C(-00001-of-000096) is accepted), that
    every shard header parses, names exactly the tensors the index assigns to it and adds up to the
    file size (a truncated shard is caught without hashing it).
  - Hashes every file (sha256, in parallel threads) against the expected checksums, from
    O(expected_sha256), O(manifest_file), or the C(.cache/kimi-deploy/expected.json) that
    M(kimi.deploy.kimi_hf_snapshot) writes. A cache of (size, mtime, ctime, inode) -> sha256 makes re-verifying
    an unchanged tree cost only C(stat) calls.
  - Checks the tokenizer is present and consistent with the configs (vocabulary within
    C(vocab_size), every special token the configs name exists) and that C(auto_map) code files are
    there; C(auto_map) means C(--trust-remote-code).
  - With O(vllm_python), asks that vLLM's model registry whether C(config.json)'s architectures are
    supported; the answer is kept in the venv (C(.kimi-deploy/vllm-probe.json), keyed by the installed
    vLLM's C(RECORD) and the question), so a re-run does not import vLLM again. With
    O(gpu_architecture), checks the quantization can run there and returns the serve
    arguments it needs (MXFP4 experts on Hopper need C(--moe-backend marlin)).
  - Fails, naming every failed file and why, when anything does not hold.
  - Needs only the standard library, so it runs on the host's system python.
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  path:
    description: The model directory.
    type: path
    required: true
  expected_sha256:
    description: File name (relative to O(path)) to expected sha256.
    type: dict
  manifest_file:
    description:
      - Expected checksums, as JSON (M(kimi.deploy.kimi_hf_snapshot)'s C(expected.json), or a flat name to sha256 map)
        or as C(sha256sum) output.
      - Without this and O(expected_sha256), C(<path>/.cache/kimi-deploy/expected.json) is used when present.
    type: path
  hash:
    description: Hash file contents. Without it sizes, headers and the tokenizer are still checked.
    type: bool
    default: true
  cache_manifest:
    description: Reuse and record digests for unchanged files (keyed on size, mtime_ns, ctime_ns and inode).
    type: bool
    default: true
  cache_manifest_path:
    description:
      - Where the digest cache lives, for a read-only O(path).
      - Defaults to C(<path>/.cache/kimi-deploy/verified.json).
    type: path
  workers:
    description: Files hashed in parallel; 0 means min(8, CPU count).
    type: int
    default: 0
  require_tokenizer:
    description: Fail when the directory has no tokenizer (set false when vLLM gets C(--tokenizer) elsewhere).
    type: bool
    default: true
  vllm_python:
    description: Python of the release venv; its vLLM registry is asked whether the architectures are supported.
    type: path
  gpu_architecture:
    description: Target GPU, as a compute capability (C(9.0), C(sm_90)), a family (C(hopper)) or a name (C(H200)).
    type: str
  probe_timeout:
    description: Seconds to allow the O(vllm_python) probe (importing vLLM takes 10-60 s).
    type: int
    default: 600
attributes:
  platform:
    platforms: posix
  check_mode:
    support: full
    details: Verification is read-only; check mode only skips updating the digest and probe caches.
  diff_mode:
    support: none
seealso:
  - module: kimi.deploy.kimi_hf_snapshot
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.DEPLOY_LOCK
"""

EXAMPLES = r"""
- name: Verify the fetched weights against the Hub's checksums
  kimi_weights_verify:
    path: "{{ __kimi_weights_fetch.path }}"
    manifest_file: "{{ __kimi_weights_fetch.manifest_file }}"
    vllm_python: "{{ kimi_release_venv }}/bin/python"
    gpu_architecture: "{{ kimi_gpus[0].compute_capability }}"
  register: __kimi_weights_verify

- name: Check an NFS copy against the operator's sha256sum output, headers only first
  kimi_weights_verify:
    path: /mnt/models/Kimi-K3
    manifest_file: /mnt/models/Kimi-K3.sha256
    hash: false
    cache_manifest_path: /var/lib/kimi/verify-cache/Kimi-K3.json
"""

RETURN = r"""
deploy_lock:
  description: The heartbeats written to the deploy lock while the task ran, and whether it was lost.
  returned: when O(deploy_lock) is given
  type: dict
  sample: {"path": "/run/kimi-deploy/deploy.lock", "beats": 41, "lost": null, "error": null}
ok:
  description: Whether every check passed (false only in a failed result).
  returned: always
  type: bool
failed_shards:
  description: Failed file (shard, tokenizer, config or missing name) to the reasons, joined by "; ".
  returned: always
  type: dict
  sample: {"model-00007-of-000096.safetensors": "truncated: its header describes 15032385536 bytes, the file has 4096"}
refetch:
  description:
    - Failed files whose bytes are wrong (missing, truncated, corrupt, extra, another revision), for
      M(kimi.deploy.kimi_hf_snapshot) O(kimi.deploy.kimi_hf_snapshot#module:refetch). Empty when only compatibility
      failed (architecture, GPU).
  returned: always
  type: list
  elements: str
checked_files:
  description: Every file found in the directory (relative names).
  returned: always
  type: list
  elements: str
hashed_files:
  description: Files read and hashed by this run.
  returned: always
  type: list
  elements: str
hashed_bytes:
  description: Bytes read for hashing by this run (0 when everything came from the cache).
  returned: always
  type: int
cached:
  description: Files whose digest came from the cache (unchanged since last verified).
  returned: always
  type: list
  elements: str
sha256:
  description: File to sha256, for files hashed with sha256 (usable as an operator manifest).
  returned: always
  type: dict
shards:
  description: Safetensors shards the index names (or the single weights file).
  returned: always
  type: list
  elements: str
weight_bytes:
  description: Tensor bytes in the shards that passed the header check.
  returned: always
  type: int
trust_remote_code:
  description: Whether config or tokenizer C(auto_map) needs C(--trust-remote-code).
  returned: always
  type: bool
architectures:
  description: C(config.json) architectures.
  returned: always
  type: list
  elements: str
architecture_supported:
  description: Whether the O(vllm_python) vLLM registers one of them; null when not asked.
  returned: always
  type: bool
vllm_version:
  description: Version of the vLLM asked; null when not asked.
  returned: always
  type: str
quantization:
  description:
    - Quantization method, weight formats, GPU capability, usability and notes.
    - Null without O(gpu_architecture).
  returned: always
  type: dict
required_serve_args:
  description: vLLM arguments this checkpoint needs on this GPU (C(--trust-remote-code), C(--moe-backend marlin), ...).
  returned: always
  type: list
  elements: str
expected_source:
  description: Where the expected checksums came from (C(option), a file path, or C(none)).
  returned: always
  type: str
notes:
  description: Things worth knowing that are not failures.
  returned: always
  type: list
  elements: str
"""

import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.deploy_lock import (
    LOCK_OPTION,
    keep_alive,
    lock_report,
)
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.weights_verify import (
    EXPECTED_MANIFEST,
    check_serving,
    load_expected,
    parse_expected,
    verify_model,
)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            path=dict(type="path", required=True),
            expected_sha256=dict(type="dict"),
            manifest_file=dict(type="path"),
            hash=dict(type="bool", default=True),
            cache_manifest=dict(type="bool", default=True),
            cache_manifest_path=dict(type="path"),
            workers=dict(type="int", default=0),
            require_tokenizer=dict(type="bool", default=True),
            vllm_python=dict(type="path"),
            gpu_architecture=dict(type="str"),
            probe_timeout=dict(type="int", default=600),
            deploy_lock=LOCK_OPTION,
        ),
        mutually_exclusive=[("expected_sha256", "manifest_file")],
        supports_check_mode=True,
    )
    p = module.params
    try:
        if p["expected_sha256"]:
            expected, source = parse_expected(p["expected_sha256"], source="expected_sha256"), "option"
        elif p["manifest_file"]:
            expected, source = load_expected(p["manifest_file"]), p["manifest_file"]
        elif os.path.isfile(os.path.join(p["path"], EXPECTED_MANIFEST)):
            source = os.path.join(p["path"], EXPECTED_MANIFEST)
            expected = load_expected(source)
        else:
            expected, source = {}, "none"
        with keep_alive(p["deploy_lock"]) as keeper:
            result = verify_model(
                p["path"], expected=expected, hash_files=p["hash"], cache_path=p["cache_manifest_path"],
                use_cache=p["cache_manifest"], write_cache=not module.check_mode, workers=p["workers"] or None,
                require_tokenizer=p["require_tokenizer"])
            serving = check_serving(result, vllm_python=p["vllm_python"], gpu_architecture=p["gpu_architecture"],
                                    probe_timeout=p["probe_timeout"], write_probe_cache=not module.check_mode)
    except KimiDeployError as err:
        module.fail_json(msg=str(err), ok=False)
    if source == "none" and p["hash"]:
        result.notes.append("no expected checksums: files hashed and cached but not compared")
    out = dict(result.as_dict(), **serving, expected_source=source, changed=False)
    lost = lock_report(keeper, out)
    if lost:
        module.warn(lost)
    if not result.ok:
        module.fail_json(msg=result.failure_message(), **out)
    module.exit_json(**out)


if __name__ == "__main__":
    main()
