//! The builder model exports to TypeScript through specta (the `specta` feature), with the
//! shapes its serde form has: what the app's tauri-specta bindings will carry to the UI.

use dynotable_builder::codegen::CodeTarget;
use dynotable_builder::{
    Diagnostic, ExpressionState, ExpressionText, GeneratedExpression, GeneratedRequest, KeySchemaState,
    ReadRequest, SortKeyOperator,
};

fn bindings() -> String {
    let types = specta::Types::default()
        .register::<ExpressionState>()
        .register::<GeneratedExpression>()
        .register::<ExpressionText>()
        .register::<Diagnostic>()
        .register::<KeySchemaState>()
        .register::<SortKeyOperator>()
        .register::<ReadRequest>()
        .register::<GeneratedRequest>()
        .register::<CodeTarget>();
    specta_typescript::Typescript::default()
        .export(&types, specta_serde::Format)
        .expect("the builder model exports to TypeScript")
}

#[test]
fn model_exports_with_its_serde_shapes() {
    let ts = bindings();
    if std::env::var_os("PRINT_TS").is_some() {
        println!("{ts}");
    }
    for expected in [
        // Paths are arrays of map keys and list indexes.
        "export type AttributePath = PathStep[]",
        "export type PathStep = number | string",
        // Comparators are their symbols, sort-key operators too.
        "\"<>\"",
        "\"begins_with\"",
        // Tagged unions the UI switches on.
        "type: \"between\"",
        "action: \"set\"",
        "parameter: \"KeyConditionExpression\"",
        // Generated maps keep DynamoDB's parameter names.
        "ExpressionAttributeNames",
        // Code targets by their short names.
        "\"javaScriptDocumentClient\"",
    ] {
        assert!(ts.contains(expected), "missing {expected:?} in:\n{ts}");
    }
}
