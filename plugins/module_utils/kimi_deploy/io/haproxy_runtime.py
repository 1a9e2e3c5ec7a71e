"""HAProxy's runtime API over its admin socket: a server's state, drain/ready/maint, weight, wait until idle.

The fleet balancer (roles/kimi_lb) drains a replica before a deploy or rollback touches it and puts
it back after acceptance; a canary (kimi_canary_enabled) comes back first at a fraction of its weight,
then at its whole configured weight once promoted. Draining stops new requests; requests in flight
(streams that may last minutes) finish, so the caller waits until the server holds no connection and
nothing is queued.
"""

from __future__ import annotations

import csv
import io
import socket
import time
from collections.abc import Callable

from ..core.errors import KimiDeployError

# The admin states a caller may ask for.
STATES = ("drain", "ready", "maint")


def runtime_command(path: str, command: str, timeout_s: float = 10.0) -> str:
    """Send one command to the admin socket and return HAProxy's whole answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout_s)
        try:
            sock.connect(path)
        except OSError as err:
            raise KimiDeployError(f"HAProxy's runtime API at {path} does not answer ({err}): is kimi-lb running, "
                                  "with its stats socket there?") from err
        sock.sendall(command.encode() + b"\n")
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks).decode(errors="replace")


def _stat_rows(path: str) -> list[dict[str, str]]:
    """`show stat`'s rows (pxname, svname, status, weight, scur, qcur, ...)."""
    return list(csv.DictReader(io.StringIO(runtime_command(path, "show stat").lstrip("# "))))


def server_stat(path: str, backend: str, server: str) -> dict[str, str]:
    """The server's row of `show stat` (status, scur, qcur, ...), or an error naming what exists."""
    rows = _stat_rows(path)
    for row in rows:
        if row.get("pxname") == backend and row.get("svname") == server:
            return row
    known = sorted(f"{r['pxname']}/{r['svname']}" for r in rows if r.get("svname") not in ("FRONTEND", "BACKEND"))
    raise KimiDeployError(f"HAProxy has no server {backend}/{server}; it has: {', '.join(known) or 'none'}")


# srv_admin_state bits of `show servers state` (HAProxy's SRV_ADMF_*): maintenance forced, inherited
# from a tracked server, or set by DNS resolution or the configuration; drain forced or inherited.
_ADMIN_MAINT = 0x01 | 0x02 | 0x04 | 0x20 | 0x40
_ADMIN_DRAIN = 0x08 | 0x10


def server_admin_state(path: str, backend: str, server: str) -> str:
    """drain, maint or ready: what a deploy or an operator set on the server, whatever its health checks say.

    Read from `show servers state`, not from `show stat`'s status column: a server failing its checks (its
    vLLM restarting after a killed run) reads DOWN there whether or not it is drained."""
    answer = runtime_command(path, f"show servers state {backend}")
    lines = answer.splitlines()
    header = next((line.lstrip("# ").split() for line in lines if line.startswith("#")), None)
    if header is None:
        raise KimiDeployError(f"HAProxy answered 'show servers state {backend}' with {answer.strip()!r}")
    rows = [dict(zip(header, line.split(), strict=False)) for line in lines if not line.startswith("#")]
    for row in rows:  # the first line, a format version, matches no server
        if row.get("be_name") == backend and row.get("srv_name") == server:
            admin = int(row["srv_admin_state"])
            return "maint" if admin & _ADMIN_MAINT else "drain" if admin & _ADMIN_DRAIN else "ready"
    known = sorted(f"{backend}/{row['srv_name']}" for row in rows if row.get("srv_name"))
    raise KimiDeployError(f"HAProxy has no server {backend}/{server}; it has: {', '.join(known) or 'none'}")


def backend_stats(path: str, backend: str) -> dict[str, dict[str, str]]:
    """Each server of the backend: its row of `show stat`, by server name."""
    return {row["svname"]: row for row in _stat_rows(path)
            if row.get("pxname") == backend and row.get("svname") not in ("FRONTEND", "BACKEND")}


def serves(stat: dict[str, str]) -> bool:
    """Whether the balancer sends the server new requests: passing its checks (``UP``, ``UP 1/3`` while
    it may still fail two more, ``no check``), neither drained nor in maintenance, and a weight above 0."""
    status = stat.get("status", "")
    return (status == "no check" or status.split(" ")[0] == "UP") and int(stat.get("weight") or 0) > 0


def peers_left_serving(stats: dict[str, dict[str, str]], server: str, leaving: list[str]) -> dict[str, object]:
    """What draining ``server`` would leave: ``safe`` when another server keeps serving, when ``server``
    serves nothing itself, or when it is the backend's only server (nothing can take over); ``leaving`` are
    servers this same run drains at the same time (a batch of a rolling deploy), which count as gone."""
    if server not in stats:
        known = ", ".join(sorted(stats)) or "none"
        raise KimiDeployError(f"HAProxy has no server {server} in this backend; it has: {known}")
    peers = {name: stat.get("status", "") for name, stat in stats.items() if name != server}
    others = [name for name in peers if name not in leaving]
    return {"safe": not serves(stats[server]) or not peers or any(serves(stats[name]) for name in others),
            "alone": not peers, "peers": peers, "others": others}


def wait_for_serving_peer(path: str, backend: str, server: str, leaving: list[str], timeout_s: float,
                          poll_s: float = 2.0, clock: Callable[[], float] = time.monotonic,
                          sleep: Callable[[float], None] = time.sleep) -> dict[str, object]:
    """Before draining ``server``: wait until another server of the backend serves, so the drain does not
    leave clients with none (a replica still restarting after a killed engine comes back within minutes).
    Returns what `peers_left_serving` found and the seconds waited; fails at once when every other server is
    in ``leaving``, and after ``timeout_s`` when none came back."""
    start = clock()
    while True:
        found = peers_left_serving(backend_stats(path, backend), server, leaving)
        waited = clock() - start
        if found["safe"]:
            return {**found, "waited_s": waited}
        peers = ", ".join(f"{name} ({status})" for name, status in sorted(found["peers"].items()))
        if not found["others"]:
            raise KimiDeployError(
                f"draining {backend}/{server} with {', '.join(leaving)} in the same batch drains every replica "
                f"of the balancer at once ({peers}): lower kimi_serial so that a replica keeps serving, or set "
                "kimi_lb_drain_last_replica=true to take the outage")
        if waited >= timeout_s:
            raise KimiDeployError(
                f"draining {backend}/{server} would leave the balancer no replica serving: {peers}; waited "
                f"{waited:.0f}s (kimi_lb_drain_peer_wait_s) for one to come back. Bring one back first "
                "(diagnose.yml names what stopped it), or set kimi_lb_drain_last_replica=true to take the outage")
        sleep(poll_s)


def in_flight(stat: dict[str, str]) -> int:
    """Connections the server holds plus requests queued for it."""
    return int(stat.get("scur") or 0) + int(stat.get("qcur") or 0)


def set_server_state(path: str, backend: str, server: str, state: str) -> bool:
    """Put the server in ``state``; returns whether it changed. The answer of HAProxy is checked."""
    if state not in STATES:
        raise KimiDeployError(f"state must be one of {', '.join(STATES)}, not {state!r}")
    if server_admin_state(path, backend, server) == state:
        return False
    answer = runtime_command(path, f"set server {backend}/{server} state {state}").strip()
    if answer:
        raise KimiDeployError(f"HAProxy refused 'set server {backend}/{server} state {state}': {answer}")
    now = server_admin_state(path, backend, server)
    if now != state:
        raise KimiDeployError(f"{backend}/{server} is {now} after 'state {state}'")
    return True


def server_weight(path: str, backend: str, server: str) -> tuple[int, int]:
    """(current, configured) weight of the server: ``get weight`` answers ``10 (initial 100)``."""
    answer = runtime_command(path, f"get weight {backend}/{server}").strip()
    numbers = [int(word.strip("()")) for word in answer.split() if word.strip("()").isdigit()]
    if len(numbers) != 2:
        raise KimiDeployError(f"HAProxy answered 'get weight {backend}/{server}' with {answer!r}")
    return numbers[0], numbers[1]


def set_server_weight(path: str, backend: str, server: str, percent: int) -> bool:
    """Set the server's weight to ``percent`` of its configured weight; returns whether it changed."""
    if not 0 <= percent <= 100:
        raise KimiDeployError(f"a weight in percent of the configured one is 0 to 100, not {percent}")
    current, configured = server_weight(path, backend, server)
    wanted = configured * percent // 100
    if current == wanted:
        return False
    answer = runtime_command(path, f"set weight {backend}/{server} {percent}%").strip()
    if answer:
        raise KimiDeployError(f"HAProxy refused 'set weight {backend}/{server} {percent}%': {answer}")
    now = server_weight(path, backend, server)[0]
    if now != wanted:
        raise KimiDeployError(f"{backend}/{server} has weight {now} after 'set weight {percent}%', not {wanted}")
    return True


def wait_idle(path: str, backend: str, server: str, timeout_s: float, poll_s: float = 1.0,
              clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> float:
    """Wait until the server holds no connection and has no queue; returns the seconds waited."""
    start = clock()
    while True:
        stat = server_stat(path, backend, server)
        busy = in_flight(stat)
        waited = clock() - start
        if busy == 0:
            return waited
        if waited >= timeout_s:
            raise KimiDeployError(f"{backend}/{server} still has {stat.get('scur')} connection(s) and "
                                  f"{stat.get('qcur')} queued request(s) after {timeout_s:.0f}s of draining; "
                                  "raise kimi_lb_drain_timeout_s for long streams, or put it back with state=ready")
        sleep(poll_s)
