package io.tally.domains.songs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Shards;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Songs' items, attribute by attribute: what the table holds must not change with the way they are mapped. */
class SongsItemsTest {
    private static final Instant T1 = Instant.parse("2024-02-29T23:59:59.999Z");
    private static final Instant T2 = Instant.parse("2024-03-01T00:00:00Z");

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    @Test
    void song_everyAttribute_theArtistOnlyWhenThere() {
        assertThat(new Song("s1", "Title", "A", T1).toItem()).isEqualTo(Map.of("pk", s("SONG#s1"),
                "sk", s("#METADATA#"), "entityType", s("Song"), "songId", s("s1"), "title", s("Title"),
                "artist", s("A"), "updatedAt", s("2024-02-29T23:59:59.999Z")));
        assertThat(new Song("s1", "Title", null, T1).toItem()).doesNotContainKey("artist").hasSize(6);
    }

    @Test
    void download_everyAttribute() {
        assertThat(new Download("d1", "s1", "u1", T1, T2).toItem()).isEqualTo(Map.of(
                "pk", s("SONG#s1#DL#" + Shards.of("d1", Songs.DOWNLOAD_SHARDS)), "sk", s("DL#d1"),
                "entityType", s("Download"), "downloadId", s("d1"), "songId", s("s1"), "userId", s("u1"),
                "at", s("2024-02-29T23:59:59.999Z"), "refundedAt", s("2024-03-01T00:00:00.000Z")));
    }
}
