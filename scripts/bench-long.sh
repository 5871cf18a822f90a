#!/usr/bin/env bash
# Long composed problems (../shared/shogi-oracles/tsume/long/long-mates.tsv) under a time limit, --length shortest:
# okite's line (plies, whether proved shortest, the proved lower bound) against KomoringHeights'
# on the same problem in the same run, one solver at a time, one thread each. KomoringHeights is
# built outside the repository from its public source; KH_BIN names its binary (the column is
# "-" without it). Usage: scripts/bench-long.sh [seconds per problem, default 60] [okite binary]
set -euo pipefail
cd "$(dirname "$0")/.."
ORACLES=${OKITE_ORACLES:-../shared/shogi-oracles}   # the public test data (not in the project)
secs=${1:-60}
okite=${2:-./target/release/okite}
if [ "$okite" = ./target/release/okite ]; then cargo build --release --quiet; fi
ms=$((secs * 1000))
kh() {
  python3 - "$KH_BIN" "$1" "$ms" <<'PY'
import subprocess, sys, os
binp, sfen, ms = sys.argv[1], sys.argv[2], int(sys.argv[3])
p = subprocess.Popen([binp], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                     cwd=os.path.dirname(os.path.abspath(binp)))
def send(s):
    p.stdin.write(s + "\n"); p.stdin.flush()
def wait(word):
    for l in p.stdout:
        if l.startswith(word):
            return l.split()
send("usi"); wait("usiok")
send("setoption name USI_Hash value 256"); send("setoption name Threads value 1")
send("isready"); wait("readyok")
send("position sfen " + sfen); send("go mate %d" % ms)
r = wait("checkmate") or ["checkmate", "none"]
send("quit")
try:
    p.wait(5)
except subprocess.TimeoutExpired:
    p.kill()
print(len(r) - 1 if r[1] not in ("nomate", "timeout", "notimplemented", "none") else r[1])
PY
}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); date: $(date -u '+%Y-%m-%d %H:%M'); ${secs} s per problem, 256 MiB table each"
echo "| problem | known | okite plies | shortest | lower bound | okite s | KH plies | load before |"
echo "| --- | ---: | ---: | --- | ---: | ---: | ---: | --- |"
grep -v '^#' "$ORACLES"/tsume/long/long-mates.tsv | while IFS=$'\t' read -r id sfen known; do
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  o=$($okite mate --sfen "$sfen" --time-ms "$ms" --hash-mb 256 --json --quiet 2>/dev/null |
    python3 -c 'import json, sys; d = json.loads(sys.stdin.read()); print(d["plies"] if d["result"] == "mate" else d["result"], str(d.get("shortest")).lower(), d.get("lower_bound", "-"), round(d["ms"] / 1000, 1))')
  k=-
  if [ -n "${KH_BIN:-}" ]; then k=$(kh "$sfen"); fi
  read -r op os ol ot <<<"$o"
  echo "| $id | $known | $op | $os | $ol | $ot | $k | $load |"
done
