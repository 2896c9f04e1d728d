//! The committed TypeScript bindings (`ui/src/ipc/bindings.gen.ts`) must be exactly what the Rust
//! command set generates. `make bindings` (DYNOTABLE_UPDATE_BINDINGS=1) rewrites the file.

use std::path::Path;

#[test]
fn committed_bindings_match_the_rust_commands() {
    let committed_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/src/ipc/bindings.gen.ts");
    let scratch = tempfile::tempdir().unwrap();
    let generated_path = scratch.path().join("bindings.gen.ts");
    dynotable_lib::commands()
        .export(dynotable_lib::typescript_bindings(), &generated_path)
        .expect("the bindings could not be generated");
    let generated = std::fs::read_to_string(&generated_path).unwrap();

    if std::env::var_os("DYNOTABLE_UPDATE_BINDINGS").is_some() {
        std::fs::write(&committed_path, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&committed_path).unwrap_or_default();
    assert!(
        committed == generated,
        "ui/src/ipc/bindings.gen.ts is out of date with the Rust commands; run `make bindings` and commit it"
    );
}
