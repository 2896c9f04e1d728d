//! What a release build ships (issue 19, point 7): one version, the workspace's in `Cargo.toml`
//! (Tauri takes the crate's version when `tauri.conf.json` names none, and the private npm
//! package has none), and no source maps in the UI the app embeds (`ui/dist`, built by `make ui`
//! before the tests and by `beforeBuildCommand` before a bundle).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn json(name: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(root().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn the_version_is_written_once_in_the_workspace_manifest() {
    assert!(
        json("tauri.conf.json").get("version").is_none(),
        "tauri.conf.json names a version: it must come from Cargo.toml"
    );
    assert!(
        json("package.json").get("version").is_none(),
        "package.json names a version: it must come from Cargo.toml"
    );
    let lock = json("package-lock.json");
    assert!(lock.get("version").is_none() && lock["packages"][""].get("version").is_none());
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let workspace_version = manifest
        .lines()
        .skip_while(|l| l.trim() != "[workspace.package]")
        .find_map(|l| l.trim().strip_prefix("version = "))
        .expect("[workspace.package] version")
        .trim_matches('"');
    assert_eq!(env!("CARGO_PKG_VERSION"), workspace_version);
}

#[test]
fn the_embedded_ui_has_no_source_maps() {
    let dist = root().join("ui/dist");
    let mut files = Vec::new();
    let mut folders = vec![dist.clone()];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("{}: {e} (run `npm run ui:build` first)", folder.display()));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    assert!(
        files.iter().any(|f| f.extension().is_some_and(|e| e == "js")),
        "no script in {}",
        dist.display()
    );
    for file in &files {
        assert!(
            file.extension().is_none_or(|e| e != "map"),
            "a source map ships: {}",
            file.display()
        );
        if file.extension().is_some_and(|e| e == "js" || e == "css") {
            let text = std::fs::read_to_string(file).unwrap();
            assert!(
                !text.contains("sourceMappingURL"),
                "{} points at a source map",
                file.display()
            );
        }
    }
}
