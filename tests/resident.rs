//! The resident-memory bound holds where values and tables grow: built-ins that build sets, a
//! comprehension, the native board count. Each command below would grow past its bound of
//! 256 MiB; each ends with its diagnostic (exit status 2), and the largest resident size of any
//! of them, as the system measured it (`getrusage` of the children of this test binary, which
//! runs no other test), stays near the bound instead of passing it several times over.

use std::process::Command;

const BOUND_MB: usize = 256;

/// The largest resident size of the children of this process so far, in bytes.
#[cfg(target_os = "linux")]
fn children_peak_rss() -> usize {
    // SAFETY: getrusage writes into the struct it is given, nothing else.
    #[allow(unsafe_code)]
    let usage = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut u);
        u
    };
    usage.ru_maxrss as usize * 1024
}

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
        let o = Command::new(env!("CARGO_BIN_EXE_okite"))
            .args(&args)
            .args(["--max-resident-mb", &bound])
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(code), "{args:?}: {err}");
        let peak = children_peak_rss();
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
        let o = Command::new(env!("CARGO_BIN_EXE_okite"))
            .args(["eval", &expr, "--max-resident-mb", &BOUND_MB.to_string()])
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        let out = String::from_utf8_lossy(&o.stdout);
        match o.status.code() {
            Some(0) => proptest::prop_assert_eq!(out.trim(), size.to_string(), "{}", expr),
            _ => {
                proptest::prop_assert_eq!(o.status.code(), Some(2), "{}: {}", expr, err);
                proptest::prop_assert!(err.contains("E0306"), "{}: {}", expr, err);
            }
        }
        let peak = children_peak_rss();
        proptest::prop_assert!(
            peak <= (BOUND_MB + 64) << 20,
            "{}: {} MiB resident under a bound of {} MiB", expr, peak >> 20, BOUND_MB
        );
    }
}
