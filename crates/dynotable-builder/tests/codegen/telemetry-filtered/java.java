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
                    .keyConditionExpression("vehicleId = :vehicleId AND begins_with(recordedAt, :recordedAt_prefix)")
                    .filterExpression("speedKph > :speedKph AND (attribute_not_exists(#status) OR #status IN (:status_1, :status_2))")
                    .projectionExpression("vehicleId, recordedAt, speedKph, #status, #data.coolant, readings[0]")
                    .expressionAttributeNames(Map.ofEntries(
                            Map.entry("#data", "data"),
                            Map.entry("#status", "status")))
                    .expressionAttributeValues(Map.ofEntries(
                            Map.entry(":recordedAt_prefix", AttributeValue.fromS("TS#")),
                            Map.entry(":speedKph", AttributeValue.fromN("60")),
                            Map.entry(":status_1", AttributeValue.fromS("OK")),
                            Map.entry(":status_2", AttributeValue.fromS("WARN")),
                            Map.entry(":vehicleId", AttributeValue.fromS("VEH#V-7741"))))
                    .limit(2)
                    .consistentRead(true)
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                    .build();
            client.queryPaginator(request).items().forEach(System.out::println);
        }
    }
}
