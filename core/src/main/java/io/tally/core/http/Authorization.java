package io.tally.core.http;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The one place where a route's {@link Access} rule is checked against the request's {@link Caller}. The caller comes
 * only from the claims API Gateway's JWT authorizer verified (locally: the claims the front verified with the local
 * key and put where API Gateway puts them).
 *
 * @param enabled        off: every request passes, as before access control existed (the local default);
 *                       {@code AUTH_ENABLED}
 * @param publicReadSide whether the aggregate read side and the dashboard need no token; {@code PUBLIC_READ_SIDE}
 */
public record Authorization(boolean enabled, boolean publicReadSide) {
    /** No checks at all. */
    public static final Authorization OPEN = new Authorization(false, true);

    /** Checks on, with the read side public or not. */
    public static Authorization required(boolean publicReadSide) {
        return new Authorization(true, publicReadSide);
    }

    /**
     * Lets the request through or throws {@code unauthorized} (401: no valid token where one is needed) or
     * {@code forbidden} (403: a valid token that does not grant this route).
     */
    public void check(Access access, ApiRequest request) {
        if (!enabled) {
            return;
        }
        Caller caller = request.caller();
        switch (access.kind()) {
            case READ_SIDE -> {
                if (!publicReadSide) {
                    signedIn(caller);
                }
            }
            case SIGNED_IN -> signedIn(caller);
            case ADMIN -> {
                signedIn(caller);
                if (!caller.isAdmin()) {
                    throw ApiException.forbidden("this route needs the '" + Caller.ADMIN + "' group or scope");
                }
            }
            case OWNER -> {
                signedIn(caller);
                if (!caller.subject().equals(request.pathParameters().get(access.parameter()))) {
                    throw ApiException.forbidden("only the user '" + request.pathParameters().get(access.parameter())
                            + "' may change this");
                }
            }
            case OWNER_OR_ADMIN -> {
                signedIn(caller);
                if (!caller.isAdmin() && !caller.subject().equals(request.pathParameters().get(access.parameter()))) {
                    throw ApiException.forbidden("only the user '" + request.pathParameters().get(access.parameter())
                            + "' or an admin may read this");
                }
            }
            case NEW_USER, AUTHOR -> {
                signedIn(caller);
                String claimed = bodyText(request.body(), access.parameter());
                if (claimed != null && !claimed.equals(caller.subject())) {
                    throw ApiException.forbidden("'" + access.parameter() + "' must be the token's subject");
                }
            }
            case AUTHOR_OWNER_OR_ADMIN -> signedIn(caller);
            case UNDECLARED -> throw ApiException.forbidden("this route declares no access rule");
        }
    }

    /**
     * The rest of {@link Access.Kind#AUTHOR_OWNER_OR_ADMIN}, once the route has read the item: lets the author, the
     * user the path parameter names, or an admin through, and throws {@code forbidden} otherwise. An anonymous caller
     * passes: {@link #check} refused one before the route ran unless checks are off (the writer then drops whatever
     * claims arrive, so every caller is anonymous).
     *
     * @param authorId the item's author
     */
    public static void checkAuthor(Access access, ApiRequest request, String authorId) {
        if (access.kind() != Access.Kind.AUTHOR_OWNER_OR_ADMIN) {
            throw new IllegalArgumentException("not an author rule: " + access);
        }
        Caller caller = request.caller();
        if (caller.isAnonymous() || caller.isAdmin() || caller.subject().equals(authorId)
                || caller.subject().equals(request.pathParameters().get(access.parameter()))) {
            return;
        }
        throw ApiException.forbidden("only its author, the user '" + request.pathParameters().get(access.parameter())
                + "' or an admin may delete this");
    }

    private static void signedIn(Caller caller) {
        if (caller.isAnonymous()) {
            throw ApiException.unauthorized("this route needs a valid bearer token (Authorization: Bearer <JWT>)");
        }
    }

    /** A text field of a JSON object body; null when absent or when the body is not readable (the route says 400). */
    private static String bodyText(String body, String field) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            JsonNode value = Json.MAPPER.readTree(body).path(field);
            return value.isTextual() ? value.asText() : null;
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }
}
