package io.tally.domains.songs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.Shards;
import io.tally.core.TableSchema;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SongItemsTest {
    private static final Instant T = Instant.parse("2024-02-29T23:59:59.999Z");

    @Test
    void keys_downloadsAreWriteShardedByACalculatedSuffix() {
        assertThat(SongKeys.song("s1")).isEqualTo(new Key("SONG#s1", "#METADATA#"));
        int shard = Shards.of("d1", Songs.DOWNLOAD_SHARDS);
        assertThat(SongKeys.download("s1", "d1")).isEqualTo(new Key("SONG#s1#DL#" + shard, "DL#d1"));
        Set<String> partitions = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            partitions.add(SongKeys.download("hot", "d" + i).pk());
        }
        assertThat(partitions).hasSize(Songs.DOWNLOAD_SHARDS);
    }

    @Test
    void keys_ofTheDerivedItems() {
        assertThat(Songs.SONG_STATS.key("s1")).isEqualTo(new Key("SONG#s1", "#STATS#"));
        assertThat(Songs.SONG_DAY.key(SongKeys.subject("s1", "2024-02-29"))).isEqualTo(new Key("SONG#s1", "DAY#2024-02-29"));
        assertThat(Songs.SONG_MONTH.key(SongKeys.subject("s1", "2024-02"))).isEqualTo(new Key("SONG#s1", "MONTH#2024-02"));
        assertThat(Songs.DOWNLOAD_DAY.key("2024-02-29")).isEqualTo(new Key("DOWNLOADS#DAYS#0", "DAY#2024-02-29"));
        assertThat(SongKeys.chartPartition("2024-02", "s1"))
                .isEqualTo("chart:2024-02:" + Shards.of("s1", Songs.CHART_SHARDS));
        assertThatThrownBy(() -> Songs.SONG_DAY.key("s1")).isInstanceOf(MalformedItemException.class);
        assertThat(Songs.SONG_MONTH.indexKeys()).containsExactly(TableSchema.SELECTOR);
        assertThat(Songs.SONG_MONTH.counters()).containsExactly(TableSchema.DATA);
    }

    @Test
    void periods_areUtcDaysAndMonths() {
        assertThat(SongKeys.day(T)).isEqualTo("2024-02-29");
        assertThat(SongKeys.month(T)).isEqualTo("2024-02");
        assertThat(SongKeys.day(T.plusMillis(1))).isEqualTo("2024-03-01");
        assertThat(SongKeys.month(T.plusMillis(1))).isEqualTo("2024-03");
    }

    @Test
    void items_roundTrip() {
        Song song = new Song("s1", "Title", null, T);
        Download download = new Download("d1", "s1", null, T, null);
        Download refunded = new Download("d2", "s1", "u1", T, T.plusSeconds(1));
        assertThat(Song.fromItem(song.toItem())).isEqualTo(song);
        assertThat(Song.fromItem(new Song("s1", "Title", "Artist", T).toItem()).artist()).isEqualTo("Artist");
        assertThat(Download.fromItem(download.toItem())).isEqualTo(download);
        assertThat(Download.fromItem(refunded.toItem())).isEqualTo(refunded);
        assertThat(download.counts()).isTrue();
        assertThat(refunded.counts()).isFalse();
        assertThat(download.toItem()).doesNotContainKeys(Download.USER_ID, Download.REFUNDED_AT);
        assertThat(download.refunded(T).key()).isEqualTo(download.key());
        assertThatThrownBy(() -> Download.fromItem(song.toItem())).isInstanceOf(MalformedItemException.class);
    }
}
