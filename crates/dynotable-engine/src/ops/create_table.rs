//! CreateTable: validate the definition, allocate storage for the table and each index, and add
//! it to the catalog. Tables are ACTIVE at once (see docs/compatibility.md).
//!
//! Validation order follows the service: member constraints (one envelope), then the billing
//! mode and throughput, then the key schema against the attribute definitions, then each index.
//! Messages are the service's (rules B.7, B.8, B.10 in docs/dynamodb-rules.md); those the rules file
//! does not quote follow DynamoDB's wording as observed by dynalite and are marked "unverified".

use std::collections::BTreeSet;
use std::sync::Arc;

use dynotable_types::ScalarAttributeType;

use crate::api::table::{CreateTableInput, CreateTableOutput, GlobalSecondaryIndex, LocalSecondaryIndex};
use crate::api::{KeySchemaElement, Projection, ProvisionedThroughput, StreamSpecification};
use crate::catalog::{
    Billing, IndexKind, IndexSchema, KeyAttribute, KeySchema, ProjectionSchema, TableSchema, Throughput,
};
use crate::shape::Shape;
use crate::{ApiError, Engine, ErrorKind, begin_write, ops, storage};

mod members;
pub(crate) use members::{
    MAX_GSI_KEY_SCHEMA, MAX_KEY_PART, MAX_KEY_SCHEMA, attribute_definition_shape, index_shape,
    key_schema_shape, projection_shape, table_class_shape, throughput_shape,
};

/// Rule B.7: at most 5 LSIs and (by default) 20 GSIs per table; 100 projected non-key
/// attributes summed over all indexes.
const MAX_LSIS: usize = 5;
const MAX_GSIS: usize = 20;
const MAX_PROJECTED_ATTRIBUTES: usize = 100;
/// Rule B.7 (throughput quotas): 40,000 RCU / WCU per table and per GSI by default, a
/// LimitExceededException past it; past 10^12 a value is out of bounds (ValidationException).
const MAX_THROUGHPUT: i64 = 40_000;
const THROUGHPUT_BOUND: i64 = 1_000_000_000_000;

pub async fn run(engine: &Engine, input: CreateTableInput) -> Result<CreateTableOutput, ApiError> {
    validate_shape(&input)?;
    let mut definition = validate(&input)?;
    let stream_view_type = stream_view_type(input.stream_specification.as_ref())?;
    check_throughput_quota(&definition)?;

    // A table ARN as the TableName (the API model's `TableArn` shape) names a table of the
    // caller's region and account only.
    Engine::table_name(input.table_name.as_deref().unwrap_or_default())?;
    let mut writer = engine.writer().await;
    if engine.catalog().contains_key(&definition.name) {
        return Err(ApiError::new(
            ErrorKind::ResourceInUseException,
            format!("Table already exists: {}", definition.name),
        ));
    }
    definition.created_at = engine.now();
    let mut tx = begin_write(&mut writer).await?;
    storage::create_table(&mut tx, &mut definition).await?;
    if let Some(view_type) = stream_view_type {
        enable_stream(&mut tx, &mut definition, view_type, engine.now()).await?;
    }
    tx.commit().await?;
    let definition = Arc::new(definition);
    engine
        .catalog_mut()
        .insert(definition.name.clone(), definition.clone());
    // The service answers CREATING and the table turns ACTIVE moments later; here it is ACTIVE
    // by the time anyone can ask (DescribeTable), so waiters return at once.
    let description = ops::describe_table::describe(&mut writer, &definition, "CREATING").await?;
    Ok(CreateTableOutput {
        table_description: description,
    })
}

/// Every check CreateTable makes before it looks at the catalog, in the service's order (the
/// shape, then the semantic rules, then the stream specification): what a form can ask while the
/// user types, with the same messages `run` would answer. Whether the table already exists is
/// not part of it (that needs the catalog, and the service says it only on CreateTable).
pub fn check(input: &CreateTableInput) -> Result<(), ApiError> {
    validate_shape(input)?;
    let definition = validate(input)?;
    stream_view_type(input.stream_specification.as_ref())?;
    check_throughput_quota(&definition)?;
    Ok(())
}

/// The view types of a StreamSpecification, in the order the service lists them.
pub(crate) const STREAM_VIEW_TYPES: &[&str] = &["NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"];

/// The view type of a StreamSpecification that enables a stream; `None` when it does not.
pub(crate) fn stream_view_type(spec: Option<&StreamSpecification>) -> Result<Option<String>, ApiError> {
    let Some(spec) = spec else {
        return Ok(None);
    };
    let mut shape = Shape::new();
    shape.one_of(
        "streamSpecification.streamViewType",
        spec.stream_view_type.as_ref(),
        STREAM_VIEW_TYPES,
    );
    shape.finish()?;
    match (spec.stream_enabled, &spec.stream_view_type) {
        (Some(true), Some(view_type)) => Ok(Some(view_type.clone())),
        // Unverified wording.
        (Some(true), None) => Err(invalid(
            "You must specify a StreamViewType when enabling a stream",
        )),
        (None, _) => Err(ApiError::constraints(vec![
            dynotable_types::ConstraintViolation::not_null("streamSpecification.streamEnabled"),
        ])),
        (Some(false), _) => Ok(None),
    }
}

/// Starts a new stream on `table` (its label is the creation time, rule: DG `Streams.html`).
pub(crate) async fn enable_stream(
    conn: &mut sqlx::SqliteConnection,
    table: &mut TableSchema,
    view_type: String,
    now: f64,
) -> Result<(), ApiError> {
    let id = storage::allocate_keyspace(conn, &table.name, Some("(stream)")).await?;
    table.streams.push(crate::catalog::StreamSchema {
        id,
        label: crate::streams::label_for(now),
        view_type,
        created_at: now,
        enabled: true,
    });
    storage::save_table(conn, table).await
}

/// Member constraints, reported together as the service does — after the TableName, which the
/// service checks first and on its own: missing, `The parameter 'TableName' is required but was
/// not present in the request`; shorter than 3 or longer than 255 characters, `TableName must be
/// at least 3 characters long and at most 255 characters long` (dynalite's createTable tests,
/// recorded from the service; a name of the right length with other characters is reported in
/// the list, at 'tableName').
fn validate_shape(input: &CreateTableInput) -> Result<(), ApiError> {
    let Some(name) = &input.table_name else {
        return Err(ApiError::validation(
            "The parameter 'TableName' is required but was not present in the request",
        ));
    };
    // The TableName may be the ARN of the table to create (the API model gives it the shape
    // `TableArn`, "You can also provide the Amazon Resource Name (ARN) of the table in this
    // parameter"); the name rules apply to the name it ends in.
    let name = crate::shape::table_name_of(name).to_owned();
    if !(3..=255).contains(&name.chars().count()) {
        return Err(ApiError::validation(
            "TableName must be at least 3 characters long and at most 255 characters long",
        ));
    }
    let mut shape = Shape::new();
    if let Some(definitions) = &input.attribute_definitions {
        for (i, d) in definitions.iter().enumerate() {
            attribute_definition_shape(&mut shape, i + 1, d);
        }
    } else {
        shape.required::<()>("attributeDefinitions", None);
    }
    shape.name("tableName", Some(&name));
    key_schema_shape(
        &mut shape,
        "keySchema",
        input.key_schema.as_deref(),
        MAX_KEY_SCHEMA,
    );
    if let Some(lsis) = &input.local_secondary_indexes {
        for (i, lsi) in lsis.iter().enumerate() {
            let prefix = format!("localSecondaryIndexes.{}.member", i + 1);
            index_shape(
                &mut shape,
                &prefix,
                lsi.index_name.as_ref(),
                (lsi.key_schema.as_deref(), MAX_KEY_SCHEMA),
                lsi.projection.as_ref(),
            );
        }
    }
    if let Some(gsis) = &input.global_secondary_indexes {
        for (i, gsi) in gsis.iter().enumerate() {
            let prefix = format!("globalSecondaryIndexes.{}.member", i + 1);
            index_shape(
                &mut shape,
                &prefix,
                gsi.index_name.as_ref(),
                (gsi.key_schema.as_deref(), MAX_GSI_KEY_SCHEMA),
                gsi.projection.as_ref(),
            );
            if let Some(t) = &gsi.provisioned_throughput {
                throughput_shape(&mut shape, &format!("{prefix}.provisionedThroughput"), t);
            }
        }
    }
    shape.one_of(
        "billingMode",
        input.billing_mode.as_ref(),
        &["PROVISIONED", "PAY_PER_REQUEST"],
    );
    if let Some(t) = &input.provisioned_throughput {
        throughput_shape(&mut shape, "provisionedThroughput", t);
    }
    table_class_shape(&mut shape, input.table_class.as_ref());
    shape.finish()
}

fn invalid(message: impl AsRef<str>) -> ApiError {
    ApiError::validation(format!(
        "One or more parameter values were invalid: {}",
        message.as_ref()
    ))
}

/// The semantic rules, after the shape passed.
fn validate(input: &CreateTableInput) -> Result<TableSchema, ApiError> {
    let name = crate::shape::table_name_of(input.table_name.as_deref().unwrap_or_default()).to_owned();
    let billing = billing(
        input.billing_mode.as_deref(),
        input.provisioned_throughput.as_ref(),
    )?;

    // Attribute definitions: unique names, each typed. Rule B.15 (CreateTable's attribute
    // definitions): a name given twice is `Attribute Name is duplicated: <name>`.
    let mut definitions: Vec<KeyAttribute> = Vec::new();
    for d in input.attribute_definitions.iter().flatten() {
        let attr_name = d.attribute_name.clone().unwrap_or_default();
        if definitions.iter().any(|a| a.name == attr_name) {
            return Err(ApiError::validation(format!(
                "Attribute Name is duplicated: {attr_name}"
            )));
        }
        let ty = scalar_type(d.attribute_type.as_deref().unwrap_or_default());
        definitions.push(KeyAttribute { name: attr_name, ty });
    }

    let table_elements = input.key_schema.as_deref().unwrap_or_default();
    check_table_key_definitions(table_elements, &definitions)?;
    let key = key_schema(table_elements, &definitions)?;
    let mut used: BTreeSet<String> = key.attributes().map(|a| a.name.clone()).collect();

    // Rule B.15: without indexes, every definition must be one of the table's key attributes.
    if input.local_secondary_indexes.is_none()
        && input.global_secondary_indexes.is_none()
        && definitions.len() != table_elements.len()
    {
        return Err(invalid(
            "Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions",
        ));
    }

    let lsis = input.local_secondary_indexes.as_deref().unwrap_or_default();
    let gsis = input.global_secondary_indexes.as_deref().unwrap_or_default();
    if input.local_secondary_indexes.is_some() && lsis.is_empty() {
        return Err(invalid("List of LocalSecondaryIndexes is empty"));
    }
    if input.global_secondary_indexes.is_some() && gsis.is_empty() {
        return Err(invalid("List of GlobalSecondaryIndexes is empty"));
    }

    let mut indexes = Vec::new();
    for lsi in lsis {
        indexes.push(local_index(lsi, &key, &definitions)?);
    }
    for gsi in gsis {
        indexes.push(global_index(gsi, &key, &definitions, &billing)?);
    }
    check_index_names(&indexes)?;
    if lsis.len() > MAX_LSIS {
        return Err(invalid(format!(
            "Number of LocalSecondaryIndexes exceeds per-table limit of {MAX_LSIS}"
        )));
    }
    if gsis.len() > MAX_GSIS {
        // Rule B.7: ValidationException here, LimitExceededException on UpdateTable (a live
        // probe of 2026-10-08, docs/dynamodb-rules.md).
        return Err(invalid(format!(
            "GlobalSecondaryIndex count exceeds the per-table limit of {MAX_GSIS}"
        )));
    }
    check_projected_count(&indexes)?;
    for index in &indexes {
        used.extend(index.key.attributes().map(|a| a.name.clone()));
    }

    // Rule B.15: with indexes, every attribute definition must be a key attribute of the table
    // or an index.
    if definitions.len() != used.len() || definitions.iter().any(|d| !used.contains(&d.name)) {
        let defined: Vec<&str> = definitions.iter().map(|a| a.name.as_str()).collect();
        let keys: Vec<&str> = used.iter().map(String::as_str).collect();
        return Err(invalid(format!(
            "Some AttributeDefinitions are not used. AttributeDefinitions: [{}], keys used: [{}]",
            defined.join(", "),
            keys.join(", ")
        )));
    }

    Ok(TableSchema {
        name,
        table_id: new_table_id(),
        keyspace: 0,
        key,
        attribute_definitions: definitions,
        billing,
        indexes,
        created_at: 0.0,
        deletion_protection: input.deletion_protection_enabled.unwrap_or(false),
        table_class: input.table_class.clone().unwrap_or_else(|| "STANDARD".into()),
        tags: crate::ops::tags::tags_of(input.tags.as_deref().unwrap_or_default())?,
        ttl: None,
        streams: Vec::new(),
    })
}

pub(crate) fn billing(
    mode: Option<&str>,
    throughput: Option<&ProvisionedThroughput>,
) -> Result<Billing, ApiError> {
    match (mode.unwrap_or("PROVISIONED"), throughput) {
        ("PAY_PER_REQUEST", None) => Ok(Billing::PayPerRequest),
        ("PAY_PER_REQUEST", Some(_)) => Err(invalid(
            "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST",
        )),
        (_, None) => Err(invalid(
            "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED",
        )),
        (_, Some(t)) => Ok(Billing::Provisioned(throughput_of(t)?)),
    }
}

/// Rule B.7: a unit count past 10^12 is `Given value <n> for ReadCapacityUnits is out of bounds`
/// (dynalite's tests, run against the service: read first, no prefix).
pub(crate) fn throughput_of(t: &ProvisionedThroughput) -> Result<Throughput, ApiError> {
    let read = t.read_capacity_units.unwrap_or(1);
    let write = t.write_capacity_units.unwrap_or(1);
    for (value, name) in [(read, "ReadCapacityUnits"), (write, "WriteCapacityUnits")] {
        if value > THROUGHPUT_BOUND {
            return Err(ApiError::validation(format!(
                "Given value {value} for {name} is out of bounds"
            )));
        }
    }
    Ok(Throughput { read, write })
}

/// Rule B.7 (throughput quotas): after the request's validation, a table's or a GSI's
/// provisioned units above the account's per-table (per-index) maximum are a
/// LimitExceededException naming the request's region, as the service answers CreateTable and
/// UpdateTable (the index sentence is reconstructed around the captured part, see
/// docs/compatibility.md).
pub(crate) fn check_throughput_quota(table: &TableSchema) -> Result<(), ApiError> {
    let region = crate::identity::current().region;
    let exceeded = |units: &str, value: i64, index: Option<&str>| {
        let message = match index {
            None => format!(
                "The requested {units}, {value}, is above the per table maximum for the account in {region}. Per table maximum: {MAX_THROUGHPUT}. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits."
            ),
            Some(index) => format!(
                "The requested {units} for index {index}, {value}, is above the per index maximum for the account in {region}. Per index maximum: {MAX_THROUGHPUT}. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits."
            ),
        };
        ApiError::new(ErrorKind::LimitExceededException, message)
    };
    let check = |t: &Throughput, index: Option<&str>| -> Result<(), ApiError> {
        if t.read > MAX_THROUGHPUT {
            return Err(exceeded("ReadCapacityUnits", t.read, index));
        }
        if t.write > MAX_THROUGHPUT {
            return Err(exceeded("WriteCapacityUnits", t.write, index));
        }
        Ok(())
    };
    if let Billing::Provisioned(t) = &table.billing {
        check(t, None)?;
    }
    for index in &table.indexes {
        if let Some(t) = &index.throughput {
            check(t, Some(&index.name))?;
        }
    }
    Ok(())
}

/// Rule B.15 (CreateTable's attribute definitions): the table's key schema against the
/// definitions, before its roles are looked at. More key elements than definitions is `Invalid
/// KeySchema: Some index key attribute have no definition`; a key attribute without a definition
/// names the table's key attributes and the definitions, in the order sent.
fn check_table_key_definitions(
    elements: &[KeySchemaElement],
    definitions: &[KeyAttribute],
) -> Result<(), ApiError> {
    if elements.len() > definitions.len() {
        return Err(ApiError::validation(
            "Invalid KeySchema: Some index key attribute have no definition",
        ));
    }
    let name = |e: &KeySchemaElement| e.attribute_name.clone().unwrap_or_default();
    if elements
        .iter()
        .any(|e| !definitions.iter().any(|d| d.name == name(e)))
    {
        let keys: Vec<String> = elements.iter().map(name).collect();
        return Err(undefined_keys(&keys, definitions));
    }
    Ok(())
}

/// Rule B.15: an index key attribute without a definition names the index's undefined key
/// attributes and the definitions; checked before the index's key roles.
pub(crate) fn check_index_key_definitions(
    elements: &[KeySchemaElement],
    definitions: &[KeyAttribute],
) -> Result<(), ApiError> {
    let missing: Vec<String> = elements
        .iter()
        .map(|e| e.attribute_name.clone().unwrap_or_default())
        .filter(|name| !definitions.iter().any(|d| &d.name == name))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(undefined_keys(&missing, definitions))
}

fn undefined_keys(keys: &[String], definitions: &[KeyAttribute]) -> ApiError {
    let defined: Vec<&str> = definitions.iter().map(|d| d.name.as_str()).collect();
    invalid(format!(
        "Some index key attributes are not defined in AttributeDefinitions. Keys: [{}], AttributeDefinitions: [{}]",
        keys.join(", "),
        defined.join(", ")
    ))
}

fn scalar_type(text: &str) -> ScalarAttributeType {
    match text {
        "N" => ScalarAttributeType::N,
        "B" => ScalarAttributeType::B,
        _ => ScalarAttributeType::S,
    }
}

/// A key schema's roles and definitions (a table's, an LSI's, or a GSI's of one HASH and one RANGE).
pub(crate) fn key_schema(
    elements: &[KeySchemaElement],
    definitions: &[KeyAttribute],
) -> Result<KeySchema, ApiError> {
    let find = |element: &KeySchemaElement| -> Result<KeyAttribute, ApiError> {
        let name = element.attribute_name.as_deref().unwrap_or_default();
        definitions
            .iter()
            .find(|d| d.name == name)
            .cloned()
            .ok_or_else(|| {
                ApiError::validation("Invalid KeySchema: Some index key attribute have no definition")
            })
    };
    // Rule B.15 (CreateTable's key schema): the same attribute twice, then exactly one HASH,
    // first, and at most one RANGE, second (two HASH elements are "The second KeySchemaElement
    // is not a RANGE key type", as the service answers).
    let roles: Vec<&str> = elements
        .iter()
        .map(|e| e.key_type.as_deref().unwrap_or_default())
        .collect();
    if roles.len() == 2 && elements[0].attribute_name == elements[1].attribute_name {
        return Err(ApiError::validation(
            "Both the Hash Key and the Range Key element in the KeySchema have the same name",
        ));
    }
    if roles.first() != Some(&"HASH") {
        return Err(ApiError::validation(
            "Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
        ));
    }
    if roles.len() == 2 && roles[1] != "RANGE" {
        return Err(ApiError::validation(
            "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type",
        ));
    }
    let partition = find(&elements[0])?;
    let sort = elements.get(1).map(find).transpose()?;
    Ok(KeySchema::simple(partition, sort))
}

/// A global secondary index's key schema: up to four HASH elements, then up to four RANGE
/// elements (rule B.18.2, in the order the service checks them); a key of one HASH and at most
/// one RANGE goes through [`key_schema`] and its messages.
pub(crate) fn gsi_key_schema(
    elements: &[KeySchemaElement],
    definitions: &[KeyAttribute],
) -> Result<KeySchema, ApiError> {
    fn role(e: &KeySchemaElement) -> &str {
        e.key_type.as_deref().unwrap_or_default()
    }
    let hashes = elements.iter().filter(|e| role(e) == "HASH").count();
    let ranges = elements.len() - hashes;
    if hashes <= 1 && ranges <= 1 {
        return key_schema(elements, definitions);
    }
    if elements.first().map(role) != Some("HASH") {
        return Err(ApiError::validation(
            "Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
        ));
    }
    if elements[hashes..].iter().any(|e| role(e) == "HASH") {
        return Err(invalid(
            "All HASH key attributes must precede RANGE key attributes in the KeySchema",
        ));
    }
    for (count, what) in [(hashes, "HASH"), (ranges, "RANGE")] {
        if count > MAX_KEY_PART {
            return Err(invalid(format!(
                "The KeySchema exceeds the maximum allowed number of {what} key attributes"
            )));
        }
    }
    let mut names = BTreeSet::new();
    if !elements.iter().all(|e| names.insert(e.attribute_name.as_deref())) {
        return Err(ApiError::validation(
            "The KeySchema contains multiple key attributes with the same name",
        ));
    }
    let mut partition = elements[..hashes].iter().map(find_definition(definitions));
    let mut sort = elements[hashes..].iter().map(find_definition(definitions));
    Ok(KeySchema {
        partition: partition
            .next()
            .unwrap_or_else(|| Err(ApiError::internal("no HASH element")))?,
        sort: sort.next().transpose()?,
        more_partition: partition.collect::<Result<_, _>>()?,
        more_sort: sort.collect::<Result<_, _>>()?,
    })
}

/// The definition of a key schema element's attribute.
fn find_definition(
    definitions: &[KeyAttribute],
) -> impl Fn(&KeySchemaElement) -> Result<KeyAttribute, ApiError> + '_ {
    move |element| {
        let name = element.attribute_name.as_deref().unwrap_or_default();
        definitions
            .iter()
            .find(|d| d.name == name)
            .cloned()
            .ok_or_else(|| {
                ApiError::validation("Invalid KeySchema: Some index key attribute have no definition")
            })
    }
}

pub(crate) fn projection_of(p: Option<&Projection>, index: &str) -> Result<ProjectionSchema, ApiError> {
    let p = p.cloned().unwrap_or_default();
    match (p.projection_type.as_deref(), p.non_key_attributes) {
        (Some("INCLUDE"), Some(names)) if !names.is_empty() => Ok(ProjectionSchema::Include(names)),
        (Some("INCLUDE"), _) => Err(invalid(format!(
            "NonKeyAttributes must not be empty when ProjectionType is INCLUDE for index: {index}"
        ))),
        (Some(kind @ ("ALL" | "KEYS_ONLY")), Some(_)) => Err(invalid(format!(
            "ProjectionType is {kind}, but NonKeyAttributes is specified"
        ))),
        (Some("KEYS_ONLY"), None) => Ok(ProjectionSchema::KeysOnly),
        (None, _) => Err(invalid(format!(
            "Unknown ProjectionType: null for index: {index}"
        ))),
        _ => Ok(ProjectionSchema::All),
    }
}

fn local_index(
    lsi: &LocalSecondaryIndex,
    table: &KeySchema,
    definitions: &[KeyAttribute],
) -> Result<IndexSchema, ApiError> {
    let name = lsi.index_name.clone().unwrap_or_default();
    if table.sort.is_none() {
        return Err(invalid(
            "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex",
        ));
    }
    let elements = lsi.key_schema.as_deref().unwrap_or_default();
    check_index_key_definitions(elements, definitions)?;
    let key = key_schema(elements, definitions)?;
    if key.partition.name != table.partition.name {
        return Err(invalid(format!(
            "Index KeySchema does not have the same leading hash key as table KeySchema for index: {name}. index hash key: {}, table hash key: {}",
            key.partition.name, table.partition.name
        )));
    }
    if key.sort.is_none() {
        return Err(invalid(format!(
            "Index KeySchema must have a range key for index: {name}"
        )));
    }
    Ok(IndexSchema {
        projection: projection_of(lsi.projection.as_ref(), &name)?,
        name,
        kind: IndexKind::Local,
        keyspace: 0,
        key,
        throughput: None,
    })
}

fn global_index(
    gsi: &GlobalSecondaryIndex,
    table: &KeySchema,
    definitions: &[KeyAttribute],
    billing: &Billing,
) -> Result<IndexSchema, ApiError> {
    let _ = table;
    let name = gsi.index_name.clone().unwrap_or_default();
    let elements = gsi.key_schema.as_deref().unwrap_or_default();
    check_index_key_definitions(elements, definitions)?;
    let key = gsi_key_schema(elements, definitions)?;
    let projection = projection_of(gsi.projection.as_ref(), &name)?;
    let throughput = match (billing, &gsi.provisioned_throughput) {
        (Billing::PayPerRequest, None) => None,
        (Billing::PayPerRequest, Some(_)) => {
            return Err(invalid(format!(
                "ProvisionedThroughput should not be specified for index: {name} when BillingMode is PAY_PER_REQUEST"
            )));
        }
        (Billing::Provisioned(_), None) => {
            return Err(invalid(format!(
                "ProvisionedThroughput must be specified for index: {name}"
            )));
        }
        (Billing::Provisioned(_), Some(t)) => Some(throughput_of(t)?),
    };
    Ok(IndexSchema {
        name,
        kind: IndexKind::Global,
        keyspace: 0,
        key,
        projection,
        throughput,
    })
}

fn check_index_names(indexes: &[IndexSchema]) -> Result<(), ApiError> {
    let mut seen = BTreeSet::new();
    for index in indexes {
        if !seen.insert(index.name.as_str()) {
            return Err(invalid(format!("Duplicate index name: {}", index.name)));
        }
    }
    Ok(())
}

pub(crate) fn check_projected_count(indexes: &[IndexSchema]) -> Result<(), ApiError> {
    let projected: usize = indexes
        .iter()
        .map(|i| match &i.projection {
            ProjectionSchema::Include(names) => names.len(),
            _ => 0,
        })
        .sum();
    if projected > MAX_PROJECTED_ATTRIBUTES {
        // Unverified wording.
        return Err(invalid(format!(
            "Number of projected attributes in all indexes exceeds limit of {MAX_PROJECTED_ATTRIBUTES}"
        )));
    }
    Ok(())
}

/// A random id in the UUID format the service reports as `TableId`.
fn new_table_id() -> String {
    uuid::Uuid::new_v4().to_string()
}
