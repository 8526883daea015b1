package io.tally.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.EntityType;
import io.tally.core.Ids;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Cursors;
import io.tally.core.http.ErrorCode;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.Router;
import io.tally.core.store.Query;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.dynamodb.services.local.embedded.DynamoDBEmbedded;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;

/** Typed reads and writes against DynamoDB Local embedded: the existence checks, and a change made between read and write. */
class EntityTableTest {
    private static final EntityType SHELF = EntityType.base("EntityTableShelf");
    private static final EntityType NOTE = EntityType.base("EntityTableNote");
    private static AmazonDynamoDBLocal local;
    private static DynamoDbClient dynamo;
    private static int tables;
    private RouteContext context;
    private EntityTable<Note> notes;

    public record Note(String shelfId, String noteId, long version, String text) {
        static final ItemSchema<Note> SCHEMA = ItemSchema.of(Note.class, NOTE,
                note -> key(note.shelfId(), note.noteId())).optional("text").build();

        static Key key(String shelfId, String noteId) {
            return new Key("SHELF#" + shelfId, "NOTE#" + noteId);
        }
    }

    static final class Shelves extends DeclaredDomain {
        Shelves() {
            super(Declaration.of("shelves").entityTypes(NOTE)
                    .lookup(SHELF, id -> new Key("SHELF#" + id, "#SHELF#")));
        }
    }

    @BeforeAll
    static void start() {
        local = DynamoDBEmbedded.create(true);
        dynamo = local.dynamoDbClient();
    }

    @AfterAll
    static void stop() {
        local.shutdown();
    }

    @BeforeEach
    void createTable() {
        String table = "entities-" + ++tables;
        dynamo.createTable(TableDefinition.createTableRequest(table));
        context = new RouteContext(dynamo, table, Clock.systemUTC(), Ids.timeOrdered(Clock.systemUTC()),
                new Cursors(new byte[32]), ShardSettings.DEFAULTS, DomainRegistry.of(new Shelves()));
        notes = EntityTable.of(context, Note.SCHEMA);
        dynamo.putItem(r -> r.tableName(table).item(Map.of("pk", AttributeValue.fromS("SHELF#s1"),
                "sk", AttributeValue.fromS("#SHELF#"), "entityType", AttributeValue.fromS(SHELF.attributeValue()))));
    }

    private EntityTable.Requires shelf(String id) {
        return new EntityTable.Requires(SHELF, id, "shelf");
    }

    @Test
    void put_createsThenReplacesFromTheCurrentState_getAndDeleteAnswerIt() {
        Key key = Note.key("s1", "n1");
        EntityTable.Written<Note> created = notes.put(key, old -> new Note("s1", "n1", 1, "first"), shelf("s1"));
        assertThat(created.created()).isTrue();
        assertThat(created.before()).isNull();

        EntityTable.Written<Note> replaced = notes.put(key, old -> new Note("s1", "n1",
                old.orElseThrow().version() + 1, null), shelf("s1"));
        assertThat(replaced.created()).isFalse();
        assertThat(replaced.before()).isEqualTo(new Note("s1", "n1", 1, "first"));
        assertThat(notes.get(key)).contains(new Note("s1", "n1", 2, null));

        assertThat(notes.delete(key)).contains(new Note("s1", "n1", 2, null));
        assertThat(notes.get(key)).isEmpty();
        assertThat(notes.delete(key)).isEmpty();
    }

    @Test
    void put_whenARequiredEntityIsMissing_isA404NamingIt_andWritesNothing() {
        Key key = Note.key("s2", "n1");
        assertThatThrownBy(() -> notes.put(key, old -> new Note("s2", "n1", 1, null), shelf("s1"), shelf("s2")))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND);
                    assertThat(e.getMessage()).contains("shelf 's2' does not exist");
                });
        assertThat(notes.get(key)).isEmpty();
    }

    @Test
    void put_whenTheItemChangesBetweenReadAndWrite_readsAgain_andNeverOverwritesTheChangeUnseen() {
        Key key = Note.key("s1", "n1");
        notes.put(key, old -> new Note("s1", "n1", 1, null));
        List<Optional<Note>> seen = new ArrayList<>();
        // The first time, another writer adds the text (an attribute the item as read did not hold) meanwhile.
        EntityTable.Written<Note> written = notes.put(key, old -> {
            seen.add(old);
            if (seen.size() == 1) {
                Map<String, AttributeValue> item = new HashMap<>(Note.SCHEMA.toItem(new Note("s1", "n1", 1, "theirs")));
                dynamo.putItem(r -> r.tableName(context.table()).item(item));
            }
            return new Note("s1", "n1", old.orElseThrow().version() + 1, old.orElseThrow().text());
        });

        assertThat(seen).containsExactly(Optional.of(new Note("s1", "n1", 1, null)),
                Optional.of(new Note("s1", "n1", 1, "theirs")));
        assertThat(written.after()).isEqualTo(new Note("s1", "n1", 2, "theirs"));
        assertThat(notes.get(key)).contains(new Note("s1", "n1", 2, "theirs"));
    }

    @Test
    void put_whenTheItemKeepsChanging_givesUpAsAConflict() {
        Key key = Note.key("s1", "n1");
        notes.put(key, old -> new Note("s1", "n1", 1, null));
        int[] calls = {0};
        assertThatThrownBy(() -> notes.put(key, old -> {
            long version = ++calls[0] + 100;
            dynamo.putItem(r -> r.tableName(context.table()).item(Note.SCHEMA.toItem(new Note("s1", "n1", version,
                    null))));
            return new Note("s1", "n1", 0, "mine");
        })).isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFLICT));
        assertThat(calls[0]).isEqualTo(EntityTable.ATTEMPTS);
        assertThat(notes.get(key).orElseThrow().text()).isNull();
    }

    private static final Field<String> TEXT = Field.line("text", 10);

    /** A note at its path, its routes declared: PUT (body optional), GET and DELETE. */
    private Router resource() {
        EntityResource<Note> resource = EntityResource.at("/shelves/{shelfId}/notes/{noteId}", Note.SCHEMA,
                        ids -> Note.key(ids.get("shelfId"), ids.get("noteId")))
                .missing(ids -> "shelf '" + ids.get("shelfId") + "' has no note '" + ids.get("noteId") + "'")
                .putOptionalBody(Access.owner("shelfId"), "Write a note", Fields.of(TEXT),
                        (ids, body, old, now) -> new Note(ids.get("shelfId"), ids.get("noteId"),
                                old.map(Note::version).orElse(0L) + 1, body.get(TEXT)),
                        ids -> List.of(shelf(ids.get("shelfId"))))
                .get(Access.ownerOrAdmin("shelfId"), "A note")
                .delete(Access.owner("shelfId"), "Delete a note");
        Router router = new Router();
        Domain.registerResources(new DeclaredDomain(Declaration.of("notes").resources(resource)) { }, router, context);
        return router;
    }

    private ApiResponse call(Router router, String method, String path, String body) {
        Router.Match match = router.match(method, path);
        return match.handler().handle(new ApiRequest(method, path, match.pathParameters(), Map.of(), Map.of(), body));
    }

    private ErrorCode refused(Router router, String method, String path, String body) {
        try {
            call(router, method, path, body);
        } catch (ApiException e) {
            return e.code();
        }
        throw new AssertionError(method + " " + path + " answered");
    }

    @Test
    void resource_putCreates201AtItsPath_thenReplaces200_getAndDeleteAnswerIt_missingIs404WithItsMessage() {
        Router router = resource();
        ApiResponse created = call(router, "PUT", "/shelves/s1/notes/n1", "{\"text\":\"hello\"}");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.headers()).containsEntry("Location", "/shelves/s1/notes/n1");
        assertThat(created.body().toString()).isEqualTo(
                "{\"shelfId\":\"s1\",\"noteId\":\"n1\",\"version\":1,\"text\":\"hello\"}");
        ApiResponse replaced = call(router, "PUT", "/shelves/s1/notes/n1", null);
        assertThat(replaced.status()).isEqualTo(200);
        assertThat(replaced.body().get("version").asLong()).isEqualTo(2);
        assertThat(replaced.body().get("text").isNull()).isTrue();
        assertThat(call(router, "GET", "/shelves/s1/notes/n1", null).body().get("version").asLong()).isEqualTo(2);
        assertThat(call(router, "DELETE", "/shelves/s1/notes/n1", null).body().get("noteId").asText())
                .isEqualTo("n1");
        assertThatThrownBy(() -> call(router, "GET", "/shelves/s1/notes/n1", null))
                .hasMessage("shelf 's1' has no note 'n1'");
        assertThat(refused(router, "DELETE", "/shelves/s1/notes/n1", null)).isEqualTo(ErrorCode.NOT_FOUND);
    }

    @Test
    void resource_badInputIs400_aMissingRequiredEntityIs404_andNothingIsWritten() {
        Router router = resource();
        assertThat(refused(router, "PUT", "/shelves/s1/notes/n1", "{\"text\":\"far too long a note\"}"))
                .isEqualTo(ErrorCode.VALIDATION_FAILED);
        assertThat(refused(router, "PUT", "/shelves/s1/notes/n1", "{\"other\":1}")).isNotNull();
        assertThat(refused(router, "PUT", "/shelves/s1/notes/a%23b", null)).isEqualTo(ErrorCode.VALIDATION_FAILED);
        assertThat(refused(router, "PUT", "/shelves/s9/notes/n1", null)).isEqualTo(ErrorCode.NOT_FOUND);
        // The body is checked before the table is read: a malformed item at the key does not make a bad body a 500.
        dynamo.putItem(r -> r.tableName(context.table()).item(Map.of("pk", AttributeValue.fromS("SHELF#s1"),
                "sk", AttributeValue.fromS("NOTE#broken"), "entityType", AttributeValue.fromS(NOTE.attributeValue()))));
        assertThat(refused(router, "PUT", "/shelves/s1/notes/broken", "{\"text\":\"far too long a note\"}"))
                .isEqualTo(ErrorCode.VALIDATION_FAILED);
        assertThat(notes.get(Note.key("s1", "n1"))).isEmpty();
        assertThat(notes.get(Note.key("s9", "n1"))).isEmpty();
        assertThat(router.descriptions()).extracting(Router.Description::method).containsExactly("PUT", "GET",
                "DELETE");
        assertThatThrownBy(() -> EntityResource.at("/notes", Note.SCHEMA, ids -> Note.key("s", "n")))
                .hasMessageContaining("names its ids as parameters");
        assertThatThrownBy(() -> EntityResource.at("/n/{noteId}", Note.SCHEMA, ids -> Note.key("s", "n"))
                .get(Access.ADMIN, "a").get(Access.ADMIN, "b")).hasMessageContaining("declared twice");
    }

    /** A note keyed by its pattern, at a path whose ids fill it. */
    public record PatternNote(String shelfId, String noteId, String text) {
        static final ItemSchema<PatternNote> SCHEMA = ItemSchema.keyed(PatternNote.class, NOTE,
                "SHELF#<shelfId> / PNOTE#<noteId>").optional("text").build();
    }

    @Test
    void resource_ofAPatternKeyedSchema_keysByThePathsIds_requiresByParameter_andSays404WithThePathsNouns() {
        EntityResource<PatternNote> resource = EntityResource.at("/shelves/{shelfId}/notes/{noteId}",
                        PatternNote.SCHEMA)
                .put(Access.owner("shelfId"), "Write a note", Fields.of(TEXT), (ids, body, old, now) ->
                        new PatternNote(ids.get("shelfId"), ids.get("noteId"), body.get(TEXT)),
                        EntityResource.exists("shelfId", SHELF))
                .get(Access.ownerOrAdmin("shelfId"), "A note");
        Router router = new Router();
        Domain.registerResources(new DeclaredDomain(Declaration.of("notes").resources(resource)) { }, router, context);
        assertThat(call(router, "PUT", "/shelves/s1/notes/n1", "{\"text\":\"hi\"}").status()).isEqualTo(201);
        Map<String, AttributeValue> stored = dynamo.getItem(r -> r.tableName(context.table()).key(Map.of(
                "pk", AttributeValue.fromS("SHELF#s1"), "sk", AttributeValue.fromS("PNOTE#n1")))).item();
        assertThat(stored.get("text").s()).isEqualTo("hi");
        assertThatThrownBy(() -> call(router, "GET", "/shelves/s1/notes/n9", null))
                .hasMessage("shelf 's1' has no note 'n9'");
        assertThatThrownBy(() -> call(router, "PUT", "/shelves/s9/notes/n1", "{}"))
                .hasMessage("entity table shelf 's9' does not exist");
        assertThatThrownBy(() -> call(router, "GET", "/notes/n9", null)).isNotNull();
        assertThatThrownBy(() -> EntityResource.at("/categories/{categoryId}/notes/{noteId}", PatternNote.SCHEMA))
                .hasMessageContaining("needs shelfId, which the path /categories/{categoryId}/notes/{noteId} does not"
                        + " name");
        assertThatThrownBy(() -> EntityResource.at("/notes/{noteId}", Note.SCHEMA))
                .hasMessageContaining("Note is not keyed by a pattern");
        EntityResource<PatternNote> one = EntityResource.at("/categories/{shelfId}/x/{noteId}", PatternNote.SCHEMA)
                .get(Access.ADMIN, "a");
        Router single = new Router();
        Domain.registerResources(new DeclaredDomain(Declaration.of("notes").resources(one)) { }, single, context);
        assertThatThrownBy(() -> call(single, "GET", "/categories/c1/x/n1", null))
                .hasMessage("shelf 'c1' has no x 'n1'");
    }

    /** Notes created in their shelf's collection and changed under If-Match. */
    private Router collection() {
        Field<String> noteId = Field.id("noteId");
        EntityResource<Note> resource = EntityResource.at("/shelves/{shelfId}/notes/{noteId}", Note.SCHEMA,
                        ids -> Note.key(ids.get("shelfId"), ids.get("noteId")))
                .post(Access.owner("shelfId"), "Write a note", Fields.of(noteId, TEXT), (ids, body, made) ->
                        new Note(ids.get("shelfId"), ids.get("noteId"), 1, body.get(TEXT)),
                        EntityResource.exists("shelfId", SHELF))
                .patch(Access.owner("shelfId"), "Change a note", Fields.of(TEXT))
                .get(Access.ownerOrAdmin("shelfId"), "A note")
                .list(Access.ownerOrAdmin("shelfId"), "A shelf's notes, by id", ids -> Query.partition("SHELF#"
                        + ids.get("shelfId")).startsWith("NOTE#"), Set.of("pk", "sk"),
                        EntityResource.exists("shelfId", SHELF));
        Router router = new Router();
        Domain.registerResources(new DeclaredDomain(Declaration.of("notes").resources(resource)) { }, router, context);
        return router;
    }

    private ApiResponse call(Router router, String method, String path, String body, String ifMatch) {
        Router.Match match = router.match(method, path);
        return match.handler().handle(new ApiRequest(method, path, match.pathParameters(), Map.of(),
                Map.of("if-match", ifMatch), body));
    }

    @Test
    void resource_postCreatesInTheCollection_underTheBodysIdOrANewOne_201WithLocationAndETag_aTakenIdIs409() {
        Router router = collection();
        assertThat(router.descriptions()).extracting(d -> d.method() + " " + d.template()).containsExactly(
                "POST /shelves/{shelfId}/notes", "PATCH /shelves/{shelfId}/notes/{noteId}",
                "GET /shelves/{shelfId}/notes/{noteId}", "GET /shelves/{shelfId}/notes");
        ApiResponse created = call(router, "POST", "/shelves/s1/notes", "{\"noteId\":\"n1\",\"text\":\"hi\"}");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.headers()).containsEntry("Location", "/shelves/s1/notes/n1").containsEntry("ETag", "\"1\"");
        assertThat(notes.get(Note.key("s1", "n1"))).contains(new Note("s1", "n1", 1, "hi"));

        ApiResponse generated = call(router, "POST", "/shelves/s1/notes", "{}");
        String id = generated.body().get("noteId").asText();
        assertThat(id).hasSize(26);
        assertThat(generated.headers()).containsEntry("Location", "/shelves/s1/notes/" + id);
        assertThat(notes.get(Note.key("s1", id))).isPresent();

        assertThatThrownBy(() -> call(router, "POST", "/shelves/s1/notes", "{\"noteId\":\"n1\",\"text\":\"again\"}"))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFLICT);
                    assertThat(e.getMessage()).isEqualTo("note 'n1' already exists");
                });
        assertThat(notes.get(Note.key("s1", "n1"))).contains(new Note("s1", "n1", 1, "hi"));
        // What does not exist cannot be in conflict: a missing shelf is answered before a taken id.
        assertThatThrownBy(() -> call(router, "POST", "/shelves/s9/notes", "{\"noteId\":\"n1\"}"))
                .hasMessage("entity table shelf 's9' does not exist");
        assertThat(refused(router, "POST", "/shelves/s1/notes", "{\"noteId\":\"a#b\"}"))
                .isEqualTo(ErrorCode.VALIDATION_FAILED);
        assertThat(refused(router, "POST", "/shelves/s1/notes", null)).isNotNull();
        assertThatThrownBy(() -> EntityResource.at("/notes/{noteId}/text", Note.SCHEMA, ids -> Note.key("s", "n"))
                .post(Access.ADMIN, "a", Fields.of(TEXT), (ids, body, made) -> null))
                .hasMessageContaining("does not end with");
    }

    @Test
    void resource_patchSetsTheFieldsGiven_countsTheVersionUp_underIfMatch_412AtAnotherVersion_404ForNone() {
        Router router = collection();
        call(router, "POST", "/shelves/s1/notes", "{\"noteId\":\"n1\",\"text\":\"hi\"}");
        ApiResponse patched = call(router, "PATCH", "/shelves/s1/notes/n1", "{\"text\":\"there\"}", "\"1\"");
        assertThat(patched.status()).isEqualTo(200);
        assertThat(patched.headers()).containsEntry("ETag", "\"2\"");
        assertThat(notes.get(Note.key("s1", "n1"))).contains(new Note("s1", "n1", 2, "there"));
        assertThat(call(router, "GET", "/shelves/s1/notes/n1", null).headers()).containsEntry("ETag", "\"2\"");

        assertThatThrownBy(() -> call(router, "PATCH", "/shelves/s1/notes/n1", "{\"text\":\"x\"}", "\"1\""))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.PRECONDITION_FAILED);
                    assertThat(e.getMessage()).isEqualTo("note 'n1' is at version 2, not 1");
                });
        assertThatThrownBy(() -> call(router, "PATCH", "/shelves/s1/notes/n9", "{\"text\":\"x\"}", "*"))
                .hasMessage("shelf 's1' has no note 'n9'");
        assertThatThrownBy(() -> call(router, "PATCH", "/shelves/s1/notes/n1", "{}"))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_FAILED);
                    assertThat(e.getMessage()).isEqualTo("nothing to change: give text");
                });
        assertThat(notes.get(Note.key("s1", "n1"))).contains(new Note("s1", "n1", 2, "there"));
        assertThat(call(router, "PATCH", "/shelves/s1/notes/n1", "{\"text\":\"any\"}").headers())
                .containsEntry("ETag", "\"3\"");
        assertThatThrownBy(() -> EntityResource.at("/n/{shelfId}/{noteId}", PatternNote.SCHEMA)
                .patch(Access.ADMIN, "a", Fields.of(TEXT))).hasMessageContaining("has no version component");
    }

    private ApiResponse page(Router router, String path, String query) {
        Router.Match match = router.match("GET", path);
        Map<String, String> parameters = new HashMap<>();
        for (String pair : query.split("&")) {
            parameters.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
        }
        return match.handler().handle(new ApiRequest("GET", path, match.pathParameters(), parameters, Map.of(), null));
    }

    @Test
    void resource_listPagesTheCollectionInTheQuerysOrder_itsCursorWorksForItsOwnIdsOnly_aMissingOwnerIs404() {
        Router router = collection();
        for (String id : List.of("n3", "n1", "n2")) {
            call(router, "POST", "/shelves/s1/notes", "{\"noteId\":\"" + id + "\"}");
        }
        ApiResponse first = page(router, "/shelves/s1/notes", "limit=2");
        assertThat(first.body().get("items")).extracting(item -> item.get("noteId").asText())
                .containsExactly("n1", "n2");
        String cursor = first.body().get("cursor").asText();
        ApiResponse second = page(router, "/shelves/s1/notes", "limit=2&cursor=" + cursor);
        assertThat(second.body().get("items")).extracting(item -> item.get("noteId").asText()).containsExactly("n3");
        assertThat(second.body().get("cursor").isNull()).isTrue();
        // The page's items are the entities as the contract renders them.
        assertThat(second.body().get("items").get(0).toString())
                .isEqualTo("{\"shelfId\":\"s1\",\"noteId\":\"n3\",\"version\":1,\"text\":null}");
        // A cursor is scoped to its collection's noun and ids: another shelf's list refuses it.
        assertThatThrownBy(() -> page(router, "/shelves/s2/notes", "cursor=" + cursor))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.field()).isEqualTo("cursor"));
        assertThatThrownBy(() -> page(router, "/shelves/s9/notes", "limit=5"))
                .hasMessage("entity table shelf 's9' does not exist");
        assertThat(page(router, "/shelves/s1/notes", "limit=1").body().get("items")).hasSize(1);
    }

    /** A sign per shelf, replaced whole. */
    private record Sign(String shelfId, String text, long version) {
        static final ItemSchema<Sign> SCHEMA = ItemSchema.of(Sign.class, NOTE,
                sign -> new Key("SHELF#" + sign.shelfId(), "SIGN#")).optional("text").build();
    }

    @Test
    void resource_replaceWritesWholeWithoutARead_201ThenEachTime200_itsVersionItsETag() {
        EntityResource<Sign> resource = EntityResource.at("/shelves/{shelfId}/sign", Sign.SCHEMA,
                        ids -> new Key("SHELF#" + ids.get("shelfId"), "SIGN#"))
                .replace(Access.owner("shelfId"), "Put up a sign", Fields.of(TEXT), (ids, body, made) ->
                        new Sign(ids.get("shelfId"), body.get(TEXT), 7))
                .get(Access.ownerOrAdmin("shelfId"), "A sign");
        Router router = new Router();
        Domain.registerResources(new DeclaredDomain(Declaration.of("signs").resources(resource)) { }, router, context);
        ApiResponse created = call(router, "PUT", "/shelves/s1/sign", "{\"text\":\"open\"}");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.headers()).containsEntry("Location", "/shelves/s1/sign").containsEntry("ETag", "\"7\"");
        // Whatever is there is replaced, even an item the schema would not read.
        dynamo.putItem(r -> r.tableName(context.table()).item(Map.of("pk", AttributeValue.fromS("SHELF#s1"),
                "sk", AttributeValue.fromS("SIGN#"))));
        ApiResponse replaced = call(router, "PUT", "/shelves/s1/sign", "{\"text\":\"closed\"}");
        assertThat(replaced.status()).isEqualTo(200);
        assertThat(call(router, "GET", "/shelves/s1/sign", null).body().get("text").asText()).isEqualTo("closed");
        assertThat(refused(router, "PUT", "/shelves/s1/sign", "{\"text\":\"far too long a note\"}"))
                .isEqualTo(ErrorCode.VALIDATION_FAILED);
        assertThat(call(router, "GET", "/shelves/s1/sign", null).headers()).containsEntry("ETag", "\"7\"");
    }

    @Test
    void theVersionOfARecordAnotherPackageKeepsToItself_isRead() throws Exception {
        Object hidden = io.tally.core.domain.hidden.Hidden.versioned("h1", 5);
        assertThat(ResourceRoutes.versionOf(hidden.getClass()).orElseThrow().invoke(hidden)).isEqualTo(5L);
        assertThat(ResourceRoutes.versionOf(Sign.class)).isPresent();
        assertThat(ResourceRoutes.versionOf(PatternNote.class)).isEmpty();
    }
}
