"""okite.dask across a local cluster of worker processes: the results cross process
boundaries, and equal one machine's; a worker killed mid-run loses nothing."""

import json
import os
import signal
import subprocess
import time

import distributed
import okite
import okite.dask as od
import pytest
from conftest import problems


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def steady(reports):
    """Reports without the fields that vary with the machine and the table (time, nodes)."""
    return [{k: v for k, v in r.items() if k not in ("ms", "nodes")} for r in reports]


def test_two_thousand_problems_as_one_machine_solves_them(client, shared, okite_bin, tmp_path):
    sets = problems(shared, "mate-1-ply", "mate-3-ply", "mate-5-ply", "mate-7-ply", "mate-9-ply")
    batch = sets[:1995] + ["# a comment", "not an sfen", "", "4k4/9/4P4/9/9/9/9/9/9 b G 1"]
    spread = od.mate_batch(client, batch, chunk=100)
    assert len(spread) == 1997
    here = okite.mate_batch(batch, jobs=1)
    assert steady(spread) == steady(here)
    bad = [r for r in spread if r["result"] == "error"]
    assert len(bad) == 1 and bad[0]["line"] == 1997 and bad[0]["code"] == "E0401"
    assert sum(1 for r in spread if r["result"] == "mate") == 1996
    if okite_bin:
        f = tmp_path / "batch.sfen"
        f.write_text("\n".join(batch) + "\n")
        o = subprocess.run(
            [okite_bin, "mate", "--batch", str(f), "--json"], capture_output=True, text=True
        )
        cli = [json.loads(line) for line in o.stdout.splitlines()]
        assert steady(spread) == steady(cli)


def test_a_worker_killed_mid_run_loses_nothing(client, shared):
    batch = problems(shared, "mate-11-ply")[:60]
    here = okite.mate_batch(batch, jobs=1)
    futures = [
        client.submit(od._mate_task, part, {}, retries=3, pure=False)
        for part in od._chunks(batch, 3)
    ]
    pids = client.run(os.getpid)
    # once the first answers are in, one worker is killed with tasks of its own still to do
    distributed.wait(futures, return_when="FIRST_COMPLETED")
    left = sum(1 for f in futures if not f.done())
    assert left > 2, left
    victim = sorted(pids.values())[0]
    os.kill(victim, signal.SIGKILL)
    spread = [r for part in client.gather(futures) for r in part]
    assert steady(spread) == steady(here)
    # the killed worker's place is taken by a new process (the nanny's)
    deadline = time.time() + 30
    while time.time() < deadline and victim in client.run(os.getpid).values():
        time.sleep(0.2)
    assert victim not in client.run(os.getpid).values()
    # the public function over the same cluster, after the loss
    assert steady(od.mate_batch(client, batch, chunk=7)) == steady(here)


def test_perft_split_by_first_moves(client):
    r = od.perft(client, 4)
    assert r["count"] == 719731  # the published perft(4) of shogi
    assert len(r["divide"]) == 30 and sum(r["divide"].values()) == 719731
    assert od.perft(client, 4, variant="minishogi")["count"] == 35401  # Fairy-Stockfish's
    assert od.perft(client, 1)["count"] == 30


def test_go_classes_split_by_first_moves(client, tmp_path):
    for graph, moves in [("path:5", ""), ("grid:2x3", ""), ("cycle:5", "B 1")]:
        alone = okite.go_classes(graph, moves=moves)
        merged_file = tmp_path / f"{graph.replace(':', '_')}.results"
        split = od.go_classes(client, graph, moves=moves, results=str(merged_file))
        assert split["classes"] == alone["classes"], graph
        assert split["split"]["first_moves"] > 0 and split["split"]["results_files"] > 0
        # the merged results classify the position again, read alone
        again = okite.go_classes(graph, moves=moves, read_results=[str(merged_file)])
        assert again["classes"] == alone["classes"]


def test_records_of_a_folder(client, root):
    shogi = od.game_records(client, str(root / "tests/data/records"), chunk=1, rulesets=["jsa"])
    assert shogi == okite.game_records(str(root / "tests/data/records"), rulesets=["jsa"])
    go = od.go_result_records(client, str(root / "tests/data/go"), chunk=3)
    assert go == okite.go_result_records(str(root / "tests/data/go"))
    assert [g["record"] for g in go] == sorted(g["record"] for g in go)
