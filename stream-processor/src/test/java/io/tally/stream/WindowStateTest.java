package io.tally.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.stream.engine.RefusedItems;
import io.tally.stream.engine.ShardCursors;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WindowStateTest {
    private static final Instant T = Instant.parse("2026-11-29T10:00:00.123Z");

    @Test
    void everyPartOfAHandover_survivesTheState() {
        ShardCursors.Handover handover = new ShardCursors.Handover("request-1", "000010",
                new ShardCursors.Progress(new ShardCursors.Pending("000020", 3, T), "000009",
                        new RefusedItems(Map.of("ab12", T, "cd34", T.plusSeconds(1))),
                        new ShardCursors.Outage(T, T.plusSeconds(60))));

        Map<String, String> state = WindowState.of(handover);

        assertThat(state).allSatisfy((key, value) -> assertThat(key).startsWith(WindowState.PREFIX));
        assertThat(WindowState.handover(state)).isEqualTo(handover);
    }

    @Test
    void handoverWithoutProgress_survivesTheState_andNoneIsAnEmptyState() {
        ShardCursors.Handover bare = new ShardCursors.Handover("h", "000001", ShardCursors.Progress.NONE);

        assertThat(WindowState.handover(WindowState.of(bare))).isEqualTo(bare);
        assertThat(WindowState.of(null)).isEmpty();
        assertThat(WindowState.handover(Map.of())).isNull();
        assertThat(WindowState.handover(null)).isNull();
    }

    @Test
    void stateThatCannotBeRead_handsNothingOver() {
        assertThat(WindowState.handover(Map.of("tally.cursor.holder", "h"))).as("no first record").isNull();
        assertThat(WindowState.handover(Map.of("tally.cursor.holder", "h", "tally.cursor.from", "1",
                "tally.cursor.pending", "2", "tally.cursor.attempts", "many"))).as("attempts not a number").isNull();
        assertThat(WindowState.handover(Map.of("tally.cursor.holder", "h", "tally.cursor.from", "1",
                "tally.cursor.refused", "ab12"))).as("refused item without a time").isNull();
    }
}
