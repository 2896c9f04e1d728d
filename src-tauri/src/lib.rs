//! The desktop shell: the window, and one-line adapters from Tauri commands to
//! [`dynotable_app::App`]. Everything with behaviour lives in the headless crates.
//!
//! A UI call travels: `ui/src/ipc/bindings.gen.ts` (generated from [`commands()`]) → Tauri's IPC,
//! which checks the capability in `src-tauri/capabilities/` → an adapter in [`commands`] →
//! `dynotable_app::App` → back as the DTO or a `CommandError { code, message }`.

pub mod commands;
mod dialogs;
pub mod start_env;
pub mod updates;

use tauri::Manager;

/// The typed command set, shared by the running app and the bindings exporter.
pub fn commands() -> tauri_specta::Builder<tauri::Wry> {
    tauri_specta::Builder::<tauri::Wry>::new()
        .commands(tauri_specta::collect_commands![
            commands::app_info,
            commands::list_profiles,
            commands::list_aws_profiles,
            commands::test_connection,
            commands::create_profile,
            commands::update_profile,
            commands::delete_profile,
            commands::list_regions,
            commands::list_tables,
            commands::describe_table,
            commands::confirm_delete_table,
            commands::delete_table,
            commands::collection_stats,
            commands::query,
            commands::collection_page,
            commands::partiql::execute_statement,
            commands::partiql::execute_batch,
            commands::partiql::execute_transaction,
            commands::partiql::reserved_words,
            commands::partiql::save_statement,
            commands::partiql::saved_statements,
            commands::partiql::delete_saved_statement,
            commands::get_item,
            commands::put_item,
            commands::delete_item,
            commands::check_item,
            commands::scan,
            commands::cancel_operation,
            commands::share_engine,
            commands::stop_sharing,
            commands::shared_engine,
            commands::transfer::estimate_export,
            commands::transfer::export_items,
            commands::transfer::import_items,
            commands::bulk::bulk_dry_run,
            commands::bulk::bulk_commit,
            commands::bulk::bulk_undo,
            commands::query_history,
            commands::statistics_scan_cost,
            commands::gather_statistics,
            commands::collection_range,
            commands::collection_position,
            commands::collections_from,
            commands::create_table,
            commands::check_new_table,
            commands::change_table,
            commands::table_tags,
            commands::list_tables_in_regions,
            commands::provide_mfa_code,
            commands::sign_in::start_sso_sign_in,
            commands::sign_in::finish_sso_sign_in,
            commands::sign_in::cancel_sso_sign_in,
            commands::reset_demo_data,
            commands::choose_file,
            commands::delete_items,
            commands::update_item,
            commands::transfer::estimate_import_file,
            commands::transfer::preview_import_file,
            commands::estimate_query,
            commands::reconcile_query,
            commands::estimate_write,
            commands::reconcile_write,
            commands::estimate_import,
            commands::default_prices,
            commands::monthly_cost,
            commands::hot_partitions,
            commands::indexes_side_by_side,
            commands::generate_expression,
            commands::modeler::analyze_model,
            commands::modeler::take_model_suggestion,
            commands::modeler::export_model,
            commands::modeler::import_workbench_model,
            commands::modeler::apply_model_to_embedded,
            commands::modeler::apply_model_to_connection,
            commands::modeler::estimate_model_sample,
            commands::modeler::infer_model,
            commands::parse_expressions,
            commands::check_expressions,
            commands::sort_key_operators,
            commands::build_read_request,
            commands::export_code,
            commands::run_read_request,
            commands::read_request_page,
            commands::save_expression,
            commands::saved_expressions,
            commands::delete_saved_expression,
            commands::streams::stream_info,
            commands::streams::tail_stream,
            commands::streams::control_stream_tail,
            commands::streams::ttl_overview,
            commands::streams::expiring_items,
            commands::streams::sweep_expired,
            commands::simulations::set_simulations,
            commands::simulations::table_simulations,
            commands::updates::check_for_update,
            commands::updates::install_update,
            commands::updates::cancel_update,
        ])
        .error_handling(tauri_specta::ErrorHandlingMode::Result)
        // One TypeScript type per Rust type: commands only send DTOs out, so serde's separate
        // serialize/deserialize shapes would only add `_Serialize` twins.
        .disable_serde_phases()
}

/// The TypeScript bindings for [`commands()`], as they are committed in `ui/src/ipc/bindings.gen.ts`.
pub fn typescript_bindings() -> specta_typescript::Typescript {
    specta_typescript::Typescript::default()
        .header("// Generated by `make bindings` from src-tauri/src/lib.rs. Do not edit by hand.")
}

/// Opens the main window on the embedded engine.
pub fn run() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("DYNOTABLE_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();

    let commands = commands();
    tauri::Builder::default()
        // The dialog plugin's own commands are granted to no window: the UI asks for a file
        // through `choose_file`.
        .plugin(tauri_plugin_dialog::init())
        // Likewise the updater's: Help → Check for updates goes through `commands::updates`.
        .plugin(tauri_plugin_updater::Builder::new().build())
        .manage(updates::Updates::new(updates::Source::from_build()))
        .invoke_handler(commands.invoke_handler())
        .setup(move |app| {
            commands.mount_events(app);
            let platform_dir = app.path().app_data_dir()?;
            let override_dir = std::env::var(dynotable_app::data_dir::OVERRIDE_VAR).ok();
            let data_dir = dynotable_app::data_dir::resolve(
                &platform_dir,
                dynotable_app::data_dir::BuildKind::current(),
                override_dir.as_deref(),
            );
            tracing::info!(data_dir = %data_dir.display(), "starting DynoTable");
            // `App::start` spawns the engine's start-up on the current runtime.
            let state = tauri::async_runtime::block_on(async {
                dynotable_app::App::start(env!("CARGO_PKG_VERSION"), data_dir)
            });
            app.manage(state);
            Ok(())
        })
        .run(tauri::generate_context!())
        .expect("the DynoTable window could not be opened");
}
