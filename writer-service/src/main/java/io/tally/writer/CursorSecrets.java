package io.tally.writer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * Where the secret that signs pagination cursors comes from. A deployment names a Secrets Manager secret
 * ({@code CURSOR_SECRET_ARN}): its value is read when the container starts and again after a SnapStart restore
 * (the snapshot may be older than a rotation), so it is never in the function's configuration and a rotation reaches
 * the function. Locally {@code CURSOR_SECRET} may hold the value itself; with neither, a development key is used.
 */
final class CursorSecrets {
    static final String ARN = "CURSOR_SECRET_ARN";
    static final String VALUE = "CURSOR_SECRET";

    private CursorSecrets() {
    }

    /**
     * The secret the environment names, or null for the development key.
     *
     * @param fetch reads a Secrets Manager secret's string by ARN
     * @throws IllegalStateException when the named secret cannot be read: a function that cannot sign cursors must
     *                               not start with a key other functions do not share
     */
    static byte[] read(Map<String, String> env, Function<String, String> fetch) {
        String arn = env.get(ARN);
        if (arn != null && !arn.isBlank()) {
            String value;
            try {
                value = fetch.apply(arn);
            } catch (RuntimeException e) {
                throw new IllegalStateException("cannot read the cursor secret " + arn + ": " + e.getMessage(), e);
            }
            if (value == null || value.isBlank()) {
                throw new IllegalStateException("the cursor secret " + arn + " has no string value");
            }
            return value.getBytes(StandardCharsets.UTF_8);
        }
        String value = env.get(VALUE);
        return value == null || value.isBlank() ? null : value.getBytes(StandardCharsets.UTF_8);
    }

    /** Reads secrets with a Secrets Manager client of {@code region}, one call each; the client is closed after. */
    static Function<String, String> secretsManager(String region) {
        return arn -> {
            try (SecretsManagerClient client = SecretsManagerClient.builder()
                    .region(Region.of(region))
                    .httpClient(UrlConnectionHttpClient.builder()
                            .connectionTimeout(Duration.ofSeconds(2))
                            .socketTimeout(Duration.ofSeconds(5))
                            .build())
                    .build()) {
                return client.getSecretValue(r -> r.secretId(arn)).secretString();
            }
        };
    }
}
