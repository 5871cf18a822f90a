#!/usr/bin/env bash
# Outcome classes of the empty boards by the native search (seed 004): prints a Markdown table
# of the classes, the sequences visited, the search's time and the process's resident memory.
# Usage: scripts/life-table.sh [--reading R] [GRAPH ...]   (R: a reading of rules/go_life.rule
# the native search follows: base, the default, p-to-chooser or cautious)
set -euo pipefail
cd "$(dirname "$0")/.."
reading=base
if [ "${1:-}" = "--reading" ]; then reading=$2; shift 2; fi
# OKITE=path runs that binary instead of building one
bin=${OKITE:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=$(mktemp -d)/okite
  cp ./target/release/okite "$bin"
fi
graphs=("$@")
[ ${#graphs[@]} -eq 0 ] && graphs=(grid:2x2 path:5 grid:2x3 complete:4 cycle:5 path:6 path:8 grid:2x4 grid:3x3 complete:5 grid:2x5 path:10 grid:2x6 grid:3x4)
echo "| graph | classes | visits | time | resident |"
echo "| --- | --- | --- | --- | --- |"
for g in "${graphs[@]}"; do
  err=$(mktemp)
  if out=$( { /usr/bin/time -f "%M" "$bin" go classes --graph "$g" --reading "$reading" --json 2>"$err"; } ); then
    classes=$(echo "$out" | python3 -c 'import json, sys; print(" ".join(json.load(sys.stdin)["classes"]))')
    line=$(grep '^classified' "$err")
    visits=$(echo "$line" | sed -E 's/.*: ([0-9]+) sequences.*/\1/')
    time=$(echo "$line" | sed -E 's/classified in ([^:]+):.*/\1/')
    kb=$(tail -1 "$err")
    printf '| %s | %s | %s | %s | %s MB |\n' "$g" "$classes" "$visits" "$time" "$((kb / 1024))"
  else
    printf '| %s | not reached | - | - | - |\n' "$g"
  fi
  rm -f "$err"
done
