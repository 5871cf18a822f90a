//! What the system tells of memory: the resident memory of this process and the physical
//! memory of the machine (Linux, from /proc; elsewhere nothing, and the bounds that read them
//! do not bind). The engines and the evaluator below the command line read it alike.

/// The most bytes read of one file of /proc.
const MAX_READ: u64 = 64 << 10;

/// The value in kB of the line `name:` of a /proc file such as /proc/self/status, in bytes.
fn kib_line(path: &str, name: &str) -> Option<usize> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_READ)
        .read_to_string(&mut text)
        .ok()?;
    parse_kib_line(&text, name)
}

fn parse_kib_line(text: &str, name: &str) -> Option<usize> {
    let line = text
        .lines()
        .find(|l| l.strip_prefix(name).is_some_and(|r| r.starts_with(':')))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The resident memory of this process in bytes (its `VmRSS`, counted in kB whatever the size
/// of the system's pages).
pub fn resident_bytes() -> Option<usize> {
    kib_line("/proc/self/status", "VmRSS")
}

/// What this process occupies: its resident memory and its mapped address space, in bytes.
#[derive(Clone, Copy, Debug)]
pub struct Usage {
    /// `VmRSS`.
    pub resident: usize,
    /// `VmSize`: what counts against an address-space limit (`ulimit -v`).
    pub mapped: usize,
}

/// The resident memory and the mapped address space of this process, read at once.
pub fn usage() -> Option<Usage> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open("/proc/self/status")
        .ok()?
        .take(MAX_READ)
        .read_to_string(&mut text)
        .ok()?;
    Some(Usage {
        resident: parse_kib_line(&text, "VmRSS")?,
        mapped: parse_kib_line(&text, "VmSize").unwrap_or(0),
    })
}

/// The address-space limit of this process in bytes (`ulimit -v`, RLIMIT_AS), when it has one:
/// an allocation past it fails however much memory the machine has free, so the bounds that
/// weigh a value before it is made weigh it against this too.
pub fn address_space_limit() -> Option<usize> {
    static LIMIT: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        #[cfg(unix)]
        {
            let mut r = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            // SAFETY: getrlimit writes the limit into the struct it is given, which lives here
            #[allow(unsafe_code)]
            let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut r) } == 0;
            if ok && r.rlim_cur != libc::RLIM_INFINITY {
                return Some(usize::try_from(r.rlim_cur).unwrap_or(usize::MAX));
            }
        }
        None
    })
}

/// The physical memory of the machine in bytes.
pub fn physical_memory_bytes() -> Option<usize> {
    kib_line("/proc/meminfo", "MemTotal")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_in_kib_is_read_in_bytes() {
        let status = "Name:\tokite\nVmPeak:\t  900 kB\nVmRSS:\t  1234 kB\nRssAnon:\t 1000 kB\n";
        assert_eq!(parse_kib_line(status, "VmRSS"), Some(1234 * 1024));
        assert_eq!(parse_kib_line(status, "Vm"), None);
        assert_eq!(parse_kib_line("VmRSS:\tmany kB\n", "VmRSS"), None);
        assert_eq!(parse_kib_line("", "VmRSS"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_system_tells_this_process_and_the_machine() {
        let r = resident_bytes().expect("Linux tells the resident memory");
        let m = physical_memory_bytes().expect("Linux tells the physical memory");
        assert!(r > 1 << 20 && r < m, "{r} resident of {m}");
        // memory touched is counted: 64 MiB written are resident (other tests of this process
        // may free memory meanwhile, so the count is not compared with the one before)
        let block = std::hint::black_box(vec![1u8; 64 << 20]);
        let after = resident_bytes().unwrap();
        assert!(after >= 64 << 20, "{after} with 64 MiB written");
        drop(block);
    }
}
