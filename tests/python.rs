#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! The Python package (python/): built from this library with PyO3, then its pytest suite run
//! against a local Dask cluster of worker processes, and against this build's binary (each
//! function's dicts are the command's `--json`).
//!
//! The extension module is built as a member of this workspace, beside this build's binary, and
//! staged in target/python with a copy of the Python sources; its test requirements (python/requirements-test.txt) into a virtual
//! environment there, made on the first run. Set OKITE_PYTHON to use another interpreter.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(what: &str, c: &mut Command) {
    let o = c.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        o.status.success(),
        "{what} failed ({}):\n{}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The virtual environment with pytest and Dask: made once, kept in target/python/venv.
fn venv(dir: &Path) -> PathBuf {
    let python = dir.join("venv/bin/python");
    let marker = dir.join("venv/requirements-test.txt");
    let wanted = std::fs::read_to_string(root().join("python/requirements-test.txt")).unwrap();
    if std::fs::read_to_string(&marker).ok().as_deref() == Some(wanted.as_str()) {
        return python;
    }
    let base = std::env::var("OKITE_PYTHON").unwrap_or_else(|_| "python3".into());
    run(
        "making the virtual environment",
        Command::new(base)
            .args(["-m", "venv"])
            .arg(dir.join("venv")),
    );
    run(
        "installing python/requirements-test.txt",
        Command::new(&python)
            .args(["-m", "pip", "install", "-q", "-r"])
            .arg(root().join("python/requirements-test.txt")),
    );
    std::fs::write(marker, wanted).unwrap();
    python
}

/// The extension module built, and the package staged beside it: the folder to put on
/// PYTHONPATH. The module is a member of this workspace, built into the folder that holds this
/// build's binary. The build selects what `cargo test` selects (the workspace's libraries and
/// tests), so the features of the dependencies are the same and the library and dependencies
/// built for the suite are reused.
fn staged(dir: &Path) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    run(
        "building the extension module",
        Command::new(cargo)
            .args([
                "build",
                "--release",
                "--workspace",
                "--lib",
                "--tests",
                "--manifest-path",
            ])
            .arg(root().join("Cargo.toml")),
    );
    let built = Path::new(env!("CARGO_BIN_EXE_okite"))
        .parent()
        .expect("the binary is in a folder")
        .join("lib_okite.so");
    let stage = dir.join("stage");
    let package = stage.join("okite");
    let _ = std::fs::remove_dir_all(&stage);
    std::fs::create_dir_all(&package).unwrap();
    for e in std::fs::read_dir(root().join("python/okite")).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, package.join(p.file_name().unwrap())).unwrap();
        }
    }
    std::fs::copy(&built, package.join("_okite.abi3.so"))
        .unwrap_or_else(|e| panic!("{}: {e}", built.display()));
    stage
}

#[test]
fn the_python_package_passes_its_tests() {
    let dir = root().join("target/python");
    std::fs::create_dir_all(&dir).unwrap();
    let python = venv(&dir);
    let stage = staged(&dir);
    let shared = root().join("../shared");
    run(
        "pytest python/tests",
        Command::new(python)
            .args([
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "python/tests",
            ])
            .current_dir(root())
            .env("PYTHONPATH", stage)
            .env("OKITE_BIN", env!("CARGO_BIN_EXE_okite"))
            .env("OKITE_SHARED", shared),
    );
}
