//! Tauri commands: one-line adapters over `dynotable_app::App`. Each command here must also be
//! listed in `src-tauri/build.rs` (its permission) and granted in `src-tauri/capabilities/`.
//! The commands of the stream and TTL views, the data modeler, staged bulk edits and the embedded
//! engine's simulations, and updates, live in their own files below.

pub mod bulk;
pub mod modeler;
pub mod partiql;
pub mod sign_in;
pub mod simulations;
pub mod streams;
pub mod transfer;
pub mod updates;

use dynotable_app::builder::{
    BuiltRequest, CodeTarget, Diagnostic, ExpressionState, GeneratedExpression, KeySchemaState, KeyType,
    ParseOutcome, ReadRequest, SavedBuilderContent, SavedExpression, SortKeyOperator, TypedRequest,
};
use dynotable_app::dto::ConsumedCapacity;
use dynotable_app::dto::cost::{
    HotPartitionReport, ImportEstimate, MonthlyCost, QueryEstimate, Reconciliation, RegionPrices,
    TrafficInput, Workload, WriteEstimate, WriteEstimateInput,
};
use dynotable_app::dto::index_view::{IndexesSideBySide, ViewSource};
use dynotable_app::dto::{
    AppInfo, AttributeValue, CollectionRange, CollectionStats, DemoReset, Item, ItemRead, NewTable,
    QueryInput, QueryPage, TableDescription, TableList, TableTag,
};
use dynotable_app::history::HistoryEntry;
use dynotable_app::new_table::NewTableCheck;
use dynotable_app::profiles::{Profile, ProfileInput};
use dynotable_app::scans::{ScanInput, ScanSummary, ScanTotals, ScanUpdate};
use dynotable_app::sharing::SharedEngine;
use dynotable_app::statistics::{ScanCost, StatisticsRequest};
use dynotable_app::table_changes::TableChange;
use dynotable_app::tables::RegionTables;
use dynotable_app::transfer::TransferProgress;
use dynotable_app::{App, CommandError, Expectation, ItemCheck, UpdateOutcome, WriteOutcome};
use dynotable_aws::client::ConnectionTest;
use dynotable_aws::profiles::AwsProfile;

use dynotable_app::deletion::DeleteToken;
use dynotable_app::files::{ChosenFile, FilePurpose};

/// Asks the user for a file with the system's dialog: one to import (`open`) or where to export
/// (`save`, suggesting `fileName`). The UI gets a handle to name the file by, never its path;
/// `null` when the user cancels.
#[tauri::command]
#[specta::specta]
pub async fn choose_file(
    app: tauri::State<'_, App>,
    window: tauri::Window,
    purpose: FilePurpose,
    file_name: String,
    extension: String,
) -> Result<Option<ChosenFile>, CommandError> {
    crate::dialogs::choose_file(&app, &window, purpose, &file_name, &extension).await
}

/// The app's version, data folder and the embedded engine's state.
#[tauri::command]
#[specta::specta]
pub async fn app_info(app: tauri::State<'_, App>) -> Result<AppInfo, CommandError> {
    app.app_info().await
}

/// Every connection profile: the embedded engine's first, then the user's by name.
#[tauri::command]
#[specta::specta]
pub async fn list_profiles(app: tauri::State<'_, App>) -> Result<Vec<Profile>, CommandError> {
    app.profiles().await
}

/// The named profiles of the user's AWS config files.
#[tauri::command]
#[specta::specta]
pub async fn list_aws_profiles(app: tauri::State<'_, App>) -> Result<Vec<AwsProfile>, CommandError> {
    app.aws_profiles().await
}

/// One ListTables on a profile's connection, and what went wrong in plain words.
#[tauri::command]
#[specta::specta]
pub async fn test_connection(
    app: tauri::State<'_, App>,
    profile_id: String,
) -> Result<ConnectionTest, CommandError> {
    app.test_connection(&profile_id).await
}

/// Creates a profile; its secrets go to the keychain and never come back.
#[tauri::command]
#[specta::specta]
pub async fn create_profile(
    app: tauri::State<'_, App>,
    input: ProfileInput,
) -> Result<Profile, CommandError> {
    app.create_profile(input).await
}

/// Changes a profile (its open connection is closed and reopened on next use).
#[tauri::command]
#[specta::specta]
pub async fn update_profile(
    app: tauri::State<'_, App>,
    profile_id: String,
    input: ProfileInput,
) -> Result<Profile, CommandError> {
    app.update_profile(&profile_id, input).await
}

#[tauri::command]
#[specta::specta]
pub async fn delete_profile(app: tauri::State<'_, App>, profile_id: String) -> Result<(), CommandError> {
    app.delete_profile(&profile_id).await
}

/// The AWS regions a profile can use.
#[tauri::command]
#[specta::specta]
pub fn list_regions() -> Vec<String> {
    dynotable_app::profiles::REGIONS
        .iter()
        .map(|r| (*r).to_owned())
        .collect()
}

/// One page of table names.
#[tauri::command]
#[specta::specta]
pub async fn list_tables(
    app: tauri::State<'_, App>,
    profile_id: String,
    start: Option<String>,
) -> Result<TableList, CommandError> {
    app.list_tables(&profile_id, start).await
}

/// A table's keys, indexes, counts, stream and TTL.
#[tauri::command]
#[specta::specta]
pub async fn describe_table(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
) -> Result<TableDescription, CommandError> {
    app.describe_table(&profile_id, &table).await
}

/// Asks the user, in a native dialog the web view cannot answer, to confirm deleting `table`;
/// `null` when they decline. The token it returns is what `delete_table` takes.
#[tauri::command]
#[specta::specta]
pub async fn confirm_delete_table(
    app: tauri::State<'_, App>,
    window: tauri::Window,
    profile_id: String,
    table: String,
) -> Result<Option<DeleteToken>, CommandError> {
    crate::dialogs::confirm_delete_table(&app, &window, &profile_id, &table).await
}

/// Deletes a table with the token `confirm_delete_table` issued for it.
#[tauri::command]
#[specta::specta]
pub async fn delete_table(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    token: String,
) -> Result<(), CommandError> {
    app.delete_table(&profile_id, &table, &token).await
}

/// The item collections of a table or index, largest first.
#[tauri::command]
#[specta::specta]
pub async fn collection_stats(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    index: Option<String>,
) -> Result<CollectionStats, CommandError> {
    app.collection_stats(&profile_id, &table, index.as_deref()).await
}

/// A stretch of the key-ordered run of a table's (or index's) collections.
#[tauri::command]
#[specta::specta]
pub async fn collection_range(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    index: Option<String>,
    offset: u32,
    limit: u32,
) -> Result<CollectionRange, CommandError> {
    app.collection_range(&profile_id, &table, index.as_deref(), u64::from(offset), limit)
        .await
}

/// Where one collection stands in the key-ordered run (`null`: there is none).
#[tauri::command]
#[specta::specta]
pub async fn collection_position(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    index: Option<String>,
    partition_value: AttributeValue,
) -> Result<Option<u32>, CommandError> {
    let at = app
        .collection_position(&profile_id, &table, index.as_deref(), &partition_value)
        .await?;
    Ok(at.map(|n| u32::try_from(n).unwrap_or(u32::MAX)))
}

/// A stretch of the key-ordered run from the first collection at or after `from` (the query
/// bar's completion of a typed start of a key).
#[tauri::command]
#[specta::specta]
pub async fn collections_from(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    index: Option<String>,
    from: AttributeValue,
    limit: u32,
) -> Result<CollectionRange, CommandError> {
    app.collections_from(&profile_id, &table, index.as_deref(), &from, limit)
        .await
}

/// One page of a Query of one collection that the user ran (its first page goes into the query
/// history).
#[tauri::command]
#[specta::specta]
pub async fn query(
    app: tauri::State<'_, App>,
    profile_id: String,
    input: QueryInput,
) -> Result<QueryPage, CommandError> {
    app.query(&profile_id, input).await
}

/// One page of a collection the Collections view draws: the same Query, kept out of the query
/// history.
#[tauri::command]
#[specta::specta]
pub async fn collection_page(
    app: tauri::State<'_, App>,
    profile_id: String,
    input: QueryInput,
) -> Result<QueryPage, CommandError> {
    app.collection_page(&profile_id, &input).await
}

/// One item by its key, with what the read cost.
#[tauri::command]
#[specta::specta]
pub async fn get_item(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    key: Item,
    consistent_read: bool,
) -> Result<ItemRead, CommandError> {
    let (item, consumed_capacity) = app.get_item(&profile_id, &table, key, consistent_read).await?;
    Ok(ItemRead {
        item,
        consumed_capacity,
    })
}

/// Writes an item with the condition `expect` asks for.
#[tauri::command]
#[specta::specta]
pub async fn put_item(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    item: Item,
    expect: Expectation,
) -> Result<WriteOutcome, CommandError> {
    app.put_item(&profile_id, &table, item, expect).await
}

/// Deletes an item with the condition `expect` asks for.
#[tauri::command]
#[specta::specta]
pub async fn delete_item(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    key: Item,
    expect: Expectation,
) -> Result<WriteOutcome, CommandError> {
    app.delete_item(&profile_id, &table, key, expect).await
}

/// The item editor's check: values, keys and size by the engine's rules.
#[tauri::command]
#[specta::specta]
pub async fn check_item(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    item: Item,
) -> Result<ItemCheck, CommandError> {
    app.check_item(&profile_id, &table, item).await
}

/// Runs a scan the user started, streaming each page with running totals through `on_update`;
/// resolves when it completes, is cancelled or reaches its capacity budget (then it is in the
/// query history).
#[tauri::command]
#[specta::specta]
pub async fn scan(
    app: tauri::State<'_, App>,
    profile_id: String,
    input: ScanInput,
    on_update: tauri::ipc::Channel<ScanUpdate>,
) -> Result<ScanSummary, CommandError> {
    app.run_scan(&profile_id, input, |update| {
        // A closed window drops the channel; the scan then ends with nobody to tell.
        if let Err(err) = on_update.send(update) {
            tracing::debug!(%err, "a scan page could not be sent to the UI");
        }
    })
    .await
}

/// Stops a running scan, export or import after its current request; `false` when it is not running.
#[tauri::command]
#[specta::specta]
pub fn cancel_operation(app: tauri::State<'_, App>, id: String) -> bool {
    app.cancel_operation(&id)
}

/// Shares the embedded engine on `127.0.0.1:<port>` for the user's own applications.
#[tauri::command]
#[specta::specta]
pub async fn share_engine(app: tauri::State<'_, App>, port: u16) -> Result<SharedEngine, CommandError> {
    app.share_engine(port).await
}

/// Stops sharing the embedded engine.
#[tauri::command]
#[specta::specta]
pub async fn stop_sharing(app: tauri::State<'_, App>) -> Result<(), CommandError> {
    app.stop_sharing().await;
    Ok(())
}

/// Where the embedded engine is shared, if it is.
#[tauri::command]
#[specta::specta]
pub async fn shared_engine(app: tauri::State<'_, App>) -> Result<Option<SharedEngine>, CommandError> {
    Ok(app.shared_engine().await)
}

/// The queries run on a connection (on one table, if given), newest first.
#[tauri::command]
#[specta::specta]
pub async fn query_history(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: Option<String>,
) -> Result<Vec<HistoryEntry>, CommandError> {
    app.query_history(&profile_id, table.as_deref()).await
}

/// What a statistics scan of `table` (or of its index `index`) will cost, for the user to
/// confirm first.
#[tauri::command]
#[specta::specta]
pub async fn statistics_scan_cost(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    index: Option<String>,
) -> Result<ScanCost, CommandError> {
    app.statistics_scan_cost(&profile_id, &table, index.as_deref())
        .await
}

/// Scans a table or index for its collection statistics, up to a budget, and keeps what it read:
/// whole, or partial when the budget or Cancel stopped it (then it can be continued).
#[tauri::command]
#[specta::specta]
pub async fn gather_statistics(
    app: tauri::State<'_, App>,
    profile_id: String,
    id: String,
    request: StatisticsRequest,
    on_progress: tauri::ipc::Channel<ScanTotals>,
) -> Result<CollectionStats, CommandError> {
    app.gather_statistics(&profile_id, &id, request, |totals| {
        let _ = on_progress.send(totals);
    })
    .await
}

/// Creates a table with its keys, billing and secondary indexes.
#[tauri::command]
#[specta::specta]
pub async fn create_table(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: NewTable,
) -> Result<TableDescription, CommandError> {
    app.create_table(&profile_id, table).await
}

/// The create-table form's check of a draft, as the user types: DynamoDB's first objection (the
/// embedded engine's own CreateTable rules) and the request as CreateTable JSON, AWS CLI and
/// CloudFormation.
#[tauri::command]
#[specta::specta]
pub fn check_new_table(app: tauri::State<'_, App>, table: NewTable) -> NewTableCheck {
    app.check_new_table(&table)
}

/// Changes a table from its Settings (billing, a GSI added or deleted, stream, TTL, tags) and
/// returns what DescribeTable says afterwards.
#[tauri::command]
#[specta::specta]
pub async fn change_table(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    change: TableChange,
) -> Result<TableDescription, CommandError> {
    app.change_table(&profile_id, &table, change).await
}

/// The tags of a table.
#[tauri::command]
#[specta::specta]
pub async fn table_tags(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
) -> Result<Vec<TableTag>, CommandError> {
    app.table_tags(&profile_id, &table).await
}

/// Every table of a connection in each of `regions`, region by region.
#[tauri::command]
#[specta::specta]
pub async fn list_tables_in_regions(
    app: tauri::State<'_, App>,
    profile_id: String,
    regions: Vec<String>,
) -> Result<Vec<RegionTables>, CommandError> {
    app.list_tables_in_regions(&profile_id, regions).await
}

/// Assumes an AWS profile's MFA-protected role with the code the user typed.
#[tauri::command]
#[specta::specta]
pub async fn provide_mfa_code(
    app: tauri::State<'_, App>,
    profile_id: String,
    code: String,
) -> Result<(), CommandError> {
    app.provide_mfa_code(&profile_id, &code).await
}

/// Deletes the demo tables of the embedded engine and loads them again.
#[tauri::command]
#[specta::specta]
pub async fn reset_demo_data(app: tauri::State<'_, App>) -> Result<DemoReset, CommandError> {
    app.reset_demo_data().await
}

/// Deletes the selected items (by key) with BatchWriteItem.
#[tauri::command]
#[specta::specta]
pub async fn delete_items(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    keys: Vec<Item>,
) -> Result<TransferProgress, CommandError> {
    app.delete_items(&profile_id, &table, keys).await
}

/// What a Query will cost before it runs, and the same items read other ways.
#[tauri::command]
#[specta::specta]
pub async fn estimate_query(
    app: tauri::State<'_, App>,
    profile_id: String,
    input: QueryInput,
) -> Result<QueryEstimate, CommandError> {
    app.estimate_query(&profile_id, input).await
}

/// A Query's estimate beside the ConsumedCapacity the query reported.
#[tauri::command]
#[specta::specta]
pub async fn reconcile_query(
    app: tauri::State<'_, App>,
    profile_id: String,
    input: QueryInput,
    actual: ConsumedCapacity,
) -> Result<Reconciliation, CommandError> {
    app.reconcile_query(&profile_id, input, actual).await
}

/// What a put, update or delete will cost, with its index fan-out.
#[tauri::command]
#[specta::specta]
pub async fn estimate_write(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    input: WriteEstimateInput,
) -> Result<WriteEstimate, CommandError> {
    app.estimate_write(&profile_id, &table, input).await
}

/// A write's estimate beside the ConsumedCapacity the write reported.
#[tauri::command]
#[specta::specta]
pub async fn reconcile_write(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    input: WriteEstimateInput,
    actual: ConsumedCapacity,
) -> Result<Reconciliation, CommandError> {
    app.reconcile_write(&profile_id, &table, input, actual).await
}

/// What importing `total_items` items like `sample` will cost.
#[tauri::command]
#[specta::specta]
pub async fn estimate_import(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    sample: Vec<Item>,
    total_items: f64,
) -> Result<ImportEstimate, CommandError> {
    app.estimate_import(&profile_id, &table, sample, total_items)
        .await
}

/// The default price table, with the date of its figures.
#[tauri::command]
#[specta::specta]
pub fn default_prices() -> Vec<RegionPrices> {
    dynotable_app::costs::default_prices()
}

/// What a request rate costs a month, on-demand and provisioned.
#[tauri::command]
#[specta::specta]
pub fn monthly_cost(prices: RegionPrices, workload: Workload) -> Result<MonthlyCost, CommandError> {
    dynotable_app::costs::monthly_cost(prices, workload)
}

/// The load a request rate puts on each partition key, against the per-partition ceilings.
#[tauri::command]
#[specta::specta]
pub async fn hot_partitions(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    traffic: TrafficInput,
) -> Result<HotPartitionReport, CommandError> {
    app.hot_partitions(&profile_id, &table, traffic).await
}

/// The same items grouped by the table's key and by each index's key.
#[tauri::command]
#[specta::specta]
pub async fn indexes_side_by_side(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    source: ViewSource,
) -> Result<IndexesSideBySide, CommandError> {
    app.indexes_side_by_side(&profile_id, &table, source).await
}

/// The expression builder: one expression written out with automatic placeholders.
#[tauri::command]
#[specta::specta]
pub fn generate_expression(
    app: tauri::State<'_, App>,
    state: ExpressionState,
) -> Result<GeneratedExpression, CommandError> {
    app.generate_expression(&state)
}

/// The expression builder's text mode: typed expressions with their maps, as builder states, or
/// DynamoDB's objections at their positions.
#[tauri::command]
#[specta::specta]
pub fn parse_expressions(
    app: tauri::State<'_, App>,
    request: TypedRequest,
    key_schema: Option<KeySchemaState>,
) -> ParseOutcome {
    app.parse_expressions(&request, key_schema.as_ref())
}

/// Everything DynamoDB would object to in a request's expressions and maps.
#[tauri::command]
#[specta::specta]
pub fn check_expressions(
    app: tauri::State<'_, App>,
    request: TypedRequest,
    key_schema: Option<KeySchemaState>,
) -> Vec<Diagnostic> {
    app.check_expressions(&request, key_schema.as_ref())
}

/// The operators DynamoDB allows on a sort key of this type.
#[tauri::command]
#[specta::specta]
pub fn sort_key_operators(app: tauri::State<'_, App>, key_type: KeyType) -> Vec<SortKeyOperator> {
    app.sort_key_operators(key_type)
}

/// A builder Query or Scan as it would be sent, with its JSON body and DynamoDB's verdict.
#[tauri::command]
#[specta::specta]
pub fn build_read_request(
    app: tauri::State<'_, App>,
    request: ReadRequest,
    key_schema: Option<KeySchemaState>,
) -> Result<BuiltRequest, CommandError> {
    app.build_read_request(&request, key_schema.as_ref())
}

/// A builder request as a program for `target` that pages through every result.
#[tauri::command]
#[specta::specta]
pub fn export_code(
    app: tauri::State<'_, App>,
    request: ReadRequest,
    target: CodeTarget,
) -> Result<String, CommandError> {
    app.export_code(&request, target)
}

/// Runs one page of a builder request on a connection.
#[tauri::command]
#[specta::specta]
pub async fn run_read_request(
    app: tauri::State<'_, App>,
    profile_id: String,
    request: ReadRequest,
    exclusive_start_key: Option<Item>,
) -> Result<QueryPage, CommandError> {
    app.run_read_request(&profile_id, &request, exclusive_start_key)
        .await
}

/// Reads one page of a builder request for the app itself (the items a filter dropped, read
/// back): not recorded in the query history.
#[tauri::command]
#[specta::specta]
pub async fn read_request_page(
    app: tauri::State<'_, App>,
    profile_id: String,
    request: ReadRequest,
    exclusive_start_key: Option<Item>,
) -> Result<QueryPage, CommandError> {
    app.read_request_page(&profile_id, &request, exclusive_start_key)
        .await
}

/// Saves a builder expression or request under a name for a table.
#[tauri::command]
#[specta::specta]
pub async fn save_expression(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    name: String,
    content: SavedBuilderContent,
) -> Result<SavedExpression, CommandError> {
    app.save_expression(&profile_id, &table, &name, content).await
}

/// The saved builder expressions and requests of a connection (of one table, if given).
#[tauri::command]
#[specta::specta]
pub async fn saved_expressions(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: Option<String>,
) -> Result<Vec<SavedExpression>, CommandError> {
    app.saved_expressions(&profile_id, table.as_deref()).await
}

#[tauri::command]
#[specta::specta]
pub async fn delete_saved_expression(app: tauri::State<'_, App>, id: String) -> Result<(), CommandError> {
    app.delete_saved_expression(&id).await
}

/// UpdateItem with an update expression (and its names and values) under the condition `expect`.
#[tauri::command]
#[specta::specta]
#[allow(clippy::too_many_arguments)]
pub async fn update_item(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    key: Item,
    update: String,
    names: std::collections::BTreeMap<String, String>,
    values: Item,
    expect: Expectation,
) -> Result<UpdateOutcome, CommandError> {
    app.update_item(&profile_id, &table, key, &update, names, values, expect)
        .await
}
