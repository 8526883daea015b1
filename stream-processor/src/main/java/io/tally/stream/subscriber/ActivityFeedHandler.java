package io.tally.stream.subscriber;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.activity.ActivityFeed;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.events.PublicEvents;
import io.tally.core.logging.InvocationLog;
import io.tally.core.logging.LambdaLogging;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The EventBridge subscriber example: a Lambda function a rule targets with Tally's events, which keeps the "recent
 * activity" feed ({@link ActivityFeed}) that the dashboard shows. Locally the event bus invokes this very class for
 * the events its rule matches.
 *
 * <p>EventBridge delivers at least once (and again on every retry), and Tally publishes an event again when a stream
 * record is processed again (docs/events.md). The envelope's {@code id} is EventBridge's, new for every
 * {@code PutEvents} entry, so the function drops duplicates by {@code detail.eventId}, which Tally derives from the
 * stream record and keeps across republishing (an event without one, from another source, by its envelope
 * {@code id}): one transaction puts a mark {@code EVENT#<eventId>} on the condition that it is not there, and the feed
 * entry with it. A duplicate fails the condition and writes nothing; a crash writes both or neither. The mark expires
 * (TTL) after {@link ActivityFeed#SEEN_FOR}: a stream keeps a record for 24 hours and a rule retries a delivery for up
 * to 24 more.
 *
 * <p>Every event goes into the feed whole, which only an admin reads; an event about public data
 * ({@link PublicEvents}, from the domains' declarations) goes, in the same transaction, into the public feed too, its
 * detail cut down to what a public route shows. An event of a type no domain declares public (another source's, one
 * added later) stays out of the public feed.
 *
 * <p>A failure is thrown, so that EventBridge retries the event (the rule's retry policy) and then sends it to the
 * rule target's dead-letter queue.
 *
 * <p>Environment: {@code ACTIVITY_TABLE_NAME} (required), {@code AWS_REGION}, {@code DYNAMODB_ENDPOINT} (optional).
 */
public final class ActivityFeedHandler implements RequestStreamHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ActivityFeedHandler.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DynamoDbClient dynamoDb;
    private final String table;
    private final Clock clock;
    private final PublicEvents publicEvents;

    /** Used by Lambda: the settings from the environment, the client built once per container. */
    public ActivityFeedHandler() {
        this(client(LambdaLogging.environment()), required(System.getenv(), "ACTIVITY_TABLE_NAME"), Clock.systemUTC());
    }

    /** The public events of the domains on the class path. */
    public ActivityFeedHandler(DynamoDbClient dynamoDb, String table, Clock clock) {
        this(dynamoDb, table, clock, PublicEvents.of(DomainRegistry.load().events()));
    }

    /** {@code publicEvents}: those that also go into the public feed (the local runner's: with --domain-jar's). */
    public ActivityFeedHandler(DynamoDbClient dynamoDb, String table, Clock clock, PublicEvents publicEvents) {
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.clock = clock;
        this.publicEvents = publicEvents;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        try (InvocationLog log = InvocationLog.open(context == null ? null : context.getAwsRequestId())) {
            JsonNode event = JSON.readTree(input);
            boolean recorded = record(event);
            output.write((recorded ? "{\"recorded\":true}" : "{\"recorded\":false}")
                    .getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * Records one EventBridge envelope in the feed, under its {@code detail.eventId} (or its {@code id}).
     *
     * @return false when the event was recorded before (a duplicate, whatever its envelope id), true when this call
     *         recorded it
     * @throws IllegalArgumentException for an envelope without {@code id}, {@code detail-type} or {@code time}
     */
    public boolean record(JsonNode event) {
        String envelopeId = text(event, "id");
        JsonNode eventId = event.path("detail").path("eventId");
        String id = eventId.isTextual() && !eventId.asText().isEmpty() ? eventId.asText() : envelopeId;
        String detailType = text(event, "detail-type");
        String time = text(event, "time");
        String detail = event.path("detail").isObject() ? event.get("detail").toString() : "{}";
        Optional<ObjectNode> publicDetail = publicEvents.publicDetail(detailType, event.path("detail"));
        var now = clock.instant();
        List<TransactWriteItem> writes = new ArrayList<>(3);
        writes.add(TransactWriteItem.builder().put(Put.builder().tableName(table)
                .item(ActivityFeed.seenItem(id, now))
                .conditionExpression("attribute_not_exists(pk)").build()).build());
        writes.add(TransactWriteItem.builder().put(Put.builder().tableName(table)
                .item(ActivityFeed.feedItem(id, detailType, time, detail, now)).build()).build());
        publicDetail.ifPresent(shown -> writes.add(TransactWriteItem.builder().put(Put.builder().tableName(table)
                .item(ActivityFeed.publicFeedItem(id, detailType, time, shown.toString(), now)).build()).build()));
        try {
            dynamoDb.transactWriteItems(request -> request.transactItems(writes));
            return true;
        } catch (TransactionCanceledException e) {
            if (e.hasCancellationReasons() && !e.cancellationReasons().isEmpty()
                    && "ConditionalCheckFailed".equals(e.cancellationReasons().get(0).code())
                    && e.cancellationReasons().stream().skip(1).map(CancellationReason::code)
                    .allMatch(code -> code == null || "None".equals(code))) {
                LOG.debug("event {} ({}) recorded before: dropped", id, detailType);
                return false;
            }
            throw e;
        }
    }

    private static String text(JsonNode event, String field) {
        JsonNode value = event.get(field);
        if (value == null || !value.isTextual() || value.asText().isEmpty()) {
            throw new IllegalArgumentException("not an EventBridge event: no '" + field + "'");
        }
        return value.asText();
    }

    private static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("environment variable " + name + " is not set");
        }
        return value;
    }

    private static DynamoDbClient client(Map<String, String> env) {
        var builder = DynamoDbClient.builder()
                .region(Region.of(env.getOrDefault("AWS_REGION", "us-east-1")))
                .httpClient(UrlConnectionHttpClient.create());
        String endpoint = env.get("DYNAMODB_ENDPOINT");
        if (endpoint != null && !endpoint.isBlank()) {
            builder.endpointOverride(URI.create(endpoint));
        }
        return builder.build();
    }
}
