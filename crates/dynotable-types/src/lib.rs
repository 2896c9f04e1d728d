//! DynamoDB's data model, shared by the engine, the expression language and the server.
