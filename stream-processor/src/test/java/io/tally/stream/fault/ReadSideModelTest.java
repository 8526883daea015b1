package io.tally.stream.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The fault test's independent oracle must be able to fail: a table whose derived items are right passes, and each
 * kind of wrong figure the engine and the rebuild could share (a comment credited to the post's owner instead of its
 * author, a counter off by one, a deleted post still counted, a search entry left behind) is reported. The derived
 * items here are written out by hand from DOMAIN.md, not computed.
 */
class ReadSideModelTest {

    @Test
    void aRightReadSide_hasNoDifference() {
        assertThat(ReadSideModel.differences(table())).isEmpty();
    }

    @Test
    void theModelExpectsEveryDerivedItemThatHoldsAFigure() {
        // Not vacuous: each derived item with a figure other than zero is one the model computed from the base items.
        List<String> holding = ReadSideModel.stored(table()).entrySet().stream()
                .filter(item -> item.getValue().values().stream().anyMatch(figure -> !figure.equals(0L)))
                .map(Map.Entry::getKey)
                .toList();
        assertThat(holding).hasSize(16);
        assertThat(ReadSideModel.expected(baseItems())).containsKeys(holding.toArray(String[]::new));
    }

    @Test
    void aCommentCreditedToThePostsOwner_isReported() {
        List<Map<String, AttributeValue>> table = table();
        // u2 wrote the comment on u1's post; the stats credit u1.
        set(table, "USER#u2", "#STATS#", "comments", null);
        set(table, "USER#u1", "#STATS#", "comments", n(1));
        assertThat(ReadSideModel.differences(table)).containsExactlyInAnyOrder(
                "USER#u1 / #STATS# comments: expected 0, stored 1",
                "USER#u2 / #STATS# comments: expected 1, stored 0");
    }

    @Test
    void aFavouriteCreditedToAnotherUser_isReported() {
        List<Map<String, AttributeValue>> table = table();
        set(table, "FAVS#u1", "#STATS#", "favourites", n(0));
        table.add(item("FAVS#u2", "#STATS#", "FavouriteStats", Map.of("favourites", n(1))));
        assertThat(ReadSideModel.differences(table)).containsExactlyInAnyOrder(
                "FAVS#u1 / #STATS# favourites: expected 1, stored 0",
                "FAVS#u2 / #STATS# favourites: expected 0, stored 1");
    }

    @Test
    void aCounterOffByOne_isReported() {
        List<Map<String, AttributeValue>> table = table();
        set(table, "ORG#o1", "#STATS#", "memberships", n(2));
        assertThat(ReadSideModel.differences(table))
                .containsExactly("ORG#o1 / #STATS# memberships: expected 1, stored 2");
    }

    @Test
    void aGlobalTotalOffInOneSlot_isReportedOnTheSum() {
        List<Map<String, AttributeValue>> table = table();
        set(table, "GLOBAL#STATS#0", "#STATS#", "downloads", n(1));
        assertThat(ReadSideModel.differences(table))
                .containsExactly(ReadSideModel.GLOBAL + " downloads: expected 1, stored 2");
    }

    @Test
    void aDeletedPostStillCounted_isReported() {
        List<Map<String, AttributeValue>> table = table();
        set(table, "USER#u1", "#STATS#", "posts", n(2));
        assertThat(ReadSideModel.differences(table)).containsExactly("USER#u1 / #STATS# posts: expected 1, stored 2");
    }

    @Test
    void aRefundedDownloadStillCounted_isReported() {
        List<Map<String, AttributeValue>> table = table();
        set(table, "SONG#s1", "MONTH#2026-02", "data", n(2));
        assertThat(ReadSideModel.differences(table))
                .containsExactly("SONG#s1 / MONTH#2026-02 data: expected 1, stored 2");
    }

    @Test
    void aLinkCountedUnderTheWrongTag_isReported() {
        List<Map<String, AttributeValue>> table = table();
        set(table, "FAVS#u1", "#STATS#", "tag:t1", n(0));
        set(table, "FAVS#u1", "#STATS#", "tag:t2", n(1));
        assertThat(ReadSideModel.differences(table)).containsExactlyInAnyOrder(
                "FAVS#u1 / #STATS# tag:t1: expected 1, stored 0",
                "FAVS#u1 / #STATS# tag:t2: expected 0, stored 1");
    }

    @Test
    void aStaleProjectionOrSearchEntry_isReported() {
        List<Map<String, AttributeValue>> table = table();
        set(table, "POSTREF#p2", "#PROJECTION#", "status", s("updated"));
        table.removeIf(item -> item.get("pk").s().equals("FAVSEARCH#u1#f1") && item.get("sk").s().equals("re"));
        // The entry of a term the title no longer has, still holding a document.
        table.add(item("FAVSEARCH#u1#f1", "x", "FavouriteSearchEntry", Map.of("title", s("Xylophone"))));
        assertThat(ReadSideModel.differences(table)).contains(
                "POSTREF#p2 / #PROJECTION# status: expected deleted, stored updated",
                "FAVSEARCH#u1#f1 / re searchKey: expected u1#re, stored null",
                "FAVSEARCH#u1#f1 / x title: expected null, stored Xylophone");
    }

    @Test
    void anUnreadableBaseItem_countsNowhere() {
        List<Map<String, AttributeValue>> table = table();
        // The workload's poison: a post overwritten with one that lacks its fields.
        table.add(item("USER#u2", "POST#p9#2026-01-01T00:00:09.000Z", "Post", Map.of("garbled", s("garbled"))));
        assertThat(ReadSideModel.differences(table)).isEmpty();
    }

    /** Base items of every domain the fault workload writes, and their derived items as DOMAIN.md defines them. */
    private static List<Map<String, AttributeValue>> table() {
        List<Map<String, AttributeValue>> table = baseItems();
        String wm = "wm_eya5wya3sgjeodko";
        table.add(item("USER#u1", "#STATS#", "UserStats", Map.of("userId", s("u1"), "posts", n(1), "completed", n(1),
                "correctGuesses", n(1), "liveCompleted", n(0), wm, s("0000000000000000000000000000000000000030"),
                "srcRev", n(1))));
        table.add(item("USER#u2", "#STATS#", "UserStats", Map.of("userId", s("u2"), "comments", n(1))));
        table.add(item("POSTREF#p1", "#PROJECTION#", "PostProjection", Map.of("postId", s("p1"), "userId", s("u1"),
                "title", s("Hello"), "status", s("created"), "createdAt", s("2026-01-01T00:00:01.000Z"),
                "updatedAt", s("2026-01-01T00:00:01.000Z"), "comments", n(1),
                "statusShard", s("POSTS#created#" + crc("p1")),
                "statusPostedAt", s("2026-01-01T00:00:01.000Z#p1"))));
        table.add(item("POSTREF#p2", "#PROJECTION#", "PostProjection", Map.of("postId", s("p2"), "userId", s("u1"),
                "title", s("Gone"), "status", s("deleted"), "createdAt", s("2026-01-01T00:00:02.000Z"),
                "updatedAt", s("2026-01-01T00:00:05.000Z"), "statusShard", s("POSTS#deleted#" + crc("p2")),
                "statusPostedAt", s("2026-01-01T00:00:02.000Z#p2"))));
        table.add(item("ITEM#i1", "#SELECTOR#", "SelectorEntry", Map.of("itemId", s("i1"), "title", s("Item"),
                "score", n(7), "data", n(7), "selector", s("back-catalogue:" + crc("i1")))));
        table.add(item("ORG#o1", "#STATS#", "OrgStats", Map.of("teams", n(1), "employees", n(1),
                "memberships", n(1))));
        table.add(item("TEAM#t1", "#STATS#", "TeamStats", Map.of("members", n(1))));
        // A team deleted long ago: its stats item stays, at zero.
        table.add(item("TEAM#t0", "#STATS#", "TeamStats", Map.of("members", n(0))));
        table.add(item("SONG#s1", "#STATS#", "SongStats", Map.of("downloads", n(1))));
        table.add(item("SONG#s1", "DAY#2026-02-03", "SongDay", Map.of("downloads", n(1))));
        table.add(item("SONG#s1", "DAY#2026-02-04", "SongDay", Map.of("downloads", n(0))));
        table.add(item("SONG#s1", "MONTH#2026-02", "SongMonth", Map.of("data", n(1), "songId", s("s1"),
                "month", s("2026-02"), "selector", s("chart:2026-02:" + crc("s1")))));
        // All songs' downloads of a day, in slots: 2 in one, -1 in another (a download counted in through one shard's
        // slot and refunded through another's).
        table.add(item("DOWNLOADS#DAYS#1", "DAY#2026-02-03", "DownloadDay", Map.of("downloads", n(2))));
        table.add(item("DOWNLOADS#DAYS#3", "DAY#2026-02-03", "DownloadDay", Map.of("downloads", n(-1))));
        table.add(item("DOWNLOADS#DAYS#0", "DAY#2026-02-04", "DownloadDay", Map.of()));
        table.add(item("FAVS#u1", "#STATS#", "FavouriteStats", Map.of("favourites", n(1), "type:link", n(1),
                "tag:t1", n(1), "tag:t0", n(0))));
        for (String term : List.of("r", "re", "red")) {
            table.add(item("FAVSEARCH#u1#f1", term, "FavouriteSearchEntry", Map.of("userId", s("u1"),
                    "favouriteId", s("f1"), "type", s("link"), "title", s("Red"),
                    "clippedAt", s("2026-01-01T00:00:03.000Z"), "contentUrl", s("https://example.com/f1"),
                    "words", s(" red "), "searchKey", s("u1#" + term), "clippedKey", s("2026-01-01T00:00:03.000Z#f1"))));
        }
        // The entry of an earlier title's term: removed, it keeps only its bookkeeping.
        table.add(item("FAVSEARCH#u1#f1", "b", "FavouriteSearchEntry", Map.of("srcRev", n(1), wm, s("1"))));
        table.add(item("GLOBAL#STATS#0", "#STATS#", "GlobalStats", Map.of("users", n(2), "postsCreated", n(1),
                "comments", n(1), "downloads", n(0))));
        table.add(item("GLOBAL#STATS#1", "#STATS#", "GlobalStats", Map.of("postsDeleted", n(1), "items", n(1),
                "completed", n(1), "orgs", n(1), "employees", n(1), "downloads", n(1), "favourites", n(1))));
        // Bookkeeping the model ignores.
        table.add(item("SHARD#x", "#CURSOR#", "ShardCursor", Map.of("acknowledged", s("1"))));
        return table;
    }

    private static List<Map<String, AttributeValue>> baseItems() {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        items.add(item("USER#u1", "#METADATA#u1", "User", Map.of("userId", s("u1"), "name", s("One"))));
        items.add(item("USER#u2", "#METADATA#u2", "User", Map.of("userId", s("u2"), "name", s("Two"))));
        items.add(item("USER#u1", "POST#p1#2026-01-01T00:00:01.000Z", "Post", Map.of("postId", s("p1"),
                "userId", s("u1"), "title", s("Hello"), "body", s("Body"), "status", s("created"),
                "createdAt", s("2026-01-01T00:00:01.000Z"), "updatedAt", s("2026-01-01T00:00:01.000Z"))));
        items.add(item("USER#u1", "POST#p2#2026-01-01T00:00:02.000Z", "Post", Map.of("postId", s("p2"),
                "userId", s("u1"), "title", s("Gone"), "body", s("Body"), "status", s("deleted"),
                "createdAt", s("2026-01-01T00:00:02.000Z"), "updatedAt", s("2026-01-01T00:00:05.000Z"))));
        items.add(item("POST#p1#2026-01-01T00:00:01.000Z", "COMMENT#c1#2026-01-01T00:00:04.000Z", "Comment",
                Map.of("commentId", s("c1"), "postId", s("p1"), "authorId", s("u2"), "postUserId", s("u1"),
                        "text", s("Nice"))));
        items.add(item("ITEM#i1", "#METADATA#", "CatalogueItem", Map.of("itemId", s("i1"), "title", s("Item"),
                "score", n(7), "itemSelector", s("back-catalogue"))));
        items.add(item("USER#u1", "useritem#i1", "UserItem", Map.of("userId", s("u1"), "itemId", s("i1"),
                "state", s("completed"), "correct", AttributeValue.fromBool(true),
                "live", AttributeValue.fromBool(false))));
        // The per-state list entry of the same item: a base item of its own that counts nowhere.
        items.add(item("USER#u1", "item:completed:x#i1", "UserItemEntry", Map.of("userId", s("u1"),
                "state", s("completed"))));
        items.add(item("ORG#o1", "#METADATA#o1", "Organisation", Map.of("orgId", s("o1"), "name", s("Org"))));
        items.add(item("ORG#o1", "#TEAM#t1", "Team", Map.of("orgId", s("o1"), "teamId", s("t1"))));
        items.add(item("ORG#o1", "EMP#e1", "Employee", Map.of("orgId", s("o1"), "employeeId", s("e1"))));
        items.add(item("ORG#o1#TEAM#t1", "ORG#o1#EMP#e1", "Membership", Map.of("orgId", s("o1"), "teamId", s("t1"),
                "employeeId", s("e1"))));
        items.add(item("SONG#s1", "#METADATA#", "Song", Map.of("songId", s("s1"), "title", s("Song"))));
        items.add(item("SONG#s1#DL#1", "DL#d1", "Download", Map.of("downloadId", s("d1"), "songId", s("s1"),
                "at", s("2026-02-03T10:00:00.000Z"))));
        items.add(item("SONG#s1#DL#2", "DL#d2", "Download", Map.of("downloadId", s("d2"), "songId", s("s1"),
                "at", s("2026-02-04T10:00:00.000Z"), "refundedAt", s("2026-02-05T10:00:00.000Z"))));
        items.add(item("FAVS#u1", "FAV#f1", "Favourite", Map.of("userId", s("u1"), "favouriteId", s("f1"),
                "type", s("link"), "title", s("Red"), "clippedAt", s("2026-01-01T00:00:03.000Z"),
                "contentUrl", s("https://example.com/f1"), "incarnation", s("f2"),
                "clippedKey", s("2026-01-01T00:00:03.000Z#f1"))));
        items.add(item("TAGS#u1", "TAG#t1", "Tag", Map.of("userId", s("u1"), "tagId", s("t1"), "name", s("Tag"))));
        items.add(item("FAVTAGS#u1#f1", "TAG#t1", "FavouriteTag", Map.of("userId", s("u1"), "favouriteId", s("f1"),
                "tagId", s("t1"), "type", s("link"))));
        return items;
    }

    private static Map<String, AttributeValue> item(String pk, String sk, String type,
                                                    Map<String, AttributeValue> attributes) {
        Map<String, AttributeValue> item = new HashMap<>(attributes);
        item.put("pk", s(pk));
        item.put("sk", s(sk));
        item.put("entityType", s(type));
        return item;
    }

    /** Sets (or, with null, removes) one attribute of the item at {@code pk / sk}. */
    private static void set(List<Map<String, AttributeValue>> table, String pk, String sk, String name,
                            AttributeValue value) {
        Map<String, AttributeValue> item = table.stream()
                .filter(i -> i.get("pk").s().equals(pk) && i.get("sk").s().equals(sk))
                .findFirst().orElseThrow();
        if (value == null) {
            item.remove(name);
        } else {
            item.put(name, value);
        }
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    private static int crc(String id) {
        CRC32 crc = new CRC32();
        crc.update(id.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % 4);
    }
}
