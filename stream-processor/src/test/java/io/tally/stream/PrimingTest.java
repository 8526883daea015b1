package io.tally.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.tally.core.ShardSettings;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.catalogue.CatalogueKeys;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.SourceRecord;
import org.junit.jupiter.api.Test;

/**
 * The SnapStart priming runs the whole batch path on its own in-memory engine: it takes no client, so it cannot
 * reach DynamoDB or EventBridge; these tests check that the path really ran and never throws.
 */
class PrimingTest {

    @Test
    void prime_derivesTheSyntheticBatchCompletely_withoutPoisonOrFailure() {
        BatchResult result = new Priming(ShardSettings.DEFAULTS).prime();

        assertThat(result.records()).isEqualTo(2);
        assertThat(result.poison()).isZero();
        assertThat(result.skipped()).isZero();
        assertThat(result.failedSequenceNumber()).isEmpty();
        // The global users counter and the user's stats item: the derivations ran and their writes went to memory.
        assertThat(result.derivedWrites()).isPositive();
        assertThat(result.failedWrites()).isZero();
        // A user announces no event (priming builds one entry's JSON itself); none failed.
        assertThat(result.eventsFailed()).isZero();
    }

    @Test
    void prime_canRunAgain_withOtherShardCounts() {
        assertThat(new Priming(ShardSettings.DEFAULTS).prime().records()).isEqualTo(2);
        assertThat(new Priming(ShardSettings.DEFAULTS.with(ShardSettings.GLOBAL, 1).with(CatalogueKeys.SELECTOR_SHARDS, 1)
                .with(BlogKeys.STATUS_SHARDS, 1)).prime().failedSequenceNumber()).isEmpty();
    }

    @Test
    void beforeCheckpoint_primesTheBatchThenTheTableClient_withoutThrowing_andRegistersOnAJvmWithoutCrac() {
        java.util.concurrent.atomic.AtomicInteger tableReads = new java.util.concurrent.atomic.AtomicInteger();
        Priming priming = Priming.register(ShardSettings.DEFAULTS, () -> tableReads.incrementAndGet() < 0);

        assertThatCode(() -> priming.beforeCheckpoint(null)).doesNotThrowAnyException();
        assertThat(tableReads).hasValue(1);
        priming.afterRestore(null);
        // A client whose read fails (the priming's false) does not fail the checkpoint either.
        Priming failing = Priming.register(ShardSettings.DEFAULTS, () -> {
            throw new IllegalStateException("no table");
        });
        assertThatCode(() -> failing.beforeCheckpoint(null)).doesNotThrowAnyException();
    }

    @Test
    void syntheticRecords_convertBackToTheDomainItems() {
        SourceRecord user = StreamRecords.fromLambda(Priming.SHARD, Priming.records().get(0));
        assertThat(user.eventName()).isEqualTo("INSERT");
        assertThat(user.newImage()).containsKeys("userId", "name", "email");
        assertThat(user.entityType()).isPresent();
    }
}
