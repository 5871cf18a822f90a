"""The native part of the package: okite's commands run in process."""

from typing import List, TypedDict

class Captured(TypedDict):
    status: int
    stdout: str
    stderr: str
    codes: List[str]
    diagnostics: str

def run(args: List[str]) -> Captured:
    """Runs an okite command line (without the program's name) in this process, with the
    interpreter's lock released; what it wrote, its exit status and its diagnostics' codes."""

def version() -> str:
    """The version of okite this package was built from."""
