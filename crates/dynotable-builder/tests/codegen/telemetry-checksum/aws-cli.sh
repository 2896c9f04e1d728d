#!/bin/sh
# Reads every page: the AWS CLI follows LastEvaluatedKey and prints all items as one list.
# AWS CLI v2: binary values are given in base64 (CLI v1 cannot pass them inline).
aws dynamodb scan \
    --table-name 'Telemetry' \
    --filter-expression 'checksum = :checksum' \
    --projection-expression 'vehicleId, recordedAt, checksum, #data' \
    --expression-attribute-names '{"#data":"data"}' \
    --expression-attribute-values '{":checksum":{"B":"3q2+7w=="}}' \
    --page-size 5 \
    --cli-binary-format base64 \
    --output json
