package io.tally.domains.songs;

import static io.tally.core.Items.s;
import static io.tally.core.derive.DerivationCase.deltas;
import static io.tally.core.derive.DerivationCase.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.TableSchema;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.DerivationCase;
import io.tally.core.derive.Document;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.SharedStats;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SongDerivationsTest {
    private static final Instant AT = Instant.parse("2024-01-31T23:30:00.000Z");
    private static final Instant LATER = Instant.parse("2024-02-03T10:00:00.000Z");
    private static final Song SONG = new Song("s1", "Song", "Artist", AT);
    private static final Download DOWNLOAD = new Download("d1", "s1", "u1", AT, null);
    private static final Download REFUNDED = DOWNLOAD.refunded(LATER);

    private static final CounterRef GLOBAL = SharedStats.global(Songs.GLOBAL_DOWNLOADS);
    private static final CounterRef ALL_TIME = CounterRef.of(Songs.SONG_STATS, "s1", Songs.DOWNLOADS);
    private static final CounterRef SONG_DAY = CounterRef.of(Songs.SONG_DAY, "s1#2024-01-31", Songs.DOWNLOADS);
    private static final CounterRef SONG_MONTH = CounterRef.of(Songs.SONG_MONTH, "s1#2024-01", TableSchema.DATA);
    private static final CounterRef ALL_DAY = CounterRef.of(Songs.DOWNLOAD_DAY, "2024-01-31", Songs.DOWNLOADS);
    private static final Key ENTRY = new Key("SONG#s1", "MONTH#2024-01");
    private static final Document ENTRY_DOCUMENT = new Document(Songs.SONG_MONTH, Map.of("songId", s("s1"),
            "month", s("2024-01"), "selector", s(SongKeys.chartPartition("2024-01", "s1"))), 0);

    /** The download's derivation as the registry joins it with the songs' view (the global count is the view's). */
    private static final Derivation DOWNLOADS = DomainRegistry.load().derivations(ShardSettings.DEFAULTS)
            .forType(Songs.DOWNLOAD).orElseThrow();
    /** A song's derivation: its announcement alone. */
    private static final Derivation SONGS = DomainRegistry.load().derivations(ShardSettings.DEFAULTS)
            .forType(Songs.SONG).orElseThrow();

    static Stream<Arguments> cases() {
        return Stream.of(
                row(SONGS, new DerivationCase("insert_song_countsNothingAndAnnouncesSongAdded", null,
                        SONG.toItem(), Map.of(), Map.of(),
                        List.of(event(SongEvents.SONG_ADDED.detailType(), "s1", "songId", "s1", "title", "Song",
                                "artist", "Artist")))),
                row(SONGS, new DerivationCase("modify_replacedSong_changesNothing", SONG.toItem(),
                        new Song("s1", "Other", null, LATER).toItem(), Map.of(), Map.of(), List.of())),
                row(DOWNLOADS, new DerivationCase(
                        "insert_download_countsItsUtcDayAndMonthEverywhereAndHoldsTheChartEntry", null,
                        DOWNLOAD.toItem(), deltas(ALL_TIME, 1, SONG_DAY, 1, SONG_MONTH, 1, ALL_DAY, 1, GLOBAL, 1),
                        Map.of(ENTRY, ENTRY_DOCUMENT), List.of())),
                row(DOWNLOADS, new DerivationCase(
                        "modify_refund_uncountsInTheDownloadsPeriodsKeepsTheEntryAndAnnouncesDownloadRefunded",
                        DOWNLOAD.toItem(), REFUNDED.toItem(),
                        deltas(ALL_TIME, -1, SONG_DAY, -1, SONG_MONTH, -1, ALL_DAY, -1, GLOBAL, -1),
                        Map.of(ENTRY, ENTRY_DOCUMENT),
                        List.of(event(SongEvents.DOWNLOAD_REFUNDED.detailType(), "d1", "downloadId", "d1", "songId", "s1",
                                "userId", "u1", "at", "2024-01-31T23:30:00.000Z",
                                "refundedAt", "2024-02-03T10:00:00.000Z")))),
                row(DOWNLOADS, new DerivationCase(
                        "insert_refundedDownload_countsNothing", null, REFUNDED.toItem(), Map.of(),
                        Map.of(ENTRY, ENTRY_DOCUMENT), List.of())));
    }

    private static Arguments row(Derivation derivation, DerivationCase change) {
        return Arguments.of(change, derivation);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void change_tableCase_derivesExpectedDeltasDocumentsAndEvents(DerivationCase change, Derivation derivation) {
        change.assertDerivedBy(derivation);
    }

    @Test
    void unreadableImage_isAProblem() {
        DerivationCase.assertUnreadable(new DownloadDerivation(), DerivationCase.with(DOWNLOAD.toItem(), "at", null));
        DerivationCase.assertUnreadable(new DownloadDerivation(), SONG.toItem());
        DerivationCase.assertUnreadable(SONGS, DerivationCase.with(SONG.toItem(), "title", null));
    }

    @Test
    void chartEntry_everyDownloadOfTheSongInTheMonthHoldsTheSameDocument() {
        Download other = new Download("d2", "s1", null, Instant.parse("2024-01-01T00:00:00.000Z"), null);
        assertThat(new DownloadDerivation().derive(DerivationCase.RECORD_ID, null, other.toItem()).documents())
                .isEqualTo(Map.of(ENTRY, ENTRY_DOCUMENT));
    }
}
