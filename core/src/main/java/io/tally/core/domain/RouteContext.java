package io.tally.core.domain;

import io.tally.core.EntityType;
import io.tally.core.Ids;
import io.tally.core.ShardSettings;
import io.tally.core.Timestamps;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Cursors;
import io.tally.core.http.Json;
import io.tally.core.http.Page;
import io.tally.core.store.QueryPage;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

/**
 * What a domain's routes and stores are built from. Only a domain's {@link Domain#routes} hands {@link #dynamo} to its
 * stores; routes reach the table through them.
 *
 * @param shards   the stream processor's shard counts: the read side reads the shards it writes
 * @param registry every domain of the application, for what one domain reads of the others (lookups, the counters
 *                 of the shared items)
 */
public record RouteContext(DynamoDbClient dynamo, String table, Clock clock, Ids ids, Cursors cursors,
                           ShardSettings shards, DomainRegistry registry) {

    /** The server's current time with millisecond precision, as the contract's timestamps carry. */
    public Instant now() {
        return Timestamps.truncate(clock.instant());
    }

    /**
     * Whether the entity of another domain (a {@link Lookup} it declares for the entity type) exists: one consistent
     * read of its item's key.
     *
     * @throws IllegalStateException when no domain of the registry declares the lookup (a domain that needs it names
     *                               the declaring domain in {@link Domain#requires}, so that cannot happen at run time)
     */
    public boolean exists(EntityType entityType, String id) {
        Lookup lookup = registry.lookup(entityType.attributeValue());
        Map<String, AttributeValue> item = dynamo.getItem(GetItemRequest.builder()
                .tableName(table)
                .key(lookup.key(id).toAttributeMap())
                .consistentRead(true)
                .projectionExpression("pk")
                .build()).item();
        return item != null && !item.isEmpty();
    }

    /** The id a create was given, or a new time-ordered one. */
    public String idOrNew(String given) {
        return given == null ? ids.next() : given;
    }

    /**
     * One page of a list read from the table: the request's {@code limit} (1..100, default 25) and {@code cursor}
     * (signed for {@code scope}, holding the last item's {@code cursorKey} attributes), the query, each item rendered
     * (a contract shape), and the contract's {@code {"items": [...], "cursor": ...}}.
     *
     * @param scope a cursor works only for the list it came from: e.g. {@code comments:<postId>}
     * @param query the page from {@code limit} and the key to start after (null for the first page)
     */
    public ApiResponse page(ApiRequest request, String scope, Set<String> cursorKey,
                            BiFunction<Integer, Map<String, AttributeValue>, QueryPage> query,
                            Function<Map<String, AttributeValue>, ?> render) {
        int limit = Page.limit(request);
        Map<String, AttributeValue> start = cursors.decode(scope, request.queryParameter("cursor"), cursorKey);
        QueryPage page = Cursors.resuming(start, () -> query.apply(limit, start));
        List<com.fasterxml.jackson.databind.node.ObjectNode> items = page.items().stream()
                .map(item -> Json.tree(render.apply(item))).toList();
        return ApiResponse.ok(Page.body(items, cursors.encode(scope, page.nextKey())));
    }

    /** {@link #exists}, or a {@code not_found} naming the entity. */
    public void requireExists(EntityType entityType, String id, String description) {
        if (!exists(entityType, id)) {
            throw ApiException.notFound(description + " '" + id + "' does not exist");
        }
    }
}
