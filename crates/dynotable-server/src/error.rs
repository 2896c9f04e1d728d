//! The server's own errors: what stops `dynotable-local` from starting or serving. Errors a
//! DynamoDB client sees are the engine's `ApiError`, rendered by [`crate::wire`].

use dynotable_engine::EngineError;

/// `dynotable-local` could not start, or stopped serving.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The address could not be bound (in use, not local, not resolvable).
    #[error("cannot listen on {address}: {source}")]
    Bind { address: String, source: std::io::Error },
    /// The database could not be opened or migrated.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The listener failed while serving, or the runtime could not start.
    #[error("the server failed: {0}")]
    Serve(std::io::Error),
}
