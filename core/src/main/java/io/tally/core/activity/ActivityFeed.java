package io.tally.core.activity;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The "recent activity" feed that the EventBridge subscriber example keeps and the dashboard shows: its own small
 * table (keys {@code pk}, {@code sk}, TTL attribute {@code ttl}, no stream), never Tally's table, so that neither the
 * stream processor nor {@code verify} ever sees a subscriber's items (they are no entity Tally derives anything from).
 *
 * <ul>
 *   <li>seen event: {@code EVENT#<eventId>} / {@code EVENT} ({@code detail.eventId}, stable across republishing),
 *       kept {@link #SEEN_FOR}: the conditional write that drops a redelivered or republished event (EventBridge
 *       delivers at least once, and Tally publishes a record's events again when it processes the record again);</li>
 *   <li>feed entry: {@code FEED} / {@code <time>#<eventId>}, kept {@link #FEED_FOR}, newest first by a query: every
 *       event the subscriber gets, whole (what an admin reads);</li>
 *   <li>public feed entry: {@code FEED#PUBLIC} / {@code <time>#<eventId>}, the same for the events about public data
 *       only, each detail cut down to what a public route shows ({@link io.tally.core.events.PublicEvents}): what
 *       anyone else reads. A partition of its own, so that a page of the public feed is one query, as full as asked,
 *       and a private event is never even read for an anonymous caller.</li>
 * </ul>
 *
 * One feed partition takes the whole feed: fine for an example at a few hundred events a second (a partition takes
 * 1,000 writes a second); a busier feed would shard {@code FEED} by a suffix. DynamoDB deletes expired items within a
 * few days of their {@code ttl}; DynamoDB Local never does, so locally the table only grows (it is small).
 */
public final class ActivityFeed {
    public static final String FEED_PK = "FEED";
    public static final String PUBLIC_FEED_PK = "FEED#PUBLIC";
    public static final String SEEN_SK = "EVENT";
    /**
     * 48 hours, as docs/events.md asks of every subscriber: a stream keeps a record for 24 hours (a republished event
     * can come that much later) and a rule may retry a delivery for 24 more (this one's: an hour), so a duplicate
     * always finds its mark.
     */
    public static final Duration SEEN_FOR = Duration.ofHours(48);
    public static final Duration FEED_FOR = Duration.ofDays(7);
    /** The local table's name: Tally's table name with this suffix. */
    public static final String LOCAL_SUFFIX = "-activity";

    private ActivityFeed() {
    }

    /** The key of the mark that an event was recorded. */
    public static Map<String, AttributeValue> seenKey(String eventId) {
        return Map.of("pk", s("EVENT#" + eventId), "sk", s(SEEN_SK));
    }

    /** The mark, expiring {@link #SEEN_FOR} after {@code now}. */
    public static Map<String, AttributeValue> seenItem(String eventId, Instant now) {
        return Map.of("pk", s("EVENT#" + eventId), "sk", s(SEEN_SK),
                "ttl", n(now.plus(SEEN_FOR).getEpochSecond()));
    }

    /**
     * A feed entry.
     *
     * @param detailJson the event's detail as JSON text, as the dashboard shows it
     */
    public static Map<String, AttributeValue> feedItem(String eventId, String detailType, String time,
            String detailJson, Instant now) {
        return entry(FEED_PK, eventId, detailType, time, detailJson, now);
    }

    /**
     * A public feed entry.
     *
     * @param publicDetailJson the event's detail as a public route may show it, as JSON text
     */
    public static Map<String, AttributeValue> publicFeedItem(String eventId, String detailType, String time,
            String publicDetailJson, Instant now) {
        return entry(PUBLIC_FEED_PK, eventId, detailType, time, publicDetailJson, now);
    }

    private static Map<String, AttributeValue> entry(String partition, String eventId, String detailType, String time,
            String detailJson, Instant now) {
        return Map.of("pk", s(partition), "sk", s(time + "#" + eventId), "eventId", s(eventId),
                "detailType", s(detailType), "time", s(time), "detail", s(detailJson),
                "ttl", n(now.plus(FEED_FOR).getEpochSecond()));
    }

    /** The table, on demand, with TTL on {@code ttl} to be enabled after creation (UpdateTimeToLive). */
    public static CreateTableRequest createTable(String tableName) {
        return CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        AttributeDefinition.builder().attributeName("pk").attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName("sk").attributeType(ScalarAttributeType.S).build())
                .keySchema(
                        KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build(),
                        KeySchemaElement.builder().attributeName("sk").keyType(KeyType.RANGE).build())
                .build();
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }
}
