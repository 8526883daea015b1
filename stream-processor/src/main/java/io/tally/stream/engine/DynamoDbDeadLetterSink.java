package io.tally.stream.engine;

import java.time.Clock;
import java.util.Locale;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/** Dead letters as items of the table ({@code DEADLETTER#<day>#<slot>}), see {@link DeadLetters}. */
public final class DynamoDbDeadLetterSink implements DeadLetterSink {
    private static final Logger LOG = LoggerFactory.getLogger(DynamoDbDeadLetterSink.class);

    private final DynamoDbClient client;
    private final String tableName;
    private final Clock clock;

    public DynamoDbDeadLetterSink(DynamoDbClient client, String tableName) {
        this(client, tableName, Clock.systemUTC());
    }

    public DynamoDbDeadLetterSink(DynamoDbClient client, String tableName, Clock clock) {
        this.client = Objects.requireNonNull(client, "client");
        this.tableName = Objects.requireNonNull(tableName, "tableName");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void send(DeadLetter letter) {
        try {
            client.putItem(DeadLetters.toPutItem(tableName, letter, clock.instant()));
        } catch (DynamoDbException e) {
            if (!isItemTooLarge(e)) {
                throw e;
            }
            // Old and new image of an item near 400 KB do not fit in one item. Failing here would block the shard
            // for good, so the letter keeps the keys, the identity of the record and the reason; the images are lost
            // (the base item, if it still exists, holds the new one).
            LOG.error("dead letter of record {} (shard {}, sequence {}, keys {}) too large: filed without images",
                    letter.eventId(), letter.shardId(), letter.sequenceNumber(), letter.keys());
            client.putItem(DeadLetters.toPutItem(tableName, letter.withoutImages("images omitted: item too large"),
                    clock.instant()));
        }
    }

    private static boolean isItemTooLarge(DynamoDbException e) {
        String message = e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage();
        return e.statusCode() == 400 && message != null && message.toLowerCase(Locale.ROOT).contains("item size");
    }
}
