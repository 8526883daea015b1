package io.tally.core.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who sent a request, as API Gateway's JWT authorizer verified it: the token's claims from
 * {@code requestContext.authorizer.jwt.claims} and its scopes. Nothing else of a request names a caller; a request
 * without verified claims is {@link #ANONYMOUS}.
 *
 * <p>Groups and scopes are names matched whole: a group {@code ops,admin}, {@code "admin"} (with the quotes) or
 * {@code not admin} is not {@code admin}. How they are read from what API Gateway hands over is in
 * {@link #fromClaims(Map, List, String)}.
 *
 * @param subject the token's {@code sub} claim; null when anonymous
 * @param groups  the {@code cognito:groups} claim's names
 * @param scopes  the token's scopes ({@code requestContext.authorizer.jwt.scopes} and the {@code scope} claim)
 */
public record Caller(String subject, Set<String> groups, Set<String> scopes) {
    /** The group (Cognito) or scope (any OIDC issuer) that grants the catalogue, songs and organisations. */
    public static final String ADMIN = "admin";
    /** The claim of a Cognito user pool's groups: an array of names. */
    public static final String GROUPS_CLAIM = "cognito:groups";
    /**
     * The claim by which a Cognito user pool tells its token kinds apart: {@value #ACCESS_TOKEN} for an access token,
     * {@code id} for an ID token.
     */
    public static final String TOKEN_USE_CLAIM = "token_use";
    public static final String ACCESS_TOKEN = "access";
    public static final Caller ANONYMOUS = new Caller(null, Set.of(), Set.of());

    public Caller {
        groups = Set.copyOf(groups);
        scopes = Set.copyOf(scopes);
    }

    /** {@link #fromClaims(Map, List, String)} without the request's token: group lists are read from the claims. */
    public static Caller fromClaims(Map<String, String> claims, List<String> scopes) {
        return fromClaims(claims, scopes, null);
    }

    /**
     * The caller of the verified claims as API Gateway's JWT authorizer passes them in payload format 2.0, where every
     * claim is a string and an array claim is written as its elements between brackets, separated by one space
     * ({@code ["staff","admin"]} arrives as {@code "[staff admin]"}; the AWS documentation says only that the claims
     * are passed, the sample events show string values, and this is how the service renders arrays).
     *
     * <ul>
     *   <li>No claims, or no {@code sub}: {@link #ANONYMOUS}.</li>
     *   <li>A token whose {@value #TOKEN_USE_CLAIM} is there and is not {@value #ACCESS_TOKEN} (a Cognito ID token,
     *       which the authorizer accepts too because its {@code aud} is the app client id): {@link #ANONYMOUS}. Tally
     *       takes access tokens; a token without the claim (another OIDC issuer) is taken, and that issuer's audience
     *       must be one only its access tokens carry.</li>
     *   <li>Scopes: each element of {@code scopes} is one name, and the {@code scope} claim is split at single spaces
     *       (RFC 6749, section 3.3: a scope token never holds a space).</li>
     *   <li>Groups: the rendering {@code [a b]} cannot tell {@code ["not admin"]} from {@code ["not","admin"]}. So the
     *       names are read from the token itself when the request carries it: the {@code authorization} header is the
     *       authorizer's identity source ({@code Bearer <JWT>} or the bare token), API Gateway verified exactly that
     *       token and passes the header on. Its payload is used only if it is the verified token (same {@code sub},
     *       and {@code iss}, {@code jti}, {@code token_use} where the claims have them) and its group array, rendered
     *       as API Gateway renders it, is the claim that was verified. Without such a token the claim is read alone:
     *       {@code [a]} is the one name {@code a}, {@code []} none, a value without brackets (a string claim) one
     *       name, and a list with a space in it, which could be any split of its text, grants no group at all.</li>
     * </ul>
     *
     * @param authorization the request's {@code authorization} header, or null
     */
    public static Caller fromClaims(Map<String, String> claims, List<String> scopes, String authorization) {
        if (claims == null || claims.get("sub") == null || claims.get("sub").isBlank()) {
            return ANONYMOUS;
        }
        String tokenUse = claims.get(TOKEN_USE_CLAIM);
        if (tokenUse != null && !tokenUse.equals(ACCESS_TOKEN)) {
            return ANONYMOUS;
        }
        Set<String> allScopes = new LinkedHashSet<>();
        if (scopes != null) {
            scopes.stream().filter(scope -> scope != null && !scope.isEmpty()).forEach(allScopes::add);
        }
        allScopes.addAll(spaceSeparated(claims.get("scope")));
        return new Caller(claims.get("sub"), groups(claims, authorization), allScopes);
    }

    public boolean isAnonymous() {
        return subject == null;
    }

    public boolean isAdmin() {
        return !isAnonymous() && (groups.contains(ADMIN) || scopes.contains(ADMIN));
    }

    /** The names of a space-separated claim ({@code scope}); none for null. */
    static List<String> spaceSeparated(String claim) {
        if (claim == null) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        for (String name : claim.split(" ", -1)) {
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return names;
    }

    private static Set<String> groups(Map<String, String> claims, String authorization) {
        String rendered = claims.get(GROUPS_CLAIM);
        if (rendered == null) {
            return Set.of();
        }
        Optional<JsonNode> payload = verifiedPayload(claims, authorization);
        if (payload.isPresent()) {
            JsonNode value = payload.get().get(GROUPS_CLAIM);
            if (value == null || !rendered.equals(apiGatewayRendering(value))) {
                // The verified token, but its groups are not what was verified: believe neither.
                return Set.of();
            }
            if (value.isTextual()) {
                return Set.of(value.asText());
            }
            Set<String> names = new LinkedHashSet<>();
            value.forEach(name -> names.add(name.asText()));
            return names;
        }
        return fromRendering(rendered);
    }

    /** A group claim read alone; see {@link #fromClaims(Map, List, String)}. */
    static Set<String> fromRendering(String rendered) {
        if (rendered.length() >= 2 && rendered.startsWith("[") && rendered.endsWith("]")) {
            String inner = rendered.substring(1, rendered.length() - 1);
            if (inner.isEmpty() || inner.contains(" ")) {
                return Set.of();
            }
            return Set.of(inner);
        }
        return rendered.isEmpty() ? Set.of() : Set.of(rendered);
    }

    /**
     * How API Gateway writes a claim's value: a string as it is, an array of strings as {@code [a b]}; null for any
     * other value, whose rendering this code does not rely on.
     */
    static String apiGatewayRendering(JsonNode value) {
        if (value.isTextual()) {
            return value.asText();
        }
        if (!value.isArray()) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (JsonNode element : value) {
            if (!element.isTextual()) {
                return null;
            }
            names.add(element.asText());
        }
        return "[" + String.join(" ", names) + "]";
    }

    /** The payload of the request's token, when it is the token whose claims these are. */
    private static Optional<JsonNode> verifiedPayload(Map<String, String> claims, String authorization) {
        if (authorization == null) {
            return Optional.empty();
        }
        String token = authorization.startsWith("Bearer ") ? authorization.substring(7) : authorization;
        String[] parts = token.trim().split("\\.", -1);
        if (parts.length != 3) {
            return Optional.empty();
        }
        JsonNode payload;
        try {
            payload = Json.MAPPER.readTree(new String(Base64.getUrlDecoder().decode(parts[1]),
                    StandardCharsets.UTF_8));
        } catch (java.io.IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
        if (payload == null || !payload.isObject()) {
            return Optional.empty();
        }
        for (String claim : List.of("sub", "iss", "jti", TOKEN_USE_CLAIM)) {
            String verified = claims.get(claim);
            JsonNode value = payload.get(claim);
            boolean same = verified == null ? value == null : value != null && value.isTextual()
                    && value.asText().equals(verified);
            if (!same) {
                return Optional.empty();
            }
        }
        return Optional.of(payload);
    }
}
