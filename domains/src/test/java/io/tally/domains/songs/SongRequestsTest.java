package io.tally.domains.songs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class SongRequestsTest {
    @Test
    void refund_marksACountingDownloadInItsWriteShard() {
        var request = SongRequests.refund("t", "s1", "d1", Instant.parse("2024-03-01T10:00:00Z"));
        assertThat(request.key()).isEqualTo(SongKeys.download("s1", "d1").toAttributeMap());
        assertThat(request.updateExpression()).isEqualTo("SET #refundedAt = :now");
        assertThat(request.conditionExpression()).isEqualTo("attribute_exists(pk) AND attribute_not_exists(#refundedAt)");
        assertThat(request.expressionAttributeValues()).containsEntry(":now", AttributeValue.fromS("2024-03-01T10:00:00.000Z"));
    }

    @Test
    void days_areOneConsistentRangeOfOnePartition_theLastDaysPartialsIncluded() {
        var song = SongRequests.songDays("t", "s1", "2024-02-28", "2024-03-02");
        assertThat(song.keyConditionExpression()).isEqualTo("#pk = :pk AND #sk BETWEEN :from AND :to");
        assertThat(song.expressionAttributeValues()).containsEntry(":pk", AttributeValue.fromS("SONG#s1"))
                .containsEntry(":from", AttributeValue.fromS("DAY#2024-02-28"))
                .containsEntry(":to", AttributeValue.fromS("DAY#2024-03-02~p~~"));
        assertThat(song.consistentRead()).isTrue();
        assertThat(SongRequests.allDays("t", 3, "2024-02-28", "2024-03-02").expressionAttributeValues())
                .containsEntry(":pk", AttributeValue.fromS("DOWNLOADS#DAYS#3"));
        assertThat(SongRequests.months("t", "s1").expressionAttributeValues())
                .containsEntry(":from", AttributeValue.fromS("MONTH#"));
    }

    @Test
    void chart_titlesOfItsSongs_oneBatchGet() {
        assertThat(SongRequests.titles("t", List.of("s1")).requestItems().get("t").keys())
                .containsExactly(Map.of("pk", AttributeValue.fromS("SONG#s1"), "sk", AttributeValue.fromS("#METADATA#")));
    }
}
