#!/usr/bin/env bash
# The df-pn search on a compiled variant against the standard df-pn search: both solve the same
# 9 x 9 problems (the standard search on seed 000's shogi, the compiled one on the core's base
# reading, rules/variants/board.rule, which is the same game), and their nodes, milliseconds and
# nodes per second are summed from their own `--json` reports.
# Usage: scripts/variant-mate-nps.sh [FILE [N]] (default: the first 30 of nshogi's mate-11 set)
set -euo pipefail
cd "$(dirname "$0")/.."
ORACLES=${OKITE_ORACLES:-../shared/shogi-oracles}
okite=./target/release/okite
file=${1:-$ORACLES/tsume/nshogi/mate-11-ply.sfen}
n=${2:-30}
head -n "$n" "$file" | while read -r sfen; do
  $okite mate --sfen "$sfen" --json 2>/dev/null | sed 's/^/standard /'
  $okite mate --rules rules/variants/board.rule --sfen "$sfen" --json 2>/dev/null | sed 's/^/compiled /'
done | python3 -c '
import json, sys
tot = {}
for line in sys.stdin:
    who, js = line.split(" ", 1)
    d = json.loads(js)
    t = tot.setdefault(who, [0, 0, 0])
    t[0] += d["nodes"]; t[1] += d["ms"]; t[2] += d["result"] == "mate"
for who, (nodes, ms, mates) in sorted(tot.items()):
    print(f"{who:9} mates {mates:3}  nodes {nodes:9}  ms {ms:6}  nodes/s {nodes * 1000 / max(ms, 1):9.0f}")
'
