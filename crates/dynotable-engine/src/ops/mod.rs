//! One file per DynamoDB operation (the dynalite layout): each validates its request the way the
//! service does — shape first, then semantics — and runs it.

pub mod account;
pub mod batch_get_item;
pub mod batch_write_item;
pub mod continuous_backups;
pub mod create_table;
pub mod delete_item;
pub mod delete_table;
pub mod describe_table;
pub mod get_item;
pub(crate) mod item_write;
pub mod list_tables;
pub mod put_item;
pub mod query;
pub mod scan;
pub mod tags;
pub mod transact_get_items;
pub mod transact_write_items;
pub mod update_item;
pub mod update_table;
