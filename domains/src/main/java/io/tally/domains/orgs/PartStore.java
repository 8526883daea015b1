package io.tally.domains.orgs;

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.http.ApiException;
import io.tally.core.store.Condition;
import io.tally.core.store.Query;
import io.tally.core.store.Transaction;
import io.tally.core.store.TypedTable;
import io.tally.domains.orgs.IdReservation.Kind;
import java.util.Comparator;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Teams or employees (one store per kind), which are stored alike: in the organisation's partition (access patterns 2
 * and 3 of seed 002), found by id through the reverse lookup (4 and 5), their ids reserved across organisations. Parts
 * are read with their kind's schema (their lists are declared, {@link PartRoutes#TEAMS}).
 */
final class PartStore<T extends Record & OrgPart> {
    private final DynamoDbClient dynamo;
    private final String table;
    private final Kind kind;
    private final ItemSchema<T> schema;
    private final TypedTable<T> parts;

    PartStore(DynamoDbClient dynamo, String table, Kind kind, ItemSchema<T> schema) {
        this.dynamo = dynamo;
        this.table = table;
        this.kind = kind;
        this.schema = schema;
        this.parts = TypedTable.of(dynamo, table, schema);
    }

    Kind kind() {
        return kind;
    }

    /**
     * Writes the part if, at that instant, its organisation exists and its id is free in every organisation: the
     * reservation is put in the same transaction, so two organisations racing for one id cannot both win. A missing
     * organisation is a 404 before a taken id is a 409: what does not exist cannot be in conflict.
     */
    void create(T part) {
        Transaction write = Transaction.in(dynamo, table);
        write.requireExists(OrgKeys.organisation(part.orgId())).orElse(() -> OrgStore.notFound(part.orgId()));
        write.put(new IdReservation(kind, part.id(), part.orgId()).toItem(), Condition.absent())
                .orElse(() -> taken(part));
        write.putNew(schema, part).orElse(() -> taken(part));
        write.commit();
    }

    private ApiException taken(T part) {
        return ApiException.conflict(kind.noun() + " '" + part.id() + "' already exists");
    }

    /** The part of this organisation, read consistently; {@code not_found} when there is none. */
    T get(String orgId, String id) {
        return parts.get(key(orgId, id)).orElseThrow(() -> notFound(orgId, id));
    }

    /** A part from its item. */
    T read(Map<String, AttributeValue> item) {
        return schema.fromItem(item);
    }

    /**
     * The part of this id in whatever organisation, through the reverse lookup (eventually consistent, as every
     * index read): its sort key is its lookup key. Ids are unique across organisations, so at most one part answers,
     * two only for the moment the index takes to follow a delete and a create of the same id: then the newest.
     */
    T lookUp(String id) {
        String lookup = kind == Kind.TEAM ? OrgKeys.teamLookup(id) : OrgKeys.employeeLookup(id);
        return parts.all(Query.globalIndex(OrgKeys.REVERSE_LOOKUP_INDEX, OrgKeys.LOOKUP_KEY, lookup)).stream()
                .max(Comparator.comparing(OrgPart::createdAt))
                .orElseThrow(() -> ApiException.notFound(kind.noun() + " '" + id + "' does not exist"));
    }

    /**
     * Deletes the part as read (its incarnation) and frees its id; {@code not_found} when it is gone or was replaced
     * meanwhile. The memberships stay for the stream processor to remove: a transaction takes at most 100 actions,
     * and a team may have more members.
     */
    T delete(String orgId, String id) {
        T part = get(orgId, id);
        Transaction write = Transaction.in(dynamo, table);
        write.delete(schema, key(orgId, id), Condition.is(OrgPart.INCARNATION, part.incarnation()))
                .orElse(() -> notFound(orgId, id));
        write.delete(kind.key(id), Condition.is(IdReservation.ORG_ID, orgId))
                .orElse(() -> notFound(orgId, id));
        write.commit();
        return part;
    }

    private Key key(String orgId, String id) {
        return kind == Kind.TEAM ? OrgKeys.team(orgId, id) : OrgKeys.employee(orgId, id);
    }

    private ApiException notFound(String orgId, String id) {
        return ApiException.notFound("organisation '" + orgId + "' has no " + kind.noun() + " '" + id + "'");
    }
}
