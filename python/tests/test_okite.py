"""The package against published counts, against the command line's own `--json`, and its
errors and threads."""

import json
import subprocess
import threading
import time

import okite
import pytest
from conftest import problems


def cli(okite_bin, *args):
    """What the command line prints with --json, read."""
    o = subprocess.run([okite_bin, *args, "--json"], capture_output=True, text=True)
    assert o.returncode == 0, o.stderr
    return json.loads(o.stdout)


def steady(report):
    """A report without the fields that vary from run to run (time)."""
    if isinstance(report, dict):
        return {k: steady(v) for k, v in report.items() if k not in ("ms", "seconds")}
    if isinstance(report, list):
        return [steady(v) for v in report]
    return report


def test_perft_is_the_published_count():
    # perft of the start position: 30, 900, 25470 (published counts of shogi)
    assert [okite.perft(d)["count"] for d in (1, 2, 3)] == [30, 900, 25470]
    # minishogi from its start: Fairy-Stockfish's 14, 181, 2512
    assert [okite.perft(d, variant="minishogi")["count"] for d in (1, 2, 3)] == [14, 181, 2512]
    # after 7g7f the second player still has the 30 moves of the start
    r = okite.perft(1, moves=["7g7f"], reading="narrow")
    assert r["count"] == 30 and r["engine"]["reading"] == "narrow"
    assert okite.perft(2, moves="7g7f", engine="rules")["count"] == okite.perft(2, moves="7g7f")["count"]
    assert okite.perft(3, jobs=2)["count"] == 25470


def test_legal_moves():
    r = okite.legal()
    assert len(r["moves"]) == 30 and "7g7f" in r["moves"]
    after = okite.legal(moves="7g7f 3c3d")["moves"]
    assert len(after) == okite.perft(1, moves=["7g7f", "3c3d"])["count"] and "8h2b+" in after
    assert okite.legal(variant="dobutsu")["moves"]


def test_mate_and_its_batch(shared):
    r = okite.mate("4k4/9/4P4/9/9/9/9/9/9 b G 1")
    assert (r["result"], r["plies"], r["pv"]) == ("mate", 1, ["G*5b"])
    assert okite.mate("4k4/9/9/9/9/9/9/9/4K4 b - 1")["result"] == "nomate"
    sets = problems(shared, "mate-3-ply")[:40]
    reports = okite.mate_batch(sets + ["not an sfen"], jobs=2)
    assert [r["plies"] for r in reports[:40]] == [3] * 40
    assert reports[40]["result"] == "error" and reports[40]["code"] == "E0401"


def test_tsume_report():
    r = okite.tsume("4k4/9/4P4/9/9/9/9/9/9 b G 1")
    assert r["main_line"] == ["G*5b"] and r["plies"] == 1
    assert all(v["sound"] for v in r["verdicts"])
    reports = okite.tsume_batch(["4k4/9/4P4/9/9/9/9/9/9 b G 1"] * 3, jobs=2)
    assert len(reports) == 3 and all(x["plies"] == 1 for x in reports)


def test_game_under_rule_sets(root):
    r = okite.game(kif=str(root / "tests/data/records/nifu.kif"), rulesets=["jsa"])
    assert r["moves"] and r["results"][0]["ruleset"] == "jsa"
    many = okite.game_records(str(root / "tests/data/records"), jobs=2)
    assert [m["record"].rsplit("/", 1)[1] for m in many] == [
        "ambiguous.ki2",
        "nifu.kif",
        "resign.csa",
        "uchifuzume.kif",
    ]


def test_go_counts_results_classes_and_values(root):
    # the legal positions of the 2 x 2 and 3 x 3 boards: 57 and 12,675 (Tromp and Farnebäck)
    assert okite.go_count("grid:2x2")["count"] == 57
    assert okite.go_count("grid:3x3")["count"] == 12675
    r = okite.go_result(graph="grid:3x3", moves="B B2, W pass, B pass", rulesets=["chinese"])
    assert r["results"][0]["winner"] == "B"
    many = okite.go_result_records(str(root / "tests/data/go"), rulesets=["japanese"], jobs=2)
    assert len(many) >= 8 and all("results" in m for m in many)
    assert okite.go_classes("path:3")["classes"] == ["N", "N", "N"]
    v = okite.go_solve("path:3")
    assert "value" in v


def test_evaluate_and_check(tmp_path):
    assert okite.evaluate("1 + 1") == {"value": 2, "type": "Int"}
    assert okite.evaluate("size(legal(g, i))", sfen="startpos")["value"] == 30
    assert okite.check()["ok"] is True
    bad = tmp_path / "bad.rule"
    bad.write_text("def x = 1 + true\n")
    with pytest.raises(okite.OkiteError) as e:
        okite.check(str(bad))
    assert e.value.code == "E0200" and "expected Int, found Bool" in e.value.text


def test_errors_carry_their_code():
    with pytest.raises(okite.OkiteError) as e:
        okite.perft(1, sfen="bad")
    assert e.value.code == "E0401" and e.value.status == 2
    assert "SFEN" in e.value.text and "E0401" in str(e.value)
    with pytest.raises(okite.OkiteError) as e:
        okite.run("perft", "--no-such-option")
    assert e.value.code == "usage"
    with pytest.raises(okite.OkiteError) as e:
        okite.perft(1, variant="no-such-variant")
    assert e.value.code.startswith("E")


def test_the_dicts_are_the_command_lines_json(okite_bin, root):
    if not okite_bin:
        pytest.skip("OKITE_BIN names no binary")
    assert okite.perft(3) == cli(okite_bin, "perft", "--depth", "3")
    assert okite.legal(moves="7g7f") == cli(okite_bin, "legal", "--moves", "7g7f")
    sfen = "4k4/9/4P4/9/9/9/9/9/9 b G 1"
    assert steady(okite.mate(sfen)) == steady(cli(okite_bin, "mate", "--sfen", sfen))
    assert steady(okite.tsume(sfen)) == steady(cli(okite_bin, "tsume", "--sfen", sfen))
    kif = str(root / "tests/data/records/nifu.kif")
    assert okite.game(kif=kif) == cli(okite_bin, "game", "--kif", kif)
    assert okite.go_count("grid:3x3") == cli(okite_bin, "go", "count", "--graph", "grid:3x3")
    sgf = str(root / "tests/data/go/seki.sgf")
    assert okite.go_result(sgf=sgf) == cli(okite_bin, "go", "result", "--sgf", sgf)
    assert okite.go_classes("path:4") == cli(okite_bin, "go", "classes", "--graph", "path:4")


def test_the_interpreter_runs_while_searches_run(shared):
    """The lock is released during a search: the interpreter goes on while two threads search,
    and their searches overlap."""
    heavy = problems(shared, "mate-11-ply")[:12]
    t0 = time.perf_counter()
    okite.mate_batch(heavy, jobs=1)
    alone = time.perf_counter() - t0
    spans = {}
    barrier = threading.Barrier(2)

    def search(name):
        barrier.wait()
        start = time.perf_counter()
        okite.mate_batch(heavy, jobs=1)
        spans[name] = (start, time.perf_counter())

    threads = [threading.Thread(target=search, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    ticks = 0
    while any(t.is_alive() for t in threads):
        ticks += 1
        time.sleep(0.001)
    for t in threads:
        t.join()
    (a0, a1), (b0, b1) = spans["a"], spans["b"]
    # each search began before the other ended
    assert a0 < b1 and b0 < a1, spans
    # held, the lock would run them one after the other: the later would end a whole search
    # after the earlier
    assert abs(a1 - b1) < 0.5 * alone, (spans, alone)
    assert ticks > 10, ticks


def test_the_readme_notebook_is_true(root, monkeypatch):
    """The README's first Python block runs, and each line whose comment is a Python value
    gives that value."""
    import ast

    text = (root / "README.md").read_text()
    block = text.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(root)
    names = {}
    checked = 0
    for line in block.splitlines():
        code, _, comment = line.partition("  # ")
        if code.startswith("import "):
            exec(code, names)
            continue
        value = eval(code, names)
        try:
            expected = ast.literal_eval(comment.strip())
        except (ValueError, SyntaxError):
            assert value, line
            continue
        assert value == expected, line
        checked += 1
    assert checked >= 2


def test_version_and_run():
    assert okite.version() == "0.1.0"
    c = okite.run("go", "count", "--graph", "path:3")
    assert c["status"] == 0 and c["stdout"].strip().splitlines()[-1] == "15"  # Tromp: L(1, 3) = 15
    c = okite.run("perft", "--depth", "1", "--sfen", "bad", check=False)
    assert c["status"] == 2 and c["codes"][0] == "E0401" and set(c["codes"]) == {"E0401"}
