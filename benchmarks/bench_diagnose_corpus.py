#!/usr/bin/env python
"""Accuracy of diagnose() on the real-failure corpus: the two-hundred-and-second held-out part, the training part,
k-fold over it.

    .venv/bin/python benchmarks/bench_diagnose_corpus.py [--folds 5] [--misses] [--heldout-misses] [--json]

The held-out part is twohundredsecond-heldout.jsonl: logs collected on 2026-12-08 (two-hundred-and-second round) and
split off (a stratified third, fixed seed) before any rule saw them; its sha256 (twohundredsecond-heldout.sha256) was
committed with it, and this script checks it first, so a changed held-out entry cannot slip through. Everything else
is training: corpus.jsonl (its first held-out third, seen-heldout-ids.txt,
was read while rules were written), training-additions.jsonl, fresh-training.jsonl, fresh-heldout.jsonl (the second
round's held-out part, measured once and listed in the README, so training now), third-training.jsonl,
third-heldout.jsonl and fourth-training.jsonl, fourth-heldout.jsonl (the third and fourth rounds' held-out parts, each
measured once and listed in the README, so training now), fifth-training.jsonl, fifth-heldout.jsonl,
sixth-training.jsonl, sixth-heldout.jsonl, seventh-training.jsonl, seventh-heldout.jsonl, eighth-training.jsonl,
eighth-heldout.jsonl, ninth-training.jsonl, ninth-heldout.jsonl, tenth-training.jsonl, tenth-heldout.jsonl,
eleventh-training.jsonl, eleventh-heldout.jsonl, twelfth-training.jsonl, twelfth-heldout.jsonl,
thirteenth-training.jsonl, thirteenth-heldout.jsonl, fourteenth-training.jsonl, fourteenth-heldout.jsonl,
fifteenth-training.jsonl, fifteenth-heldout.jsonl, sixteenth-training.jsonl, sixteenth-heldout.jsonl,
seventeenth-training.jsonl, seventeenth-heldout.jsonl, eighteenth-training.jsonl, eighteenth-heldout.jsonl,
nineteenth-training.jsonl, nineteenth-heldout.jsonl, twentieth-training.jsonl, twentieth-heldout.jsonl,
twentyfirst-training.jsonl, twentyfirst-heldout.jsonl, twentysecond-training.jsonl, twentysecond-heldout.jsonl,
twentythird-training.jsonl, twentythird-heldout.jsonl, twentyfourth-training.jsonl, twentyfourth-heldout.jsonl,
twentyfifth-training.jsonl, twentyfifth-heldout.jsonl, twentysixth-training.jsonl, twentysixth-heldout.jsonl,
twentyseventh-training.jsonl, twentyseventh-heldout.jsonl, twentyeighth-training.jsonl, twentyeighth-heldout.jsonl,
twentyninth-training.jsonl, twentyninth-heldout.jsonl, thirtieth-training.jsonl, thirtieth-heldout.jsonl,
thirtyfirst-training.jsonl, thirtyfirst-heldout.jsonl, thirtysecond-training.jsonl, thirtysecond-heldout.jsonl,
thirtythird-training.jsonl, thirtythird-heldout.jsonl, thirtyfourth-training.jsonl, thirtyfourth-heldout.jsonl,
thirtyfifth-training.jsonl, thirtyfifth-heldout.jsonl, thirtysixth-training.jsonl, thirtysixth-heldout.jsonl,
thirtyseventh-training.jsonl, thirtyseventh-heldout.jsonl, thirtyeighth-training.jsonl, thirtyeighth-heldout.jsonl,
thirtyninth-training.jsonl, thirtyninth-heldout.jsonl, fortieth-training.jsonl, fortieth-heldout.jsonl,
fortyfirst-training.jsonl, fortyfirst-heldout.jsonl, fortysecond-training.jsonl, fortysecond-heldout.jsonl,
fortythird-training.jsonl, fortythird-heldout.jsonl, fortyfourth-training.jsonl, fortyfourth-heldout.jsonl,
fortyfifth-training.jsonl, fortyfifth-heldout.jsonl, fortysixth-training.jsonl, fortysixth-heldout.jsonl,
fortyseventh-training.jsonl, fortyseventh-heldout.jsonl, fortyeighth-training.jsonl, fortyeighth-heldout.jsonl,
fortyninth-training.jsonl, fortyninth-heldout.jsonl, fiftieth-training.jsonl, fiftieth-heldout.jsonl,
fiftyfirst-training.jsonl, fiftyfirst-heldout.jsonl, fiftysecond-training.jsonl, fiftysecond-heldout.jsonl,
fiftythird-training.jsonl, fiftythird-heldout.jsonl, fiftyfourth-training.jsonl, fiftyfourth-heldout.jsonl,
fiftyfifth-training.jsonl, fiftyfifth-heldout.jsonl, fiftysixth-training.jsonl, fiftysixth-heldout.jsonl,
fiftyseventh-training.jsonl, fiftyseventh-heldout.jsonl, fiftyeighth-training.jsonl, fiftyeighth-heldout.jsonl,
fiftyninth-training.jsonl, fiftyninth-heldout.jsonl, sixtieth-training.jsonl, sixtieth-heldout.jsonl,
sixtyfirst-training.jsonl, sixtyfirst-heldout.jsonl, sixtysecond-training.jsonl, sixtysecond-heldout.jsonl,
sixtythird-training.jsonl, sixtythird-heldout.jsonl, sixtyfourth-training.jsonl, sixtyfourth-heldout.jsonl,
sixtyfifth-training.jsonl, sixtyfifth-heldout.jsonl, sixtysixth-training.jsonl, sixtysixth-heldout.jsonl,
sixtyseventh-training.jsonl, sixtyseventh-heldout.jsonl, sixtyeighth-training.jsonl, sixtyeighth-heldout.jsonl,
sixtyninth-training.jsonl, sixtyninth-heldout.jsonl, seventieth-training.jsonl, seventieth-heldout.jsonl,
seventyfirst-training.jsonl, seventyfirst-heldout.jsonl, seventysecond-training.jsonl, seventysecond-heldout.jsonl,
seventythird-training.jsonl, seventythird-heldout.jsonl, seventyfourth-training.jsonl, seventyfourth-heldout.jsonl,
seventyfifth-training.jsonl, seventyfifth-heldout.jsonl, seventysixth-training.jsonl, seventysixth-heldout.jsonl,
seventyseventh-training.jsonl, seventyseventh-heldout.jsonl, seventyeighth-training.jsonl, seventyeighth-heldout.jsonl,
seventyninth-training.jsonl, seventyninth-heldout.jsonl, eightieth-training.jsonl, eightieth-heldout.jsonl,
eightyfirst-training.jsonl, eightyfirst-heldout.jsonl, eightysecond-training.jsonl, eightysecond-heldout.jsonl,
eightythird-training.jsonl, eightythird-heldout.jsonl, eightyfourth-training.jsonl, eightyfourth-heldout.jsonl,
eightyfifth-training.jsonl, eightyfifth-heldout.jsonl, eightysixth-training.jsonl, eightysixth-heldout.jsonl,
eightyseventh-training.jsonl, eightyseventh-heldout.jsonl, eightyeighth-training.jsonl, eightyeighth-heldout.jsonl,
eightyninth-training.jsonl, eightyninth-heldout.jsonl, ninetieth-training.jsonl, ninetieth-heldout.jsonl,
ninetyfirst-training.jsonl, ninetyfirst-heldout.jsonl, ninetysecond-training.jsonl, ninetysecond-heldout.jsonl,
ninetythird-training.jsonl, ninetythird-heldout.jsonl, ninetyfourth-training.jsonl, ninetyfourth-heldout.jsonl,
ninetyfifth-training.jsonl, ninetyfifth-heldout.jsonl, ninetysixth-training.jsonl, ninetysixth-heldout.jsonl,
ninetyseventh-training.jsonl, ninetyseventh-heldout.jsonl, ninetyeighth-training.jsonl, ninetyeighth-heldout.jsonl,
ninetyninth-training.jsonl, ninetyninth-heldout.jsonl, hundredth-training.jsonl, hundredth-heldout.jsonl,
hundredfirst-training.jsonl, hundredfirst-heldout.jsonl, hundredsecond-training.jsonl, hundredsecond-heldout.jsonl,
hundredthird-training.jsonl, hundredthird-heldout.jsonl, hundredfourth-training.jsonl, hundredfourth-heldout.jsonl,
hundredfifth-training.jsonl, hundredfifth-heldout.jsonl, hundredsixth-training.jsonl, hundredsixth-heldout.jsonl,
hundredseventh-training.jsonl, hundredseventh-heldout.jsonl, hundredeighth-training.jsonl, hundredeighth-heldout.jsonl,
hundredninth-training.jsonl, hundredninth-heldout.jsonl, hundredtenth-training.jsonl, hundredtenth-heldout.jsonl,
hundredeleventh-training.jsonl, hundredeleventh-heldout.jsonl, hundredtwelfth-training.jsonl,
hundredtwelfth-heldout.jsonl, hundredthirteenth-training.jsonl, hundredthirteenth-heldout.jsonl,
hundredfourteenth-training.jsonl, hundredfourteenth-heldout.jsonl, hundredfifteenth-training.jsonl,
hundredfifteenth-heldout.jsonl, hundredsixteenth-training.jsonl, hundredsixteenth-heldout.jsonl,
hundredseventeenth-training.jsonl, hundredseventeenth-heldout.jsonl, hundredeighteenth-training.jsonl,
hundredeighteenth-heldout.jsonl, hundrednineteenth-training.jsonl, hundrednineteenth-heldout.jsonl,
hundredtwentieth-training.jsonl, hundredtwentieth-heldout.jsonl, hundredtwentyfirst-training.jsonl,
hundredtwentyfirst-heldout.jsonl, hundredtwentysecond-training.jsonl, hundredtwentysecond-heldout.jsonl,
hundredtwentythird-training.jsonl, hundredtwentythird-heldout.jsonl, hundredtwentyfourth-training.jsonl,
hundredtwentyfourth-heldout.jsonl, hundredtwentyfifth-training.jsonl, hundredtwentyfifth-heldout.jsonl,
hundredtwentysixth-training.jsonl, hundredtwentysixth-heldout.jsonl, hundredtwentyseventh-training.jsonl,
hundredtwentyseventh-heldout.jsonl, hundredtwentyeighth-training.jsonl, hundredtwentyeighth-heldout.jsonl,
hundredtwentyninth-training.jsonl, hundredtwentyninth-heldout.jsonl, hundredthirtieth-training.jsonl,
hundredthirtieth-heldout.jsonl, hundredthirtyfirst-training.jsonl, hundredthirtyfirst-heldout.jsonl,
hundredthirtysecond-training.jsonl, hundredthirtysecond-heldout.jsonl, hundredthirtythird-training.jsonl,
hundredthirtythird-heldout.jsonl, hundredthirtyfourth-training.jsonl, hundredthirtyfourth-heldout.jsonl,
hundredthirtyfifth-training.jsonl, hundredthirtyfifth-heldout.jsonl, hundredthirtysixth-training.jsonl,
hundredthirtysixth-heldout.jsonl, hundredthirtyseventh-training.jsonl, hundredthirtyseventh-heldout.jsonl,
hundredthirtyeighth-training.jsonl, hundredthirtyeighth-heldout.jsonl, hundredthirtyninth-training.jsonl,
hundredthirtyninth-heldout.jsonl, hundredfortieth-training.jsonl, hundredfortieth-heldout.jsonl,
hundredfortyfirst-training.jsonl, hundredfortyfirst-heldout.jsonl, hundredfortysecond-training.jsonl,
hundredfortysecond-heldout.jsonl, hundredfortythird-training.jsonl, hundredfortythird-heldout.jsonl,
hundredfortyfourth-training.jsonl, hundredfortyfourth-heldout.jsonl, hundredfortyfifth-training.jsonl,
hundredfortyfifth-heldout.jsonl, hundredfortysixth-training.jsonl, hundredfortysixth-heldout.jsonl,
hundredfortyseventh-training.jsonl, hundredfortyseventh-heldout.jsonl, hundredfortyeighth-training.jsonl,
hundredfortyeighth-heldout.jsonl, hundredfortyninth-training.jsonl, hundredfortyninth-heldout.jsonl,
hundredfiftieth-training.jsonl, hundredfiftieth-heldout.jsonl, hundredfiftyfirst-training.jsonl,
hundredfiftyfirst-heldout.jsonl, hundredfiftysecond-training.jsonl, hundredfiftysecond-heldout.jsonl,
hundredfiftythird-training.jsonl, hundredfiftythird-heldout.jsonl, hundredfiftyfourth-training.jsonl,
hundredfiftyfourth-heldout.jsonl, hundredfiftyfifth-training.jsonl, hundredfiftyfifth-heldout.jsonl,
hundredfiftysixth-training.jsonl, hundredfiftysixth-heldout.jsonl, hundredfiftyseventh-training.jsonl,
hundredfiftyseventh-heldout.jsonl, hundredfiftyeighth-training.jsonl, hundredfiftyeighth-heldout.jsonl,
hundredfiftyninth-training.jsonl, hundredfiftyninth-heldout.jsonl, hundredsixtieth-training.jsonl,
hundredsixtieth-heldout.jsonl, hundredsixtyfirst-training.jsonl, hundredsixtyfirst-heldout.jsonl,
hundredsixtysecond-training.jsonl, hundredsixtysecond-heldout.jsonl, hundredsixtythird-training.jsonl,
hundredsixtythird-heldout.jsonl, hundredsixtyfourth-training.jsonl, hundredsixtyfourth-heldout.jsonl,
hundredsixtyfifth-training.jsonl, hundredsixtyfifth-heldout.jsonl, hundredsixtysixth-training.jsonl,
hundredsixtysixth-heldout.jsonl, hundredsixtyseventh-training.jsonl, hundredsixtyseventh-heldout.jsonl,
hundredsixtyeighth-training.jsonl, hundredsixtyeighth-heldout.jsonl, hundredsixtyninth-training.jsonl,
hundredsixtyninth-heldout.jsonl, hundredseventieth-training.jsonl, hundredseventieth-heldout.jsonl,
hundredseventyfirst-training.jsonl, hundredseventyfirst-heldout.jsonl, hundredseventysecond-training.jsonl,
hundredseventysecond-heldout.jsonl, hundredseventythird-training.jsonl, hundredseventythird-heldout.jsonl,
hundredseventyfourth-training.jsonl, hundredseventyfourth-heldout.jsonl, hundredseventyfifth-training.jsonl,
hundredseventyfifth-heldout.jsonl, hundredseventysixth-training.jsonl, hundredseventysixth-heldout.jsonl,
hundredseventyseventh-training.jsonl, hundredseventyseventh-heldout.jsonl, hundredseventyeighth-training.jsonl,
hundredseventyeighth-heldout.jsonl, hundredseventyninth-training.jsonl, hundredseventyninth-heldout.jsonl,
hundredeightieth-training.jsonl, hundredeightieth-heldout.jsonl, hundredeightyfirst-training.jsonl,
hundredeightyfirst-heldout.jsonl, hundredeightysecond-training.jsonl, hundredeightysecond-heldout.jsonl,
hundredeightythird-training.jsonl, hundredeightythird-heldout.jsonl, hundredeightyfourth-training.jsonl,
hundredeightyfourth-heldout.jsonl, hundredeightyfifth-training.jsonl, hundredeightyfifth-heldout.jsonl,
hundredeightysixth-training.jsonl, hundredeightysixth-heldout.jsonl, hundredeightyseventh-training.jsonl,
hundredeightyseventh-heldout.jsonl, hundredeightyeighth-training.jsonl, hundredeightyeighth-heldout.jsonl,
hundredeightyninth-training.jsonl, hundredeightyninth-heldout.jsonl, hundredninetieth-training.jsonl,
hundredninetieth-heldout.jsonl, hundredninetyfirst-training.jsonl, hundredninetyfirst-heldout.jsonl,
hundredninetysecond-training.jsonl, hundredninetysecond-heldout.jsonl, hundredninetythird-training.jsonl,
hundredninetythird-heldout.jsonl, hundredninetyfourth-training.jsonl, hundredninetyfourth-heldout.jsonl,
hundredninetyfifth-training.jsonl, hundredninetyfifth-heldout.jsonl, hundredninetysixth-training.jsonl,
hundredninetysixth-heldout.jsonl, hundredninetyseventh-training.jsonl, hundredninetyseventh-heldout.jsonl,
hundredninetyeighth-training.jsonl, hundredninetyeighth-heldout.jsonl, hundredninetyninth-training.jsonl,
hundredninetyninth-heldout.jsonl, twohundredth-training.jsonl, twohundredth-heldout.jsonl,
twohundredfirst-training.jsonl, twohundredfirst-heldout.jsonl (the fifth to two-hundred-and-first rounds' held-out
parts, likewise) and twohundredsecond-training.jsonl.
The retired held-out parts keep their hash checks, so their history stays verifiable.
No two entries share an id, and no source appears in two files. `--training-only` leaves the held-out part unscored
(use it while tuning); `--misses` lists the training misses; `--heldout-misses` lists the held-out misses for the
final report, not for tuning.

Scored per entry: phase (load/startup/runtime/none/unknown) equal to the label, and cause_class equal to the
label's cause; both are also broken down by labelled phase and by cause family (the README's taxonomy table).
A secondary held-out figure, fixed with the eighth split and kept for the ninth to the two-hundred-and-second, each time
before the held-out part was scored: the same accuracy over the held-out entries whose lines contain the failure, that
is, all but those whose `note` marks them `title-only` (the cause is only in the thread's title or words, not in the
lines).
From the tenth split on, the held-out third is drawn per (labelled phase, title-only mark), so both kinds keep their
share of the held-out part.
k-fold: the training part split into k folds by the sha256 of the id. The rules have no fitted parameters, so
the folds measure how evenly the rules cover the training part; generalisation is the held-out figure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "plugins" / "module_utils"))
from kimi_deploy.core.diagnose import diagnose

CORPUS = REPO_ROOT / "tests" / "fixtures" / "vllm-failure-corpus"
TRAINING_FILES = ("corpus.jsonl", "training-additions.jsonl", "fresh-training.jsonl", "fresh-heldout.jsonl",
                  "third-training.jsonl", "third-heldout.jsonl", "fourth-training.jsonl", "fourth-heldout.jsonl",
                  "fifth-training.jsonl", "fifth-heldout.jsonl", "sixth-training.jsonl", "sixth-heldout.jsonl",
                  "seventh-training.jsonl", "seventh-heldout.jsonl", "eighth-training.jsonl", "eighth-heldout.jsonl",
                  "ninth-training.jsonl", "ninth-heldout.jsonl", "tenth-training.jsonl", "tenth-heldout.jsonl",
                  "eleventh-training.jsonl", "eleventh-heldout.jsonl", "twelfth-training.jsonl",
                  "twelfth-heldout.jsonl", "thirteenth-training.jsonl", "thirteenth-heldout.jsonl",
                  "fourteenth-training.jsonl", "fourteenth-heldout.jsonl", "fifteenth-training.jsonl",
                  "fifteenth-heldout.jsonl", "sixteenth-training.jsonl", "sixteenth-heldout.jsonl",
                  "seventeenth-training.jsonl", "seventeenth-heldout.jsonl", "eighteenth-training.jsonl",
                  "eighteenth-heldout.jsonl", "nineteenth-training.jsonl", "nineteenth-heldout.jsonl",
                  "twentieth-training.jsonl", "twentieth-heldout.jsonl", "twentyfirst-training.jsonl",
                  "twentyfirst-heldout.jsonl", "twentysecond-training.jsonl",
                  "twentysecond-heldout.jsonl", "twentythird-training.jsonl",
                  "twentythird-heldout.jsonl", "twentyfourth-training.jsonl",
                  "twentyfourth-heldout.jsonl", "twentyfifth-training.jsonl",
                  "twentyfifth-heldout.jsonl", "twentysixth-training.jsonl",
                  "twentysixth-heldout.jsonl", "twentyseventh-training.jsonl",
                  "twentyseventh-heldout.jsonl", "twentyeighth-training.jsonl",
                  "twentyeighth-heldout.jsonl", "twentyninth-training.jsonl",
                  "twentyninth-heldout.jsonl", "thirtieth-training.jsonl",
                  "thirtieth-heldout.jsonl", "thirtyfirst-training.jsonl",
                  "thirtyfirst-heldout.jsonl", "thirtysecond-training.jsonl",
                  "thirtysecond-heldout.jsonl", "thirtythird-training.jsonl",
                  "thirtythird-heldout.jsonl", "thirtyfourth-training.jsonl",
                  "thirtyfourth-heldout.jsonl", "thirtyfifth-training.jsonl",
                  "thirtyfifth-heldout.jsonl", "thirtysixth-training.jsonl",
                  "thirtysixth-heldout.jsonl", "thirtyseventh-training.jsonl",
                  "thirtyseventh-heldout.jsonl", "thirtyeighth-training.jsonl",
                  "thirtyeighth-heldout.jsonl", "thirtyninth-training.jsonl",
                  "thirtyninth-heldout.jsonl", "fortieth-training.jsonl",
                  "fortieth-heldout.jsonl", "fortyfirst-training.jsonl",
                  "fortyfirst-heldout.jsonl", "fortysecond-training.jsonl",
                  "fortysecond-heldout.jsonl", "fortythird-training.jsonl",
                  "fortythird-heldout.jsonl", "fortyfourth-training.jsonl",
                  "fortyfourth-heldout.jsonl", "fortyfifth-training.jsonl", "fortyfifth-heldout.jsonl",
                  "fortysixth-training.jsonl", "fortysixth-heldout.jsonl", "fortyseventh-training.jsonl",
                  "fortyseventh-heldout.jsonl", "fortyeighth-training.jsonl", "fortyeighth-heldout.jsonl",
                  "fortyninth-training.jsonl", "fortyninth-heldout.jsonl",
                  "fiftieth-training.jsonl", "fiftieth-heldout.jsonl",
                  "fiftyfirst-training.jsonl", "fiftyfirst-heldout.jsonl",
                  "fiftysecond-training.jsonl", "fiftysecond-heldout.jsonl",
                  "fiftythird-training.jsonl", "fiftythird-heldout.jsonl",
                  "fiftyfourth-training.jsonl", "fiftyfourth-heldout.jsonl",
                  "fiftyfifth-training.jsonl", "fiftyfifth-heldout.jsonl",
                  "fiftysixth-training.jsonl", "fiftysixth-heldout.jsonl", "fiftyseventh-training.jsonl",
                  "fiftyseventh-heldout.jsonl", "fiftyeighth-training.jsonl",
                  "fiftyeighth-heldout.jsonl", "fiftyninth-training.jsonl",
                  "fiftyninth-heldout.jsonl", "sixtieth-training.jsonl",
                  "sixtieth-heldout.jsonl", "sixtyfirst-training.jsonl",
                  "sixtyfirst-heldout.jsonl", "sixtysecond-training.jsonl",
                  "sixtysecond-heldout.jsonl", "sixtythird-training.jsonl",
                  "sixtythird-heldout.jsonl", "sixtyfourth-training.jsonl",
                  "sixtyfourth-heldout.jsonl", "sixtyfifth-training.jsonl",
                  "sixtyfifth-heldout.jsonl", "sixtysixth-training.jsonl",
                  "sixtysixth-heldout.jsonl", "sixtyseventh-training.jsonl",
                  "sixtyseventh-heldout.jsonl", "sixtyeighth-training.jsonl",
                  "sixtyeighth-heldout.jsonl", "sixtyninth-training.jsonl",
                  "sixtyninth-heldout.jsonl", "seventieth-training.jsonl",
                  "seventieth-heldout.jsonl", "seventyfirst-training.jsonl",
                  "seventyfirst-heldout.jsonl", "seventysecond-training.jsonl",
                  "seventysecond-heldout.jsonl", "seventythird-training.jsonl",
                  "seventythird-heldout.jsonl", "seventyfourth-training.jsonl",
                  "seventyfourth-heldout.jsonl", "seventyfifth-training.jsonl",
                  "seventyfifth-heldout.jsonl", "seventysixth-training.jsonl",
                  "seventysixth-heldout.jsonl", "seventyseventh-training.jsonl",
                  "seventyseventh-heldout.jsonl", "seventyeighth-training.jsonl",
                  "seventyeighth-heldout.jsonl", "seventyninth-training.jsonl",
                  "seventyninth-heldout.jsonl", "eightieth-training.jsonl",
                  "eightieth-heldout.jsonl", "eightyfirst-training.jsonl",
                  "eightyfirst-heldout.jsonl", "eightysecond-training.jsonl",
                  "eightysecond-heldout.jsonl", "eightythird-training.jsonl",
                  "eightythird-heldout.jsonl", "eightyfourth-training.jsonl",
                  "eightyfourth-heldout.jsonl", "eightyfifth-training.jsonl",
                  "eightyfifth-heldout.jsonl", "eightysixth-training.jsonl",
                  "eightysixth-heldout.jsonl", "eightyseventh-training.jsonl",
                  "eightyseventh-heldout.jsonl", "eightyeighth-training.jsonl",
                  "eightyeighth-heldout.jsonl", "eightyninth-training.jsonl",
                  "eightyninth-heldout.jsonl", "ninetieth-training.jsonl",
                  "ninetieth-heldout.jsonl", "ninetyfirst-training.jsonl",
                  "ninetyfirst-heldout.jsonl", "ninetysecond-training.jsonl",
                  "ninetysecond-heldout.jsonl", "ninetythird-training.jsonl",
                  "ninetythird-heldout.jsonl", "ninetyfourth-training.jsonl",
                  "ninetyfourth-heldout.jsonl", "ninetyfifth-training.jsonl",
                  "ninetyfifth-heldout.jsonl", "ninetysixth-training.jsonl",
                  "ninetysixth-heldout.jsonl", "ninetyseventh-training.jsonl",
                  "ninetyseventh-heldout.jsonl", "ninetyeighth-training.jsonl",
                  "ninetyeighth-heldout.jsonl", "ninetyninth-training.jsonl",
                  "ninetyninth-heldout.jsonl", "hundredth-training.jsonl",
                  "hundredth-heldout.jsonl", "hundredfirst-training.jsonl",
                  "hundredfirst-heldout.jsonl", "hundredsecond-training.jsonl",
                  "hundredsecond-heldout.jsonl", "hundredthird-training.jsonl",
                  "hundredthird-heldout.jsonl", "hundredfourth-training.jsonl",
                  "hundredfourth-heldout.jsonl", "hundredfifth-training.jsonl",
                  "hundredfifth-heldout.jsonl", "hundredsixth-training.jsonl",
                  "hundredsixth-heldout.jsonl", "hundredseventh-training.jsonl",
                  "hundredseventh-heldout.jsonl", "hundredeighth-training.jsonl",
                  "hundredeighth-heldout.jsonl", "hundredninth-training.jsonl",
                  "hundredninth-heldout.jsonl", "hundredtenth-training.jsonl",
                  "hundredtenth-heldout.jsonl", "hundredeleventh-training.jsonl",
                  "hundredeleventh-heldout.jsonl", "hundredtwelfth-training.jsonl",
                  "hundredtwelfth-heldout.jsonl", "hundredthirteenth-training.jsonl",
                  "hundredthirteenth-heldout.jsonl", "hundredfourteenth-training.jsonl",
                  "hundredfourteenth-heldout.jsonl", "hundredfifteenth-training.jsonl",
                  "hundredfifteenth-heldout.jsonl", "hundredsixteenth-training.jsonl",
                  "hundredsixteenth-heldout.jsonl", "hundredseventeenth-training.jsonl",
                  "hundredseventeenth-heldout.jsonl", "hundredeighteenth-training.jsonl",
                  "hundredeighteenth-heldout.jsonl", "hundrednineteenth-training.jsonl",
                  "hundrednineteenth-heldout.jsonl", "hundredtwentieth-training.jsonl",
                  "hundredtwentieth-heldout.jsonl", "hundredtwentyfirst-training.jsonl",
                  "hundredtwentyfirst-heldout.jsonl", "hundredtwentysecond-training.jsonl",
                  "hundredtwentysecond-heldout.jsonl", "hundredtwentythird-training.jsonl",
                  "hundredtwentythird-heldout.jsonl", "hundredtwentyfourth-training.jsonl",
                  "hundredtwentyfourth-heldout.jsonl", "hundredtwentyfifth-training.jsonl",
                  "hundredtwentyfifth-heldout.jsonl", "hundredtwentysixth-training.jsonl",
                  "hundredtwentysixth-heldout.jsonl", "hundredtwentyseventh-training.jsonl",
                  "hundredtwentyseventh-heldout.jsonl", "hundredtwentyeighth-training.jsonl",
                  "hundredtwentyeighth-heldout.jsonl", "hundredtwentyninth-training.jsonl",
                  "hundredtwentyninth-heldout.jsonl", "hundredthirtieth-training.jsonl",
                  "hundredthirtieth-heldout.jsonl", "hundredthirtyfirst-training.jsonl",
                  "hundredthirtyfirst-heldout.jsonl", "hundredthirtysecond-training.jsonl",
                  "hundredthirtysecond-heldout.jsonl", "hundredthirtythird-training.jsonl",
                  "hundredthirtythird-heldout.jsonl", "hundredthirtyfourth-training.jsonl",
                  "hundredthirtyfourth-heldout.jsonl", "hundredthirtyfifth-training.jsonl",
                  "hundredthirtyfifth-heldout.jsonl", "hundredthirtysixth-training.jsonl",
                  "hundredthirtysixth-heldout.jsonl", "hundredthirtyseventh-training.jsonl",
                  "hundredthirtyseventh-heldout.jsonl", "hundredthirtyeighth-training.jsonl",
                  "hundredthirtyeighth-heldout.jsonl", "hundredthirtyninth-training.jsonl",
                  "hundredthirtyninth-heldout.jsonl", "hundredfortieth-training.jsonl", "hundredfortieth-heldout.jsonl",
                  "hundredfortyfirst-training.jsonl", "hundredfortyfirst-heldout.jsonl",
                  "hundredfortysecond-training.jsonl", "hundredfortysecond-heldout.jsonl",
                  "hundredfortythird-training.jsonl", "hundredfortythird-heldout.jsonl",
                  "hundredfortyfourth-training.jsonl", "hundredfortyfourth-heldout.jsonl",
                  "hundredfortyfifth-training.jsonl", "hundredfortyfifth-heldout.jsonl",
                  "hundredfortysixth-training.jsonl", "hundredfortysixth-heldout.jsonl",
                  "hundredfortyseventh-training.jsonl", "hundredfortyseventh-heldout.jsonl",
                  "hundredfortyeighth-training.jsonl", "hundredfortyeighth-heldout.jsonl",
                  "hundredfortyninth-training.jsonl", "hundredfortyninth-heldout.jsonl",
                  "hundredfiftieth-training.jsonl", "hundredfiftieth-heldout.jsonl", "hundredfiftyfirst-training.jsonl",
                  "hundredfiftyfirst-heldout.jsonl", "hundredfiftysecond-training.jsonl",
                  "hundredfiftysecond-heldout.jsonl", "hundredfiftythird-training.jsonl",
                  "hundredfiftythird-heldout.jsonl", "hundredfiftyfourth-training.jsonl",
                  "hundredfiftyfourth-heldout.jsonl", "hundredfiftyfifth-training.jsonl",
                  "hundredfiftyfifth-heldout.jsonl", "hundredfiftysixth-training.jsonl",
                  "hundredfiftysixth-heldout.jsonl", "hundredfiftyseventh-training.jsonl",
                  "hundredfiftyseventh-heldout.jsonl", "hundredfiftyeighth-training.jsonl",
                  "hundredfiftyeighth-heldout.jsonl", "hundredfiftyninth-training.jsonl",
                  "hundredfiftyninth-heldout.jsonl", "hundredsixtieth-training.jsonl", "hundredsixtieth-heldout.jsonl",
                  "hundredsixtyfirst-training.jsonl", "hundredsixtyfirst-heldout.jsonl",
                  "hundredsixtysecond-training.jsonl", "hundredsixtysecond-heldout.jsonl",
                  "hundredsixtythird-training.jsonl", "hundredsixtythird-heldout.jsonl",
                  "hundredsixtyfourth-training.jsonl", "hundredsixtyfourth-heldout.jsonl",
                  "hundredsixtyfifth-training.jsonl", "hundredsixtyfifth-heldout.jsonl",
                  "hundredsixtysixth-training.jsonl", "hundredsixtysixth-heldout.jsonl",
                  "hundredsixtyseventh-training.jsonl", "hundredsixtyseventh-heldout.jsonl",
                  "hundredsixtyeighth-training.jsonl", "hundredsixtyeighth-heldout.jsonl",
                  "hundredsixtyninth-training.jsonl", "hundredsixtyninth-heldout.jsonl",
                  "hundredseventieth-training.jsonl", "hundredseventieth-heldout.jsonl",
                  "hundredseventyfirst-training.jsonl", "hundredseventyfirst-heldout.jsonl",
                  "hundredseventysecond-training.jsonl", "hundredseventysecond-heldout.jsonl",
                  "hundredseventythird-training.jsonl", "hundredseventythird-heldout.jsonl",
                  "hundredseventyfourth-training.jsonl", "hundredseventyfourth-heldout.jsonl",
                  "hundredseventyfifth-training.jsonl", "hundredseventyfifth-heldout.jsonl",
                  "hundredseventysixth-training.jsonl", "hundredseventysixth-heldout.jsonl",
                  "hundredseventyseventh-training.jsonl", "hundredseventyseventh-heldout.jsonl",
                  "hundredseventyeighth-training.jsonl", "hundredseventyeighth-heldout.jsonl",
                  "hundredseventyninth-training.jsonl", "hundredseventyninth-heldout.jsonl",
                  "hundredeightieth-training.jsonl", "hundredeightieth-heldout.jsonl",
                  "hundredeightyfirst-training.jsonl", "hundredeightyfirst-heldout.jsonl",
                  "hundredeightysecond-training.jsonl", "hundredeightysecond-heldout.jsonl",
                  "hundredeightythird-training.jsonl", "hundredeightythird-heldout.jsonl",
                  "hundredeightyfourth-training.jsonl", "hundredeightyfourth-heldout.jsonl",
                  "hundredeightyfifth-training.jsonl", "hundredeightyfifth-heldout.jsonl",
                  "hundredeightysixth-training.jsonl", "hundredeightysixth-heldout.jsonl",
                  "hundredeightyseventh-training.jsonl", "hundredeightyseventh-heldout.jsonl",
                  "hundredeightyeighth-training.jsonl", "hundredeightyeighth-heldout.jsonl",
                  "hundredeightyninth-training.jsonl", "hundredeightyninth-heldout.jsonl",
                  "hundredninetieth-training.jsonl", "hundredninetieth-heldout.jsonl",
                  "hundredninetyfirst-training.jsonl", "hundredninetyfirst-heldout.jsonl",
                  "hundredninetysecond-training.jsonl", "hundredninetysecond-heldout.jsonl",
                  "hundredninetythird-training.jsonl", "hundredninetythird-heldout.jsonl",
                  "hundredninetyfourth-training.jsonl", "hundredninetyfourth-heldout.jsonl",
                  "hundredninetyfifth-training.jsonl", "hundredninetyfifth-heldout.jsonl",
                  "hundredninetysixth-training.jsonl", "hundredninetysixth-heldout.jsonl",
                  "hundredninetyseventh-training.jsonl", "hundredninetyseventh-heldout.jsonl",
                  "hundredninetyeighth-training.jsonl", "hundredninetyeighth-heldout.jsonl",
                  "hundredninetyninth-training.jsonl", "hundredninetyninth-heldout.jsonl",
                  "twohundredth-training.jsonl", "twohundredth-heldout.jsonl",
                  "twohundredfirst-training.jsonl", "twohundredfirst-heldout.jsonl",
                  "twohundredsecond-training.jsonl")
HELDOUT_FILE = "twohundredsecond-heldout.jsonl"
# Each held-out file with its committed hash: the current one, and the retired ones (training now, history).
HASHED_FILES = {"twohundredsecond-heldout.jsonl": "twohundredsecond-heldout.sha256",
                "twohundredfirst-heldout.jsonl": "twohundredfirst-heldout.sha256",
                "twohundredth-heldout.jsonl": "twohundredth-heldout.sha256",
                "hundredninetyninth-heldout.jsonl": "hundredninetyninth-heldout.sha256",
                "hundredninetyeighth-heldout.jsonl": "hundredninetyeighth-heldout.sha256",
                "hundredninetyseventh-heldout.jsonl": "hundredninetyseventh-heldout.sha256",
                "hundredninetysixth-heldout.jsonl": "hundredninetysixth-heldout.sha256",
                "hundredninetyfifth-heldout.jsonl": "hundredninetyfifth-heldout.sha256",
                "hundredninetyfourth-heldout.jsonl": "hundredninetyfourth-heldout.sha256",
                "hundredninetythird-heldout.jsonl": "hundredninetythird-heldout.sha256",
                "hundredninetysecond-heldout.jsonl": "hundredninetysecond-heldout.sha256",
                "hundredninetyfirst-heldout.jsonl": "hundredninetyfirst-heldout.sha256",
                "hundredninetieth-heldout.jsonl": "hundredninetieth-heldout.sha256",
                "hundredeightyninth-heldout.jsonl": "hundredeightyninth-heldout.sha256",
                "hundredeightyeighth-heldout.jsonl": "hundredeightyeighth-heldout.sha256",
                "hundredeightyseventh-heldout.jsonl": "hundredeightyseventh-heldout.sha256",
                "hundredeightysixth-heldout.jsonl": "hundredeightysixth-heldout.sha256",
                "hundredeightyfifth-heldout.jsonl": "hundredeightyfifth-heldout.sha256",
                "hundredeightyfourth-heldout.jsonl": "hundredeightyfourth-heldout.sha256",
                "hundredeightythird-heldout.jsonl": "hundredeightythird-heldout.sha256",
                "hundredeightysecond-heldout.jsonl": "hundredeightysecond-heldout.sha256",
                "hundredeightyfirst-heldout.jsonl": "hundredeightyfirst-heldout.sha256",
                "hundredeightieth-heldout.jsonl": "hundredeightieth-heldout.sha256",
                "hundredseventyninth-heldout.jsonl": "hundredseventyninth-heldout.sha256",
                "hundredseventyeighth-heldout.jsonl": "hundredseventyeighth-heldout.sha256",
                "hundredseventyseventh-heldout.jsonl": "hundredseventyseventh-heldout.sha256",
                "hundredseventysixth-heldout.jsonl": "hundredseventysixth-heldout.sha256",
                "hundredseventyfifth-heldout.jsonl": "hundredseventyfifth-heldout.sha256",
                "hundredseventyfourth-heldout.jsonl": "hundredseventyfourth-heldout.sha256",
                "hundredseventythird-heldout.jsonl": "hundredseventythird-heldout.sha256",
                "hundredseventysecond-heldout.jsonl": "hundredseventysecond-heldout.sha256",
                "hundredseventyfirst-heldout.jsonl": "hundredseventyfirst-heldout.sha256",
                "hundredseventieth-heldout.jsonl": "hundredseventieth-heldout.sha256",
                "hundredsixtyninth-heldout.jsonl": "hundredsixtyninth-heldout.sha256",
                "hundredsixtyeighth-heldout.jsonl": "hundredsixtyeighth-heldout.sha256",
                "hundredsixtyseventh-heldout.jsonl": "hundredsixtyseventh-heldout.sha256",
                "hundredsixtysixth-heldout.jsonl": "hundredsixtysixth-heldout.sha256",
                "hundredsixtyfifth-heldout.jsonl": "hundredsixtyfifth-heldout.sha256",
                "hundredsixtyfourth-heldout.jsonl": "hundredsixtyfourth-heldout.sha256",
                "hundredsixtythird-heldout.jsonl": "hundredsixtythird-heldout.sha256",
                "hundredsixtysecond-heldout.jsonl": "hundredsixtysecond-heldout.sha256",
                "hundredsixtyfirst-heldout.jsonl": "hundredsixtyfirst-heldout.sha256",
                "hundredsixtieth-heldout.jsonl": "hundredsixtieth-heldout.sha256",
                "hundredfiftyninth-heldout.jsonl": "hundredfiftyninth-heldout.sha256",
                "hundredfiftyeighth-heldout.jsonl": "hundredfiftyeighth-heldout.sha256",
                "hundredfiftyseventh-heldout.jsonl": "hundredfiftyseventh-heldout.sha256",
                "hundredfiftysixth-heldout.jsonl": "hundredfiftysixth-heldout.sha256",
                "hundredfiftyfifth-heldout.jsonl": "hundredfiftyfifth-heldout.sha256",
                "hundredfiftyfourth-heldout.jsonl": "hundredfiftyfourth-heldout.sha256",
                "hundredfiftythird-heldout.jsonl": "hundredfiftythird-heldout.sha256",
                "hundredfiftysecond-heldout.jsonl": "hundredfiftysecond-heldout.sha256",
                "hundredfiftyfirst-heldout.jsonl": "hundredfiftyfirst-heldout.sha256",
                "hundredfiftieth-heldout.jsonl": "hundredfiftieth-heldout.sha256",
                "hundredfortyninth-heldout.jsonl": "hundredfortyninth-heldout.sha256",
                "hundredfortyeighth-heldout.jsonl": "hundredfortyeighth-heldout.sha256",
                "hundredfortyseventh-heldout.jsonl": "hundredfortyseventh-heldout.sha256",
                "hundredfortysixth-heldout.jsonl": "hundredfortysixth-heldout.sha256",
                "hundredfortyfifth-heldout.jsonl": "hundredfortyfifth-heldout.sha256",
                "hundredfortyfourth-heldout.jsonl": "hundredfortyfourth-heldout.sha256",
                "hundredfortythird-heldout.jsonl": "hundredfortythird-heldout.sha256",
                "hundredfortysecond-heldout.jsonl": "hundredfortysecond-heldout.sha256",
                "hundredfortyfirst-heldout.jsonl": "hundredfortyfirst-heldout.sha256",
                "hundredfortieth-heldout.jsonl": "hundredfortieth-heldout.sha256",
                "hundredthirtyninth-heldout.jsonl": "hundredthirtyninth-heldout.sha256",
                "hundredthirtyeighth-heldout.jsonl": "hundredthirtyeighth-heldout.sha256",
                "hundredthirtyseventh-heldout.jsonl": "hundredthirtyseventh-heldout.sha256",
                "hundredthirtysixth-heldout.jsonl": "hundredthirtysixth-heldout.sha256",
                "hundredthirtyfifth-heldout.jsonl": "hundredthirtyfifth-heldout.sha256",
                "hundredthirtyfourth-heldout.jsonl": "hundredthirtyfourth-heldout.sha256",
                "hundredthirtythird-heldout.jsonl": "hundredthirtythird-heldout.sha256",
                "hundredthirtysecond-heldout.jsonl": "hundredthirtysecond-heldout.sha256",
                "hundredthirtyfirst-heldout.jsonl": "hundredthirtyfirst-heldout.sha256",
                "hundredthirtieth-heldout.jsonl": "hundredthirtieth-heldout.sha256",
                "hundredtwentyninth-heldout.jsonl": "hundredtwentyninth-heldout.sha256",
                "hundredtwentyeighth-heldout.jsonl": "hundredtwentyeighth-heldout.sha256",
                "hundredtwentyseventh-heldout.jsonl": "hundredtwentyseventh-heldout.sha256",
                "hundredtwentysixth-heldout.jsonl": "hundredtwentysixth-heldout.sha256",
                "hundredtwentyfifth-heldout.jsonl": "hundredtwentyfifth-heldout.sha256",
                "hundredtwentyfourth-heldout.jsonl": "hundredtwentyfourth-heldout.sha256",
                "hundredtwentythird-heldout.jsonl": "hundredtwentythird-heldout.sha256",
                "hundredtwentysecond-heldout.jsonl": "hundredtwentysecond-heldout.sha256",
                "hundredtwentyfirst-heldout.jsonl": "hundredtwentyfirst-heldout.sha256",
                "hundredtwentieth-heldout.jsonl": "hundredtwentieth-heldout.sha256",
                "hundrednineteenth-heldout.jsonl": "hundrednineteenth-heldout.sha256",
                "hundredeighteenth-heldout.jsonl": "hundredeighteenth-heldout.sha256",
                "hundredseventeenth-heldout.jsonl": "hundredseventeenth-heldout.sha256",
                "hundredsixteenth-heldout.jsonl": "hundredsixteenth-heldout.sha256",
                "hundredfifteenth-heldout.jsonl": "hundredfifteenth-heldout.sha256",
                "hundredfourteenth-heldout.jsonl": "hundredfourteenth-heldout.sha256",
                "hundredthirteenth-heldout.jsonl": "hundredthirteenth-heldout.sha256",
                "hundredtwelfth-heldout.jsonl": "hundredtwelfth-heldout.sha256",
                "hundredeleventh-heldout.jsonl": "hundredeleventh-heldout.sha256",
                "hundredtenth-heldout.jsonl": "hundredtenth-heldout.sha256",
                "hundredninth-heldout.jsonl": "hundredninth-heldout.sha256",
                "hundredeighth-heldout.jsonl": "hundredeighth-heldout.sha256",
                "hundredseventh-heldout.jsonl": "hundredseventh-heldout.sha256",
                "hundredsixth-heldout.jsonl": "hundredsixth-heldout.sha256",
                "hundredfifth-heldout.jsonl": "hundredfifth-heldout.sha256",
                "hundredfourth-heldout.jsonl": "hundredfourth-heldout.sha256",
                "hundredthird-heldout.jsonl": "hundredthird-heldout.sha256",
                "hundredsecond-heldout.jsonl": "hundredsecond-heldout.sha256",
                "hundredfirst-heldout.jsonl": "hundredfirst-heldout.sha256",
                "hundredth-heldout.jsonl": "hundredth-heldout.sha256",
                "ninetyninth-heldout.jsonl": "ninetyninth-heldout.sha256",
                "ninetyeighth-heldout.jsonl": "ninetyeighth-heldout.sha256",
                "ninetyseventh-heldout.jsonl": "ninetyseventh-heldout.sha256",
                "ninetysixth-heldout.jsonl": "ninetysixth-heldout.sha256",
                "ninetyfifth-heldout.jsonl": "ninetyfifth-heldout.sha256",
                "ninetyfourth-heldout.jsonl": "ninetyfourth-heldout.sha256",
                "ninetythird-heldout.jsonl": "ninetythird-heldout.sha256",
                "ninetysecond-heldout.jsonl": "ninetysecond-heldout.sha256",
                "ninetyfirst-heldout.jsonl": "ninetyfirst-heldout.sha256",
                "ninetieth-heldout.jsonl": "ninetieth-heldout.sha256",
                "eightyninth-heldout.jsonl": "eightyninth-heldout.sha256",
                "eightyeighth-heldout.jsonl": "eightyeighth-heldout.sha256",
                "eightyseventh-heldout.jsonl": "eightyseventh-heldout.sha256",
                "eightysixth-heldout.jsonl": "eightysixth-heldout.sha256",
                "eightyfifth-heldout.jsonl": "eightyfifth-heldout.sha256",
                "eightyfourth-heldout.jsonl": "eightyfourth-heldout.sha256",
                "eightythird-heldout.jsonl": "eightythird-heldout.sha256",
                "eightysecond-heldout.jsonl": "eightysecond-heldout.sha256",
                "eightyfirst-heldout.jsonl": "eightyfirst-heldout.sha256",
                "eightieth-heldout.jsonl": "eightieth-heldout.sha256",
                "seventyninth-heldout.jsonl": "seventyninth-heldout.sha256",
                "seventyeighth-heldout.jsonl": "seventyeighth-heldout.sha256",
                "seventyseventh-heldout.jsonl": "seventyseventh-heldout.sha256",
                "seventysixth-heldout.jsonl": "seventysixth-heldout.sha256",
                "seventyfifth-heldout.jsonl": "seventyfifth-heldout.sha256",
                "seventyfourth-heldout.jsonl": "seventyfourth-heldout.sha256",
                "seventythird-heldout.jsonl": "seventythird-heldout.sha256",
                "seventysecond-heldout.jsonl": "seventysecond-heldout.sha256",
                "seventyfirst-heldout.jsonl": "seventyfirst-heldout.sha256",
                "seventieth-heldout.jsonl": "seventieth-heldout.sha256",
                "sixtyninth-heldout.jsonl": "sixtyninth-heldout.sha256",
                "sixtyeighth-heldout.jsonl": "sixtyeighth-heldout.sha256",
                "sixtyseventh-heldout.jsonl": "sixtyseventh-heldout.sha256",
                "sixtysixth-heldout.jsonl": "sixtysixth-heldout.sha256",
                "sixtyfifth-heldout.jsonl": "sixtyfifth-heldout.sha256",
                "sixtyfourth-heldout.jsonl": "sixtyfourth-heldout.sha256",
                "sixtythird-heldout.jsonl": "sixtythird-heldout.sha256",
                "sixtysecond-heldout.jsonl": "sixtysecond-heldout.sha256",
                "sixtyfirst-heldout.jsonl": "sixtyfirst-heldout.sha256",
                "sixtieth-heldout.jsonl": "sixtieth-heldout.sha256",
                "fiftyninth-heldout.jsonl": "fiftyninth-heldout.sha256",
                "fiftyeighth-heldout.jsonl": "fiftyeighth-heldout.sha256",
                "fiftyseventh-heldout.jsonl": "fiftyseventh-heldout.sha256",
                "fiftysixth-heldout.jsonl": "fiftysixth-heldout.sha256",
                "fiftyfifth-heldout.jsonl": "fiftyfifth-heldout.sha256",
                "fiftyfourth-heldout.jsonl": "fiftyfourth-heldout.sha256",
                "fiftythird-heldout.jsonl": "fiftythird-heldout.sha256",
                "fiftysecond-heldout.jsonl": "fiftysecond-heldout.sha256",
                "fiftyfirst-heldout.jsonl": "fiftyfirst-heldout.sha256",
                "fiftieth-heldout.jsonl": "fiftieth-heldout.sha256",
                "fortyninth-heldout.jsonl": "fortyninth-heldout.sha256",
                "fortyeighth-heldout.jsonl": "fortyeighth-heldout.sha256",
                "fortyseventh-heldout.jsonl": "fortyseventh-heldout.sha256",
                "fortysixth-heldout.jsonl": "fortysixth-heldout.sha256",
                "fortyfifth-heldout.jsonl": "fortyfifth-heldout.sha256",
                "fortyfourth-heldout.jsonl": "fortyfourth-heldout.sha256",
                "fortythird-heldout.jsonl": "fortythird-heldout.sha256",
                "fortysecond-heldout.jsonl": "fortysecond-heldout.sha256",
                "fortyfirst-heldout.jsonl": "fortyfirst-heldout.sha256",
                "fortieth-heldout.jsonl": "fortieth-heldout.sha256",
                "thirtyninth-heldout.jsonl": "thirtyninth-heldout.sha256",
                "thirtyeighth-heldout.jsonl": "thirtyeighth-heldout.sha256",
                "thirtyseventh-heldout.jsonl": "thirtyseventh-heldout.sha256",
                "thirtysixth-heldout.jsonl": "thirtysixth-heldout.sha256",
                "thirtyfifth-heldout.jsonl": "thirtyfifth-heldout.sha256",
                "thirtyfourth-heldout.jsonl": "thirtyfourth-heldout.sha256",
                "thirtythird-heldout.jsonl": "thirtythird-heldout.sha256",
                "thirtysecond-heldout.jsonl": "thirtysecond-heldout.sha256",
                "thirtyfirst-heldout.jsonl": "thirtyfirst-heldout.sha256",
                "thirtieth-heldout.jsonl": "thirtieth-heldout.sha256",
                "twentyninth-heldout.jsonl": "twentyninth-heldout.sha256",
                "twentyeighth-heldout.jsonl": "twentyeighth-heldout.sha256",
                "twentyseventh-heldout.jsonl": "twentyseventh-heldout.sha256",
                "twentysixth-heldout.jsonl": "twentysixth-heldout.sha256",
                "twentyfifth-heldout.jsonl": "twentyfifth-heldout.sha256",
                "twentyfourth-heldout.jsonl": "twentyfourth-heldout.sha256",
                "twentythird-heldout.jsonl": "twentythird-heldout.sha256",
                "twentysecond-heldout.jsonl": "twentysecond-heldout.sha256",
                "twentyfirst-heldout.jsonl": "twentyfirst-heldout.sha256",
                "twentieth-heldout.jsonl": "twentieth-heldout.sha256",
                "nineteenth-heldout.jsonl": "nineteenth-heldout.sha256",
                "eighteenth-heldout.jsonl": "eighteenth-heldout.sha256",
                "seventeenth-heldout.jsonl": "seventeenth-heldout.sha256",
                "sixteenth-heldout.jsonl": "sixteenth-heldout.sha256",
                "fifteenth-heldout.jsonl": "fifteenth-heldout.sha256",
                "fourteenth-heldout.jsonl": "fourteenth-heldout.sha256",
                "thirteenth-heldout.jsonl": "thirteenth-heldout.sha256",
                "twelfth-heldout.jsonl": "twelfth-heldout.sha256",
                "eleventh-heldout.jsonl": "eleventh-heldout.sha256", "tenth-heldout.jsonl": "tenth-heldout.sha256",
                "ninth-heldout.jsonl": "ninth-heldout.sha256",
                "eighth-heldout.jsonl": "eighth-heldout.sha256",
                "seventh-heldout.jsonl": "seventh-heldout.sha256",
                "sixth-heldout.jsonl": "sixth-heldout.sha256",
                "fifth-heldout.jsonl": "fifth-heldout.sha256",
                "fourth-heldout.jsonl": "fourth-heldout.sha256",
                "third-heldout.jsonl": "third-heldout.sha256", "fresh-heldout.jsonl": "fresh-heldout.sha256"}
TARGET_PHASE, TARGET_CAUSE = 0.90, 0.80
TITLE_ONLY = "title-only"  # the note's mark of an excerpt whose cause is only in the thread's title or words


def _entries(name: str) -> list[dict]:
    return [json.loads(line) for line in (CORPUS / name).read_text().splitlines() if line.strip()]


def _committed_digest(name: str) -> str:
    return (CORPUS / name).read_text().split()[0]


def load_corpus() -> tuple[list[dict], list[dict]]:
    """(training entries, held-out entries), after checking both committed hashes and that no source repeats."""
    for name, digest_file in HASHED_FILES.items():
        if hashlib.sha256((CORPUS / name).read_bytes()).hexdigest() != _committed_digest(digest_file):
            raise SystemExit(f"{name} changed since its hash was committed")
    first = (CORPUS / "corpus.jsonl").read_text().splitlines()
    by_id = {json.loads(line)["id"]: line for line in first}
    seen = (CORPUS / "seen-heldout-ids.txt").read_text().split()
    if hashlib.sha256("".join(by_id[i] + "\n" for i in seen).encode()).hexdigest() != _committed_digest(
            "seen-heldout.sha256"):
        raise SystemExit("the first held-out third (now training, seen) changed")
    files = {name: _entries(name) for name in (*TRAINING_FILES, HELDOUT_FILE)}
    ids = [entry["id"] for entries in files.values() for entry in entries]
    if len(set(ids)) != len(ids):
        raise SystemExit(f"corpus entries repeat an id: {sorted({i for i in ids if ids.count(i) > 1})}")
    for name, entries in files.items():  # a thread may give two excerpts, but only within one file
        others = {entry["source"] for other, rest in files.items() if other != name for entry in rest}
        if clash := {entry["source"] for entry in entries} & others:
            raise SystemExit(f"{name} repeats sources of another file: {sorted(clash)}")
    return [entry for name in TRAINING_FILES for entry in files[name]], files[HELDOUT_FILE]


def cause_families() -> dict[str, str]:
    """cause -> family, read from the README's taxonomy table so the two cannot drift apart."""
    table = (CORPUS / "README.md").read_text().split("## Cause taxonomy")[1].split("\n## ")[0]
    families = {}
    for row in table.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) == 2 and "`" in cells[1]:
            families.update(dict.fromkeys(re.findall(r"`([a-z_]+)`", cells[1]), cells[0]))
    families.setdefault("unknown", "unknown")
    return families


def in_the_lines(entry: dict) -> bool:
    """Whether the entry's lines contain its failure (or its state): its note does not mark it title-only."""
    return TITLE_ONLY not in entry.get("note", "")


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


def breakdown(rows: list[dict], key) -> dict[str, dict]:
    """Accuracy per group (by labelled phase, or by cause family): n, phase and cause right."""
    groups = defaultdict(list)
    for row in rows:
        groups[key(row)].append(row)
    return {name: {"n": len(group), "phase": sum(r["phase_ok"] for r in group) / len(group),
                   "cause": sum(r["cause_ok"] for r in group) / len(group)} for name, group in sorted(groups.items())}


def fold_of(entry_id: str, folds: int) -> int:
    return int(hashlib.sha256(entry_id.encode()).hexdigest(), 16) % folds


def _print_breakdowns(name: str, part: dict, families: dict[str, str]) -> None:
    for title, key in (("phase", lambda r: r["phase"]), ("cause family", lambda r: families[r["cause"]])):
        print(f"  {name} by labelled {title}:")
        for group, figures in breakdown(part["rows"], key).items():
            print(f"    {group:24s} n={figures['n']:3d}  phase {figures['phase']:6.1%}  cause {figures['cause']:6.1%}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--misses", action="store_true", help="list the training part's misses")
    parser.add_argument("--heldout-misses", action="store_true", help="list the held-out misses (report only)")
    parser.add_argument("--training-only", action="store_true",
                        help="score the training part and its folds only, not the held-out part (for tuning)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    training, heldout_entries = load_corpus()
    families = cause_families()
    started = time.perf_counter()
    heldout = score([] if args.training_only else heldout_entries)
    in_lines = score([] if args.training_only else [e for e in heldout_entries if in_the_lines(e)])
    train = score(training)
    folds = [score([e for e in training if fold_of(e["id"], args.folds) == k]) for k in range(args.folds)]
    seconds = time.perf_counter() - started
    healthy_misread = [r["id"] for part in (heldout, train) for r in part["rows"]
                       if r["cause"] == "healthy" and r["got_cause"] != "healthy"]
    if args.json:
        print(json.dumps({"heldout": {k: heldout[k] for k in ("n", "phase", "cause")},
                          "heldout_in_lines": {k: in_lines[k] for k in ("n", "phase", "cause")},
                          "train": {k: train[k] for k in ("n", "phase", "cause")},
                          "folds": [{k: f[k] for k in ("n", "phase", "cause")} for f in folds],
                          "healthy_misread": healthy_misread, "seconds": round(seconds, 3)}, indent=2))
        return 0
    print(f"corpus: {len(training) + len(heldout_entries)} logs, held-out {len(heldout_entries)}"
          f"{' (not scored)' if args.training_only else ''}, training {train['n']} ({seconds:.2f} s)")
    if not args.training_only:
        print(f"held-out  phase {heldout['phase']:6.1%} (target {TARGET_PHASE:.0%})   "
              f"cause {heldout['cause']:6.1%} (target {TARGET_CAUSE:.0%})")
        print(f"held-out, failure in the lines (not title-only, n={in_lines['n']}): phase {in_lines['phase']:6.1%}   "
              f"cause {in_lines['cause']:6.1%}")
    print(f"training  phase {train['phase']:6.1%}                  cause {train['cause']:6.1%}")
    phases = [f["phase"] for f in folds]
    causes = [f["cause"] for f in folds]
    print(f"{args.folds}-fold over training: phase {sum(phases) / len(phases):.1%} "
          f"[{min(phases):.1%}..{max(phases):.1%}], cause {sum(causes) / len(causes):.1%} "
          f"[{min(causes):.1%}..{max(causes):.1%}]")
    for k, fold in enumerate(folds):
        print(f"  fold {k}: n={fold['n']:3d} phase {fold['phase']:6.1%} cause {fold['cause']:6.1%}")
    _print_breakdowns("training", train, families)
    if not args.training_only:
        _print_breakdowns("held-out", heldout, families)
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
