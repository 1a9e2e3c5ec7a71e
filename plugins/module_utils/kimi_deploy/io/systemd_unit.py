"""Read a systemd unit's properties on the host (``systemctl show``), through the module's run_command."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..core.errors import KimiDeployError
from ..core.service_state import parse_properties

RunCommand = Callable[[list[str]], tuple[int, str, str]]


def show_unit(run_command: RunCommand, unit: str, properties: Iterable[str]) -> dict[str, str]:
    """``systemctl show <unit> -p A -p B ...`` as a dict. A unit systemd does not know is no error:
    systemd answers ``LoadState=not-found`` for it."""
    argv = ["systemctl", "show", unit]
    for prop in properties:
        argv += ["-p", prop]
    rc, out, err = run_command(argv)
    if rc != 0:
        raise KimiDeployError(f"systemctl show {unit} failed: {err.strip()}")
    return parse_properties(out)
