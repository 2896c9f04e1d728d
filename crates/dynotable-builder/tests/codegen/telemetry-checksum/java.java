import java.util.Base64;
import java.util.Map;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

public class ScanTelemetry {
    public static void main(String[] args) {
        try (DynamoDbClient client = DynamoDbClient.create()) {
            ScanRequest request = ScanRequest.builder()
                    .tableName("Telemetry")
                    .filterExpression("checksum = :checksum")
                    .projectionExpression("vehicleId, recordedAt, checksum, #data")
                    .expressionAttributeNames(Map.ofEntries(
                            Map.entry("#data", "data")))
                    .expressionAttributeValues(Map.ofEntries(
                            Map.entry(":checksum", AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode("3q2+7w=="))))))
                    .limit(5)
                    .build();
            client.scanPaginator(request).items().forEach(System.out::println);
        }
    }
}
