package io.tally.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MarkdownTableTest {

    @Test
    void rendersTheHeaderTheAlignmentsAndOneLineARow_inTheOrderTheyWereAdded() {
        MarkdownTable table = new MarkdownTable().left("Workload").right("records", "ratio").left("met")
                .row("zipf", 20_000, "1.50x", "yes")
                .row("uniform", 3L, 0.5, null);

        assertThat(table.render()).isEqualTo("""
                | Workload | records | ratio | met |
                |---|---:|---:|---|
                | zipf | 20000 | 1.50x | yes |
                | uniform | 3 | 0.5 | null |
                """);
    }

    @Test
    void anEmptyCellIsASingleSpace_asThePageWritesABlankCell() {
        MarkdownTable table = new MarkdownTable().left("Run", "").row("", "x").row("**all**", "");

        assertThat(table.render()).isEqualTo("| Run | |\n|---|---|\n| | x |\n| **all** | |\n");
    }

    @Test
    void aTableWithoutRows_isEmpty_andRendersItsHeaderAlone() {
        MarkdownTable table = new MarkdownTable().right("a", "b");

        assertThat(table.isEmpty()).isTrue();
        assertThat(table.render()).isEqualTo("| a | b |\n|---:|---:|\n");
        assertThat(table.row(1, 2).isEmpty()).isFalse();
    }

    @Test
    void refusesARowOfAnotherWidth_andAColumnAfterTheRows() {
        MarkdownTable table = new MarkdownTable().left("a", "b");

        assertThatThrownBy(() -> table.row("only one")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 cells").hasMessageContaining("2 columns");
        table.row("x", "y");
        assertThatThrownBy(() -> table.right("c")).isInstanceOf(IllegalStateException.class);
    }
}
