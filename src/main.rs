fn main() {
    std::process::exit(okite::cli::main());
}
