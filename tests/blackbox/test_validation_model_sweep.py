"""Issue 18, group 4: a sweep of the service's own model. For every operation dynotable-local
serves, botocore's API model (DynamoDB and DynamoDB Streams) gives each input member its
constraints: required, min/max length of strings, lists and maps, min/max of numbers, pattern,
enumeration. Each case sends one valid request with exactly one of them broken, as written (signed
HTTP, no client-side checks), and expects a ValidationException that lists that member
(docs/dynamodb-rules.md B.15, B.21: `Value '...' at '<camelCase path>' failed to satisfy constraint:
...`), or, where the service is known to answer in its own words, that sentence (OWN_SENTENCES).
Each case is then sent again naming a table that does not exist (CreateTable: one that exists):
the answer must be the same ValidationException: member errors come before
ResourceNotFoundException and ResourceInUseException (rules B.10, B.15).

The cases are generated when the file is collected; each starts its own server and makes its own
tables. Constraints left out are in EXCLUDED, each with the reason.
"""

import copy
import json
import re
import urllib.error
import urllib.request
import uuid

import botocore.auth
import botocore.awsrequest
import botocore.credentials
import botocore.session
import pytest

from conftest import ACCESS_KEY, REGION, SECRET_KEY

MODELS = {"dynamodb": botocore.session.get_session().get_service_model("dynamodb"),
          "dynamodbstreams": botocore.session.get_session().get_service_model("dynamodbstreams")}
STREAMS_OPS = {"ListStreams", "DescribeStream", "GetShardIterator", "GetRecords"}

# ---- Constraints not swept, and why. Each entry: (operation or "*", member path, constraint,
# reason). Paths are the model's members, `[]` a list member, `{k}`/`{v}` a map's keys/values. ----

NOT_RECORDED = ("DynamoDB's answer to this value is not recorded in any capture or test run against "
                "the service that we know of; docs/compatibility.md lists it as an open point")
EXCLUDED = [
    ("*", "attribute names", "max 65535",
     "Attribute names (map keys of Key, Item, Expected, ExclusiveStartKey, KeyConditions, QueryFilter, "
     "ScanFilter, AttributeUpdates; values of ExpressionAttributeNames; members of AttributesToGet) of "
     "65,536 characters: " + NOT_RECORDED),
    ("TagResource", "ResourceArn", "min/max",
     "The service's ResourceArn sentences were captured for values that are not ARNs (rule B.15); an "
     "empty or 1,284-character one: " + NOT_RECORDED),
    ("UntagResource", "ResourceArn", "min/max", "As for TagResource."),
    ("ListTagsOfResource", "ResourceArn", "min/max", "As for TagResource."),
    ("BatchGetItem", "RequestItems", "max",
     "Past 100 keys in all the service answers `Too many items requested for the BatchGetItem call` "
     "(rule B.10); whether 101 tables of one key each get that sentence or the map's own length "
     "constraint: " + NOT_RECORDED),
    ("BatchWriteItem", "RequestItems", "max", "As for BatchGetItem, with 25 requests and 26 tables."),
    ("CreateTable", "GlobalTableSourceArn", "min/max",
     "dynotable-local serves no global tables: the members that make or change replicas and witnesses "
     "are not read, so not checked (docs/compatibility.md, open point)."),
    ("CreateTable", "GlobalTableSettingsReplicationMode", "enum", "As for GlobalTableSourceArn."),
    ("UpdateTable", "ReplicaUpdates", "*", "As for CreateTable's GlobalTableSourceArn."),
    ("UpdateTable", "GlobalTableWitnessUpdates", "*", "As for CreateTable's GlobalTableSourceArn."),
    ("UpdateTable", "MultiRegionConsistency", "enum", "As for CreateTable's GlobalTableSourceArn."),
    ("UpdateTable", "GlobalTableSettingsReplicationMode", "enum", "As for CreateTable's GlobalTableSourceArn."),
]


def excluded(op, path, kind, arg):
    # The first entry: in the operations served, a maximum of 65535 is the model's bound on an
    # attribute name and on nothing else.
    if kind == "max" and arg == 65535:
        return True
    for e_op, e_path, e_kind, _ in EXCLUDED[1:]:
        if e_op == op and (path == e_path or path.startswith(e_path + ".") or path.startswith(e_path + "[")) \
                and (e_kind == "*" or kind in e_kind.split("/")):
            return True
    return False


# Values of an enumeration dynotable-local does not serve, so does not list (docs/compatibility.md).
NOT_SERVED = {
    # The Streams model's AT_TIMESTAMP iterator (with its Timestamp member) is not served.
    "ShardIteratorType": {"AT_TIMESTAMP"},
}

# Members the service answers with a sentence of its own, not the member list: (operation, path,
# constraint) -> (the answer as a regular expression, its source).
OWN_SENTENCES = {
    **{("CreateTable", "TableName", kind): (
        re.escape("The parameter 'TableName' is required but was not present in the request") if kind == "required"
        else re.escape("TableName must be at least 3 characters long and at most 255 characters long"),
        "rule B.15 (dynalite's createTable tests, recorded from the service)") for kind in ("required", "min", "max")},
    **{(op, "RequestItems", "min"): (re.escape(f"The requestItems parameter is required for {op}"),
                                     "rule B.15 (DynamoDB Local's list)") for op in ("BatchGetItem", "BatchWriteItem")},
    **{(op, "RequestItems.{k}", kind): (
        r"1 validation error detected: Value '.*' at 'requestItems\..*\.member\.tableName' failed to satisfy "
        r"constraint: Member must have length (greater|less) than or equal to \d+",
        "a table's name as the key is checked as a TableName, at our path (the service's is not recorded)")
        for op in ("BatchGetItem", "BatchWriteItem") for kind in ("min", "max")},
    ("BatchGetItem", "RequestItems.{v}.Keys", "max"): (
        re.escape("1 validation error detected: Value at 'RequestItems.Pets.member.Keys' failed to satisfy "
                  "constraint: Member must have length less than or equal to 100"), "rule B.10 (live service)"),
    **{("BatchWriteItem", "RequestItems.{v}", kind): (
        r"1 validation error detected: Value .* at 'requestItems' failed to satisfy constraint: Map value must "
        r"satisfy constraint: \[Member must have length less than or equal to 25, Member must have length "
        r"greater than or equal to 1\]", "rule B.10 (live service)") for kind in ("min", "max")},
    **{(op, f"Tags[].{member}", kind): (
        rf"The Tag {member} provided is invalid, {member}: .*",
        "ops/tags.rs: observed from the service with client-side validation off")
        for op in ("TagResource", "CreateTable") for member in ("Key", "Value") for kind in ("required", "min", "max")},
    **{("UntagResource", "TagKeys[]", kind): (r"The Tag Key provided is invalid, Key: .*", "as for Tags[].Key")
       for kind in ("min", "max")},
    ("UpdateTimeToLive", "TimeToLiveSpecification.AttributeName", "min"): (
        re.escape("TimeToLiveSpecification.AttributeName must be non empty"),
        "rule B.17 (dynalite's updateTimeToLive tests, recorded from the service)"),
    **{(op, path, "min"): (
        r"One or more parameter values were invalid: NonKeyAttributes must not be empty when ProjectionType "
        r"is INCLUDE for index: \w+", "the engine's sentence for an empty list (docs/compatibility.md, open point)")
        for op, path in (("CreateTable", "LocalSecondaryIndexes[].Projection.NonKeyAttributes"),
                         ("CreateTable", "GlobalSecondaryIndexes[].Projection.NonKeyAttributes"),
                         ("UpdateTable", "GlobalSecondaryIndexUpdates[].Create.Projection.NonKeyAttributes"))},
}

# ---- Valid requests, one or more per operation. A case breaks the first one that has the member. ----

TABLE = "Pets"
KEY = {"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}}
ITEM = {**KEY, "Age": {"N": "3"}, "Color": {"S": "brown"}}
EXPECTED = {"Age": {"ComparisonOperator": "NOT_NULL"}, "Color": {"ComparisonOperator": "NOT_NULL"}}
FILTER = {"Color": {"ComparisonOperator": "NOT_NULL"}, "Legs": {"ComparisonOperator": "NULL"}}
NAMES = {"#a": "Age"}
START = {**KEY, "Age": {"N": "1"}}


def cat(name):
    return {"AnimalType": {"S": "Cat"}, "Name": {"S": name}}


def index(name, *keys, throughput=False, projection=None):
    schema = [{"AttributeName": k, "KeyType": t} for k, t in zip(keys, ("HASH", "RANGE"))]
    index = {"IndexName": name, "KeySchema": schema,
             "Projection": projection or {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["x"]}}
    if throughput:
        index["ProvisionedThroughput"] = {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}
    return index


def definitions(**types):
    return [{"AttributeName": n, "AttributeType": t} for n, t in types.items()]


RETURNS = dict(ReturnValues="ALL_OLD", ReturnConsumedCapacity="TOTAL", ReturnItemCollectionMetrics="SIZE",
               ReturnValuesOnConditionCheckFailure="ALL_OLD")
BASES = {
    "DescribeTable": lambda c: [dict(TableName=TABLE)],
    "DescribeTimeToLive": lambda c: [dict(TableName=TABLE)],
    "DescribeContinuousBackups": lambda c: [dict(TableName=TABLE)],
    "DeleteTable": lambda c: [dict(TableName="Del")],
    "ListTables": lambda c: [dict(ExclusiveStartTableName=TABLE, Limit=10)],
    "GetItem": lambda c: [
        dict(TableName=TABLE, Key=KEY, AttributesToGet=["Age"], ConsistentRead=True, ReturnConsumedCapacity="TOTAL"),
        dict(TableName=TABLE, Key=KEY, ProjectionExpression="#a", ExpressionAttributeNames=NAMES)],
    "PutItem": lambda c: [
        dict(TableName=TABLE, Item=ITEM, Expected=EXPECTED, ConditionalOperator="AND", **RETURNS),
        dict(TableName=TABLE, Item=ITEM, ConditionExpression="attribute_exists(#a)", ExpressionAttributeNames=NAMES)],
    "UpdateItem": lambda c: [
        dict(TableName=TABLE, Key=KEY, AttributeUpdates={"Age": {"Action": "PUT", "Value": {"N": "3"}}},
             Expected=EXPECTED, ConditionalOperator="AND", **{**RETURNS, "ReturnValues": "ALL_NEW"}),
        dict(TableName=TABLE, Key=KEY, UpdateExpression="SET #a = :v", ExpressionAttributeNames=NAMES,
             ExpressionAttributeValues={":v": {"N": "3"}})],
    "DeleteItem": lambda c: [
        dict(TableName=TABLE, Key=KEY, Expected=EXPECTED, ConditionalOperator="AND", **RETURNS),
        dict(TableName=TABLE, Key=KEY, ConditionExpression="attribute_exists(#a)", ExpressionAttributeNames=NAMES)],
    "Query": lambda c: [
        dict(TableName=TABLE, IndexName="ByAge",
             KeyConditions={"AnimalType": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "Dog"}]}},
             QueryFilter=FILTER, ConditionalOperator="AND", AttributesToGet=["Name"], Select="SPECIFIC_ATTRIBUTES",
             Limit=10, ConsistentRead=True, ExclusiveStartKey=START, ReturnConsumedCapacity="INDEXES"),
        dict(TableName=TABLE, KeyConditionExpression="#k = :v", ProjectionExpression="#n",
             ExpressionAttributeNames={"#k": "AnimalType", "#n": "Name"}, ExpressionAttributeValues={":v": {"S": "Dog"}})],
    "Scan": lambda c: [
        dict(TableName=TABLE, IndexName="ByAge", ScanFilter=FILTER, ConditionalOperator="AND",
             AttributesToGet=["Name"], Select="SPECIFIC_ATTRIBUTES", Limit=10, Segment=0, TotalSegments=1,
             ExclusiveStartKey=START, ReturnConsumedCapacity="INDEXES"),
        dict(TableName=TABLE, ProjectionExpression="#n", ExpressionAttributeNames={"#n": "Name"})],
    "BatchGetItem": lambda c: [
        dict(RequestItems={TABLE: {"Keys": [KEY], "AttributesToGet": ["Age"], "ConsistentRead": True}},
             ReturnConsumedCapacity="TOTAL"),
        dict(RequestItems={TABLE: {"Keys": [KEY], "ProjectionExpression": "#a", "ExpressionAttributeNames": NAMES}})],
    "BatchWriteItem": lambda c: [
        dict(RequestItems={TABLE: [{"PutRequest": {"Item": ITEM}}, {"DeleteRequest": {"Key": cat("Tom")}}]},
             ReturnConsumedCapacity="TOTAL", ReturnItemCollectionMetrics="SIZE")],
    "UpdateTimeToLive": lambda c: [
        dict(TableName="Ttl", TimeToLiveSpecification={"Enabled": True, "AttributeName": "expires"})],
    "TagResource": lambda c: [dict(ResourceArn=c["arn"], Tags=[{"Key": "k", "Value": "v"}])],
    "UntagResource": lambda c: [dict(ResourceArn=c["arn"], TagKeys=["k"])],
    "ListTagsOfResource": lambda c: [dict(ResourceArn=c["arn"])],
    "TransactWriteItems": lambda c: [dict(TransactItems=[
        {"ConditionCheck": {"TableName": TABLE, "Key": KEY, "ConditionExpression": "attribute_exists(#a)",
                            "ExpressionAttributeNames": NAMES, "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
        {"Put": {"TableName": TABLE, "Item": cat("Max"), "ConditionExpression": "attribute_not_exists(#a)",
                 "ExpressionAttributeNames": NAMES, "ReturnValuesOnConditionCheckFailure": "NONE"}},
        {"Delete": {"TableName": TABLE, "Key": cat("Tom"), "ConditionExpression": "attribute_not_exists(#a)",
                    "ExpressionAttributeNames": NAMES, "ReturnValuesOnConditionCheckFailure": "NONE"}},
        {"Update": {"TableName": TABLE, "Key": cat("Kit"), "UpdateExpression": "SET #a = :v",
                    "ExpressionAttributeNames": NAMES, "ExpressionAttributeValues": {":v": {"N": "1"}},
                    "ReturnValuesOnConditionCheckFailure": "NONE"}},
    ], ReturnConsumedCapacity="TOTAL", ReturnItemCollectionMetrics="SIZE", ClientRequestToken=str(uuid.uuid4()))],
    "TransactGetItems": lambda c: [dict(TransactItems=[
        {"Get": {"TableName": TABLE, "Key": KEY, "ProjectionExpression": "#a", "ExpressionAttributeNames": NAMES}}],
        ReturnConsumedCapacity="TOTAL")],
    "ExecuteStatement": lambda c: [
        dict(Statement=f'SELECT * FROM "{TABLE}" WHERE AnimalType = ?', Parameters=[{"S": "Dog"}],
             ConsistentRead=True, Limit=10, ReturnConsumedCapacity="TOTAL", ReturnValuesOnConditionCheckFailure="NONE")],
    "BatchExecuteStatement": lambda c: [dict(Statements=[
        {"Statement": f'SELECT * FROM "{TABLE}" WHERE AnimalType = ? AND Name = ?',
         "Parameters": [{"S": "Dog"}, {"S": "Fido"}], "ConsistentRead": True,
         "ReturnValuesOnConditionCheckFailure": "NONE"}], ReturnConsumedCapacity="TOTAL")],
    "ExecuteTransaction": lambda c: [dict(TransactStatements=[
        {"Statement": f'UPDATE "{TABLE}" SET Age = 3 WHERE AnimalType = ? AND Name = ?',
         "Parameters": [{"S": "Dog"}, {"S": "Fido"}], "ReturnValuesOnConditionCheckFailure": "NONE"}],
        ClientRequestToken=str(uuid.uuid4()), ReturnConsumedCapacity="TOTAL")],
    "CreateTable": lambda c: [dict(
        TableName="NewTable", AttributeDefinitions=definitions(pk="S", sk="S", lk="N", gk="S"),
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        LocalSecondaryIndexes=[index("Lsi", "pk", "lk")], GlobalSecondaryIndexes=[index("Gsi", "gk", throughput=True)],
        BillingMode="PROVISIONED", ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
        Tags=[{"Key": "k", "Value": "v"}], TableClass="STANDARD", DeletionProtectionEnabled=False)],
    "UpdateTable": lambda c: [
        dict(TableName="Upd", AttributeDefinitions=definitions(c="S"),
             GlobalSecondaryIndexUpdates=[{"Create": index("Gs2", "c", throughput=True)}]),
        dict(TableName="Upd", GlobalSecondaryIndexUpdates=[{"Update": {
            "IndexName": "Gs1", "ProvisionedThroughput": {"ReadCapacityUnits": 2, "WriteCapacityUnits": 2}}}]),
        dict(TableName="Upd", GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "Gs1"}}]),
        dict(TableName="Upd", BillingMode="PROVISIONED",
             ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}),
        dict(TableName="Upd", StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}),
        dict(TableName="Upd", TableClass="STANDARD_INFREQUENT_ACCESS")],
    "ListStreams": lambda c: [dict(TableName=TABLE, Limit=10, ExclusiveStartStreamArn=c["stream"])],
    "DescribeStream": lambda c: [
        dict(StreamArn=c["stream"], Limit=10, ExclusiveStartShardId=c["shard"]),
        dict(StreamArn=c["stream"], ShardFilter={"Type": "CHILD_SHARDS", "ShardId": c["shard"]})],
    "GetShardIterator": lambda c: [dict(StreamArn=c["stream"], ShardId=c["shard"],
                                        ShardIteratorType="AT_SEQUENCE_NUMBER", SequenceNumber=c["sequence"])],
    "GetRecords": lambda c: [dict(ShardIterator=c["iterator"], Limit=10)],
}
# A request that may change these tables gets them made afresh.
OWN_TABLES = {"DeleteTable": "Del", "UpdateTable": "Upd", "UpdateTimeToLive": "Ttl"}
# Values for collecting the cases (the constraints do not depend on them).
PLACEHOLDERS = {"arn": f"arn:aws:dynamodb:{REGION}:000000000000:table/{TABLE}", "stream": "s", "shard": "s",
                "sequence": "1", "iterator": "i"}

# ---- Walking the model beside a base request ----


class MapKey:
    def __repr__(self):
        return "{k}"


class MapValue:
    def __repr__(self):
        return "{v}"


def show(path):
    """`Tags[].Key`, `RequestItems.{v}.Keys`: the member's path in the model."""
    text = ""
    for seg in path:
        text += "[]" if isinstance(seg, int) else f".{seg!r}" if isinstance(seg, (MapKey, MapValue)) else f".{seg}"
    return text.lstrip(".")


def scalar_constraints(shape, path, out):
    meta = shape.metadata
    if shape.type_name == "string":
        if meta.get("min", 0) > 0:
            out.append((path, "min", meta["min"], shape))
        if "max" in meta:
            out.append((path, "max", meta["max"], shape))
        if "pattern" in meta:
            out.append((path, "pattern", meta["pattern"], shape))
        if shape.enum:
            out.append((path, "enum", list(shape.enum), shape))
    elif shape.type_name in ("integer", "long"):
        for kind in ("min", "max"):
            if kind in meta:
                out.append((path, kind, meta[kind], shape))


def walk(shape, value, path, out):
    """The constraints under a member the base request has (a missing one's own are added when
    it is a scalar: the case sets it)."""
    if shape.name == "AttributeValue":
        return
    kind = shape.type_name
    if kind in ("string", "integer", "long"):
        scalar_constraints(shape, path, out)
    elif kind == "structure" and value is not None:
        for name, member in shape.members.items():
            if name in shape.required_members:
                out.append((path + [name], "required", None, member))
            walk(member, value.get(name), path + [name], out)
    elif kind in ("list", "map") and value is not None:
        if shape.metadata.get("min", 0) > 0:
            out.append((path, "min", shape.metadata["min"], shape))
        if "max" in shape.metadata and value:
            out.append((path, "max", shape.metadata["max"], shape))
        if kind == "list":
            for i, element in enumerate(value):
                walk(shape.member, element, path + [i], out)
        elif value:
            scalar_constraints(shape.key, path + [MapKey()], out)
            walk(shape.value, next(iter(value.values())), path + [MapValue()], out)


def operation_shape(op):
    return MODELS["dynamodbstreams" if op in STREAMS_OPS else "dynamodb"].operation_model(op).input_shape


def parent_of(request, path):
    node = request
    for seg in path[:-1]:
        node = next(iter(node.values())) if isinstance(seg, MapValue) else node[seg]
    return node


def bad_string(kind, arg):
    return {"min": "a" * (arg - 1) if kind == "min" else None, "max": "a" * (arg + 1) if kind == "max" else None,
            "pattern": "abc!", "enum": "BOGUS"}[kind]


def violate(base, path, kind, arg, shape):
    """`base` with exactly the one constraint broken."""
    request = copy.deepcopy(base)
    parent, last = parent_of(request, path), path[-1]
    if kind == "required":
        del parent[last]
        return request
    if isinstance(last, MapKey):
        entries = list(parent.items())
        parent.clear()
        parent[bad_string(kind, arg)] = entries[0][1]
        parent.update(entries[1:])
        return request
    slot = next(iter(parent)) if isinstance(last, MapValue) else last
    current = parent[slot] if isinstance(slot, int) or slot in parent else None
    if shape.type_name == "string":
        value = bad_string(kind, arg)
    elif shape.type_name in ("integer", "long"):
        value = arg - 1 if kind == "min" else arg + 1
    elif shape.type_name == "list":
        value = [] if kind == "min" else [copy.deepcopy(current[0]) for _ in range(arg + 1)]
    else:
        first = next(iter(current.values())) if current else None
        value = {} if kind == "min" else {f"T{i:04d}": copy.deepcopy(first) for i in range(arg + 1)}
    parent[slot] = value
    return request


def member_path(request, path):
    """The member as the service echoes it: camelCase, list members numbered from 1, map entries
    by their key (`transactItems.2.member.put.item`, `requestItems.Pets.member.keys`)."""
    parts, node = [], request
    for seg in path:
        if isinstance(seg, int):
            parts.append(f"{seg + 1}.member")
            node = node[seg]
        elif isinstance(seg, MapValue):
            key = next(iter(node))
            parts.append(f"{key}.member")
            node = node[key]
        else:
            parts.append(seg[0].lower() + seg[1:])
            node = node.get(seg) if isinstance(node, dict) else None
    return ".".join(parts)


def collect():
    cases = []
    for op, bases in BASES.items():
        done = set()
        for number, base in enumerate(bases(PLACEHOLDERS)):
            found = []
            walk(operation_shape(op), base, [], found)
            for path, kind, arg, _ in found:
                name = show(path)
                if (name, kind) in done or excluded(op, name, kind, arg):
                    continue
                if kind == "required" and path[-1] not in parent_of(base, path):
                    continue
                done.add((name, kind))
                cases.append(pytest.param(op, number, path, kind, arg, id=f"{op}-{name}-{kind}"))
    return cases


CASES = collect()

# ---- Sending ----

PETS = dict(TableName=TABLE, BillingMode="PAY_PER_REQUEST", AttributeDefinitions=definitions(AnimalType="S", Name="S", Age="N"),
            KeySchema=[{"AttributeName": "AnimalType", "KeyType": "HASH"}, {"AttributeName": "Name", "KeyType": "RANGE"}],
            LocalSecondaryIndexes=[index("ByAge", "AnimalType", "Age", projection={"ProjectionType": "ALL"})],
            StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})


def own_table(name):
    if name == "Upd":
        return dict(TableName="Upd", BillingMode="PROVISIONED",
                    ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
                    AttributeDefinitions=definitions(pk="S", g="S"), KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                    GlobalSecondaryIndexes=[index("Gs1", "g", throughput=True, projection={"ProjectionType": "ALL"})])
    return dict(TableName=name, BillingMode="PAY_PER_REQUEST", AttributeDefinitions=definitions(pk="S"),
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])


def prepare(server, op):
    """Pets with one item and its stream, and the operation's own table; what the bases need."""
    def call(operation, **params):
        status, code, message = send(server, operation, params)
        assert status == 200, (operation, code, message)
        return json.loads(message)

    table = call("CreateTable", **PETS)["TableDescription"]
    call("PutItem", TableName=TABLE, Item=ITEM)
    if op in OWN_TABLES:
        call("CreateTable", **own_table(OWN_TABLES[op]))
    context = {"arn": table["TableArn"], "stream": table["LatestStreamArn"]}
    if op in STREAMS_OPS:
        shard = call("DescribeStream", StreamArn=context["stream"])["StreamDescription"]["Shards"][0]
        context["shard"] = shard["ShardId"]
        context["sequence"] = shard["SequenceNumberRange"]["StartingSequenceNumber"]
        context["iterator"] = call("GetShardIterator", StreamArn=context["stream"], ShardId=shard["ShardId"],
                                   ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    return context


def send(server, op, body):
    """The request as written, signed; its HTTP status, exception name and message (on success,
    the body)."""
    api = "DynamoDBStreams_20120810" if op in STREAMS_OPS else "DynamoDB_20120810"
    request = botocore.awsrequest.AWSRequest(
        method="POST", url=server.endpoint + "/", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": f"{api}.{op}"})
    credentials = botocore.credentials.Credentials(ACCESS_KEY, SECRET_KEY)
    botocore.auth.SigV4Auth(credentials, "dynamodb", REGION).add_auth(request)
    prepared = request.prepare()
    http = urllib.request.Request(prepared.url, data=prepared.body, headers=dict(prepared.headers), method="POST")
    try:
        with urllib.request.urlopen(http, timeout=30) as response:
            return response.status, None, response.read().decode()
    except urllib.error.HTTPError as error:
        answer = json.loads(error.read() or b"{}")
        kind = answer.get("__type", "").rsplit("#", 1)[-1]
        # (A SerializationException's text is under `Message`, rule B.22.1.)
        return error.code, kind, answer.get("Message" if kind == "SerializationException" else "message")


def elsewhere(op, request):
    """The request naming a table that does not exist (CreateTable: one that does)."""
    if op == "CreateTable":
        return {**request, "TableName": TABLE} if request.get("TableName") == "NewTable" else None
    text = json.dumps(request)
    for name in (TABLE, "Upd", "Del", "Ttl"):
        text = text.replace(f'"{name}"', f'"{name}Gone"').replace(f"table/{name}", f"table/{name}Gone")
    return None if text == json.dumps(request) else json.loads(text)


def constraint_text(kind, arg, shape):
    if kind == "required":
        return "Member must not be null"
    if kind == "enum":
        return "Member must satisfy enum value set: "
    if kind == "pattern":
        return "Member must satisfy regular expression pattern: "
    what = "value" if shape.type_name in ("integer", "long") else "length"
    return f"Member must have {what} {'greater' if kind == 'min' else 'less'} than or equal to "


@pytest.mark.parametrize("op, number, path, kind, arg", CASES)
def test_a_broken_member_constraint_is_listed_before_the_table_is_looked_up(server, op, number, path, kind, arg):
    context = prepare(server, op)
    base = BASES[op](context)[number]
    found = []
    walk(operation_shape(op), base, [], found)
    shape = next(s for p, k, _, s in found if show(p) == show(path) and k == kind)
    request = violate(base, path, kind, arg, shape)

    status, code, message = send(server, op, request)
    assert (status, code) == (400, "ValidationException"), message
    own = OWN_SENTENCES.get((op, show(path), kind))
    if own:
        assert re.fullmatch(own[0], message), message
    else:
        member = member_path(request, path)
        # Exactly one constraint is broken: exactly one is listed.
        assert message.startswith("1 validation error detected: Value "), message
        assert f" at '{member}' failed to satisfy constraint: {constraint_text(kind, arg, shape)}" in message, message
        if kind == "enum":
            listed = re.search(rf"at '{re.escape(member)}' failed to satisfy constraint: Member must satisfy enum "
                               r"value set: \[([^\]]*)\]", message).group(1)
            assert sorted(listed.split(", ")) == sorted(set(arg) - NOT_SERVED.get(shape.name, set())), message

    other = elsewhere(op, request)
    if other is not None:
        status, code, answer = send(server, op, other)
        for name in (TABLE, "Upd", "Del", "Ttl"):
            answer = (answer or "").replace(f"{name}Gone", name)
        assert (status, code, answer) == (400, "ValidationException", message)
