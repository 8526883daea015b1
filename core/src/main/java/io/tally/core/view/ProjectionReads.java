package io.tally.core.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.TableSchema;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Cursors;
import io.tally.core.http.Json;
import io.tally.core.http.Page;
import io.tally.core.http.Router;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * A projection's list route ({@link ProjectionView#list}): one page of the entries of the partition the request's path
 * names, in sort key order, as the contract's {@code {"items": [...], "cursor": ...}}. Items of other types in the
 * partition, and the emptied items entries leave when their entity goes, are skipped by a filter. A page is filled
 * from up to {@value #MOST_QUERIES} queries of {@value #EVALUATED} items evaluated each; a partition of mostly skipped
 * items ends a page short, even empty, with a cursor (only a null cursor ends the list). The cursor, signed for the
 * route and the partition, resumes after the last item taken, or after the last one evaluated when the page is short.
 */
final class ProjectionReads {
    private static final Set<String> KEY = Set.of(TableSchema.PK, TableSchema.SK);
    /** Items one query evaluates at most (before the filter): a page is filled in few queries. */
    static final int EVALUATED = 200;
    /** Queries one page makes at most: past them it ends short, with a cursor, so no request reads without bound. */
    static final int MOST_QUERIES = 5;

    private ProjectionReads() {
    }

    static ApiResponse page(ProjectionView<?, ?> view, DynamoDbClient dynamo, String table, Cursors cursors,
                            ApiRequest request) {
        ProjectionView.ListRead list = view.list().orElseThrow();
        Map<String, String> ids = new LinkedHashMap<>();
        Router.parameters(list.path()).forEach(name -> ids.put(name, request.id(name)));
        String partition = list.partition().apply(Map.copyOf(ids));
        // A cursor resumes only its own list: this route (its order) and this partition.
        String scope = "projection:" + list.path() + ":" + partition;
        int limit = Page.limit(request);
        Map<String, AttributeValue> start = cursors.decode(scope, request.queryParameter("cursor"), KEY);
        if (start != null && !partition.equals(start.get(TableSchema.PK).s())) {
            // Signed for this list, yet of another partition: only a cursor signed with a key that leaked can be.
            throw Cursors.invalidCursor();
        }
        List<ObjectNode> items = new ArrayList<>();
        int queries = 0;
        do {
            QueryResponse response = dynamo.query(query(table, view, list.descending(), partition, start, EVALUATED));
            queries++;
            start = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                    ? response.lastEvaluatedKey() : null;
            for (Map<String, AttributeValue> item : response.items()) {
                items.add(Json.tree(view.read(item)));
                if (items.size() == limit) {
                    // The page is full within this query's items: the next page resumes after the last one taken.
                    boolean more = start != null || item != response.items().get(response.items().size() - 1);
                    start = more ? Map.of(TableSchema.PK, item.get(TableSchema.PK), TableSchema.SK,
                            item.get(TableSchema.SK)) : null;
                    break;
                }
            }
            // A partition of mostly other items (removed entries' emptied items) ends the page short, with its cursor.
        } while (start != null && items.size() < limit && queries < MOST_QUERIES);
        return ApiResponse.ok(Page.body(items, cursors.encode(scope, start)));
    }

    private static QueryRequest query(String table, ProjectionView<?, ?> view, boolean descending, String partition,
                                      Map<String, AttributeValue> start, int evaluated) {
        // An entry whose entity went keeps an emptied item (its revision and watermarks): present means a field is there.
        Map<String, String> names = new LinkedHashMap<>(Map.of("#pk", TableSchema.PK, "#type", TableSchema.ENTITY_TYPE));
        List<String> present = new ArrayList<>();
        for (String field : view.type().documentFields()) {
            names.put("#f" + present.size(), field);
            present.add("attribute_exists(#f" + present.size() + ")");
        }
        QueryRequest.Builder query = QueryRequest.builder().tableName(table)
                .keyConditionExpression("#pk = :pk")
                .filterExpression("#type = :type AND (" + String.join(" OR ", present) + ")")
                .expressionAttributeNames(names)
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(partition),
                        ":type", AttributeValue.fromS(view.type().entityType().attributeValue())))
                .scanIndexForward(!descending)
                .limit(evaluated);
        if (start != null) {
            query.exclusiveStartKey(start);
        }
        return query.build();
    }
}
