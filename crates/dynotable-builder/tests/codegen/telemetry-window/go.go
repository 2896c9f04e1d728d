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
		KeyConditionExpression: aws.String("vehicleId = :vehicleId AND recordedAt BETWEEN :recordedAt_from AND :recordedAt_to"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":recordedAt_from": &types.AttributeValueMemberS{Value: "TS#2024-03-01T00:00:00Z"},
			":recordedAt_to": &types.AttributeValueMemberS{Value: "TS#2024-03-01T23:59:59Z"},
			":vehicleId": &types.AttributeValueMemberS{Value: "VEH#V-7741"},
		},
		ScanIndexForward: aws.Bool(false),
		Limit: aws.Int32(3),
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
