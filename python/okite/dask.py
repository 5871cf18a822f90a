"""okite.dask: okite's batches spread over a ``dask.distributed`` cluster.

Each function takes a :class:`distributed.Client` (any scheduler: a ``LocalCluster``, a cluster
reached by its address) and the batch, cuts the batch into tasks, and gives back what one
machine's command gives, in the same order:

- :func:`mate_batch` and :func:`tsume_batch`: SFEN lines, ``chunk`` problems a task;
- :func:`game_records` and :func:`go_result_records`: a folder of records, whose texts are sent
  to the workers (they need not share a file system with the client);
- :func:`perft`: a count split by first moves;
- :func:`go_classes`: a Go classification split by first moves, each task classifying the
  position after one first move with a results file of its own; the files are sent back and
  read by the classification of the position itself.

Tasks are pure functions of their inputs: a worker that dies mid-task loses nothing, because
the scheduler runs its task again elsewhere (``retries`` more runs are allowed for a task that
fails). ``progress=True`` shows Dask's progress bar.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import okite

__all__ = [
    "mate_batch",
    "tsume_batch",
    "game_records",
    "go_result_records",
    "perft",
    "go_classes",
]


def _gather(client: Any, futures: List[Any], progress: bool) -> List[Any]:
    if progress:
        from distributed import progress as show

        show(futures)
    return client.gather(futures)


def _chunks(items: Sequence[Any], size: int) -> List[List[Any]]:
    size = max(1, int(size))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def _renumber(reports: List[List[Dict[str, Any]]], size: int) -> List[Dict[str, Any]]:
    """The reports of the chunks as one batch's: a bad line's ``line`` is its line in the
    whole batch."""
    whole: List[Dict[str, Any]] = []
    for k, chunk in enumerate(reports):
        for r in chunk:
            if "line" in r and isinstance(r["line"], int):
                r = dict(r, line=r["line"] + k * size)
            whole.append(r)
    return whole


def _mate_task(problems: List[str], options: Dict[str, Any]) -> List[Dict[str, Any]]:
    return okite.mate_batch(problems, jobs=1, **options)


def _tsume_task(problems: List[str], options: Dict[str, Any]) -> List[Dict[str, Any]]:
    return okite.tsume_batch(problems, jobs=1, **options)


def _spread(
    client: Any,
    task: Callable[..., Any],
    problems: Sequence[str],
    chunk: int,
    options: Dict[str, Any],
    retries: int,
    progress: bool,
) -> List[Dict[str, Any]]:
    # the lines as given, blank ones and comments too, so that a line named in a report is its
    # line in the whole batch
    parts = _chunks([p.replace("\n", " ") for p in problems], chunk)
    futures = [client.submit(task, part, options, retries=retries, pure=False) for part in parts]
    return _renumber(_gather(client, futures, progress), max(1, int(chunk)))


def mate_batch(
    client: Any,
    problems: Sequence[str],
    *,
    chunk: int = 50,
    retries: int = 3,
    progress: bool = False,
    **options: Any,
) -> List[Dict[str, Any]]:
    """``okite mate --batch`` over the cluster: a report per problem, in order, as
    :func:`okite.mate_batch` gives them (``options`` are its options: ``length``,
    ``reading``, ``nodes``, ``time_ms``, ``hash_mb`` for each task, ...)."""
    return _spread(client, _mate_task, problems, chunk, options, retries, progress)


def tsume_batch(
    client: Any,
    problems: Sequence[str],
    *,
    chunk: int = 20,
    retries: int = 3,
    progress: bool = False,
    **options: Any,
) -> List[Dict[str, Any]]:
    """``okite tsume --batch`` over the cluster: a report per problem, in order."""
    return _spread(client, _tsume_task, problems, chunk, options, retries, progress)


def _record_files(folder: str, suffixes: Tuple[str, ...]) -> List[str]:
    if os.path.isdir(folder):
        names = sorted(n for n in os.listdir(folder) if n.lower().endswith(suffixes))
        return [os.path.join(folder, n) for n in names]
    with open(folder, encoding="utf-8") as f:
        base = os.path.dirname(folder)
        return [
            os.path.join(base, line.strip())
            for line in f
            if line.strip() and not line.strip().startswith("#")
        ]


def _records_task(
    command: Tuple[str, ...],
    records: List[Tuple[str, bytes]],
    options: Dict[str, Any],
) -> List[Dict[str, Any]]:
    """Judges records sent as texts: written into a folder of the worker's, in the order
    given, and named back by their paths on the client."""
    with tempfile.TemporaryDirectory(prefix="okite-records-") as d:
        listing = []
        for i, (path, text) in enumerate(records):
            name = f"{i:06}-{os.path.basename(path)}"
            with open(os.path.join(d, name), "wb") as f:
                f.write(text)
            listing.append(name)
        with open(os.path.join(d, "records.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(listing) + "\n")
        reports = okite._lines(
            *command, *okite._flags(records=os.path.join(d, "records.txt"), jobs=1, **options)
        )
    by_name = {os.path.join(d, name): path for name, (path, _) in zip(listing, records)}
    out = []
    for r in reports:
        if isinstance(r.get("record"), str) and r["record"] in by_name:
            r = dict(r, record=by_name[r["record"]])
        out.append(r)
    return out


def _spread_records(
    client: Any,
    command: Tuple[str, ...],
    files: List[str],
    chunk: int,
    options: Dict[str, Any],
    retries: int,
    progress: bool,
) -> List[Dict[str, Any]]:
    records = []
    for path in files:
        with open(path, "rb") as f:
            records.append((path, f.read()))
    futures = [
        client.submit(_records_task, command, part, options, retries=retries, pure=False)
        for part in _chunks(records, chunk)
    ]
    return [r for part in _gather(client, futures, progress) for r in part]


def game_records(
    client: Any,
    folder: str,
    *,
    chunk: int = 20,
    retries: int = 3,
    progress: bool = False,
    **options: Any,
) -> List[Dict[str, Any]]:
    """``okite game --records`` over the cluster: each KIF, KI2 and CSA record of ``folder``
    (or of a file listing them) judged, in order (``options``: ``rulesets``, ``readings``)."""
    files = _record_files(folder, (".kif", ".kifu", ".ki2", ".csa"))
    opts = {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in options.items()}
    return _spread_records(client, ("game",), files, chunk, opts, retries, progress)


def go_result_records(
    client: Any,
    folder: str,
    *,
    chunk: int = 20,
    retries: int = 3,
    progress: bool = False,
    **options: Any,
) -> List[Dict[str, Any]]:
    """``okite go result --records`` over the cluster: each SGF record of ``folder`` (or of a
    file listing them) under each Go rule set, in order (``options``: ``rulesets``)."""
    files = _record_files(folder, (".sgf",))
    opts = {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in options.items()}
    return _spread_records(client, ("go", "result"), files, chunk, opts, retries, progress)


def _perft_task(depth: int, sfen: str, moves: List[str], options: Dict[str, Any]) -> int:
    return okite.perft(depth, sfen=sfen, moves=moves, jobs=1, **options)["count"]


def perft(
    client: Any,
    depth: int,
    *,
    sfen: str = "startpos",
    moves: Sequence[str] = (),
    retries: int = 3,
    progress: bool = False,
    **options: Any,
) -> Dict[str, Any]:
    """``okite perft`` split by first moves: a task counts ``depth - 1`` plies below each legal
    move. Returns ``{"count", "divide": {move: count}}`` (``options``: ``reading``, ``variant``,
    ``rules``)."""
    moves = list(moves)
    if isinstance(moves, str):
        moves = moves.split()
    legal_options = {k: v for k, v in options.items() if k in ("reading", "variant", "rules")}
    first = okite.legal(sfen=sfen, moves=moves, **legal_options)["moves"]
    if depth <= 1:
        divide = {m: 1 for m in first} if depth == 1 else {}
        return {"count": len(first) if depth == 1 else 1, "divide": divide}
    futures = [
        client.submit(_perft_task, depth - 1, sfen, moves + [m], options, retries=retries, pure=False)
        for m in first
    ]
    counts = _gather(client, futures, progress)
    return {"count": sum(counts), "divide": dict(zip(first, counts))}


def _classes_task(
    graph: str, moves: str, options: Dict[str, Any]
) -> Tuple[Optional[bytes], Optional[str]]:
    """The position after one first move, classified with a results file of its own: the
    file's bytes, or the code of the diagnostic that refused the move (an illegal one)."""
    with tempfile.TemporaryDirectory(prefix="okite-classes-") as d:
        path = os.path.join(d, "results")
        try:
            okite.go_classes(graph, moves=moves, results=path, **options)
        except okite.OkiteError as e:
            return None, e.code
        if not os.path.exists(path):
            return b"", None
        with open(path, "rb") as f:
            return f.read(), None


def _vertices(graph: str, moves: str) -> List[str]:
    """The vertices a first move may be played on: the empty ones of the position."""
    import json

    args = ["go", "show", "--graph", graph, "--json"] + (["--moves", moves] if moves else [])
    shown = json.loads(okite.run(*args)["stdout"])
    return [v["name"] for v in shown["vertices"] if v["stone"] is None]


def go_classes(
    client: Any,
    graph: str,
    *,
    moves: str = "",
    retries: int = 3,
    progress: bool = False,
    results: Optional[str] = None,
    **options: Any,
) -> Dict[str, Any]:
    """``okite go classes`` split by first moves: a task classifies the position after each
    first move (each colour on each empty vertex) and sends back its results file; the
    position itself is then classified here with every one of them read. The classes are the
    command's; ``results`` keeps the merged results in a file of the client's (``options``:
    ``reading``, ``nodes``, ``threads``, ...)."""
    after = moves.strip().rstrip(",")
    firsts = [
        (f"{after}, {c} {v}" if after else f"{c} {v}")
        for v in _vertices(graph, after)
        for c in ("B", "W")
    ]
    futures = [
        client.submit(_classes_task, graph, m, options, retries=retries, pure=False)
        for m in firsts
    ]
    answers = _gather(client, futures, progress)
    with tempfile.TemporaryDirectory(prefix="okite-merge-") as d:
        files = []
        for i, (data, _) in enumerate(answers):
            if data:
                p = os.path.join(d, f"{i}.results")
                with open(p, "wb") as f:
                    f.write(data)
                files.append(p)
        report = okite.go_classes(
            graph, moves=after, read_results=files, results=results, **options
        )
    report["split"] = {
        "first_moves": len(firsts),
        "refused": sum(1 for data, code in answers if code is not None),
        "results_files": sum(1 for data, _ in answers if data),
    }
    return report
