package io.tally.core.view;

import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Page;
import io.tally.core.http.Router;
import io.tally.core.read.SharedReads;
import io.tally.core.read.StatsJson;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The read routes of views, generated: {@code GET <path>} answers the view's answer record for the group the path
 * names, read with one strongly consistent Query, page by page (the item and its partials, {@link SharedReads#whole});
 * a group with no item answers as its view's {@link Existence} says. A ranking's route answers its top ({@link
 * RankingReads}) for the bucket its query parameter names, {@code limit} entries (1..100). A projection's list route
 * answers a page of the entries of one partition ({@link ProjectionReads}). A route the view's own
 * domain declared with the same method and path (parameters compared by position, not name) is the domain's: the view's
 * is not added. A route of that path declared before the view's, another domain's or another view's, fails here; one
 * declared after it, by {@link #checkUnique}: the registry composes every domain's routes as it loads
 * ({@code RouteTable}), so either fails the registry's load.
 */
public final class ViewRoutes {
    private ViewRoutes() {
    }

    /**
     * Adds the read route of each view that declares one.
     *
     * @param domainRoutes the routes the views' domain declared itself, which override its views' routes
     * @throws IllegalStateException when a view's route has the path of another domain's or another view's route
     */
    public static void register(Router router, DynamoDbClient dynamo, String table, io.tally.core.http.Cursors cursors,
                                Existence.Entities entities, List<View<?>> views,
                                List<Router.Description> domainRoutes) {
        Set<String> overridden = domainRoutes.stream().map(route -> route(route.method(), route.template()))
                .collect(Collectors.toSet());
        for (View<?> view : views) {
            Generated generated = generated(view, dynamo, table, cursors, entities);
            if (generated == null) {
                continue;
            }
            String route = route("GET", generated.path());
            if (overridden.contains(route)) {
                continue;
            }
            List<String> taken = router.descriptions().stream()
                    .filter(declared -> route(declared.method(), declared.template()).equals(route))
                    .map(Router.Description::template).toList();
            if (!taken.isEmpty()) {
                throw new IllegalStateException("the read route of " + view + ", GET " + generated.path()
                        + ", has the path of a route declared before it: GET " + taken.get(0));
            }
            Router.Route added = router.add("GET", generated.path(), generated.access(), generated.handler())
                    .summary(generated.summary());
            if (!generated.query().isEmpty()) {
                added.query(generated.query().toArray(String[]::new));
            }
            if (generated.page()) {
                added.page(generated.returns());
            } else {
                added.returns(200, generated.returns());
            }
        }
    }

    /** What a view's read route is made of; {@code page}: a list, whose items are {@code returns}. */
    private record Generated(String path, io.tally.core.http.Access access, Router.Handler handler, String summary,
                             Class<?> returns, List<String> query, boolean page) {
        Generated(CounterView.Read read, Router.Handler handler, String summary, Class<?> returns, List<String> query) {
            this(read.path(), read.access(), handler, read.summary() != null ? read.summary() : summary, returns,
                    query, false);
        }
    }

    /** The read route a view declares, or null. */
    private static Generated generated(View<?> view, DynamoDbClient dynamo, String table,
                                       io.tally.core.http.Cursors cursors, Existence.Entities entities) {
        if (view instanceof CounterView<?, ?> counted && counted.read().isPresent()) {
            return new Generated(counted.read().get(), request -> answer(counted, dynamo, table, entities, request),
                    "The figures of " + counted.type().name() + " of one " + String.join(" and ", counted.groups()),
                    counted.answer(),
                    counted.bucket().isPresent() ? List.of(counted.bucketComponent()) : List.of());
        }
        if (view instanceof RankingView<?, ?> ranking && ranking.read().isPresent()) {
            List<String> query = new java.util.ArrayList<>();
            if (ranking.bucket().isPresent()) {
                query.add(ranking.bucketComponent());
            }
            query.add("limit");
            return new Generated(ranking.read().get(), request -> top(ranking, dynamo, table, request),
                    "The top of " + ranking.type().name() + " by " + ranking.figure(), ranking.page(), query);
        }
        if (view instanceof ProjectionView<?, ?> projection && projection.list().isPresent()) {
            ProjectionView.ListRead list = projection.list().get();
            return new Generated(list.path(), list.access(), request -> ProjectionReads.page(projection, dynamo, table,
                    cursors, request), list.summary() != null ? list.summary() : "The entries of "
                    + projection.type().name() + " of one partition", projection.projection(), List.of(), true);
        }
        return null;
    }

    /**
     * Throws when two routes of the router have the same method and path (parameters compared by position): the first
     * would answer both, and the second would never be called.
     */
    public static void checkUnique(Router router) {
        Map<String, String> seen = new HashMap<>();
        for (Router.Description declared : router.descriptions()) {
            String earlier = seen.putIfAbsent(route(declared.method(), declared.template()), declared.template());
            if (earlier != null) {
                throw new IllegalStateException("two routes " + declared.method() + " " + earlier + " and "
                        + declared.method() + " " + declared.template() + ": the first would answer both");
            }
        }
    }

    /** A route's method and path, its parameters unnamed. */
    private static String route(String method, String template) {
        return Router.shape(method, template);
    }

    /** The figures of the group the request names (each of its ids a path parameter). */
    static ApiResponse answer(CounterView<?, ?> view, DynamoDbClient dynamo, String table,
                              Existence.Entities entities, ApiRequest request) {
        List<String> ids = view.groups().stream().map(request::id).toList();
        String bucket = bucket(request, view.bucket().orElse(null), view.bucketComponent());
        Map<String, AttributeValue> item = SharedReads.whole(dynamo, table, view.type().key(view.subject(ids, bucket)),
                null);
        if (item == null) {
            view.read().orElseThrow().existence().check(entities, ids);
        }
        StatsJson.check(item, view.type().entityType());
        Map<String, Long> stored = new HashMap<>();
        view.stored().forEach(counter -> stored.put(counter, StatsJson.counter(item, counter)));
        if (item != null) {
            item.keySet().stream().filter(view::isFigure).forEach(counter -> stored.put(counter,
                    StatsJson.counter(item, counter)));
        }
        return ApiResponse.ok(view.answer(ids, bucket, stored));
    }

    /** The top of a ranking: the bucket the request names (if the ranking has buckets), {@code limit} entries. */
    static ApiResponse top(RankingView<?, ?> view, DynamoDbClient dynamo, String table, ApiRequest request) {
        String bucket = bucket(request, view.bucket().orElse(null), view.bucketComponent());
        int limit = Page.limit(request, view.defaultLimit());
        return ApiResponse.ok(view.answer(bucket, RankingReads.top(dynamo, table, view, bucket, limit)));
    }

    /** The bucket a request names in the query parameter {@code name}, in its exact form; null without a bucket. */
    private static String bucket(ApiRequest request, Bucket form, String name) {
        if (form == null) {
            return null;
        }
        String given = request.queryParameter(name);
        return form.parse(given).orElseThrow(() -> ApiException.badRequest(given == null
                ? "'" + name + "' is required (" + form.form() + ")" : "'" + name + "' must be " + form.form(), name));
    }
}
