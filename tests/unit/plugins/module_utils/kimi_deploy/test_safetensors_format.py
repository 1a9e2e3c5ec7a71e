import struct

import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.safetensors_format import read_header, tensor_nbytes, write_file


def _write(path, tensors):
    return write_file(path, {n: (d, s, b"\x01" * tensor_nbytes(d, s)) for n, (d, s) in tensors.items()})


def test_round_trip_header_and_size(tmp_path):
    path = tmp_path / "a.safetensors"
    size = _write(path, {"w": ("BF16", (4, 3)), "b": ("F32", (3,)), "q": ("U8", (5,))})
    header = read_header(path)
    assert set(header.tensors) == {"w", "b", "q"}
    assert header.tensors["w"].nbytes == 24
    assert header.expected_file_size == size
    assert header.header_len % 8 == 0


def test_sub_byte_dtype_rounds_up():
    assert tensor_nbytes("F4", (3,)) == 2
    assert tensor_nbytes("BF16", (2, 2)) == 8


def test_offsets_inconsistent_with_dtype_are_refused(tmp_path):
    raw = b'{"w":{"dtype":"F32","shape":[4],"data_offsets":[0,8]}}'
    path = tmp_path / "bad.safetensors"
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + b"\0" * 8)
    with pytest.raises(KimiDeployError, match="16 bytes"):
        read_header(path)


def test_lfs_pointer_is_not_a_header(tmp_path):
    path = tmp_path / "pointer.safetensors"
    path.write_text("version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n")
    with pytest.raises(KimiDeployError, match="not a safetensors file"):
        read_header(path)


def test_truncated_inside_header(tmp_path):
    path = tmp_path / "t.safetensors"
    _write(path, {"w": ("BF16", (4,))})
    path.write_bytes(path.read_bytes()[:20])
    with pytest.raises(KimiDeployError, match="truncated"):
        read_header(path)
