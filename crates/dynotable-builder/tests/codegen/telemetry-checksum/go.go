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
	paginator := dynamodb.NewScanPaginator(client, &dynamodb.ScanInput{
		TableName: aws.String("Telemetry"),
		FilterExpression: aws.String("checksum = :checksum"),
		ProjectionExpression: aws.String("vehicleId, recordedAt, checksum, #data"),
		ExpressionAttributeNames: map[string]string{
			"#data": "data",
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":checksum": &types.AttributeValueMemberB{Value: []byte{0xde, 0xad, 0xbe, 0xef}},
		},
		Limit: aws.Int32(5),
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
