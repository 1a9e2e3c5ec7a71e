import json
import os

import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.releases import (
    Release,
    collectable_shared,
    list_releases,
    ordered,
    read_current,
    release_id,
    rollback_target,
    shared_used_by,
    swap_current,
    to_prune,
    unused_shared,
    validate_id,
)
from repo_paths import FIXTURES


def _rel(rid, created, activations=(), acceptance=""):
    return Release(rid, created, list(activations), acceptance)


def test_release_id_is_stable_and_input_sensitive():
    a = release_id({"plan": {"max_model_len": 512}, "model": "x@1"}, "0.32.0")
    b = release_id({"model": "x@1", "plan": {"max_model_len": 512}}, "0.32.0")
    c = release_id({"plan": {"max_model_len": 1024}, "model": "x@1"}, "0.32.0")
    assert a == b
    assert a != c
    assert a.startswith("0.32.0-") and len(a) == len("0.32.0-") + 12
    assert release_id({"k": 1}, "0.32.0") != release_id({"k": 1}, "0.33.0")


def test_release_id_label_is_sanitised():
    rid = release_id({}, "0.32.0+cpu / test")
    validate_id(rid)
    assert "/" not in rid and " " not in rid


@pytest.mark.parametrize("bad", ["", "..", "../x", "a/b", ".hidden", "x" * 200])
def test_validate_id_refuses_paths(bad):
    with pytest.raises(KimiDeployError):
        validate_id(bad)


def test_order_is_by_created_at_not_name():
    rels = [_rel("b", "2026-01-02"), _rel("a", "2026-01-03"), _rel("c", "2026-01-01")]
    assert [r.id for r in ordered(rels)] == ["c", "b", "a"]


def test_rollback_target_is_last_served_other_release_not_rejected():
    r1 = _rel("r1", "1", ["t1"], "passed")
    r2 = _rel("r2", "2", ["t2"], "passed")
    r3 = _rel("r3", "3", ["t3"], "failed")  # served briefly, rejected
    r4 = _rel("r4", "4")  # never activated
    r5 = _rel("r5", "5", ["t9"])  # served, never judged (a tune.yml candidate, an interrupted deploy)
    assert rollback_target([r1, r2, r3, r4, r5], "r2").id == "r1"
    assert rollback_target([r1, r2, r3, r4], "r3").id == "r2"
    # after rolling back to r1 (activated again at t5), "previous" is r2: the one that served before
    r1.activations.append("t5")
    assert rollback_target([r1, r2, r3], "r1").id == "r2"
    assert rollback_target([r1], "r1") is None


def test_prune_keeps_newest_current_and_rollback_target():
    rels = [_rel(f"r{i}", f"{i:02d}", [f"{i:02d}"], "passed") for i in range(1, 7)]
    # current is old r2 (rolled back), its rollback target is r6 (last other activation)
    doomed = {r.id for r in to_prune(rels, "r2", keep=2)}
    assert doomed == {"r1", "r3", "r4"}
    assert to_prune(rels, "r6", keep=10) == []
    with pytest.raises(KimiDeployError):
        to_prune(rels, "r6", keep=0)


def _make_release(root, rid, created="2026"):
    d = root / "releases" / rid
    d.mkdir(parents=True)
    (d / "release.json").write_text(json.dumps({"id": rid, "created_at": created}))


def test_swap_and_read_current(tmp_path):
    _make_release(tmp_path, "r1", "1")
    _make_release(tmp_path, "r2", "2")
    assert read_current(tmp_path) is None
    swap_current(tmp_path, "r1")
    assert os.readlink(tmp_path / "current") == "releases/r1"
    swap_current(tmp_path, "r2")
    assert read_current(tmp_path) == "r2"
    assert [r.id for r in list_releases(tmp_path)] == ["r1", "r2"]
    with pytest.raises(KimiDeployError, match="not a complete release"):
        swap_current(tmp_path, "r9")


def test_damaged_current_is_explained(tmp_path):
    _make_release(tmp_path, "r1")
    (tmp_path / "current").symlink_to("releases/gone")
    with pytest.raises(KimiDeployError, match=r"rollback\.yml"):
        read_current(tmp_path)
    (tmp_path / "current").unlink()
    (tmp_path / "current").symlink_to("/etc")
    with pytest.raises(KimiDeployError, match="does not point at releases"):
        read_current(tmp_path)
    (tmp_path / "current").unlink()
    (tmp_path / "current").mkdir()
    with pytest.raises(KimiDeployError, match="not a symlink"):
        read_current(tmp_path)


def test_partial_and_damaged_releases_are_not_listed(tmp_path):
    _make_release(tmp_path, "r1")
    (tmp_path / "releases" / ".r2.partial").mkdir()
    (tmp_path / "releases" / "r3").mkdir()
    (tmp_path / "releases" / "r3" / "release.json").write_text("{broken")
    assert [r.id for r in list_releases(tmp_path)] == ["r1"]


# ------------------------------------------------------------------ keep-N counts accepted releases


def test_prune_counts_only_accepted_releases_toward_keep():
    """Before: keep=2 kept the two newest of any verdict, so two failed deploys pushed every good
    release but the current one out."""
    good = [_rel(f"g{i}", f"0{i}", [f"0{i}"], "passed") for i in range(1, 4)]  # g3 current
    bad = [_rel("f1", "04", ["04"], "failed"), _rel("f2", "05", ["05"], "failed")]
    doomed = [r.id for r in to_prune(good + bad, "g3", keep=2)]
    assert set(doomed) == {"f1", "f2", "g1"}  # g3 (current) and g2 (newest accepted, rollback target) kept


def test_prune_removes_failed_and_never_judged_first():
    rels = [_rel("a1", "01", ["01"], "passed"), _rel("a2", "02", ["02"], "passed"),
            _rel("p1", "03"),                                   # created, never activated (interrupted deploy)
            _rel("t1", "04", ["04"]),                           # served, never judged (a tune.yml candidate)
            _rel("f1", "05", ["05"], "failed"),
            _rel("a3", "06", ["06"], "passed")]
    doomed = [r.id for r in to_prune(rels, "a3", keep=1)]
    assert doomed[:3] == ["f1", "t1", "p1"] and set(doomed) == {"f1", "t1", "p1", "a1"}
    assert "a2" not in doomed  # the rollback target is never pruned, even beyond keep


def test_prune_never_removes_current_even_when_not_accepted():
    rels = [_rel("a1", "01", ["01"], "passed"), _rel("x", "02", ["02"])]
    assert to_prune(rels, "x", keep=1) == []


# ------------------------------------------------- weights and venvs no kept release uses are collected


def _release_dir(root, rid, venv, model, venv_key=None):
    d = root / "releases" / rid
    d.mkdir(parents=True)
    os.symlink(f"../../shared/venvs/{venv}", d / "venv")
    os.symlink(f"../../shared/models/{model}", d / "model")
    (d / "release.json").write_text(json.dumps({"id": rid, "created_at": rid, "venv_key": venv_key or venv}))


def test_shared_used_by_reads_links_and_venv_key(tmp_path):
    _release_dir(tmp_path, "r1", "v1", "org--m@aaa", venv_key="v9")
    assert shared_used_by(tmp_path / "releases" / "r1", tmp_path) == {
        ("venvs", "v1"), ("venvs", "v9"), ("models", "org--m@aaa")}


def test_unused_shared_skips_work_in_progress():
    entries = {"models": ["m@1", "m@2", "m@3.partial", ".incoming", "m@2.progress.json"], "venvs": ["v1", "v2"]}
    assert unused_shared(entries, {("models", "m@1"), ("venvs", "v1")}) == [("models", "m@2"), ("venvs", "v2")]


def test_collectable_shared_keeps_what_remaining_releases_use(tmp_path):
    for kind, name in [("models", "m@1"), ("models", "m@2"), ("models", "m@3.partial"), ("venvs", "v1"),
                       ("venvs", "v2")]:
        (tmp_path / "shared" / kind / name).mkdir(parents=True)
    _release_dir(tmp_path, "r1", "v1", "m@1")
    _release_dir(tmp_path, "r2", "v2", "m@2")
    assert collectable_shared(tmp_path) == []
    assert collectable_shared(tmp_path, remaining={"r2"}) == [("models", "m@1"), ("venvs", "v1")]
    # a damaged release (no readable release.json) still holds on to what it links to
    (tmp_path / "releases" / "r1" / "release.json").write_text("{not json")
    assert collectable_shared(tmp_path) == []


# ------------------------------------------------------------------ release.json of every earlier version

RELEASE_FIXTURES = FIXTURES / "release-json"


@pytest.mark.parametrize("name", sorted(p.name for p in RELEASE_FIXTURES.glob("v*.json")))
def test_every_earlier_release_json_reads_as_the_current_version(tmp_path, name):
    from kimi_deploy.core.releases import RELEASE_SCHEMA_VERSION, load_release

    doc = json.loads((RELEASE_FIXTURES / name).read_text())
    rid = doc["id"]
    (tmp_path / "releases" / rid).mkdir(parents=True)
    (tmp_path / "releases" / rid / "release.json").write_text(json.dumps(doc))
    release = load_release(tmp_path, rid)
    assert release.meta["schema_version"] == RELEASE_SCHEMA_VERSION
    assert "plan" not in release.meta and release.meta["inputs"]["plan"]  # stored once
    assert release.acceptance == "passed" and release.activations == doc["activations"]
    plan = release.plan
    assert plan.layout.nnodes == len(plan.layout.nodes)
    assert plan.max_model_len == int(plan.serve_args[plan.serve_args.index("--max-model-len") + 1])
    assert [r.id for r in list_releases(tmp_path)] == [rid]


def test_the_plan_of_an_old_release_names_its_backend_and_flags():
    from kimi_deploy.core.multinode import backend_of, planned_gpus
    from kimi_deploy.core.releases import read_release_doc

    doc = read_release_doc(json.loads((RELEASE_FIXTURES / "v0-plan-twice-ray-multinode.json").read_text()))
    plan = doc["inputs"]["plan"]
    assert backend_of(plan) == "ray" and planned_gpus(plan) == 16
    assert Release.from_json(doc["id"], doc).plan.serve_flags.extra_args[-2:] == ("--seed", "7")
    cpu = read_release_doc(json.loads((RELEASE_FIXTURES / "v0-plan-twice.json").read_text()))
    assert backend_of(cpu["inputs"]["plan"]) == "mp" and planned_gpus(cpu["inputs"]["plan"]) == 0


def test_a_release_json_of_a_later_version_is_refused_with_the_fix():
    from kimi_deploy.core.releases import RELEASE_SCHEMA_VERSION, read_release_doc

    with pytest.raises(KimiDeployError, match="update the collection"):
        read_release_doc({"schema_version": RELEASE_SCHEMA_VERSION + 1})
    assert read_release_doc({"schema_version": RELEASE_SCHEMA_VERSION, "inputs": {}})["inputs"] == {}


def test_a_new_release_stores_the_plan_once():
    from kimi_deploy.core.releases import RELEASE_SCHEMA_VERSION, new_release_doc

    plan = {"max_model_len": 512, "serve_args": ["--max-model-len", "512"]}
    doc = new_release_doc({"id": "r", "plan": plan, "host": "h"}, {"plan": plan, "venv": "v"})
    assert doc == {"id": "r", "host": "h", "inputs": {"plan": plan, "venv": "v"},
                   "schema_version": RELEASE_SCHEMA_VERSION}
    with pytest.raises(KimiDeployError, match="another plan"):
        new_release_doc({"plan": {"max_model_len": 1}}, {"plan": plan})
    with pytest.raises(KimiDeployError, match=r"inputs\.plan"):
        new_release_doc({"plan": plan}, {})
