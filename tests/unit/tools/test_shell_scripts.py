"""The shell scripts run under `set -o pipefail`: a pipeline whose reader exits before its writer
is done (`head`, `grep -q`) fails with SIGPIPE (exit 141) once the output outgrows a pipe buffer.
That ended a green CI run after its last stage; these scripts read whole outputs instead."""

import re

import pytest
from repo_paths import REPO

EARLY_EXIT_READER = re.compile(r"\|\s*(head\b|grep\s+(-\w*[qm]\w*\b))")
SCRIPTS = sorted([*REPO.glob("scripts/*.sh"), REPO / ".ci" / "run"])


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(REPO)))
def test_no_pipeline_ends_in_a_reader_that_exits_early(script):
    offending = [
        f"{script.name}:{number}: {line.strip()}"
        for number, line in enumerate(script.read_text().splitlines(), 1)
        if not line.lstrip().startswith("#") and EARLY_EXIT_READER.search(line)
    ]
    assert not offending, "read the whole output (sed -n 1,Np, [[ $(…) == … ]]):\n" + "\n".join(offending)


def test_the_pattern_catches_the_forms_that_failed():
    assert EARLY_EXIT_READER.search('sort -rn "$f" | head -15 >&2')
    assert EARLY_EXIT_READER.search("dpkg-query -W p | grep -q 'ok'")
    assert not EARLY_EXIT_READER.search('sort -rn "$f" | sed -n 1,15p >&2')
