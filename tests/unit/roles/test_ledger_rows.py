"""kimi_ledger rows.yml reads every row of ledger.jsonl, also rows whose strings hold JSON-escaped
newlines (the plan summary, an error message). It used to split the file on a '\\n' that reached
split() as backslash + n (ansible-core 2.19 in that template), cutting such rows in two, and tune.yml
and diagnose.yml failed at "Read the group's ledger rows" after any deploy."""

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[3]


def test_rows_with_escaped_newlines_are_read_whole(tmp_path):
    rows = [{"host_group": "gpu", "summary": "fits\nweights 0.0 GiB", "n": 1},
            {"host_group": "other", "n": 2},
            {"host_group": "gpu", "error": "answered 400:\n{\"error\": 1}", "n": 3}]
    (tmp_path / "ledger.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    play = [{
        "hosts": "localhost", "connection": "local", "gather_facts": False,
        "vars": {"kimi_ledger_dir": str(tmp_path), "kimi_ledger_group": "gpu"},
        "tasks": [{"ansible.builtin.include_role": {"name": "kimi.deploy.kimi_ledger", "tasks_from": "rows.yml"}},
                  {"ansible.builtin.copy": {"content": "{{ kimi_ledger_rows | to_json }}",
                                            "dest": str(tmp_path / "rows.json"), "mode": "0644"}}],
    }]
    (tmp_path / "play.yml").write_text(yaml.safe_dump(play))
    bindir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bindir}:{os.environ.get('PATH', '')}", "ANSIBLE_NOCOLOR": "1"}
    proc = subprocess.run([str(bindir / "ansible-playbook"), "-i", "localhost,", str(tmp_path / "play.yml"),
                           "-e", f"ansible_python_interpreter={sys.executable}"],
                          cwd=REPO, env=env, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert json.loads((tmp_path / "rows.json").read_text()) == [rows[0], rows[2]]
