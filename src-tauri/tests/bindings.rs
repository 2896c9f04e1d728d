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

/// The command names the bindings invoke: `__TAURI_INVOKE("name"` or `__TAURI_INVOKE<T>("name"`.
fn invoked_commands(bindings: &str) -> std::collections::BTreeSet<String> {
    bindings
        .match_indices("__TAURI_INVOKE")
        .filter_map(|(at, marker)| {
            let rest = &bindings[at + marker.len()..];
            let start = rest.find("(\"")? + 2;
            let end = start + rest[start..].find('"')?;
            Some(rest[start..end].to_owned())
        })
        .collect()
}

/// Every command the UI can call is listed in build.rs (its permission) and granted to the main
/// window, and nothing else is granted: a command missing from either is refused at run time,
/// which no other test would notice until a user clicked.
#[test]
fn every_command_is_permitted_and_granted_exactly_once() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bindings = std::fs::read_to_string(root.join("ui/src/ipc/bindings.gen.ts")).unwrap();
    let invoked = invoked_commands(&bindings);
    assert!(invoked.len() > 10, "the bindings name the commands: {invoked:?}");

    let build = std::fs::read_to_string(root.join("src-tauri/build.rs")).unwrap();
    let list_start = build.find("const COMMANDS").unwrap();
    let list = &build[list_start..list_start + build[list_start..].find("];").unwrap()];
    let permitted: std::collections::BTreeSet<String> =
        list.split('"').skip(1).step_by(2).map(str::to_owned).collect();
    assert_eq!(
        permitted, invoked,
        "src-tauri/build.rs COMMANDS vs the commands of the bindings"
    );

    let capability: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("src-tauri/capabilities/main-window.json")).unwrap(),
    )
    .unwrap();
    let granted: Vec<String> = capability["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_owned())
        .collect();
    let expected: std::collections::BTreeSet<String> = invoked
        .iter()
        .map(|c| format!("allow-{}", c.replace('_', "-")))
        .collect();
    assert_eq!(
        granted.iter().cloned().collect::<std::collections::BTreeSet<_>>(),
        expected,
        "src-tauri/capabilities/main-window.json grants vs the commands"
    );
    assert_eq!(granted.len(), expected.len(), "a permission is granted twice");
}
