#!/usr/bin/env python3
"""Times `okite lsp` answering didChange with diagnostics on a rule file of N lines.

usage: scripts/lsp-bench.py OKITE [LINES] [CHANGES]

The document `use`s the shipped shogi rules (written beside it) and holds LINES lines of
definitions, each calling two earlier ones; each change gives one definition a new body.
Prints the median and the slowest time from a didChange sent to its diagnostics received.
With VARIANT=NAME.rule, the document is a copy of that shipped variant file beside it, each
change giving `rows` another body that means the same.
"""
import json, os, random, subprocess, sys, tempfile, time

okite = sys.argv[1]
lines = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
changes = int(sys.argv[3]) if len(sys.argv) > 3 else 40

folder = tempfile.mkdtemp(prefix="okite-lsp-bench-")
subprocess.run([okite, "rules", "export", os.path.join(folder, "rules")], check=True,
               stdout=subprocess.DEVNULL)
VARIANT = os.environ.get("VARIANT")
path = os.path.join(folder, "rules", "variants", "mine.rule") if VARIANT else os.path.join(folder, "rules", "big.rule")
random.seed(1)

def document(edit):
    if VARIANT:
        t = open(os.path.join(folder, "rules", "variants", VARIANT)).read()
        assert "override def rows = 5" in t, VARIANT
        return t.replace("override def rows = 5", f"override def rows = 5 + {edit} - {edit}")
    out = ['use "shogi.rule"', ""]
    for i in range((lines - 2) // 2):
        deps = [f"x{random.Random(i * 2 + j).randrange(i)}" for j in range(2)] if i > 1 else ["1", "2"]
        body = f"{deps[0]} + {deps[1]} + {edit if i == (edit * 37) % ((lines - 2) // 2) else i}"
        out.append(f"// definition {i}")
        out.append(f"def x{i} = {body}")
    return "\n".join(out) + "\n"

proc = subprocess.Popen([okite, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

def send(msg):
    body = json.dumps(msg).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()

def receive():
    length = 0
    while True:
        line = proc.stdout.readline()
        if line in (b"\r\n", b""):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(proc.stdout.read(length))

def wait(pred):
    while True:
        m = receive()
        if pred(m):
            return m

uri = "file://" + path
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
wait(lambda m: m.get("id") == 1)
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
text = document(0)
open(path, "w").write(text)
send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
    "uri": uri, "languageId": "okite", "version": 1, "text": text}}})
diagnosed = lambda v: (lambda m: m.get("method") == "textDocument/publishDiagnostics"
                       and m["params"].get("version") == v)
first = wait(diagnosed(1))
assert not first["params"]["diagnostics"], first
times = []
for v in range(2, changes + 2):
    text = document(v)
    t = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": v}, "contentChanges": [{"text": text}]}})
    m = wait(diagnosed(v))
    times.append(time.perf_counter() - t)
    assert not m["params"]["diagnostics"], m
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
wait(lambda m: m.get("id") == 2)
send({"jsonrpc": "2.0", "method": "exit"})
proc.wait()
times.sort()
print(f"lsp didChange on {VARIANT or f'{lines} lines'}: median {times[len(times) // 2] * 1000:.1f} ms, "
      f"slowest {times[-1] * 1000:.1f} ms ({changes} changes)")
