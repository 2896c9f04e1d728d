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
		IndexName: aws.String("ByDepot"),
		KeyConditionExpression: aws.String("depotCode = :depotCode AND recordedAt >= :recordedAt"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":depotCode": &types.AttributeValueMemberS{Value: "BER-1"},
			":recordedAt": &types.AttributeValueMemberS{Value: "TS#2024-03-01T12:00:00Z"},
		},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
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
