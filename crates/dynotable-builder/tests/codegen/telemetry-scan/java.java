import java.util.Base64;
import java.util.List;
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
                    .filterExpression("fuelPct < :fuelPct OR contains(tags, :tags_element) OR checksum = :checksum OR flags = :flags OR zones = :zones OR odometer > :odometer")
                    .expressionAttributeValues(Map.ofEntries(
                            Map.entry(":checksum", AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode("3q2+7w==")))),
                            Map.entry(":flags", AttributeValue.fromM(Map.ofEntries(Map.entry("codes", AttributeValue.fromL(List.of(AttributeValue.fromN("1"), AttributeValue.fromS("two")))), Map.entry("note", AttributeValue.fromNul(true)), Map.entry("ok", AttributeValue.fromBool(true))))),
                            Map.entry(":fuelPct", AttributeValue.fromN("12.5")),
                            Map.entry(":odometer", AttributeValue.fromN("12345678901234567890")),
                            Map.entry(":tags_element", AttributeValue.fromS("service-due")),
                            Map.entry(":zones", AttributeValue.fromNs(List.of("1", "3")))))
                    .limit(4)
                    .build();
            client.scanPaginator(request).items().forEach(System.out::println);
        }
    }
}
