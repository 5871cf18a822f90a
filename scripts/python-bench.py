"""The Python package's figures of docs/PERFORMANCE.md: commands in process against a process
each, batches on one and two jobs and on a local Dask cluster of two worker processes, and perft
split by first moves. Run with the package importable (PYTHONPATH=target/python/stage after
`cargo test --release --test python`) and OKITE (the binary) and ORACLES (../shared/
shogi-oracles) set, or their defaults."""
import os, time, subprocess, okite
from distributed import Client, LocalCluster
import okite.dask as od
if __name__ == "__main__":
    OKITE = os.environ.get("OKITE", "target/release/okite")
    ORACLES = os.environ.get("ORACLES", "../shared/shogi-oracles")
    sets = []
    for s in ["mate-1-ply","mate-3-ply","mate-5-ply","mate-7-ply","mate-9-ply"]:
        sets += [l for l in open(f"{ORACLES}/tsume/nshogi/{s}.sfen").read().splitlines() if l.strip()]
    batch = sets[:2000]
    t=time.perf_counter(); [okite.mate(p) for p in batch[:200]]; one=time.perf_counter()-t
    t=time.perf_counter()
    for p in batch[:200]:
        subprocess.run([OKITE,"mate","--sfen",p,"--json"],capture_output=True)
    proc=time.perf_counter()-t
    print(f"200 mate calls: in process {one:.2f} s, a process each {proc:.2f} s")
    t=time.perf_counter(); okite.mate_batch(batch, jobs=1); b1=time.perf_counter()-t
    t=time.perf_counter(); okite.mate_batch(batch, jobs=2); b2=time.perf_counter()-t
    c = Client(LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None))
    od.mate_batch(c, batch[:10])
    t=time.perf_counter(); od.mate_batch(c, batch, chunk=100); d=time.perf_counter()-t
    print(f"2000 problems: mate_batch jobs=1 {b1:.2f} s, jobs=2 {b2:.2f} s, dask 2 workers {d:.2f} s")
    t=time.perf_counter(); n=od.perft(c, 6)["count"]; d=time.perf_counter()-t
    t=time.perf_counter(); okite.perft(6, jobs=2); p2=time.perf_counter()-t
    print(f"perft 6 ({n}): dask 2 workers {d:.2f} s, perft --jobs 2 {p2:.2f} s")
