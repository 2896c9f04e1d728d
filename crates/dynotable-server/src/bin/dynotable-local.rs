//! `dynotable-local`: a local DynamoDB endpoint on DynoTable's engine. See `dynotable_server`.

fn main() -> std::process::ExitCode {
    dynotable_server::cli::main()
}
