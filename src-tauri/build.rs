//! Build script of the desktop app: Tauri's code generation (config, capabilities, icons, and
//! the access-control manifest of DynoTable's own commands).
//!
//! The manifest sits at the repository root (see docs/adr/0001-root-app-package.md), so the
//! capabilities are found under `src-tauri/capabilities/` through an explicit pattern.

/// Every command the UI may call. Each becomes a permission `allow-<command>` that a capability
/// in `src-tauri/capabilities/` must grant; a command missing here cannot be invoked at all.
const COMMANDS: &[&str] = &[
    "app_info",
    "bulk_dry_run",
    "bulk_commit",
    "bulk_undo",
    "list_profiles",
    "list_aws_profiles",
    "test_connection",
    "create_profile",
    "update_profile",
    "delete_profile",
    "list_regions",
    "list_tables",
    "describe_table",
    "confirm_delete_table",
    "delete_table",
    "check_new_table",
    "change_table",
    "table_tags",
    "collection_stats",
    "collection_range",
    "collection_position",
    "query",
    "execute_statement",
    "execute_batch",
    "execute_transaction",
    "reserved_words",
    "get_item",
    "put_item",
    "delete_item",
    "check_item",
    "scan",
    "cancel_operation",
    "share_engine",
    "stop_sharing",
    "shared_engine",
    "export_items",
    "import_items",
    "query_history",
    "save_query",
    "saved_queries",
    "delete_saved_query",
    "statistics_scan_cost",
    "gather_statistics",
    "create_table",
    "list_tables_in_regions",
    "provide_mfa_code",
    "reset_demo_data",
    "choose_file",
    "delete_items",
    "update_item",
    "estimate_import_file",
    "estimate_query",
    "reconcile_query",
    "estimate_write",
    "reconcile_write",
    "estimate_import",
    "default_prices",
    "monthly_cost",
    "hot_partitions",
    "indexes_side_by_side",
    "generate_expression",
    "parse_expressions",
    "check_expressions",
    "sort_key_operators",
    "build_read_request",
    "export_code",
    "run_read_request",
    "save_expression",
    "saved_expressions",
    "delete_saved_expression",
    "stream_info",
    "tail_stream",
    "control_stream_tail",
    "ttl_overview",
    "expiring_items",
    "sweep_expired",
];

fn main() {
    println!("cargo:rerun-if-changed=src-tauri/capabilities");
    let attributes = tauri_build::Attributes::new()
        .capabilities_path_pattern("src-tauri/capabilities/**/*.json")
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    tauri_build::try_build(attributes).expect("tauri-build failed to generate the app context");
}
