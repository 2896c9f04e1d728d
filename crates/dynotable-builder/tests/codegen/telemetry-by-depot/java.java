import java.util.Map;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

public class QueryTelemetry {
    public static void main(String[] args) {
        try (DynamoDbClient client = DynamoDbClient.create()) {
            QueryRequest request = QueryRequest.builder()
                    .tableName("Telemetry")
                    .indexName("ByDepot")
                    .keyConditionExpression("depotCode = :depotCode AND recordedAt >= :recordedAt")
                    .expressionAttributeValues(Map.ofEntries(
                            Map.entry(":depotCode", AttributeValue.fromS("BER-1")),
                            Map.entry(":recordedAt", AttributeValue.fromS("TS#2024-03-01T12:00:00Z"))))
                    .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                    .build();
            client.queryPaginator(request).items().forEach(System.out::println);
        }
    }
}
