package io.tally.domains.songs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.http.Json;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SongsJsonTest {
    private static final Instant T1 = Instant.parse("2024-02-29T23:59:59.999Z");
    private static final Instant T2 = Instant.parse("2024-03-01T00:00:00Z");

    @Test
    void song_writesAnAbsentArtistAsNull() {
        assertThat(Json.tree(new Song("s1", "Title", null, T1)).toString())
                .isEqualTo("{\"songId\":\"s1\",\"title\":\"Title\",\"artist\":null,\"updatedAt\":\"2024-02-29T23:59:59.999Z\"}");
        assertThat(Json.tree(new Song("s1", "Title", "A", T1)).toString())
                .isEqualTo("{\"songId\":\"s1\",\"title\":\"Title\",\"artist\":\"A\",\"updatedAt\":\"2024-02-29T23:59:59.999Z\"}");
    }

    @Test
    void download_leavesOutItsRefund() {
        assertThat(Json.tree(new Download("d1", "s1", null, T1, null)).toString())
                .isEqualTo("{\"downloadId\":\"d1\",\"songId\":\"s1\",\"userId\":null,\"at\":\"2024-02-29T23:59:59.999Z\"}");
        assertThat(Json.tree(new Download("d1", "s1", "u1", T1, T2)).toString())
                .isEqualTo("{\"downloadId\":\"d1\",\"songId\":\"s1\",\"userId\":\"u1\",\"at\":\"2024-02-29T23:59:59.999Z\"}");
    }

    @Test
    void songStats_listsTheMonthsInOrder() {
        Map<String, Long> months = new LinkedHashMap<>();
        months.put("2024-01", 2L);
        months.put("2024-02", 5L);
        assertThat(Json.tree(new SongStore.SongStats("s1", 7, months)).toString())
                .isEqualTo("{\"songId\":\"s1\",\"downloads\":7,\"months\":{\"2024-01\":2,\"2024-02\":5}}");
        assertThat(Json.tree(new SongStore.SongStats("s1", 0, Map.of())).toString())
                .isEqualTo("{\"songId\":\"s1\",\"downloads\":0,\"months\":{}}");
    }

    @Test
    void days_everyDayInOrder_zeroWhereNoneIsCounted() {
        assertThat(Json.tree(new SongRoutes.SongDays("s1", SongRoutes.days(List.of("2024-02-28", "2024-02-29"),
                Map.of("2024-02-29", 3L)))).toString()).isEqualTo("{\"songId\":\"s1\",\"days\":[{\"day\":\"2024-02-28\","
                        + "\"downloads\":0},{\"day\":\"2024-02-29\",\"downloads\":3}]}");
        assertThat(Json.tree(new SongRoutes.DownloadDays(SongRoutes.days(List.of("2024-02-29"), Map.of()))).toString())
                .isEqualTo("{\"days\":[{\"day\":\"2024-02-29\",\"downloads\":0}]}");
    }

    @Test
    void chart_rowsInOrder_aTitleNullWhenUnknown() {
        assertThat(Json.tree(new SongRoutes.MonthChart("2024-02", List.of(new SongStore.ChartRow("s2", "Two", 9),
                new SongStore.ChartRow("s1", null, 4)))).toString()).isEqualTo("{\"month\":\"2024-02\",\"items\":["
                        + "{\"songId\":\"s2\",\"title\":\"Two\",\"downloads\":9},"
                        + "{\"songId\":\"s1\",\"title\":null,\"downloads\":4}]}");
        assertThat(Json.tree(new SongRoutes.MonthChart("2024-02", List.of())).toString())
                .isEqualTo("{\"month\":\"2024-02\",\"items\":[]}");
    }
}
