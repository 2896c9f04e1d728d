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
		FilterExpression: aws.String("fuelPct < :fuelPct OR contains(tags, :tags_element) OR checksum = :checksum OR flags = :flags OR zones = :zones OR odometer > :odometer"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":checksum": &types.AttributeValueMemberB{Value: []byte{0xde, 0xad, 0xbe, 0xef}},
			":flags": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"codes": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: "1"}, &types.AttributeValueMemberS{Value: "two"}}},
				"note": &types.AttributeValueMemberNULL{Value: true},
				"ok": &types.AttributeValueMemberBOOL{Value: true},
			}},
			":fuelPct": &types.AttributeValueMemberN{Value: "12.5"},
			":odometer": &types.AttributeValueMemberN{Value: "12345678901234567890"},
			":tags_element": &types.AttributeValueMemberS{Value: "service-due"},
			":zones": &types.AttributeValueMemberNS{Value: []string{"1", "3"}},
		},
		Limit: aws.Int32(4),
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
