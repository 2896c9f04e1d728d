//! The embedded engine, reached through aws-sdk-dynamodb without opening a port: an HTTP client
//! for the SDK that hands each request to `dynotable-local`'s router inside this process. The
//! desktop app thus talks to the embedded engine over exactly the code path it uses for AWS —
//! signing, serialisation, retries, error parsing — and no other process can reach the engine.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::result::ConnectorError;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::body::SdkBody;
use dynotable_engine::Engine;
use tower::ServiceExt;

/// The address the SDK signs for; no socket is ever opened to it.
const IN_PROCESS_ENDPOINT: &str = "http://embedded.dynotable.invalid";

/// An aws-sdk-dynamodb HTTP client whose "network" is the server's router.
#[derive(Clone)]
pub struct InProcessHttp {
    router: axum::Router,
}

impl std::fmt::Debug for InProcessHttp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("InProcessHttp")
    }
}

impl InProcessHttp {
    pub fn new(engine: Engine) -> InProcessHttp {
        InProcessHttp {
            router: dynotable_server::router(engine),
        }
    }
}

fn connector_error(err: impl std::error::Error + Send + Sync + 'static) -> ConnectorError {
    ConnectorError::other(Box::new(err), None)
}

impl HttpConnector for InProcessHttp {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let router = self.router.clone();
        HttpConnectorFuture::new(async move {
            let request = request.try_into_http1x().map_err(connector_error)?;
            let (parts, body) = request.into_parts();
            // DynamoDB requests are JSON bodies held in memory; nothing streams.
            let bytes = body.bytes().map(<[u8]>::to_vec).unwrap_or_default();
            let request = http::Request::from_parts(parts, axum::body::Body::from(bytes));
            let response = match router.oneshot(request).await {
                Ok(response) => response,
                Err(never) => match never {},
            };
            let (parts, body) = response.into_parts();
            let bytes = axum::body::to_bytes(body, usize::MAX)
                .await
                .map_err(|err| ConnectorError::other(err.into(), None))?;
            let response = http::Response::from_parts(parts, SdkBody::from(bytes.to_vec()));
            HttpResponse::try_from(response).map_err(connector_error)
        })
    }
}

impl HttpClient for InProcessHttp {
    fn http_connector(&self, _: &HttpConnectorSettings, _: &RuntimeComponents) -> SharedHttpConnector {
        SharedHttpConnector::new(self.clone())
    }
}

/// A DynamoDB client for the embedded engine.
pub fn embedded_client(engine: Engine) -> Client {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("local"))
        .credentials_provider(Credentials::new(
            "embedded",
            "embedded",
            None,
            None,
            "dynotable-embedded",
        ))
        .endpoint_url(IN_PROCESS_ENDPOINT)
        .http_client(InProcessHttp::new(engine))
        .build();
    Client::from_conf(config)
}

/// A DynamoDB Streams client for the embedded engine (the server routes
/// `DynamoDBStreams_20120810.*` to the engine's Streams API).
pub fn embedded_streams_client(engine: Engine) -> aws_sdk_dynamodbstreams::Client {
    let config = aws_sdk_dynamodbstreams::Config::builder()
        .behavior_version(aws_sdk_dynamodbstreams::config::BehaviorVersion::latest())
        .region(aws_sdk_dynamodbstreams::config::Region::new("local"))
        .credentials_provider(aws_sdk_dynamodbstreams::config::Credentials::new(
            "embedded",
            "embedded",
            None,
            None,
            "dynotable-embedded",
        ))
        .endpoint_url(IN_PROCESS_ENDPOINT)
        .http_client(InProcessHttp::new(engine))
        .build();
    aws_sdk_dynamodbstreams::Client::from_conf(config)
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::types::{
        AttributeDefinition, AttributeValue, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType,
    };
    use dynotable_engine::Location;

    use super::*;

    #[tokio::test]
    async fn the_sdk_reaches_the_embedded_engine_in_process() {
        let engine = Engine::open(Location::InMemory).await.unwrap();
        let client = embedded_client(engine.clone());
        client
            .create_table()
            .table_name("Pets")
            .billing_mode(BillingMode::PayPerRequest)
            .attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name("AnimalType")
                    .attribute_type(ScalarAttributeType::S)
                    .build()
                    .unwrap(),
            )
            .key_schema(
                KeySchemaElement::builder()
                    .attribute_name("AnimalType")
                    .key_type(KeyType::Hash)
                    .build()
                    .unwrap(),
            )
            .send()
            .await
            .unwrap();
        client
            .put_item()
            .table_name("Pets")
            .item("AnimalType", AttributeValue::S("Dog".into()))
            .send()
            .await
            .unwrap();
        let tables = client.list_tables().send().await.unwrap();
        assert_eq!(tables.table_names(), ["Pets"]);
        // The same engine, seen directly.
        assert_eq!(engine.table_count(), 1);

        // Errors come back typed, as from AWS.
        let err = client
            .describe_table()
            .table_name("Nope")
            .send()
            .await
            .unwrap_err();
        assert!(err.into_service_error().is_resource_not_found_exception());
    }
}
