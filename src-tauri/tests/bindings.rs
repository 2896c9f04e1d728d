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

/// Every command of the bindings is listed in build.rs (its permission), and the main window is
/// granted exactly the commands the UI calls: a command the UI needs but is not granted is
/// refused at run time, which no other test would notice until a user clicked; one granted but
/// never called is reach a compromised web view should not have.
#[test]
fn the_window_is_granted_exactly_the_commands_the_ui_calls() {
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

    let mut ui = String::new();
    ui_sources(&root.join("ui/src"), &mut ui);
    let called: std::collections::BTreeSet<String> = invoked
        .iter()
        .filter(|command| ui_uses(&ui, &camel_case(command)))
        .cloned()
        .collect();
    assert!(called.len() > 10, "the UI calls commands: {called:?}");

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
    let expected: std::collections::BTreeSet<String> = called
        .iter()
        .map(|c| format!("allow-{}", c.replace('_', "-")))
        .collect();
    assert_eq!(
        granted.iter().cloned().collect::<std::collections::BTreeSet<_>>(),
        expected,
        "src-tauri/capabilities/main-window.json grants vs the commands the UI calls"
    );
    assert_eq!(granted.len(), expected.len(), "a permission is granted twice");
}

/// Whether the UI's text calls the command `name` (`source.name(…)`, `name(…)` where it was
/// handed in) or hands it on (`commands.name`). A longer name containing it does not count.
fn ui_uses(ui: &str, name: &str) -> bool {
    ui.match_indices(name).any(|(at, _)| {
        let before = ui[..at].chars().next_back();
        let after = ui[at + name.len()..].chars().next();
        let starts_a_word = !before.is_some_and(|c| c.is_alphanumeric() || c == '_');
        let ends_a_word = !after.is_some_and(|c| c.is_alphanumeric() || c == '_');
        starts_a_word && ends_a_word && (after == Some('(') || ui[..at].ends_with("commands."))
    })
}

/// `list_aws_profiles` → `listAwsProfiles`, as the bindings name it.
fn camel_case(command: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in command.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The text of the UI's own sources: not its tests, test data or the generated bindings.
fn ui_sources(dir: &Path, out: &mut String) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            ui_sources(&path, out);
        } else if (name.ends_with(".ts") || name.ends_with(".tsx"))
            && !name.contains(".test.")
            && !name.contains(".test-data.")
            && !name.ends_with(".gen.ts")
            && !matches!(name.as_str(), "fakeSource.ts" | "fixtures.ts")
        {
            out.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
}
