package io.tally.stream.fault;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The read side as DOMAIN.md defines it, computed from the base items alone, and compared with the derived items the
 * stream processor wrote. It is the fault test's independent oracle: written from the specification's definitions
 * ("a user's {@code posts} counts the posts whose status is not {@code deleted}", "{@code byTag}" counts a tag's
 * links, ...) and the item layout of docs/table-design.md, which it spells out itself, without the production
 * derivations, the rebuild or the domain classes. The {@link io.tally.stream.rebuild.Rebuilder} check beside it proves
 * engine == recomputation; this proves the figures are the ones the product promises, so that a derivation that
 * credits a comment to the wrong user, or a counter that both the engine and the rebuild get wrong the same way, fails.
 *
 * <p>Every figure is an attribute of a derived item: counters (a missing counter reads as zero) and the document parts
 * of projections (post projections, selector entries, chart entries, search entries). The global totals are compared
 * as the sum of their slots, as readers sum them, and so are all songs' downloads of a day. Bookkeeping (watermarks,
 * {@code srcRev}, the write version {@code wv}) is not a figure. A base
 * item without the attributes its type needs is unreadable (the workload's poison) and counts nowhere.
 *
 * <p>Kept small on purpose: one method per base type, each a few lines that read like the specification.
 */
public final class ReadSideModel {
    /** The shards of the status index and the back catalogue (docs/table-design.md: K defaults to 4). */
    static final int STATUS_SHARDS = 4;
    static final int BACK_CATALOGUE_SHARDS = 4;
    /** The partitions of a month's chart (docs/table-design.md: k = CRC-32(songId) mod 4). */
    static final int CHART_SHARDS = 4;
    /** The longest search term: a word's prefixes of up to 4 characters (docs/table-design.md). */
    static final int SEARCH_PREFIX_MAX = 4;
    /** The key the global totals are compared under: their slots summed. */
    static final String GLOBAL = "GLOBAL#STATS#<sum of slots>";
    /** The partition all songs' downloads of a day are compared under: the day's slots (DOWNLOADS#DAYS#<k>) summed. */
    static final String ALL_DAYS = "DOWNLOADS#DAYS#<sum of slots>";

    /** The derived item types the model computes: every stored item of these types is compared. */
    static final Set<String> DERIVED_TYPES = Set.of("UserStats", "PostProjection", "SelectorEntry", "GlobalStats",
            "OrgStats", "TeamStats", "SongStats", "SongDay", "SongMonth", "DownloadDay", "FavouriteStats",
            "FavouriteSearchEntry");

    /** Attributes of a derived item that are the engine's bookkeeping, not figures. */
    private static final Set<String> BOOKKEEPING = Set.of("pk", "sk", "entityType", "srcRev", "wv");

    /** Expected figures by derived item ({@code pk / sk}), each attribute a {@code String} or a {@code Long}. */
    private final Map<String, Map<String, Object>> expected = new TreeMap<>();

    private ReadSideModel() {
    }

    /** The figures the base items among {@code items} (a consistent scan of the table) call for. */
    static Map<String, Map<String, Object>> expected(List<Map<String, AttributeValue>> items) {
        ReadSideModel model = new ReadSideModel();
        for (Map<String, AttributeValue> item : items) {
            model.add(item);
        }
        return model.expected;
    }

    /**
     * What ends the sort key of a shared item's per-shard partial (docs/table-design.md): {@code <sort key of the
     * item>~p~<shard token>}. A partial's counters are part of its item's figures, as readers sum them.
     */
    private static final String PARTIAL_MARK = "~p~";

    /**
     * The figures the derived items among {@code items} hold, the global totals' slots summed, the partials of a shared
     * item summed into it.
     */
    static Map<String, Map<String, Object>> stored(List<Map<String, AttributeValue>> items) {
        Map<String, Map<String, Object>> stored = new TreeMap<>();
        for (Map<String, AttributeValue> item : items) {
            String type = string(item, "entityType");
            if (type == null || !DERIVED_TYPES.contains(type)) {
                continue;
            }
            boolean days = type.equals("DownloadDay");
            String sk = string(item, "sk");
            String itemSk = sk.contains(PARTIAL_MARK) ? sk.substring(0, sk.indexOf(PARTIAL_MARK)) : sk;
            String key = type.equals("GlobalStats") ? GLOBAL : days ? ALL_DAYS + " / " + itemSk
                    : string(item, "pk") + " / " + itemSk;
            Map<String, Object> figures = stored.computeIfAbsent(key, k -> new TreeMap<>());
            item.forEach((name, value) -> {
                if (BOOKKEEPING.contains(name) || name.startsWith("wm_")) {
                    return;
                }
                Object figure = value.n() != null ? (Object) Long.parseLong(value.n()) : value.s();
                if (figure instanceof Long count) {
                    figures.merge(name, count, (a, b) -> (Long) a + (Long) b);
                } else {
                    figures.put(name, figure == null ? value.toString() : figure);
                }
            });
        }
        return stored;
    }

    /**
     * Every figure that differs between the model and the table, one line each; empty when the read side is right.
     * A counter missing on one side reads as zero; a text attribute must be present on both sides or neither.
     */
    public static List<String> differences(List<Map<String, AttributeValue>> items) {
        return differences(expected(items), stored(items));
    }

    static List<String> differences(Map<String, Map<String, Object>> expected,
                                    Map<String, Map<String, Object>> stored) {
        List<String> differences = new ArrayList<>();
        Set<String> keys = new TreeSet<>(expected.keySet());
        keys.addAll(stored.keySet());
        for (String key : keys) {
            Map<String, Object> want = expected.getOrDefault(key, Map.of());
            Map<String, Object> have = stored.getOrDefault(key, Map.of());
            Set<String> names = new TreeSet<>(want.keySet());
            names.addAll(have.keySet());
            for (String name : names) {
                Object wanted = want.get(name);
                Object had = have.get(name);
                if (wanted instanceof Long || had instanceof Long) {
                    wanted = wanted == null ? Long.valueOf(0) : wanted;
                    had = had == null ? Long.valueOf(0) : had;
                }
                if (!Objects.equals(wanted, had)) {
                    differences.add(key + " " + name + ": expected " + wanted + ", stored " + had);
                }
            }
        }
        return differences;
    }

    private void add(Map<String, AttributeValue> item) {
        String type = string(item, "entityType");
        if (type == null) {
            return;
        }
        switch (type) {
            case "User" -> user(item);
            case "Post" -> post(item);
            case "Comment" -> comment(item);
            case "CatalogueItem" -> catalogueItem(item);
            case "UserItem" -> userItem(item);
            case "Organisation" -> organisation(item);
            case "Team" -> team(item);
            case "Employee" -> employee(item);
            case "Membership" -> membership(item);
            case "Download" -> download(item);
            case "Favourite" -> favourite(item);
            case "FavouriteTag" -> link(item);
            default -> {
                // Songs, tags, references, the per-state lists, derived items: they derive no figure.
            }
        }
    }

    /** A user exists: its stats item names it, and it counts in the global {@code users}. */
    private void user(Map<String, AttributeValue> item) {
        String userId = string(item, "userId");
        if (userId == null) {
            return;
        }
        put(userStats(userId), "userId", userId);
        count(GLOBAL, "users", 1);
    }

    /**
     * A post counts in its author's {@code posts} unless deleted, once in the global totals under its status, and has
     * a projection in the status index: its fields, its status partition (by post id) and its time order.
     */
    private void post(Map<String, AttributeValue> item) {
        String postId = string(item, "postId");
        String userId = string(item, "userId");
        String status = string(item, "status");
        String title = string(item, "title");
        String createdAt = string(item, "createdAt");
        String updatedAt = string(item, "updatedAt");
        if (postId == null || userId == null || status == null || title == null || createdAt == null
                || updatedAt == null) {
            return;
        }
        count(userStats(userId), "posts", status.equals("deleted") ? 0 : 1);
        count(GLOBAL, "posts" + status.substring(0, 1).toUpperCase(Locale.ROOT) + status.substring(1), 1);
        String projection = "POSTREF#" + postId + " / #PROJECTION#";
        put(projection, "postId", postId);
        put(projection, "userId", userId);
        put(projection, "title", title);
        put(projection, "status", status);
        put(projection, "createdAt", createdAt);
        put(projection, "updatedAt", updatedAt);
        put(projection, "statusShard", "POSTS#" + status + "#" + crc32(postId, STATUS_SHARDS));
        put(projection, "statusPostedAt", createdAt + "#" + postId);
    }

    /** An existing comment counts on its post, for its author (not the post's owner), and globally. */
    private void comment(Map<String, AttributeValue> item) {
        String postId = string(item, "postId");
        String authorId = string(item, "authorId");
        if (postId == null || authorId == null) {
            return;
        }
        count("POSTREF#" + postId + " / #PROJECTION#", "comments", 1);
        count(userStats(authorId), "comments", 1);
        count(GLOBAL, "comments", 1);
    }

    /** A catalogue item counts globally and is listed under its selector (the back catalogue sharded by item id). */
    private void catalogueItem(Map<String, AttributeValue> item) {
        String itemId = string(item, "itemId");
        String selector = string(item, "itemSelector");
        Long score = number(item, "score");
        if (itemId == null || selector == null || score == null) {
            return;
        }
        count(GLOBAL, "items", 1);
        String entry = "ITEM#" + itemId + " / #SELECTOR#";
        put(entry, "itemId", itemId);
        put(entry, "title", string(item, "title"));
        put(entry, "score", score);
        put(entry, "selector", selector.equals("back-catalogue")
                ? "back-catalogue:" + crc32(itemId, BACK_CATALOGUE_SHARDS) : selector);
        put(entry, "data", score);
    }

    /**
     * A user's item counts under its current state; a completed one also in {@code correctGuesses} when guessed
     * correctly, {@code liveCompleted} when live, and in the global {@code completed}.
     */
    private void userItem(Map<String, AttributeValue> item) {
        String userId = string(item, "userId");
        String state = string(item, "state");
        if (userId == null || state == null) {
            return;
        }
        String counter = switch (state) {
            case "assigned" -> "assigned";
            case "in-progress" -> "inProgress";
            case "completed" -> "completed";
            case "orphaned" -> "orphaned";
            default -> null;
        };
        if (counter == null) {
            return;
        }
        count(userStats(userId), counter, 1);
        if (state.equals("completed")) {
            count(userStats(userId), "correctGuesses", bool(item, "correct") ? 1 : 0);
            count(userStats(userId), "liveCompleted", bool(item, "live") ? 1 : 0);
            count(GLOBAL, "completed", 1);
        }
    }

    private void organisation(Map<String, AttributeValue> item) {
        if (string(item, "orgId") != null) {
            count(GLOBAL, "orgs", 1);
        }
    }

    private void team(Map<String, AttributeValue> item) {
        String orgId = string(item, "orgId");
        if (orgId != null && string(item, "teamId") != null) {
            count(orgStats(orgId), "teams", 1);
        }
    }

    /** An employee is the organisation's head count, and counts globally. */
    private void employee(Map<String, AttributeValue> item) {
        String orgId = string(item, "orgId");
        if (orgId != null && string(item, "employeeId") != null) {
            count(orgStats(orgId), "employees", 1);
            count(GLOBAL, "employees", 1);
        }
    }

    /** A membership is a member of its team and counts in its organisation's {@code memberships}. */
    private void membership(Map<String, AttributeValue> item) {
        String orgId = string(item, "orgId");
        String teamId = string(item, "teamId");
        if (orgId == null || teamId == null || string(item, "employeeId") == null) {
            return;
        }
        count("TEAM#" + teamId + " / #STATS#", "members", 1);
        count(orgStats(orgId), "memberships", 1);
    }

    /**
     * A download counts (unless refunded) for its song all time, on its UTC day and month, in the all-songs day and
     * globally; its month has a chart entry either way (a refunded month's entry stays, at zero).
     */
    private void download(Map<String, AttributeValue> item) {
        String songId = string(item, "songId");
        String at = string(item, "at");
        if (songId == null || at == null || string(item, "downloadId") == null) {
            return;
        }
        String day = at.substring(0, 10);
        String month = at.substring(0, 7);
        String songMonth = "SONG#" + songId + " / MONTH#" + month;
        put(songMonth, "songId", songId);
        put(songMonth, "month", month);
        put(songMonth, "selector", "chart:" + month + ":" + crc32(songId, CHART_SHARDS));
        int counts = item.containsKey("refundedAt") ? 0 : 1;
        count("SONG#" + songId + " / #STATS#", "downloads", counts);
        count("SONG#" + songId + " / DAY#" + day, "downloads", counts);
        count(songMonth, "data", counts);
        count(ALL_DAYS + " / DAY#" + day, "downloads", counts);
        count(GLOBAL, "downloads", counts);
    }

    /**
     * A favourite counts for its user, by its type and globally, and is found by search under every prefix of up to
     * four characters of each word of its title: one entry per term, holding the favourite's fields and word list.
     */
    private void favourite(Map<String, AttributeValue> item) {
        String userId = string(item, "userId");
        String favouriteId = string(item, "favouriteId");
        String type = string(item, "type");
        String title = string(item, "title");
        String clippedAt = string(item, "clippedAt");
        if (userId == null || favouriteId == null || type == null || title == null || clippedAt == null) {
            return;
        }
        count(favouriteStats(userId), "favourites", 1);
        count(favouriteStats(userId), "type:" + type, 1);
        count(GLOBAL, "favourites", 1);
        List<String> words = words(title);
        for (String term : terms(words)) {
            String entry = "FAVSEARCH#" + userId + "#" + favouriteId + " / " + term;
            for (String field : List.of("userId", "favouriteId", "type", "title", "clippedAt", "contentUrl",
                    "thumbnailUrl", "creatorId")) {
                put(entry, field, string(item, field));
            }
            put(entry, "words", " " + String.join(" ", words) + " ");
            put(entry, "searchKey", userId + "#" + term);
            put(entry, "clippedKey", clippedAt + "#" + favouriteId);
        }
    }

    /** A favourite-tag link counts in its user's {@code byTag} for its tag. */
    private void link(Map<String, AttributeValue> item) {
        String userId = string(item, "userId");
        String tagId = string(item, "tagId");
        if (userId != null && tagId != null && string(item, "favouriteId") != null) {
            count(favouriteStats(userId), "tag:" + tagId, 1);
        }
    }

    /** The distinct words of a title (runs of letters and digits), lower case, in order. */
    static List<String> words(String title) {
        Set<String> words = new LinkedHashSet<>();
        for (String word : title.split("[^\\p{L}\\p{Nd}]+")) {
            if (!word.isEmpty()) {
                words.add(word.toLowerCase(Locale.ROOT));
            }
        }
        return List.copyOf(words);
    }

    private static Set<String> terms(List<String> words) {
        Set<String> terms = new LinkedHashSet<>();
        for (String word : words) {
            int[] codePoints = word.codePoints().toArray();
            for (int n = 1; n <= Math.min(codePoints.length, SEARCH_PREFIX_MAX); n++) {
                terms.add(new String(codePoints, 0, n));
            }
        }
        return terms;
    }

    private static String userStats(String userId) {
        return "USER#" + userId + " / #STATS#";
    }

    private static String orgStats(String orgId) {
        return "ORG#" + orgId + " / #STATS#";
    }

    private static String favouriteStats(String userId) {
        return "FAVS#" + userId + " / #STATS#";
    }

    private void count(String item, String counter, long delta) {
        expected.computeIfAbsent(item, k -> new TreeMap<>()).merge(counter, delta, (a, b) -> (Long) a + (Long) b);
    }

    /** A document attribute; absent when {@code value} is null (an optional field the item does not have). */
    private void put(String item, String name, Object value) {
        Map<String, Object> figures = expected.computeIfAbsent(item, k -> new TreeMap<>());
        if (value != null) {
            figures.put(name, value);
        }
    }

    private static int crc32(String id, int shards) {
        CRC32 crc = new CRC32();
        crc.update(id.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % shards);
    }

    private static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : value.s();
    }

    private static Long number(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || value.n() == null ? null : Long.parseLong(value.n());
    }

    private static boolean bool(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value != null && Boolean.TRUE.equals(value.bool());
    }
}
