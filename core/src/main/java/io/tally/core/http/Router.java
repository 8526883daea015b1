package io.tally.core.http;

import java.util.ArrayList;
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

    /**
     * A route as declared: its method, path template, access rule and what it documents of itself for the OpenAPI
     * document ({@link #summary}, {@link #query}, {@link #body}, {@link #returns}). {@link #add} declares the next
     * route, so that a domain's routes read as one table:
     * <pre>
     * router.add("POST", "/orgs/{orgId}/teams", Access.ADMIN, this::create).summary("Create a team")
     *         .body(TEAM_FIELDS).returns(201, Team.class)
     *       .add("GET", "/teams/{teamId}", Access.ADMIN, this::get).summary("A team by id").returns(200, Team.class);
     * </pre>
     */
    public final class Route {
        private final String method;
        private final String[] segments;
        private final Access access;
        private final Handler handler;
        private String summary;
        private final List<String> query = new ArrayList<>();
        private List<Field<?>> bodyFields = List.of();
        private boolean bodyRequired = true;
        private int status;
        private Class<?> returns;
        private boolean page;

        private Route(String method, String[] segments, Access access, Handler handler) {
            this.method = method;
            this.segments = segments;
            this.access = access;
            this.handler = handler;
            this.status = "POST".equals(method) ? 201 : 200;
        }

        /** One line that says what the route does. */
        public Route summary(String text) {
            this.summary = text;
            return this;
        }

        /** The query parameters it reads, e.g. {@code limit}, {@code cursor}. */
        public Route query(String... names) {
            query.addAll(List.of(names));
            return this;
        }

        /** Its input contract: the fields its JSON body may hold, which it parses with {@link Body#parse(String, Fields)}. */
        public Route body(Fields fields) {
            this.bodyFields = fields.list();
            return this;
        }

        /**
         * Its input contract, when the body may also be left out: the handler parses it with
         * {@link Body#parseOptional(String, Fields)}, so that no body is a body with none of the fields.
         */
        public Route optionalBody(Fields fields) {
            body(fields);
            this.bodyRequired = false;
            return this;
        }

        /** Its success status and the shape of that answer's body (a record, or {@link Page} for a list). */
        public Route returns(int successStatus, Class<?> shape) {
            this.status = successStatus;
            this.returns = shape;
            return this;
        }

        /**
         * A list: its answer is the contract's page, {@code {"items": [...], "cursor": ...}}, of items of this shape,
         * and it reads {@code limit} and {@code cursor}.
         */
        public Route page(Class<?> itemShape) {
            this.returns = itemShape;
            this.page = true;
            this.status = 200;
            query("limit", "cursor");
            return this;
        }

        /** Declares the next route of the table. */
        public Route add(String method, String template, Access access, Handler handler) {
            return Router.this.add(method, template, access, handler);
        }

        String template() {
            return "/" + String.join("/", segments);
        }

        /** What the OpenAPI document and the route table's tests read. */
        public Description describe() {
            return new Description(method, template(), access, summary, List.copyOf(query), bodyFields, bodyRequired,
                    status, returns, page);
        }
    }

    /**
     * A route as the OpenAPI document shows it.
     *
     * @param fields       the fields of its JSON body, as declared; empty for a route without a body
     * @param bodyRequired whether a route with body fields needs a body
     * @param returns      the success answer's shape (a page's item shape when {@code page}), or null when undeclared
     */
    public record Description(String method, String template, Access access, String summary, List<String> query,
                              List<Field<?>> fields, boolean bodyRequired, int status, Class<?> returns, boolean page) {
        public Description {
            fields = List.copyOf(fields);
        }

        /** The names of its body's fields, sorted (empty for a route without a body). */
        public List<String> body() {
            return fields.stream().map(Field::name).sorted().toList();
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
     * {@code /users/{userId}/posts} (what metrics name a route by: one series per route, not per path); {@code access}
     * its declared rule (whether its answer is public, for the caching headers).
     */
    public record Match(Handler handler, Map<String, String> pathParameters, String template, Access access) {
    }

    private final List<Route> routes = new ArrayList<>();
    private final Authorization authorization;
    private WriteQuota writeQuota = WriteQuota.NONE;

    /** Without access checks: every route's rule lets every request through. */
    public Router() {
        this(Authorization.OPEN);
    }

    /** Every matched request passes {@link Authorization#check} with its route's rule before its handler runs. */
    public Router(Authorization authorization) {
        this.authorization = java.util.Objects.requireNonNull(authorization, "authorization");
    }

    /**
     * Counts every write ({@code POST}, {@code PUT}, {@code PATCH}, {@code DELETE}) of a signed-in caller against
     * {@code quota} once its access rule let it through, before it runs: past the quota the answer is 429
     * {@code too_many_requests} with {@code Retry-After}, and nothing is written. Only with access checks on (the open
     * local mode has no quota).
     */
    public Router writeQuota(WriteQuota quota) {
        this.writeQuota = java.util.Objects.requireNonNull(quota, "quota");
        return this;
    }

    /** Adds a route with who may call it; {@code access} is checked before {@code handler} runs. */
    public Route add(String method, String template, Access access, Handler handler) {
        Route route = new Route(method, RoutePaths.split(template), java.util.Objects.requireNonNull(access, "access"), handler);
        routes.add(route);
        return route;
    }

    /**
     * A route without an access rule: refused whenever authorization is on, and named by the route table's test.
     *
     * @deprecated declare the rule: {@link #add(String, String, Access, Handler)}
     */
    @Deprecated
    public Route add(String method, String template, Handler handler) {
        return add(method, template, Access.UNDECLARED, handler);
    }

    /** Every route as declared, in the order they were added: the route table. */
    public List<Description> descriptions() {
        return routes.stream().map(Route::describe).toList();
    }

    /**
     * The route for a request; {@code not_found} for an unknown path, {@code method_not_allowed} otherwise. A path
     * with a segment that does not decode strictly ({@link Text#percentDecode}: a bad escape, bytes that are not
     * UTF-8, a control character) is a {@code bad_request} whatever the route, before any route is looked at.
     */
    public Match match(String method, String rawPath) {
        String[] segments = RoutePaths.split(rawPath == null ? "" : rawPath);
        for (String segment : segments) {
            try {
                Text.percentDecode(segment);
            } catch (IllegalArgumentException e) {
                throw ApiException.invalidRequest("the path " + e.getMessage() + ": " + printable(segment));
            }
        }
        Set<String> allowed = new TreeSet<>();
        Route best = null;
        Map<String, String> bound = null;
        for (Route route : routes) {
            Map<String, String> parameters = RoutePaths.bind(route.segments, segments);
            if (parameters == null) {
                continue;
            }
            if (!route.method.equalsIgnoreCase(method)) {
                allowed.add(route.method);
            } else if (best == null || RoutePaths.moreSpecific(route.segments, best.segments)) {
                best = route;
                bound = parameters;
            }
        }
        if (best != null) {
            return new Match(guarded(best), bound, best.template(), best.access);
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
        boolean write = WriteQuota.counts(route.method);
        return request -> {
            authorization.check(route.access, request);
            if (write) {
                writeQuota.check(request.caller());
            }
            return route.handler.handle(request);
        };
    }

    /** The methods a path supports, for the {@code Allow} header of a 405. */
    public Set<String> allowedMethods(String rawPath) {
        String[] segments = RoutePaths.split(rawPath == null ? "" : rawPath);
        Set<String> allowed = new TreeSet<>();
        for (Route route : routes) {
            if (RoutePaths.bind(route.segments, segments) != null) {
                allowed.add(route.method);
            }
        }
        return allowed;
    }

    /** The path parameters of a route template, in order: {@code /users/{userId}/reviews/{itemId}} has two. */
    public static List<String> parameters(String template) {
        return RoutePaths.parameters(template);
    }

    /**
     * A route as the router tells routes apart: its method and its path with the parameters unnamed
     * ({@code GET /users/{}}); two routes of one shape would be one route, the first answering both.
     */
    public static String shape(String method, String template) {
        return RoutePaths.shape(method, template);
    }

    /** A segment as an error message may quote it: what is not printable ASCII escaped. */
    private static String printable(String segment) {
        StringBuilder out = new StringBuilder();
        segment.chars().limit(100).forEach(c -> {
            if (c >= 0x20 && c < 0x7F) {
                out.append((char) c);
            } else {
                out.append(String.format("\\u%04X", c));
            }
        });
        return segment.length() > 100 ? out + "..." : out.toString();
    }
}
