package io.tally.local.auth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The local stand-in for the deployment's token issuer (a Cognito user pool or another OIDC issuer) and for API
 * Gateway's JWT authorizer, for {@code tally-local --auth}: one RS256 key pair, which signs the tokens
 * {@code tally-local token} mints and verifies the bearer tokens the front receives, with the checks of an HTTP
 * API's JWT authorizer ({@link #verify(String, Instant)}). The cryptography is nimbus-jose-jwt's.
 *
 * <p>With a data directory the key is kept in {@value #KEY_FILE} below it (owner-only permissions), so tokens minted
 * before a restart stay valid; without one it lives in memory, gone when the runner stops.
 */
public final class LocalAuth {
    /** The {@code iss} of local tokens; fixed, so that a token outlives a restart on another port. */
    public static final String ISSUER = "tally-local";
    /** The {@code aud} of local tokens (on AWS: the Cognito app client id, or the OIDC audience parameter). */
    public static final String AUDIENCE = "tally-api";
    /** Where the key pair is kept, relative to the data directory. */
    public static final String KEY_FILE = "auth/local-signing-key.jwk.json";
    /** The Cognito group claim that grants admin routes, as a Cognito user pool writes it. */
    public static final String GROUPS_CLAIM = "cognito:groups";
    public static final String ADMIN_GROUP = "admin";
    /** Refused by {@link #mint}: a local token is for trying things, not a credential to keep. */
    public static final Duration MAX_TTL = Duration.ofDays(30);

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The scheme prefix the authorizer's identity source may carry before the token. */
    private static final String BEARER = "Bearer ";

    private final RSAKey key;

    private LocalAuth(RSAKey key) {
        this.key = key;
    }

    /** With a given key pair (tests: another key under the same key id forges a signature). */
    static LocalAuth of(RSAKey key) {
        return new LocalAuth(key);
    }

    /** A new key pair, in memory only. */
    public static LocalAuth inMemory() {
        return new LocalAuth(generate());
    }

    /** The key pair kept under {@code dataDir} ({@value #KEY_FILE}), created there on first use. */
    public static LocalAuth inDataDir(Path dataDir) {
        Path file = keyFile(dataDir);
        Optional<LocalAuth> existing = existing(dataDir);
        if (existing.isPresent()) {
            return existing.get();
        }
        RSAKey key = generate();
        write(file, key.toJSONString());
        return new LocalAuth(key);
    }

    /** The key pair kept under {@code dataDir}, if there is one (for {@code tally-local token}). */
    public static Optional<LocalAuth> existing(Path dataDir) {
        Path file = keyFile(dataDir);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            RSAKey key = RSAKey.parse(Files.readString(file, StandardCharsets.UTF_8));
            if (!key.isPrivate()) {
                throw new IllegalStateException(file + " holds no private key");
            }
            return Optional.of(new LocalAuth(key));
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the local signing key " + file, e);
        } catch (ParseException e) {
            throw new IllegalStateException("the local signing key " + file + " is not a JWK: " + e.getMessage()
                    + "; remove it to have a new one made (tokens minted with it stop working)", e);
        }
    }

    public static Path keyFile(Path dataDir) {
        return dataDir.resolve(KEY_FILE);
    }

    /** The public key as a JSON Web Key Set, as {@code GET /.well-known/jwks.json} serves it. */
    public String jwksJson() {
        return new JWKSet(key.toPublicJWK()).toString(true);
    }

    public String keyId() {
        return key.getKeyID();
    }

    /**
     * A token for {@code subject}, valid from {@code now} for {@code ttl}; with {@code admin}, in the {@code admin}
     * group ({@code cognito:groups}, as a Cognito user pool's token).
     */
    public String mint(String subject, boolean admin, Duration ttl, Instant now) {
        if (subject == null || subject.isBlank()) {
            throw new IllegalArgumentException("a token needs a subject");
        }
        if (ttl.isNegative() || ttl.isZero() || ttl.compareTo(MAX_TTL) > 0) {
            throw new IllegalArgumentException("a token's lifetime is more than 0 and at most " + MAX_TTL.toDays()
                    + " days, not " + ttl);
        }
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .audience(AUDIENCE)
                .subject(subject)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(ttl)))
                .jwtID(UUID.randomUUID().toString())
                .claim("token_use", "access");
        if (admin) {
            claims.claim(GROUPS_CLAIM, List.of(ADMIN_GROUP));
        }
        return sign(claims.build());
    }

    /** Signs any claims with the local key (tests make wrong tokens with it: another issuer, an expired one). */
    public String sign(JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID())
                    .type(JOSEObjectType.JWT).build(), claims);
            jwt.sign(new RSASSASigner(key));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException("could not sign a token with the local key", e);
        }
    }

    /**
     * The claims of a valid token, written as API Gateway's JWT authorizer writes them into
     * {@code requestContext.authorizer.jwt.claims} (payload 2.0): every value a string, a number as its digits, a list
     * as {@code [a b]}. Empty when the token fails any check of {@link #verify(String, Instant)}, at the current time.
     */
    public Optional<Map<String, String>> verify(String authorizationHeader) {
        return verify(authorizationHeader, Instant.now());
    }

    /**
     * Verifies the {@code authorization} header as an HTTP API's JWT authorizer does, following AWS's description of
     * it ("Controlling access to HTTP APIs with JWT authorizers", API Gateway developer guide, section "Authorizing API
     * requests"), neither more leniently nor more strictly where that page is precise:
     * <ol>
     *   <li>The identity source holds the token alone or prefixed with {@code Bearer } (as the page writes it; another
     *       spelling of the scheme is read as part of the token, which then does not decode).</li>
     *   <li>The token decodes as a signed JWT with an RSA algorithm (the page: "only RSA-based algorithms are
     *       supported"; the local key signs RS256, so that is the one accepted) and its signature verifies with the
     *       key of the JWKS ({@link #jwksJson}).</li>
     *   <li>{@code kid}: the header must have one, and it must name the key that signed the token.</li>
     *   <li>{@code iss}: must be {@value #ISSUER}.</li>
     *   <li>{@code aud} or {@code client_id}: {@code aud} must hold {@value #AUDIENCE}; {@code client_id} is
     *       checked only when there is no {@code aud} (the page: "API Gateway validates client_id only if aud is not
     *       present"), which is how a Cognito access token names its app client.</li>
     *   <li>{@code exp} must be after {@code now}; {@code nbf} and {@code iat} must not be after it. No clock skew
     *       is allowed: the page names none (nimbus' default verifier allowed 60 seconds, so a token expired 30
     *       seconds ago passed). The times are whole seconds, so a token issued within the current second counts as
     *       issued before it.</li>
     * </ol>
     * Where the page says nothing this is a choice: a token without {@code exp} is refused (it could never be
     * "after the current time"), one without {@code nbf} or {@code iat} is not. Nor does the authorizer ask for a
     * subject: a token without {@code sub} passes here, and the writer finds no caller in it (a route that needs one
     * answers 401). Route scopes ({@code authorizationScopes}) are not checked: the template sets none.
     */
    public Optional<Map<String, String>> verify(String authorizationHeader, Instant now) {
        if (authorizationHeader == null) {
            return Optional.empty();
        }
        String header = authorizationHeader.trim();
        String token = header.startsWith(BEARER) ? header.substring(BEARER.length()) : header;
        if (!isStrictCompact(token)) {
            return Optional.empty();
        }
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            JWSHeader jws = jwt.getHeader();
            if (!JWSAlgorithm.RS256.equals(jws.getAlgorithm()) || jws.getKeyID() == null
                    || !jws.getKeyID().equals(key.getKeyID())
                    || !jwt.verify(new RSASSAVerifier(key.toRSAPublicKey()))) {
                return Optional.empty();
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            return accepted(claims, now) ? Optional.of(apiGatewayClaims(claims)) : Optional.empty();
        } catch (ParseException | JOSEException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether the token is a JWS in the compact form exactly as RFC 7515 writes it: three parts of base64url without
     * padding, each the one encoding of its bytes, and a header and payload that are JSON with no byte-order mark.
     * nimbus takes more (padding, the standard alphabet's {@code +} and {@code /}, a BOM), which API Gateway does not.
     */
    static boolean isStrictCompact(String token) {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            return false;
        }
        for (int i = 0; i < 3; i++) {
            if (!parts[i].matches("[A-Za-z0-9_-]+")) {
                return false;
            }
            byte[] bytes;
            try {
                bytes = java.util.Base64.getUrlDecoder().decode(parts[i]);
            } catch (IllegalArgumentException e) {
                return false;
            }
            if (!java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).equals(parts[i])) {
                return false;
            }
            if (i < 2 && (bytes.length == 0 || bytes[0] != '{')) {
                return false;
            }
        }
        return true;
    }

    /** The claim checks of {@link #verify(String, Instant)}. */
    private static boolean accepted(JWTClaimsSet claims, Instant now) throws ParseException {
        if (!ISSUER.equals(claims.getIssuer())) {
            return false;
        }
        List<String> audience = claims.getAudience();
        boolean audienceMatches = audience != null && !audience.isEmpty() ? audience.contains(AUDIENCE)
                : AUDIENCE.equals(claims.getStringClaim("client_id"));
        if (!audienceMatches) {
            return false;
        }
        Date expires = claims.getExpirationTime();
        if (expires == null || !now.isBefore(expires.toInstant())) {
            return false;
        }
        Date notBefore = claims.getNotBeforeTime();
        if (notBefore != null && notBefore.toInstant().isAfter(now)) {
            return false;
        }
        Date issued = claims.getIssueTime();
        return issued == null || !issued.toInstant().isAfter(now);
    }

    static Map<String, String> apiGatewayClaims(JWTClaimsSet claims) {
        Map<String, String> rendered = new LinkedHashMap<>();
        claims.toJSONObject().forEach((name, value) -> {
            if (value != null) {
                rendered.put(name, render(value));
            }
        });
        return rendered;
    }

    private static String render(Object value) {
        if (value instanceof List<?> list) {
            return list.stream().map(LocalAuth::render).collect(Collectors.joining(" ", "[", "]"));
        }
        if (value instanceof Map<?, ?> map) {
            try {
                return JSON.writeValueAsString(map);
            } catch (JsonProcessingException e) {
                return String.valueOf(map);
            }
        }
        return String.valueOf(value);
    }

    private static RSAKey generate() {
        try {
            return new RSAKeyGenerator(2048)
                    .keyUse(KeyUse.SIGNATURE)
                    .algorithm(JWSAlgorithm.RS256)
                    .keyID("tally-local-" + UUID.randomUUID())
                    .issueTime(new Date())
                    .generate();
        } catch (JOSEException e) {
            throw new IllegalStateException("could not generate the local signing key", e);
        }
    }

    /** Written to a temporary file first, readable by its owner only where the file system says so. */
    private static void write(Path file, String json) {
        PrivateFiles.write(file, json, "the local signing key");
    }
}
