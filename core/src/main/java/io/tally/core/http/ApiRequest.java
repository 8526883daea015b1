package io.tally.core.http;

import io.tally.core.Ids;
import java.util.Map;

/**
 * One HTTP request as the routes see it: header names in lower case (as API Gateway HTTP APIs deliver them),
 * path parameters already percent-decoded, the body as text, and the caller of the verified token claims
 * ({@link Caller#ANONYMOUS} without).
 */
public record ApiRequest(String method, String path, Map<String, String> pathParameters,
                         Map<String, String> query, Map<String, String> headers, String body, Caller caller) {

    public ApiRequest {
        pathParameters = Map.copyOf(pathParameters);
        query = Map.copyOf(query);
        headers = Map.copyOf(headers);
        caller = caller == null ? Caller.ANONYMOUS : caller;
    }

    /** An anonymous request. */
    /** A version in an entity tag: ASCII digits, at most 18 (a long). */
    private static final java.util.regex.Pattern VERSION = java.util.regex.Pattern.compile("[0-9]{1,18}");

    public ApiRequest(String method, String path, Map<String, String> pathParameters,
                      Map<String, String> query, Map<String, String> headers, String body) {
        this(method, path, pathParameters, query, headers, body, Caller.ANONYMOUS);
    }

    public ApiRequest withPathParameters(Map<String, String> parameters) {
        return new ApiRequest(method, path, parameters, query, headers, body, caller);
    }

    public ApiRequest withCaller(Caller newCaller) {
        return new ApiRequest(method, path, pathParameters, query, headers, body, newCaller);
    }

    /** A path parameter that must be an identifier; a malformed one is a {@code validation_failed}. */
    public String id(String name) {
        String value = pathParameters.get(name);
        if (!Ids.isValid(value)) {
            throw ApiException.validation(name, "'" + name + "' must match " + Ids.PATTERN.pattern());
        }
        return value;
    }

    public String queryParameter(String name) {
        return query.get(name);
    }

    public String header(String name) {
        return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * The {@code If-Match} precondition. {@code *} matches any existing version; an entity tag that is not a
     * version number can never match, so it is a 412 rather than a 400. A value that is not {@link Text} at all (a
     * control character, a lone surrogate) is a 400 {@code bad_request}.
     */
    public IfMatch ifMatch() {
        String value = header("if-match");
        if (value == null) {
            return IfMatch.NONE;
        }
        String problem = Text.problem(value, Text.Lines.SINGLE);
        if (problem != null) {
            throw ApiException.badRequest("the header If-Match " + problem, "If-Match");
        }
        String tag = value.trim();
        if (tag.equals("*")) {
            return IfMatch.ANY;
        }
        if (tag.startsWith("W/")) {
            tag = tag.substring(2);
        }
        if (tag.length() >= 2 && tag.startsWith("\"") && tag.endsWith("\"")) {
            tag = tag.substring(1, tag.length() - 1);
        }
        // A version as the ETag writes it: ASCII digits, compared exactly ("+2", " 2", other scripts' digits never match).
        if (!VERSION.matcher(tag).matches()) {
            throw ApiException.preconditionFailed("If-Match '" + value + "' does not match the current version");
        }
        return new IfMatch(true, Long.parseLong(tag));
    }
}
