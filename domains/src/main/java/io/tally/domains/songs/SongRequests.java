package io.tally.domains.songs;

import io.tally.core.Items;
import io.tally.core.PartialKeys;
import io.tally.core.TableSchema;
import io.tally.core.read.DerivedReads;
import io.tally.core.store.Requests;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** Pure builders of the requests of songs, downloads and their read side; tested by comparing what they build. */
final class SongRequests {
    private SongRequests() {
    }

    /** W16: creates or replaces; the old image tells 201 from 200. */
    static PutItemRequest put(String table, Song song) {
        return PutItemRequest.builder()
                .tableName(table)
                .item(song.toItem())
                .returnValues(ReturnValue.ALL_OLD)
                .build();
    }

    /**
     * R20: a song, read consistently; a download reads it too (songs are never deleted, so a song seen once exists for
     * good, and the download's own put needs no transaction with a condition check on the song's item, which would
     * cost the hot song's partition two write units a download).
     */
    static GetItemRequest get(String table, String songId) {
        return Requests.consistentGet(table, SongKeys.song(songId));
    }

    /** W17: a new download in its song's write shard; an id taken is a conflict. */
    static PutItemRequest createDownload(String table, Download download) {
        return Requests.putNew(table, download.toItem());
    }

    /**
     * W18: a refund marks the download, which then stops counting; one that does not exist or was refunded already is
     * not found. The item stays, so its id stays taken.
     */
    static UpdateItemRequest refund(String table, String songId, String downloadId, Instant now) {
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(SongKeys.download(songId, downloadId).toAttributeMap())
                .updateExpression("SET #refundedAt = :now")
                .conditionExpression("attribute_exists(pk) AND attribute_not_exists(#refundedAt)")
                .expressionAttributeNames(Map.of("#refundedAt", Download.REFUNDED_AT))
                .expressionAttributeValues(Map.of(":now", Items.ts(now)))
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.NONE)
                .build();
    }

    /** D9: a song's months, in order. */
    static QueryRequest months(String table, String songId) {
        return partitionRange(table, SongKeys.songPk(songId), SongKeys.MONTH_PREFIX, SongKeys.MONTH_PREFIX + "~",
                List.of(TableSchema.SK, TableSchema.ENTITY_TYPE, TableSchema.DATA));
    }

    /**
     * D10: a song's days from {@code from} to {@code to}, both included, with their per-shard partials
     * ({@link Songs#SONG_DAY} is shared).
     */
    static QueryRequest songDays(String table, String songId, String from, String to) {
        return partitionRange(table, SongKeys.songPk(songId), SongKeys.DAY_PREFIX + from,
                PartialKeys.partialsUpTo(SongKeys.DAY_PREFIX + to),
                List.of(TableSchema.SK, TableSchema.ENTITY_TYPE, Songs.DOWNLOADS));
    }

    /**
     * D11: all songs' days from {@code from} to {@code to}, both included, with their per-shard partials
     * ({@link Songs#DOWNLOAD_DAY} is shared).
     */
    static QueryRequest allDays(String table, int slot, String from, String to) {
        return partitionRange(table, SongKeys.allDownloadsPk(slot), SongKeys.DAY_PREFIX + from,
                PartialKeys.partialsUpTo(SongKeys.DAY_PREFIX + to),
                List.of(TableSchema.SK, TableSchema.ENTITY_TYPE, Songs.DOWNLOADS));
    }

    /** The titles of the songs of a chart (at most 100, one BatchGetItem). */
    static BatchGetItemRequest titles(String table, Collection<String> songIds) {
        Map<String, String> names = new HashMap<>();
        String projection = DerivedReads.projection(List.of(Song.SONG_ID, Song.TITLE), names);
        return BatchGetItemRequest.builder()
                .requestItems(Map.of(table, KeysAndAttributes.builder()
                        .keys(songIds.stream().map(id -> SongKeys.song(id).toAttributeMap()).toList())
                        .projectionExpression(projection)
                        .expressionAttributeNames(names)
                        .build()))
                .build();
    }

    private static QueryRequest partitionRange(String table, String pk, String from, String to, List<String> attributes) {
        Map<String, String> names = new HashMap<>();
        String projection = DerivedReads.projection(attributes, names);
        names.put("#pk", TableSchema.PK);
        names.put("#sk", TableSchema.SK);
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("#pk = :pk AND #sk BETWEEN :from AND :to")
                .expressionAttributeNames(names)
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(pk), ":from", AttributeValue.fromS(from),
                        ":to", AttributeValue.fromS(to)))
                .projectionExpression(projection)
                .consistentRead(true)
                .build();
    }
}
