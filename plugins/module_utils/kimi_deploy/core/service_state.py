"""Does the running service have to be restarted? Decided from what it actually loaded.

A run that renders the unit or the secrets and then fails (before the restart) leaves the new
files on disk and the service on the old ones; the next run renders nothing new, so "changed"
says nothing and a rotated key would never be applied. What the service loaded is on the host:

* ``NeedDaemonReload=yes`` when the unit file on disk is newer than the one systemd loaded;
* the release the main process runs, from ``KIMI_RELEASE_DIR`` in its environment (exported by the
  release's ``serve``) or its command line (``<root>/releases/<id>/venv/...``);
* ``KIMI_SECRETS_SHA256`` in the main process's environment, against the same line of the
  secrets file on disk (the template writes a hash of the file's other lines there).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

SECRETS_HASH_VAR = "KIMI_SECRETS_SHA256"
UNIT_PROPERTIES = ("LoadState", "ActiveState", "SubState", "NeedDaemonReload", "MainPID", "InvocationID")


@dataclass
class UnitState:
    """What ``systemctl show`` says of a unit (the properties this project reads)."""

    active_state: str
    sub_state: str
    n_restarts: int
    main_pid: int
    invocation_id: str = ""
    load_state: str = ""
    need_daemon_reload: bool = False

    @classmethod
    def parse(cls, text: str) -> UnitState:
        """Parse ``systemctl show -p ...`` output; a property not shown reads as empty (or 0, no)."""
        return cls.from_properties(parse_properties(text))

    @classmethod
    def from_properties(cls, props: Mapping[str, str]) -> UnitState:
        return cls(
            active_state=props.get("ActiveState", ""),
            sub_state=props.get("SubState", ""),
            n_restarts=int(props.get("NRestarts") or 0),
            main_pid=int(props.get("MainPID") or 0),
            invocation_id=props.get("InvocationID", ""),
            load_state=props.get("LoadState", ""),
            need_daemon_reload=props.get("NeedDaemonReload", "no") == "yes",
        )


# The properties UnitState holds, as ``systemctl show -p`` names them.
UNIT_STATE_PROPERTIES = ("LoadState", "ActiveState", "SubState", "NRestarts", "MainPID", "InvocationID",
                         "NeedDaemonReload")


@dataclass
class RestartDecision:
    daemon_reload: bool
    restart: bool
    reasons: list[str] = field(default_factory=list)


def parse_properties(text: str) -> dict[str, str]:
    """``systemctl show -p A -p B`` output as a dict."""
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def parse_environ(raw: bytes) -> dict[str, str]:
    """``/proc/<pid>/environ`` (NUL-separated ``NAME=value``) as a dict."""
    out = {}
    for item in raw.decode("utf-8", "replace").split("\0"):
        if "=" in item:
            name, value = item.split("=", 1)
            out[name] = value
    return out


def running_release(cmdline: Iterable[str], root: str, environ: Mapping[str, str] | None = None) -> str:
    """The release the main process runs, or "" (not running, or not known).

    From ``KIMI_RELEASE_DIR``, which the release's ``serve`` exports before it execs vLLM, else from
    the command line (vLLM may retitle its process, so the environment comes first).
    """
    pattern = re.compile(re.escape(root.rstrip("/")) + r"/releases/([^/]+)/")
    for arg in [((environ or {}).get("KIMI_RELEASE_DIR", "").rstrip("/") + "/"), *cmdline]:
        match = pattern.search(arg)
        if match:
            return match.group(1)
    return ""


def secrets_hash(text: str | None) -> str:
    """The hash the secrets file declares (``KIMI_SECRETS_SHA256=``), or of its content when it
    declares none (a file written by an older template); "" when there is no file."""
    if text is None:
        return ""
    for line in text.splitlines():
        if line.startswith(SECRETS_HASH_VAR + "="):
            return line.split("=", 1)[1].strip().strip('"')
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def restart_decision(unit: Mapping[str, str], *, current: str, running: str,
                     secrets_on_disk: str, secrets_loaded: str, current_moved: bool = False) -> RestartDecision:
    """Reload and restart only for what the running service has not loaded yet.

    A service that is not running needs no restart (the start that follows loads everything); a
    daemon-reload is needed whenever systemd says its copy of the unit is stale. ``current_moved``
    (a rollback moved the link): a process whose release cannot be named restarts too, while one
    that already runs current (the link was repaired) keeps serving.
    """
    reload_needed = unit.get("NeedDaemonReload", "no") == "yes"
    reasons = []
    if unit.get("ActiveState") in ("active", "activating", "reloading"):
        if reload_needed:
            reasons.append("the unit file changed since the service loaded it")
        if running and current and running != current:
            reasons.append(f"the service runs release {running}, current is {current}")
        if current_moved and not running:
            reasons.append(f"current moved to {current or 'nothing'} and the release the service runs is not known")
        if secrets_on_disk != secrets_loaded:
            reasons.append("the secrets file changed since the service started")
    return RestartDecision(daemon_reload=reload_needed, restart=bool(reasons), reasons=reasons)
