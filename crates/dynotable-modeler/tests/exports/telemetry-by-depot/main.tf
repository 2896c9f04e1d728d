# The DynamoDB tables of the data model Telemetry.

resource "aws_dynamodb_table" "telemetry" {
  name = "Telemetry"
  billing_mode = "PAY_PER_REQUEST"
  hash_key = "vehicleId"
  range_key = "recordedAt"

  attribute {
    name = "vehicleId"
    type = "S"
  }

  attribute {
    name = "recordedAt"
    type = "S"
  }

  attribute {
    name = "depotCode"
    type = "S"
  }

  global_secondary_index {
    name = "ByDepotCode"
    hash_key = "depotCode"
    range_key = "recordedAt"
    projection_type = "INCLUDE"
    non_key_attributes = ["speedKph", "fuelPct"]
  }
}
