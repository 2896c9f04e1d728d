//! The integration tests of `dynotable-engine`, one binary: the goldenscripts of the API, the
//! properties of orderings and encodings, the cost estimator against the engine, storage and
//! checkpoints, streams, transaction conflicts and the simulations. One binary links the engine
//! once and runs every area's tests side by side.

mod capacity_estimate;
mod checkpoint;
mod eventual_lag;
mod golden;
mod properties;
mod response_limits;
mod robustness;
mod simulation_counts;
mod simulations;
mod storage;
mod streams;
mod transaction_conflicts;
