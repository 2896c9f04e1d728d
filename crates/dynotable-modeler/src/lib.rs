//! DynoTable's data modeler, headless: a key schema sketched as tables, entity types and
//! access patterns, and everything that follows from it before a table exists — sample data,
//! the item collections on the table and every index, the Query that serves each pattern and
//! its cost, a partition map, and the table as infrastructure code.
//!
//! The life of a model:
//!
//! 1. [`model`]: the design as plain serde data — tables with typed keys, GSIs and LSIs with
//!    projections; entity types with key templates (`VEH#{vehicleId}`, `TS#{recordedAt}`,
//!    `META`), their fields and types, and which index keys each fills (sparse indexes are
//!    explicit); named access patterns.
//! 2. [`validate`]: each table goes through the engine's own CreateTable validation
//!    (`dynotable_engine::check_create_table`, one rule set for engine, form and modeler), then
//!    the model's references are checked.
//! 3. [`template`] expands key templates; [`generate`] makes seeded, deterministic sample
//!    data from counts, value distributions and skew.
//! 4. [`collections`] groups the sample into collections on the table and each index, sized
//!    with the engine's item and index-entry rules, and projects a collection's growth against
//!    the LSI 10 GB limit.
//! 5. [`patterns`] resolves each access pattern to the Query (written by `dynotable-builder`)
//!    or the Scan that serves it, costed with the engine's capacity and price rules;
//!    [`suggest`] proposes the GSI for a pattern nothing serves, with its write cost.
//! 6. [`partitions`] places the collections on a modelled hash ring and splits hot or full
//!    partitions (DynamoDB's own hash is not public: the placement is a model).
//! 7. [`export`] writes CreateTable JSON, CloudFormation, AWS CDK, Terraform, and reads and
//!    writes NoSQL Workbench's data-model JSON.
//!
//! 8. [`infer`] reads a model back from a live table: its keys and indexes, entity types from
//!    the sort-key prefixes and attribute sets of a bounded sample, access patterns from the
//!    reads run on it.
//!
//! Errors are one type, [`ModelError`]. Headless: no Tauri, no AWS SDK
//! (`scripts/check-headless.sh`); the engine is used for its plain functions, never opened.

pub mod collections;
pub mod error;
pub mod export;
pub mod generate;
pub mod infer;
pub mod model;
pub mod partitions;
pub mod patterns;
pub mod suggest;
pub mod template;
pub mod validate;

pub use error::{ErrorCode, ModelError, ModelPart, ProblemAt};
pub use model::Model;
