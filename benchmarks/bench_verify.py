#!/usr/bin/env python
"""Benchmark kimi_weights_verify's hashing against sha256sum, and a cached re-verify against the first.

    .venv/bin/python benchmarks/bench_verify.py [--total-gib 2.5] [--files 10] [--workers N] [--cold]

Builds a model directory in a temporary folder (the tiny model's config and tokenizer, plus
``--files`` safetensors shards of random bytes totalling ``--total-gib``), then in one run times:

1. ``sha256sum`` over every file, one process (what an operator runs by hand);
2. ``sha256sum`` with ``xargs -P <workers>`` (the same parallelism the verifier uses);
   ``openssl dgst -sha256`` with ``xargs -P <workers>``: Debian 12's coreutils sha256sum is not
   built with OpenSSL (no SHA-NI), so this is the like-for-like baseline for the hash itself;
3. ``verify_model`` with that sha256sum output as the expected manifest (index, headers, tokenizer,
   parallel sha256), with an empty digest cache;
4. ``verify_model`` again on the unchanged tree (the digest cache answers from ``stat``).

``--cold`` drops the page cache (root only) before each of 1-3, so the numbers include disk reads;
without it the files are in the page cache and the numbers measure hashing. The folder is deleted
at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "plugins" / "module_utils"))
from kimi_deploy.core.safetensors_format import write_file
from kimi_deploy.io.weights_verify import parse_sha256sum, verify_model

_CHUNK = 64 * 1024 * 1024


def build_model(root: Path, total_bytes: int, files: int) -> list[str]:
    subprocess.run([sys.executable, str(REPO_ROOT / "tools/build_tiny_model.py"), "--out", str(root)],
                   check=True, capture_output=True)
    (root / "model.safetensors").unlink()
    per_file = total_bytes // files
    weight_map = {}
    names = []
    for i in range(files):
        name = f"model-{i + 1:05d}-of-{files:06d}.safetensors"
        tensors = {f"bench.layers.{i}.weight": ("U8", (per_file,), os.urandom(per_file))}
        write_file(root / name, tensors, {"format": "pt"})
        weight_map[f"bench.layers.{i}.weight"] = name
        names.append(name)
    (root / "model.safetensors.index.json").write_text(json.dumps({"metadata": {}, "weight_map": weight_map}))
    return sorted(p.name for p in root.iterdir() if p.is_file())


def drop_caches() -> None:
    os.sync()
    Path("/proc/sys/vm/drop_caches").write_text("3\n")


def timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main(argv: list[str] | None = None) -> int:  # noqa: C901, PLR0915 - a benchmark run: set up, measure, report, in order
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total-gib", type=float, default=2.5)
    parser.add_argument("--files", type=int, default=10)
    parser.add_argument("--workers", type=int, default=min(8, os.cpu_count() or 1))
    parser.add_argument("--dir", type=Path, default=None, help="parent of the temporary folder")
    parser.add_argument("--cold", action="store_true", help="drop the page cache before each full read (root)")
    args = parser.parse_args(argv)
    if args.total_gib < 2.0:
        parser.error("use at least 2 GiB: smaller sets measure start-up costs, not hashing")

    tmp = Path(tempfile.mkdtemp(prefix="kimi-bench-verify-", dir=args.dir))
    try:
        model = tmp / "model"
        total = int(args.total_gib * 1024**3)
        t_build, names = timed(lambda: build_model(model, total, args.files))
        size = sum((model / n).stat().st_size for n in names)
        print(f"model: {len(names)} files, {size / 1024**3:.2f} GiB in {model} (built in {t_build:.1f} s)")
        print(f"host: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
              f"{ssl.OPENSSL_VERSION}, workers={args.workers}, page cache {'dropped' if args.cold else 'warm'}")

        def sha256sum_serial() -> str:
            return subprocess.run(["sha256sum", *names], cwd=model, capture_output=True, text=True,
                                  check=True).stdout

        def sha256sum_parallel() -> str:
            return subprocess.run(["xargs", "-0", "-n", "1", "-P", str(args.workers), "sha256sum"], cwd=model,
                                  input="\0".join(names), capture_output=True, text=True, check=True).stdout

        def openssl_parallel() -> str:
            return subprocess.run(["xargs", "-0", "-n", "1", "-P", str(args.workers), "openssl", "dgst",
                                   "-sha256", "-r"], cwd=model, input="\0".join(names), capture_output=True,
                                  text=True, check=True).stdout

        def first_verify():
            return verify_model(model, expected=expected, workers=args.workers, use_cache=True)

        if args.cold:
            drop_caches()
        t_serial, sums = timed(sha256sum_serial)
        expected = parse_sha256sum(sums, source="sha256sum output")
        if args.cold:
            drop_caches()
        t_parallel, sums_p = timed(sha256sum_parallel)
        assert parse_sha256sum(sums_p) == expected, "parallel sha256sum disagrees with serial"
        if args.cold:
            drop_caches()
        t_openssl, sums_o = timed(openssl_parallel)
        assert parse_sha256sum(sums_o) == expected, "openssl disagrees with sha256sum"
        if args.cold:
            drop_caches()
        t_first, first = timed(first_verify)
        if not first.ok:
            raise SystemExit(f"verify failed: {first.failed}")
        t_cached, cached = timed(first_verify)
        if not cached.ok or cached.hashed_bytes:
            raise SystemExit(f"cached verify hashed {cached.hashed_bytes} bytes or failed: {cached.failed}")

        def rate(seconds: float) -> float:
            return size / seconds / 1024**2

        print(f"{'run':44s} {'seconds':>9s} {'MiB/s':>9s}")
        rows = [("sha256sum, one process", t_serial), (f"sha256sum, xargs -P {args.workers}", t_parallel),
                (f"openssl dgst -sha256, xargs -P {args.workers}", t_openssl),
                (f"verify_model, first (sha256, {args.workers} threads)", t_first)]
        for label, seconds in rows:
            print(f"{label:44s} {seconds:9.2f} {rate(seconds):9.0f}")
        print(f"{'verify_model, unchanged tree (cache)':44s} {t_cached:9.4f} {'-':>9s}")
        print(f"verify throughput / sha256sum (one process):  {t_serial / t_first:.2f}x")
        print(f"verify throughput / sha256sum (xargs -P {args.workers}):   {t_parallel / t_first:.2f}x")
        print(f"verify throughput / openssl (xargs -P {args.workers}):     {t_openssl / t_first:.2f}x")
        print(f"cached re-verify time / first verify time:    {t_cached / t_first:.5f} "
              f"({t_first / t_cached:.0f}x faster; {len(cached.cached)} files from the cache)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
