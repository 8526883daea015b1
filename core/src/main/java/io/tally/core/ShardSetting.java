package io.tally.core;

import java.util.Arrays;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A number of index partitions or items that derived data of one kind is spread over, declared by the domain that
 * spreads it ({@code Declaration.shardSettings}): the stream processor places entries with the count and the read side
 * reads them back with the same count, so both functions take it from one environment variable, {@link #variable}
 * (1 to {@value ShardSettings#MAX}), set from the deployment template's parameter {@link #parameter}. Changing it moves
 * entries: run {@code verify --repair} with the new value.
 *
 * @param variable     the environment variable, upper case and ending in {@code _SHARDS} ({@code STATUS_SHARDS})
 * @param defaultCount the count when the variable is not set
 * @param description  what is spread, for the template parameter's description
 */
public record ShardSetting(String variable, int defaultCount, String description) {
    public ShardSetting {
        Objects.requireNonNull(variable, "variable");
        Objects.requireNonNull(description, "description");
        if (!variable.matches("[A-Z][A-Z0-9]*(_[A-Z0-9]+)*_SHARDS")) {
            throw new IllegalArgumentException("shard setting '" + variable + "' is no upper-case environment"
                    + " variable name ending in _SHARDS");
        }
        ShardSettings.check(variable, defaultCount);
    }

    /** The deployment template's parameter that sets it: {@code STATUS_SHARDS} is {@code StatusShards}. */
    public String parameter() {
        return Arrays.stream(variable.split("_")).map(word -> word.charAt(0) + word.substring(1).toLowerCase())
                .collect(Collectors.joining());
    }
}
