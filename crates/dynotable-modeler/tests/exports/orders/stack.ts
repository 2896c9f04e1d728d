import * as cdk from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

/** The DynamoDB tables of the data model CustomerOrders. */
export class CustomerOrdersStack extends cdk.Stack {
  constructor(scope: Construct, id: string, props?: cdk.StackProps) {
    super(scope, id, props);

    const customerOrders = new dynamodb.Table(this, "CustomerOrders", {
      tableName: "CustomerOrders",
      partitionKey: { name: "customerId", type: dynamodb.AttributeType.STRING },
      sortKey: { name: "orderId", type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PROVISIONED,
      readCapacity: 50,
      writeCapacity: 20,
    });
    customerOrders.addLocalSecondaryIndex({
      indexName: "ByOrderDate",
      sortKey: { name: "orderDate", type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.INCLUDE,
      nonKeyAttributes: ["total"],
    });
  }
}
