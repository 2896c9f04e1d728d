#!/bin/sh
# Reads every page: the AWS CLI follows LastEvaluatedKey and prints all items as one list.
aws dynamodb query \
    --table-name 'Telemetry' \
    --key-condition-expression 'vehicleId = :vehicleId AND begins_with(recordedAt, :recordedAt_prefix)' \
    --filter-expression 'speedKph > :speedKph AND (attribute_not_exists(#status) OR #status IN (:status_1, :status_2))' \
    --projection-expression 'vehicleId, recordedAt, speedKph, #status, #data.coolant, readings[0]' \
    --expression-attribute-names '{"#data":"data","#status":"status"}' \
    --expression-attribute-values '{":recordedAt_prefix":{"S":"TS#"},":speedKph":{"N":"60"},":status_1":{"S":"OK"},":status_2":{"S":"WARN"},":vehicleId":{"S":"VEH#V-7741"}}' \
    --page-size 2 \
    --consistent-read \
    --return-consumed-capacity TOTAL \
    --output json
