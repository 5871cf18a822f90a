"""Fixtures of the package's tests: where the public test data and the okite binary are."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def root() -> pathlib.Path:
    """The repository's folder (tests/data is read from it)."""
    return ROOT


@pytest.fixture(scope="session")
def shared() -> pathlib.Path:
    """The public test data beside the project (../shared), as the Rust tests read it."""
    p = pathlib.Path(os.environ.get("OKITE_SHARED", ROOT.parent / "shared"))
    if not (p / "shogi-oracles").is_dir():
        pytest.fail(f"the public test data is missing: {p}/shogi-oracles")
    return p


@pytest.fixture(scope="session")
def okite_bin():
    """The okite command line, when the Rust harness names it (OKITE_BIN): its `--json` is
    compared with the package's dicts."""
    return os.environ.get("OKITE_BIN")


def problems(shared: pathlib.Path, *sets: str):
    """The lines of nshogi's mate sets, in the order named."""
    out = []
    for s in sets:
        text = (shared / "shogi-oracles" / "tsume" / "nshogi" / f"{s}.sfen").read_text()
        out += [l for l in text.splitlines() if l.strip()]
    return out
