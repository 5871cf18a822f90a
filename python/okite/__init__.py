"""okite (掟, "the rules"): the rules of shogi and Go as mathematical definitions that run.

Each function runs the okite command of the same name in this process and returns what its
``--json`` prints, read into dicts and lists (positions as SFEN, moves in USI). The rules are
the ones built into the package unless ``rules=`` names rule files or folders; ``reading=``
names a reading of them; ``variant=`` a shipped board variant (minishogi, kyotoshogi, dobutsu,
judkins, torishogi, euroshogi).

A command that stops on a diagnostic raises :class:`OkiteError`, which carries its code (such
as ``"E0401"``, a bad SFEN) and its text. The interpreter's lock is released while a command
runs, so that searches on threads of Python run side by side.

>>> import okite
>>> okite.perft(2)["count"]
900
>>> okite.mate("4k4/9/4P4/9/9/9/9/9/9 b G 1")["pv"]
['G*5b']
"""

from __future__ import annotations

import json as _json
import os as _os
import tempfile as _tempfile
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from . import _okite

__all__ = [
    "OkiteError",
    "run",
    "version",
    "check",
    "evaluate",
    "perft",
    "legal",
    "mate",
    "mate_batch",
    "tsume",
    "tsume_batch",
    "game",
    "game_records",
    "go_count",
    "go_result",
    "go_result_records",
    "go_classes",
    "go_solve",
]

Paths = Union[str, "_os.PathLike[str]", Sequence[Union[str, "_os.PathLike[str]"]], None]


class OkiteError(Exception):
    """A command stopped on a diagnostic.

    Attributes:
        code: the code of the first error (``"E0401"``; ``"usage"`` for options that do not
            parse), as ``okite codes CODE`` explains it.
        codes: the codes of every diagnostic printed, in order.
        text: the diagnostics as the command line prints them, without colour.
        status: the exit status the command line would end with (2 for input, options and
            limits; 1 where the engines disagree).
        stdout: what the command wrote before it stopped (a batch's answers, say).
    """

    def __init__(self, code: str, text: str, codes: List[str], status: int, stdout: str):
        super().__init__(f"{code}: {text.strip()}" if text.strip() else code)
        self.code = code
        self.codes = codes
        self.text = text
        self.status = status
        self.stdout = stdout


def version() -> str:
    """The version of okite this package was built from."""
    return _okite.version()


def run(*args: str, check: bool = True) -> Dict[str, Any]:
    """Runs an okite command line (without ``okite``) in this process.

    Returns ``{"status", "stdout", "stderr", "codes", "diagnostics"}``. With ``check`` (the
    default), a status other than 0 raises :class:`OkiteError`.

    >>> run("perft", "--depth", "1")["stdout"]
    '30\\n'
    """
    c = _okite.run([str(a) for a in args])
    if check and c["status"] != 0:
        codes = list(c["codes"])
        text = c["diagnostics"] or c["stderr"]
        if not codes:
            # a report that carries its own diagnostics (`check --json`)
            codes, listed = _listed_diagnostics(c["stdout"])
            text = text or listed
        code = codes[0] if codes else f"exit {c['status']}"
        raise OkiteError(code, text, codes, c["status"], c["stdout"])
    return c


def _listed_diagnostics(stdout: str) -> "tuple[List[str], str]":
    """The codes and messages of a JSON report's "diagnostics", errors first."""
    try:
        listed = _json.loads(stdout).get("diagnostics") or []
    except (ValueError, AttributeError):
        return [], ""
    listed = sorted(listed, key=lambda d: d.get("level") != "error")
    codes = [str(d.get("code")) for d in listed if d.get("code")]
    text = "\n".join(
        f"{d.get('code')}: {d.get('message')} ({d.get('file')}:{d.get('line')}:{d.get('column')})"
        for d in listed
    )
    return codes, text


def _paths(p: Paths) -> List[str]:
    if p is None:
        return []
    if isinstance(p, (str, _os.PathLike)):
        return [_os.fspath(p)]
    return [_os.fspath(x) for x in p]


def _moves(m: Union[str, Iterable[str], None], sep: str = " ") -> Optional[str]:
    if m is None:
        return None
    if isinstance(m, str):
        return m
    return sep.join(m)


def _flags(**options: Any) -> List[str]:
    """Command-line flags of keyword options: ``time_ms=5`` is ``--time-ms 5``, ``json=True``
    is ``--json``, a list is the option repeated (``rules``) or joined by commas."""
    out: List[str] = []
    for name, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + name.rstrip("_").replace("_", "-")
        if value is True:
            out.append(flag)
        elif name in ("rules", "read_results"):
            for p in _paths(value):
                out.append(f"{flag}={p}")
        elif isinstance(value, (list, tuple)):
            out.append(flag + "=" + ",".join(str(v) for v in value))
        else:
            text = _os.fspath(value) if isinstance(value, _os.PathLike) else str(value)
            out.append(f"{flag}={text}")
    return out


def _report(*args: str) -> Any:
    return _json.loads(run(*args, "--json")["stdout"])


def _lines(*args: str) -> List[Dict[str, Any]]:
    """The JSON lines of a batch, in the order of its items; a batch whose items did not all
    read still gives them (each bad one is ``{"result": "error", "code", ...}`` in place)."""
    c = run(*args, "--json", check=False)
    if c["status"] != 0 and not c["stdout"].strip():
        run(*args, "--json")  # raises with the diagnostics
    return [_json.loads(line) for line in c["stdout"].splitlines() if line.strip()]


def _batch_file(items: Iterable[str]) -> str:
    f = _tempfile.NamedTemporaryFile("w", suffix=".sfen", delete=False, encoding="utf-8")
    with f:
        for item in items:
            f.write(item.replace("\n", " ") + "\n")
    return f.name


def check(rules: Paths = None) -> Dict[str, Any]:
    """``okite check``: parse, resolve and type rule files (default: the shipped ones).

    Returns ``{"ok", "files", "definitions", "readings", "examples", "theorems",
    "diagnostics"}``; rules that do not check raise :class:`OkiteError`.
    """
    return _report("check", *_paths(rules))


def evaluate(
    query: str,
    *,
    rules: Paths = None,
    reading: Optional[str] = None,
    sfen: Optional[str] = None,
    moves: Union[str, Iterable[str], None] = None,
    variant: Optional[str] = None,
    engine: Optional[str] = None,
    timeout_ms: Optional[int] = None,
) -> Dict[str, Any]:
    """``okite eval``: a query of the rule language under a reading; with ``sfen``/``moves``,
    ``g`` is that game and ``i`` its last position. Returns ``{"value", "type"}``.

    >>> evaluate("1 + 1")["value"]
    2
    """
    return _report(
        "eval",
        query,
        *_flags(
            rules=rules,
            reading=reading,
            sfen=sfen,
            moves=_moves(moves),
            variant=variant,
            engine=engine,
            timeout_ms=timeout_ms,
        ),
    )


def perft(
    depth: int,
    *,
    sfen: str = "startpos",
    moves: Union[str, Iterable[str], None] = None,
    reading: Optional[str] = None,
    variant: Optional[str] = None,
    rules: Paths = None,
    engine: Optional[str] = None,
    jobs: Optional[int] = None,
) -> Dict[str, Any]:
    """``okite perft``: the leaves of the tree of legal moves, ``depth`` plies deep.

    Returns ``{"count", "engine"}``.
    """
    return _report(
        "perft",
        *_flags(
            depth=depth,
            sfen=sfen,
            moves=_moves(moves),
            reading=reading,
            variant=variant,
            rules=rules,
            engine=engine,
            jobs=jobs,
        ),
    )


def legal(
    *,
    sfen: str = "startpos",
    moves: Union[str, Iterable[str], None] = None,
    reading: Optional[str] = None,
    variant: Optional[str] = None,
    rules: Paths = None,
    engine: Optional[str] = None,
) -> Dict[str, Any]:
    """``okite legal``: the legal moves of a position. Returns ``{"moves": [USI...], "engine"}``."""
    return _report(
        "legal",
        *_flags(
            sfen=sfen,
            moves=_moves(moves),
            reading=reading,
            variant=variant,
            rules=rules,
            engine=engine,
        ),
    )



def mate(
    sfen: str,
    *,
    moves: Union[str, Iterable[str], None] = None,
    length: Optional[str] = None,
    reading: Optional[str] = None,
    variant: Optional[str] = None,
    rules: Paths = None,
    time_ms: Optional[int] = None,
    nodes: Optional[int] = None,
    hash_mb: Optional[int] = None,
    threads: Optional[int] = None,
    max_plies: Optional[int] = None,
) -> Dict[str, Any]:
    """``okite mate``: the df-pn mate search. ``length`` is ``"shortest"`` (the default) or
    ``"any"``. Returns ``{"result", "plies", "pv", "nodes", "ms", "shortest", ...,
    "engine"}``."""
    return _report(
        "mate",
        *_flags(
            sfen=sfen,
            moves=_moves(moves),
            length=length,
            reading=reading,
            variant=variant,
            rules=rules,
            time_ms=time_ms,
            nodes=nodes,
            hash_mb=hash_mb,
            threads=threads,
            max_plies=max_plies,
        ),
    )


def mate_batch(
    problems: Iterable[str],
    *,
    jobs: Optional[int] = None,
    length: Optional[str] = None,
    reading: Optional[str] = None,
    variant: Optional[str] = None,
    rules: Paths = None,
    time_ms: Optional[int] = None,
    nodes: Optional[int] = None,
    hash_mb: Optional[int] = None,
    max_plies: Optional[int] = None,
) -> List[Dict[str, Any]]:
    """``okite mate --batch``: one report per problem (an SFEN, optionally followed by
    ``moves ...``), in order; a problem that does not read is ``{"result": "error", "line",
    "code", "message"}`` in its place. ``jobs`` defaults to one per core."""
    path = _batch_file(problems)
    try:
        return _lines(
            "mate",
            *_flags(
                batch=path,
                jobs=jobs,
                length=length,
                reading=reading,
                variant=variant,
                rules=rules,
                time_ms=time_ms,
                nodes=nodes,
                hash_mb=hash_mb,
                max_plies=max_plies,
            ),
        )
    finally:
        _os.unlink(path)


def tsume(
    sfen: Optional[str] = None,
    *,
    solution: Union[str, Iterable[str], None] = None,
    kif: Optional[str] = None,
    csa: Optional[str] = None,
    conventions: Optional[Sequence[str]] = None,
    variant: Optional[str] = None,
    rules: Paths = None,
    time_ms: Optional[int] = None,
    nodes: Optional[int] = None,
    max_plies: Optional[int] = None,
) -> Dict[str, Any]:
    """``okite tsume``: a composed problem judged under the composers' conventions (its main
    line, the shortest mate, alternatives, and each convention's verdict)."""
    return _report(
        "tsume",
        *_flags(
            sfen=sfen,
            solution=_moves(solution),
            kif=kif,
            csa=csa,
            conventions=list(conventions) if conventions else None,
            variant=variant,
            rules=rules,
            time_ms=time_ms,
            nodes=nodes,
            max_plies=max_plies,
        ),
    )


def tsume_batch(
    problems: Iterable[str],
    *,
    jobs: Optional[int] = None,
    conventions: Optional[Sequence[str]] = None,
    variant: Optional[str] = None,
    rules: Paths = None,
    nodes: Optional[int] = None,
    max_plies: Optional[int] = None,
) -> List[Dict[str, Any]]:
    """``okite tsume --batch``: a report per problem, in order."""
    path = _batch_file(problems)
    try:
        return _lines(
            "tsume",
            *_flags(
                batch=path,
                jobs=jobs,
                conventions=list(conventions) if conventions else None,
                variant=variant,
                rules=rules,
                nodes=nodes,
                max_plies=max_plies,
            ),
        )
    finally:
        _os.unlink(path)


def game(
    *,
    sfen: str = "startpos",
    moves: Union[str, Iterable[str], None] = None,
    kif: Optional[str] = None,
    csa: Optional[str] = None,
    rulesets: Optional[Sequence[str]] = None,
    readings: Optional[Sequence[str]] = None,
    variant: Optional[str] = None,
    rules: Paths = None,
) -> Dict[str, Any]:
    """``okite game``: a game (moves from ``sfen``, or a KIF/CSA record) judged under readings,
    or under rule sets (``jsa``, ``amateur``, ``csa``, ``try-rule``)."""
    return _report(
        "game",
        *_flags(
            sfen=sfen if kif is None and csa is None else None,
            moves=_moves(moves),
            kif=kif,
            csa=csa,
            rulesets=list(rulesets) if rulesets else None,
            readings=list(readings) if readings else None,
            variant=variant,
            rules=rules,
        ),
    )


def game_records(
    records: Union[str, "_os.PathLike[str]"],
    *,
    rulesets: Optional[Sequence[str]] = None,
    readings: Optional[Sequence[str]] = None,
    jobs: Optional[int] = None,
    rules: Paths = None,
) -> List[Dict[str, Any]]:
    """``okite game --records``: every record of a folder (or of a file listing them), judged,
    a report per record in order."""
    return _lines(
        "game",
        *_flags(
            records=records,
            rulesets=list(rulesets) if rulesets else None,
            readings=list(readings) if readings else None,
            jobs=jobs,
            rules=rules,
        ),
    )


def go_count(
    graph: str, *, engine: Optional[str] = None, rules: Paths = None, reading: Optional[str] = None
) -> Dict[str, Any]:
    """``okite go count``: the number of boards (legal positions) of a graph such as
    ``"grid:3x3"``, ``"path:5"`` or ``"edges:FILE"``."""
    return _report("go", "count", *_flags(graph=graph, engine=engine, rules=rules, reading=reading))


def go_result(
    *,
    graph: Optional[str] = None,
    moves: Optional[str] = None,
    sgf: Optional[str] = None,
    rulesets: Optional[Sequence[str]] = None,
    dead: Optional[str] = None,
    komi: Optional[float] = None,
    handicap: Optional[int] = None,
    engine: Optional[str] = None,
    rules: Paths = None,
) -> Dict[str, Any]:
    """``okite go result``: who won a game (``moves`` such as ``"B D4, W pass, B pass"``, or an
    SGF record) under each Go rule set, with the record's own result."""
    return _report(
        "go",
        "result",
        *_flags(
            graph=graph,
            moves=moves,
            sgf=sgf,
            rulesets=list(rulesets) if rulesets else None,
            dead=dead,
            komi=komi,
            handicap=handicap,
            engine=engine,
            rules=rules,
        ),
    )


def go_result_records(
    records: Union[str, "_os.PathLike[str]"],
    *,
    rulesets: Optional[Sequence[str]] = None,
    jobs: Optional[int] = None,
    rules: Paths = None,
) -> List[Dict[str, Any]]:
    """``okite go result --records``: every SGF record of a folder (or of a file listing them),
    a report per record in order."""
    return _lines(
        "go",
        "result",
        *_flags(
            records=records,
            rulesets=list(rulesets) if rulesets else None,
            jobs=jobs,
            rules=rules,
        ),
    )


def go_classes(
    graph: Optional[str] = None,
    *,
    moves: Optional[str] = None,
    sgf: Optional[str] = None,
    vertices: Optional[Sequence[str]] = None,
    reading: Optional[str] = None,
    engine: Optional[str] = None,
    nodes: Optional[int] = None,
    threads: Optional[int] = None,
    results: Optional[str] = None,
    read_results: Paths = None,
    ask: Optional[str] = None,
    rules: Paths = None,
) -> Dict[str, Any]:
    """``okite go classes``: the outcome class of every vertex (seed 004) after ``moves``.
    ``results`` is a file of results kept (read first, written with this run's), and
    ``read_results`` more such files read."""
    return _report(
        "go",
        "classes",
        *_flags(
            graph=graph,
            moves=moves,
            sgf=sgf,
            vertex=list(vertices) if vertices else None,
            reading=reading,
            engine=engine,
            nodes=nodes,
            threads=threads,
            results=results,
            read_results=read_results,
            ask=ask,
            rules=rules,
        ),
    )


def go_solve(
    graph: Optional[str] = None,
    *,
    moves: Optional[str] = None,
    sgf: Optional[str] = None,
    komi: Optional[float] = None,
    reading: Optional[str] = None,
    nodes: Optional[int] = None,
    time_ms: Optional[int] = None,
    hash_mb: Optional[int] = None,
    rules: Paths = None,
) -> Dict[str, Any]:
    """``okite go solve``: the value of a small graph under perfect play (Black minus White
    minus komi), with its principal variation."""
    return _report(
        "go",
        "solve",
        *_flags(
            graph=graph,
            moves=moves,
            sgf=sgf,
            komi=komi,
            reading=reading,
            nodes=nodes,
            time_ms=time_ms,
            hash_mb=hash_mb,
            rules=rules,
        ),
    )
