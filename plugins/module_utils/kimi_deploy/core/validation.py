"""The settings a deploy accepts at its boundary, one rule per function, one message per refusal.

Every rule takes the settings (variable name -> value, as the inventory and ``-e`` give them:
numbers may arrive as strings) and returns the messages of what it refuses, each in the form
``name=value: must …``, so an operator sees which variable, what was given, and what to change.
A rule whose variables are absent is skipped: a caller passes only what it knows.

Why these rules exist (each is a value the code downstream cannot take):

- the served model name goes into the systemd unit's ``Description=`` and the launcher: a newline
  there injects unit directives;
- ``kimi_root`` is created and chowned: ``/tmp`` loses its sticky bit, a system directory is
  reowned, a path with spaces or ``..`` breaks the unit's paths, and ``ProtectHome=yes`` hides
  ``/home`` and ``/root`` from the service;
- the service name and environment names are written into unit and env files unquoted;
- ``kimi_release_keep`` below 1 fails the prune after a good deploy;
- ``kimi_canary_min_requests`` below 20 (canary on) fails the canary after acceptance, and a
  ``kimi_canary_max_duration_s`` shorter than the window it extends is meaningless;
- the planner takes its overrides as given (``gpu_memory_utilization`` 1.7 "fits"; 0 is read as
  unset);
- release files (``vllm.env``, ``serve``, ``release.json``) are world-readable: a credential in
  ``kimi_plan_extra_args``/``_env`` would be published there, and one in
  ``kimi_vllm_pip_extra_args`` reaches pip's command line, its errors and ``-v`` output.

Secrets are never echoed: credential values are shown as ``***``.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .canary import MIN_REQUESTS_FOR_P95
from .hub_names import REPO_ID_RE, is_commit_sha

SERVED_NAME_RE = re.compile(r"^[A-Za-z0-9._/:-]{1,256}$")
SERVICE_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$")
USER_NAME_RE = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")
ENV_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
PLAIN_PATH_RE = re.compile(r"^(/[A-Za-z0-9._+-]+)+$")
CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")
# Names of flags and variables that carry a credential (HF_TOKEN, --api-key, AWS_SECRET_ACCESS_KEY, ...).
CREDENTIAL_NAME_RE = re.compile(r"(TOKEN|SECRET|PASSW|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH_?KEY)",
                                re.IGNORECASE)
# A URL with user information: scheme://user:password@host or scheme://token@host.
URL_CREDENTIALS_RE = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<userinfo>[^/@\s]+)@")

# Directories a deploy root may never be: the deploy creates, chowns and chmods it.
SYSTEM_DIRS = frozenset({
    "/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32", "/media", "/mnt",
    "/opt", "/proc", "/root", "/run", "/sbin", "/snap", "/srv", "/sys", "/tmp", "/usr", "/var",
    "/usr/bin", "/usr/include", "/usr/lib", "/usr/lib64", "/usr/libexec", "/usr/local", "/usr/local/bin",
    "/usr/local/lib", "/usr/local/sbin", "/usr/local/share", "/usr/sbin", "/usr/share", "/usr/src",
    "/var/cache", "/var/lib", "/var/local", "/var/lock", "/var/log", "/var/mail", "/var/opt", "/var/run",
    "/var/spool", "/var/tmp",
})
# Trees a deploy root may not be inside: kernel or volatile filesystems, or hidden from the
# service by its sandbox (ProtectHome=yes; ProtectSystem=strict makes /etc, /boot, /usr read-only).
FORBIDDEN_TREES = ("/proc", "/sys", "/dev", "/run", "/tmp", "/var/tmp", "/home", "/root", "/etc", "/boot", "/usr")

# kimi_plan_overrides: options of the kimi_vllm_plan module an operator may force, by kind.
# (tests/unit/plugins/module_utils/kimi_deploy/test_validation.py checks this table against the module's argument spec.)
OVERRIDE_COUNTS = frozenset({
    "tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size", "decode_context_parallel_size",
    "max_model_len", "max_num_seqs", "max_num_batched_tokens", "block_size", "kv_cache_memory_bytes",
    "max_suggested_nodes", "concurrency", "max_input_tokens", "max_output_tokens",
})
OVERRIDE_BYTES = frozenset({
    "activation_reserve_bytes", "non_torch_reserve_bytes", "cudagraph_reserve_bytes",
    "cuda_context_reserve_bytes", "workspace_reserve_bytes", "cpu_process_reserve_bytes",
})
OVERRIDE_FRACTIONS = frozenset({"gpu_memory_utilization"})
OVERRIDE_OTHER = frozenset({
    "enable_expert_parallel", "pp_layer_partition", "attention_backend", "enforce_eager",
    "enable_prefix_caching", "speculative_config", "language_model_only", "cpu_amx", "kv_cache_dtype",
    "platform", "vllm_version", "fail_when_unfit", "model_name", "fit_images_per_prompt",
})
OVERRIDE_KEYS = OVERRIDE_COUNTS | OVERRIDE_BYTES | OVERRIDE_FRACTIONS | OVERRIDE_OTHER

Messages = list[str]


# --------------------------------------------------------------------------------------- helpers

def show(value: Any) -> str:
    """How a value appears after ``name=``: numbers bare, strings quoted (a newline shows as \\n)."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        # -e passes numbers as strings: show them as typed; any other string quoted
        return value if re.fullmatch(r"[+-]?\d+(\.\d+)?", value) else json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def mask_url_credentials(text: str) -> str:
    """``https://user:token@host/x`` -> ``https://***@host/x``."""
    return URL_CREDENTIALS_RE.sub(lambda m: m.group("scheme") + "***@", text)


def has_url_credentials(text: str) -> bool:
    return bool(URL_CREDENTIALS_RE.search(text))


def as_int(value: Any) -> int | None:
    """A whole number given as int, integral float or decimal string; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        return int(value)
    return None


def as_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def as_bool(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() not in ("", "0", "false", "no", "off", "n", "f")
    return bool(value)


def _whole_at_least(name: str, value: Any, minimum: int, why: str = "") -> Messages:
    number = as_int(value)
    if number is None:
        return [f"{name}={show(value)}: must be a whole number ≥ {minimum}"]
    if number < minimum:
        return [f"{name}={show(value)}: must be ≥ {minimum}{why}"]
    return []


# ----------------------------------------------------------------------------------------- rules

def check_api_key(s: Mapping[str, Any]) -> Messages:
    if "kimi_api_key_set" not in s:
        return []
    if as_bool(s.get("kimi_require_api_key", True)) and not as_bool(s["kimi_api_key_set"]):
        return ['kimi_api_key="": the API key must be set (from Ansible Vault), or kimi_require_api_key set to false']
    return []


def check_model_repo(s: Mapping[str, Any]) -> Messages:
    if "kimi_model_repo" not in s:
        return []
    repo = s["kimi_model_repo"]
    if not isinstance(repo, str) or not repo:
        return [f"kimi_model_repo={show(repo)}: must name the model as <org>/<name>, e.g. moonshotai/Kimi-K3"]
    if not REPO_ID_RE.fullmatch(repo) or ".." in repo:
        return [f"kimi_model_repo={show(repo)}: must be a Hub repo id <org>/<name> of letters, digits, '.', '_' "
                "and '-' (it names the weights directory and the release)"]
    return []


def check_model_revision(s: Mapping[str, Any]) -> Messages:
    if "kimi_model_revision" not in s:
        return []
    revision = s["kimi_model_revision"]
    if not isinstance(revision, str) or not revision:
        return [f"kimi_model_revision={show(revision)}: must name the revision to deploy (a 40-hex commit sha)"]
    if CONTROL_RE.search(revision) or " " in revision:
        return [f"kimi_model_revision={show(revision)}: must be a branch, tag or commit sha without spaces"]
    if as_bool(s.get("kimi_require_pinned_revision", True)) and not is_commit_sha(revision):
        return [f"kimi_model_revision={show(revision)}: must be a 40-hex commit sha: pin the 40-hex commit sha you "
                "validated, so every host and every re-run deploys the same weights (a branch moves under you); "
                "set kimi_require_pinned_revision to false only for test inventories"]
    return []


def check_served_model_name(s: Mapping[str, Any]) -> Messages:
    name = s.get("kimi_served_model_name")
    if name in (None, ""):
        return []  # the repo id is served, and check_model_repo holds it to a narrower alphabet
    if not isinstance(name, str) or not SERVED_NAME_RE.fullmatch(name):
        return [f"kimi_served_model_name={show(name)}: must be 1 to 256 of the characters A-Z a-z 0-9 . _ / : - "
                "(it is written into the systemd unit and the launcher)"]
    return []


def check_root(s: Mapping[str, Any]) -> Messages:
    if "kimi_root" not in s:
        return []
    root = s["kimi_root"]
    if root == "/":
        return ['kimi_root="/": must not be a system directory (the deploy creates, chowns and chmods it); '
                "use a directory of its own such as /opt/kimi"]
    if not isinstance(root, str) or not PLAIN_PATH_RE.fullmatch(root) or posixpath.normpath(root) != root \
            or any(part in (".", "..") for part in root.split("/")):
        return [f"kimi_root={show(root)}: must be an absolute plain path (/ then names of letters, digits, "
                "'.', '_', '+', '-'; no '..', no trailing '/'), e.g. /opt/kimi"]
    if root in SYSTEM_DIRS:
        return [f"kimi_root={show(root)}: must not be a system directory (the deploy creates, chowns and chmods "
                "it); use a directory of its own such as /opt/kimi or /srv/kimi"]
    tree = next((t for t in FORBIDDEN_TREES if root.startswith(t + "/")), None)
    if tree:
        return [f"kimi_root={show(root)}: must not be under {tree} (a kernel or temporary filesystem, or hidden "
                "from or read-only to the service by its sandbox); use e.g. /opt/kimi or /srv/kimi"]
    return []


def check_counts(s: Mapping[str, Any]) -> Messages:
    out: Messages = []
    for name in ("kimi_max_input_tokens", "kimi_max_output_tokens", "kimi_concurrency"):
        if name in s:
            out += _whole_at_least(name, s[name], 1)
    return out


def check_port(s: Mapping[str, Any]) -> Messages:
    if "kimi_port" not in s:
        return []
    port = as_int(s["kimi_port"])
    if port is None or not 1 <= port <= 65535:
        return [f"kimi_port={show(s['kimi_port'])}: must be a port, 1 to 65535"]
    return []


def check_service_name(s: Mapping[str, Any]) -> Messages:
    if "kimi_service_name" not in s:
        return []
    name = s["kimi_service_name"]
    if not isinstance(name, str) or not SERVICE_NAME_RE.fullmatch(name):
        return [f"kimi_service_name={show(name)}: must be an identifier: a letter or '_', then up to 63 letters, "
                "digits, '_' or '-' (it names <name>.service, without the suffix)"]
    return []


def check_service_user(s: Mapping[str, Any]) -> Messages:
    if "kimi_service_user" not in s:
        return []
    user = s["kimi_service_user"]
    if isinstance(user, (str, int)) and str(user).strip() in ("root", "0"):
        return [f"kimi_service_user={show(user)}: must not be root: vLLM serves the network and runs unprivileged"]
    if not isinstance(user, str) or not USER_NAME_RE.fullmatch(user):
        return [f"kimi_service_user={show(user)}: must be a user name: a lower-case letter or '_', then up to 31 "
                "lower-case letters, digits, '_' or '-'"]
    return []


def check_release_keep(s: Mapping[str, Any]) -> Messages:
    if "kimi_release_keep" not in s:
        return []
    return _whole_at_least("kimi_release_keep", s["kimi_release_keep"], 1,
                           " (accepted releases kept besides the current one and its rollback target)")


def check_canary_min_requests(s: Mapping[str, Any]) -> Messages:
    if not as_bool(s.get("kimi_canary_enabled", False)) or "kimi_canary_min_requests" not in s:
        return []
    return _whole_at_least("kimi_canary_min_requests", s["kimi_canary_min_requests"], MIN_REQUESTS_FOR_P95,
                           " (the canary compares TTFT p95, and a p95 of fewer requests is the slowest of them)")


def check_canary_max_duration(s: Mapping[str, Any]) -> Messages:
    if not as_bool(s.get("kimi_canary_enabled", False)) or "kimi_canary_max_duration_s" not in s:
        return []
    window = _whole_at_least("kimi_canary_duration_s", s.get("kimi_canary_duration_s"), 1)
    if window:
        return window
    duration = as_int(s["kimi_canary_duration_s"])
    return _whole_at_least("kimi_canary_max_duration_s", s["kimi_canary_max_duration_s"], duration,
                           f" (kimi_canary_duration_s={duration}: the window it may extend)")


def check_plan_overrides(s: Mapping[str, Any]) -> Messages:
    if "kimi_plan_overrides" not in s:
        return []
    overrides = s["kimi_plan_overrides"]
    if not isinstance(overrides, Mapping):
        return [f"kimi_plan_overrides={show(overrides)}: must be a mapping of kimi_vllm_plan options"]
    out: Messages = []
    for key in sorted(overrides):
        value = overrides[key]
        name = f"kimi_plan_overrides.{key}"
        if key not in OVERRIDE_KEYS:
            out.append(f"{name}={show(value)}: must be a planner option the inventory may force (one of "
                       f"{', '.join(sorted(OVERRIDE_KEYS))})")
        elif value is None:
            continue
        elif key in OVERRIDE_FRACTIONS:
            number = as_number(value)
            if number is None or not 0 < number <= 1:
                out.append(f"{name}={show(value)}: must be a fraction in (0, 1], e.g. 0.9")
        elif key in OVERRIDE_COUNTS:
            out += _whole_at_least(name, value, 1)
        elif key in OVERRIDE_BYTES:
            out += _whole_at_least(name, value, 0, " (bytes)")
        elif key == "pp_layer_partition" and (
                not isinstance(value, Sequence) or isinstance(value, str) or not value
                or any(as_int(v) is None or as_int(v) < 1 for v in value)):
            out.append(f"{name}={show(value)}: must be a list of layer counts, each ≥ 1")
    return out


def _env_rules(name: str, env: Any, *, in_release: bool) -> Messages:
    if not isinstance(env, Mapping):
        return [f"{name}={show(env)}: must be a mapping of environment variable names to values"]
    out: Messages = []
    for key in sorted(env, key=str):
        value = env[key]
        if not isinstance(key, str) or not ENV_NAME_RE.fullmatch(key):
            out.append(f"{name}.{key}={show(value)}: the name must be an identifier (a letter or '_', then letters, "
                       "digits or '_')")
            continue
        if in_release and CREDENTIAL_NAME_RE.search(key):
            out.append(f"{name}.{key}=***: must not carry a credential: release files are world-readable; put "
                       "secrets in Vault variables (kimi_api_key, kimi_weights_hf_token)")
            continue
        text = "" if value is None else str(value)
        if in_release and has_url_credentials(text):
            out.append(f"{name}.{key}={show(mask_url_credentials(text))}: must not carry URL credentials: release "
                       "files are world-readable")
        elif CONTROL_RE.search(text):
            out.append(f"{name}.{key}={show(text)}: the value must be one line without control characters")
    return out


def check_env_names(s: Mapping[str, Any]) -> Messages:
    out: Messages = []
    for name, in_release in (("kimi_plan_extra_env", True), ("kimi_multinode_env", True),
                             ("kimi_multinode_node_env", False)):
        if name in s:
            out += _env_rules(name, s[name], in_release=in_release)
    return out


def check_plan_extra_args(s: Mapping[str, Any]) -> Messages:
    if "kimi_plan_extra_args" not in s:
        return []
    args = s["kimi_plan_extra_args"]
    if not isinstance(args, Sequence) or isinstance(args, str):
        return [f"kimi_plan_extra_args={show(args)}: must be a list of arguments"]
    out: Messages = []
    for i, arg in enumerate(args):
        text = str(arg)
        flag = text.split("=", 1)[0]
        name = f"kimi_plan_extra_args[{i}]"
        if flag.startswith("-") and CREDENTIAL_NAME_RE.search(flag.replace("-", "_")):
            shown = flag + ("=***" if "=" in text else "")
            out.append(f"{name}={show(shown)}: must not carry a credential: the launcher and release.json are "
                       "world-readable; the API key is kimi_api_key (Vault), read from a root-only file")
        elif has_url_credentials(text):
            out.append(f"{name}={show(mask_url_credentials(text))}: must not carry URL credentials: the launcher "
                       "and release.json are world-readable")
        elif CONTROL_RE.search(text):
            out.append(f"{name}={show(text)}: must be one line without control characters")
    return out


def check_pip_extra_args(s: Mapping[str, Any]) -> Messages:
    if "kimi_vllm_pip_extra_args" not in s:
        return []
    text = str(s["kimi_vllm_pip_extra_args"] or "")
    if has_url_credentials(text):
        return [f"kimi_vllm_pip_extra_args={show(mask_url_credentials(text))}: must not carry credentials (pip's "
                "command line, errors and -v output show them): set kimi_vllm_pip_index_url or "
                "kimi_vllm_pip_extra_index_url (from Vault) instead; they reach pip through a root-only pip.conf"]
    return []


def check_inventory_group(s: Mapping[str, Any]) -> Messages:
    if "inventory_hostname" not in s or "gpu_nodes" not in s:
        return []
    host = s["inventory_hostname"]
    if host not in (s["gpu_nodes"] or []):
        return [f"inventory_hostname={show(host)}: must be in the inventory group gpu_nodes (the plays and the "
                "planner work on gpu_nodes only)"]
    return []


# (rule name, function, purposes it applies to). "plan" skips what only a deploy needs.
Rule = tuple[str, Callable[[Mapping[str, Any]], Messages], frozenset[str]]
BOTH = frozenset({"deploy", "plan"})
DEPLOY = frozenset({"deploy"})
RULES: tuple[Rule, ...] = (
    ("inventory_group", check_inventory_group, BOTH),
    ("api_key", check_api_key, DEPLOY),
    ("model_repo", check_model_repo, BOTH),
    ("model_revision", check_model_revision, DEPLOY),
    ("served_model_name", check_served_model_name, BOTH),
    ("root", check_root, BOTH),
    ("counts", check_counts, BOTH),
    ("port", check_port, BOTH),
    ("service_name", check_service_name, BOTH),
    ("service_user", check_service_user, BOTH),
    ("release_keep", check_release_keep, BOTH),
    ("canary_min_requests", check_canary_min_requests, DEPLOY),
    ("canary_max_duration", check_canary_max_duration, DEPLOY),
    ("plan_overrides", check_plan_overrides, BOTH),
    ("env", check_env_names, BOTH),
    ("plan_extra_args", check_plan_extra_args, BOTH),
    ("pip_extra_args", check_pip_extra_args, BOTH),
)


def check(settings: Mapping[str, Any], purpose: str = "deploy") -> Messages:
    """Every message of every rule that applies to ``purpose`` (``deploy`` or ``plan``), in rule order."""
    if purpose not in ("deploy", "plan"):
        raise ValueError(f"purpose {purpose!r} is not deploy or plan")
    out: Messages = []
    for _name, rule, purposes in RULES:
        if purpose in purposes:
            out += rule(settings)
    return out
