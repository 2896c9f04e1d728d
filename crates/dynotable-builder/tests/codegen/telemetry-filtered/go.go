package main

import (
	"context"
	"fmt"
	"log"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func main() {
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		log.Fatal(err)
	}
	client := dynamodb.NewFromConfig(cfg)
	paginator := dynamodb.NewQueryPaginator(client, &dynamodb.QueryInput{
		TableName: aws.String("Telemetry"),
		KeyConditionExpression: aws.String("vehicleId = :vehicleId AND begins_with(recordedAt, :recordedAt_prefix)"),
		FilterExpression: aws.String("speedKph > :speedKph AND (attribute_not_exists(#status) OR #status IN (:status_1, :status_2))"),
		ProjectionExpression: aws.String("vehicleId, recordedAt, speedKph, #status, #data.coolant, readings[0]"),
		ExpressionAttributeNames: map[string]string{
			"#data": "data",
			"#status": "status",
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":recordedAt_prefix": &types.AttributeValueMemberS{Value: "TS#"},
			":speedKph": &types.AttributeValueMemberN{Value: "60"},
			":status_1": &types.AttributeValueMemberS{Value: "OK"},
			":status_2": &types.AttributeValueMemberS{Value: "WARN"},
			":vehicleId": &types.AttributeValueMemberS{Value: "VEH#V-7741"},
		},
		Limit: aws.Int32(2),
		ConsistentRead: aws.Bool(true),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	for paginator.HasMorePages() {
		page, err := paginator.NextPage(ctx)
		if err != nil {
			log.Fatal(err)
		}
		for _, item := range page.Items {
			fmt.Println(item)
		}
	}
}
