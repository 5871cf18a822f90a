#!/usr/bin/env bash
# Times definitions piped into `okite repl` (the shipped rules loaded): N new definitions for
# N = 1,000, 10,000 and 100,000 (time per definition should stay flat), 100 redefinitions of
# one name in a session of 10,000, 100 enums, types or readings typed in such a session, and
# pasted definitions that call earlier ones with examples among them.
# Usage: scripts/repl-bench.sh [OKITE]
set -euo pipefail
okite=${1:-target/release/okite}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s.%N); python3 -c "print(f'{$t1 - $t0:.3f}')"; }
for n in 1000 10000 100000; do
  seq 0 $((n - 1)) | sed 's/.*/def d& = &/' > "$dir/defs$n"
  t=$(secs "$okite" repl < "$dir/defs$n")
  printf '%-58s %8s s %8s us each\n' "$n new definitions" "$t" "$(python3 -c "print(f'{$t / $n * 1e6:.0f}')")"
done
{ cat "$dir/defs10000"; for i in $(seq 1 100); do echo "def d5 = $i"; echo "d5"; done; } > "$dir/redef"
t=$(secs "$okite" repl < "$dir/redef")
printf '%-58s %8s s\n' "10,000 definitions, then 100 x (d5 given again, asked)" "$t"
{ cat "$dir/defs10000"; for i in $(seq 1 100); do echo "enum E$i { a$i, b$i }"; done; } > "$dir/enums"
{ cat "$dir/defs10000"; for i in $(seq 1 100); do echo "type T$i = (Int, Set<Int>)"; done; } > "$dir/types"
{ cat "$dir/defs10000"; for i in $(seq 1 100); do echo "reading r$i { override def d5 = $i }"; done; } > "$dir/readings"
{ cat "$dir/defs10000"; for i in $(seq 1 100); do echo "reading r$i { override def d$((i * 97)) = d$((i * 97 + 1)) + $i }"; echo "d$((i * 97))"; done; } > "$dir/readings2"
for f in enums types readings; do
  t=$(secs "$okite" repl < "$dir/$f")
  printf '%-58s %8s s\n' "10,000 definitions, then 100 $f" "$t"
done
t=$(secs "$okite" repl < "$dir/readings2")
printf '%-58s %8s s\n' "10,000 definitions, then 100 x (a reading, a query)" "$t"
python3 - "$dir/paste" <<'PY'
import sys
out = []
for i in range(10000):
    out.append(f"def p{i}(x) = x + {i}" if i < 2 else f"def p{i}(x) = p{i // 2}(x) + p{i - 1}(x) - {i}")
    if i % 50 == 49:
        out.append(f'example "e{i}" {{ assert p{i}(1) == p{i}(1) }}')
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
t=$(secs "$okite" repl < "$dir/paste")
printf '%-58s %8s s\n' "10,000 definitions calling earlier ones, 200 examples" "$t"
