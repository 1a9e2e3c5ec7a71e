"""Does a multi-node replica restart, and why: decided once from every node's report.

Every node of a replica reports what it runs and what changed for it (``NodeReport``, from the
node's units as ``systemctl show`` describes them and this run's changes); the replica restarts as
a whole when any node asks for it, because a worker restarted alone cannot rejoin a running head,
nor a head the old workers. A node asks for a restart when:

* the caller requires one (current moved, or this run changed the unit or the secrets);
* this node's ``node.env`` (its flags and network) changed;
* the node runs vLLM and its vLLM unit is not ``active`` (down, failed, still starting);
* the backend is Ray and the node's Ray unit is not ``active``, or its Ray environment, token or
  unit changed.

A node of the replica that did not report (it failed earlier in this run, or is not in it) counts
as asking for a restart. Pure: the playbook reads the units and hands the reports in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import KimiDeployError
from .service_state import UnitState

# Unit states in which the unit holds its process: a restart stops it first, a start finds it up.
RUNNING_STATES = ("active", "activating", "reloading")


@dataclass(frozen=True)
class NodeReport:
    runs_vllm: bool
    backend: str
    vllm: UnitState
    ray: UnitState
    restart_required: bool = False  # the caller's: current moved, or the unit or secrets changed
    node_env_changed: bool = False
    ray_changed: bool = False  # this node's Ray environment, token or unit

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NodeReport:
        return cls(
            runs_vllm=_flag(data, "runs_vllm"),
            backend=str(data["backend"]),
            vllm=_unit(data.get("vllm")),
            ray=_unit(data.get("ray")),
            restart_required=_flag(data, "restart_required"),
            node_env_changed=_flag(data, "node_env_changed"),
            ray_changed=_flag(data, "ray_changed"),
        )


@dataclass
class NodeStart:
    action: str  # restart (stopped, then started), start (nothing of it runs), nothing
    reasons: list[str] = field(default_factory=list)  # why this node asks for the replica's restart
    previous_invocation: str = ""  # the vLLM run a restart replaces ("" when nothing restarts)
    leave_ray: bool = False  # the release does not use Ray but the node has a Ray unit

    def as_dict(self) -> dict[str, Any]:
        return {"action": self.action, "reasons": list(self.reasons),
                "previous_invocation": self.previous_invocation, "leave_ray": self.leave_ray}


@dataclass
class ReplicaStart:
    restart: bool
    reasons: list[str]  # "<node>: <reason>", every node's
    nodes: dict[str, NodeStart]

    def as_dict(self) -> dict[str, Any]:
        return {"restart": self.restart, "reasons": list(self.reasons),
                "nodes": {name: node.as_dict() for name, node in self.nodes.items()}}


def _flag(data: Mapping[str, Any], key: str) -> bool:
    """A yes/no of a report: a bool, or its text as a template may leave it ("True", "false")."""
    value = data.get(key, False)
    if isinstance(value, bool):
        return value
    if str(value).strip().lower() in ("true", "false"):
        return str(value).strip().lower() == "true"
    raise KimiDeployError(f"{key} of a node's report is {value!r}, not true or false")


def _unit(data: Any) -> UnitState:
    if isinstance(data, UnitState):
        return data
    data = data or {}
    return UnitState(active_state=str(data.get("active_state", "")), sub_state=str(data.get("sub_state", "")),
                     n_restarts=int(data.get("n_restarts") or 0), main_pid=int(data.get("main_pid") or 0),
                     invocation_id=str(data.get("invocation_id", "")), load_state=str(data.get("load_state", "")),
                     need_daemon_reload=bool(data.get("need_daemon_reload", False)))


def _not_active(what: str, unit: UnitState) -> str:
    return f"{what} is not active ({unit.active_state or 'unknown'}{'/' + unit.sub_state if unit.sub_state else ''})"


def node_restart_reasons(node: NodeReport) -> list[str]:
    """Why this node asks for its replica's restart; empty when it does not."""
    reasons = []
    if node.restart_required:
        reasons.append("a restart is required (current moved, or the unit or its secrets changed)")
    if node.node_env_changed:
        reasons.append("node.env changed (this node's flags or network)")
    if node.runs_vllm and node.vllm.active_state != "active":
        reasons.append(_not_active("vLLM", node.vllm))
    if node.backend == "ray":
        if node.ray.active_state != "active":
            reasons.append(_not_active("Ray", node.ray))
        if node.ray_changed:
            reasons.append("this node's Ray environment, token or unit changed")
    return reasons


def _holds_a_process(node: NodeReport) -> bool:
    return ((node.runs_vllm and node.vllm.active_state in RUNNING_STATES)
            or (node.backend == "ray" and node.ray.active_state in RUNNING_STATES))


def replica_start(reports: Mapping[str, NodeReport | Mapping[str, Any] | None]) -> ReplicaStart:
    """Each node's start, from every node's report (``None`` or empty: the node did not report).

    ``reports`` maps every host of the replica, in replica order, to its report.
    """
    parsed = {name: (NodeReport.from_dict(r) if isinstance(r, Mapping) else r) if r else None
              for name, r in reports.items()}
    own = {name: (node_restart_reasons(r) if r else ["did not report its state (it failed or is not in this run)"])
           for name, r in parsed.items()}
    restart = any(own.values())
    nodes = {}
    for name, report in parsed.items():
        if report is None:
            nodes[name] = NodeStart(action="restart", reasons=own[name])
            continue
        if not restart:
            action = "nothing"
        elif _holds_a_process(report):
            action = "restart"  # stopped, then started
        else:
            action = "start"
        nodes[name] = NodeStart(
            action=action, reasons=own[name],
            previous_invocation=report.vllm.invocation_id if restart else "",
            leave_ray=report.backend != "ray" and report.ray.load_state != "not-found",
        )
    reasons = [f"{name}: {why}" for name, whys in own.items() for why in whys]
    return ReplicaStart(restart=restart, reasons=reasons, nodes=nodes)
