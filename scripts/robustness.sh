#!/usr/bin/env bash
# Hostile inputs against okite's contract (every malformed input gets a diagnostic and exit
# status 2; every runaway computation ends on a budget with a message): generates them, runs
# each under a memory cap (ulimit -v) and a time limit (timeout), and prints one Markdown table:
# the class, the case, the size of its input, the exit status expected and got, the time, the
# peak resident memory (GNU time) and the first line of the diagnostic (or of the output).
# docs/ROBUSTNESS.md holds its output. It takes two to four minutes on two busy cores; it is not
# part of `cargo test`. Usage: scripts/robustness.sh > table.md (ROBUSTNESS_CAP_MB sets the cap,
# OKITE_BIN the binary to run instead of a release build, ROBUSTNESS_SCALE a whole number that
# multiplies each case's size and time limit: `ROBUSTNESS_SCALE=10` tries ten times the sizes).
# The exit status is 1 when a case ends otherwise than expected.
set -uo pipefail
cd "$(dirname "$0")/.."
ORACLES=${OKITE_ORACLES:-../shared/shogi-oracles}   # the public test data (not in the project)
# OKITE_BIN runs a binary built before; else the release build is made first
if [ -n "${OKITE_BIN:-}" ]; then
  okite=$(realpath "$OKITE_BIN")
else
  if command -v flock >/dev/null; then
    flock /tmp/okite-build.lock cargo build --release --quiet || exit 2
  else
    cargo build --release --quiet || exit 2
  fi
  okite=$PWD/target/release/okite
fi
cap_mb=${ROBUSTNESS_CAP_MB:-6144}
X=${ROBUSTNESS_SCALE:-1}
# n N: N times the scale; c N: N written with thousands separated; at10 A B: the exit status
# expected at the sizes of the table (A) and at ten times them or more (B)
n() { echo $(($1 * X)); }
c() { echo "$1" | sed -e ':a' -e 's/\B[0-9]\{3\}\>/,&/' -e 'ta'; }
nc() { c "$(n "$1")"; }
at10() { if [ "$X" -ge 10 ]; then echo "$2"; else echo "$1"; fi; }
# split_rule FILE: a rule file of one item a line, larger than a rule file may be (16 MiB), split
# into parts of at most 12 MiB that FILE then `use`s
split_rule() {
  python3 - "$1" <<'PY'
import os, sys
path = sys.argv[1]
if os.path.getsize(path) <= 12 << 20:
    sys.exit(0)
base = os.path.basename(path)[:-5]
lines = open(path).read().splitlines(True)
parts, cur, size = [], [], 0
for l in lines:
    if size + len(l) > 12 << 20:
        parts.append(cur); cur, size = [], 0
    cur.append(l); size += len(l)
parts.append(cur)
uses = []
for i, p in enumerate(parts):
    name = "%s.part%d.rule" % (base, i)
    open(os.path.join(os.path.dirname(path), name), "w").write("".join(p))
    uses.append('use "%s"\n' % name)
open(path, "w").write("".join(uses))
PY
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export NO_COLOR=1
timer=/usr/bin/time
[ -x "$timer" ] || timer=""
unexpected=0
cases=0

# The first line that tells what happened: the code and message of a diagnostic, else the first
# line of standard error that is not a notice of which engine answers, else standard output's.
first_line() {
  local err=$1 out=$2 code msg
  code=$(grep -a -m1 -oE '\bE[0-9]{4}\b' "$err")
  msg=$(grep -a -m1 '×' "$err" | sed 's/^ *× *//')
  if [ -n "$msg" ]; then
    echo "${code:+$code: }$msg"
  elif grep -a -q -v -e '^okite: `' -e '^$' "$err"; then
    grep -a -m1 -v -e '^okite: `' -e '^$' "$err"
  else
    head -c 2000 "$out" | head -1
  fi
}

# row CLASS CASE SIZE EXPECTED GOT SECONDS RSS_MIB TEXT
row() {
  local text=${8//"$work/"/}
  text=${text//|/\\|}
  text=${text:0:110}
  local verdict="as expected"
  if [[ ! "$5" =~ ^($4)$ ]]; then
    verdict="**not as expected**"
    unexpected=$((unexpected + 1))
  fi
  cases=$((cases + 1))
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$verdict" "$text"
}

# run CLASS CASE SIZE EXPECTED LIMIT_S INPUT -- COMMAND...: INPUT is a file for standard input
# (or /dev/null).
run() {
  local class=$1 name=$2 size=$3 expect=$4 limit=$5 input=$6
  [ "$X" -gt 1 ] && [ "$limit" -gt 5 ] && limit=$(( limit * X > 600 ? 600 : limit * X ))
  shift 7
  local out=$work/out err=$work/err tm=$work/time
  rm -f "$tm"
  (
    ulimit -v $((cap_mb * 1024))
    if [ -n "$timer" ]; then
      $timer -f '%e %M' -o "$tm" timeout -k 5 "$limit" "$@"
    else
      timeout -k 5 "$limit" "$@"
    fi
  ) <"$input" >"$out" 2>"$err"
  local got=$?
  local secs="-" rss="-"
  if [ -s "$tm" ]; then
    secs=$(tail -1 "$tm" | cut -d' ' -f1)
    rss=$(( $(tail -1 "$tm" | cut -d' ' -f2) / 1024 ))
  fi
  # GNU time says "Command terminated by signal N" for a command a signal ended
  local sig
  sig=$(grep -o 'terminated by signal [0-9]*' "$tm" 2>/dev/null)
  [ -n "$sig" ] && got="signal ${sig##* }"
  [ "$got" = 124 ] && got="timeout at ${limit} s"
  local text
  text=$(first_line "$err" "$out")
  if grep -a -q 'panicked' "$err"; then
    got="$got (panic)"
  fi
  row "$class" "$name" "$size" "$expect" "$got" "$secs" "$rss" "$text"
}

echo "machine: $(nproc) cores, $(( $(grep MemTotal /proc/meminfo | awk '{print $2}') / 1024 )) MiB; memory cap (ulimit -v) ${cap_mb} MiB; sizes x$X; okite $($okite --version | cut -d' ' -f2); date: $(date -u +%Y-%m-%d)"
echo
echo "| class | case | input | expected | exit | s | peak MiB | outcome | first line |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"

# ---------------------------------------------------------------- 1. stack aborts
python3 -c "print('def x = ' + ' + '.join(['1'] * $(n 50000)))" >"$work/sum.rule"
run "1 stack" "flat chain of operators" "$(nc 50000) terms" 2 60 /dev/null -- "$okite" check "$work/sum.rule"
python3 -c "print('def x = ' + '(' * $(n 100000) + '1' + ')' * $(n 100000))" >"$work/nest.rule"
run "1 stack" "nested brackets" "$(nc 100000) deep" 2 60 /dev/null -- "$okite" check "$work/nest.rule"
python3 -c "print('def x = ' + 'not ' * $(n 100000) + 'true')" >"$work/not.rule"
run "1 stack" "chain of prefixes" "$(nc 100000) \`not\`" 2 60 /dev/null -- "$okite" check "$work/not.rule"
cat >"$work/deep.rule" <<'EOF'
enum L { nil, cons(Int, L) }
def build(n: Int) -> L = if n == 0 then nil else cons(n, build(n - 1))
def depth(l: L) -> Int = match l { nil => 0, cons(_, t) => 1 + depth(t) }
def down(n: Int) -> Int = if n == 0 then 0 else down(n - 1) + 1
EOF
cat >>"$work/deep.rule" <<'EOF'
def base_case -> Bool = true
def d(n: Int) -> Bool = if n == 0 then base_case else d(n - 1)
reading flip {
  override def base_case = false
}
EOF
# past 100,000 calls (200,000 at ten times) the calls' stack passes the default resident bound
run "1 stack" "recursion within --max-depth" "$(nc 200000) calls" "$(at10 0 2)" 60 /dev/null -- "$okite" eval --rules "$work/deep.rule" --max-depth "$(n 300000)" "down($(n 200000))"
run "1 stack" "recursion past the depth budget" "$(nc 1000000) calls" 2 60 /dev/null -- "$okite" eval --rules "$work/deep.rule" "down($(n 1000000))"
run "1 stack" "recursion under --max-depth 10,000,000 (ends on the resident bound)" "$(nc 10000000) calls" 2 60 /dev/null -- "$okite" eval --rules "$work/deep.rule" --max-depth 10000000 "down($(n 10000000))"
for face in "explain --depth 10000000" "explain --json --depth 10000000" "compare --depth 10000000 --readings base,flip" "compare --json --readings base,flip" "eval --json"; do
  # 40,000 within the default budget; 400,000 past it
  run "1 stack" "$face of a recursion, every step shown" "$(nc 40000) calls" "$(at10 0 2)" 60 /dev/null -- "$okite" $face --rules "$work/deep.rule" "d($(n 40000))"
  run "1 stack" "$face of a recursion, --max-depth 10,000,000" "$(nc 400000) calls" "$(at10 0 2)" 60 /dev/null -- "$okite" $face --max-depth 10000000 --rules "$work/deep.rule" "d($(n 400000))"
done
run "1 stack" "deep values compared, hashed, dropped" "$(nc 30000) cells" 0 60 /dev/null -- "$okite" eval --rules "$work/deep.rule" --max-depth "$(n 100000)" "build($(n 30000)) == build($(n 30000))"
run "1 stack" "explanation of a recursion over a list" "$(nc 20000) cells" 0 60 /dev/null -- "$okite" explain --rules "$work/deep.rule" --max-depth "$(n 100000)" "depth(build($(n 20000)))"
run "1 stack" "recursion over a list (each cell a memo key)" "$(nc 40000) cells" 0 60 /dev/null -- "$okite" eval --rules "$work/deep.rule" --max-depth "$(n 100000)" "depth(build($(n 40000)))"

# ---------------------------------------------------------------- 2. panics
head -c "$(n 1048576)" /dev/urandom >"$work/random.bin"
LC_ALL=C tr -dc 'a-z0-9(){}[]:=+*,.<>|& \n-' </dev/urandom | head -c "$(n 1048576)" >"$work/random.txt"
run "2 panic" "rule file of random bytes" "$X MiB" 2 60 /dev/null -- "$okite" check "$work/random.bin"
run "2 panic" "rule file of random tokens" "$X MiB" 2 60 /dev/null -- "$okite" check "$work/random.txt"
run "2 panic" "KIF record of random bytes" "$X MiB" 2 60 /dev/null -- "$okite" game --kif "$work/random.bin"
run "2 panic" "CSA record of random text" "$X MiB" 2 60 /dev/null -- "$okite" game --csa "$work/random.txt"
run "2 panic" "SGF record of random text" "$X MiB" 2 60 /dev/null -- "$okite" go show --sgf "$work/random.txt"
run "2 panic" "edge list of random text" "$X MiB" 2 60 /dev/null -- "$okite" go count --graph "edges:$work/random.txt"
python3 - "$work/usi-random.txt" "$(n 10000)" <<'PY'
import random, sys
random.seed(7)
words = ["usi", "isready", "position", "sfen", "startpos", "moves", "go", "mate", "7g7f", "1",
         "infinite", "setoption", "name", "value", "USI_Hash", "k", "b", "-", "P*5e", "stop",
         "9/9/9/9/9/9/9/9/9", "4k4/9/9/9/9/9/9/9/4K4", "99999999999999999999"]
with open(sys.argv[1], "w") as f:
    for _ in range(int(sys.argv[2])):
        f.write(" ".join(random.choice(words) for _ in range(random.randint(0, 8))) + "\n")
PY
run "2 panic" "USI engine, random commands" "$(nc 10000) lines" 0 60 "$work/usi-random.txt" -- "$okite" usi
run "2 panic" "REPL, random lines piped" "$X MiB" 1 60 "$work/random.txt" -- "$okite" repl

# ---------------------------------------------------------------- 3. USI freezes
usi_probe() {
  python3 - "$okite" <<'PY'
import subprocess, sys, time, select
hard = "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1"
p = subprocess.Popen([sys.argv[1], "usi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
def send(l):
    p.stdin.write(l + "\n"); p.stdin.flush()
def wait_for(word, limit):
    t0 = time.time()
    while time.time() - t0 < limit:
        r, _, _ = select.select([p.stdout], [], [], 0.05)
        if r:
            line = p.stdout.readline()
            if not line:
                return None
            if line.split() and line.split()[0] == word:
                return time.time() - t0
    return None
send("usi"); wait_for("usiok", 10)
send("position sfen " + hard); send("go mate infinite")
time.sleep(1.0)
send("position startpos"); send("stop")
t = time.time(); send("isready")
ready = wait_for("readyok", 5)
send("position sfen " + hard); send("go mate infinite")
time.sleep(1.0)
t_eof = time.time(); p.stdin.close()
try:
    code = p.wait(timeout=10); ended = time.time() - t_eof
except subprocess.TimeoutExpired:
    p.kill(); code = "killed"; ended = None
print(code)
print("readyok %s after isready; the end of the input ended the process %s" % (
    "%.3f s" % ready if ready is not None else "never",
    "in %.3f s" % ended if ended is not None else "never"))
PY
}
res=$(usi_probe)
row "3 USI" "go mate infinite, position, stop, isready; then go mate infinite and the end of input" "Microcosmos (1,525 plies)" 0 "$(echo "$res" | head -1)" "-" "-" "$(echo "$res" | tail -1)"
python3 -c "import sys; sys.stdout.write('isready\n' + 'x' * ($(n 5) << 20) + '\nisready\n')" >"$work/usi-long.txt"
run "3 USI" "a line longer than the engine reads, then isready" "$(n 5) MiB line" 0 60 "$work/usi-long.txt" -- "$okite" usi

repl_interrupt() {
  python3 - "$okite" "$1" "$2" <<'PY'
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.environ.update(TERM="xterm", NO_COLOR="1")
    os.execv(sys.argv[1], [sys.argv[1], "repl"])
seen = b""
def until(word, limit):
    global seen
    t0 = time.time()
    while time.time() - t0 < limit:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                return None
            if word in seen:
                seen = seen[seen.index(word) + len(word):]
                return time.time() - t0
    return None
until(b"okite> ", 30)
os.write(fd, b":load " + sys.argv[2].encode() + b"\r")
time.sleep(float(sys.argv[3]))
t = time.time()
os.write(fd, b"\x03")
stopped = until(b"the rules were kept as they were", 30)
until(b"okite> ", 10)
os.write(fd, b"6 * 7\r")
answered = until(b"42", 10)
os.write(fd, b":quit\r")
try:
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
except ChildProcessError:
    code = "?"
print(code)
print("Ctrl-C %s s into the load: %s; the next query %s" % (sys.argv[3],
    "the load stopped in %.2f s, rules kept" % stopped if stopped is not None else "not stopped",
    "answered" if answered is not None else "not answered"))
PY
}

# ---------------------------------------------------------------- 4. output and time blow-up
python3 -c "print('def x = 1' + ' ' * $(n 70000) + ' + true')" >"$work/wide.rule"
run "4 blow-up" "error at column $(c $(( $(n 70000) + 13 ))) (diagnostic size: $("$okite" check "$work/wide.rule" 2>&1 | wc -c) bytes)" "$(n 70) KB line" 2 60 /dev/null -- "$okite" check "$work/wide.rule"
# one argument of a command line holds at most 128 KiB (Linux's MAX_ARG_STRLEN): a longer SFEN
# comes from a file
sfen_len=$(n 100000)
head -c "$sfen_len" /dev/zero | tr '\0' x >"$work/long.sfen"
if [ "$sfen_len" -le 131000 ]; then
  run "4 blow-up" "SFEN with an error at every character (diagnostics: $("$okite" legal --sfen "$(cat "$work/long.sfen")" 2>&1 | wc -c) bytes)" "$(c "$sfen_len") chars" 2 60 /dev/null -- "$okite" legal --sfen "$(cat "$work/long.sfen")"
else
  run "4 blow-up" "mate batch of one SFEN with an error at every character (diagnostics: $("$okite" mate --batch "$work/long.sfen" 2>&1 | wc -c) bytes)" "$(c "$sfen_len") chars" 2 60 /dev/null -- "$okite" mate --batch "$work/long.sfen"
fi
{ echo "V2.2"; echo "PI"; echo "+"; for _ in $(seq "$(n 10000)"); do printf '+2838HI\n-8272HI\n+3828HI\n-7282HI\n'; done; } >"$work/long.csa"
run "4 blow-up" "game of $(nc 40000) moves, four readings (report: $("$okite" game --csa "$work/long.csa" 2>/dev/null | wc -c) bytes)" "$(nc 40000) moves" 0 120 /dev/null -- "$okite" game --csa "$work/long.csa"
python3 -c "
print('def d0 = 0')
for i in range(1, $(n 100000)): print(f'def d{i} = d{i-1}')" >"$work/chain.rule"
split_rule "$work/chain.rule"
run "4 blow-up" "check of chained definitions" "$(nc 100000) definitions" 0 120 /dev/null -- "$okite" check "$work/chain.rule"
python3 -c "
n = $(n 10000)
for i in range(n): print(f'def d{i} = {i}')
print(f'def total = d0 + d{n // 2} + d{n - 1}')
print('reading r0 { override def d0 = 1 }')
for i in range(1, n): print(f'reading r{i} extends r{i-1} {{ override def d{i} = 2 }}')" >"$work/extends.rule"
# a reading extends at most 10,000 others (E0115): ten times as many are refused
run "4 blow-up" "a chain of readings, each overriding a name, evaluated under the last but one" "$(nc 10000) readings" "$(at10 0 2)" 120 /dev/null -- "$okite" eval --rules "$work/extends.rule" --reading "r$(( $(n 10000) - 2 ))" total
python3 -c "
for i in range($(n 100000)): print(f'def d{i} = {i}')
for i in range($(n 200000)): print(f'reading r{i} {{}}')" >"$work/readings.rule"
split_rule "$work/readings.rule"
run "4 blow-up" "check of many readings beside many definitions" "$(nc 200000) readings, $(nc 100000) definitions" 0 120 /dev/null -- "$okite" check "$work/readings.rule"
python3 -c "
n = $(n 40000)
for i in range(n): print(f'def r{i}(x: Int) -> Int = if x == 0 then 0 else r{(i + 1) % n}(x - 1)')" >"$work/ring.rule"
split_rule "$work/ring.rule"
run "4 blow-up" "check of one recursive group" "$(nc 40000) definitions" 0 120 /dev/null -- "$okite" check "$work/ring.rule"
# ten times as many written parts: 2^904 (a type nests at most 1,000 levels, E0205)
top=$((900 + $(python3 -c "import math; print(math.ceil(math.log2($X)))")))
python3 -c "
print('def p0 = 1')
for k in range(1, $top + 1): print(f'def p{k} = (p{k-1}, p{k-1})')
print('def bad = p$top + 1')" >"$work/doubling.rule"
run "4 blow-up" "check of inferred types that double with each line, then a mismatch" "2^$top written parts" 2 60 /dev/null -- "$okite" check "$work/doubling.rule"
python3 -c "
print('def s0 = 1')
for k in range(1, $(n 60000)): print(f'def s{k} = {{s{k-1}}}')" >"$work/nested-sets.rule"
split_rule "$work/nested-sets.rule"
run "4 blow-up" "check of a chain of definitions each nesting the last in a set" "$(nc 60000) definitions" 2 60 /dev/null -- "$okite" check "$work/nested-sets.rule"
python3 -c "
for n, leaf in (('p', 1), ('s', 1)):
    print(f'def {n}0 = {leaf}')
    for k in range(1, $top + 1): print(f'def {n}{k} = ({n}{k-1}, {n}{k-1})')" >"$work/shared-values.rule"
run "4 blow-up" "equality of two values of shared parts built apart" "2^$top written parts" 0 60 /dev/null -- "$okite" eval --rules "$work/shared-values.rule" "size({p$top, s$top}) == 1 and p$top == s$top"
run "4 blow-up" "a value of shared parts printed" "2^$top written parts" 0 60 /dev/null -- "$okite" eval --rules "$work/shared-values.rule" "p$top"
python3 -c "
n = $(n 50000)
print('def f(' + ', '.join(f'a{i}' for i in range(n)) + ') = (' + ', '.join(f'a{i}' for i in range(n)) + ')')" >"$work/params.rule"
run "4 blow-up" "check of a definition of many parameters, each named in its body" "$(nc 50000) parameters" 0 60 /dev/null -- "$okite" check "$work/params.rule"
python3 -c "
n = $(n 50000)
for i in range(n): print(f'def f{i}(x) = x')
for i in range(n): print(f'def g{i} = f{n-1-i}(1, 2)')" >"$work/arity.rule"
split_rule "$work/arity.rule"
run "4 blow-up" "check of many calls with one argument too many" "$(nc 50000) definitions, $(nc 50000) calls" 2 60 /dev/null -- "$okite" check "$work/arity.rule"

# ---------------------------------------------------------------- 5. unbounded reads
truncate -s "$(n 2)G" "$work/sparse.rule"
run "5 reads" "rule file, sparse" "$(n 2) GiB" 2 60 /dev/null -- "$okite" check "$work/sparse.rule"
ln -s /dev/zero "$work/zero.rule"
printf 'use "zero.rule"\ndef x = 1\n' >"$work/use-zero.rule"
run "5 reads" "use of /dev/zero through a link" "endless" 2 60 /dev/null -- "$okite" check "$work/use-zero.rule"
mkfifo "$work/fifo.rule"
printf 'use "fifo.rule"\ndef x = 1\n' >"$work/use-fifo.rule"
run "5 reads" "use of a FIFO nobody writes" "endless" 2 20 /dev/null -- "$okite" check "$work/use-fifo.rule"
run "5 reads" "edge list /dev/zero" "endless" 2 60 /dev/null -- "$okite" go count --graph edges:/dev/zero
run "5 reads" "SGF record /dev/zero" "endless" 2 60 /dev/null -- "$okite" go show --sgf /dev/zero
run "5 reads" "KIF record /dev/zero" "endless" 2 60 /dev/null -- "$okite" game --kif /dev/zero
truncate -s "$(n 2)G" "$work/sparse.csa"
run "5 reads" "CSA record, sparse" "$(n 2) GiB" 2 60 /dev/null -- "$okite" game --csa "$work/sparse.csa"
truncate -s "$(n 300)M" "$work/sparse.batch"
run "5 reads" "mate batch, sparse" "$(n 300) MiB" 2 60 /dev/null -- "$okite" mate --batch "$work/sparse.batch"
mkfifo "$work/results.fifo"
run "5 reads" "go classes --results, a FIFO nobody reads" "endless" 2 20 /dev/null -- "$okite" go classes --graph path:3 --results "$work/results.fifo"
mkfifo "$work/export/go.rule" 2>/dev/null || { mkdir -p "$work/export"; mkfifo "$work/export/go.rule"; }
run "5 reads" "rules export --force over a FIFO" "endless" 2 20 /dev/null -- "$okite" rules export --force "$work/export"
run "5 reads" "game --kif, a FIFO nobody writes" "endless" 2 20 /dev/null -- "$okite" game --kif "$work/results.fifo"
run "5 reads" "tsume --csa, a folder" "a folder" 2 20 /dev/null -- "$okite" tsume --csa "$work"
printf ':load /dev/zero\n6 * 7\n' >"$work/load-zero.txt"
run "5 reads" "REPL :load /dev/zero, then a query" "endless" 1 60 "$work/load-zero.txt" -- "$okite" repl
printf 'def x = 1\n' >"$work/grows.rule"
# the file grows to a sparse 2 GiB after the REPL read it, before :reload comes
run "5 reads" "REPL :reload of a file grown sparse, then a query" "$(n 2) GiB" 1 60 <(sleep 2; truncate -s "$(n 2)G" "$work/grows.rule"; printf ':reload\nx\n') -- "$okite" repl "$work/grows.rule"
python3 -c "import sys; sys.stdout.write('1' * ($(n 17) << 20) + '\n6 * 7\n')" >"$work/repl-long.txt"
run "5 reads" "REPL line longer than 16 MiB, then a query" "$(n 17) MiB line" 1 60 "$work/repl-long.txt" -- "$okite" repl
run "5 reads" "REPL fed /dev/zero (no line end, ever): read without end in bounded memory" "endless" "timeout at 5 s" 5 /dev/zero -- "$okite" repl

# ---------------------------------------------------------------- 6. resident memory
# at ten times: 2^24 sets (16 times), 3^15 maps (27 times), a square of ten times the sets
pw=$(at10 20 24)
fx=$(at10 12 15)
side=$(python3 -c "print(round(3000 * $X ** 0.5))")
run "6 memory" "powerset(1..$pw) under 256 MiB (refused before it is built)" "2^$pw sets" 2 60 /dev/null -- "$okite" eval --max-resident-mb 256 "size(powerset(1..$pw))"
run "6 memory" "functions(1..$fx, {0, 1, 2}) under 256 MiB" "3^$fx maps" 2 60 /dev/null -- "$okite" eval --max-resident-mb 256 "size(functions(1..$fx, {0, 1, 2}))"
run "6 memory" "a comprehension of $(c $((side * side))) sets under 256 MiB" "$(c "$side") x $(c "$side")" 2 60 /dev/null -- "$okite" eval --max-resident-mb 256 "size({ {i, j} | i in 1..$side, j in 1..$side })"
run "6 memory" "powerset(1..$pw) under the default bound" "2^$pw sets" "$(at10 0 2)" 120 /dev/null -- "$okite" eval "size(powerset(1..$pw))"
# grids of ten times the vertices: 16x16 -> 51x50, 13x13 -> 41x41, 7x7 -> 22x22
g16=$(at10 16x16 51x50)
g13=$(at10 13x13 41x41)
g7=$(at10 7x7 22x22)
run "6 memory" "go count grid:$g16 (default bound, 4096 MiB)" "$(( ${g16%x*} * ${g16#*x} )) vertices" 2 300 /dev/null -- "$okite" go count --graph "grid:$g16"
run "6 memory" "go count grid:$g13 under 1024 MiB" "$(( ${g13%x*} * ${g13#*x} )) vertices" 2 300 /dev/null -- "$okite" go count --graph "grid:$g13" --max-resident-mb 1024
run "6 memory" "go count grid:$g7" "$(( ${g7%x*} * ${g7#*x} )) vertices" "$(at10 0 2)" 120 /dev/null -- "$okite" go count --graph "grid:$g7"
run "6 memory" "mate --hash-mb $(n 1000000)" "$X TB table" 2 60 /dev/null -- "$okite" mate --sfen startpos --hash-mb "$(n 1000000)"
run "6 memory" "go classes --estimate-mb $(n 1000000)" "$X TB table" 2 60 /dev/null -- "$okite" go classes --graph path:5 --estimate-mb "$(n 1000000)"
S=$(grep '^kh-microcosmos' "$ORACLES"/tsume/curated/curated.tsv | cut -f2)
# a table of ten times 1 GiB passes the default resident bound of 4 GiB
run "6 memory" "mate, $X GiB table, $(n 5) s" "Microcosmos" "$(at10 0 2)" 60 /dev/null -- "$okite" mate --sfen "$S" --hash-mb "$(n 1024)" --time-ms "$(n 5000)"
run "6 memory" "eval under --timeout-ms 2000" "$(n 4) x 10^8 steps" 2 60 /dev/null -- "$okite" eval --timeout-ms 2000 "sum i in 1..2000: sum j in 1..2000: sum k in 1..$(n 100): i * j * k"
run "6 memory" "go sequences path:4, --limit $(nc 10000000)" "719,178,893 sequences" 2 120 /dev/null -- "$okite" go sequences --graph path:4 --limit "$(n 10000000)"
run "6 memory" "go solve grid:5x5, --time-ms $(n 3000)" "25 vertices" 2 60 /dev/null -- "$okite" go solve --graph grid:5x5 --time-ms "$(n 3000)"
run "6 memory" "go classes grid:4x4, --nodes $(nc 1000000)" "16 vertices" 2 120 /dev/null -- "$okite" go classes --graph grid:4x4 --nodes "$(n 1000000)"
# values that double with each line (issue of the third round): the address-space cap of this
# script (6 GiB by default) is the limit they are weighed against, beside the resident bound
dbl=$((24 + $(at10 0 1)))
python3 -c "
print('def s0 = \"' + 'x' * 100 + '\"')
for k in range(1, 30): print('def s%d = s%d ++ s%d' % (k, k - 1, k - 1))
print('def t0 = \"xxxxxxxx\"')
for k in range(1, 61): print('def t%d = (t%d, t%d)' % (k, k - 1, k - 1))" >"$work/dbl.rule"
run "6 memory" "a text doubled $dbl times from 100 characters, written once" "$((100 << (dbl - 20))) MiB" "$(at10 0 2)" 60 /dev/null -- "$okite" eval --rules "$work/dbl.rule" "len(s$dbl)"
run "6 memory" "a text doubled 25 times from 100 characters (refused before its 3.2 GB)" "3,200 MiB" 2 60 /dev/null -- "$okite" eval --rules "$work/dbl.rule" "len(s25)"
run "6 memory" "str of a pair doubled 60 times" "2^60 written parts" 2 60 /dev/null -- "$okite" eval --rules "$work/dbl.rule" "len(str(t60))"
run "6 memory" "--json of a pair doubled 24 times under 256 MiB" "2^24 written parts" 2 60 /dev/null -- "$okite" eval --json --max-resident-mb 256 --rules "$work/dbl.rule" "t24"
{ echo 'def v0 = {0: 0}'; for k in $(seq 1 40); do echo "def v$k = v$((k - 1)) with { x + $((1 << (k - 1))): 1 | x in keys(v$((k - 1))) }"; done; } >"$work/with.rule"
run "6 memory" "a map doubled by with, under 256 MiB" "2^40 keys" 2 60 /dev/null -- "$okite" eval --max-resident-mb 256 --rules "$work/with.rule" "size(v40)"

# ---------------------------------------------------------------- 7. inconsistent inputs
printf 'def bad(x: a) -> b = x\n' >"$work/rigid.rule"
run "7 inconsistent" "signature whose type variables the body equates" "def bad(x: a) -> b = x" 2 60 /dev/null -- "$okite" check "$work/rigid.rule"
run "7 inconsistent" "komi out of range" "--komi=1e300" 2 60 /dev/null -- "$okite" go solve --graph path:3 --komi=1e300
run "7 inconsistent" "side not to move in check: legal (as the rules judge it)" "SFEN" 0 60 /dev/null -- "$okite" legal --sfen "4k4/9/9/9/9/9/9/9/4K3r w - 1"
run "7 inconsistent" "side not to move in check: mate" "SFEN" 0 60 /dev/null -- "$okite" mate --sfen "4k4/4R4/9/9/9/9/9/9/4K4 b G 1"
run "7 inconsistent" "side not to move in check: perft, natively (the rules count 89)" "SFEN" 0 60 /dev/null -- "$okite" perft --depth 1 --sfen "9/9/7+r1/8K/9/7k1/9/9/9 w 2P3p 1"
run "7 inconsistent" "pawn on the last rank" "SFEN" 2 60 /dev/null -- "$okite" legal --sfen "P3k4/9/9/9/9/9/9/9/4K4 b - 1"
run "7 inconsistent" "piece with nowhere to go, side not to move: perft" "SFEN" 2 60 /dev/null -- "$okite" perft --depth 2 --sfen "K8/4P4/9/9/9/9/9/n2k5/9 b G 1"
run "7 inconsistent" "piece with nowhere to go, side not to move: mate" "SFEN" 2 60 /dev/null -- "$okite" mate --sfen "K8/4P4/9/9/9/9/9/n2k5/9 b G 1"
: >"$work/empty.kif"
: >"$work/empty.csa"
run "7 inconsistent" "empty KIF record" "0 bytes" 2 60 /dev/null -- "$okite" game --kif "$work/empty.kif"
run "7 inconsistent" "empty CSA record" "0 bytes" 2 60 /dev/null -- "$okite" game --csa "$work/empty.csa"
cat >"$work/valid.csa" <<'EOF'
V2.2
N+sente
N-gote
$EVENT:test
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
+7776FU
T12
-3334FU
T3
+8822UM
-3122GI
+0045KA
%TORYO
EOF
n=$(wc -c <"$work/valid.csa")
loaded=0
cut_loads=0
t0=$(date +%s.%N)
for i in $(seq 0 $((n - 1))); do
  head -c "$i" "$work/valid.csa" >"$work/cut.csa"
  if "$okite" game --csa "$work/cut.csa" --readings narrow >/dev/null 2>&1; then
    loaded=$((loaded + 1))
    # a prefix that loads must end at a whole statement of the record: a move, the side line,
    # the result, or inside the seconds of a time line
    last=$(grep -v '^[[:space:]]*$' "$work/cut.csa" | tail -1 | tr -d '[:space:]')
    if ! { grep -qx -- "$last" "$work/valid.csa" || [[ "$last" == T[0-9]* ]]; }; then
      cut_loads=$((cut_loads + 1))
    fi
  fi
done
t1=$(date +%s.%N)
row "7 inconsistent" "every prefix of a valid CSA record: none cut inside a statement loads" "$n prefixes" "0" "$cut_loads" "$(python3 -c "print(f'{$t1 - $t0:.1f}')")" "-" "$((n - loaded)) refused; the $loaded that load end at a whole move, the side line, or in a time line's seconds"
head -c 100 "$work/valid.csa" >"$work/cut.csa"
run "7 inconsistent" "CSA record cut inside the board" "100 of $n bytes" 2 60 /dev/null -- "$okite" game --csa "$work/cut.csa"
printf 'a b\nb c\n  b b\n' >"$work/loop.edges"
printf 'a b\nb c\nc d\n\nd c\n' >"$work/dup.edges"
run "7 inconsistent" "edge list with a self-loop" "3 lines" 2 60 /dev/null -- "$okite" go count --graph "edges:$work/loop.edges"
run "7 inconsistent" "edge list with an edge written twice" "5 lines" 2 60 /dev/null -- "$okite" go count --graph "edges:$work/dup.edges"
printf '4k4/9/4P4/9/9/9/9/9/4K4 b G 1\nnot an sfen\n4k4/9/4P4/9/9/9/9/9/4K4 b G 1\n' >"$work/batch.txt"
run "7 inconsistent" "mate batch with a bad line (JSON: $("$okite" mate --batch "$work/batch.txt" --json 2>/dev/null | grep -c '"result": "error"') error object)" "3 lines" 2 60 /dev/null -- "$okite" mate --batch "$work/batch.txt" --json
printf '4k4/9/4P4/9/9/9/9/9/4K4 b G 1\n\xfe\n4k4/9/4P4/9/9/9/9/9/4K4 b G 1\n' >"$work/batch-utf8.txt"
run "7 inconsistent" "mate batch with a line not UTF-8 (JSON: $("$okite" mate --batch "$work/batch-utf8.txt" --json 2>/dev/null | grep -c '"result"') answers)" "3 lines" 2 60 /dev/null -- "$okite" mate --batch "$work/batch-utf8.txt" --json
printf '1 + 1\n\xff\xfe\n6 * 7\n' >"$work/bad-utf8.txt"
run "7 inconsistent" "REPL line that is not UTF-8, between two queries" "3 lines" 1 60 "$work/bad-utf8.txt" -- "$okite" repl

python3 -c "
print('def d0 = 0')
for i in range(1, $(n 300000)): print(f'def d{i} = d{i-1}')" >"$work/big.rule"
split_rule "$work/big.rule"
for at in 0.2 1.5; do
  res=$(repl_interrupt "$work/big.rule" "$at")
  row "7 inconsistent" "Ctrl-C during REPL :load of a large file (in a terminal)" "$(nc 300000) definitions, $(( $(cat "$work"/big*.rule | wc -c) >> 20 )) MiB" 0 "$(echo "$res" | head -1)" "-" "-" "$(echo "$res" | tail -1)"
done

# ---------------------------------------------------------------- the third round
# legality under the readings with every pawn in hand (each drop asks for the opponent's answers)
# (the pawns cannot be ten times as many: at ten times, one ply deeper)
for r in narrow broad; do
  run "4 blow-up" "perft $(at10 2 3) under $r, 9 pawns in each hand" "18 pawns" 0 60 /dev/null -- "$okite" perft --reading $r --depth "$(at10 2 3)" --sfen "4k4/9/9/9/9/9/9/9/4K4 b 9P9p 1"
done
run "4 blow-up" "perft $(at10 1 2) under narrow, 18 pawns in one hand" "18 pawns" 0 60 /dev/null -- "$okite" perft --reading narrow --depth "$(at10 1 2)" --sfen "k8/9/9/9/9/9/9/9/8K b 18P 1"
# type text of long names: a tuple of 500 (and 20,000) parts named by 100,000 characters
for parts in $(n 500) $(n 20000); do
  python3 - "$work/names$parts.rule" "$parts" <<'PY'
import sys
name, n = "T" + "x" * 100000, int(sys.argv[2])
lines = ["enum %s { A }" % name, "def t = (%s)" % ", ".join(["A"] * n)]
lines += ["def bad%d -> Int = t" % i for i in range(20)]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
  run "4 blow-up" "20 type mismatches of a tuple of long-named parts ($(( $("$okite" check "$work/names$parts.rule" 2>&1 | wc -c) / 1024 )) KiB of diagnostics)" "$parts parts, $(( $(wc -c <"$work/names$parts.rule") / 1024 )) KiB" 2 60 /dev/null -- "$okite" check "$work/names$parts.rule"
done
# a search under a reading the rules answer, within its memory options
run "6 memory" "mate under any-drop-mate, --hash-mb 1, --max-resident-mb 300, $(n 20) s" "no mate" 0 60 /dev/null -- "$okite" mate --reading any-drop-mate --max-resident-mb 300 --hash-mb 1 --time-ms "$(n 20000)" --sfen "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"
run "6 memory" "mate under any-drop-mate, --hash-mb $(n 250), --max-resident-mb $(n 300)" "no mate" 0 120 /dev/null -- "$okite" mate --reading any-drop-mate --max-resident-mb "$(n 300)" --hash-mb "$(n 250)" --time-ms 60000 --sfen "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"
{ printf 'setoption name Reading value any-drop-mate\nsetoption name USI_Hash value 1\nposition sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1\ngo mate %s\n' "$(n 20000)"; } >"$work/usi-variant.txt"
run "6 memory" "USI under any-drop-mate, USI_Hash 1, go mate $(n 20000) (input ends: the search ends)" "no mate" 0 60 "$work/usi-variant.txt" -- "$okite" usi
printf 'setoption name USI_Hash value 4096\nposition sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1\ngo mate 5000\nisready\n' >"$work/usi-hash.txt"
run "6 memory" "USI_Hash 4096 (the largest offered), mate in 1: $("$okite" usi <"$work/usi-hash.txt" 2>/dev/null | grep -m1 checkmate)" "4 GiB table" 0 60 "$work/usi-hash.txt" -- "$okite" usi
run "6 memory" "len(seq(1..$(n 30000000))) under --timeout-ms 100" "$(nc 30000000) elements" 2 60 /dev/null -- "$okite" eval --timeout-ms 100 "len(seq(1..$(n 30000000)))"
run "6 memory" "sort of $(nc 3000000) under --max-steps 1000000" "$(nc 3000000) elements" 2 60 /dev/null -- "$okite" eval --max-steps 1000000 "len(sort(seq(1..$(n 3000000))))"
printf 'reading mine extends area {\n    override def cycle_value(G) = 1\n}\n' >"$work/mine.rule"
run "6 memory" "go solve by the rules, --time-ms 100" "path:$(n 6)" 2 60 /dev/null -- "$okite" go solve --rules rules --rules "$work/mine.rule" --reading mine --graph "path:$(n 6)" --time-ms 100
run "7 inconsistent" "functions past the count: the count written exactly" "$(n 1000)^$(n 1000) maps" 2 60 /dev/null -- "$okite" eval "size(functions(1..$(n 1000), 1..$(n 1000)))"
# USI: a position line that cannot be read leaves no position to search
printf 'position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1\nposition sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 \xff\ngo mate 1000\nquit\n' >"$work/usi-stale.txt"
run "7 inconsistent" "USI position line not UTF-8, then go mate: $("$okite" usi <"$work/usi-stale.txt" 2>/dev/null | grep -m1 checkmate)" "4 lines" 0 60 "$work/usi-stale.txt" -- "$okite" usi
# records: CR line ends, a stray line
tr '\n' '\r' <tests/data/records/uchifuzume.kif | sed 's/^/開始日時：2026\/11\/29\r/' >"$work/cr.kif"
run "7 inconsistent" "KIF with CR line ends and 開始日時: $("$okite" game --kif "$work/cr.kif" 2>/dev/null | head -1)" "$(wc -c <"$work/cr.kif") bytes" 0 60 /dev/null -- "$okite" game --kif "$work/cr.kif"
printf '手合割：平手\nこれはごみ\n' >"$work/stray.kif"
run "7 inconsistent" "KIF of a header and one stray line" "2 lines" 2 60 /dev/null -- "$okite" game --kif "$work/stray.kif"
# one results file, two writers: the second is refused at its start
"$okite" go classes --graph path:10 --results "$work/shared.res" >/dev/null 2>"$work/first.err" &
first=$!
for _ in $(seq 100); do grep -q "results read from\|classifying" "$work/first.err" 2>/dev/null && break; [ -e "$work/shared.res.lock" ] && break; sleep 0.05; done
sleep 0.2
run "7 inconsistent" "go classes --results F while another process writes F" "2 processes" 2 60 /dev/null -- "$okite" go classes --graph path:10 --results "$work/shared.res"
kill "$first" 2>/dev/null; wait "$first" 2>/dev/null
cp "$work/mine.rule" "$work/target.txt"
ln -s "$work/target.txt" "$work/linked.res.part"
run "7 inconsistent" "go classes --results F with a link at F.part" "path:5" 0 60 /dev/null -- "$okite" go classes --graph path:5 --results "$work/linked.res"
cmp -s "$work/mine.rule" "$work/target.txt"; kept=$?
row "7 inconsistent" "the link's target after it: unchanged (cmp)" "path:5" 0 "$kept" "-" "-" "$( [ -L "$work/linked.res.part" ] && echo 'the link is still there' || echo 'the link was removed, its target left as it was')"

# ---------------------------------------------------------------- the fourth round
# chains that nest without brackets: refused by the text scan or by the builder's count of levels
python3 -c "print('def f = ' + '-' * $(n 200000) + '1')" >"$work/minus.rule"
run "1 stack" "a run of prefix \`-\` without spaces" "$(nc 200000) signs" 2 60 /dev/null -- "$okite" check "$work/minus.rule"
python3 -c "print('def f(g: ' + 'Int->' * $(n 50000) + 'Int) = 1')" >"$work/arrows.rule"
run "1 stack" "a chain of function types" "$(nc 50000) arrows" 2 60 /dev/null -- "$okite" check "$work/arrows.rule"
python3 -c "print('def f = ' + 'x -> ' * $(n 50000) + '1')" >"$work/lambdas.rule"
run "1 stack" "a chain of lambdas" "$(nc 50000) lambdas" 2 60 /dev/null -- "$okite" check "$work/lambdas.rule"
python3 -c "print('type T = ' + 'Map<Int, ' * $(n 30000) + 'Int' + '>' * $(n 30000))" >"$work/maps.rule"
run "1 stack" "a chain of type applications, each after a comma" "$(nc 30000) levels" 2 60 /dev/null -- "$okite" check "$work/maps.rule"
python3 -c "print('def f = ' + 'let a = 1, b = ' * $(n 30000) + '1' + ', c = 1 in 1' * $(n 30000))" >"$work/lets.rule"
run "1 stack" "a chain of \`let\`, each in a binding after a comma" "$(nc 30000) levels" 2 60 /dev/null -- "$okite" check "$work/lets.rule"
# width the evaluator turns into depth
python3 -c "print('def x = {1 | ' + ', '.join(['true'] * $(n 200000)) + '}')" >"$work/guards.rule"
run "1 stack" "a comprehension of many guards" "$(nc 200000) guards" 0 60 /dev/null -- "$okite" eval --rules "$work/guards.rule" "size(x)"
python3 -c "print('def s = {1}'); print('def x = all ' + ', '.join(f'a{i} in s' for i in range($(n 100000))) + ': true')" >"$work/binders.rule"
run "1 stack" "a quantifier of many binders" "$(nc 100000) binders" 0 60 /dev/null -- "$okite" eval --rules "$work/binders.rule" "x"
run "1 stack" "a closure that captured a closure, dropped" "$(nc 300000) closures" 0 60 /dev/null -- "$okite" eval "size(closure {(0, x -> x)} by (p -> if p.1 < $(n 300000) then {(p.1 + 1, y -> p.2(y))} else {}))"
cat >"$work/cells.rule" <<'EOF'
enum L { nil, cons(Int, L) }
def build(n: Int) -> L = the({p.2 | p in closure {(0, nil)} by (p -> if p.1 < n then {(p.1 + 1, cons(p.1, p.2))} else {}), p.1 == n})
EOF
printf 'build(%s) == build(%s)\ndef z = 1\nz + 1\n' "$(n 300000)" "$(n 300000)" >"$work/cells.txt"
run "1 stack" "REPL: a list kept in the memo, then a new definition" "$(nc 300000) cells" 0 60 "$work/cells.txt" -- "$okite" repl "$work/cells.rule"
run "1 stack" "perft of a board variant, depth $(nc 1000000)" "minishogi" 2 60 /dev/null -- "$okite" perft --variant minishogi --depth "$(n 1000000)"

echo
echo "$cases cases, $((cases - unexpected)) as expected."
[ "$unexpected" -eq 0 ]
