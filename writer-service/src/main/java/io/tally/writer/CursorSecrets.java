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
 * the function. {@code CURSOR_SECRET} may hold the value itself; with neither, a writer outside Lambda uses a
 * development key, and a Lambda function refuses to start ({@link #required}).
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

    /**
     * {@link #read}, refusing to go without a secret in a Lambda function ({@code AWS_LAMBDA_FUNCTION_NAME} set): the
     * development key is in this source, so whoever reads it could sign cursors of any list. Elsewhere (a writer run
     * by hand), null, the development key, with a warning.
     *
     * @throws IllegalStateException in a function without {@code CURSOR_SECRET_ARN} or {@code CURSOR_SECRET}
     */
    static byte[] required(Map<String, String> env, Function<String, String> fetch) {
        byte[] secret = read(env, fetch);
        if (secret == null) {
            String function = env.get("AWS_LAMBDA_FUNCTION_NAME");
            if (function != null && !function.isBlank()) {
                throw new IllegalStateException("the writer function " + function + " has no cursor secret: set "
                        + ARN + " (the template does) or " + VALUE + "; it does not sign cursors with the development"
                        + " key, which anyone can read");
            }
            org.slf4j.LoggerFactory.getLogger(CursorSecrets.class).warn("neither {} nor {} is set: cursors are"
                    + " signed with the development key, which anyone can read (local use only)", ARN, VALUE);
        }
        return secret;
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
