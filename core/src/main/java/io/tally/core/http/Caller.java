package io.tally.core.http;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who sent a request, as API Gateway's JWT authorizer verified it: the token's claims from
 * {@code requestContext.authorizer.jwt.claims} and its scopes. Nothing else of a request names a caller; a request
 * without verified claims is {@link #ANONYMOUS}.
 *
 * @param subject the token's {@code sub} claim; null when anonymous
 * @param groups  the {@code cognito:groups} claim
 * @param scopes  the token's scopes ({@code requestContext.authorizer.jwt.scopes} and the {@code scope} claim)
 */
public record Caller(String subject, Set<String> groups, Set<String> scopes) {
    /** The group (Cognito) or scope (any OIDC issuer) that grants the catalogue, songs and organisations. */
    public static final String ADMIN = "admin";
    public static final Caller ANONYMOUS = new Caller(null, Set.of(), Set.of());

    public Caller {
        groups = Set.copyOf(groups);
        scopes = Set.copyOf(scopes);
    }

    /**
     * The caller of the verified claims as API Gateway's JWT authorizer passes them (payload format 2.0): every value
     * a string, a list claim written as {@code [a b c]}. No claims, or no {@code sub}: {@link #ANONYMOUS}.
     */
    public static Caller fromClaims(Map<String, String> claims, List<String> scopes) {
        if (claims == null || claims.get("sub") == null || claims.get("sub").isBlank()) {
            return ANONYMOUS;
        }
        Set<String> allScopes = new LinkedHashSet<>();
        if (scopes != null) {
            scopes.forEach(scope -> allScopes.addAll(list(scope)));
        }
        allScopes.addAll(list(claims.get("scope")));
        return new Caller(claims.get("sub"), Set.copyOf(list(claims.get("cognito:groups"))), allScopes);
    }

    public boolean isAnonymous() {
        return subject == null;
    }

    public boolean isAdmin() {
        return !isAnonymous() && (groups.contains(ADMIN) || scopes.contains(ADMIN));
    }

    /**
     * The values of a list claim: API Gateway writes an array as {@code [a b]}; a {@code scope} claim is space
     * separated; a JSON array ({@code ["a","b"]}) is read too.
     */
    static List<String> list(String claim) {
        if (claim == null || claim.isBlank()) {
            return List.of();
        }
        String text = claim.trim();
        if (text.startsWith("[") && text.endsWith("]")) {
            text = text.substring(1, text.length() - 1);
        }
        return java.util.Arrays.stream(text.split("[\\s,]+"))
                .map(value -> value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                        ? value.substring(1, value.length() - 1) : value)
                .filter(value -> !value.isEmpty())
                .toList();
    }
}
