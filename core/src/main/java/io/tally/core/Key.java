package io.tally.core;

import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The primary key of one item of the table. */
public record Key(String pk, String sk) {
    public Key {
        Objects.requireNonNull(pk, "pk");
        Objects.requireNonNull(sk, "sk");
    }

    public Map<String, AttributeValue> toAttributeMap() {
        return Map.of(TableSchema.PK, AttributeValue.fromS(pk), TableSchema.SK, AttributeValue.fromS(sk));
    }

    public static Key of(Map<String, AttributeValue> item) {
        return new Key(Items.string(item, TableSchema.PK), Items.string(item, TableSchema.SK));
    }
}
