package io.tally.stream.fault;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.PartialKeys;
import io.tally.core.TableSchema;
import io.tally.core.domain.DomainRegistry;
import io.tally.domains.orgs.Employee;
import io.tally.domains.favs.Favourite;
import io.tally.domains.favs.FavouriteTag;
import io.tally.domains.favs.Favs;
import io.tally.domains.favs.Tag;
import io.tally.domains.orgs.Membership;
import io.tally.domains.orgs.Orgs;
import io.tally.domains.orgs.Team;
import io.tally.core.domain.Derivations;
import io.tally.core.derive.IntendedChanges;
import io.tally.stream.engine.SourceRecord;
import io.tally.core.events.DomainEvent;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * What every fault case must end with: no negative counter, zero difference from the {@link Rebuilder} and no
 * derived item behind the stream, no cascade left undone, no membership of a deleted team or employee nor link of a
 * gone favourite or tag, no derived item that nothing derives, and every event the records announce published or
 * filed as a dead letter, none published that no record announces or more often than its record was delivered, each
 * published with its documented detail. Which events a record announces, and their details, the oracle takes from
 * docs/events.md ({@link EventModel}), not from the production derivations.
 */
final class FaultOracle {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DynamoDbClient dynamo;
    private final String table;
    private final Derivations derivations;
    private final String label;

    FaultOracle(DynamoDbClient dynamo, String table, Derivations derivations, String label) {
        this.dynamo = dynamo;
        this.table = table;
        this.derivations = derivations;
        this.label = label;
    }

    /**
     * @param streams     the table's stream is read by the verification; null to verify from the scan alone (the
     *                    records were delivered under shard ids of the test's own)
     * @param records     every record delivered
     * @param predating   derived items of base items older than the stream (a backfill wrote them)
     * @param publishedEvents each event published, as often as it was published
     * @param deliveries by a record's stream event id, the invocations whose batch held it
     * @param refusedForGood events the bus refused every time: they must be dead-lettered
     */
    void assertExact(DynamoDbStreamsClient streams, List<SourceRecord> records, Set<Key> predating,
                     List<DomainEvent> publishedEvents, Map<String, Integer> deliveries,
                     Predicate<String> refusedForGood) {
        List<String> published = publishedEvents.stream().map(DomainEvent::id).toList();
        assertThat(negativeCounters()).as("negative counters for %s", label).isEmpty();
        List<Map<String, AttributeValue>> scan = new ArrayList<>();
        dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().forEach(scan::add);
        assertThat(ReadSideModel.differences(scan))
                .as("figures that differ from the read side DOMAIN.md defines (ReadSideModel) for %s", label)
                .isEmpty();
        VerificationReport report = new Rebuilder(dynamo, streams, table, derivations, 2).verify();
        assertThat(report.differences()).as("drift for %s", label).isEmpty();
        assertThat(report.behindItems()).as("derived items behind the stream for %s", label).isZero();
        assertThat(report.undoneCascades()).as("cascades the rebuild finds undone for %s", label).isEmpty();
        assertThat(orphanedMemberships()).as("memberships of a deleted team or employee, %s", label).isEmpty();
        assertThat(orphanedLinks()).as("links of an un-collected favourite or a deleted tag, %s", label).isEmpty();
        assertThat(unexplainedDerivedItems(records, predating)).as("derived items no record derives").isEmpty();
        Set<String> delivered = new HashSet<>(published);
        Set<String> deadLettered = deadLetteredEventIds();
        delivered.addAll(deadLettered);
        List<String> expected = expectedEventIds(records);
        assertThat(expected.stream().filter(id -> !delivered.contains(id)).toList())
                .as("events neither published nor dead-lettered for %s", label).isEmpty();
        assertThat(deadLettered).as("events refused for good, dead-lettered")
                .containsAll(expected.stream().filter(refusedForGood).toList());
        assertThat(excessPublications(records, published, deliveries))
                .as("events published that no record announces, or more often than their record was delivered, %s",
                        label)
                .isEmpty();
        assertThat(differingDetails(records, publishedEvents))
                .as("events published with another detail than docs/events.md's (EventModel), %s", label)
                .isEmpty();
    }

    /**
     * The bound on duplicate events. An event is published by an invocation that holds its record, after that
     * record's writes, at most once per invocation (the release retries only the entries the bus refused). So an
     * event may be published at most as often as invocations held its record: the mapping's duplicates, retries
     * from an earlier record and redeliveries each may publish it again (subscribers drop them by event id), but
     * nothing else may: not a publisher that loops, not a retry of entries the bus took, not a record's events
     * published by a batch that does not hold it. And no event may be published that no record announces by
     * docs/events.md ({@link EventModel}).
     */
    List<String> excessPublications(List<SourceRecord> records, List<String> published,
                                            Map<String, Integer> deliveries) {
        Map<String, String> recordOf = new HashMap<>();
        for (SourceRecord record : records) {
            announced(record).forEach(event -> recordOf.put(event.id(), record.eventId()));
        }
        Map<String, Integer> times = new TreeMap<>();
        published.forEach(id -> times.merge(id, 1, Integer::sum));
        List<String> excess = new ArrayList<>();
        times.forEach((id, count) -> {
            String record = recordOf.get(id);
            int bound = record == null ? 0 : deliveries.getOrDefault(record, 0);
            if (count > bound) {
                excess.add(id + " published " + count + " times, its record delivered " + bound + " times");
            }
        });
        return excess;
    }

    /** The derived items the current base items derive, as if each were inserted now (for a backfilled history). */
    Set<Key> derivedKeysOfBaseItems() {
        Set<Key> keys = new HashSet<>();
        dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().forEach(item ->
                derive(Items.entityTypeName(item), null, item).ifPresent(changes -> {
                    // A backfill writes the whole of a slotted type into the slot derivations address (slot 0).
                    changes.counterDeltas().keySet().forEach(counter -> keys.add(counter.key()));
                    keys.addAll(changes.documents().keySet());
                }));
        return keys;
    }

    /**
     * Counters below zero: a record subtracted what nothing added. A slot of a slotted type may hold a negative partial
     * sum (an item counted in through one shard's slot and out through another's); their sum over the slots may not.
     */
    List<String> negativeCounters() {
        List<String> negative = new ArrayList<>();
        Map<String, Long> slotSums = new TreeMap<>();
        for (Map<String, AttributeValue> item : dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true))
                .items()) {
            DomainRegistry.load().derivedType(Items.entityTypeName(item)).ifPresent(type -> item.forEach((name, value) -> {
                if (!type.isCounter(name) || value.n() == null) {
                    return;
                }
                if (type.isShared()) {
                    // Only the whole of a shared item is a figure: a partial may be negative (counted in through one
                    // shard, out through another).
                    slotSums.merge(type.whole(Key.of(item)) + " " + name, Long.parseLong(value.n()), Long::sum);
                } else if (Long.parseLong(value.n()) < 0) {
                    negative.add(Key.of(item) + " " + name + " = " + value.n());
                }
            }));
        }
        slotSums.forEach((counter, sum) -> {
            if (sum < 0) {
                negative.add(counter + " = " + sum);
            }
        });
        return negative;
    }

    /**
     * Derived items whose key no record's derivation touches: a write that should never have happened. A slot of a
     * slotted type (the global totals) is explained by any record that changes the type: which slot a record reaches
     * depends on the shard that delivered it, and SPLIT delivers records under shard ids of its own. A partial of a
     * shared item is explained by its base item.
     */
    private List<Key> unexplainedDerivedItems(List<SourceRecord> records, Set<Key> predating) {
        Set<Key> touched = new HashSet<>(predating);
        Set<String> slottedTypes = new HashSet<>();
        for (SourceRecord record : records) {
            changes(record).ifPresent(changes -> touched(changes, touched, slottedTypes));
        }
        List<Key> unexplained = new ArrayList<>();
        dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().forEach(item -> {
            AttributeValue type = item.get(TableSchema.ENTITY_TYPE);
            if (type != null && DomainRegistry.load().derivedType(type.s()).isPresent()
                    && !touched.contains(PartialKeys.baseOf(Key.of(item))) && !slottedTypes.contains(type.s())) {
                unexplained.add(Key.of(item));
            }
        });
        return unexplained;
    }

    private static void touched(IntendedChanges changes, Set<Key> keys, Set<String> slottedTypes) {
        changes.counterDeltas().keySet().forEach(counter -> {
            if (counter.type().isSlotted()) {
                slottedTypes.add(counter.type().name());
            } else {
                keys.add(counter.key());
            }
        });
        keys.addAll(changes.documents().keySet());
    }

    /** Links whose favourite or tag (that incarnation of it) no longer exists. */
    List<FavouriteTag> orphanedLinks() {
        Set<String> owners = new HashSet<>();
        List<FavouriteTag> links = new ArrayList<>();
        dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().forEach(item -> {
            if (Favs.FAVOURITE.isTypeOf(item)) {
                Favourite favourite = Favourite.fromItem(item);
                owners.add("favourite/" + favourite.userId() + "/" + favourite.favouriteId() + "/"
                        + favourite.incarnation());
            } else if (Favs.TAG.isTypeOf(item)) {
                Tag tag = Tag.fromItem(item);
                owners.add("tag/" + tag.userId() + "/" + tag.tagId() + "/" + tag.incarnation());
            } else if (Favs.FAVOURITE_TAG.isTypeOf(item)) {
                links.add(FavouriteTag.fromItem(item));
            }
        });
        return links.stream()
                .filter(l -> !owners.contains("favourite/" + l.userId() + "/" + l.favouriteId() + "/"
                        + l.favourite().incarnation())
                        || !owners.contains("tag/" + l.userId() + "/" + l.tagId() + "/" + l.tagIncarnation()))
                .toList();
    }

    /** Memberships whose team or employee (that incarnation of it) no longer exists. */
    List<Membership> orphanedMemberships() {
        Set<String> parts = new HashSet<>();
        List<Membership> memberships = new ArrayList<>();
        dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().forEach(item -> {
            if (Orgs.TEAM.isTypeOf(item)) {
                Team team = Team.fromItem(item);
                parts.add("team/" + team.orgId() + "/" + team.teamId() + "/" + team.incarnation());
            } else if (Orgs.EMPLOYEE.isTypeOf(item)) {
                Employee employee = Employee.fromItem(item);
                parts.add("employee/" + employee.orgId() + "/" + employee.employeeId() + "/" + employee.incarnation());
            } else if (Orgs.MEMBERSHIP.isTypeOf(item)) {
                memberships.add(Membership.fromItem(item));
            }
        });
        return memberships.stream()
                .filter(m -> !parts.contains("team/" + m.orgId() + "/" + m.teamId() + "/" + m.teamIncarnation())
                        || !parts.contains("employee/" + m.orgId() + "/" + m.employeeId() + "/" + m.employeeIncarnation()))
                .toList();
    }

    /** The ids of the events filed as dead letters (a letter's {@code events} attribute). */
    private Set<String> deadLetteredEventIds() {
        Set<String> ids = new HashSet<>();
        dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().forEach(item -> {
            AttributeValue events = item.get("events");
            if (events != null && "DeadLetter".equals(item.get(TableSchema.ENTITY_TYPE).s())) {
                try {
                    for (JsonNode event : JSON.readTree(events.s())) {
                        ids.add(event.get("id").asText());
                    }
                } catch (IOException e) {
                    throw new AssertionError("unreadable events of a dead letter: " + events.s(), e);
                }
            }
        });
        return ids;
    }

    /** The ids of the events the records announce, as docs/events.md specifies them ({@link EventModel}). */
    List<String> expectedEventIds(List<SourceRecord> records) {
        List<String> ids = new ArrayList<>();
        for (SourceRecord record : records) {
            announced(record).forEach(event -> ids.add(event.id()));
        }
        return ids;
    }

    /**
     * The published events whose detail type or detail (its fields, their values and order) is not the one
     * docs/events.md specifies for the event of that id ({@link EventModel}), each named once. An event no record
     * announces is left to {@link #excessPublications}.
     */
    List<String> differingDetails(List<SourceRecord> records, List<DomainEvent> published) {
        Map<String, EventModel.Event> documented = new HashMap<>();
        for (SourceRecord record : records) {
            announced(record).forEach(event -> documented.put(event.id(), event));
        }
        Set<String> reported = new HashSet<>();
        List<String> differing = new ArrayList<>();
        for (DomainEvent event : published) {
            EventModel.Event expected = documented.get(event.id());
            if (expected == null) {
                continue;
            }
            String had = event.detailType() + " " + json(event.detail());
            String wanted = expected.detailType() + " " + json(expected.detail());
            if (!had.equals(wanted) && reported.add(event.id())) {
                differing.add(event.id() + ": published " + had + ", documented " + wanted);
            }
        }
        return differing;
    }

    private static List<EventModel.Event> announced(SourceRecord record) {
        return EventModel.announced(record.eventId(), record.oldImage(), record.newImage());
    }

    private static String json(Map<String, Object> detail) {
        try {
            return JSON.writeValueAsString(detail);
        } catch (IOException e) {
            throw new AssertionError("a detail that is no JSON: " + detail, e);
        }
    }

    private Optional<IntendedChanges> changes(SourceRecord record) {
        try {
            return derive(record.entityType().orElse(null), record.oldImage(), record.newImage(), record.eventId());
        } catch (RuntimeException poison) {
            // Dead-lettered: derives what it can, which the test does not require.
            return Optional.empty();
        }
    }

    private Optional<IntendedChanges> derive(String type, Map<String, AttributeValue> oldImage,
                                             Map<String, AttributeValue> newImage) {
        try {
            return derive(type, oldImage, newImage, "backfilled");
        } catch (RuntimeException poison) {
            return Optional.empty();
        }
    }

    private Optional<IntendedChanges> derive(String type, Map<String, AttributeValue> oldImage,
                                             Map<String, AttributeValue> newImage, String eventId) {
        return Optional.ofNullable(type).flatMap(derivations.registry()::entityType)
                .map(entityType -> derivations.derive(entityType, eventId, oldImage, newImage));
    }
}
