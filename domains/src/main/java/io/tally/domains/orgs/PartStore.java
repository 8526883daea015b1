package io.tally.domains.orgs;

import io.tally.core.ItemSchema;
import io.tally.core.Items;
import io.tally.core.http.ApiException;
import io.tally.core.store.QueryPage;
import io.tally.core.store.Transactions;
import io.tally.domains.orgs.IdReservation.Kind;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Teams or employees (one store per kind): where a cancelled transaction becomes the client's answer, by the action
 * positions {@link PartRequests} fixes. Parts are read with their kind's schema; lists are handed out as stored.
 */
record PartStore<T extends Record & OrgPart>(DynamoDbClient dynamo, String table, Kind kind, ItemSchema<T> schema) {
    /** A missing organisation is a 404 before a taken id is a 409: what does not exist cannot be in conflict. */
    void create(T part) {
        try {
            Transactions.write(dynamo, PartRequests.create(table, kind, part.orgId(), part.id(), schema.toItem(part)));
        } catch (TransactionCanceledException e) {
            if (Transactions.conditionFailed(e, PartRequests.CREATE_ORG)) {
                throw OrgStore.notFound(part.orgId());
            }
            if (Transactions.conditionFailed(e, PartRequests.CREATE_RESERVATION)
                    || Transactions.conditionFailed(e, PartRequests.CREATE_PART)) {
                throw ApiException.conflict(kind.noun() + " '" + part.id() + "' already exists");
            }
            throw e;
        }
    }

    /** The part of this organisation, read consistently; {@code not_found} when there is none. */
    T get(String orgId, String id) {
        Map<String, AttributeValue> item = dynamo.getItem(PartRequests.get(table, kind, orgId, id)).item();
        if (item == null || item.isEmpty()) {
            throw notFound(orgId, id);
        }
        return read(item);
    }

    /** A part from its item. */
    T read(Map<String, AttributeValue> item) {
        return schema.fromItem(item);
    }

    /**
     * The part of this id in whatever organisation, through the reverse lookup (eventually consistent, as every
     * index read); the newest if the index still shows a deleted one beside its successor.
     */
    T lookUp(String id) {
        List<Map<String, AttributeValue>> found = dynamo.query(PartRequests.lookUp(table, kind, id)).items();
        return found.stream()
                .max(Comparator.comparing(item -> Items.string(item, OrgPart.CREATED_AT)))
                .map(this::read)
                .orElseThrow(() -> ApiException.notFound(kind.noun() + " '" + id + "' does not exist"));
    }

    QueryPage list(String orgId, int limit, Map<String, AttributeValue> start) {
        return QueryPage.of(dynamo.query(PartRequests.list(table, kind, orgId, limit, start)), limit,
                PartRequests.LIST_KEY);
    }

    /** Deletes the part as read (and frees its id); {@code not_found} when it is gone or was replaced meanwhile. */
    T delete(String orgId, String id) {
        T part = get(orgId, id);
        try {
            Transactions.write(dynamo, PartRequests.delete(table, kind, orgId, id, part.incarnation()));
        } catch (TransactionCanceledException e) {
            if (Transactions.conditionFailed(e, 0) || Transactions.conditionFailed(e, 1)) {
                throw notFound(orgId, id);
            }
            throw e;
        }
        return part;
    }

    private ApiException notFound(String orgId, String id) {
        return ApiException.notFound("organisation '" + orgId + "' has no " + kind.noun() + " '" + id + "'");
    }
}
