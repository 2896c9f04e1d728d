//! The model and the modeler's answers export to TypeScript through specta (the `specta`
//! feature) with the shapes of their serde form: what the app's bindings carry to the UI.

use dynotable_modeler::Model;
use dynotable_modeler::collections::{Growth, TargetCollections};
use dynotable_modeler::partitions::{PartitionMap, TrafficModel};
use dynotable_modeler::patterns::Resolution;

#[test]
fn the_model_and_its_answers_export_with_their_serde_shapes() {
    let types = specta::Types::default()
        .register::<Model>()
        .register::<TargetCollections>()
        .register::<Growth>()
        .register::<Resolution>()
        .register::<PartitionMap>()
        .register::<TrafficModel>();
    let ts = specta_typescript::Typescript::default()
        .export(&types, specta_serde::Format)
        .expect("the modeler exports to TypeScript");
    if std::env::var_os("PRINT_TS").is_some() {
        println!("{ts}");
    }
    for expected in [
        // Generators and ranges are tagged unions the UI switches on.
        "kind: \"sequence\"",
        "op: \"between\"",
        "mode: \"provisioned\"",
        // Key types and attribute values take the builder's shapes.
        "KeyType",
        "AttributeValueJson",
        "partitionKey: KeyAttr",
        "readUnitsPerCall: number",
    ] {
        assert!(ts.contains(expected), "missing {expected:?} in:\n{ts}");
    }
}
