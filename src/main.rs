// The evaluator allocates many small values (sets, maps, tuples of rule-level states); mimalloc
// serves them faster than the system allocator (docs/PERFORMANCE.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(okite::cli::main());
}
