package io.tally.domains.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The index partitions a selector's list merges: its shards for the back catalogue, its one partition for a cycle. */
class SelectorRoutesTest {
    @Test
    void partitions_backCatalogue_isEveryShard() {
        assertThat(SelectorRoutes.partitions("back-catalogue", 4))
                .containsExactly("back-catalogue:0", "back-catalogue:1", "back-catalogue:2", "back-catalogue:3");
        assertThat(SelectorRoutes.partitions("back-catalogue", 1)).containsExactly("back-catalogue:0");
    }

    @Test
    void partitions_cycle_isOnePartition() {
        assertThat(SelectorRoutes.partitions("global-cycle:3", 4)).containsExactly("global-cycle:3");
        assertThat(SelectorRoutes.partitions("user-cycle:0", 4)).containsExactly("user-cycle:0");
    }
}
