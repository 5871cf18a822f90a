#!/usr/bin/env bash
# Runs every fuzz target in turn for SECONDS (default 600) on one core, from the seed corpora
# (./seed_corpus.sh), logging to fuzz/logs/<target>.log. Needs cargo-fuzz; on a stable
# toolchain RUSTC_BOOTSTRAP=1 lets it use the sanitizer flags.
set -uo pipefail
cd "$(dirname "$0")"
secs=${1:-600}
shift || true
targets=${*:-rule_check rule_eval sfen usi_moves kif csa sgf graph_spec edge_list usi_engine repl_input mate_batch lines}
mkdir -p logs
[ -d corpus ] || ./seed_corpus.sh
export RUSTC_BOOTSTRAP=1
for t in $targets; do
  echo "== $t: $secs s =="
  cargo fuzz run -O "$t" "corpus/$t" -- -max_total_time="$secs" -rss_limit_mb=4096 \
    -timeout=20 -max_len=8192 -print_final_stats=1 > "logs/$t.log" 2>&1
  echo "exit $? ; $(grep -E '^(Done|stat::number_of_executed_units|.*ERROR)' "logs/$t.log" | tr '\n' ' ')"
done
