package io.tally.domains;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.DeadLetterItem;
import io.tally.core.Key;
import io.tally.core.Shards;
import io.tally.core.users.Users;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.blog.PostStatus;
import io.tally.domains.catalogue.CatalogueKeys;
import io.tally.domains.catalogue.ItemState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeysTest {
    private static final Instant T = Instant.parse("2019-01-22T10:28:49.930Z");

    @Test
    void user_followsSeedPattern() {
        assertThat(Users.key("8790")).isEqualTo(new Key("USER#8790", "#METADATA#8790"));
    }

    @Test
    void post_isUnderItsUserWithIdThenTimestamp() {
        assertThat(BlogKeys.post("u1", "p1", T)).isEqualTo(new Key("USER#u1", "POST#p1#2019-01-22T10:28:49.930Z"));
        assertThat(BlogKeys.post("u1", "p1", T).sk()).startsWith(BlogKeys.postSkPrefix("p1"));
    }

    @Test
    void postSkPrefix_doesNotMatchAnotherIdThatSharesItsStart() {
        assertThat(BlogKeys.post("u1", "p10", T).sk()).doesNotStartWith(BlogKeys.postSkPrefix("p1"));
    }

    @Test
    void comment_isUnderItsPostPartition() {
        Instant later = T.plusSeconds(60);
        assertThat(BlogKeys.comment("p1", T, "c1", later))
                .isEqualTo(new Key("POST#p1#2019-01-22T10:28:49.930Z", "COMMENT#c1#2019-01-22T10:29:49.930Z"));
    }

    @Test
    void timestampWithZeroMillis_keepsThreeFractionDigits() {
        assertThat(BlogKeys.post("u", "p", Instant.parse("2020-01-01T00:00:00Z")).sk())
                .isEqualTo("POST#p#2020-01-01T00:00:00.000Z");
    }

    @Test
    void entries_followSeedListsWithItemIdSuffix() {
        assertThat(CatalogueKeys.entry("8790", ItemState.ASSIGNED, "45", 87, T).sk()).isEqualTo("item:assigned:0000000087#45");
        assertThat(CatalogueKeys.entry("8790", ItemState.IN_PROGRESS, "3", 99, T).sk()).isEqualTo("item:in-progress");
        assertThat(CatalogueKeys.entry("8790", ItemState.COMPLETED, "55", 70, T).sk())
                .isEqualTo("item:completed:2019-01-22T10:28:49.930Z#55");
        assertThat(CatalogueKeys.entry("8790", ItemState.ORPHANED, "34", 1, T).sk())
                .isEqualTo("item:orphaned:2019-01-22T10:28:49.930Z#34");
        assertThat(CatalogueKeys.entry("8790", ItemState.ASSIGNED, "45", 87, T).pk()).isEqualTo("USER#8790");
    }

    @Test
    void assignedEntries_sortNumericallyByScoreAsStrings() {
        List<String> keys = new ArrayList<>();
        for (long score : new long[] {350, 87, 1_000_000_000, 0, 9}) {
            keys.add(CatalogueKeys.entry("u", ItemState.ASSIGNED, "i" + score, score, T).sk());
        }
        Collections.sort(keys);
        assertThat(keys).containsExactly(
                "item:assigned:0000000000#i0", "item:assigned:0000000009#i9", "item:assigned:0000000087#i87",
                "item:assigned:0000000350#i350", "item:assigned:1000000000#i1000000000");
    }

    @Test
    void entryPrefixes_selectOneListEach() {
        assertThat(CatalogueKeys.entryPrefix(ItemState.ASSIGNED)).isEqualTo("item:assigned:");
        assertThat(CatalogueKeys.entryPrefix(ItemState.IN_PROGRESS)).isEqualTo("item:in-progress");
        assertThat(CatalogueKeys.entryPrefix(ItemState.COMPLETED)).isEqualTo("item:completed:");
        assertThat(CatalogueKeys.entryPrefix(ItemState.ORPHANED)).isEqualTo("item:orphaned:");
    }

    @Test
    void negativeScore_isRejected() {
        assertThatThrownBy(() -> CatalogueKeys.entry("u", ItemState.ASSIGNED, "i", -1, T))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void catalogueItemAndRefs_haveFixedSortKeys() {
        assertThat(CatalogueKeys.catalogueItem("55")).isEqualTo(new Key("ITEM#55", "#METADATA#"));
        assertThat(BlogKeys.postRef("p1")).isEqualTo(new Key("POSTREF#p1", "#POSTREF#"));
        assertThat(CatalogueKeys.userItem("8790", "55")).isEqualTo(new Key("USER#8790", "useritem#55"));
    }

    @Test
    void postedAt_ordersByTimeBeforeId() {
        assertThat(BlogKeys.postedAt("zzz", T)).isLessThan(BlogKeys.postedAt("aaa", T.plusMillis(1)));
    }

    @Test
    void derivedKeys_sitBesideTheirSources() {
        assertThat(Users.statsKey("8790")).isEqualTo(new Key("USER#8790", "#STATS#"));
        assertThat(BlogKeys.postProjection("p1")).isEqualTo(new Key("POSTREF#p1", "#PROJECTION#"));
        assertThat(CatalogueKeys.selectorEntry("55")).isEqualTo(new Key("ITEM#55", "#SELECTOR#"));
        assertThat(Users.globalStatsKey(3)).isEqualTo(new Key("GLOBAL#STATS#3", "#STATS#"));
        assertThat(BlogKeys.statusShard(PostStatus.CREATED, 2)).isEqualTo("POSTS#created#2");
    }

    @Test
    void deadLetter_isFiledUnderTheUtcDayInSequenceOrder_inTheSlotItsSortKeyHashesTo() {
        // The slot is the CRC-32 of the sort key modulo 16: stable, so a letter filed again overwrites itself.
        assertThat(DeadLetterItem.key(Instant.parse("2024-03-01T23:59:59.999Z"), "0042", "ev-1"))
                .isEqualTo(new Key("DEADLETTER#2024-03-01#4", "0042#ev-1"));
        assertThat(DeadLetterItem.partitions("2024-03-01")).hasSize(17).contains("DEADLETTER#2024-03-01#0",
                "DEADLETTER#2024-03-01#15").endsWith("DEADLETTER#2024-03-01");
        assertThat(DeadLetterItem.dayOf("DEADLETTER#2024-03-01#4")).isEqualTo("2024-03-01");
        assertThat(DeadLetterItem.dayOf("DEADLETTER#2024-03-01")).isEqualTo("2024-03-01");
    }

    @Test
    void deadLetters_spreadOverEverySlot() {
        java.util.Set<Integer> slots = new java.util.HashSet<>();
        for (int sequence = 0; sequence < 200; sequence++) {
            slots.add(DeadLetterItem.slot(String.format("%040d#ev-%d", sequence, sequence)));
        }
        assertThat(slots).hasSize(DeadLetterItem.PARTITIONS);
    }

    @Test
    void selectorPartition_shardsOnlyTheBackCatalogue() {
        assertThat(CatalogueKeys.selectorPartition("global-cycle:5", "55", 4)).isEqualTo("global-cycle:5");
        assertThat(CatalogueKeys.selectorPartition("user-cycle:1", "84", 4)).isEqualTo("user-cycle:1");
        assertThat(CatalogueKeys.selectorPartition("back-catalogue", "45", 4)).isEqualTo("back-catalogue:" + Shards.of("45", 4));
    }

    @Test
    void shards_areStableAndInRange() {
        // CRC-32 is fixed by its specification (CRC-32("45") = 2889884971), so placement never changes.
        assertThat(Shards.of("45", 4)).isEqualTo(3);
        assertThat(Shards.of("45", 7)).isEqualTo((int) (2889884971L % 7));
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int i = 0; i < 1000; i++) {
            int shard = Shards.of("item-" + i, 4);
            assertThat(shard).isBetween(0, 3);
            seen.add(shard);
        }
        assertThat(seen).containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(Shards.of("anything", 1)).isZero();
    }
}
