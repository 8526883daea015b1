package example.reviews;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.testkit.RunnerJar;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The domain as a user runs it: {@code java -jar tally-local.jar --domain-jar tally-example-reviews.jar} in a JVM of
 * its own, with Tally's runner jar and this module's jar exactly as the build makes them; then {@code verify} with the
 * same option. Without the option, none of the domain's routes exist.
 */
class DomainJarIT {
    private static final RunnerJar RUNNER = new RunnerJar(Path.of(System.getProperty("tally.localJar",
            "../../local-runner/target/tally-local.jar")));
    private static final Path DOMAIN_JAR = Path.of(System.getProperty("tally.domainJar",
            "target/tally-example-reviews.jar"));
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path logs;

    @Test
    void withTheDomainJar_itsRoutesServe_andVerifyIsExactAfterARandomWorkload() throws Exception {
        try (RunnerJar.Child runner = RUNNER.start(logs, "with", "--domain-jar", DOMAIN_JAR.toString())) {
            runner.call("POST", "/users", "{\"userId\":\"ada\",\"name\":\"Ada\",\"email\":\"ada@example.com\"}");
            runner.call("PUT", "/items/55", "{\"score\":70,\"selector\":\"back-catalogue\"}");
            HttpResponse<String> created = runner.call("PUT", "/users/ada/reviews/55", "{\"stars\":5}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            JsonNode document = JSON.readTree(runner.call("GET", "/openapi.json", null).body());
            assertThat(document.path("paths").has("/users/{userId}/reviews/{itemId}")).isTrue();

            // A random workload of every domain's default part and the reviews, written straight to the runner's table.
            runner.workload(400, "reviews");

            RunnerJar.Result verify = RUNNER.verifyOnceDrained(logs, "--domain-jar", DOMAIN_JAR.toString(),
                    "--endpoint", runner.dynamoDb().toString());
            assertThat(verify.status()).as(verify.out()).isZero();
            assertThat(verify.out()).contains("derived data is exact").contains(" 0 unreadable base items");

            // Without the domain's jar, verify does not know its items: it names their types and says it with its
            // status, and a repair writes nothing (the figures they feed would be written without them).
            RunnerJar.Result without = RUNNER.run(logs, "verify-without", "verify", "--endpoint",
                    runner.dynamoDb().toString());
            assertThat(RunnerJar.unreadable(without.out())).as(without.out()).isPositive();
            assertThat(without.status()).as(without.out()).isEqualTo(6);
            assertThat(without.out()).contains("no loaded domain declares").containsPattern("\n  Review \\(\\d+\\)")
                    .doesNotContain("derived data is exact");
            RunnerJar.Result refused = RUNNER.run(logs, "repair-without", "verify", "--repair", "--endpoint",
                    runner.dynamoDb().toString());
            assertThat(refused.status()).as(refused.out()).isEqualTo(6);
            assertThat(refused.out()).contains("nothing repaired");
            // The start banner names the domains the runner serves, and the jar each came from.
            assertThat(Files.readString(logs.resolve("with.out")))
                    .contains("  domains         users, blog, catalogue, orgs, songs, favourites, reviews "
                            + "(tally-example-reviews.jar)");
        }
    }

    @Test
    void template_withTheDomainJar_getsItsPublicPathsAndItsTypesInTheStreamFilter() throws Exception {
        Path template = logs.resolve("template.yaml");
        Files.copy(Path.of("..", "..", "infra", "template.yaml"), template);
        RunnerJar.Result check = RUNNER.run(logs, "template-check", "template", "--check", "--file",
                template.toString(), "--domain-jar", DOMAIN_JAR.toString());
        assertThat(check.status()).as(check.out() + check.err()).isEqualTo(3);
        assertThat(check.out()).contains("read-side routes", "read-side route settings", "stream filters");

        RunnerJar.Result written = RUNNER.run(logs, "template", "template", "--file", template.toString(),
                "--domain-jar", DOMAIN_JAR.toString());
        assertThat(written.status()).as(written.out() + written.err()).isZero();
        String text = Files.readString(template);
        assertThat(text).contains("          /stats/items/{itemId}/reviews:\n")
                .contains("\"GET /stats/items/{itemId}/reviews\":").contains("\"ItemReviews\"", "\"UserReviews\"");
        assertThat(RUNNER.run(logs, "template-again", "template", "--check", "--file", template.toString(),
                "--domain-jar", DOMAIN_JAR.toString()).status()).isZero();
    }

    @Test
    void withoutTheDomainJar_itsRoutesDoNotExist() throws Exception {
        try (RunnerJar.Child runner = RUNNER.start(logs, "without")) {
            runner.call("POST", "/users", "{\"userId\":\"ada\",\"name\":\"Ada\",\"email\":\"ada@example.com\"}");
            HttpResponse<String> reply = runner.call("PUT", "/users/ada/reviews/55", "{\"stars\":5}");

            assertThat(reply.statusCode()).isEqualTo(404);
            assertThat(JSON.readTree(reply.body()).path("error").path("code").asText()).isEqualTo("not_found");
            assertThat(runner.call("GET", "/stats/items/55/reviews", null).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void aJarThatIsNotADomainJar_isRefusedWithAMessage() throws Exception {
        RunnerJar.Result missing = RUNNER.run(logs, "missing", "--domain-jar", "no-such.jar", "--port", "0",
                "--dynamodb-port", "0", "--events-port", "0");
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("--domain-jar no-such.jar: no such file");

        Path empty = logs.resolve("empty.jar");
        try (var jar = new java.util.jar.JarOutputStream(Files.newOutputStream(empty), new java.util.jar.Manifest())) {
            jar.putNextEntry(new java.util.jar.JarEntry("readme.txt"));
        }
        RunnerJar.Result notADomain = RUNNER.run(logs, "not-a-domain", "verify", "--domain-jar", empty.toString());
        assertThat(notADomain.status()).isEqualTo(2);
        assertThat(notADomain.err()).contains("lists no domain");
    }
}
