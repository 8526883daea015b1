package io.tally.core.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.TableDefinition;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ErrorCode;
import io.tally.core.http.Router;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.dynamodb.services.local.embedded.DynamoDBEmbedded;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;

/** Views counted per time bucket, against a model of the current states, and their read route's bucket parameter. */
class BucketViewTest {
    /** A user's mark of an item, made at an instant (kept on replace in a real domain; free to move here). */
    public record Mark(String userId, String itemId, Instant createdAt) {
        static final EntityType TYPE = EntityType.base("BucketViewMark");
        static final ItemSchema<Mark> SCHEMA = ItemSchema.of(Mark.class, TYPE,
                mark -> new Key("USER#" + mark.userId(), "MARK#" + mark.itemId())).build();
    }

    public record ItemMonth(String itemId, String month, long marks) {
    }

    public record UserDay(String userId, String day, long marks) {
    }

    static final CounterView<Mark, ItemMonth> PER_ITEM_MONTH = CounterView.over(Mark.SCHEMA, ItemMonth.class)
            .groupBy(ItemMonth::itemId, Mark::itemId).bucket(ItemMonth::month, Bucket.MONTH, Mark::createdAt)
            .count(ItemMonth::marks).shared()
            .read("/stats/items/{itemId}/marks", Access.READ_SIDE, Existence.zeros()).build();

    static final CounterView<Mark, UserDay> PER_USER_DAY = CounterView.over(Mark.SCHEMA, UserDay.class)
            .key("USER#<userId> / MARKS#<day>", (userId, day) -> new Key("USER#" + userId, "MARKS#" + day))
            .groupBy(UserDay::userId, Mark::userId).bucket(UserDay::day, Bucket.DAY, Mark::createdAt)
            .count(UserDay::marks).build();

    private static final Instant T0 = Instant.parse("2026-10-30T22:00:00Z");

    @Test
    void bucket_isTheUtcDayOrMonth_andParsesOnlyItsOwnForm() {
        Instant late = Instant.parse("2026-11-30T23:59:59.999Z");
        assertThat(Bucket.DAY.of(late)).isEqualTo("2026-11-30");
        assertThat(Bucket.MONTH.of(late)).isEqualTo("2026-11");
        assertThat(Bucket.MONTH.of(Instant.parse("2026-12-01T00:00:00Z"))).isEqualTo("2026-12");
        assertThat(Bucket.MONTH.parse("2026-11")).contains("2026-11");
        for (String wrong : new String[] {"2026-13", "2026-1", "2026-00", "26-11", "2026-11-01", "", "x", null}) {
            assertThat(Bucket.MONTH.parse(wrong)).as(String.valueOf(wrong)).isEmpty();
        }
        assertThat(Bucket.DAY.parse("2028-02-29")).contains("2028-02-29");
        for (String wrong : new String[] {"2026-02-29", "2026-11-31", "2026-11-1", "2026-11"}) {
            assertThat(Bucket.DAY.parse(wrong)).as(wrong).isEmpty();
        }
    }

    @Test
    void keys_byDefaultAndAsDeclared() {
        assertThat(PER_ITEM_MONTH.type().key("i1#2026-11")).isEqualTo(new Key("ITEMMONTH#i1", "MONTH#2026-11"));
        assertThat(PER_USER_DAY.type().key("u1#2026-11-30")).isEqualTo(new Key("USER#u1", "MARKS#2026-11-30"));
        assertThat(PER_ITEM_MONTH.answer("i1", "2026-11", Map.of("marks", 2L)))
                .isEqualTo(new ItemMonth("i1", "2026-11", 2));
        assertThatThrownBy(() -> CounterView.over(Mark.SCHEMA, ItemMonth.class).groupBy(ItemMonth::itemId,
                Mark::itemId).count(ItemMonth::marks).build()).hasMessageContaining("fills [month]");
        assertThatThrownBy(() -> CounterView.over(Mark.SCHEMA, ItemMonth.class).groupBy(ItemMonth::itemId,
                Mark::itemId).bucket(ItemMonth::month, Bucket.MONTH, Mark::createdAt).count(ItemMonth::marks)
                .key("X#<itemId> / #S#", id -> new Key("X#" + id, "#S#")).build())
                .hasMessageContaining("keyed by its group and its bucket");
        assertThatThrownBy(() -> CounterView.over(Mark.SCHEMA, ItemMonth.class).groupBy(ItemMonth::itemId,
                Mark::itemId).bucket(ItemMonth::month, Bucket.MONTH, Mark::createdAt).count(ItemMonth::marks)
                .key("X#<itemId> / #S#", (id, month) -> new Key("X#" + id, "#S#")).build())
                .hasMessageContaining("must differ by bucket");
    }

    /** Marks created, moved between items, users and instants (across days and a month's end), deleted. */
    @Test
    void derivation_randomChanges_eachBucketCountsTheMarksWhoseInstantIsInIt() {
        Derivation derivation = Views.derivations(List.<View<?>>of(PER_ITEM_MONTH, PER_USER_DAY)).get(0);
        RandomChanges.check(derivation, Mark.SCHEMA, 1129, 1_500, 10, random -> new Mark("u" + random.nextInt(3),
                "i" + random.nextInt(3), T0.plusSeconds(random.nextInt(4 * 24 * 3_600))), BucketViewTest::model);
    }

    /**
     * The figures by definition: a mark counts for its item in the UTC month, and for its user on the UTC day, of its
     * instant.
     */
    private static Map<CounterRef, Long> model(Iterable<Mark> marks) {
        Map<CounterRef, Long> figures = new HashMap<>();
        for (Mark mark : marks) {
            String day = mark.createdAt().toString().substring(0, 10);
            figures.merge(new CounterRef(new Key("ITEMMONTH#" + mark.itemId(), "MONTH#" + day.substring(0, 7)),
                    PER_ITEM_MONTH.type(), "marks"), 1L, Long::sum);
            figures.merge(new CounterRef(new Key("USER#" + mark.userId(), "MARKS#" + day), PER_USER_DAY.type(),
                    "marks"), 1L, Long::sum);
        }
        return figures;
    }

    @Test
    void route_takesTheBucketFromItsQueryParameter_requiredAndInItsForm() {
        AmazonDynamoDBLocal local = DynamoDBEmbedded.create(true);
        try {
            DynamoDbClient dynamo = local.dynamoDbClient();
            dynamo.createTable(TableDefinition.createTableRequest("marks"));
            Map<String, AttributeValue> item = new HashMap<>(PER_ITEM_MONTH.type().key("i1#2026-11").toAttributeMap());
            item.put("entityType", AttributeValue.fromS("ItemMonth"));
            item.put("marks", AttributeValue.fromN("4"));
            dynamo.putItem(r -> r.tableName("marks").item(item));
            Router router = new Router();
            ViewRoutes.register(router, dynamo, "marks", ViewRoutesTest.CURSORS, (type, id) -> false, List.of(PER_ITEM_MONTH), List.of());
            assertThat(router.descriptions().get(0).query()).containsExactly("month");

            assertThat(call(router, Map.of("month", "2026-11"))).isEqualTo(
                    "{\"itemId\":\"i1\",\"month\":\"2026-11\",\"marks\":4}");
            assertThat(call(router, Map.of("month", "2026-10"))).isEqualTo(
                    "{\"itemId\":\"i1\",\"month\":\"2026-10\",\"marks\":0}");
            for (Map<String, String> wrong : List.of(Map.<String, String>of(), Map.of("month", "2026-13"),
                    Map.of("month", "2026-1"))) {
                assertThatThrownBy(() -> call(router, wrong)).isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.BAD_REQUEST);
                    assertThat(e.field()).isEqualTo("month");
                    assertThat(e.getMessage()).contains(wrong.isEmpty() ? "is required (YYYY-MM)" : "must be YYYY-MM");
                });
            }
        } finally {
            local.shutdown();
        }
    }

    private static String call(Router router, Map<String, String> query) {
        Router.Match match = router.match("GET", "/stats/items/i1/marks");
        return match.handler().handle(new ApiRequest("GET", "/stats/items/i1/marks", match.pathParameters(), query,
                Map.of(), null)).body().toString();
    }

    @Test
    void anEntityWithoutItsInstant_isAProblem() {
        Derivation derivation = Views.derivations(List.<View<?>>of(PER_ITEM_MONTH)).get(0);
        Map<String, AttributeValue> noInstant = new HashMap<>(Mark.SCHEMA.toItem(new Mark("u1", "i1", T0)));
        noInstant.remove("createdAt");
        Optional<String> problem = derivation.derive("e1", null, noInstant).problems().stream().findFirst();
        assertThat(problem).isPresent();
    }
}
