//! The data modeler's commands (`dynotable_app::modeler`).

use dynotable_app::model_inference::{InferredModel, SampleEstimate};
use dynotable_app::modeler::{
    AppliedModel, Model, ModelAnalysis, ModelExportFormat, ModelSuggestion, TrafficModel,
};
use dynotable_app::{App, CommandError};

/// The data modeler: everything drawn for one state of the model (a model DynamoDB would
/// refuse comes back with its problem, not as an error).
#[tauri::command]
#[specta::specta]
pub fn analyze_model(
    app: tauri::State<'_, App>,
    model: Model,
    seed: u32,
    traffic: TrafficModel,
) -> ModelAnalysis {
    app.analyze_model(&model, seed, &traffic)
}

/// The data modeler: the model with a suggested GSI taken.
#[tauri::command]
#[specta::specta]
pub fn take_model_suggestion(
    app: tauri::State<'_, App>,
    model: Model,
    suggestion: ModelSuggestion,
) -> Result<Model, CommandError> {
    app.take_model_suggestion(&model, &suggestion)
}

/// The data modeler: the model as CreateTable JSON, CloudFormation, CDK, Terraform or a NoSQL
/// Workbench file (with the sample made from `seed`, dated `now` unless imported).
#[tauri::command]
#[specta::specta]
pub fn export_model(
    app: tauri::State<'_, App>,
    model: Model,
    format: ModelExportFormat,
    seed: u32,
    now: String,
) -> Result<String, CommandError> {
    app.export_model(&model, format, seed, &now)
}

/// The data modeler: a NoSQL Workbench data-model file read into a model.
#[tauri::command]
#[specta::specta]
pub fn import_workbench_model(app: tauri::State<'_, App>, text: String) -> Result<Model, CommandError> {
    app.import_workbench_model(&text)
}

/// The data modeler: the model's tables and sample data created in the embedded engine.
#[tauri::command]
#[specta::specta]
pub async fn apply_model_to_embedded(
    app: tauri::State<'_, App>,
    model: Model,
    seed: u32,
) -> Result<AppliedModel, CommandError> {
    app.apply_model_to_embedded(&model, seed).await
}

/// The data modeler: the model's tables (keys, billing, indexes; no sample data) created on a
/// connection, AWS or any endpoint, with CreateTable.
#[tauri::command]
#[specta::specta]
pub async fn apply_model_to_connection(
    app: tauri::State<'_, App>,
    profile_id: String,
    model: Model,
) -> Result<AppliedModel, CommandError> {
    app.apply_model_to_connection(&profile_id, &model).await
}

/// The data modeler: what a sample of `sample_limit` items of `table` will read and cost, before
/// it is read.
#[tauri::command]
#[specta::specta]
pub async fn estimate_model_sample(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    sample_limit: u32,
) -> Result<SampleEstimate, CommandError> {
    app.estimate_model_sample(&profile_id, &table, sample_limit).await
}

/// The data modeler: a model inferred from a live table — DescribeTable, a bounded sample and
/// the connection's query history of the table — with what the sample consumed.
#[tauri::command]
#[specta::specta]
pub async fn infer_model(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    sample_limit: u32,
) -> Result<InferredModel, CommandError> {
    app.infer_model(&profile_id, &table, sample_limit).await
}
