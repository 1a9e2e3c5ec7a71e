import json
import os

import kimi_release
from module_harness import run_module
from repo_paths import FIXTURES


def _present(root, **kw):
    args = {"root": str(root), "state": "present", "version_label": "0.32.0",
            "inputs": {"plan": {"max_model_len": kw.pop("mml", 512)}},
            "files": {"serve": {"content": "#!/bin/sh\nexec true\n", "mode": "0755"},
                      "vllm.env": "A=1\n"},
            "links": {"model": "../../shared/models/tiny@abc"}}
    args.update(kw)
    return run_module(kimi_release, args, check_mode=kw.get("check", False))


def _accept(root, rid):
    """Activate a release and record that it passed acceptance, as a successful deploy does."""
    run_module(kimi_release, {"root": str(root), "state": "active", "release_id": rid})
    run_module(kimi_release, {"root": str(root), "state": "verdict", "release_id": rid, "verdict": "passed"})


def test_present_creates_once_and_is_idempotent(tmp_path):
    first = _present(tmp_path)
    assert first["changed"] is True
    rid = first["release_id"]
    rel = tmp_path / "releases" / rid
    assert os.access(rel / "serve", os.X_OK)
    assert os.readlink(rel / "model") == "../../shared/models/tiny@abc"
    doc = json.loads((rel / "release.json").read_text())
    assert doc["inputs"] == {"plan": {"max_model_len": 512}} and doc["activations"] == []
    again = _present(tmp_path)
    assert again["changed"] is False and again["release_id"] == rid
    assert json.loads((rel / "release.json").read_text())["created_at"] == doc["created_at"]


def test_check_mode_creates_nothing(tmp_path):
    result = run_module(kimi_release, {"root": str(tmp_path), "state": "present", "inputs": {"a": 1}},
                        check_mode=True)
    assert result["changed"] is True
    assert not (tmp_path / "releases").exists()


def test_tampered_release_is_refused(tmp_path):
    rid = _present(tmp_path)["release_id"]
    (tmp_path / "releases" / rid / "serve").write_text("#!/bin/sh\nexec evil\n")
    result = _present(tmp_path)
    assert result.get("failed") and "immutable" in result["msg"] and "serve" in result["msg"]


def test_activate_verdict_rollback_prune_cycle(tmp_path):
    r1 = _present(tmp_path, mml=512)["release_id"]
    r2 = _present(tmp_path, mml=1024)["release_id"]
    act = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": r1}, diff=True)
    assert act["changed"] and act["diff"] == {"before": {"current": None}, "after": {"current": r1}}
    assert run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": r1})["changed"] is False
    run_module(kimi_release, {"root": str(tmp_path), "state": "verdict", "release_id": r1, "verdict": "passed"})
    run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": r2})
    q = run_module(kimi_release, {"root": str(tmp_path)})
    assert q["current"] == r2 and q["rollback_target"] == r1
    # check mode predicts the swap without doing it
    dry = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "rollback": True}, check_mode=True)
    assert dry["changed"] and dry["release_id"] == r1
    assert os.readlink(tmp_path / "current") == f"releases/{r2}"
    back = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "rollback": True})
    assert back["release_id"] == r1 and back["previous"] == r2
    assert os.readlink(tmp_path / "current") == f"releases/{r1}"
    acts = json.loads((tmp_path / "releases" / r1 / "release.json").read_text())["activations"]
    assert len(acts) == 2


def test_failed_release_is_never_a_rollback_target(tmp_path):
    r1 = _present(tmp_path, mml=512)["release_id"]
    _accept(tmp_path, r1)
    r2 = _present(tmp_path, mml=1024)["release_id"]
    run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": r2})
    run_module(kimi_release, {"root": str(tmp_path), "state": "verdict", "release_id": r2, "verdict": "failed",
                              "details": {"failed_checks": ["smoke"]}})
    back = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "rollback": True})
    assert back["release_id"] == r1
    result = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "rollback": True})
    assert result.get("failed") and "no release to roll back to" in result["msg"]


def test_prune_module(tmp_path):
    ids = []
    for mml in (256, 512, 768, 1024):
        rid = _present(tmp_path, mml=mml)["release_id"]
        _accept(tmp_path, rid)
        ids.append(rid)
    # current is ids[3], its rollback target ids[2]: with keep=2 the two older ones go
    dry = run_module(kimi_release, {"root": str(tmp_path), "state": "pruned", "keep": 2}, check_mode=True)
    assert set(dry["pruned"]) == {ids[0], ids[1]}
    assert (tmp_path / "releases" / ids[0]).exists()
    done = run_module(kimi_release, {"root": str(tmp_path), "state": "pruned", "keep": 2})
    assert done["changed"] and set(done["pruned"]) == {ids[0], ids[1]}
    assert sorted(p.name for p in (tmp_path / "releases").iterdir()) == sorted(ids[2:])
    # roll back to ids[2]: its own rollback target (ids[3]) must survive keep=1
    run_module(kimi_release, {"root": str(tmp_path), "state": "active", "rollback": True})
    kept = run_module(kimi_release, {"root": str(tmp_path), "state": "pruned", "keep": 1})
    assert kept["changed"] is False and kept["pruned"] == []


def test_prune_module_drops_failed_releases_and_collects_unused_weights_and_venvs(tmp_path):
    models, venvs = tmp_path / "shared" / "models", tmp_path / "shared" / "venvs"
    for d in (models / "tiny@abc", models / "tiny@old", models / "tiny@new.partial", venvs / "v-old", venvs / "v-1"):
        d.mkdir(parents=True)
    (models / "tiny@old.progress.json").write_text("{}")
    old_links = {"model": "../../shared/models/tiny@old", "venv": "../../shared/venvs/v-old"}
    old = _present(tmp_path, mml=128, links=old_links)["release_id"]
    _accept(tmp_path, old)
    good = []
    for mml in (256, 512):
        links = {"model": "../../shared/models/tiny@abc", "venv": "../../shared/venvs/v-1"}
        rid = _present(tmp_path, mml=mml, links=links)["release_id"]
        _accept(tmp_path, rid)
        good.append(rid)
    failed = _present(tmp_path, mml=768)["release_id"]
    run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": failed})
    run_module(kimi_release, {"root": str(tmp_path), "state": "verdict", "release_id": failed, "verdict": "failed"})
    run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": good[1]})  # restored

    args = {"root": str(tmp_path), "state": "pruned", "keep": 1, "collect_unused": True}
    dry = run_module(kimi_release, args, check_mode=True, diff=True)
    assert set(dry["pruned"]) == {failed, old}  # good[0] is the rollback target
    assert dry["collected"] == ["shared/models/tiny@old", "shared/venvs/v-old"]
    assert dry["diff"]["before"]["shared"] == dry["collected"] and (models / "tiny@old").is_dir()
    done = run_module(kimi_release, args)
    assert done["changed"] and done["collected"] == dry["collected"]
    assert sorted(p.name for p in models.iterdir()) == ["tiny@abc", "tiny@new.partial"]
    assert sorted(p.name for p in venvs.iterdir()) == ["v-1"]
    assert run_module(kimi_release, args)["changed"] is False


def test_prune_module_collects_nothing_when_opted_out(tmp_path):
    (tmp_path / "shared" / "models" / "orphan@1").mkdir(parents=True)
    rid = _present(tmp_path)["release_id"]
    _accept(tmp_path, rid)
    result = run_module(kimi_release, {"root": str(tmp_path), "state": "pruned", "keep": 1})
    assert result["changed"] is False and result["collected"] == []
    assert (tmp_path / "shared" / "models" / "orphan@1").is_dir()


def test_ledger_rows_are_appended_once_per_attempt(tmp_path):
    rid = _present(tmp_path)["release_id"]
    row = {"attempt_id": "h/r/1", "verdict": "passed", "predicted_kv_tokens": 2176}
    first = run_module(kimi_release, {"root": str(tmp_path), "state": "recorded", "release_id": rid, "record": row})
    again = run_module(kimi_release, {"root": str(tmp_path), "state": "recorded", "release_id": rid, "record": row})
    other = run_module(kimi_release, {"root": str(tmp_path), "state": "recorded", "release_id": rid,
                                      "record": {**row, "attempt_id": "h/r/2"}})
    assert (first["changed"], again["changed"], other["changed"]) == (True, False, True)
    doc = json.loads((tmp_path / "releases" / rid / "release.json").read_text())
    assert [r["attempt_id"] for r in doc["ledger"]] == ["h/r/1", "h/r/2"]


def test_same_inputs_but_other_file_content_is_another_release(tmp_path):
    a = _present(tmp_path)["release_id"]
    b = _present(tmp_path, files={"serve": {"content": "#!/bin/sh\nexec false\n", "mode": "0755"}})["release_id"]
    assert a != b


def test_activation_repairs_a_damaged_current_but_query_explains_it(tmp_path):
    r1 = _present(tmp_path)["release_id"]
    run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": r1})
    run_module(kimi_release, {"root": str(tmp_path), "state": "verdict", "release_id": r1, "verdict": "passed"})
    (tmp_path / "current").unlink()
    (tmp_path / "current").symlink_to("releases/vanished")
    query = run_module(kimi_release, {"root": str(tmp_path)})
    assert query["failed"] and "rollback.yml" in query["msg"]
    fixed = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "rollback": True})
    assert fixed["changed"] and fixed["release_id"] == r1 and "vanished" in fixed["repaired"]
    assert os.readlink(tmp_path / "current") == f"releases/{r1}"


def test_a_release_never_judged_is_no_rollback_target(tmp_path):
    r1 = _present(tmp_path, mml=512)["release_id"]
    _accept(tmp_path, r1)
    candidate = _present(tmp_path, mml=640)["release_id"]  # e.g. a tune.yml candidate
    run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": candidate})
    run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": r1})
    assert run_module(kimi_release, {"root": str(tmp_path)})["rollback_target"] is None


def test_rollback_to_a_release_written_before_the_schema_version(tmp_path):
    """A release.json of version 0 (the plan twice, no schema_version) stays a rollback target; activating it
    rewrites it in the current version, with the same id and the plan once."""

    from kimi_deploy.core.releases import RELEASE_SCHEMA_VERSION

    fixture = FIXTURES / "release-json" / "v0-plan-twice-ray-multinode.json"
    old = json.loads(fixture.read_text())
    (tmp_path / "releases" / old["id"]).mkdir(parents=True)
    (tmp_path / "releases" / old["id"] / "release.json").write_text(json.dumps(old))
    (tmp_path / "releases" / old["id"] / "serve").write_text("#!/bin/sh\nexec vllm serve --port 8000\n")
    os.symlink(f"releases/{old['id']}", tmp_path / "current")
    new = _present(tmp_path, metadata={"plan": {"max_model_len": 512}})
    assert not new.get("failed"), new.get("msg")
    doc = json.loads((tmp_path / "releases" / new["release_id"] / "release.json").read_text())
    assert doc["schema_version"] == RELEASE_SCHEMA_VERSION and "plan" not in doc  # stored once, in inputs
    run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": new["release_id"]})
    back = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "rollback": True})
    assert back["release_id"] == old["id"] and os.readlink(tmp_path / "current") == f"releases/{old['id']}"
    assert back["service"] == {"host": "0.0.0.0", "port": 8000, "served_model_name": "moonshotai/Kimi-K3"}
    rewritten = json.loads((tmp_path / "releases" / old["id"] / "release.json").read_text())
    assert rewritten["schema_version"] == RELEASE_SCHEMA_VERSION and "plan" not in rewritten
    assert rewritten["inputs"]["plan"] == old["inputs"]["plan"] and len(rewritten["activations"]) == 2
    assert rewritten["ledger"] == old["ledger"]


def _laid_out(root, nnodes, mml):
    """A release whose plan is laid out over ``nnodes`` nodes, activated and accepted."""
    rid = _present(root, inputs={"plan": {"max_model_len": mml, "layout": {"nnodes": nnodes}}})["release_id"]
    _accept(root, rid)
    return rid


def test_restore_and_rollback_take_only_a_release_of_this_replicas_size(tmp_path):
    # single r1, then a pair's r2 (the host joined a 2-node replica), then the host is its own replica again
    r1 = _laid_out(tmp_path, 1, 512)
    r2 = _laid_out(tmp_path, 2, 1024)
    r3 = _present(tmp_path, inputs={"plan": {"max_model_len": 2048, "layout": {"nnodes": 1}}})["release_id"]
    run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": r3, "pending": True})
    q = run_module(kimi_release, {"root": str(tmp_path), "replica_nodes": 1})
    assert q["rollback_target"] == r1 and q["passed_over"] == [f"{r2} (2 nodes)"]
    assert run_module(kimi_release, {"root": str(tmp_path)})["rollback_target"] == r2  # any size: the latest
    restored = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "restore": True,
                                         "replica_nodes": 1})
    assert restored["serving"] == r1 and os.readlink(tmp_path / "current") == f"releases/{r1}"


def test_restore_with_no_release_of_this_size_serves_nothing_and_says_which_were_passed_over(tmp_path):
    r1 = _laid_out(tmp_path, 2, 512)
    r2 = _present(tmp_path, inputs={"plan": {"max_model_len": 2048, "layout": {"nnodes": 1}}})["release_id"]
    run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": r2, "pending": True})
    restored = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "restore": True,
                                         "replica_nodes": 1})
    assert restored["serving"] is None and restored["passed_over"] == [f"{r1} (2 nodes)"]
    assert os.readlink(tmp_path / "current") == f"releases/{r2}"  # nothing to go back to: current stays
    rollback = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "rollback": True,
                                         "replica_nodes": 1})
    assert rollback.get("failed") and f"{r1} (2 nodes)" in rollback["msg"] and "kimi_rollback_to" in rollback["msg"]


def test_a_named_release_of_another_size_is_refused_before_current_moves(tmp_path):
    r1 = _laid_out(tmp_path, 2, 512)
    r2 = _laid_out(tmp_path, 1, 1024)
    refused = run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": r1,
                                        "replica_nodes": 1})
    assert refused.get("failed") and "laid out over 2 node(s) but this replica has 1" in refused["msg"]
    assert os.readlink(tmp_path / "current") == f"releases/{r2}"
    assert run_module(kimi_release, {"root": str(tmp_path), "state": "active", "release_id": r1,
                                     "replica_nodes": 2})["current"] == r1


def test_prune_keeps_the_rollback_target_of_this_replicas_size(tmp_path):
    r1 = _laid_out(tmp_path, 1, 512)
    r2 = _laid_out(tmp_path, 2, 1024)
    r3 = _laid_out(tmp_path, 1, 2048)
    pruned = run_module(kimi_release, {"root": str(tmp_path), "state": "pruned", "keep": 1, "replica_nodes": 1})
    assert r1 not in pruned["pruned"] and pruned["rollback_target"] == r1, pruned
    assert {r.name for r in (tmp_path / "releases").iterdir()} >= {r1, r2, r3}  # r2: the latest of any size
