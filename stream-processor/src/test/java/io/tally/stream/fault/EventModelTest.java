package io.tally.stream.fault;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The fault test's independent model of events gives the events docs/events.md documents, for records of every
 * domain: which detail types a change announces (and which changes announce none), their ids by the rule
 * {@code <stream record eventID>:<detail-type>:<subject>}, and their details, field by field in the documented order.
 * The expected events are written out by hand from docs/events.md, not computed.
 */
class EventModelTest {

    @Test
    void theIdRule_isTheRecordsEventIdTheDetailTypeAndTheSubject() {
        assertThat(EventModel.id("0a9e3f5c", "PostStatusChanged", "p1")).isEqualTo("0a9e3f5c:PostStatusChanged:p1");
    }

    @Test
    void aPostCreated_announcesPostCreatedAndItsAuthorsPost() {
        assertThat(events(null, post("created", "Hello", "2026-01-01T00:00:01.000Z"))).containsExactly(
                "PostCreated {\"eventId\":\"r1:PostCreated:p1\",\"postId\":\"p1\",\"userId\":\"u1\",\"title\":\"Hello\","
                        + "\"status\":\"created\",\"createdAt\":\"2026-01-01T00:00:01.000Z\"}",
                "UserStatsChanged {\"eventId\":\"r1:UserStatsChanged:u1\",\"userId\":\"u1\",\"changes\":{\"posts\":1}}");
    }

    @Test
    void aPostsStatusChange_isAnnounced_aLaterEditIsNot_andASoftDeleteLosesTheAuthorAPost() {
        Map<String, AttributeValue> created = post("created", "Hello", "2026-01-01T00:00:01.000Z");
        Map<String, AttributeValue> updated = post("updated", "Hello again", "2026-01-02T00:00:00.000Z");
        assertThat(events(created, updated)).containsExactly("PostStatusChanged {\"eventId\":\"r1:PostStatusChanged:p1\","
                + "\"postId\":\"p1\",\"userId\":\"u1\",\"from\":\"created\",\"to\":\"updated\","
                + "\"updatedAt\":\"2026-01-02T00:00:00.000Z\",\"title\":\"Hello again\"}");
        assertThat(events(updated, post("updated", "Third title", "2026-01-03T00:00:00.000Z"))).isEmpty();
        assertThat(events(updated, post("deleted", "Hello again", "2026-01-04T00:00:00.000Z"))).containsExactly(
                "PostStatusChanged {\"eventId\":\"r1:PostStatusChanged:p1\",\"postId\":\"p1\",\"userId\":\"u1\","
                        + "\"from\":\"updated\",\"to\":\"deleted\",\"updatedAt\":\"2026-01-04T00:00:00.000Z\","
                        + "\"title\":\"Hello again\"}",
                "UserStatsChanged {\"eventId\":\"r1:UserStatsChanged:u1\",\"userId\":\"u1\",\"changes\":{\"posts\":-1}}");
    }

    @Test
    void aComment_countsForItsAuthorNotThePostsOwner_andItsDeletionHasNoCreatedAt() {
        Map<String, AttributeValue> comment = item("POST#p1#2026-01-01T00:00:01.000Z",
                "COMMENT#c1#2026-01-01T00:00:04.000Z", "Comment", Map.of("commentId", s("c1"), "postId", s("p1"),
                        "authorId", s("u2"), "postUserId", s("u1"), "postCreatedAt", s("2026-01-01T00:00:01.000Z"),
                        "text", s("Nice"), "createdAt", s("2026-01-01T00:00:04.000Z")));
        assertThat(events(null, comment)).containsExactly(
                "CommentAdded {\"eventId\":\"r1:CommentAdded:c1\",\"commentId\":\"c1\",\"postId\":\"p1\","
                        + "\"authorId\":\"u2\",\"createdAt\":\"2026-01-01T00:00:04.000Z\",\"postUserId\":\"u1\"}",
                "UserStatsChanged {\"eventId\":\"r1:UserStatsChanged:u2\",\"userId\":\"u2\",\"changes\":{\"comments\":1}}");
        assertThat(events(comment, null)).containsExactly(
                "CommentDeleted {\"eventId\":\"r1:CommentDeleted:c1\",\"commentId\":\"c1\",\"postId\":\"p1\","
                        + "\"authorId\":\"u2\",\"postUserId\":\"u1\"}",
                "UserStatsChanged {\"eventId\":\"r1:UserStatsChanged:u2\",\"userId\":\"u2\","
                        + "\"changes\":{\"comments\":-1}}");
    }

    @Test
    void anItemCompleted_onceWithItsFlags_andTheStatsInTheDocumentedOrder() {
        Map<String, AttributeValue> assigned = userItem("assigned", "2026-01-01T00:00:00.000Z", Map.of());
        Map<String, AttributeValue> inProgress = userItem("in-progress", "2026-01-02T00:00:00.000Z", Map.of());
        Map<String, AttributeValue> completed = userItem("completed", "2026-01-03T00:00:00.000Z",
                Map.of("correct", AttributeValue.fromBool(true)));
        assertThat(events(null, assigned)).containsExactly("UserStatsChanged {\"eventId\":\"r1:UserStatsChanged:u1\","
                + "\"userId\":\"u1\",\"changes\":{\"assigned\":1}}");
        assertThat(events(assigned, inProgress)).containsExactly("UserStatsChanged {\"eventId\":"
                + "\"r1:UserStatsChanged:u1\",\"userId\":\"u1\",\"changes\":{\"assigned\":-1,\"inProgress\":1}}");
        // An absent live flag is false, in the event as in the stats.
        assertThat(events(inProgress, completed)).containsExactly(
                "ItemCompleted {\"eventId\":\"r1:ItemCompleted:i1\",\"userId\":\"u1\",\"itemId\":\"i1\","
                        + "\"correct\":true,\"live\":false,\"completedAt\":\"2026-01-03T00:00:00.000Z\"}",
                "UserStatsChanged {\"eventId\":\"r1:UserStatsChanged:u1\",\"userId\":\"u1\","
                        + "\"changes\":{\"completed\":1,\"correctGuesses\":1,\"inProgress\":-1}}");
        // Completed is final: a later write of the completed item announces no second completion.
        assertThat(events(completed, completed)).isEmpty();
        // The list entry is a copy and announces nothing.
        assertThat(events(null, item("USER#u1", "item:completed:x#i1", "UserItemEntry", Map.of("userId", s("u1"),
                "itemId", s("i1"), "state", s("completed"), "enteredAt", s("2026-01-03T00:00:00.000Z"))))).isEmpty();
    }

    @Test
    void anOrganisation_announcesItsCreationOnly() {
        Map<String, AttributeValue> org = item("ORG#o1", "#METADATA#o1", "Organisation", Map.of("orgId", s("o1"),
                "name", s("Org"), "createdAt", s("2026-01-01T00:00:00.000Z"), "updatedAt", s("2026-01-01T00:00:00.000Z"),
                "version", n(1)));
        assertThat(events(null, org)).containsExactly(
                "OrgCreated {\"eventId\":\"r1:OrgCreated:o1\",\"orgId\":\"o1\",\"name\":\"Org\",\"type\":null}");
        Map<String, AttributeValue> renamed = new HashMap<>(org);
        renamed.put("name", s("Renamed"));
        assertThat(events(org, renamed)).isEmpty();
    }

    @Test
    void teamsAndEmployees_announceTheirCreationAndDeletion() {
        Map<String, AttributeValue> team = item("ORG#o1", "#TEAM#t1", "Team", Map.of("teamId", s("t1"),
                "orgId", s("o1"), "name", s("Blue"), "createdAt", s("2026-01-01T00:00:00.000Z"),
                "incarnation", s("n1")));
        Map<String, AttributeValue> employee = item("ORG#o1", "EMP#e1", "Employee", Map.of("employeeId", s("e1"),
                "orgId", s("o1"), "name", s("Ann"), "email", s("ann@example.com"),
                "createdAt", s("2026-01-01T00:00:00.000Z"), "incarnation", s("n2")));
        assertThat(events(null, team)).containsExactly("TeamCreated {\"eventId\":\"r1:TeamCreated:t1\","
                + "\"teamId\":\"t1\",\"orgId\":\"o1\",\"name\":\"Blue\",\"createdAt\":\"2026-01-01T00:00:00.000Z\"}");
        assertThat(events(team, null)).containsExactly("TeamDeleted {\"eventId\":\"r1:TeamDeleted:t1\","
                + "\"teamId\":\"t1\",\"orgId\":\"o1\",\"name\":\"Blue\",\"createdAt\":\"2026-01-01T00:00:00.000Z\"}");
        // No e-mail address in the event.
        assertThat(events(null, employee)).containsExactly("EmployeeCreated {\"eventId\":\"r1:EmployeeCreated:e1\","
                + "\"employeeId\":\"e1\",\"orgId\":\"o1\",\"name\":\"Ann\",\"createdAt\":\"2026-01-01T00:00:00.000Z\"}");
        assertThat(events(employee, null)).containsExactly("EmployeeDeleted {\"eventId\":\"r1:EmployeeDeleted:e1\","
                + "\"employeeId\":\"e1\",\"orgId\":\"o1\",\"name\":\"Ann\",\"createdAt\":\"2026-01-01T00:00:00.000Z\"}");
    }

    @Test
    void aMembership_joinsAndLeaves_aRoleChangeIsNeither_aReplacementIsBothDepartureFirst() {
        Map<String, AttributeValue> member = membership("lead", "n1", "2026-01-01T00:00:00.000Z");
        String joined = "EmployeeJoinedTeam {\"eventId\":\"r1:EmployeeJoinedTeam:t1/e1\",\"orgId\":\"o1\","
                + "\"teamId\":\"t1\",\"employeeId\":\"e1\",\"role\":\"lead\",\"addedAt\":\"2026-01-01T00:00:00.000Z\"}";
        String left = "EmployeeLeftTeam {\"eventId\":\"r1:EmployeeLeftTeam:t1/e1\",\"orgId\":\"o1\",\"teamId\":\"t1\","
                + "\"employeeId\":\"e1\",\"role\":\"lead\",\"addedAt\":\"2026-01-01T00:00:00.000Z\"}";
        assertThat(events(null, member)).containsExactly(joined);
        assertThat(events(member, membership("member", "n1", "2026-01-01T00:00:00.000Z"))).isEmpty();
        assertThat(events(member, null)).containsExactly(left);
        // The team was deleted and created again (a new incarnation) before the cascade reached the membership.
        assertThat(events(member, membership(null, "n9", "2026-01-05T00:00:00.000Z"))).containsExactly(left,
                "EmployeeJoinedTeam {\"eventId\":\"r1:EmployeeJoinedTeam:t1/e1\",\"orgId\":\"o1\",\"teamId\":\"t1\","
                        + "\"employeeId\":\"e1\",\"role\":null,\"addedAt\":\"2026-01-05T00:00:00.000Z\"}");
    }

    @Test
    void aSongIsAddedOnce_aDownloadAnnouncesNothing_aRefundDoes() {
        Map<String, AttributeValue> song = item("SONG#s1", "#METADATA#", "Song", Map.of("songId", s("s1"),
                "title", s("Song"), "updatedAt", s("2026-01-01T00:00:00.000Z")));
        assertThat(events(null, song)).containsExactly(
                "SongAdded {\"eventId\":\"r1:SongAdded:s1\",\"songId\":\"s1\",\"title\":\"Song\",\"artist\":null}");
        Map<String, AttributeValue> replaced = new HashMap<>(song);
        replaced.put("artist", s("Band"));
        assertThat(events(song, replaced)).isEmpty();
        Map<String, AttributeValue> download = item("SONG#s1#DL#1", "DL#d1", "Download", Map.of("downloadId",
                s("d1"), "songId", s("s1"), "userId", s("u1"), "at", s("2026-02-03T10:00:00.000Z")));
        Map<String, AttributeValue> refunded = new HashMap<>(download);
        refunded.put("refundedAt", s("2026-02-05T10:00:00.000Z"));
        assertThat(events(null, download)).isEmpty();
        assertThat(events(download, refunded)).containsExactly("DownloadRefunded {\"eventId\":"
                + "\"r1:DownloadRefunded:d1\",\"downloadId\":\"d1\",\"songId\":\"s1\",\"userId\":\"u1\","
                + "\"at\":\"2026-02-03T10:00:00.000Z\",\"refundedAt\":\"2026-02-05T10:00:00.000Z\"}");
        // Refunded already: it stopped counting before this change.
        assertThat(events(refunded, refunded)).isEmpty();
    }

    @Test
    void aTag_isCreatedRenamedAndDeleted_anAccessAnnouncesNothing() {
        Map<String, AttributeValue> tag = tag("Red", "2026-01-01T00:00:00.000Z");
        String fields = "\"userId\":\"u1\",\"tagId\":\"t1\",\"name\":\"Red\","
                + "\"createdAt\":\"2026-01-01T00:00:00.000Z\"}";
        assertThat(events(null, tag)).containsExactly("TagCreated {\"eventId\":\"r1:TagCreated:u1/t1\"," + fields);
        assertThat(events(tag, tag("Red", "2026-01-02T00:00:00.000Z"))).isEmpty();
        assertThat(events(tag, tag("Crimson", "2026-01-01T00:00:00.000Z"))).containsExactly(
                "TagRenamed {\"eventId\":\"r1:TagRenamed:u1/t1\",\"userId\":\"u1\",\"tagId\":\"t1\","
                        + "\"name\":\"Crimson\",\"previousName\":\"Red\",\"createdAt\":\"2026-01-01T00:00:00.000Z\"}");
        assertThat(events(tag, null)).containsExactly("TagDeleted {\"eventId\":\"r1:TagDeleted:u1/t1\"," + fields);
    }

    @Test
    void aFavourite_isCollectedAndUncollected_aLinkTaggedAndUntagged() {
        Map<String, AttributeValue> favourite = item("FAVS#u1", "FAV#f1", "Favourite", Map.of("userId", s("u1"),
                "favouriteId", s("f1"), "type", s("link"), "title", s("Red"),
                "clippedAt", s("2026-01-01T00:00:03.000Z"), "contentUrl", s("https://example.com/f1"),
                "incarnation", s("f2")));
        String fields = "\"userId\":\"u1\",\"favouriteId\":\"f1\",\"type\":\"link\",\"title\":\"Red\","
                + "\"clippedAt\":\"2026-01-01T00:00:03.000Z\"}";
        assertThat(events(null, favourite)).containsExactly(
                "FavouriteCollected {\"eventId\":\"r1:FavouriteCollected:u1/f1\"," + fields);
        assertThat(events(favourite, null)).containsExactly(
                "FavouriteUncollected {\"eventId\":\"r1:FavouriteUncollected:u1/f1\"," + fields);

        Map<String, AttributeValue> link = link("f2", "n1", "2026-01-01T00:00:05.000Z");
        String linkFields = "\"userId\":\"u1\",\"favouriteId\":\"f1\",\"tagId\":\"t1\",\"type\":\"link\","
                + "\"linkedAt\":\"2026-01-01T00:00:05.000Z\"}";
        assertThat(events(null, link)).containsExactly(
                "FavouriteTagged {\"eventId\":\"r1:FavouriteTagged:u1/f1/t1\"," + linkFields);
        assertThat(events(link, null)).containsExactly(
                "FavouriteUntagged {\"eventId\":\"r1:FavouriteUntagged:u1/f1/t1\"," + linkFields);
        // A link of a later tag of the same id at the same key: the removal first, then the new link.
        assertThat(events(link, link("f2", "n7", "2026-01-06T00:00:00.000Z"))).containsExactly(
                "FavouriteUntagged {\"eventId\":\"r1:FavouriteUntagged:u1/f1/t1\"," + linkFields,
                "FavouriteTagged {\"eventId\":\"r1:FavouriteTagged:u1/f1/t1\",\"userId\":\"u1\",\"favouriteId\":\"f1\","
                        + "\"tagId\":\"t1\",\"type\":\"link\",\"linkedAt\":\"2026-01-06T00:00:00.000Z\"}");
    }

    @Test
    void anUnreadableSide_announcesNoEventOfItsType_butTheReadableSidesStatsChange() {
        Map<String, AttributeValue> post = post("created", "Hello", "2026-01-01T00:00:01.000Z");
        // The workload's poison: the post overwritten with one of its type that lacks its fields.
        Map<String, AttributeValue> garbled = item("USER#u1", "POST#p1#2026-01-01T00:00:01.000Z", "Post",
                Map.of("garbled", s("garbled x1")));
        String lost = "UserStatsChanged {\"eventId\":\"r1:UserStatsChanged:u1\",\"userId\":\"u1\","
                + "\"changes\":{\"posts\":-1}}";
        assertThat(events(post, garbled)).containsExactly(lost);
        assertThat(events(garbled, post)).containsExactly("UserStatsChanged {\"eventId\":\"r1:UserStatsChanged:u1\","
                + "\"userId\":\"u1\",\"changes\":{\"posts\":1}}");
        assertThat(events(null, garbled)).isEmpty();
        // An unknown type, no type, and a type that changes between the images: nothing.
        assertThat(events(null, item("ALBUM#x2", "#METADATA#", "Album", Map.of()))).isEmpty();
        assertThat(events(null, Map.of("pk", s("MISC#x3"), "sk", s("x")))).isEmpty();
        Map<String, AttributeValue> comment = new HashMap<>(post);
        comment.put("entityType", s("Comment"));
        assertThat(events(post, comment)).isEmpty();
    }

    private static List<String> events(Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage) {
        ObjectMapper json = new ObjectMapper();
        return EventModel.announced("r1", oldImage, newImage).stream().map(event -> {
            try {
                return event.detailType() + " " + json.writeValueAsString(event.detail());
            } catch (JsonProcessingException e) {
                throw new AssertionError(e);
            }
        }).toList();
    }

    private static Map<String, AttributeValue> post(String status, String title, String updatedAt) {
        return item("USER#u1", "POST#p1#2026-01-01T00:00:01.000Z", "Post", Map.of("postId", s("p1"),
                "userId", s("u1"), "title", s(title), "body", s("Body"), "status", s(status),
                "createdAt", s("2026-01-01T00:00:01.000Z"), "updatedAt", s(updatedAt), "version", n(1)));
    }

    private static Map<String, AttributeValue> userItem(String state, String enteredAt,
                                                        Map<String, AttributeValue> flags) {
        Map<String, AttributeValue> item = item("USER#u1", "useritem#i1", "UserItem", Map.of("userId", s("u1"),
                "itemId", s("i1"), "state", s(state), "score", n(7), "enteredAt", s(enteredAt),
                "updatedAt", s(enteredAt)));
        item.putAll(flags);
        return item;
    }

    private static Map<String, AttributeValue> membership(String role, String teamIncarnation, String addedAt) {
        Map<String, AttributeValue> item = item("ORG#o1#TEAM#t1", "ORG#o1#EMP#e1", "Membership", Map.of(
                "orgId", s("o1"), "teamId", s("t1"), "employeeId", s("e1"), "addedAt", s(addedAt),
                "teamIncarnation", s(teamIncarnation), "employeeIncarnation", s("n2")));
        if (role != null) {
            item.put("role", s(role));
        }
        return item;
    }

    private static Map<String, AttributeValue> tag(String name, String lastAccessAt) {
        return item("TAGS#u1", "TAG#t1", "Tag", Map.of("userId", s("u1"), "tagId", s("t1"), "name", s(name),
                "createdAt", s("2026-01-01T00:00:00.000Z"), "lastAccessAt", s(lastAccessAt), "incarnation", s("n1")));
    }

    private static Map<String, AttributeValue> link(String favouriteIncarnation, String tagIncarnation,
                                                    String linkedAt) {
        return item("FAVTAGS#u1#f1", "TAG#t1", "FavouriteTag", Map.of("userId", s("u1"), "favouriteId", s("f1"),
                "tagId", s("t1"), "type", s("link"), "title", s("Red"), "clippedAt", s("2026-01-01T00:00:03.000Z"),
                "linkedAt", s(linkedAt), "favouriteIncarnation", s(favouriteIncarnation),
                "tagIncarnation", s(tagIncarnation)));
    }

    private static Map<String, AttributeValue> item(String pk, String sk, String type,
                                                    Map<String, AttributeValue> attributes) {
        Map<String, AttributeValue> item = new HashMap<>(attributes);
        item.put("pk", s(pk));
        item.put("sk", s(sk));
        item.put("entityType", s(type));
        return item;
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }
}
