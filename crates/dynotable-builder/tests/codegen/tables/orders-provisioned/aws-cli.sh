aws dynamodb create-table \
  --table-name 'orders-2026' \
  --attribute-definitions 'AttributeName=customerId,AttributeType=S' 'AttributeName=orderedAt,AttributeType=N' 'AttributeName=total,AttributeType=N' \
  --key-schema 'AttributeName=customerId,KeyType=HASH' 'AttributeName=orderedAt,KeyType=RANGE' \
  --billing-mode PROVISIONED \
  --provisioned-throughput ReadCapacityUnits=5,WriteCapacityUnits=2 \
  --local-secondary-indexes '[{"IndexName":"ByTotal","KeySchema":[{"AttributeName":"customerId","KeyType":"HASH"},{"AttributeName":"total","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]'
