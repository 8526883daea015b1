package io.tally.core.view;

import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
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
 * names, read with one strongly consistent Query (the item and its partials, {@link SharedReads#whole}); a group
 * with no item answers as its view's {@link Existence} says. A route the domain declared itself (the same method and
 * path template) is the domain's: the view's is not added.
 */
public final class ViewRoutes {
    private ViewRoutes() {
    }

    /** Adds the read route of each view that declares one and whose template the router does not hold yet. */
    public static void register(Router router, DynamoDbClient dynamo, String table, Existence.Entities entities,
                                List<CounterView<?, ?>> views) {
        Set<String> declared = router.descriptions().stream()
                .map(route -> route.method() + " " + route.template()).collect(Collectors.toSet());
        for (CounterView<?, ?> view : views) {
            view.read().filter(read -> !declared.contains("GET " + read.path())).ifPresent(read -> {
                Router.Route route = router.add("GET", read.path(), read.access(),
                        request -> answer(view, dynamo, table, entities, request));
                route.summary(read.summary() != null ? read.summary() : "The figures of " + view.type().name()
                        + " of one " + view.group()).returns(200, view.answer());
            });
        }
    }

    /** The figures of the group the request names. */
    static ApiResponse answer(CounterView<?, ?> view, DynamoDbClient dynamo, String table,
                              Existence.Entities entities, ApiRequest request) {
        String id = request.id(view.group());
        Map<String, AttributeValue> item = SharedReads.whole(dynamo, table, view.type().key(id), null);
        if (item == null) {
            view.read().orElseThrow().existence().check(entities, id);
        }
        StatsJson.check(item, view.type().entityType());
        Map<String, Long> stored = new HashMap<>();
        view.counters().keySet().forEach(counter -> stored.put(counter, StatsJson.counter(item, counter)));
        return ApiResponse.ok(view.answer(id, stored));
    }
}
