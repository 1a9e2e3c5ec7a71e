"""Releases on a host: ids derived from inputs, ordering from release.json, rollback targets, pruning.

Layout under the deploy root::

    releases/<id>/release.json   what the release is (inputs, plan, versions) and what happened to it
    current -> releases/<id>     relative symlink, swapped atomically

Nothing here trusts mtimes: a release's age is its ``created_at``, its history is the list of
``activations`` and the verdict of its ``acceptance``, all in its own release.json. The rollback
target is the release that served before the current one (latest activation among the others) and
that passed acceptance, which is what an operator means by "previous".

release.json carries ``schema_version``; ``read_release_doc`` reads every version written so far, so a
rollback to a release written by an older collection keeps working:

* version 0 (no ``schema_version``): the plan twice, in ``inputs.plan`` and at the top level (``metadata``),
  as the untyped dict whose ``serve_args`` is the truth; the oldest lack ``inputs.service``;
* version 1: the plan once, in ``inputs.plan`` (an input: it is hashed into the id), with its own
  ``schema_version`` (``core.plan``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import KimiDeployError
from .plan import Plan

RELEASE_SCHEMA_VERSION = 1
RELEASE_FILE = "release.json"
CURRENT_LINK = "current"
RELEASES_DIR = "releases"
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$")


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no whitespace: equal values give equal text, hence equal ids."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)


def release_id(inputs: Mapping[str, Any], version_label: str = "") -> str:
    """``<version_label>-<first 12 hex of sha256(canonical inputs)>``; same inputs, same id.

    ``version_label`` makes ids readable (e.g. the vLLM version) and is itself part of the hash.
    """
    digest = hashlib.sha256(canonical_json({"label": version_label, "inputs": inputs}).encode()).hexdigest()
    label = re.sub(r"[^A-Za-z0-9._+-]", "-", version_label).strip("-.")
    return f"{label}-{digest[:12]}" if label else digest[:12]


def validate_id(rid: str) -> str:
    if not _ID_RE.match(rid or "") or rid in (".", ".."):
        raise KimiDeployError(
            f"{rid!r} is not a release id: use letters, digits, '.', '_', '+' or '-' (as listed under "
            f"<root>/{RELEASES_DIR}/)"
        )
    return rid


@dataclass
class Release:
    id: str
    created_at: str = ""
    activations: list[str] = field(default_factory=list)
    acceptance: str = ""  # "", "passed" or "failed"
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def last_activated(self) -> str:
        return max(self.activations, default="")

    @property
    def rejected(self) -> bool:
        return self.acceptance == "failed"

    @property
    def plan(self) -> Plan | None:
        """The plan the release was made from (None for a release made without one)."""
        given = (self.meta.get("inputs") or {}).get("plan")
        return Plan.from_dict(given) if given else None

    @property
    def nodes(self) -> int | None:
        """The nodes one replica of this release runs on (None for a release made without a plan)."""
        layout = ((self.meta.get("inputs") or {}).get("plan") or {}).get("layout") or {}
        return int(layout.get("nnodes") or 1) if layout else None

    def fits(self, nodes: int) -> bool:
        """Whether a replica of ``nodes`` nodes can serve this release (0: any; no plan: assumed to)."""
        return nodes <= 0 or self.nodes is None or self.nodes == nodes

    @classmethod
    def from_json(cls, rid: str, doc: Mapping[str, Any]) -> Release:
        doc = read_release_doc(doc)
        return cls(
            id=rid,
            created_at=str(doc.get("created_at", "")),
            activations=[str(a) for a in doc.get("activations", [])],
            acceptance=str((doc.get("acceptance") or {}).get("verdict", "")),
            meta=doc,
        )


def read_release_doc(doc: Mapping[str, Any]) -> dict[str, Any]:
    """release.json of any schema version as the current one (see the module docstring); the plan inside
    keeps its own version, which ``Plan.from_dict`` reads."""
    if not isinstance(doc, Mapping):
        raise KimiDeployError(f"release.json must hold a JSON object, not {type(doc).__name__}")
    version = doc.get("schema_version", 0)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise KimiDeployError(f"release.json schema_version {version!r} is not a version number")
    if version > RELEASE_SCHEMA_VERSION:
        raise KimiDeployError(f"release {doc.get('id', '?')} was written with schema_version {version}, newer than "
                              f"this collection reads ({RELEASE_SCHEMA_VERSION}); update the collection")
    out = dict(doc)
    if version == 0:  # the plan twice: keep the one the id was derived from
        inputs = dict(out.get("inputs") or {})
        copy = out.pop("plan", None)
        if copy and not inputs.get("plan"):
            inputs["plan"] = copy
        out["inputs"] = inputs
        out["schema_version"] = RELEASE_SCHEMA_VERSION
    return out


def new_release_doc(fields: Mapping[str, Any], inputs: Mapping[str, Any]) -> dict[str, Any]:
    """A new release.json from its fields and inputs: the plan once, in ``inputs.plan`` (a ``plan`` among
    ``fields``, the copy older playbooks pass as metadata, must be the same plan, and is not kept)."""
    out = {k: v for k, v in fields.items() if k != "plan"}
    copy = fields.get("plan")
    if copy and not inputs.get("plan"):
        raise KimiDeployError("the release's plan belongs in its inputs (inputs.plan), which name the release; "
                              "pass it there, not in metadata")
    if copy and canonical_json(copy) != canonical_json(inputs["plan"]):
        raise KimiDeployError("the release's metadata holds another plan than its inputs; the plan is stored "
                              "once, in inputs.plan: drop plan from metadata")
    out["inputs"] = dict(inputs)
    out["schema_version"] = RELEASE_SCHEMA_VERSION
    if inputs.get("plan"):
        Plan.from_dict(inputs["plan"])  # refuse a plan no later reader could read
    return out


def ordered(releases: Iterable[Release]) -> list[Release]:
    """Oldest first by ``created_at``, then id for a stable tie-break. Never by mtime."""
    return sorted(releases, key=lambda r: (r.created_at, r.id))


def rollback_target(releases: Iterable[Release], current: str | None, nodes: int = 0) -> Release | None:
    """The release that served before ``current``: latest activation among the others that passed
    acceptance (a rejected release, or one never judged, such as a tune.yml candidate, is no target).

    With ``nodes``, only a release laid out over that many nodes: one planned for a replica of another
    size cannot start on this one (a pair's release on a host that is now a replica of its own).
    """
    candidates = [r for r in releases
                  if r.id != current and r.activations and r.acceptance == "passed" and r.fits(nodes)]
    if not candidates:
        return None
    return max(candidates, key=lambda r: (r.last_activated, r.created_at, r.id))


def to_prune(releases: Iterable[Release], current: str | None, keep: int,
             protect: Iterable[str] = ()) -> list[Release]:
    """What a prune removes: every release that did not pass acceptance (failed, or never judged:
    an interrupted deploy, a tune.yml candidate), then the accepted ones beyond the newest ``keep``.

    Only accepted releases count toward ``keep``: a run of failed deploys cannot push the last
    good releases out. The current release, its rollback target and ``protect`` are never pruned.
    """
    if keep < 1:
        raise KimiDeployError(f"keep must be at least 1 (got {keep}): the current release is always kept")
    all_releases = list(releases)
    target = rollback_target(all_releases, current)
    protected = {current, target.id if target else None, *protect}
    newest_first = list(reversed(ordered(all_releases)))
    accepted = [r for r in newest_first if r.acceptance == "passed"]
    kept = {r.id for r in accepted[:keep]}
    unaccepted = [r for r in newest_first if r.acceptance != "passed" and r.id not in protected]
    beyond_keep = [r for r in accepted if r.id not in kept and r.id not in protected]
    return unaccepted + beyond_keep


# ---------------------------------------------------------------------------------------------
# On-disk state. Small, explicit filesystem helpers; the module wraps them for check mode/diff.


def releases_dir(root: str | Path) -> Path:
    return Path(root) / RELEASES_DIR


def read_current(root: str | Path) -> str | None:
    """The release id ``current`` points at, or None when there is no link yet.

    A ``current`` that is not a symlink into ``releases/``, or that points at a missing release,
    is refused with the repair: run the rollback playbook or name a release explicitly.
    """
    link = Path(root) / CURRENT_LINK
    if not link.is_symlink():
        if link.exists():
            raise KimiDeployError(
                f"{link} exists but is not a symlink; move it aside and run rollback.yml "
                f"-e kimi_rollback_to=<id> to point it at a release under {releases_dir(root)}"
            )
        return None
    target = os.readlink(link)
    parts = Path(target).parts
    if len(parts) != 2 or parts[0] != RELEASES_DIR:
        raise KimiDeployError(
            f"{link} -> {target} does not point at {RELEASES_DIR}/<id>; run rollback.yml "
            f"-e kimi_rollback_to=<id> to repair it"
        )
    rid = parts[1]
    if not (releases_dir(root) / rid / RELEASE_FILE).is_file():
        raise KimiDeployError(
            f"{link} -> {target}, but that release is missing or has no {RELEASE_FILE}; run "
            f"rollback.yml (it picks the previous release) or -e kimi_rollback_to=<id>"
        )
    return rid


def load_release(root: str | Path, rid: str) -> Release:
    path = releases_dir(root) / validate_id(rid) / RELEASE_FILE
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise KimiDeployError(f"release {rid!r} does not exist under {releases_dir(root)}") from err
    except json.JSONDecodeError as err:
        raise KimiDeployError(f"{path} is not valid JSON ({err}); the release is damaged") from err
    return Release.from_json(rid, doc)


def list_releases(root: str | Path) -> list[Release]:
    """Every complete release (a directory with a readable release.json), oldest first."""
    base = releases_dir(root)
    if not base.is_dir():
        return []
    found = []
    for entry in base.iterdir():
        if entry.name.startswith(".") or not (entry / RELEASE_FILE).is_file():
            continue
        try:
            found.append(load_release(root, entry.name))
        except KimiDeployError:
            continue  # a damaged release is never a rollback target; the module reports it
    return ordered(found)


def swap_current(root: str | Path, rid: str) -> None:
    """Point ``current`` at ``releases/<rid>`` with one rename: readers see old or new, never none."""
    root = Path(root)
    validate_id(rid)
    if not (releases_dir(root) / rid / RELEASE_FILE).is_file():
        raise KimiDeployError(f"cannot activate {rid!r}: {releases_dir(root) / rid} is not a complete release")
    link = root / CURRENT_LINK
    if link.exists() and not link.is_symlink():
        # os.replace cannot put a link over a directory (or is refused on a file by some kernels'
        # protections): keep what was there, renamed aside, for whoever made it to look at.
        aside = root / f".{CURRENT_LINK}.replaced.{os.getpid()}.{int(os.path.getmtime(link))}"
        os.rename(link, aside)
    tmp = root / f".{CURRENT_LINK}.{os.getpid()}.tmp"
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    os.symlink(f"{RELEASES_DIR}/{rid}", tmp)
    try:
        os.replace(tmp, link)
    except OSError as err:
        tmp.unlink()
        raise KimiDeployError(f"cannot point {link} at {RELEASES_DIR}/{rid}: {err}") from err


# ---------------------------------------------------------------------------------------------
# Shared weights and venvs: collected once no release left on disk uses them.

SHARED_DIR = "shared"
SHARED_KINDS = ("models", "venvs")
_IN_PROGRESS_SUFFIXES = (".partial", ".progress.json", ".lock")


@dataclass(frozen=True)
class RootDir:
    """One directory of the deploy root: its path, mode and owner (group of the same name)."""

    path: str
    mode: int
    owner: str


def root_layout(root: str | Path, service_user: str) -> tuple[RootDir, ...]:
    """The deploy root's directories, parents first: releases, the shared weights and venvs, the
    root-only secrets, and the service user's cache (its home: vLLM's and the hub's caches)."""
    base = Path(root)
    shared = base / SHARED_DIR
    return (
        RootDir(str(base), 0o755, "root"),
        RootDir(str(base / RELEASES_DIR), 0o755, "root"),
        RootDir(str(shared), 0o755, "root"),
        *(RootDir(str(shared / kind), 0o755, "root") for kind in SHARED_KINDS),
        RootDir(str(shared / "secrets"), 0o700, "root"),
        RootDir(str(shared / "cache"), 0o750, service_user),
    )


def shared_used_by(release_dir: str | Path, root: str | Path) -> set[tuple[str, str]]:
    """The ``(kind, name)`` entries of ``<root>/shared/{models,venvs}`` a release directory links to
    (any symlink in it, relative or absolute), plus the ``venv_key`` its release.json names."""
    release_dir, shared = Path(release_dir), Path(root) / SHARED_DIR
    used: set[tuple[str, str]] = set()
    try:
        entries = list(release_dir.iterdir())
    except OSError:
        return used
    for entry in entries:
        if not entry.is_symlink():
            continue
        target = Path(os.path.normpath(release_dir / os.readlink(entry)))
        try:
            parts = target.relative_to(shared).parts
        except ValueError:
            continue
        if len(parts) >= 2 and parts[0] in SHARED_KINDS:
            used.add((parts[0], parts[1]))
    try:
        doc = json.loads((release_dir / RELEASE_FILE).read_text(encoding="utf-8"))
        if doc.get("venv_key"):
            used.add(("venvs", str(doc["venv_key"])))
    except (OSError, ValueError, AttributeError):
        pass
    return used


def unused_shared(entries: Mapping[str, Iterable[str]], used: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Entries of ``shared/<kind>`` (kind -> names) that no release uses, sorted. Hidden names and
    work in progress (``*.partial`` downloads, progress files, the controller push's ``.incoming``)
    are never collected: a fetch or build may be under way or resumable."""
    used = set(used)
    out = []
    for kind in SHARED_KINDS:
        for name in entries.get(kind, ()):
            if name.startswith(".") or name.endswith(_IN_PROGRESS_SUFFIXES):
                continue
            if (kind, name) not in used:
                out.append((kind, name))
    return sorted(out)


def collectable_shared(root: str | Path, remaining: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """``unused_shared`` on disk: what no release directory under ``<root>/releases`` uses, or, with
    ``remaining``, no release directory but those named (e.g. what a prune leaves). Every directory
    counts, complete or not (a damaged release still holds on to its weights and venv)."""
    root = Path(root)
    base = releases_dir(root)
    dirs = [d for d in base.iterdir() if d.is_dir()] if base.is_dir() else []
    if remaining is not None:
        keep = set(remaining)
        dirs = [d for d in dirs if d.name in keep or d.name.startswith(".")]
    used: set[tuple[str, str]] = set()
    for d in dirs:
        used |= shared_used_by(d, root)
    entries = {}
    for kind in SHARED_KINDS:
        kind_dir = root / SHARED_DIR / kind
        entries[kind] = sorted(e.name for e in kind_dir.iterdir() if e.is_dir() and not e.is_symlink()) \
            if kind_dir.is_dir() else []
    return unused_shared(entries, used)


# ---------------------------------------------------------------------------------------------
# Which release should serve, and how a release serves (issue 11 sections 2 and 3).

PENDING = "pending"  # verdict written at the switch; a run that dies before judging leaves it


def accepted(release: Release | None) -> bool:
    return release is not None and release.acceptance == "passed"


def passed_over(releases: Iterable[Release], current: str | None, nodes: int) -> list[Release]:
    """Accepted releases that a replica of ``nodes`` nodes cannot serve, newest activation first."""
    skipped = [r for r in releases if r.id != current and r.activations and r.acceptance == "passed"
               and not r.fits(nodes)]
    return sorted(skipped, key=lambda r: (r.last_activated, r.created_at, r.id), reverse=True)


def serving_target(releases: Iterable[Release], current: str | None, nodes: int = 0) -> Release | None:
    """The release that should serve instead of ``current``, or None when ``current`` may stay.

    ``current`` stays when it passed acceptance, or when no release ever did (a first deploy: there
    is nothing better to go back to). Otherwise (pending after a killed run, failed, never judged)
    the last accepted release serves: the latest activated one that passed (and, with ``nodes``, is
    laid out over that many nodes).
    """
    all_releases = list(releases)
    by_id = {r.id: r for r in all_releases}
    if current is not None and accepted(by_id.get(current)):
        return None
    return rollback_target(all_releases, current, nodes)


_SERVE_FLAG_RE = r"--{flag}(?:=|\s+)(?:'([^']*)'|\"([^\"]*)\"|(\S+))"


def _serve_flag(serve_text: str, flag: str) -> str:
    match = re.search(_SERVE_FLAG_RE.format(flag=re.escape(flag)), serve_text)
    if not match:
        return ""
    return next(g for g in match.groups() if g is not None)


def release_service(doc: Mapping[str, Any], serve_text: str = "") -> dict[str, Any]:
    """How a release serves: ``{host, port, served_model_name}``.

    Read from ``inputs.service`` of its release.json; a release written before that field
    existed falls back to the flags its ``serve`` launcher passes to vLLM. A field that neither
    names is "" (port 0), and the caller falls back to its inventory.
    """
    given = (doc.get("inputs") or {}).get("service") or {}
    host = str(given.get("host") or _serve_flag(serve_text, "host"))
    port_text = str(given.get("port") or _serve_flag(serve_text, "port"))
    name = str(given.get("served_model_name") or doc.get("served_model_name") or
               _serve_flag(serve_text, "served-model-name"))
    try:
        port = int(port_text) if port_text else 0
    except ValueError as err:
        raise KimiDeployError(f"release {doc.get('id', '?')} names port {port_text!r}, not a number") from err
    return {"host": host, "port": port, "served_model_name": name}


def model_link(root: str | Path, model_dir: str | Path) -> str:
    """Target of a release's ``model`` link: relative inside ``<root>/shared/models``, else absolute.

    Weights served in place (``kimi_weights_path_mode: in_place``) live outside the deploy root;
    a relative ``../../shared/models/<name>`` link to them would dangle.
    """
    model = Path(os.path.normpath(model_dir))
    store = Path(os.path.normpath(Path(root) / "shared" / "models"))
    if model.parent == store:
        return f"../../shared/models/{model.name}"
    if not model.is_absolute():
        raise KimiDeployError(f"the model directory {model_dir!r} must be an absolute path")
    return str(model)
