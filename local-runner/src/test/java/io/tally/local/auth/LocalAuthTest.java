package io.tally.local.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local key, its tokens, and the claims the front hands the function, as API Gateway writes them. */
class LocalAuthTest {
    private final LocalAuth auth = LocalAuth.inMemory();

    @Test
    void aMintedToken_verifies_andItsClaimsAreWrittenAsApiGatewayWritesThem() {
        Instant now = Instant.now();
        String token = auth.mint("u1", true, Duration.ofHours(1), now);
        Map<String, String> claims = auth.verify("Bearer " + token).orElseThrow();
        assertThat(claims).containsEntry("sub", "u1").containsEntry("iss", LocalAuth.ISSUER)
                .containsEntry("aud", LocalAuth.AUDIENCE).containsEntry("cognito:groups", "[admin]")
                .containsEntry("exp", Long.toString(now.plus(Duration.ofHours(1)).getEpochSecond()))
                .containsEntry("iat", Long.toString(now.getEpochSecond()));
        assertThat(auth.verify(token)).as("the bare token, as the authorizer takes it too").isPresent();
        assertThat(auth.mint("u2", false, Duration.ofMinutes(5), now)).satisfies(plain ->
                assertThat(auth.verify("Bearer " + plain).orElseThrow()).doesNotContainKey("cognito:groups"));
    }

    @Test
    void badTokens_doNotVerify() throws Exception {
        Instant now = Instant.now();
        String good = auth.mint("u1", false, Duration.ofHours(1), now);
        assertThat(auth.verify(null)).isEmpty();
        assertThat(auth.verify("bearer " + good)).as("the scheme as AWS writes it, Bearer, or none").isEmpty();
        assertThat(auth.verify("Basic " + good)).isEmpty();
        assertThat(auth.verify("Bearer not-a-jwt")).isEmpty();
        assertThat(auth.verify("Bearer " + auth.sign(claims("u1", now.minus(Duration.ofHours(2)),
                now.minus(Duration.ofHours(1))).build()))).as("expired").isEmpty();
        assertThat(auth.verify("Bearer " + auth.sign(claims("u1", now, now.plus(Duration.ofHours(1)))
                .issuer("https://elsewhere.example").build()))).as("another issuer").isEmpty();
        assertThat(auth.verify("Bearer " + auth.sign(claims("u1", now, now.plus(Duration.ofHours(1)))
                .audience("another-api").build()))).as("another audience").isEmpty();
        // The same key id, another key: a forged signature.
        RSAKey forger = new RSAKeyGenerator(2048).keyID(auth.keyId()).algorithm(JWSAlgorithm.RS256).generate();
        LocalAuth forged = LocalAuth.of(forger);
        assertThat(auth.verify("Bearer " + forged.mint("u1", true, Duration.ofHours(1), now))).as("forged").isEmpty();
        // A token with its payload changed after signing.
        String[] parts = good.split("\\.");
        String tampered = parts[0] + "." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"sub\":\"u2\",\"iss\":\"tally-local\",\"aud\":\"tally-api\",\"exp\":4102444800,\"iat\":1700000000}"
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)) + "." + parts[2];
        assertThat(auth.verify("Bearer " + tampered)).as("tampered").isEmpty();
        // alg "none": unsigned.
        String unsigned = new com.nimbusds.jwt.PlainJWT(claims("u1", now, now.plus(Duration.ofHours(1))).build())
                .serialize();
        assertThat(auth.verify("Bearer " + unsigned)).as("unsigned").isEmpty();
    }

    /**
     * A token signed by the runner's key but not in the compact form RFC 7515 writes (padding, the standard alphabet,
     * a byte-order mark before the JSON) is refused, as API Gateway refuses it; the same claims written strictly pass.
     */
    @Test
    void aSignedTokenInALaxEncoding_doesNotVerify() throws Exception {
        RSAKey key = new RSAKeyGenerator(2048).keyID("k-lax").algorithm(JWSAlgorithm.RS256).generate();
        LocalAuth strict = LocalAuth.of(key);
        Instant now = Instant.now();
        String header = "{\"alg\":\"RS256\",\"kid\":\"k-lax\"}";
        String payload = "{\"sub\":\"u1\",\"iss\":\"" + LocalAuth.ISSUER + "\",\"aud\":\"" + LocalAuth.AUDIENCE
                + "\",\"exp\":" + now.plus(Duration.ofHours(1)).getEpochSecond() + ",\"iat\":" + now.getEpochSecond()
                + ",\"note\":\"??>>\"}";
        java.util.Base64.Encoder url = java.util.Base64.getUrlEncoder().withoutPadding();
        String good = selfSigned(key, url.encodeToString(bytes(header)), url.encodeToString(bytes(payload)));
        assertThat(strict.verify("Bearer " + good)).as("the strict form").isPresent();
        String padded = selfSigned(key, java.util.Base64.getUrlEncoder().encodeToString(bytes(header)),
                url.encodeToString(bytes(payload)));
        assertThat(padded).contains("=");
        assertThat(strict.verify("Bearer " + padded)).as("padded").isEmpty();
        String standard = selfSigned(key, url.encodeToString(bytes(header)),
                java.util.Base64.getEncoder().withoutPadding().encodeToString(bytes(payload)));
        assertThat(standard).containsAnyOf("+", "/");
        assertThat(strict.verify("Bearer " + standard)).as("standard alphabet").isEmpty();
        String bom = selfSigned(key, url.encodeToString(bytes("\uFEFF" + header)), url.encodeToString(bytes(payload)));
        assertThat(strict.verify("Bearer " + bom)).as("a byte-order mark").isEmpty();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** {@code header.payload.signature}, the signature RS256 over the two parts as given. */
    private static String selfSigned(RSAKey key, String header, String payload) throws Exception {
        java.security.Signature rsa = java.security.Signature.getInstance("SHA256withRSA");
        rsa.initSign(key.toRSAPrivateKey());
        rsa.update((header + "." + payload).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        return header + "." + payload + "." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(rsa.sign());
    }

    /**
     * The checks API Gateway's JWT authorizer makes, and no laxer ones: a key id naming the signing key, the times to
     * the second without clock skew, {@code client_id} only without {@code aud}.
     */
    @Test
    void theChecks_areApiGatewaysJwtAuthorizers() throws Exception {
        RSAKey key = new RSAKeyGenerator(2048).keyID("tally-local-test").algorithm(JWSAlgorithm.RS256).generate();
        LocalAuth auth = LocalAuth.of(key);
        Instant now = Instant.parse("2026-11-26T12:00:00.500Z");
        Instant hourLater = now.plus(Duration.ofHours(1));
        assertThat(auth.verify("Bearer " + auth.sign(claims("u1", now, hourLater).build()), now)).isPresent();

        assertThat(auth.verify("Bearer " + signed(key, null, claims("u1", now, hourLater).build()), now))
                .as("no kid").isEmpty();
        assertThat(auth.verify("Bearer " + signed(key, "another-key", claims("u1", now, hourLater).build()), now))
                .as("a kid that is not the signing key's").isEmpty();
        assertThat(auth.verify("Bearer " + auth.sign(claims("u1", now.minusSeconds(3600), now.minusSeconds(30))
                .build()), now)).as("expired 30 seconds ago").isEmpty();
        assertThat(auth.verify("Bearer " + auth.sign(claims("u1", now.minusSeconds(3600), now.minusSeconds(1))
                .build()), now)).as("expired a second ago").isEmpty();
        assertThat(auth.verify("Bearer " + auth.sign(claims("u1", now.minusSeconds(10), now).build()),
                now.plusMillis(500))).as("expiring this very second").isEmpty();
        assertThat(auth.verify("Bearer " + auth.sign(claims("u1", now.plusSeconds(2), hourLater).build()), now))
                .as("issued in the future").isEmpty();
        assertThat(auth.verify("Bearer " + auth.sign(claims("u1", now, hourLater)
                .notBeforeTime(java.util.Date.from(now.plusSeconds(2))).build()), now)).as("not yet valid").isEmpty();
        assertThat(auth.verify("Bearer " + auth.sign(claims("u1", now, hourLater)
                .notBeforeTime(java.util.Date.from(now.minusSeconds(1))).build()), now)).as("valid since").isPresent();
        assertThat(auth.verify("Bearer " + auth.sign(claims("u1", now, null).build()), now)).as("no exp").isEmpty();
        assertThat(auth.verify("Bearer " + auth.sign(claims("u1", null, hourLater).build()), now))
                .as("no iat: the authorizer checks it when it is there").isPresent();

        JWTClaimsSet accessToken = claims("u1", now, hourLater).audience((String) null)
                .claim("client_id", LocalAuth.AUDIENCE).claim("token_use", "access").build();
        assertThat(auth.verify("Bearer " + auth.sign(accessToken), now)).as("client_id without aud (a Cognito access"
                + " token)").isPresent();
        JWTClaimsSet wrongAud = claims("u1", now, hourLater).audience("another-api")
                .claim("client_id", LocalAuth.AUDIENCE).build();
        assertThat(auth.verify("Bearer " + auth.sign(wrongAud), now)).as("aud decides when it is there").isEmpty();
        JWTClaimsSet neither = claims("u1", now, hourLater).audience((String) null).build();
        assertThat(auth.verify("Bearer " + auth.sign(neither), now)).as("neither aud nor client_id").isEmpty();

        assertThat(auth.verify("Bearer " + auth.sign(claims(null, now, hourLater).build()), now).orElseThrow())
                .as("the authorizer asks for no subject; the writer finds no caller in such claims")
                .doesNotContainKey("sub");
    }

    /** The claims signed with {@code key} under the key id {@code keyId} (none: null). */
    private static String signed(RSAKey key, String keyId, JWTClaimsSet claims) throws Exception {
        com.nimbusds.jwt.SignedJWT jwt = new com.nimbusds.jwt.SignedJWT(new com.nimbusds.jose.JWSHeader.Builder(
                JWSAlgorithm.RS256).keyID(keyId).build(), claims);
        jwt.sign(new com.nimbusds.jose.crypto.RSASSASigner(key));
        return jwt.serialize();
    }

    @Test
    void theJwks_holdsThePublicKeyOnly_andVerifiesTheTokens() throws Exception {
        JWKSet set = JWKSet.parse(auth.jwksJson());
        assertThat(set.getKeys()).singleElement().satisfies(key -> {
            assertThat(key.isPrivate()).isFalse();
            assertThat(key.getKeyID()).isEqualTo(auth.keyId());
        });
        assertThat(auth.jwksJson()).doesNotContain("\"d\"", "\"p\"", "\"q\"");
        com.nimbusds.jwt.SignedJWT jwt = com.nimbusds.jwt.SignedJWT.parse(
                auth.mint("u1", false, Duration.ofMinutes(5), Instant.now()));
        assertThat(jwt.verify(new com.nimbusds.jose.crypto.RSASSAVerifier(set.getKeys().get(0).toRSAKey()))).isTrue();
    }

    @Test
    void theKey_isKeptInTheDataDir_soTokensOutliveARestart(@TempDir Path dataDir) throws Exception {
        assertThat(LocalAuth.existing(dataDir)).isEmpty();
        LocalAuth first = LocalAuth.inDataDir(dataDir);
        String token = first.mint("u1", false, Duration.ofHours(1), Instant.now());
        LocalAuth second = LocalAuth.inDataDir(dataDir);
        assertThat(second.keyId()).isEqualTo(first.keyId());
        assertThat(second.verify("Bearer " + token)).isPresent();
        assertThat(LocalAuth.existing(dataDir).orElseThrow().verify("Bearer " + token)).isPresent();
        Path file = LocalAuth.keyFile(dataDir);
        if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .isEqualTo("rw-------");
        }
        assertThat(LocalAuth.inMemory().verify("Bearer " + token)).as("another key").isEmpty();
    }

    @Test
    void theAuthorizer_putsVerifiedClaimsIntoTheEvent_andDropsAnyOthers() {
        AtomicReference<APIGatewayV2HTTPEvent> seen = new AtomicReference<>();
        JwtAuthorizer authorizer = new JwtAuthorizer(auth, (event, context) -> {
            seen.set(event);
            return APIGatewayV2HTTPResponse.builder().withStatusCode(200).build();
        });
        String token = auth.mint("u1", true, Duration.ofHours(1), Instant.now());
        authorizer.handleRequest(event(Map.of("authorization", "Bearer " + token), null), null);
        Map<String, String> claims = seen.get().getRequestContext().getAuthorizer().getJwt().getClaims();
        assertThat(claims).containsEntry("sub", "u1").containsEntry("cognito:groups", "[admin]");

        // Claims a client smuggled into the event (it cannot over HTTP; the front builds the event) are dropped.
        APIGatewayV2HTTPEvent.RequestContext.Authorizer smuggled = APIGatewayV2HTTPEvent.RequestContext.Authorizer
                .builder().withJwt(APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT.builder()
                        .withClaims(Map.of("sub", "u1")).build()).build();
        authorizer.handleRequest(event(Map.of("authorization", "Bearer forged"), smuggled), null);
        assertThat(seen.get().getRequestContext().getAuthorizer()).isNull();
        authorizer.handleRequest(event(Map.of(), smuggled), null);
        assertThat(seen.get().getRequestContext().getAuthorizer()).isNull();
    }

    private static APIGatewayV2HTTPEvent event(Map<String, String> headers,
            APIGatewayV2HTTPEvent.RequestContext.Authorizer authorizer) {
        return APIGatewayV2HTTPEvent.builder().withRawPath("/users/u1").withHeaders(headers)
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder().withAuthorizer(authorizer)
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder().withMethod("GET").build())
                        .build())
                .build();
    }

    static JWTClaimsSet.Builder claims(String subject, Instant issued, Instant expires) {
        return new JWTClaimsSet.Builder().issuer(LocalAuth.ISSUER).audience(List.of(LocalAuth.AUDIENCE))
                .subject(subject).issueTime(issued == null ? null : Date.from(issued))
                .expirationTime(expires == null ? null : Date.from(expires));
    }
}
