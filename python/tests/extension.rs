//! The extension module is built by the workspace's `cargo test` itself, beside the binary, so
//! that tests/python.rs finds it built (its `cargo build` then has nothing to do) and its build
//! overlaps the library's instead of running alone after the other tests.

/// `lib_okite.so` is beside this test (in target/<profile>/deps, where the build leaves what
/// the tests depend on) and defines the module's entry point, `PyInit__okite`, which the
/// interpreter calls when it imports `okite._okite`.
#[test]
fn the_extension_module_is_built_with_its_entry_point() {
    let exe = std::env::current_exe().expect("the test knows its path");
    let folder = exe.parent().expect("the test binary is in a folder");
    let module = folder.join("lib_okite.so");
    let bytes = std::fs::read(&module).unwrap_or_else(|e| panic!("{}: {e}", module.display()));
    let entry = b"PyInit__okite";
    assert!(
        bytes.windows(entry.len()).any(|w| w == entry),
        "{} has no {}",
        module.display(),
        String::from_utf8_lossy(entry)
    );
}
