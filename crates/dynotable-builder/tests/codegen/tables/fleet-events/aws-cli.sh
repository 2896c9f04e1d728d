aws dynamodb create-table \
  --table-name 'FleetEvents' \
  --attribute-definitions 'AttributeName=vehicleId,AttributeType=S' 'AttributeName=at,AttributeType=N' 'AttributeName=depot,AttributeType=S' \
  --key-schema 'AttributeName=vehicleId,KeyType=HASH' 'AttributeName=at,KeyType=RANGE' \
  --billing-mode PAY_PER_REQUEST \
  --global-secondary-indexes '[{"IndexName":"ByDepot","KeySchema":[{"AttributeName":"depot","KeyType":"HASH"},{"AttributeName":"at","KeyType":"RANGE"}],"Projection":{"NonKeyAttributes":["speed","driver'\''s note"],"ProjectionType":"INCLUDE"}}]' \
  --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES \
  --tags '[{"Key":"team","Value":"fleet ops"}]'
aws dynamodb wait table-exists --table-name 'FleetEvents'
aws dynamodb update-time-to-live --table-name 'FleetEvents' \
  --time-to-live-specification '{"AttributeName":"expiresAt","Enabled":true}'
