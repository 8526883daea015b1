package io.tally.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.domain.TableIndex;
import io.tally.core.domain.TableIndexes;
import io.tally.core.read.BatchReads;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.dynamodb.services.local.embedded.DynamoDBEmbedded;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;

/**
 * Typed reads, conditional writes, queries and transactions against DynamoDB Local embedded: what each writes is read
 * back raw, and each refusal is checked to write nothing.
 */
class TypedTableTest {
    private static final EntityType CARD = EntityType.base("TypedTableCard");
    private static final String LOOKUP = "cardLookup";
    private static final String TIME = "cardTime";
    /** The cards' own indexes, declared as a domain declares its own: the table is made from them. */
    private static final DomainRegistry CARDS = DomainRegistry.of(new DeclaredDomain(Declaration.of("cards")
            .entityTypes(CARD).indexes(TableIndex.local("CardsByTime", TIME),
                    TableIndex.global("CardsByLookup", LOOKUP, TableSchema.PK))) {
    });
    private static AmazonDynamoDBLocal local;
    private static DynamoDbClient dynamo;
    private static int tables;
    private String table;
    private TypedTable<Card> cards;

    enum State { OPEN, CLOSED }

    record Card(String deck, String cardId, String title, State state, Instant createdAt, long version, Long stars) {
        static final ItemSchema<Card> SCHEMA = ItemSchema.of(Card.class, CARD, card -> key(card.deck(), card.cardId()))
                .optional("stars")
                .computed(LOOKUP, card -> "CARD#" + card.cardId())
                .computed(TIME, card -> card.createdAt() + "#" + card.cardId())
                .build();

        static Key key(String deck, String cardId) {
            return new Key("DECK#" + deck, "CARD#" + cardId);
        }

        Card withVersion(long next) {
            return new Card(deck, cardId, title, state, createdAt, next, stars);
        }
    }

    private static Card card(String deck, String id, int minute) {
        return new Card(deck, id, "title " + id, State.OPEN, Instant.parse("2026-11-30T10:00:00Z").plusSeconds(60L
                * minute), 1, null);
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
        table = "typed-" + ++tables;
        dynamo.createTable(TableIndexes.createTableRequest(CARDS, table));
        cards = TypedTable.of(dynamo, table, Card.SCHEMA);
    }

    private Map<String, AttributeValue> raw(Key key) {
        return dynamo.getItem(r -> r.tableName(table).key(key.toAttributeMap()).consistentRead(true)).item();
    }

    @Test
    void putNew_writesTheSchemasItem_andNeverOverwrites() {
        Card first = card("d", "c1", 0);
        assertThat(cards.putNew(first)).isTrue();
        assertThat(raw(Card.key("d", "c1"))).isEqualTo(Card.SCHEMA.toItem(first));
        assertThat(cards.putNew(new Card("d", "c1", "other", State.CLOSED, first.createdAt(), 9, 5L))).isFalse();
        assertThat(cards.get(Card.key("d", "c1"))).contains(first);
        assertThat(cards.get(Card.key("d", "none"))).isEmpty();
    }

    @Test
    void put_onACondition_writesWhenItHolds_andAnswersWhatItFoundEitherWay() {
        Card first = card("d", "c1", 0);
        cards.putNew(first);
        assertPut(cards.put(first.withVersion(2), Condition.is(Update.VERSION, 1L)), true, first);
        assertThat(cards.get(Card.key("d", "c1")).orElseThrow().version()).isEqualTo(2);
        assertPut(cards.put(first.withVersion(3), Condition.is(Update.VERSION, 1L)), false, first.withVersion(2));
        assertThat(cards.get(Card.key("d", "c1")).orElseThrow().version()).isEqualTo(2);
        Card other = card("d", "c2", 0);
        assertPut(cards.put(other, Condition.is(Update.VERSION, 1L)), false, null);
        assertPut(cards.put(other, Condition.absent()), true, null);
        // Whether it created needs no reading of what it replaced: a malformed item replaced is no error.
        dynamo.putItem(r -> r.tableName(table).item(Map.of("pk", Items.s("DECK#d"), "sk", Items.s("CARD#c3"))));
        TypedTable.Put<Card> overMalformed = cards.put(card("d", "c3", 3), Condition.exists());
        assertThat(overMalformed.written()).isTrue();
        assertThat(overMalformed.existed()).isTrue();
        assertThat(cards.replace(card("d", "c3", 4))).isTrue();
        assertThat(cards.replace(card("d", "c4", 4))).isFalse();
    }

    private static void assertPut(TypedTable.Put<Card> put, boolean written, Card previous) {
        assertThat(put.written()).isEqualTo(written);
        assertThat(put.existed()).isEqualTo(previous != null);
        assertThat(put.previous()).isEqualTo(Optional.ofNullable(previous));
    }

    @Test
    void set_changesWithoutReadingBack_andSaysWhetherTheConditionHeld() {
        cards.putNew(card("d", "c1", 0));
        assertThat(cards.set(Card.key("d", "c1"), Update.of().set("title", "t2"), Condition.exists())).isTrue();
        assertThat(cards.get(Card.key("d", "c1")).orElseThrow().title()).isEqualTo("t2");
        assertThat(cards.set(Card.key("d", "c9"), Update.of().set("title", "t2"), Condition.exists())).isFalse();
        assertThat(raw(Card.key("d", "c9"))).isNullOrEmpty();
    }

    @Test
    void update_setsRemovesAndIncreases_andAnswersTheItemChanged() {
        Card first = new Card("d", "c1", "t", State.OPEN, Instant.parse("2026-11-30T10:00:00Z"), 1, 4L);
        cards.putNew(first);
        Instant now = Instant.parse("2026-11-30T11:00:00Z");
        // updatedAt is no component of Card: the raw item shows it; the card reads back without it.
        Card changed = cards.update(Card.key("d", "c1"), Update.versioned(now).set("title", "new")
                        .set("state", State.CLOSED).set("ignored", null).remove("stars"),
                Condition.exists().and(Condition.isNot("state", State.CLOSED)), current -> {
                    throw new AssertionError("refused");
                });
        assertThat(changed).isEqualTo(new Card("d", "c1", "new", State.CLOSED, first.createdAt(), 2, null));
        Map<String, AttributeValue> item = raw(Card.key("d", "c1"));
        assertThat(item.get("updatedAt").s()).isEqualTo("2026-11-30T11:00:00.000Z");
        assertThat(item).doesNotContainKeys("stars", "ignored");
    }

    @Test
    void update_refused_seesTheItemAsItIs_orNoneWhenMissing_andWritesNothing() {
        Card first = card("d", "c1", 0);
        cards.putNew(first);
        Condition notClosed = Condition.exists().and(Condition.isNot("state", State.CLOSED));
        AtomicReference<Optional<Card>> seen = new AtomicReference<>();
        Card answered = cards.update(Card.key("d", "c1"), Update.of().set("title", "x"),
                notClosed.and(Condition.is(Update.VERSION, 7L)), current -> {
                    seen.set(current);
                    return current.orElseThrow();
                });
        assertThat(seen.get()).contains(first);
        assertThat(answered).isEqualTo(first);
        assertThat(cards.get(Card.key("d", "c1"))).contains(first);

        cards.update(Card.key("d", "none"), Update.of().set("title", "x"), notClosed, current -> {
            seen.set(current);
            return null;
        });
        assertThat(seen.get()).isEmpty();
        assertThat(raw(Card.key("d", "none"))).isNullOrEmpty();
    }

    @Test
    void update_withNothingToChange_isRefusedBeforeAnyRequest() {
        assertThatThrownBy(() -> cards.update(Card.key("d", "c1"), Update.of().set("title", null), Condition.exists(),
                current -> null)).isInstanceOf(IllegalStateException.class).hasMessageContaining("change something");
    }

    @Test
    void condition_ofAValueNoItemStores_failsWhereItIsMade() {
        assertThatThrownBy(() -> Condition.is("x", new Object())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Update.of().set("x", List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void isNot_holdsForAMissingAttribute_asDynamoDbComparesIt() {
        Card first = card("d", "c1", 0);
        cards.putNew(first);
        // stars is not stored: <> holds, = does not.
        assertThat(cards.put(first.withVersion(2), Condition.isNot("stars", 5L)).written()).isTrue();
        assertThat(cards.put(first.withVersion(3), Condition.is("stars", 5L)).written()).isFalse();
        assertThat(cards.get(Card.key("d", "c1")).orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void orBindsAsAWhole_underAFurtherAnd() {
        Card closed = new Card("d", "c1", "t", State.CLOSED, Instant.parse("2026-11-30T10:00:00Z"), 5, null);
        cards.putNew(closed);
        // (state = OPEN OR version = 5) AND version < 5: false for this card; without the brackets it would be true.
        Condition condition = Condition.is("state", State.OPEN).or(Condition.is(Update.VERSION, 5L))
                .and(Condition.below(Update.VERSION, 5L));
        assertThat(cards.put(closed.withVersion(6), condition).written()).isFalse();
        assertThat(cards.put(closed.withVersion(6), Condition.is("state", State.OPEN).or(Condition.is(Update.VERSION,
                5L)).and(Condition.below(Update.VERSION, 6L))).written()).isTrue();
        assertThat(cards.get(Card.key("d", "c1")).orElseThrow().version()).isEqualTo(6);
    }

    @Test
    void delete_answersTheRemovedEntity_emptyWhenNone_andAConditionRefusesWithTheCurrentOne() {
        Card first = card("d", "c1", 0);
        cards.putNew(first);
        assertThat(cards.delete(Card.key("d", "c1"), Condition.is("state", State.CLOSED), current -> null)).isEmpty();
        assertThat(cards.delete(Card.key("d", "c1"), Condition.is("state", State.CLOSED), current -> current
                .orElseThrow())).contains(first);
        assertThat(cards.get(Card.key("d", "c1"))).contains(first);
        assertThat(cards.delete(Card.key("d", "c1"))).contains(first);
        assertThat(cards.delete(Card.key("d", "c1"))).isEmpty();
    }

    @Test
    void query_pagesAPartitionByPrefix_inEitherDirection_withTheNextKeyOnlyWhenMoreFollow() {
        for (int i = 1; i <= 5; i++) {
            cards.putNew(card("d", "c" + i, i));
        }
        cards.putNew(card("other", "c9", 9));
        Query query = Query.partition("DECK#d").startsWith("CARD#c");
        QueryPage first = cards.page(query, 2, null, Set.of(TableSchema.PK, TableSchema.SK));
        assertThat(ids(first.items())).containsExactly("c1", "c2");
        QueryPage second = cards.page(query, 3, first.nextKey(), Set.of(TableSchema.PK, TableSchema.SK));
        assertThat(ids(second.items())).containsExactly("c3", "c4", "c5");
        assertThat(second.nextKey()).isNull();

        assertThat(cards.all(query.backwards()).stream().map(Card::cardId)).containsExactly("c5", "c4", "c3", "c2",
                "c1");
        assertThat(cards.all(Query.partition("DECK#d").between(TableSchema.SK, "CARD#c2", "CARD#c4"))
                .stream().map(Card::cardId)).containsExactly("c2", "c3", "c4");
        assertThat(cards.first(query.filter(Condition.is("title", "title c4")))).contains(card("d", "c4", 4));
        assertThat(cards.first(query.filter(Condition.is("title", "none")))).isEmpty();
        assertThat(dynamo.query(query.attributes("title").request(table, 10, null)).items().get(0))
                .containsOnlyKeys("title");
        assertThat(dynamo.query(query.countRequest(table, null)).count()).isEqualTo(5);
    }

    @Test
    void query_ofIndexes_localConsistent_globalByItsHashKey() {
        cards.putNew(card("d", "c1", 3));
        cards.putNew(card("d", "c2", 1));
        assertThat(cards.all(Query.localIndex("CardsByTime", "DECK#d").backwards()).stream()
                .map(Card::cardId)).containsExactly("c1", "c2");
        assertThat(Query.localIndex("CardsByTime", "DECK#d").request(table, 1, null)
                .consistentRead()).isTrue();
        Query global = Query.globalIndex("CardsByLookup", LOOKUP, "CARD#c2");
        assertThat(global.request(table, 1, null).consistentRead()).isNull();
        assertThat(cards.first(global)).contains(card("d", "c2", 1));
    }

    @Test
    void batchReads_byKeys_answerTheNamedAttributesOrWholeItems_andNothingForAMissingKey() {
        cards.putNew(card("d", "c1", 1));
        cards.putNew(card("d", "c2", 2));
        List<Key> keys = List.of(Card.key("d", "c1"), Card.key("d", "none"), Card.key("d", "c2"));
        assertThat(BatchReads.getAll(dynamo, table, keys, List.of("cardId", "title")))
                .containsExactlyInAnyOrder(Map.of("cardId", Items.s("c1"), "title", Items.s("title c1")),
                        Map.of("cardId", Items.s("c2"), "title", Items.s("title c2")));
        assertThat(BatchReads.getAllConsistent(dynamo, table, keys).stream().map(Card.SCHEMA::fromItem))
                .containsExactlyInAnyOrder(card("d", "c1", 1), card("d", "c2", 2));
        assertThat(BatchReads.getAll(dynamo, table, List.of(), List.of("title"))).isEmpty();
        assertThat(BatchReads.getAllConsistent(dynamo, table, List.of())).isEmpty();
    }

    private static List<String> ids(List<Map<String, AttributeValue>> items) {
        return items.stream().map(item -> item.get("cardId").s()).toList();
    }

    @Test
    void transaction_writesAll_orNothing_andAnswersTheFirstRefusedActionInOrder() {
        cards.putNew(card("d", "c1", 0));
        cards.putNew(card("d", "c3", 3));
        Transaction write = Transaction.in(dynamo, table);
        write.requireExists(Card.key("d", "missing")).orElse(() -> new IllegalStateException("deck missing"));
        write.putNew(Card.SCHEMA, card("d", "c1", 0)).orElse(() -> new IllegalStateException("taken"));
        write.putNew(Card.SCHEMA, card("d", "c2", 2));
        assertThatThrownBy(write::commit).hasMessage("deck missing");
        assertThat(cards.get(Card.key("d", "c2"))).isEmpty();

        Transaction again = Transaction.in(dynamo, table);
        again.requireExists(Card.key("d", "c1")).orElse(() -> new IllegalStateException("deck missing"));
        again.putNew(Card.SCHEMA, card("d", "c1", 0)).orElse(() -> new IllegalStateException("taken"));
        assertThatThrownBy(again::commit).hasMessage("taken");

        Transaction works = Transaction.in(dynamo, table);
        works.requireExists(Card.key("d", "c3"));
        works.putNew(Card.SCHEMA, card("d", "c2", 2));
        works.update(Card.SCHEMA, Card.key("d", "c1"), Update.of().set("title", "t2"), Condition.exists());
        works.commit();
        assertThat(cards.get(Card.key("d", "c2"))).contains(card("d", "c2", 2));
        assertThat(cards.get(Card.key("d", "c1")).orElseThrow().title()).isEqualTo("t2");

        Transaction remove = Transaction.in(dynamo, table);
        remove.delete(Card.SCHEMA, Card.key("d", "c2"), Condition.exists());
        remove.commit();
        assertThat(cards.get(Card.key("d", "c2"))).isEmpty();
    }

    @Test
    void transaction_answer_seesTheRefusedItem_nullDefers_andCommitWithAFunctionSeesEveryRefusal() {
        Card closed = new Card("d", "c1", "t", State.CLOSED, Instant.parse("2026-11-30T10:00:00Z"), 1, null);
        cards.putNew(closed);
        Transaction write = Transaction.in(dynamo, table);
        Transaction.Action<Card> open = write.check(Card.SCHEMA, Card.key("d", "c1"),
                Condition.exists().and(Condition.isNot("state", State.CLOSED)));
        open.orElse(current -> current.isEmpty() ? new IllegalStateException("no card") : null);
        Transaction.Action<Map<String, AttributeValue>> deck = write.requireExists(Card.key("d", "deck"));
        deck.orElse(() -> new IllegalStateException("no deck"));
        assertThatThrownBy(write::commit).hasMessage("no deck");

        AtomicReference<Optional<Card>> seen = new AtomicReference<>();
        assertThatThrownBy(() -> write.commit(refusals -> {
            seen.set(refusals.current(open));
            return refusals.refused(open) && refusals.refused(deck) ? new IllegalStateException("both") : null;
        })).hasMessage("both");
        assertThat(seen.get()).contains(closed);

        Transaction unanswered = Transaction.in(dynamo, table);
        unanswered.requireExists(Card.key("d", "deck"));
        assertThatThrownBy(unanswered::commit).isInstanceOf(TransactionCanceledException.class);
        assertThatThrownBy(() -> Transaction.in(dynamo, table).commit()).isInstanceOf(IllegalStateException.class);
    }
}
