// The evaluator allocates many small values (sets, maps, tuples of rule-level states); mimalloc
// serves them faster than the system allocator (docs/PERFORMANCE.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // A closed pipe (`okite mate --batch ... | head`) ends the process quietly, as it ends any
    // other command of a pipeline, instead of a failed write panicking.
    #[cfg(unix)]
    // SAFETY: restoring the default action of one signal before any thread starts.
    #[allow(unsafe_code)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(okite::cli::main());
}
