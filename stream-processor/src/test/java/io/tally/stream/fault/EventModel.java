package io.tally.stream.fault;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ObjLongConsumer;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The domain events as docs/events.md specifies them, computed from one stream record (its {@code eventID}, its old
 * and new image) alone. It is the fault test's independent oracle of events, as {@link ReadSideModel} is of figures:
 * written from the contract's "when" of each detail type, its fields and the event id rule, with the item layout and
 * attribute names spelled out here, without the production derivations, the domain registry or the domain classes. A
 * derivation that announces an event the contract does not, misses one, or fills a field wrongly then fails the
 * fault test, which the production derivations, computing the expected events themselves, could never show.
 *
 * <p>A side of a record (its old or new image) without the attributes its type needs is unreadable (the workload's
 * poison). Such a record announces no event of its own type, but its readable side still counts, as derived data
 * does (docs/exactly-once.md, "Poison records"): the counters it moves announce their {@code UserStatsChanged}.
 *
 * <p>Kept small on purpose: one method per base type, each a few lines that read like docs/events.md.
 */
final class EventModel {
    /** An event: its id, detail type and detail ({@code eventId} first, then the fields in the contract's order). */
    record Event(String id, String detailType, Map<String, Object> detail) {
    }

    /** The counters of a user's stats in the order {@code UserStatsChanged} lists its {@code changes}. */
    static final List<String> USER_STATS_ORDER = List.of("posts", "comments", "completed", "correctGuesses",
            "liveCompleted", "assigned", "inProgress", "orphaned");

    private final String recordId;
    private final Map<String, AttributeValue> oldImage;
    private final Map<String, AttributeValue> newImage;
    private final List<Event> events = new ArrayList<>();
    /** By user id, the change of each stats counter the record makes. */
    private final Map<String, Map<String, Long>> statsChanges = new TreeMap<>();
    /** The images if readable, else null; {@code clean} when no image present is unreadable. */
    private Map<String, AttributeValue> before;
    private Map<String, AttributeValue> after;
    private boolean clean;

    private EventModel(String recordId, Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage) {
        this.recordId = recordId;
        this.oldImage = oldImage;
        this.newImage = newImage;
    }

    /**
     * docs/events.md, "Event ids and duplicates": {@code eventId = <stream record eventID> ":" <detail-type> ":"
     * <subject>}, the same on every redelivery of the record.
     */
    static String id(String recordId, String detailType, String subject) {
        return recordId + ":" + detailType + ":" + subject;
    }

    /**
     * The events the record announces: those of its own type first, then one {@code UserStatsChanged} per user whose
     * stats counters it moves, by user id. A record whose images name two entity types announces nothing.
     *
     * @param recordId the stream record's {@code eventID}
     */
    static List<Event> announced(String recordId, Map<String, AttributeValue> oldImage,
                                 Map<String, AttributeValue> newImage) {
        String oldType = string(oldImage, "entityType");
        String newType = string(newImage, "entityType");
        if (oldType != null && newType != null && !oldType.equals(newType)) {
            return List.of();
        }
        EventModel model = new EventModel(recordId, oldImage, newImage);
        switch (newType != null ? newType : oldType == null ? "" : oldType) {
            case "Post" -> model.post();
            case "Comment" -> model.comment();
            case "UserItem" -> model.userItem();
            case "Organisation" -> model.organisation();
            case "Team" -> model.part("Team", "teamId");
            case "Employee" -> model.part("Employee", "employeeId");
            case "Membership" -> model.membership();
            case "Song" -> model.song();
            case "Download" -> model.download();
            case "Tag" -> model.tag();
            case "Favourite" -> model.favourite();
            case "FavouriteTag" -> model.link();
            default -> {
                // Users, catalogue items, references, the per-state lists, derived items: they announce nothing.
            }
        }
        model.userStatsChanged();
        return List.copyOf(model.events);
    }

    /**
     * {@code PostCreated} on INSERT; {@code PostStatusChanged} when the status differs between the images (a later
     * edit keeps it, a REMOVE has no new status). A post counts in its author's {@code posts} unless deleted.
     */
    private void post() {
        read("postId", "userId", "title", "status", "createdAt", "updatedAt");
        eachSide((post, sign) -> stats(post, "userId", "posts", "deleted".equals(string(post, "status")) ? 0 : sign));
        if (inserted()) {
            announce("PostCreated", string(after, "postId"), fields(after, "postId", "userId", "title", "status",
                    "createdAt"));
        } else if (modified() && !string(before, "status").equals(string(after, "status"))) {
            Map<String, Object> detail = fields(after, "postId", "userId");
            detail.put("from", string(before, "status"));
            detail.put("to", string(after, "status"));
            detail.putAll(fields(after, "updatedAt", "title"));
            announce("PostStatusChanged", string(after, "postId"), detail);
        }
    }

    /** {@code CommentAdded} on INSERT, {@code CommentDeleted} on REMOVE; a comment counts for its author. */
    private void comment() {
        read("commentId", "postId", "authorId", "createdAt", "postUserId");
        eachSide((comment, sign) -> stats(comment, "authorId", "comments", sign));
        if (inserted()) {
            announce("CommentAdded", string(after, "commentId"), fields(after, "commentId", "postId", "authorId",
                    "createdAt", "postUserId"));
        } else if (removed()) {
            announce("CommentDeleted", string(before, "commentId"), fields(before, "commentId", "postId", "authorId",
                    "postUserId"));
        }
    }

    /**
     * {@code ItemCompleted} when the new state is {@code completed} and the old was not, or there was no old image;
     * {@code completedAt} is when it entered the state. The item counts under its state, and once completed in
     * {@code correctGuesses} and {@code liveCompleted} by its flags (an absent flag is false).
     */
    private void userItem() {
        read("userId", "itemId", "state", "enteredAt");
        eachSide((item, sign) -> {
            String state = string(item, "state");
            stats(item, "userId", switch (state) {
                case "in-progress" -> "inProgress";
                default -> state;
            }, sign);
            if (state.equals("completed")) {
                stats(item, "userId", "correctGuesses", flag(item, "correct") ? sign : 0);
                stats(item, "userId", "liveCompleted", flag(item, "live") ? sign : 0);
            }
        });
        if (clean && after != null && string(after, "state").equals("completed")
                && (before == null || !string(before, "state").equals("completed"))) {
            Map<String, Object> detail = fields(after, "userId", "itemId");
            detail.put("correct", flag(after, "correct"));
            detail.put("live", flag(after, "live"));
            detail.put("completedAt", string(after, "enteredAt"));
            announce("ItemCompleted", string(after, "itemId"), detail);
        }
    }

    /** {@code OrgCreated} on INSERT; a rename announces nothing, organisations are never deleted. */
    private void organisation() {
        read("orgId", "name");
        if (inserted()) {
            announce("OrgCreated", string(after, "orgId"), fields(after, "orgId", "name", "type"));
        }
    }

    /** {@code <Part>Created} on INSERT, {@code <Part>Deleted} on REMOVE, of a team or an employee. */
    private void part(String part, String idAttribute) {
        read(idAttribute, "orgId", "name", "createdAt");
        if (inserted()) {
            announce(part + "Created", string(after, idAttribute), fields(after, idAttribute, "orgId", "name",
                    "createdAt"));
        } else if (removed()) {
            announce(part + "Deleted", string(before, idAttribute), fields(before, idAttribute, "orgId", "name",
                    "createdAt"));
        }
    }

    /**
     * {@code EmployeeJoinedTeam} when a membership appears, {@code EmployeeLeftTeam} when it goes; one replaced at its
     * key by one of another team or employee incarnation announces both, the departure first; a role change neither.
     */
    private void membership() {
        read("orgId", "teamId", "employeeId", "addedAt", "teamIncarnation", "employeeIncarnation");
        replaced("EmployeeLeftTeam", "EmployeeJoinedTeam", List.of("teamIncarnation", "employeeIncarnation"),
                membership -> string(membership, "teamId") + "/" + string(membership, "employeeId"),
                "orgId", "teamId", "employeeId", "role", "addedAt");
    }

    /** {@code SongAdded} when a song is first written (INSERT); replacing it announces nothing. */
    private void song() {
        read("songId", "title");
        if (inserted()) {
            announce("SongAdded", string(after, "songId"), fields(after, "songId", "title", "artist"));
        }
    }

    /** {@code DownloadRefunded} when a download stops counting: a MODIFY that sets {@code refundedAt}. */
    private void download() {
        read("downloadId", "songId", "at");
        if (modified() && !before.containsKey("refundedAt") && after.containsKey("refundedAt")) {
            announce("DownloadRefunded", string(after, "downloadId"), fields(after, "downloadId", "songId", "userId",
                    "at", "refundedAt"));
        }
    }

    /**
     * {@code TagCreated} on INSERT, {@code TagDeleted} on REMOVE, {@code TagRenamed} when the name differs between
     * the images (with {@code previousName}); a recorded access announces nothing.
     */
    private void tag() {
        read("userId", "tagId", "name", "createdAt");
        if (inserted()) {
            announce("TagCreated", tagSubject(after), fields(after, "userId", "tagId", "name", "createdAt"));
        } else if (removed()) {
            announce("TagDeleted", tagSubject(before), fields(before, "userId", "tagId", "name", "createdAt"));
        } else if (modified() && !string(before, "name").equals(string(after, "name"))) {
            Map<String, Object> detail = fields(after, "userId", "tagId", "name");
            detail.put("previousName", string(before, "name"));
            detail.putAll(fields(after, "createdAt"));
            announce("TagRenamed", tagSubject(after), detail);
        }
    }

    /** {@code FavouriteCollected} on INSERT, {@code FavouriteUncollected} on REMOVE. */
    private void favourite() {
        read("userId", "favouriteId", "type", "title", "clippedAt");
        String[] detail = {"userId", "favouriteId", "type", "title", "clippedAt"};
        if (inserted()) {
            announce("FavouriteCollected", string(after, "userId") + "/" + string(after, "favouriteId"),
                    fields(after, detail));
        } else if (removed()) {
            announce("FavouriteUncollected", string(before, "userId") + "/" + string(before, "favouriteId"),
                    fields(before, detail));
        }
    }

    /**
     * {@code FavouriteTagged} when a link appears, {@code FavouriteUntagged} when it goes; one replaced at its key by
     * one of another favourite or tag incarnation announces both, the removal first.
     */
    private void link() {
        read("userId", "favouriteId", "tagId", "type", "linkedAt", "favouriteIncarnation", "tagIncarnation");
        replaced("FavouriteUntagged", "FavouriteTagged", List.of("favouriteIncarnation", "tagIncarnation"),
                link -> string(link, "userId") + "/" + string(link, "favouriteId") + "/" + string(link, "tagId"),
                "userId", "favouriteId", "tagId", "type", "linkedAt");
    }

    /**
     * {@code UserStatsChanged}: one event per user whose stats counters the record moved, with the deltas that are
     * not zero, in the order of {@link #USER_STATS_ORDER}.
     */
    private void userStatsChanged() {
        statsChanges.forEach((userId, deltas) -> {
            Map<String, Object> changes = new LinkedHashMap<>();
            for (String counter : USER_STATS_ORDER) {
                long delta = deltas.getOrDefault(counter, 0L);
                if (delta != 0) {
                    changes.put(counter, delta);
                }
            }
            if (!changes.isEmpty()) {
                Map<String, Object> detail = new LinkedHashMap<>();
                detail.put("userId", userId);
                detail.put("changes", changes);
                announce("UserStatsChanged", userId, detail);
            }
        });
    }

    /** The departure of the old link unless the new one is the same (the same incarnations), then the arrival. */
    private void replaced(String left, String joined, List<String> incarnations,
                          Function<Map<String, AttributeValue>, String> subject, String... detail) {
        if (!clean) {
            return;
        }
        boolean same = before != null && after != null
                && incarnations.stream().allMatch(name -> string(before, name).equals(string(after, name)));
        if (before != null && !same) {
            announce(left, subject.apply(before), fields(before, detail));
        }
        if (after != null && !same) {
            announce(joined, subject.apply(after), fields(after, detail));
        }
    }

    /** Takes each image that has every one of {@code needed} as readable. */
    private void read(String... needed) {
        before = readable(oldImage, needed) ? oldImage : null;
        after = readable(newImage, needed) ? newImage : null;
        clean = (oldImage == null || before != null) && (newImage == null || after != null);
    }

    private static boolean readable(Map<String, AttributeValue> image, String... needed) {
        if (image == null) {
            return false;
        }
        for (String name : needed) {
            if (string(image, name) == null) {
                return false;
            }
        }
        return true;
    }

    private boolean inserted() {
        return clean && before == null && after != null;
    }

    private boolean removed() {
        return clean && before != null && after == null;
    }

    private boolean modified() {
        return clean && before != null && after != null;
    }

    /** Each readable image with its sign: the old one is taken away (-1), the new one added (+1). */
    private void eachSide(ObjLongConsumer<Map<String, AttributeValue>> side) {
        if (before != null) {
            side.accept(before, -1);
        }
        if (after != null) {
            side.accept(after, 1);
        }
    }

    private void stats(Map<String, AttributeValue> image, String userAttribute, String counter, long delta) {
        statsChanges.computeIfAbsent(string(image, userAttribute), user -> new TreeMap<>())
                .merge(counter, delta, Long::sum);
    }

    private void announce(String detailType, String subject, Map<String, Object> fields) {
        String id = id(recordId, detailType, subject);
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("eventId", id);
        detail.putAll(fields);
        events.add(new Event(id, detailType, detail));
    }

    /** The named attributes as the detail's fields, in this order; an absent one is null. */
    private static Map<String, Object> fields(Map<String, AttributeValue> image, String... names) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (String name : names) {
            fields.put(name, string(image, name));
        }
        return fields;
    }

    private static String tagSubject(Map<String, AttributeValue> tag) {
        return string(tag, "userId") + "/" + string(tag, "tagId");
    }

    private static boolean flag(Map<String, AttributeValue> image, String name) {
        AttributeValue value = image.get(name);
        return value != null && Boolean.TRUE.equals(value.bool());
    }

    private static String string(Map<String, AttributeValue> image, String name) {
        AttributeValue value = image == null ? null : image.get(name);
        return value == null ? null : value.s();
    }
}
