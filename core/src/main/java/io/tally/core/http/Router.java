package io.tally.core.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Matches {@code METHOD /path} against route templates such as {@code /users/{userId}/posts}. Routing on the
 * raw path (not on API Gateway's {@code routeKey}) lets one function serve a {@code $default} route and
 * explicit routes alike, and lets the local front hand over requests exactly as they arrive.
 */
public final class Router {
    /** Handles one matched request. */
    @FunctionalInterface
    public interface Handler {
        ApiResponse handle(ApiRequest request);
    }

    private record Route(String method, String[] segments, Access access, Handler handler) {
        String template() {
            return "/" + String.join("/", segments);
        }
    }

    /** A route's declared access rule, for the route table and its test. */
    public record Rule(String method, String template, Access access) {
        @Override
        public String toString() {
            return method + " " + template + " -> " + access;
        }
    }

    /**
     * A matched route with the path parameters filled in; {@code template} is the route's path as registered, e.g.
     * {@code /users/{userId}/posts} (what metrics name a route by: one series per route, not per path).
     */
    public record Match(Handler handler, Map<String, String> pathParameters, String template) {
    }

    private final List<Route> routes = new ArrayList<>();
    private final Authorization authorization;

    /** Without access checks: every route's rule lets every request through. */
    public Router() {
        this(Authorization.OPEN);
    }

    /** Every matched request passes {@link Authorization#check} with its route's rule before its handler runs. */
    public Router(Authorization authorization) {
        this.authorization = java.util.Objects.requireNonNull(authorization, "authorization");
    }

    /** Adds a route with who may call it; {@code access} is checked before {@code handler} runs. */
    public Router add(String method, String template, Access access, Handler handler) {
        routes.add(new Route(method, split(template), java.util.Objects.requireNonNull(access, "access"), handler));
        return this;
    }

    /**
     * A route without an access rule: refused whenever authorization is on, and named by the route table's test.
     *
     * @deprecated declare the rule: {@link #add(String, String, Access, Handler)}
     */
    @Deprecated
    public Router add(String method, String template, Handler handler) {
        return add(method, template, Access.UNDECLARED, handler);
    }

    /** The route for a request; {@code not_found} for an unknown path, {@code method_not_allowed} otherwise. */
    public Match match(String method, String rawPath) {
        String[] segments = split(rawPath == null ? "" : rawPath);
        Set<String> allowed = new TreeSet<>();
        for (Route route : routes) {
            Map<String, String> parameters = bind(route.segments, segments);
            if (parameters == null) {
                continue;
            }
            if (route.method.equalsIgnoreCase(method)) {
                return new Match(guarded(route), parameters, route.template());
            }
            allowed.add(route.method);
        }
        if (allowed.isEmpty()) {
            throw ApiException.notFound("no route for " + rawPath);
        }
        throw new ApiException(ErrorCode.METHOD_NOT_ALLOWED,
                method + " is not allowed here; allowed: " + String.join(", ", allowed), null);
    }

    /** Every route as {@code METHOD /template}, in the order they were added: what the dashboard may read. */
    public List<String> describe() {
        return routes.stream().map(route -> route.method + " " + route.template()).toList();
    }

    /** Every route with its access rule, in the order they were added. */
    public List<Rule> rules() {
        return routes.stream().map(route -> new Rule(route.method, route.template(), route.access)).toList();
    }

    /** The route's handler behind the one access check (the handler itself when authorization is off). */
    private Handler guarded(Route route) {
        if (!authorization.enabled()) {
            return route.handler;
        }
        return request -> {
            authorization.check(route.access, request);
            return route.handler.handle(request);
        };
    }

    /** The methods a path supports, for the {@code Allow} header of a 405. */
    public Set<String> allowedMethods(String rawPath) {
        String[] segments = split(rawPath == null ? "" : rawPath);
        Set<String> allowed = new TreeSet<>();
        for (Route route : routes) {
            if (bind(route.segments, segments) != null) {
                allowed.add(route.method);
            }
        }
        return allowed;
    }

    private static Map<String, String> bind(String[] template, String[] path) {
        if (template.length != path.length) {
            return null;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < template.length; i++) {
            String part = template[i];
            if (part.startsWith("{") && part.endsWith("}")) {
                String value = decode(path[i]);
                if (value == null || value.isEmpty()) {
                    return null;
                }
                parameters.put(part.substring(1, part.length() - 1), value);
            } else if (!part.equals(path[i])) {
                return null;
            }
        }
        return parameters;
    }

    private static String decode(String segment) {
        try {
            // URLDecoder would turn '+' into a space; in a path '+' is a literal plus.
            return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String[] split(String path) {
        String trimmed = path;
        while (trimmed.startsWith("/")) {
            trimmed = trimmed.substring(1);
        }
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed.isEmpty() ? new String[0] : trimmed.split("/", -1);
    }
}
