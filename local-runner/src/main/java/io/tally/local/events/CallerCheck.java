package io.tally.local.events;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;

/**
 * Who may call the local bus when it is told its callers' credentials (the runner's, under {@code --auth}): a request
 * signed with Signature Version 4, as every AWS SDK signs, by that access key id and secret. The signature is checked
 * as EventBridge checks it: the SDK's own signer signs the request again, over the headers the caller signed and the
 * body, at the instant it says ({@code X-Amz-Date}, within 15 minutes of the bus's clock), and the two signatures must
 * be equal. A refusal is the service's: {@code MissingAuthenticationTokenException} (no signature),
 * {@code UnrecognizedClientException} (another access key id), {@code InvalidSignatureException} (another secret, a
 * changed request or body), each with HTTP status 400 or 403 as EventBridge answers them.
 */
final class CallerCheck {
    /** How far a request's {@code X-Amz-Date} may be from the bus's clock, as AWS allows. */
    static final Duration SKEW = Duration.ofMinutes(15);
    private static final String SERVICE = "events";
    private static final Pattern AUTHORIZATION = Pattern.compile("AWS4-HMAC-SHA256 Credential=([^/,\\s]+)/(\\d{8})/"
            + "([a-z0-9-]+)/" + SERVICE + "/aws4_request,\\s*SignedHeaders=([a-z0-9;_.-]+),\\s*Signature=([0-9a-f]{64})");
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    /** A refusal: the error's {@code __type}, its message and the HTTP status. */
    record Refusal(String type, String message, int status) {
    }

    private final AwsCredentials credentials;
    private final Clock clock;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    CallerCheck(AwsCredentials credentials, Clock clock) {
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Why the request may not call the bus, or empty when its signature is the credentials'.
     *
     * @param headers the request's headers by name (any case), each with its values
     */
    Optional<Refusal> refusal(String method, URI uri, Map<String, List<String>> headers, byte[] body) {
        Map<String, List<String>> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        byName.putAll(headers);
        String authorization = first(byName, "Authorization");
        if (authorization == null) {
            return refused("MissingAuthenticationTokenException", "Missing Authentication Token", 403);
        }
        Matcher parts = AUTHORIZATION.matcher(authorization.trim());
        if (!parts.matches()) {
            return refused("IncompleteSignatureException", "the Authorization header is not a Signature Version 4 "
                    + "signature for the service events", 400);
        }
        if (!MessageDigest.isEqual(parts.group(1).getBytes(StandardCharsets.UTF_8),
                credentials.accessKeyId().getBytes(StandardCharsets.UTF_8))) {
            return refused("UnrecognizedClientException", "The security token included in the request is invalid.",
                    400);
        }
        Instant signedAt;
        try {
            signedAt = Instant.from(AMZ_DATE.parse(Objects.requireNonNullElse(first(byName, "X-Amz-Date"), "")));
        } catch (DateTimeParseException e) {
            return refused("IncompleteSignatureException", "X-Amz-Date is missing or not yyyyMMddTHHmmssZ", 400);
        }
        if (Duration.between(signedAt, clock.instant()).abs().compareTo(SKEW) > 0
                || !parts.group(2).equals(AMZ_DATE.format(signedAt).substring(0, 8))) {
            return refused("InvalidSignatureException", "Signature expired or not yet valid: " + AMZ_DATE.format(signedAt)
                    + " is more than " + SKEW.toMinutes() + " minutes from the bus's clock", 400);
        }
        List<String> signedHeaders = List.of(parts.group(4).split(";"));
        if (!signedHeaders.contains("host") || !signedHeaders.contains("x-amz-date")) {
            return refused("IncompleteSignatureException", "the signature must cover the host and x-amz-date headers",
                    400);
        }
        SdkHttpFullRequest.Builder request = SdkHttpFullRequest.builder()
                .method(SdkHttpMethod.fromValue(method.toUpperCase(Locale.ROOT))).uri(uri);
        for (String name : signedHeaders) {
            List<String> values = byName.get(name);
            if (values == null) {
                return refused("IncompleteSignatureException", "the signed header " + name + " is not in the request",
                        400);
            }
            request.putHeader(name, values);
        }
        SdkHttpRequest signed = signer.sign(sign -> sign.identity(credentials).request(request.build())
                .payload(ContentStreamProvider.fromByteArray(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, SERVICE)
                .putProperty(AwsV4HttpSigner.REGION_NAME, parts.group(3))
                .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(signedAt, ZoneOffset.UTC))).request();
        Matcher again = AUTHORIZATION.matcher(signed.firstMatchingHeader("Authorization").orElse(""));
        if (!again.matches() || !MessageDigest.isEqual(again.group(5).getBytes(StandardCharsets.US_ASCII),
                parts.group(5).getBytes(StandardCharsets.US_ASCII))) {
            return refused("InvalidSignatureException", "The request signature we calculated does not match the "
                    + "signature you provided. Check your AWS Secret Access Key and signing method.", 400);
        }
        return Optional.empty();
    }

    private static String first(Map<String, List<String>> headers, String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    private static Optional<Refusal> refused(String type, String message, int status) {
        return Optional.of(new Refusal(type, message, status));
    }
}
