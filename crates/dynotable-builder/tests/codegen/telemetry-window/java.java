import java.util.Map;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

public class QueryTelemetry {
    public static void main(String[] args) {
        try (DynamoDbClient client = DynamoDbClient.create()) {
            QueryRequest request = QueryRequest.builder()
                    .tableName("Telemetry")
                    .keyConditionExpression("vehicleId = :vehicleId AND recordedAt BETWEEN :recordedAt_from AND :recordedAt_to")
                    .expressionAttributeValues(Map.ofEntries(
                            Map.entry(":recordedAt_from", AttributeValue.fromS("TS#2024-03-01T00:00:00Z")),
                            Map.entry(":recordedAt_to", AttributeValue.fromS("TS#2024-03-01T23:59:59Z")),
                            Map.entry(":vehicleId", AttributeValue.fromS("VEH#V-7741"))))
                    .scanIndexForward(false)
                    .limit(3)
                    .build();
            client.queryPaginator(request).items().forEach(System.out::println);
        }
    }
}
