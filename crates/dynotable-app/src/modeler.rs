//! The data modeler's commands (issue 21), over `dynotable-modeler`.
//!
//! Design:
//! - **Analysis is pure and whole.** The UI sends the model as it stands after every edit;
//!   [`App::analyze_model`] validates it (CreateTable's own rules, then the model's references)
//!   and, when it is valid, answers everything the modeler draws at once: the sample's
//!   collections on the table and every index, each pattern's Query (or Scan, with its
//!   suggested GSI) and cost, the growth of each table's largest collection, and each table's
//!   partition map under the what-if traffic. A model DynamoDB would refuse is an answer, not
//!   a command error: the UI shows the problem beside the model while the user types.
//! - **Taking a suggestion** and **exporting** are plain functions of the model.
//! - **Applying** to the embedded engine sends CreateTable for each table and the sample
//!   items with BatchWriteItem (25 at a time, rule B.7) through the engine's own API, as any
//!   client would; a table that already exists is refused before anything is written.
//! - **Applying to a connection** (AWS or any endpoint) creates the tables only — keys, billing
//!   and indexes, no sample data — through the connection's SDK client with the same CreateTable
//!   [`App::create_table`] sends for the create-table form; a read-only connection, or a table
//!   already there, is refused before anything is created. The UI asks for confirmation first.

use dynotable_engine::ErrorKind;
use dynotable_modeler::collections::{Growth, TargetCollections, collections, growth};
use dynotable_modeler::export::{cdk, cloudformation, create_table, terraform, workbench};
use dynotable_modeler::generate::generate;
use dynotable_modeler::partitions::{PartitionMap, partition_map};
use dynotable_modeler::patterns::{Resolution, resolve_all};
use dynotable_modeler::suggest;
use dynotable_modeler::{ModelError, ProblemAt};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::dto::{
    Billing as NewBilling, IndexKind, KeyAttribute, KeySchema, NewIndex, NewTable, Projection,
    ProjectionType, ScalarType,
};
use crate::{App, CommandError, ErrorCode};

// The modeler's model and inputs, as the shell's commands name them.
pub use dynotable_modeler::Model;
pub use dynotable_modeler::partitions::TrafficModel;
pub use dynotable_modeler::suggest::Suggestion as ModelSuggestion;

/// Why the model cannot be analysed: the modeler's error as data for the UI.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ModelProblem {
    /// `INVALID_MODEL`, `INVALID_TABLE`, `INVALID_TEMPLATE`, `INVALID_GENERATOR`,
    /// `INVALID_PATTERN` or `INVALID_IMPORT`.
    pub code: String,
    pub message: String,
    /// DynamoDB's exception when the rule broken is CreateTable's.
    pub exception: Option<String>,
    /// The table, entity or pattern (and member of it) the problem concerns, when known.
    pub at: Option<ProblemAt>,
}

impl From<ModelError> for ModelProblem {
    fn from(error: ModelError) -> ModelProblem {
        ModelProblem {
            code: serde_json::to_value(error.code)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            message: error.message,
            exception: error.exception,
            at: error.at,
        }
    }
}

fn command_error(error: ModelError) -> CommandError {
    CommandError {
        code: ErrorCode::Validation,
        message: error.message,
        exception: error.exception,
    }
}

/// Everything the modeler draws for one state of the model.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ModelAnalysis {
    /// Set when the model is not valid; the other members are then empty.
    pub problem: Option<ModelProblem>,
    pub collections: Vec<TargetCollections>,
    pub patterns: Vec<Resolution>,
    /// Per table, the growth of its fastest-growing collection.
    pub growth: Vec<Growth>,
    pub partitions: Vec<PartitionMap>,
}

/// An export of the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum ModelExportFormat {
    CreateTable,
    CloudFormation,
    Cdk,
    Terraform,
    Workbench,
}

/// What applying a model to the embedded engine made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct AppliedModel {
    pub tables: Vec<String>,
    pub items: u32,
}

fn analysis(model: &Model, seed: u32, traffic: &TrafficModel) -> Result<ModelAnalysis, ModelError> {
    dynotable_modeler::validate::validate(model)?;
    let sample = generate(model, u64::from(seed))?;
    let all = collections(model, &sample)?;
    let patterns = resolve_all(model, &sample)?;
    let mut growths = Vec::new();
    let mut partitions = Vec::new();
    for table in &model.tables {
        let mut best: Option<Growth> = None;
        for c in all
            .iter()
            .filter(|t| t.target.table == table.name && t.target.index.is_none())
            .flat_map(|t| &t.collections)
        {
            let g = growth(model, &sample, &table.name, &c.key)?;
            if best.as_ref().is_none_or(|b| g.bytes_per_day > b.bytes_per_day) {
                best = Some(g);
            }
        }
        growths.extend(best);
        partitions.push(partition_map(model, &sample, &table.name, traffic)?);
    }
    Ok(ModelAnalysis {
        problem: None,
        collections: all,
        patterns,
        growth: growths,
        partitions,
    })
}

/// A table of the model as the create-table form's draft: the same keys, billing and indexes
/// (an LSI's partition key is the table's, rule B.7), no stream, TTL or tags.
fn new_table(table: &dynotable_modeler::model::TableModel) -> NewTable {
    use dynotable_modeler::model::{Billing as ModelBilling, KeyAttr, Projection as ModelProjection};
    use dynotable_types::ScalarAttributeType;
    let key = |k: &KeyAttr| KeyAttribute {
        name: k.name.clone(),
        ty: match k.ty {
            ScalarAttributeType::S => ScalarType::S,
            ScalarAttributeType::N => ScalarType::N,
            ScalarAttributeType::B => ScalarType::B,
        },
    };
    let keys = |partition: &KeyAttr, sort: Option<&KeyAttr>| KeySchema {
        partition_key: key(partition),
        sort_key: sort.map(key),
        more_partition_keys: Vec::new(),
        more_sort_keys: Vec::new(),
    };
    let projection = |p: &ModelProjection| match p {
        ModelProjection::All => Projection {
            ty: ProjectionType::All,
            attributes: Vec::new(),
        },
        ModelProjection::KeysOnly => Projection {
            ty: ProjectionType::KeysOnly,
            attributes: Vec::new(),
        },
        ModelProjection::Include(attributes) => Projection {
            ty: ProjectionType::Include,
            attributes: attributes.clone(),
        },
    };
    let indexes = table
        .global_indexes
        .iter()
        .map(|i| (i, IndexKind::Global, &i.partition_key))
        .chain(
            table
                .local_indexes
                .iter()
                .map(|i| (i, IndexKind::Local, &table.partition_key)),
        )
        .map(|(index, kind, partition)| NewIndex {
            name: index.name.clone(),
            kind,
            keys: keys(partition, index.sort_key.as_ref()),
            projection: projection(&index.projection),
        })
        .collect();
    NewTable {
        name: table.name.clone(),
        keys: keys(&table.partition_key, table.sort_key.as_ref()),
        billing: match table.billing {
            ModelBilling::OnDemand => NewBilling::OnDemand,
            ModelBilling::Provisioned {
                read_units,
                write_units,
            } => NewBilling::Provisioned {
                read_units: u32::try_from(read_units).unwrap_or(u32::MAX),
                write_units: u32::try_from(write_units).unwrap_or(u32::MAX),
            },
        },
        indexes,
        stream_view_type: None,
        ttl_attribute: None,
        tags: Vec::new(),
    }
}

impl App {
    /// Creates the model's tables on the connection `profile_id` (AWS or any endpoint): keys,
    /// billing and indexes, with the CreateTable the create-table form sends; no sample data.
    /// Refused before anything is created when the model is not valid, the connection is
    /// read-only, or one of the tables is already there.
    pub async fn apply_model_to_connection(
        &self,
        profile_id: &str,
        model: &Model,
    ) -> Result<AppliedModel, CommandError> {
        dynotable_modeler::validate::validate(model).map_err(command_error)?;
        let session = self.session(profile_id).await?;
        session.writable()?;
        for table in &model.tables {
            match session
                .client
                .describe_table()
                .table_name(&table.name)
                .send()
                .await
            {
                Ok(_) => {
                    return Err(CommandError {
                        code: ErrorCode::Validation,
                        message: format!(
                            "The connection already has a table {}; nothing was created. Delete it or rename the model's.",
                            table.name
                        ),
                        exception: Some("ResourceInUseException".into()),
                    });
                }
                Err(err) => {
                    let error = CommandError::from_sdk(&err);
                    if error.exception.as_deref() != Some("ResourceNotFoundException") {
                        return Err(error);
                    }
                }
            }
        }
        for table in &model.tables {
            self.create_table(profile_id, new_table(table)).await?;
        }
        Ok(AppliedModel {
            tables: model.tables.iter().map(|t| t.name.clone()).collect(),
            items: 0,
        })
    }

    /// The model's collections, patterns, growth and partition maps for the sample made from
    /// `seed`, or the problem that keeps the model from being analysed.
    pub fn analyze_model(&self, model: &Model, seed: u32, traffic: &TrafficModel) -> ModelAnalysis {
        analysis(model, seed, traffic).unwrap_or_else(|error| ModelAnalysis {
            problem: Some(error.into()),
            collections: Vec::new(),
            patterns: Vec::new(),
            growth: Vec::new(),
            partitions: Vec::new(),
        })
    }

    /// The model with a suggested GSI taken (the index added, the entity filling its keys).
    pub fn take_model_suggestion(
        &self,
        model: &Model,
        suggestion: &ModelSuggestion,
    ) -> Result<Model, CommandError> {
        suggest::apply(model, suggestion).map_err(command_error)
    }

    /// The model as one export format; the Workbench file carries the sample made from `seed`
    /// and is dated `now` unless it was imported.
    pub fn export_model(
        &self,
        model: &Model,
        format: ModelExportFormat,
        seed: u32,
        now: &str,
    ) -> Result<String, CommandError> {
        dynotable_modeler::validate::validate(model).map_err(command_error)?;
        Ok(match format {
            ModelExportFormat::CreateTable => create_table::create_table_json(model),
            ModelExportFormat::CloudFormation => cloudformation::cloudformation(model),
            ModelExportFormat::Cdk => cdk::cdk(model),
            ModelExportFormat::Terraform => terraform::terraform(model),
            ModelExportFormat::Workbench => {
                let sample = generate(model, u64::from(seed)).map_err(command_error)?;
                workbench::export(model, Some(&sample), now).map_err(command_error)?
            }
        })
    }

    /// A NoSQL Workbench data-model file read into a model.
    pub fn import_workbench_model(&self, text: &str) -> Result<Model, CommandError> {
        workbench::import(text).map_err(command_error)
    }

    /// Creates the model's tables in the embedded engine and writes the sample made from
    /// `seed` (and the typed items). Refused, with nothing written, when a table exists.
    pub async fn apply_model_to_embedded(
        &self,
        model: &Model,
        seed: u32,
    ) -> Result<AppliedModel, CommandError> {
        dynotable_modeler::validate::validate(model).map_err(command_error)?;
        let sample = generate(model, u64::from(seed)).map_err(command_error)?;
        let engine = self.engine().await?;
        for table in &model.tables {
            let body = json!({ "TableName": table.name }).to_string();
            match engine.call("DescribeTable", body.as_bytes()).await {
                Ok(_) => {
                    return Err(CommandError {
                        code: ErrorCode::Validation,
                        message: format!(
                            "The embedded engine already has a table {}; delete it or rename the model's.",
                            table.name
                        ),
                        exception: Some("ResourceInUseException".into()),
                    });
                }
                Err(err) if err.kind == ErrorKind::ResourceNotFoundException => {}
                Err(err) => return Err(CommandError::from_engine(&err)),
            }
        }
        let mut items = 0u32;
        for table in &model.tables {
            let body = create_table::create_table_request(table).to_string();
            engine
                .call("CreateTable", body.as_bytes())
                .await
                .map_err(|e| CommandError::from_engine(&e))?;
            // BatchWriteItem takes at most 25 requests (rule B.7).
            for chunk in sample.table_items(model, &table.name).chunks(25) {
                let requests: Vec<Value> = chunk
                    .iter()
                    .map(|item| json!({ "PutRequest": { "Item": item } }))
                    .collect();
                let body = json!({ "RequestItems": { table.name.clone(): requests } }).to_string();
                engine
                    .call("BatchWriteItem", body.as_bytes())
                    .await
                    .map_err(|e| CommandError::from_engine(&e))?;
                items += chunk.len() as u32;
            }
        }
        Ok(AppliedModel {
            tables: model.tables.iter().map(|t| t.name.clone()).collect(),
            items,
        })
    }
}
