//! What commands return to the UI. Every type here is exported to TypeScript by tauri-specta,
//! so field names are camelCase on the wire.

use serde::Serialize;

/// The application's identity and health, shown in the status bar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct AppInfo {
    /// The app's version (the workspace version it was built from).
    pub version: String,
    /// The folder where DynoTable keeps everything it writes.
    pub data_dir: String,
    /// The embedded engine's database file.
    pub engine_path: String,
    pub engine: EngineInfo,
}

/// The embedded engine's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct EngineInfo {
    pub state: EngineState,
    /// Tables in the embedded database, once it is ready.
    pub table_count: Option<u32>,
    /// Why the engine failed, when it did.
    pub message: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum EngineState {
    Starting,
    Ready,
    Failed,
}

pub mod attribute;
pub mod cost;
pub mod index_view;
pub mod partiql;
mod query;
mod simulation;
mod table;

/// What resetting the demo data loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct DemoReset {
    pub tables: u32,
    pub items: u32,
}

pub use attribute::{AttributeValue, Item};
pub use query::{
    CapacityFigure, ConsumedCapacity, ItemRead, PageStop, QueryInput, QueryPage, SortKeyCondition,
};
pub use simulation::{SimulationSettings, SimulationStatus, TableSimulations};
pub use table::{
    Billing, CollectionRange, CollectionStat, CollectionStats, IndexKind, IndexSummary, KeyAttribute,
    KeySchema, NewIndex, NewTable, Projection, ProjectionType, ScalarType, StatisticsScan, TableDescription,
    TableList, TableTag,
};
