package io.tally.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.EntityType;
import io.tally.core.Ids;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.http.ApiException;
import io.tally.core.http.Cursors;
import io.tally.core.http.ErrorCode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
}
