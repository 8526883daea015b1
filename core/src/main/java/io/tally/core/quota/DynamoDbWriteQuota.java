package io.tally.core.quota;

import io.tally.core.http.Caller;
import io.tally.core.http.WriteQuota;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The write quota of every container of the writer at once, kept in a table of its own (no stream: the stream processor
 * never sees it), one small item a caller: {@code pk = QUOTA#<subject>} with {@code tat}, the theoretical arrival time
 * of the generic cell rate algorithm (GCRA, a token bucket in one number), in epoch milliseconds.
 *
 * <p>A write at {@code now} is admitted when {@code max(tat, now) + T - now <= burst × T}, where {@code T} is one
 * write's share of a second ({@code 1000 / rate} ms), and moves {@code tat} to {@code max(tat, now) + T}. DynamoDB
 * cannot take a maximum in an update, so each write is at most two conditional UpdateItem calls, each atomic: first as
 * if the caller were idle ({@code tat <= now}, or no item: {@code tat = now + T}), then, if not, as if it were busy
 * ({@code tat <= now + (burst - 1) × T}: {@code tat = tat + T}). Refused both ways, the caller is past its quota, and
 * the item as it is tells how long until a write would be admitted. Cost: one write unit per admitted write of an idle
 * caller, two for one in a burst, two for a refused one (DynamoDB charges a refused conditional write).
 */
public final class DynamoDbWriteQuota implements WriteQuota {
    static final String PK = "pk";
    static final String TAT = "tat";
    /** The items outlive a caller's last write by a day, no longer (TTL on {@code expires}, epoch seconds). */
    static final String EXPIRES = "expires";

    private final DynamoDbClient dynamo;
    private final String table;
    private final Rates rates;
    private final Clock clock;

    public DynamoDbWriteQuota(DynamoDbClient dynamo, String table, Rates rates, Clock clock) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.table = Objects.requireNonNull(table, "table");
        this.rates = Objects.requireNonNull(rates, "rates");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Optional<Duration> admit(Caller caller) {
        if (caller.isAnonymous()) {
            return Optional.empty();
        }
        boolean admin = caller.isAdmin();
        long step = Math.max(1, Math.round(1000.0 / (admin ? rates.adminPerSecond() : rates.perSecond())));
        int burst = admin ? rates.adminBurst() : rates.burst();
        long now = clock.millis();
        Map<String, AttributeValue> key = Map.of(PK, AttributeValue.fromS("QUOTA#" + caller.subject()));
        AttributeValue expires = AttributeValue.fromN(Long.toString(now / 1000 + 86_400));
        try {
            dynamo.updateItem(UpdateItemRequest.builder().tableName(table).key(key)
                    .updateExpression("SET #tat = :next, #expires = :expires")
                    .conditionExpression("attribute_not_exists(#tat) OR #tat <= :now")
                    .expressionAttributeNames(Map.of("#tat", TAT, "#expires", EXPIRES))
                    .expressionAttributeValues(Map.of(":next", number(now + step), ":now", number(now),
                            ":expires", expires))
                    .build());
            return Optional.empty();
        } catch (ConditionalCheckFailedException idle) {
            // Busy: tat is ahead of now.
        }
        long latest = now + (burst - 1) * step;
        try {
            dynamo.updateItem(UpdateItemRequest.builder().tableName(table).key(key)
                    .updateExpression("SET #tat = #tat + :step, #expires = :expires")
                    .conditionExpression("#tat <= :latest")
                    .expressionAttributeNames(Map.of("#tat", TAT, "#expires", EXPIRES))
                    .expressionAttributeValues(Map.of(":step", number(step), ":latest", number(latest),
                            ":expires", expires))
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                    .build());
            return Optional.empty();
        } catch (ConditionalCheckFailedException full) {
            AttributeValue tat = full.hasItem() ? full.item().get(TAT) : null;
            long wait = tat == null ? step : Long.parseLong(tat.n()) - latest;
            return Optional.of(Duration.ofMillis(Math.max(1, wait)));
        }
    }

    /** The table, on demand, keyed by {@code pk} alone, with TTL on {@code expires} to be enabled after creation. */
    public static software.amazon.awssdk.services.dynamodb.model.CreateTableRequest createTable(String tableName) {
        return software.amazon.awssdk.services.dynamodb.model.CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(software.amazon.awssdk.services.dynamodb.model.BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(software.amazon.awssdk.services.dynamodb.model.AttributeDefinition.builder()
                        .attributeName(PK).attributeType(
                                software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S).build())
                .keySchema(software.amazon.awssdk.services.dynamodb.model.KeySchemaElement.builder().attributeName(PK)
                        .keyType(software.amazon.awssdk.services.dynamodb.model.KeyType.HASH).build())
                .build();
    }

    private static AttributeValue number(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }
}
