//! The commands of the Stream and TTL views (`dynotable_app::streams`, `dynotable_app::ttl`).

use dynotable_app::streams::{StreamInfo, TailControl, TailInput, TailSummary, TailUpdate};
use dynotable_app::ttl::{ExpiringInput, ExpiringItems, SweepOutcome, TtlOverview};
use dynotable_app::{App, CommandError};

/// Whether `table` has a stream, its view type and shards.
#[tauri::command]
#[specta::specta]
pub async fn stream_info(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
) -> Result<StreamInfo, CommandError> {
    app.stream_info(&profile_id, &table).await
}

/// Tails the table's stream, sending each batch of records through `on_update`; resolves when
/// the tail is cancelled (`cancel_operation`) or the stream is turned off and read to its end.
#[tauri::command]
#[specta::specta]
pub async fn tail_stream(
    app: tauri::State<'_, App>,
    profile_id: String,
    input: TailInput,
    on_update: tauri::ipc::Channel<TailUpdate>,
) -> Result<TailSummary, CommandError> {
    app.tail_stream(&profile_id, input, |update| {
        // A closed window drops the channel; the tail goes on until it is cancelled.
        if let Err(err) = on_update.send(update) {
            tracing::debug!(%err, "stream records could not be sent to the UI");
        }
    })
    .await
}

/// Pauses or resumes a running tail, or changes its filter; `false` when it is not running.
#[tauri::command]
#[specta::specta]
pub fn control_stream_tail(app: tauri::State<'_, App>, id: String, control: TailControl) -> bool {
    app.control_stream_tail(&id, control)
}

/// The table's TTL attribute and, on the embedded engine, when it sweeps next.
#[tauri::command]
#[specta::specta]
pub async fn ttl_overview(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
) -> Result<TtlOverview, CommandError> {
    app.ttl_overview(&profile_id, &table).await
}

/// The items that expire first, from a scan of at most `input.max_pages` pages.
#[tauri::command]
#[specta::specta]
pub async fn expiring_items(
    app: tauri::State<'_, App>,
    profile_id: String,
    input: ExpiringInput,
) -> Result<ExpiringItems, CommandError> {
    app.expiring_items(&profile_id, input).await
}

/// Runs the embedded engine's Time to Live sweep now (refused on a read-only connection).
#[tauri::command]
#[specta::specta]
pub async fn sweep_expired(
    app: tauri::State<'_, App>,
    profile_id: String,
) -> Result<SweepOutcome, CommandError> {
    app.sweep_expired(&profile_id).await
}
