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

# The admin states a caller may ask for, and the `show stat` status words that mean one is in force.
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


def server_stat(path: str, backend: str, server: str) -> dict[str, str]:
    """The server's row of `show stat` (status, scur, qcur, ...), or an error naming what exists."""
    text = runtime_command(path, "show stat")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("# "))))
    for row in rows:
        if row.get("pxname") == backend and row.get("svname") == server:
            return row
    known = sorted(f"{r['pxname']}/{r['svname']}" for r in rows if r.get("svname") not in ("FRONTEND", "BACKEND"))
    raise KimiDeployError(f"HAProxy has no server {backend}/{server}; it has: {', '.join(known) or 'none'}")


def admin_state(stat: dict[str, str]) -> str:
    """drain, maint or ready, from the status column (e.g. 'DRAIN', 'MAINT (via x)', 'UP 1/3', 'DOWN')."""
    status = stat.get("status", "").upper()
    if status.startswith("MAINT"):
        return "maint"
    if status.startswith("DRAIN"):
        return "drain"
    return "ready"


def in_flight(stat: dict[str, str]) -> int:
    """Connections the server holds plus requests queued for it."""
    return int(stat.get("scur") or 0) + int(stat.get("qcur") or 0)


def set_server_state(path: str, backend: str, server: str, state: str) -> bool:
    """Put the server in ``state``; returns whether it changed. The answer of HAProxy is checked."""
    if state not in STATES:
        raise KimiDeployError(f"state must be one of {', '.join(STATES)}, not {state!r}")
    if admin_state(server_stat(path, backend, server)) == state:
        return False
    answer = runtime_command(path, f"set server {backend}/{server} state {state}").strip()
    if answer:
        raise KimiDeployError(f"HAProxy refused 'set server {backend}/{server} state {state}': {answer}")
    now = admin_state(server_stat(path, backend, server))
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
