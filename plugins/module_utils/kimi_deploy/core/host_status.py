"""What each host is doing now, in one answer: serving, starting, restarting or failed, with its last failure.

    host_status(unit={"ActiveState": "activating", "SubState": "auto-restart", "NRestarts": "3",
                      "ExecMainStartTimestamp": "Tue 2026-12-01 10:02:00 UTC"},
                release={"id": "r2", "activations": ["2026-12-01T10:00:00.000000Z"]},
                diagnosis=diagnose(journal), failure=last_failure(journal))
    -> {"state": "restarting", "restarts_since_deploy": 3, "healthy": False,
        "last_failure": {"phase": "startup", "cause_class": "kv_cache_insufficient", ...}, "lines": [...]}

* ``state`` comes from systemd alone (``systemctl show`` properties): ``serving`` (active/running),
  ``starting`` (activating: start-pre, start, start-post - the unit waits for the port), ``restarting``
  (activating/auto-restart: it crashed and Restart= brings it back), ``failed`` (failed, or inactive
  with a failed result), ``stopped``, ``stopping``.
* ``restarts_since_deploy``: systemd counts automatic restarts in ``NRestarts`` and resets the counter
  when the unit is started by hand, as the deploy does after it activates a release. So the count holds
  since the deploy when the main process started at or after the release's last activation
  (``release.json`` ``activations``); a main process older than the activation means the unit was not
  restarted into this release (``restarted_into_release`` false).
* ``last_failure``: phase, cause and next step of the latest start that failed (diagnose.last_failure),
  also when a later start serves again.
* ``healthy``/``client_errors``: a serving host whose journal holds no failure, with the clients' 4xx
  counted by status and route, outside the acceptance suite's own probe window
  (``acceptance_windows(release)``).

Pure: the module reads the unit, release.json and the journal, this only decides.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta, timezone
from typing import Any

from .slowness import summary_line

STATES = ("serving", "starting", "restarting", "failed", "stopped", "stopping", "unknown")
UNIT_PROPERTIES = ("ActiveState", "SubState", "Result", "NRestarts", "ExecMainStartTimestamp", "LoadState")
_SYSTEMD_TIME = re.compile(r"(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?: (\S+))?")


def parse_time(value: Any) -> datetime | None:
    """An ISO 8601 time (release.json) or a systemd timestamp (``Tue 2026-12-01 10:00:00 UTC``), as UTC.

    systemd prints the host's local zone; only UTC/GMT (or none, taken as UTC) is understood, which is
    what the deploy's hosts run - anything else is None rather than a wrong comparison.
    """
    if value in (None, "", "n/a", "0"):
        return None
    text = str(value).strip()
    iso = re.match(r"^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:\.\d+)?(Z|[+-]\d\d:?\d\d)?$", text)
    if iso:
        stamp = datetime.fromisoformat(f"{iso.group(1)}T{iso.group(2)}")
        zone = iso.group(3)
        if zone and zone != "Z":
            sign = 1 if zone[0] == "+" else -1
            hours, minutes = int(zone[1:3]), int(zone[-2:])
            stamp -= sign * timedelta(hours=hours, minutes=minutes)
        return stamp.replace(tzinfo=timezone.utc)
    found = _SYSTEMD_TIME.search(text)
    if found and (found.group(3) or "UTC") in ("UTC", "GMT"):
        return datetime.fromisoformat(f"{found.group(1)}T{found.group(2)}").replace(tzinfo=timezone.utc)
    return None


def _iso(stamp: datetime | None) -> str | None:
    return stamp.strftime("%Y-%m-%dT%H:%M:%SZ") if stamp else None


def service_state(unit: Mapping[str, Any]) -> str:
    active, sub = str(unit.get("ActiveState", "")), str(unit.get("SubState", ""))
    if active in ("active", "reloading"):
        return "serving" if sub in ("running", "reload", "") else "stopping" if sub == "stop" else "serving"
    if active == "activating":
        return "restarting" if sub == "auto-restart" else "starting"
    if active == "deactivating":
        return "stopping"
    if active == "failed":
        return "failed"
    if active == "inactive":
        return "failed" if unit.get("Result") not in (None, "", "success") else "stopped"
    return "unknown"


def acceptance_windows(release: Mapping[str, Any] | None) -> list[dict[str, str]]:
    """The acceptance suite's probe window recorded in release.json (``acceptance.started_at`` and
    ``suite_duration_s``, padded by a minute each side for clock skew); [] when none was recorded."""
    acceptance = (release or {}).get("acceptance") or {}
    start = parse_time(acceptance.get("started_at"))
    try:
        duration = float(acceptance.get("suite_duration_s"))
    except (TypeError, ValueError):
        duration = None
    if start is None or duration is None:
        return []
    pad = timedelta(minutes=1)
    return [{"start": _iso(start - pad), "end": _iso(start + timedelta(seconds=duration) + pad)}]


def probe_windows(releases: Iterable[Mapping[str, Any]]) -> list[dict[str, str]]:
    """Every release's acceptance probe window (``acceptance_windows``), oldest first: a journal that
    spans a deploy, a changed deploy and a rollback holds the probes of each release it served."""
    return sorted((w for release in releases for w in acceptance_windows(release)), key=lambda w: w["start"])


def _failure(diagnosis: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not diagnosis or diagnosis.get("healthy") or diagnosis.get("cause_class") in (
            "healthy", "no_failure_yet", "risk_only"):
        return None
    return {key: diagnosis.get(key) for key in ("phase", "cause_class", "cause", "next_step", "rule",
                                                "first_error_line", "parameter_changes")}


def _client_summary(errors: list[Mapping[str, Any]]) -> str:
    return ", ".join(f"{e['count']}x {e['status']} {e['method']} {e['route']}" for e in errors) or "none"


def host_status(unit: Mapping[str, Any], release: Mapping[str, Any] | None = None,
                diagnosis: Mapping[str, Any] | None = None, failure: Mapping[str, Any] | None = None,
                *, slow: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The per-host answer diagnose.yml prints (``lines``) and returns.

    ``diagnosis`` is diagnose() of the journal since the last activation (the latest start decides);
    ``failure`` is last_failure() of the same text (the latest start that failed, if any);
    ``slow`` is slowness.slowness() when ledger rows are available.
    """
    release = release or {}
    state = service_state(unit)
    try:
        restarts = int(str(unit.get("NRestarts", "")).strip() or 0)
    except ValueError:
        restarts = None
    activations = [a for a in (parse_time(x) for x in release.get("activations") or []) if a]
    deployed_at = max(activations) if activations else None
    main_started = parse_time(unit.get("ExecMainStartTimestamp"))
    restarted_into = None if deployed_at is None or main_started is None else main_started >= deployed_at
    since_deploy = restarts if restarted_into is not False else 0
    last = _failure(failure) or _failure(diagnosis)
    healthy = state == "serving" and bool(diagnosis and diagnosis.get("healthy")) and last is None
    client_errors = list((diagnosis or {}).get("client_errors") or []) if healthy else []
    release_id = release.get("id") or ""
    answer: dict[str, Any] = {
        "state": state,
        "active_state": unit.get("ActiveState"), "sub_state": unit.get("SubState"),
        "restarts": restarts, "restarts_since_deploy": since_deploy,
        "release_id": release_id, "deployed_at": _iso(deployed_at), "main_started_at": _iso(main_started),
        "restarted_into_release": restarted_into,
        "healthy": healthy, "client_errors": client_errors,
        "last_failure": last, "slow": dict(slow) if slow else None,
    }
    head = (f"state: {state} ({unit.get('ActiveState')}/{unit.get('SubState')}), release {release_id or '?'}"
            f" activated {_iso(deployed_at) or '?'}, {since_deploy if since_deploy is not None else '?'} "
            "restart(s) since")
    if restarted_into is False:
        head += " (the service has not been restarted since this release was activated)"
    lines = [head]
    if healthy:
        lines.append(f"health: healthy; client errors outside the acceptance probes: {_client_summary(client_errors)}")
    elif last is not None:
        lines.append(f"last failure: {last['phase']} / {last['cause_class']}: {last['cause']}")
        lines.append(f"next step: {last['next_step']}")
    elif diagnosis:
        lines.append(f"health: {diagnosis.get('cause_class')} ({diagnosis.get('phase')}): {diagnosis.get('cause')}")
    if slow:
        lines.append(summary_line(slow))
    answer["lines"] = lines
    return answer
