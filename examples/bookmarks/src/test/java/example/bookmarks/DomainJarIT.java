package example.bookmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.testkit.RunnerJar;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The domain as a user runs it: {@code java -jar tally-local.jar --domain-jar tally-example-bookmarks.jar}, with the
 * runner jar and this module's jar exactly as the build makes them; its routes (the views' generated ones among them)
 * in the OpenAPI document, and {@code verify} exact after a random workload of bookmarks made, moved between months,
 * and removed.
 */
class DomainJarIT {
    private static final RunnerJar RUNNER = new RunnerJar(Path.of(System.getProperty("tally.localJar",
            "../../local-runner/target/tally-local.jar")));
    private static final Path DOMAIN_JAR = Path.of(System.getProperty("tally.domainJar",
            "target/tally-example-bookmarks.jar"));
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path logs;

    @Test
    void withTheDomainJar_itsRoutesServe_andVerifyIsExactAfterARandomWorkload() throws Exception {
        try (RunnerJar.Child runner = RUNNER.start(logs, "with", "--domain-jar", DOMAIN_JAR.toString())) {
            runner.call("POST", "/users", "{\"userId\":\"ada\",\"name\":\"Ada\",\"email\":\"ada@example.com\"}");
            runner.call("PUT", "/items/55", "{\"score\":70,\"selector\":\"back-catalogue\"}");
            HttpResponse<String> created = runner.call("PUT", "/users/ada/bookmarks/55", null);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            JsonNode paths = JSON.readTree(runner.call("GET", "/openapi.json", null).body()).path("paths");
            assertThat(paths.has("/users/{userId}/bookmarks/{itemId}")).isTrue();
            assertThat(paths.has("/stats/bookmarks/top")).isTrue();
            assertThat(paths.has("/stats/items/{itemId}/bookmarks")).isTrue();

            runner.workload(600, "bookmarks");

            RunnerJar.Result verify = RUNNER.verifyOnceDrained(logs, "--domain-jar", DOMAIN_JAR.toString(),
                    "--endpoint", runner.dynamoDb().toString());
            assertThat(verify.status()).as(verify.out()).isZero();
            assertThat(verify.out()).contains("derived data is exact").contains(" 0 unreadable base items");
            // The ranking's entries were there to compare: the workload bookmarks five items over three months.
            try (var dynamo = runner.dynamoDbClient()) {
                assertThat(dynamo.scanPaginator(r -> r.tableName("tally").filterExpression("entityType = :t")
                        .expressionAttributeValues(java.util.Map.of(":t", software.amazon.awssdk.services.dynamodb
                                .model.AttributeValue.fromS("TopBookmarked")))).items().stream().count())
                        .isGreaterThan(5);
            }
        }
    }

    @Test
    void withoutTheDomainJar_itsRoutesDoNotExist() throws Exception {
        try (RunnerJar.Child runner = RUNNER.start(logs, "without")) {
            assertThat(runner.call("GET", "/stats/bookmarks/top?month=2026-11", null).statusCode()).isEqualTo(404);
            assertThat(runner.call("PUT", "/users/ada/bookmarks/55", null).statusCode()).isEqualTo(404);
        }
    }
}
