import * as cdk from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

/** The DynamoDB tables of the data model Telemetry. */
export class TelemetryStack extends cdk.Stack {
  constructor(scope: Construct, id: string, props?: cdk.StackProps) {
    super(scope, id, props);

    const telemetry = new dynamodb.Table(this, "Telemetry", {
      tableName: "Telemetry",
      partitionKey: { name: "vehicleId", type: dynamodb.AttributeType.STRING },
      sortKey: { name: "recordedAt", type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    });
    telemetry.addGlobalSecondaryIndex({
      indexName: "ByDepotCode",
      partitionKey: { name: "depotCode", type: dynamodb.AttributeType.STRING },
      sortKey: { name: "recordedAt", type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.INCLUDE,
      nonKeyAttributes: ["speedKph", "fuelPct"],
    });
  }
}
