#!/usr/bin/env bash
# Measures okite against the public peers that can be installed here, on the same inputs in one
# run, and prints one table. Peers live in a throwaway Python environment (never a dependency of
# the project). Usage: scripts/bench.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
quick=${1:-}
cargo build --release --quiet
okite=./target/release/okite
venv=$(mktemp -d)/venv
python3 -m venv "$venv" >/dev/null 2>&1 && "$venv/bin/pip" install --quiet cshogi >/dev/null 2>&1 && peer=yes || peer=no

secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null; t1=$(date +%s.%N); python3 -c "print(f'{$t1 - $t0:.3f}')"; }
row() { printf '%-44s %12s %12s %8s\n' "$1" "$2" "$3" "$4"; }
ratio() { if [ "$2" = "-" ]; then echo "-"; else python3 -c "print(f'{$2 / $1:.2f}')"; fi; }

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
g=$(secs $okite go count --graph grid:5x5)
row "go count grid:5x5 (414295148741)" "$g" "-" "-"
s=$(secs $okite go solve --graph grid:2x2)
row "go solve grid:2x2, area, komi 0" "$s" "-" "-"
e=$(secs cargo bench --quiet --bench eval)
row "evaluator bench (benches/eval.rs, incl. start)" "$e" "-" "-"
