"""Issue 11 (2, 3): which release serves after an interrupted run, how a release serves, the
model link of weights served in place, and a ``current`` that is not a link."""

import json
import os

import kimi_release
import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.releases import Release, model_link, release_service, serving_target, swap_current
from module_harness import run_module


def _rel(rid, activations=(), acceptance=""):
    return Release(rid, "2026-01-0" + rid[-1], list(activations), acceptance)


# -- which release should serve ------------------------------------------------------------


@pytest.mark.parametrize(("verdict", "expected"), [
    ("passed", None),      # current is accepted: it stays
    ("pending", "r1"),     # a run died between the switch and the verdict
    ("failed", "r1"),
    ("", "r1"),            # never judged (a tune candidate left behind)
])
def test_serving_target_puts_back_the_last_accepted_release(verdict, expected):
    releases = [_rel("r0", ["t1"], "passed"), _rel("r1", ["t2"], "passed"), _rel("r2", ["t3"], verdict)]
    target = serving_target(releases, "r2")
    assert (target.id if target else None) == expected


def test_serving_target_leaves_a_first_release_alone():
    assert serving_target([_rel("r1", ["t1"], "pending")], "r1") is None
    assert serving_target([], None) is None


# -- how a release serves ------------------------------------------------------------------

SERVE = """#!/bin/sh
exec "$release_dir/venv/bin/kimi-vllm" serve "$model_dir" \\
  --host 10.0.0.5 \\
  --port 8011 \\
  --served-model-name 'moonshotai/Kimi K3' \\
  --max-model-len 512
"""


def test_release_service_reads_release_json_first():
    doc = {"inputs": {"service": {"host": "0.0.0.0", "port": "8001", "served_model_name": "tiny"}}}
    assert release_service(doc, SERVE) == {"host": "0.0.0.0", "port": 8001, "served_model_name": "tiny"}


def test_release_service_falls_back_to_the_serve_launcher():
    assert release_service({"inputs": {}}, SERVE) == {
        "host": "10.0.0.5", "port": 8011, "served_model_name": "moonshotai/Kimi K3"}
    assert release_service({}, "") == {"host": "", "port": 0, "served_model_name": ""}


# -- the model link ------------------------------------------------------------------------


def test_model_link_is_relative_in_the_store_and_absolute_in_place():
    assert model_link("/opt/kimi", "/opt/kimi/shared/models/tiny@abc") == "../../shared/models/tiny@abc"
    assert model_link("/opt/kimi", "/data/weights/k3/") == "/data/weights/k3"
    with pytest.raises(KimiDeployError):
        model_link("/opt/kimi", "weights/k3")


def test_a_release_of_weights_served_in_place_has_a_model_link_that_resolves(tmp_path):
    weights = tmp_path / "data" / "k3"
    weights.mkdir(parents=True)
    (weights / "config.json").write_text("{}")
    root = tmp_path / "kimi"
    made = run_module(kimi_release, {"root": str(root), "state": "present", "inputs": {"a": 1},
                                     "model_dir": str(weights)})
    link = root / "releases" / made["release_id"] / "model"
    assert (link / "config.json").is_file(), os.readlink(link)


# -- a current that is not a link ----------------------------------------------------------


def _release(root, rid):
    path = root / "releases" / rid
    path.mkdir(parents=True)
    (path / "release.json").write_text(json.dumps({"id": rid, "created_at": "x", "activations": []}))


def test_swap_over_a_directory_moves_it_aside_and_leaves_no_temporary_link(tmp_path):
    _release(tmp_path, "r1")
    (tmp_path / "current").mkdir()
    (tmp_path / "current" / "note").write_text("hand-made")
    swap_current(tmp_path, "r1")
    assert os.readlink(tmp_path / "current") == "releases/r1"
    aside = [p for p in tmp_path.iterdir() if p.name.startswith(".current.replaced.")]
    assert len(aside) == 1 and (aside[0] / "note").read_text() == "hand-made"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_rollback_repairs_a_current_directory_without_a_traceback(tmp_path):
    _release(tmp_path, "r1")
    run_module(kimi_release, {"root": str(tmp_path), "state": "verdict", "release_id": "r1", "verdict": "passed"})
    (tmp_path / "current").mkdir()
    fixed = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": "r1"})
    assert not fixed.get("failed"), fixed
    assert fixed["changed"] and "not a symlink" in fixed["repaired"]
    assert os.readlink(tmp_path / "current") == "releases/r1"


# -- the module: pending at the switch, restore, service of the target -----------------------


def _present(root, mml):
    return run_module(kimi_release, {
        "root": str(root), "state": "present", "inputs": {"plan": {"mml": mml}},
        "files": {"serve": {"content": f"#!/bin/sh\nexec x --port {8000 + mml}\n", "mode": "0755"}},
        "metadata": {"served_model_name": f"m{mml}"}})["release_id"]


def test_switch_writes_pending_and_restore_puts_back_the_last_accepted(tmp_path):
    r1, r2 = _present(tmp_path, 1), _present(tmp_path, 2)
    run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": r1, "pending": True})
    run_module(kimi_release, {"root": str(tmp_path), "state": "verdict", "release_id": r1, "verdict": "passed"})
    # the accepted current stays
    stay = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "restore": True})
    assert stay["changed"] is False and stay["serving"] == r1
    # a run switches to r2, then dies: r2 is pending, and the next run puts r1 back
    run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": r2, "pending": True})
    doc = json.loads((tmp_path / "releases" / r2 / "release.json").read_text())
    assert doc["acceptance"]["verdict"] == "pending"
    dry = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "restore": True}, check_mode=True)
    assert dry["changed"] and dry["serving"] == r1 and os.readlink(tmp_path / "current") == f"releases/{r2}"
    back = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "restore": True})
    assert back["changed"] and back["serving"] == r1 and back["previous"] == r2
    assert back["service"] == {"host": "", "port": 8001, "served_model_name": "m1"}
    assert os.readlink(tmp_path / "current") == f"releases/{r1}"


def test_restore_with_no_accepted_release_says_nothing_serves(tmp_path):
    r1 = _present(tmp_path, 1)
    run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": r1, "pending": True})
    result = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "restore": True})
    assert result["changed"] is False and result["serving"] is None
    assert os.readlink(tmp_path / "current") == f"releases/{r1}"
