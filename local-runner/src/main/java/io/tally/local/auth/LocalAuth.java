package io.tally.local.auth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.ConfigurableJWTProcessor;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The local stand-in for the deployment's token issuer (a Cognito user pool or another OIDC issuer) and for API
 * Gateway's JWT authorizer, for {@code tally-local --auth}: one RS256 key pair, which signs the tokens
 * {@code tally-local token} mints and verifies the bearer tokens the front receives. All cryptography is
 * nimbus-jose-jwt's: its JWT processor checks the signature against the local JWKS, the issuer, the audience and the
 * expiry.
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

    private final RSAKey key;
    private final ConfigurableJWTProcessor<SecurityContext> processor;

    private LocalAuth(RSAKey key) {
        this.key = key;
        DefaultJWTProcessor<SecurityContext> jwtProcessor = new DefaultJWTProcessor<>();
        jwtProcessor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256,
                new ImmutableJWKSet<>(new JWKSet(key.toPublicJWK()))));
        jwtProcessor.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(AUDIENCE,
                new JWTClaimsSet.Builder().issuer(ISSUER).build(), Set.of("sub", "iat", "exp")));
        this.processor = jwtProcessor;
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
     * The claims of a valid bearer token, written as API Gateway's JWT authorizer writes them into
     * {@code requestContext.authorizer.jwt.claims} (payload 2.0): every value a string, a number as its digits, a list
     * as {@code [a b]}. Empty for a missing header, a header that is not {@code Bearer <token>}, or a token that
     * fails any check (signature, algorithm, key id, issuer, audience, expiry, not-before).
     */
    public Optional<Map<String, String>> verify(String authorizationHeader) {
        if (authorizationHeader == null) {
            return Optional.empty();
        }
        String header = authorizationHeader.trim();
        if (header.length() < 7 || !header.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
            return Optional.empty();
        }
        try {
            JWTClaimsSet claims = processor.process(header.substring(7).trim(), null);
            return Optional.of(apiGatewayClaims(claims));
        } catch (ParseException | BadJOSEException | JOSEException e) {
            return Optional.empty();
        }
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
        try {
            Files.createDirectories(file.getParent());
            Path temporary = Files.createTempFile(file.getParent(), ".signing-key", ".tmp");
            try {
                Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // Not a POSIX file system: the data directory's own permissions protect it.
            }
            Files.writeString(temporary, json, StandardCharsets.UTF_8);
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the local signing key " + file, e);
        }
    }
}
