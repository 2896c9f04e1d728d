//! Sharing the embedded engine on a loopback port, so the user's own application (or the AWS
//! CLI) can use the same tables while DynoTable shows them. Off by default: the app itself reaches
//! the engine in-process and opens no port. When shared, only 127.0.0.1 is bound — never another
//! interface — and stopping closes the listener (requests in flight finish first).
//!
//! The port is `dynotable-local`'s HTTP layer (`dynotable_server::serve_with`): a request whose
//! Host header does not name it is refused (DNS rebinding), and the connection cap and timeouts
//! apply. It answers no CORS, so a web page in the user's browser cannot call it; with a key in
//! [`ShareSettings::auth`] it checks every request's SigV4 signature as `dynotable-local --auth`
//! does.

use std::net::{Ipv4Addr, SocketAddr};

use serde::Serialize;
use tokio::sync::oneshot;

use crate::{App, CommandError, ErrorCode};

/// Where the shared engine listens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SharedEngine {
    /// `http://127.0.0.1:<port>`: the endpoint URL to give an SDK.
    pub url: String,
    pub port: u16,
}

/// Connections the share port serves at once: plenty for the user's own programs (boto3 pools
/// 10, the AWS CLI one), and few enough that they never take the descriptors the app itself
/// needs for its database and files (a macOS process starts with a soft limit of 256).
pub const SHARE_MAX_CONNECTIONS: usize = 128;

/// How the share port checks its callers besides the Host header.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShareSettings {
    /// The access key and secret requests must be signed with; `None` accepts any signature or
    /// none.
    pub auth: Option<dynotable_server::Credentials>,
}

/// The running share.
#[derive(Debug)]
pub(crate) struct Share {
    endpoint: SharedEngine,
    settings: ShareSettings,
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

impl App {
    /// Shares the embedded engine on `127.0.0.1:<port>` (0 picks a free port), accepting any
    /// signature. Sharing again on another port moves the share.
    pub async fn share_engine(&self, port: u16) -> Result<SharedEngine, CommandError> {
        self.share_engine_with(port, ShareSettings::default()).await
    }

    /// [`App::share_engine`] with `settings`; sharing again on the same port with other settings
    /// restarts the share with them.
    pub async fn share_engine_with(
        &self,
        port: u16,
        settings: ShareSettings,
    ) -> Result<SharedEngine, CommandError> {
        let engine = self.engine().await?;
        let mut share = self.inner.share.lock().await;
        if let Some(current) = share.as_ref()
            && current.endpoint.port == port
            && current.settings == settings
        {
            return Ok(current.endpoint.clone());
        }
        if share
            .as_ref()
            .is_some_and(|current| current.endpoint.port == port)
            && let Some(previous) = share.take()
        {
            // Same port, other settings: the port is freed first, then bound again below.
            stop(previous).await;
        }
        let listener = tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
            .await
            .map_err(|err| {
                CommandError::new(
                    ErrorCode::PortUnavailable,
                    format!("Port {port} on 127.0.0.1 cannot be used: {err}. Choose another port."),
                )
            })?;
        let address = listener
            .local_addr()
            .map_err(|err| CommandError::new(ErrorCode::Internal, err.to_string()))?;
        if let Some(previous) = share.take() {
            stop(previous).await;
        }
        let (sender, receiver) = oneshot::channel::<()>();
        let options = dynotable_server::ServeOptions {
            auth: settings.auth.clone(),
            cors: false,
            limits: dynotable_server::Limits {
                max_connections: SHARE_MAX_CONNECTIONS,
                ..dynotable_server::Limits::default()
            },
            ..dynotable_server::ServeOptions::default()
        };
        let task = tokio::spawn(async move {
            let shutdown = async {
                let _ = receiver.await;
            };
            if let Err(err) = dynotable_server::serve_with(listener, engine, options, shutdown).await {
                tracing::error!(%err, "the shared engine stopped serving");
            }
        });
        let endpoint = SharedEngine {
            url: format!("http://{address}"),
            port: address.port(),
        };
        tracing::info!(url = %endpoint.url, auth = settings.auth.is_some(), "the embedded engine is shared on loopback");
        *share = Some(Share {
            endpoint: endpoint.clone(),
            settings,
            stop: sender,
            task,
        });
        Ok(endpoint)
    }

    /// Stops sharing; nothing happens when the engine is not shared.
    pub async fn stop_sharing(&self) {
        if let Some(share) = self.inner.share.lock().await.take() {
            stop(share).await;
        }
    }

    /// Where the engine is shared, if it is.
    pub async fn shared_engine(&self) -> Option<SharedEngine> {
        self.inner.share.lock().await.as_ref().map(|s| s.endpoint.clone())
    }
}

async fn stop(share: Share) {
    let _ = share.stop.send(());
    if let Err(err) = share.task.await {
        tracing::warn!(%err, "the shared engine's server task ended badly");
    }
    tracing::info!(url = %share.endpoint.url, "the embedded engine is no longer shared");
}
