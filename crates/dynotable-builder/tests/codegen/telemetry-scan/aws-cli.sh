#!/bin/sh
# Reads every page: the AWS CLI follows LastEvaluatedKey and prints all items as one list.
# AWS CLI v2: binary values are given in base64 (CLI v1 cannot pass them inline).
aws dynamodb scan \
    --table-name 'Telemetry' \
    --filter-expression 'fuelPct < :fuelPct OR contains(tags, :tags_element) OR checksum = :checksum OR flags = :flags OR zones = :zones OR odometer > :odometer' \
    --expression-attribute-values '{":checksum":{"B":"3q2+7w=="},":flags":{"M":{"codes":{"L":[{"N":"1"},{"S":"two"}]},"note":{"NULL":true},"ok":{"BOOL":true}}},":fuelPct":{"N":"12.5"},":odometer":{"N":"12345678901234567890"},":tags_element":{"S":"service-due"},":zones":{"NS":["1","3"]}}' \
    --page-size 4 \
    --cli-binary-format base64 \
    --output json
