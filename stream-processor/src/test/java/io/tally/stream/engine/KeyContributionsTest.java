package io.tally.stream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.users.Users;
import io.tally.domains.favs.FavKeys;
import io.tally.domains.favs.FavouriteType;
import io.tally.domains.favs.FavFigures;
import org.junit.jupiter.api.Test;

class KeyContributionsTest {
    private static final String SHARD = "shardId-00000001714564800000-0a1b2c3d";

    @Test
    void theCountersOfAFamily_areRemovableAtZero_andTheDeclaredOnesStay() {
        KeyContributions stats = new KeyContributions(FavKeys.favouriteStats("u1"), SHARD);
        stats.addCounter(SourceRecord.pad("10"), FavFigures.STATS.type(), FavFigures.FAVOURITES, -1);
        stats.addCounter(SourceRecord.pad("10"), FavFigures.STATS.type(), FavFigures.TYPE_PREFIX + FavouriteType.NOTE.value(), -1);
        stats.addCounter(SourceRecord.pad("11"), FavFigures.STATS.type(), FavFigures.TAG_PREFIX + "t1", -1);
        // Cancelled out within the batch: not added, so nothing to remove.
        stats.addCounter(SourceRecord.pad("11"), FavFigures.STATS.type(), FavFigures.TAG_PREFIX + "t2", 1);
        stats.addCounter(SourceRecord.pad("12"), FavFigures.STATS.type(), FavFigures.TAG_PREFIX + "t2", -1);

        DerivedWrite write = stats.writeAfter(null).orElseThrow();

        assertThat(write.counterAdds()).containsOnlyKeys(FavFigures.FAVOURITES, FavFigures.TYPE_PREFIX + FavouriteType.NOTE.value(),
                FavFigures.TAG_PREFIX + "t1");
        assertThat(write.removableCounters()).containsExactlyInAnyOrder(FavFigures.TYPE_PREFIX + FavouriteType.NOTE.value(),
                FavFigures.TAG_PREFIX + "t1");
    }

    @Test
    void aTypeWithoutFamilies_keepsEveryCounter() {
        KeyContributions stats = new KeyContributions(Users.statsKey("u1"), SHARD);
        stats.addCounter(SourceRecord.pad("10"), Users.USER_STATS, "comments", -1);

        assertThat(stats.writeAfter(null).orElseThrow().removableCounters()).isEmpty();
    }
}
