package io.tally.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The writer mode end to end, small: real local runners over real HTTP. Every request must be answered 2xx (the run
 * throws otherwise), the writer's DynamoDB calls must all be recorded and attributed, and sent again raw without
 * one refusal (a replay on a table that differed would fail its conditions).
 */
class WriterRunIT {
    @Test
    void aSmallRun_recordsTheWritersCalls_andRepeatsThemRaw() {
        Results.Writer writer = new WriterRun(2, 8, 1, false).run();

        assertThat(writer.rounds()).hasSize(1);
        Results.WriterRound round = writer.rounds().get(0);
        assertThat(round.requests()).isEqualTo(16);
        // Per thread: a user (a put), a post (a transaction), three comments (the post's ref read, a transaction
        // each), two items, a post.
        assertThat(round.callsByOperation()).containsKeys("PutItem", "TransactWriteItems", "GetItem");
        assertThat(round.callsByOperation().get("TransactWriteItems")).isGreaterThanOrEqualTo(2 * (2 + 3));
        assertThat(round.calls()).isEqualTo(round.callsByOperation().values().stream().mapToInt(Integer::intValue).sum());
        assertThat(round.frontSeconds()).isPositive();
        assertThat(round.rawSeconds()).isPositive();
        assertThat(writer.ratio()).isPositive();
        assertThat(round.frontP50Ms()).isLessThanOrEqualTo(round.frontP99Ms());
        // DynamoDB Local runs in this JVM: its threads' CPU is part of the process's, in both halves.
        assertThat(round.frontCpu().dynamoDbLocalSeconds()).isPositive()
                .isLessThanOrEqualTo(round.frontCpu().processSeconds());
        assertThat(round.rawCpu().dynamoDbLocalSeconds()).isPositive()
                .isLessThanOrEqualTo(round.rawCpu().processSeconds());
    }
}
