#!/bin/sh
# Reads every page: the AWS CLI follows LastEvaluatedKey and prints all items as one list.
aws dynamodb query \
    --table-name 'Telemetry' \
    --index-name 'ByDepot' \
    --key-condition-expression 'depotCode = :depotCode AND recordedAt >= :recordedAt' \
    --expression-attribute-values '{":depotCode":{"S":"BER-1"},":recordedAt":{"S":"TS#2024-03-01T12:00:00Z"}}' \
    --return-consumed-capacity INDEXES \
    --output json
