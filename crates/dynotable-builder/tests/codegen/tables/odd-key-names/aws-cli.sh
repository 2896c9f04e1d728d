aws dynamodb create-table \
  --table-name 'odd.names' \
  --attribute-definitions '[{"AttributeName":"a,b=c","AttributeType":"S"}]' \
  --key-schema '[{"AttributeName":"a,b=c","KeyType":"HASH"}]' \
  --billing-mode PAY_PER_REQUEST
