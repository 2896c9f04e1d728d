#!/bin/sh
# Reads every page: the AWS CLI follows LastEvaluatedKey and prints all items as one list.
aws dynamodb query \
    --table-name 'Telemetry' \
    --key-condition-expression 'vehicleId = :vehicleId AND recordedAt BETWEEN :recordedAt_from AND :recordedAt_to' \
    --expression-attribute-values '{":recordedAt_from":{"S":"TS#2024-03-01T00:00:00Z"},":recordedAt_to":{"S":"TS#2024-03-01T23:59:59Z"},":vehicleId":{"S":"VEH#V-7741"}}' \
    --no-scan-index-forward \
    --page-size 3 \
    --output json
