#!/usr/bin/env python
"""Accuracy of diagnose() on the real-failure corpus: held-out part, training part, and k-fold over training.

    .venv/bin/python benchmarks/bench_diagnose_corpus.py [--folds 5] [--misses] [--heldout-misses] [--json]

The corpus (tests/fixtures/vllm-failure-corpus/) was committed with its held-out third and that third's
sha256 before any rule was written or changed; this script checks the hash first, so a changed held-out
entry cannot slip through. `--training-only` leaves the held-out part unscored (use it while tuning).
Entries collected later (training-additions.jsonl) join the training part only, and may not repeat a
corpus entry's id or source. Rules are tuned on the training part only (`--misses` lists its misses);
`--heldout-misses` lists the held-out misses for the final report, not for tuning.

Scored per entry: phase (load/startup/runtime/none/unknown) equal to the label, and cause_class equal to the
label's cause. k-fold: the training part split into k folds by the sha256 of the id; each fold's accuracy is
printed with the mean and spread. The rules have no fitted parameters, so the folds measure how evenly the
rules cover the training part, not a trained model's generalisation (that is the held-out figure).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "plugins" / "module_utils"))
from kimi_deploy.diagnose import diagnose

CORPUS = REPO_ROOT / "tests" / "fixtures" / "vllm-failure-corpus"
ADDITIONS = "training-additions.jsonl"  # collected after the split: training only
TARGET_PHASE, TARGET_CAUSE = 0.90, 0.80


def load_corpus() -> tuple[list[dict], set[str]]:
    """All entries (corpus.jsonl, then training-additions.jsonl) and the held-out ids.

    Entries collected after the split live in training-additions.jsonl: they are training data by
    construction and never change the held-out part or its hash.
    """
    raw_lines = (CORPUS / "corpus.jsonl").read_text().splitlines()
    entries = [json.loads(line) for line in raw_lines]
    by_id = {entry["id"]: line for entry, line in zip(entries, raw_lines, strict=True)}
    held = (CORPUS / "heldout-ids.txt").read_text().split()
    expected = (CORPUS / "heldout.sha256").read_text().split()[0]
    digest = hashlib.sha256("".join(by_id[i] + "\n" for i in held).encode()).hexdigest()
    if digest != expected:
        raise SystemExit(f"held-out entries changed: sha256 {digest} != committed {expected}")
    additions = [json.loads(line) for line in (CORPUS / ADDITIONS).read_text().splitlines() if line.strip()]
    clash = {e["id"] for e in additions} & set(by_id) or {e["source"] for e in additions} & {
        e["source"] for e in entries}
    if clash:
        raise SystemExit(f"training additions repeat corpus ids or sources: {sorted(clash)}")
    return entries + additions, set(held)


def score(entries: list[dict]) -> dict:
    rows = []
    for entry in entries:
        result = diagnose(entry["log"])
        rows.append({"id": entry["id"], "phase": entry["phase"], "cause": entry["cause"],
                     "got_phase": result["phase"], "got_cause": result["cause_class"], "rule": result["rule"],
                     "phase_ok": result["phase"] == entry["phase"],
                     "cause_ok": result["cause_class"] == entry["cause"]})
    n = len(rows) or 1
    return {"n": len(rows), "phase": sum(r["phase_ok"] for r in rows) / n,
            "cause": sum(r["cause_ok"] for r in rows) / n, "rows": rows}


def fold_of(entry_id: str, folds: int) -> int:
    return int(hashlib.sha256(entry_id.encode()).hexdigest(), 16) % folds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--misses", action="store_true", help="list the training part's misses")
    parser.add_argument("--heldout-misses", action="store_true", help="list the held-out misses (report only)")
    parser.add_argument("--training-only", action="store_true",
                        help="score the training part and its folds only, not the held-out part (for tuning)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    entries, held = load_corpus()
    started = time.perf_counter()
    heldout = score([] if args.training_only else [e for e in entries if e["id"] in held])
    train_entries = [e for e in entries if e["id"] not in held]
    train = score(train_entries)
    folds = [score([e for e in train_entries if fold_of(e["id"], args.folds) == k]) for k in range(args.folds)]
    seconds = time.perf_counter() - started
    healthy_misread = [r["id"] for part in (heldout, train) for r in part["rows"]
                       if r["cause"] == "healthy" and r["got_cause"] != "healthy"]
    if args.json:
        print(json.dumps({"heldout": {k: heldout[k] for k in ("n", "phase", "cause")},
                          "train": {k: train[k] for k in ("n", "phase", "cause")},
                          "folds": [{k: f[k] for k in ("n", "phase", "cause")} for f in folds],
                          "healthy_misread": healthy_misread, "seconds": round(seconds, 3)}, indent=2))
        return 0
    print(f"corpus: {len(entries)} logs, held-out {heldout['n']}, training {train['n']} ({seconds:.2f} s)")
    if not args.training_only:
        print(f"held-out  phase {heldout['phase']:6.1%} (target {TARGET_PHASE:.0%})   "
              f"cause {heldout['cause']:6.1%} (target {TARGET_CAUSE:.0%})")
    print(f"training  phase {train['phase']:6.1%}                  cause {train['cause']:6.1%}")
    phases = [f["phase"] for f in folds]
    causes = [f["cause"] for f in folds]
    print(f"{args.folds}-fold over training: phase {sum(phases) / len(phases):.1%} "
          f"[{min(phases):.1%}..{max(phases):.1%}], cause {sum(causes) / len(causes):.1%} "
          f"[{min(causes):.1%}..{max(causes):.1%}]")
    for k, fold in enumerate(folds):
        print(f"  fold {k}: n={fold['n']:3d} phase {fold['phase']:6.1%} cause {fold['cause']:6.1%}")
    print(f"healthy logs read as a failure: {len(healthy_misread)} {healthy_misread or ''}")
    shown = ([("training", train)] if args.misses else []) + ([("held-out", heldout)] if args.heldout_misses else [])
    for name, part in shown:
        print(f"\n{name} misses:")
        for r in part["rows"]:
            if not (r["phase_ok"] and r["cause_ok"]):
                print(f"  {r['id']}: phase {r['phase']}->{r['got_phase']}  cause {r['cause']}->{r['got_cause']}"
                      f"  ({r['rule']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
