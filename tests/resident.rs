#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! The resident-memory bound holds where values and tables grow: built-ins that build sets, a
//! comprehension, the native board count. Each command below would grow past its bound of
//! 256 MiB; each ends with its diagnostic (exit status 2), and the largest resident size of any
//! of them, as the system measured it (`wait4` of each command), stays near the bound instead of passing it several times over.

use std::process::Command;

const BOUND_MB: usize = 256;

#[cfg(target_os = "linux")]
#[test]
fn growth_is_bounded_as_it_happens() {
    let bound = BOUND_MB.to_string();
    // a recursion without end, let nest as deep as memory allows
    let dir = std::env::temp_dir().join(format!("okite-resident-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let deep = dir.join("deep.rule");
    std::fs::write(&deep, "def f(n: Int) -> Int = f(n + 1)\n").unwrap();
    let deep = deep.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        // refused as the calls nest (each level's frame and stack)
        (
            vec!["eval", "--rules", deep, "--max-depth", "100000000", "f(0)"],
            "E0306",
        ),
        // refused before they are built: the estimate alone passes the bound
        (vec!["eval", "size(powerset(1..20))"], "E0306"),
        (vec!["eval", "size(product(1..4000, 1..4000))"], "E0306"),
        // refused as they grow
        (
            vec!["eval", "size({ {i, j} | i in 1..3000, j in 1..3000 })"],
            "E0306",
        ),
        (vec!["eval", "size(functions(1..12, {0, 1, 2}))"], "E0306"),
        (
            vec![
                "eval",
                "size(closure {0} by (x -> if x < 10000000 then {x + 1} else {}))",
            ],
            "E0306",
        ),
        (vec!["go", "count", "--graph", "grid:11x11"], "E0611"),
    ];
    for (args, code) in cases {
        let mut c = Command::new(env!("CARGO_BIN_EXE_okite"));
        c.args(&args)
            .args(["--max-resident-mb", &bound])
            .env("NO_COLOR", "1");
        let (status, _, err, peak) = run_with_peak(c);
        assert_eq!(status, Some(2), "{args:?}: {err}");
        assert!(err.contains(code), "{args:?}: {err}");
        assert!(
            peak <= (BOUND_MB + 64) << 20,
            "{args:?}: {} MiB resident under a bound of {BOUND_MB} MiB",
            peak >> 20
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A transposition table larger than the memory the search may occupy is refused before it is
/// made; the USI option takes at most the command line's default bound.
#[test]
fn hash_tables_are_bounded_by_the_resident_bound() {
    for (args, needle) in [
        (
            vec!["mate", "--sfen", "startpos", "--hash-mb", "1000000"],
            "larger than the memory the search may occupy (4096 MiB)",
        ),
        (
            vec![
                "mate",
                "--sfen",
                "startpos",
                "--hash-mb",
                "512",
                "--max-resident-mb",
                "256",
            ],
            "larger than the memory the search may occupy (256 MiB)",
        ),
        (
            vec!["mate", "--sfen", "startpos", "--hash-mb", "0"],
            "out of range",
        ),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_okite"))
            .args(&args)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("E0602") && err.contains(needle),
            "{args:?}: {err}"
        );
    }
    assert_eq!(
        okite::shogi::usi_engine::MAX_HASH_MB,
        okite::eval::DEFAULT_MAX_RESIDENT_MB
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 6, .. proptest::prelude::ProptestConfig::default() })]

    /// Any of the built-ins and forms that build sets, of any size they take, under the bound:
    /// the answer (its size, as counted), or E0306; the resident size stays near the bound.
    #[cfg(target_os = "linux")]
    #[test]
    fn any_growth_answers_or_stops_near_the_bound(kind in 0u8..5, n in 4u32..4000) {
        let (expr, size): (String, u128) = match kind {
            0 => {
                // powerset takes sets of at most 20 elements (E0303 past them)
                let n = n % 21;
                (format!("size(powerset(1..{n}))"), 1u128 << n)
            }
            1 => {
                let n = n % 16;
                (format!("size(functions(1..{n}, {{0, 1, 2}}))"), 3u128.pow(n))
            }
            2 => (format!("size(product(1..{n}, 1..{n}))"), u128::from(n) * u128::from(n)),
            3 => {
                let n = u128::from(n);
                (format!("size({{ {{i, j}} | i in 1..{n}, j in 1..{n} }})"), n * (n + 1) / 2)
            }
            _ => {
                let n = u64::from(n) * 5000;
                (format!("size(closure {{0}} by (x -> if x < {n} then {{x + 1}} else {{}}))"), u128::from(n) + 1)
            }
        };
        let mut c = Command::new(env!("CARGO_BIN_EXE_okite"));
        c.args(["eval", &expr, "--max-resident-mb", &BOUND_MB.to_string()])
            .env("NO_COLOR", "1");
        let (status, out, err, peak) = run_with_peak(c);
        match status {
            Some(0) => proptest::prop_assert_eq!(out.trim(), size.to_string(), "{}", expr),
            _ => {
                proptest::prop_assert_eq!(status, Some(2), "{}: {}", expr, err);
                proptest::prop_assert!(err.contains("E0306"), "{}: {}", expr, err);
            }
        }
        proptest::prop_assert!(
            peak <= (BOUND_MB + 64) << 20,
            "{}: {} MiB resident under a bound of {} MiB", expr, peak >> 20, BOUND_MB
        );
    }
}

/// What a command writes on its standard output and the largest resident size of it and of the
/// processes it waited for, in bytes.
#[cfg(target_os = "linux")]
fn output_and_peak(cmd: Command) -> (Option<i32>, String, usize) {
    let (code, out, _, peak) = run_with_peak(cmd);
    (code, out, peak)
}

/// A command's exit status, standard output and standard error, and the largest resident size
/// of it and of the processes it waited for, in bytes: `wait4` of this one child, so that the
/// children of the other tests running beside it do not count. The size counts this process's
/// resident memory when it started the child (the system keeps it across the child's exec), so
/// that these tests run in a small binary of their own.
#[cfg(target_os = "linux")]
fn run_with_peak(mut cmd: Command) -> (Option<i32>, String, String, usize) {
    use std::io::Read;
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut bytes = vec![];
        let _ = err_pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    });
    let mut out = vec![];
    child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
    let err = err.join().unwrap();
    let pid = child.id() as libc::pid_t;
    // SAFETY: wait4 writes the status and the usage of the child `pid`, a child of this process
    // not yet waited for (std's handle is dropped without waiting).
    #[allow(unsafe_code)]
    let (status, usage) = unsafe {
        let mut status = 0;
        let mut u: libc::rusage = std::mem::zeroed();
        libc::wait4(pid, &mut status, 0, &mut u);
        (status, u)
    };
    drop(child);
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let out = String::from_utf8_lossy(&out).into_owned();
    (code, out, err, usage.ru_maxrss as usize * 1024)
}

/// `okite` run by `sh` under a bound on its address space (`ulimit -v`, in KiB), with `input`
/// on its standard input (the pipe kept open `hold` seconds).
#[cfg(target_os = "linux")]
fn under_ulimit(kib: usize, args: &str, input: &str, hold: u32) -> Command {
    let script = format!(
        "ulimit -v {kib} && {{ printf '%s' \"$OKITE_INPUT\"; sleep {hold}; }} | \"$OKITE\" {args}"
    );
    let mut c = Command::new("sh");
    c.args(["-c", &script])
        .env("OKITE", env!("CARGO_BIN_EXE_okite"))
        .env("OKITE_INPUT", input)
        .env("NO_COLOR", "1");
    c
}

/// The largest table the USI engine offers is searched with under an address space of 6 GiB,
/// as `okite mate --hash-mb 4096` is: the table is made on the search's thread once its stack
/// is had.
#[cfg(target_os = "linux")]
#[test]
fn the_largest_usi_table_searches_under_six_gib() {
    let (_, out, _) = output_and_peak(under_ulimit(
        6 << 20,
        "usi",
        "setoption name USI_Hash value 4096\nposition sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1\ngo mate 5000\n",
        2,
    ));
    assert!(out.contains("checkmate G*5b"), "{out}");
}

/// A mate search under a reading the rules answer (the hybrid search) keeps to `--hash-mb` and
/// `--max-resident-mb`, from the command line and in the USI engine. The position has no mate
/// under any-drop-mate (the gold's drop mate is forbidden), and its search grows by about 60 MiB
/// a second where nothing bounds it.
#[cfg(target_os = "linux")]
#[test]
fn the_hybrid_search_keeps_to_its_memory() {
    let sfen = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
    let mate = |bound: &str, hash: &str| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_okite"));
        c.args(["mate", "--reading", "any-drop-mate", "--sfen", sfen])
            .args(["--max-resident-mb", bound, "--hash-mb", hash])
            .args(["--time-ms", "5000"])
            .env("NO_COLOR", "1");
        output_and_peak(c)
    };
    // a small table: the search runs to its time limit in it
    let (code, out, peak) = mate("1024", "1");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("unknown"), "{out}");
    assert!(peak < 100 << 20, "{} MiB under --hash-mb 1", peak >> 20);
    // a table of nearly all the memory: the resident bound ends the search near it
    let (code, out, peak) = mate("100", "90");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("unknown"), "{out}");
    assert!(
        peak < (100 + 32) << 20,
        "{} MiB under a bound of 100",
        peak >> 20
    );
    // the USI engine: USI_Hash and --max-resident-mb alike
    let (_, out, peak) = output_and_peak(under_ulimit(
        6 << 20,
        "usi --max-resident-mb 100",
        &format!("setoption name Reading value any-drop-mate\nsetoption name USI_Hash value 1\nposition sfen {sfen}\ngo mate 4000\n"),
        5,
    ));
    assert!(out.contains("checkmate timeout"), "{out}");
    assert!(peak < 100 << 20, "{} MiB under USI_Hash 1", peak >> 20);
}

/// A type names its enum by one shared copy of the name, not a copy for each use: 20,000 uses
/// of a constant of an enum named by 100,000 characters (a file of 140 KB) took 2.3 GB to check.
#[cfg(target_os = "linux")]
#[test]
fn a_long_enum_name_is_not_copied_for_each_use() {
    let d = std::env::temp_dir().join(format!("okite-names-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join("names.rule");
    let name = format!("T{}", "x".repeat(100_000));
    let parts = vec!["A"; 20_000].join(", ");
    std::fs::write(&f, format!("enum {name} {{ A }}\ndef t = ({parts})\n")).unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_okite"));
    c.args(["check", f.to_str().unwrap()]);
    let (code, _, peak) = output_and_peak(c);
    assert_eq!(code, Some(0));
    assert!(peak < 200 << 20, "{} MiB", peak >> 20);
    let _ = std::fs::remove_dir_all(&d);
}
