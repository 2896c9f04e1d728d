//! `dynotable-local`: a local DynamoDB endpoint on DynoTable's engine. See `dynotable_server`.

/// mimalloc rather than the system allocator (see the dependency's note in Cargo.toml).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    dynotable_server::cli::main()
}
