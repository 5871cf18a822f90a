#![forbid(unsafe_code)]
//! `okite._okite`: the native part of the Python package. It runs okite's commands in process,
//! with the interpreter's lock released while they run, and gives back what each wrote: the
//! Python side (`okite/__init__.py`) reads their `--json` reports into dicts and lists, and
//! raises the diagnostics a command stopped on as exceptions.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Runs an okite command line (without the program's name) in this process.
///
/// Returns a dict: `status` (the exit status the command line would end with), `stdout`,
/// `stderr`, `codes` (the codes of the diagnostics printed, in order) and `diagnostics` (their
/// text). The interpreter's lock is released while the command runs, so that threads of Python
/// run searches side by side.
#[pyfunction]
fn run<'py>(py: Python<'py>, args: Vec<String>) -> PyResult<Bound<'py, PyDict>> {
    let c = py.detach(move || okite::cli::run_captured(args));
    let d = PyDict::new(py);
    d.set_item("status", c.status)?;
    d.set_item("stdout", c.stdout)?;
    d.set_item("stderr", c.stderr)?;
    d.set_item("codes", c.codes)?;
    d.set_item("diagnostics", c.diagnostics)?;
    Ok(d)
}

/// The version of okite this package was built from.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[pymodule]
fn _okite(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    Ok(())
}
