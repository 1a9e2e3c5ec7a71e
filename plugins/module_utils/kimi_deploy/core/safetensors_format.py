"""The safetensors file format: read a header, write a file, without torch or numpy.

A safetensors file is an 8-byte little-endian header length N, N bytes of JSON, then the raw tensor
bytes. The JSON maps each tensor name to ``{"dtype", "shape", "data_offsets": [begin, end]}``
relative to the end of the header, plus an optional ``__metadata__`` map of strings.

Reading only the header is what lets a verifier catch a truncated or foreign shard, and a planner
count the bytes each GPU will hold, without reading 15 GB of weights.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .errors import KimiDeployError

# Bytes per element, by safetensors dtype name. Sub-byte formats (F4, F6_*) are packed by the
# writer into U8 tensors by the checkpoints we meet (MXFP4 ``*_blocks`` / ``*_scales``), so they
# are listed for completeness with their bit widths handled in ``tensor_nbytes``.
DTYPE_BITS: dict[str, int] = {
    "BOOL": 8,
    "U8": 8,
    "I8": 8,
    "F8_E4M3": 8,
    "F8_E5M2": 8,
    "F8_E8M0": 8,
    "I16": 16,
    "U16": 16,
    "F16": 16,
    "BF16": 16,
    "I32": 32,
    "U32": 32,
    "F32": 32,
    "I64": 64,
    "U64": 64,
    "F64": 64,
    "F4": 4,
    "F6_E2M3": 6,
    "F6_E3M2": 6,
}

# A header over this size is not a safetensors header: it is almost always a git-lfs pointer or
# an HTML error page saved under a .safetensors name (the Rust loader calls this HeaderTooLarge).
MAX_HEADER_BYTES = 100 * 1024 * 1024


@dataclass(frozen=True)
class TensorInfo:
    name: str
    dtype: str
    shape: tuple[int, ...]
    begin: int
    end: int

    @property
    def nbytes(self) -> int:
        return self.end - self.begin


@dataclass(frozen=True)
class SafetensorsHeader:
    header_len: int
    tensors: dict[str, TensorInfo]
    metadata: dict[str, str]

    @property
    def data_start(self) -> int:
        return 8 + self.header_len

    @property
    def data_len(self) -> int:
        return max((t.end for t in self.tensors.values()), default=0)

    @property
    def expected_file_size(self) -> int:
        return self.data_start + self.data_len


def tensor_nbytes(dtype: str, shape: Iterable[int]) -> int:
    """Bytes a tensor of ``dtype`` and ``shape`` occupies on disk."""
    if dtype not in DTYPE_BITS:
        raise KimiDeployError(f"unknown safetensors dtype {dtype!r}")
    count = 1
    for dim in shape:
        count *= int(dim)
    bits = DTYPE_BITS[dtype] * count
    return (bits + 7) // 8


def parse_header_bytes(raw: bytes, *, source: str = "<bytes>") -> SafetensorsHeader:
    """Parse the JSON header (without the 8-byte length prefix) and check its internal consistency."""
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise KimiDeployError(f"{source}: safetensors header is not valid JSON ({err})") from err
    if not isinstance(doc, dict):
        raise KimiDeployError(f"{source}: safetensors header is not a JSON object")
    metadata = doc.pop("__metadata__", None) or {}
    tensors: dict[str, TensorInfo] = {}
    for name, entry in doc.items():
        try:
            dtype = entry["dtype"]
            shape = tuple(int(d) for d in entry["shape"])
            begin, end = (int(x) for x in entry["data_offsets"])
        except (TypeError, KeyError, ValueError) as err:
            raise KimiDeployError(f"{source}: tensor {name!r} has a malformed header entry") from err
        if end < begin:
            raise KimiDeployError(f"{source}: tensor {name!r} ends before it begins")
        want = tensor_nbytes(dtype, shape)
        if end - begin != want:
            raise KimiDeployError(
                f"{source}: tensor {name!r} is {dtype}{list(shape)} ({want} bytes) but its data "
                f"offsets span {end - begin} bytes"
            )
        tensors[name] = TensorInfo(name, dtype, shape, begin, end)
    _check_contiguous(tensors, source)
    return SafetensorsHeader(len(raw), tensors, {str(k): str(v) for k, v in metadata.items()})


def _check_contiguous(tensors: Mapping[str, TensorInfo], source: str) -> None:
    cursor = 0
    for info in sorted(tensors.values(), key=lambda t: (t.begin, t.end)):
        if info.begin != cursor:
            kind = "overlaps the previous tensor" if info.begin < cursor else "leaves a gap before it"
            raise KimiDeployError(f"{source}: tensor {info.name!r} {kind} (offset {info.begin})")
        cursor = info.end


def read_header(path: str | Path) -> SafetensorsHeader:
    """Read and check the header of the safetensors file at ``path`` (reads only the header)."""
    path = Path(path)
    with path.open("rb") as fh:
        prefix = fh.read(8)
        if len(prefix) < 8:
            raise KimiDeployError(f"{path}: file is {len(prefix)} bytes, too short for safetensors")
        (header_len,) = struct.unpack("<Q", prefix)
        if header_len > MAX_HEADER_BYTES:
            raise KimiDeployError(
                f"{path}: header length {header_len} is implausible: this is not a safetensors file "
                "(often a git-lfs pointer or an HTML error page saved in its place); fetch it again"
            )
        raw = fh.read(header_len)
    if len(raw) < header_len:
        raise KimiDeployError(f"{path}: file ends inside its header; the file is truncated")
    return parse_header_bytes(raw, source=str(path))


def encode_header(tensors: Mapping[str, tuple[str, tuple[int, ...]]],
                  metadata: Mapping[str, str] | None = None) -> tuple[bytes, dict[str, tuple[int, int]]]:
    """Lay out ``tensors`` (name -> (dtype, shape)) in name order; return the file prefix and offsets.

    The prefix is the 8-byte length plus the JSON header padded with spaces to a multiple of 8,
    as the reference implementation writes it.
    """
    doc: dict[str, object] = {}
    if metadata:
        doc["__metadata__"] = dict(metadata)
    offsets: dict[str, tuple[int, int]] = {}
    cursor = 0
    for name in sorted(tensors):
        dtype, shape = tensors[name]
        size = tensor_nbytes(dtype, shape)
        offsets[name] = (cursor, cursor + size)
        doc[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [cursor, cursor + size]}
        cursor += size
    raw = json.dumps(doc, separators=(",", ":")).encode("utf-8")
    raw += b" " * (-len(raw) % 8)
    return struct.pack("<Q", len(raw)) + raw, offsets


def write_file(path: str | Path, tensors: Mapping[str, tuple[str, tuple[int, ...], bytes]],
               metadata: Mapping[str, str] | None = None) -> int:
    """Write a safetensors file from name -> (dtype, shape, raw little-endian bytes); return its size."""
    layout = {name: (dtype, tuple(shape)) for name, (dtype, shape, _unused) in tensors.items()}
    prefix, offsets = encode_header(layout, metadata)
    path = Path(path)
    with path.open("wb") as fh:
        fh.write(prefix)
        for name in sorted(tensors):
            data = tensors[name][2]
            begin, end = offsets[name]
            if len(data) != end - begin:
                raise KimiDeployError(f"tensor {name!r}: {len(data)} bytes given, {end - begin} expected")
            fh.write(data)
    return path.stat().st_size
