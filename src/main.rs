fn main() {
    std::process::exit(forex::cli::main());
}
