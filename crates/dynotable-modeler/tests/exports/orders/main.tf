# The DynamoDB tables of the data model CustomerOrders.

resource "aws_dynamodb_table" "customer_orders" {
  name = "CustomerOrders"
  billing_mode = "PROVISIONED"
  read_capacity = 50
  write_capacity = 20
  hash_key = "customerId"
  range_key = "orderId"

  attribute {
    name = "customerId"
    type = "S"
  }

  attribute {
    name = "orderId"
    type = "S"
  }

  attribute {
    name = "orderDate"
    type = "S"
  }

  local_secondary_index {
    name = "ByOrderDate"
    range_key = "orderDate"
    projection_type = "INCLUDE"
    non_key_attributes = ["total"]
  }
}
