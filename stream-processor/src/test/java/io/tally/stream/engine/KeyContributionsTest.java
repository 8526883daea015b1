package io.tally.stream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.users.Users;
import io.tally.domains.favs.FavKeys;
import io.tally.domains.favs.FavouriteType;
import io.tally.domains.favs.Favs;
import org.junit.jupiter.api.Test;

class KeyContributionsTest {
    private static final String SHARD = "shardId-00000001714564800000-0a1b2c3d";

    @Test
    void theCountersOfAFamily_areRemovableAtZero_andTheDeclaredOnesStay() {
        KeyContributions stats = new KeyContributions(FavKeys.favouriteStats("u1"), SHARD);
        stats.addCounter(SourceRecord.pad("10"), Favs.FAVOURITE_STATS, Favs.STATS_FAVOURITES, -1);
        stats.addCounter(SourceRecord.pad("10"), Favs.FAVOURITE_STATS, Favs.typeCounter(FavouriteType.NOTE), -1);
        stats.addCounter(SourceRecord.pad("11"), Favs.FAVOURITE_STATS, Favs.tagCounter("t1"), -1);
        // Cancelled out within the batch: not added, so nothing to remove.
        stats.addCounter(SourceRecord.pad("11"), Favs.FAVOURITE_STATS, Favs.tagCounter("t2"), 1);
        stats.addCounter(SourceRecord.pad("12"), Favs.FAVOURITE_STATS, Favs.tagCounter("t2"), -1);

        DerivedWrite write = stats.writeAfter(null).orElseThrow();

        assertThat(write.counterAdds()).containsOnlyKeys(Favs.STATS_FAVOURITES, Favs.typeCounter(FavouriteType.NOTE),
                Favs.tagCounter("t1"));
        assertThat(write.removableCounters()).containsExactlyInAnyOrder(Favs.typeCounter(FavouriteType.NOTE),
                Favs.tagCounter("t1"));
    }

    @Test
    void aTypeWithoutFamilies_keepsEveryCounter() {
        KeyContributions stats = new KeyContributions(Users.statsKey("u1"), SHARD);
        stats.addCounter(SourceRecord.pad("10"), Users.USER_STATS, "comments", -1);

        assertThat(stats.writeAfter(null).orElseThrow().removableCounters()).isEmpty();
    }
}
