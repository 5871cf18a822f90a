#!/usr/bin/env bash
# Measures okite against the public peers that can be installed here, on the same inputs in one
# run, and prints one table. Peers live in a throwaway Python environment (never a dependency of
# the project). Usage: scripts/bench.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
ORACLES=${OKITE_ORACLES:-../shared/shogi-oracles}   # the public test data (not in the project)
quick=${1:-}
cargo build --release --quiet
okite=./target/release/okite
venv=$(mktemp -d)/venv
python3 -m venv "$venv" >/dev/null 2>&1 && "$venv/bin/pip" install --quiet cshogi >/dev/null 2>&1 && peer=yes || peer=no
"$venv/bin/pip" install --quiet sgfmill >/dev/null 2>&1 && gopeer=yes || gopeer=no

# The seconds a command takes, or "-" when it fails (a bound reached, say).
secs() { local t0 t1; t0=$(date +%s.%N); if "$@" >/dev/null 2>&1; then t1=$(date +%s.%N); python3 -c "print(f'{$t1 - $t0:.4f}')"; else echo "-"; fi; }
row() { printf '%-44s %12s %12s %8s\n' "$1" "$2" "$3" "$4"; }
ratio() { if [ "$2" = "-" ] || [ "$1" = "-" ]; then echo "-"; else python3 -c "print(f'{$2 / $1:.2f}' if $1 > 0 else '-')"; fi; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); date: $(date -u +%Y-%m-%d)"
row "measure" "okite (s)" "peer (s)" "peer/okite"
depth=6; [ "$quick" = "--quick" ] && depth=5
a=$(secs $okite perft --sfen startpos --depth $depth)
b=-
if [ "$peer" = yes ]; then
  b=$(secs "$venv/bin/python" - "$depth" <<'PY'
import sys, cshogi
def perft(b, d):
    if d == 1:
        return len(b.legal_moves)
    n = 0
    for m in b.legal_moves:
        b.push(m); n += perft(b, d - 1); b.pop()
    return n
print(perft(cshogi.Board(), int(sys.argv[1])))
PY
)
fi
row "perft($depth) start position, native vs cshogi" "$a" "$b" "$(ratio "$a" "$b")"
r2=$(secs $okite perft --engine rules --depth 2)
n2=$(secs $okite perft --depth 2)
row "perft(2) start position, rules vs native" "$r2" "$n2" "$(ratio "$r2" "$n2")"
if [ "$quick" != "--quick" ]; then
  r3=$(secs $okite perft --engine rules --depth 3)
  row "perft(3) start position, rules engine" "$r3" "-" "-"
fi
# Mate search: the published sets with --length any (the first proof), okite against cshogi's
# DfPn (its defaults: depth 31, 1,048,576 nodes per problem) on the same files, the best of
# fifteen runs each (five alternating rounds of three; one round with --quick). okite's time is
# the whole process; the peer's is its search loop alone, timed
# inside Python (interpreter start and import, about 0.2 s, left out), with a new DfPn per run.
best3() { local b=; for _ in 1 2 3; do t=$(secs "$@"); b=$(python3 -c "print(f'{min(float(\"${b:-1e9}\"), $t):.3f}')"); done; echo "$b"; }
rounds=5; [ "$quick" = "--quick" ] && rounds=1
for n in 5 7 9 11; do
  f="$ORACLES"/tsume/nshogi/mate-$n-ply.sfen
  # Rounds alternate between the two (the best of three runs each), and each side's best over
  # the rounds is kept: the machine's load changes over seconds.
  a=999; b=-
  for _ in $(seq $rounds); do
    a=$(python3 -c "print(f'{min($a, $(best3 $okite mate --batch $f --length any --json --hash-mb 64)):.3f}')")
    if [ "$peer" = yes ]; then
      c=$("$venv/bin/python" - "$f" <<'PY'
import sys, time, cshogi
from cshogi import DfPn
best = float("inf")
for _ in range(3):
    d = DfPn(); b = cshogi.Board(); n = 0
    t0 = time.perf_counter()
    for line in open(sys.argv[1]):
        if line.strip():
            b.set_sfen(line.strip()); n += d.search(b) and len(d.get_pv(b)) > 0
    assert n == 500, n
    best = min(best, time.perf_counter() - t0)
print(f"{best:.3f}")
PY
)
      if [ "$b" = - ]; then b=$c; else b=$(python3 -c "print(f'{min($b, $c):.3f}')"); fi
    fi
  done
  row "mate-$n set (500), --length any, vs cshogi DfPn" "$a" "$b" "$(ratio "$a" "$b")"
done
# Threads: the mate-9 and mate-11 sets with --length shortest (the default: the first proof of
# --length any takes a millisecond or two a problem, too little to share), two threads against
# one in alternating runs, the best of each (three rounds; one with --quick). Wall time, so the
# figure means something only when the second core is free: the row gives the load average
# (/proc/loadavg, one minute) before the runs. The "okite" column is two threads, the "peer"
# column one, the ratio the speedup.
trounds=3; [ "$quick" = "--quick" ] && trounds=1
for n in 9 11; do
  f="$ORACLES"/tsume/nshogi/mate-$n-ply.sfen
  load=$(cut -d' ' -f1 /proc/loadavg)
  t1=999; t2=999
  for _ in $(seq $trounds); do
    t1=$(python3 -c "print(f'{min($t1, $(secs $okite mate --batch $f --length shortest --json --hash-mb 64 --threads 1)):.3f}')")
    t2=$(python3 -c "print(f'{min($t2, $(secs $okite mate --batch $f --length shortest --json --hash-mb 64 --threads 2)):.3f}')")
  done
  row "mate-$n shortest, 2 vs 1 threads (load $load)" "$t2" "$t1" "$(ratio "$t2" "$t1")"
done
# Mate in one, per position (ns; the best of five runs), on both published sets; the peer's
# figure includes the Python call.
m1=$(cargo test --release --quiet --lib -- --ignored --exact shogi::mate1::bench::bench_mate1 --nocapture 2>/dev/null | grep -o '[0-9]* ns per position' | awk '{print $1}')
c1="- -"
if [ "$peer" = yes ]; then
  c1=$("$venv/bin/python" - "$ORACLES"/tsume/nshogi/mate-1-ply.sfen "$ORACLES"/tsume/nshogi/no-mate-1-ply.sfen <<'PY'
import sys, time, cshogi
out = []
for path in sys.argv[1:]:
    bs = []
    for l in open(path):
        if l.strip():
            b = cshogi.Board(); b.set_sfen(l.strip()); bs.append(b)
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(20):
            for b in bs:
                b.mate_move_in_1ply()
        best = min(best, (time.perf_counter() - t0) / (20 * len(bs)) * 1e9)
    out.append(f"{best:.0f}")
print(" ".join(out))
PY
)
fi
set -- $m1; o1=${1:--}; o2=${2:--}
set -- $c1; p1=$1; p2=$2
row "mate in 1, ns/position, mate-1 set" "$o1" "$p1" "$(ratio "$o1" "$p1")"
row "mate in 1, ns/position, no-mate-1 set" "$o2" "$p2" "$(ratio "$o2" "$p2")"
# The 3-ply routine with the omissions of its interposition phase on and off, on three sets of
# positions (two runs each, the better kept): us per position, and off/on as the ratio.
cargo test --release --quiet --lib -- --ignored --exact shogi::mate3::bench::bench_mate3 --nocapture --test-threads=1 2>/dev/null |
  awk '/^[a-z+-]*:$/ { set = $1; sub(":", "", set); order[++n] = set }
       /^omissions=/ { split($0, a, "[(]"); split(a[2], b, " "); us = b[1];
         k = ($1 == "omissions=true:") ? "on" : "off";
         if (!((set, k) in best) || us < best[set, k]) best[set, k] = us }
       END { for (i = 1; i <= n; i++) { s = order[i];
         printf "%-44s %12s %12s %8.2f\n", "3-ply routine us/pos, " s ", on vs off", best[s, "on"], best[s, "off"], best[s, "off"] / best[s, "on"] } }'
if [ "$quick" != "--quick" ]; then
  sfen=$(grep '^kh-microcosmos' "$ORACLES"/tsume/curated/curated.tsv | cut -f2)
  mc=$( { /usr/bin/time -f %e $okite mate --sfen "$sfen" --length any --time-ms 120000 --hash-mb 4096 --json | grep -o '"result": "[a-z]*", "plies": [0-9]*' | tr -d '"' ; } 2>&1 | paste -sd' ' -)
  row "Microcosmos (1525), 120 s limit" "$mc" "-" "-"
  # Long composed problems against KomoringHeights at 60 s each (about half an hour), when
  # KH_BIN names a binary built outside the repository from its public source.
  if [ -n "${KH_BIN:-}" ]; then scripts/bench-long.sh 60; fi
  gc=$(secs $okite go classes --graph grid:2x2)
  gr=$(secs $okite go classes --graph grid:2x2 --engine rules --max-resident-mb 16384)
  row "go classes grid:2x2 empty, native vs rules" "$gc" "$gr" "$(ratio "$gc" "$gr")"
  gp=$(secs $okite go classes --graph path:5)
  row "go classes path:5 empty, native" "$gp" "-" "-"
  gy=$(secs $okite go classes --graph cycle:8)
  row "go classes cycle:8 empty, native" "$gy" "-" "-"
  for grid in 2x3 3x3 3x4 3x5; do
    gn=$(secs $okite go classes --graph grid:$grid)
    row "go classes grid:$grid empty, native" "$gn" "-" "-"
  done
  # weak disproof numbers on a capture fight of path:12 (2.4 million visits against 19.5
  # million, docs/PERFORMANCE.md)
  gw=$(secs $okite go classes --graph path:12 --moves "B 2, W 7" --vertex 1 --ask black --weak-numbers)
  gs=$(secs $okite go classes --graph path:12 --moves "B 2, W 7" --vertex 1 --ask black)
  row "go classes path:12 B 2, W 7: weak vs sums" "$gw" "$gs" "$(ratio "$gw" "$gs")"
  # a thread a vertex (--threads 2) against one thread, the empty 3 x 5 board
  g2=$(secs $okite go classes --graph grid:3x5 --threads 2)
  g1=$(secs $okite go classes --graph grid:3x5)
  row "go classes grid:3x5, 2 threads vs 1" "$g2" "$g1" "$(ratio "$g2" "$g1")"
  # The empty 4 x 4 board on two threads (329 s and 864 MB when measured, docs/PERFORMANCE.md)
  # when LIFE_4X4=1.
  if [ "${LIFE_4X4:-}" = 1 ]; then
    g4=$(secs $okite go classes --graph grid:4x4 --nodes 100000000000 --max-resident-mb 18000 --threads 2)
    row "go classes grid:4x4 empty, native, 2 threads" "$g4" "-" "-"
  fi
  # The empty 12-path but its end vertices (every one 𝓝, their mirror images by symmetry; 56 s
  # and 509 MB when measured, docs/PERFORMANCE.md) when LIFE_PATH12=1.
  if [ "${LIFE_PATH12:-}" = 1 ]; then
    p12=$(secs $okite go classes --graph path:12 --vertex 2,3,4,5,6 --nodes 1000000000)
    row "go classes path:12 empty, vertices 2-11" "$p12" "-" "-"
  fi
fi
# Go: a random 19 x 19 game legal under positional superko (made with sgfmill), parsed and
# replayed: okite's whole process (SGF, captures, superko, the final diagram) against sgfmill's
# parse and replay in Python, the best of 20.
if [ "$gopeer" = yes ]; then
  sgf=$(mktemp --suffix .sgf)
  b=$("$venv/bin/python" - "$sgf" 1000 <<'PY'
import sys, random, time
from sgfmill import sgf, boards
random.seed(7)
n = 19
b = boards.Board(n)
seen = {tuple(map(tuple, b.board))}
game = sgf.Sgf_game(size=n)
colour = "b"
for _ in range(int(sys.argv[2])):
    empty = [(r, c) for r in range(n) for c in range(n) if b.get(r, c) is None]
    random.shuffle(empty)
    for (r, c) in empty:
        t = b.copy()
        t.play(r, c, colour)
        key = tuple(map(tuple, t.board))
        if t.get(r, c) != colour or key in seen:
            continue  # suicide, or a repeated board
        b = t
        seen.add(key)
        game.extend_main_sequence().set_move(colour, (r, c))
        break
    colour = "w" if colour == "b" else "b"
data = game.serialise()
open(sys.argv[1], "wb").write(data)
best = float("inf")
for _ in range(20):
    t0 = time.perf_counter()
    g = sgf.Sgf_game.from_bytes(data)
    bb = boards.Board(n)
    for node in g.get_main_sequence()[1:]:
        c, mv = node.get_move()
        if mv is not None:
            bb.play(mv[0], mv[1], c)
    best = min(best, time.perf_counter() - t0)
print(f"{best:.4f}")
PY
)
  m=$(grep -o ';[BW]\[' "$sgf" | wc -l)
  a=$(best3 $okite go show --graph grid:19x19 --sgf "$sgf")
  row "go: 19x19 SGF of $m moves replayed, vs sgfmill" "$a" "$b" "$(ratio "$a" "$b")"
  rm -f "$sgf"
fi
g=$(secs $okite go count --graph grid:5x5)
row "go count grid:5x5 (414295148741)" "$g" "-" "-"
for grid in 2x2 3x3 4x4; do
  s=$(secs $okite go solve --graph grid:$grid)
  row "go solve grid:$grid, area, komi 0" "$s" "-" "-"
done
# Variants (tests/variants/): the hybrid engines keep their native parts and ask the rules for
# the changed definitions. Each row against the native standard reading in the same run (the
# "peer" column is the native time here; the ratio is native/variant, so 0.05 is 20 times slower).
uv="--rules tests/variants/uchifuzume_allowed.rule --reading uchifuzume-allowed"
nv="--rules tests/variants/nifu_allowed.rule --reading nifu-allowed"
pv=$(best3 $okite perft $uv --depth 4)
pn=$(best3 $okite perft --depth 4)
row "perft(4), pawn-drop mate allowed vs native" "$pv" "$pn" "$(ratio "$pv" "$pn")"
for n in 5 7; do
  f="$ORACLES"/tsume/nshogi/mate-$n-ply.sfen
  mn=$(best3 $okite mate --batch $f --length any --json --hash-mb 64)
  mu=$(best3 $okite mate $uv --batch $f --length any --json --time-ms 5000)
  row "mate-$n set, pawn-drop mate allowed vs native" "$mu" "$mn" "$(ratio "$mu" "$mn")"
  mf=$(best3 $okite mate $nv --batch $f --length any --json --time-ms 5000)
  row "mate-$n set, two pawns allowed vs native" "$mf" "$mn" "$(ratio "$mf" "$mn")"
done
# Legality under the four readings, where each pawn drop asks whether the opponent has an
# answer: a hand of every pawn (perft 2, the four readings), the records of tests/data/records,
# and long random games with many drops (cshogi's move generator, seeded), each record replayed
# under all four readings; the slowest of each kind.
for r in narrow broad narrow-check broad-check; do
  t=$(secs $okite perft --reading $r --depth 2 --sfen "4k4/9/9/9/9/9/9/9/4K4 b 9P9p 1")
  row "perft(2) 9 pawns in each hand, $r" "$t" "-" "-"
done
worst=0
for f in tests/data/records/*; do
  case $f in *.csa) opt=--csa ;; *) opt=--kif ;; esac
  t=$(secs $okite game $opt "$f"); [ "$t" = - ] && t=0
  worst=$(python3 -c "print(f'{max($worst, $t):.4f}')")
done
row "game, tests/data/records, four readings, worst" "$worst" "-" "-"
if [ "$peer" = yes ]; then
  worst=0
  for seed in 1 2 3 4 5; do
    moves=$("$venv/bin/python" - "$seed" <<'PY'
import random, sys, cshogi
random.seed(int(sys.argv[1])); b = cshogi.Board(); ms = []
for _ in range(1000):
    lm = list(b.legal_moves)
    if not lm: break
    m = random.choice(lm); ms.append(cshogi.move_to_usi(m)); b.push(m)
print(" ".join(ms))
PY
)
    t=$(secs $okite game --usi "$moves")
    worst=$(python3 -c "print(f'{max($worst, $t):.4f}')")
  done
  row "game, 5 random games (<=1000 plies), worst" "$worst" "-" "-"
fi
# The df-pn search on the compiled variant engine against the standard one, same problems.
scripts/variant-mate-nps.sh "$ORACLES"/tsume/nshogi/mate-11-ply.sfen 30
# Built first, so that the row times the runs (and cargo's start), not a compilation.
cargo bench --quiet --no-run --bench eval 2>/dev/null
e=$(secs cargo bench --quiet --bench eval)
row "evaluator bench (benches/eval.rs, incl. start)" "$e" "-" "-"
# The REPL and the language server checking incrementally: definitions piped into `okite repl`,
# and didChange answered with diagnostics on documents of 2,000 and 20,000 lines.
scripts/repl-bench.sh "$okite"
python3 scripts/lsp-bench.py "$okite" 2000 40
python3 scripts/lsp-bench.py "$okite" 20000 20
# The Python package (built by `cargo test --release --test python`): in process, batches, and a
# local Dask cluster of two worker processes.
if [ -x target/python/venv/bin/python ] && [ -d target/python/stage/okite ]; then
  PYTHONPATH=target/python/stage OKITE="$okite" ORACLES="$ORACLES" \
    target/python/venv/bin/python scripts/python-bench.py 2>&1 | grep -v -e INFO -e WARN
fi
