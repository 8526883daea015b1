package io.tally.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.DeadLetterItem;
import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.PrunerPositionItem;
import io.tally.core.ShardCursorItem;
import io.tally.core.ShardSettings;
import io.tally.core.TableSchema;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.Domain;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.template.DeploymentTemplate;
import io.tally.stream.engine.SourceRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.event.ruler.Machine;

/**
 * The stream mapping's filter ({@code FilterCriteria} of infra/template.yaml) evaluated as Lambda evaluates it: AWS's
 * Event Ruler, the matcher behind the pattern syntax, on each stream record as JSON, the record delivered when any
 * pattern matches. Each record is also classified as the engine classifies it ({@code BatchPlanner}: the entity type
 * of {@link SourceRecord#entityType}, routed by {@link Derivations#route}): a record the filter drops must be one the
 * engine skips as derived, and every other record must be delivered.
 */
class StreamFilterTest {
    private static final Path TEMPLATE = Path.of("template.yaml");
    /**
     * Lambda events as AWS sends them, from the repository's test resources: the blog's records (base items, an
     * unknown type, one without a sequence number), and items of every attribute type without an entity type.
     */
    private static final List<Path> AWS_SHAPED_EVENTS = List.of(
            Path.of("..", "stream-processor", "src", "test", "resources", "events", "blog-stream.json"),
            Path.of("..", "local-runner", "src", "test", "resources", "events", "dynamodb-stream-all-types.json"));
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DomainRegistry REGISTRY = DomainRegistry.load();
    private static final Derivations DERIVATIONS = REGISTRY.derivations(ShardSettings.DEFAULTS);
    private static final String WATERMARK = "wm_" + "a".repeat(16);

    private final List<String> patterns = TemplateStreamFilter.patterns(DeploymentTemplate.read(TEMPLATE));
    private final Machine filter = compile(patterns);
    private final AtomicLong sequence = new AtomicLong(100_000_000_000_000_000L);

    @Test
    void awsShapedEvents_everyRecordDelivered() throws IOException {
        int records = 0;
        for (Path file : AWS_SHAPED_EVENTS) {
            for (JsonNode record : JSON.readTree(file.toFile()).path("Records")) {
                assertMustSee(record, file.getFileName() + " " + record.path("eventID").asText());
                records++;
            }
        }
        assertThat(records).isEqualTo(10);
    }

    @Test
    void echoesOfOurOwnWrites_derivedItemsTheirPartialsCursorsDeadLettersThePrunersPosition_dropped() {
        List<String> own = TemplateStreamFilter.ownTypes(REGISTRY);
        for (DerivedType type : REGISTRY.derivedTypes()) {
            Key key = sampleKey(type);
            assertEchoesDropped(key, type.name(), counters(type));
            if (type.isShared()) {
                assertEchoesDropped(type.partial(type.isSlotted() ? type.inSlot(key, "3") : key, "abcdefghijklmnop"),
                        type.name(), counters(type));
            }
        }
        assertEchoesDropped(ShardCursorItem.key("abcdefghijklmnop"), ShardCursorItem.TYPE.attributeValue(),
                Map.of(ShardCursorItem.ACKNOWLEDGED, s("0".repeat(40)), ShardCursorItem.HOLDER, s("request-1")));
        Key letter = DeadLetterItem.key(Instant.parse("2026-01-02T03:04:05Z"), "1234", "event-1");
        assertEchoesDropped(letter, DeadLetterItem.TYPE.attributeValue(),
                Map.of("reason", s("no entity type attribute"), TableSchema.TTL, n("1769919845")));
        assertEchoesDropped(PrunerPositionItem.KEY, PrunerPositionItem.TYPE.attributeValue(),
                Map.of(PrunerPositionItem.PHASE, s("prune")));
        // A dead letter expired by TTL: a REMOVE by DynamoDB's own service.
        ObjectNode expired = record("REMOVE", image(letter, s(DeadLetterItem.TYPE.attributeValue()), Map.of()), null);
        expired.putObject("userIdentity").put("type", "Service").put("principalId", "dynamodb.amazonaws.com");
        assertDropped(expired, "a dead letter's expiry");
        assertThat(own).hasSize(REGISTRY.derivedTypes().size() + DomainRegistry.BOOKKEEPING.size());
    }

    @Test
    void baseItems_insertModifyRemove_delivered() {
        int types = 0;
        for (Domain domain : REGISTRY.domains()) {
            for (EntityType type : domain.entityTypes()) {
                Key key = new Key(type.attributeValue().toUpperCase() + "#1", "#METADATA#1");
                ObjectNode before = image(key, s(type.attributeValue()), Map.of("version", n("1")));
                ObjectNode after = image(key, s(type.attributeValue()), Map.of("version", n("2")));
                assertMustSee(record("INSERT", null, before), type + " INSERT");
                assertMustSee(record("MODIFY", before, after), type + " MODIFY");
                assertMustSee(record("REMOVE", after, null), type + " REMOVE");
                types++;
            }
        }
        assertThat(types).isGreaterThanOrEqualTo(20);
    }

    @Test
    void poison_noEntityType_notAString_unknown_delivered() {
        Key key = new Key("THING#1", "#METADATA#1");
        ObjectNode none = image(key, null, Map.of("n", n("1")));
        assertMustSee(record("INSERT", null, none), "INSERT without an entity type");
        assertMustSee(record("MODIFY", none, image(key, null, Map.of("n", n("2")))), "MODIFY without an entity type");
        assertMustSee(record("REMOVE", none, null), "REMOVE without an entity type");
        ObjectNode number = image(key, n("7"), Map.of());
        assertMustSee(record("INSERT", null, number), "INSERT, entity type a number");
        assertMustSee(record("REMOVE", number, null), "REMOVE, entity type a number");
        assertMustSee(record("MODIFY", number, number), "MODIFY, entity type a number");
        JsonNode list = JSON.createObjectNode().set("L", JSON.createArrayNode().add(s("UserStats")));
        JsonNode map = JSON.createObjectNode().set("M", JSON.createObjectNode().set("S", s("UserStats")));
        JsonNode set = JSON.createObjectNode().set("SS", JSON.createArrayNode().add("UserStats"));
        for (JsonNode notAString : List.of(list, map, set, JSON.createObjectNode().put("BOOL", true),
                JSON.createObjectNode().put("NULL", true), JSON.createObjectNode().put("B", "VXNlclN0YXRz"))) {
            assertMustSee(record("INSERT", null, image(key, notAString, Map.of())), "entity type " + notAString);
        }
        for (String unknown : List.of("Martian", "", "userStats", "UserStats ", "USERSTATS")) {
            assertMustSee(record("INSERT", null, image(key, s(unknown), Map.of())), "unknown type '" + unknown + "'");
        }
    }

    @Test
    void aDerivedItemsImageWithoutItsType_orAChangeToABaseType_delivered() {
        Key key = sampleKey(REGISTRY.derivedType("UserStats").orElseThrow());
        ObjectNode derived = image(key, s("UserStats"), Map.of("posts", n("1")));
        // The engine takes the type of the image that has one: these it skips as derived, but they are not echoes of
        // what it writes (it sets entityType on every write), so the filter lets them through.
        assertDelivered(record("MODIFY", derived, image(key, null, Map.of())), "MODIFY that drops the entity type");
        assertDelivered(record("MODIFY", image(key, null, Map.of()), derived), "MODIFY that adds the entity type");
        assertDelivered(record("MODIFY", image(key, n("1"), Map.of()), derived), "MODIFY from a numeric type");
        // Poison: the type changed.
        assertDelivered(record("MODIFY", derived, image(key, s("Post"), Map.of())), "MODIFY from ours to a base type");
        assertDelivered(record("MODIFY", image(key, s("Post"), Map.of()), derived), "MODIFY from a base type to ours");
    }

    @Test
    void aChangeFromOneOfOurTypesToAnother_dropped_theOnePoisonTheFilterCannotTellFromAnEcho() {
        // Both images carry a type of ours, so no pattern matches; a pattern cannot compare two fields. The engine
        // would dead-letter it (the type changed), where it now never arrives. Nothing derives from either type, and
        // Tally never writes such a change (a derived item's key belongs to one type): only a hand edit can.
        Key key = new Key("USER#u1", "#STATS#");
        JsonNode record = record("MODIFY", image(key, s("UserStats"), Map.of()), image(key, s("GlobalStats"), Map.of()));

        assertThat(delivered(filter, record)).isFalse();
        assertThat(engineSkipsAsDerived(record)).isFalse();
    }

    @Test
    void aDomainThatAddsADerivedType_itsEchoesDeliveredAndSkipped_untilTheFilterIsRegenerated() {
        DerivedType extra = DerivedType.named("ExtraStats")
                .key("EXTRA#<id> / #STATS#", id -> new Key("EXTRA#" + id, "#STATS#")).counters("extras").build();
        Domain domain = new Domain() {
            @Override
            public String name() {
                return "extra";
            }

            @Override
            public List<DerivedType> derivedTypes() {
                return List.of(extra);
            }
        };
        List<Domain> domains = new ArrayList<>(REGISTRY.domains());
        domains.add(domain);
        DomainRegistry extended = DomainRegistry.of(domains);
        List<String> own = TemplateStreamFilter.ownTypes(extended);
        JsonNode echo = record("MODIFY", image(extra.key("x"), s("ExtraStats"), Map.of("extras", n("1"))),
                image(extra.key("x"), s("ExtraStats"), Map.of("extras", n("2"))));

        // What TemplateTest reports for such a domain, and what happens meanwhile: the echo reaches the function.
        assertThat(TemplateStreamFilter.notDropped(own, patterns)).containsExactly("ExtraStats");
        assertThat(TemplateStreamFilter.droppedNotOwn(own, patterns)).isEmpty();
        assertThat(delivered(filter, echo)).isTrue();
        // Regenerated, the filter drops it.
        assertThat(delivered(compile(TemplateStreamFilter.patterns(own)), echo)).isFalse();
    }

    @Test
    void anythingBut_neverMatchesAnAbsentField_soARecordWithoutAnEntityTypeNeedsAFilterOfItsOwn() {
        Machine anythingButOnly = compile(patterns.subList(0, 2));
        JsonNode none = record("INSERT", null, image(new Key("THING#1", "#METADATA#1"), null, Map.of()));

        assertThat(delivered(anythingButOnly, none)).isFalse();
        assertThat(delivered(filter, none)).isTrue();
    }

    // --- the filter and the engine ------------------------------------------------------------------------------

    private void assertDelivered(JsonNode record, String what) {
        assertThat(delivered(filter, record)).as(what + " is delivered: " + record).isTrue();
    }

    /** A record the engine derives, skips for having no derivation, or dead-letters: it must reach the function. */
    private void assertMustSee(JsonNode record, String what) {
        assertThat(engineSkipsAsDerived(record)).as(what + ": the engine does not skip it as derived").isFalse();
        assertDelivered(record, what);
    }

    private void assertDropped(JsonNode record, String what) {
        assertThat(delivered(filter, record)).as(what + " is dropped: " + record).isFalse();
        assertThat(engineSkipsAsDerived(record)).as(what + ": the engine skips it as derived").isTrue();
    }

    private void assertEchoesDropped(Key key, String type, Map<String, JsonNode> attributes) {
        Map<String, JsonNode> more = new LinkedHashMap<>(attributes);
        more.put(WATERMARK, s("0".repeat(20) + "12345678901234567890"));
        ObjectNode before = image(key, s(type), attributes);
        ObjectNode after = image(key, s(type), more);
        assertDropped(record("INSERT", null, before), type + " INSERT " + key);
        assertDropped(record("MODIFY", before, after), type + " MODIFY " + key);
        assertDropped(record("REMOVE", after, null), type + " REMOVE " + key);
    }

    /** Whether Lambda would deliver the record: any of the filter's patterns matches it. */
    private static boolean delivered(Machine filter, JsonNode record) {
        return !filter.rulesForJSONEvent(record).isEmpty();
    }

    private static Machine compile(List<String> patterns) {
        Machine machine = Machine.builder().build();
        for (int i = 0; i < patterns.size(); i++) {
            try {
                machine.addRule("filter-" + i, patterns.get(i));
            } catch (IOException | RuntimeException e) {
                throw new AssertionError("Event Ruler refuses the pattern " + patterns.get(i), e);
            }
        }
        return machine;
    }

    /**
     * Whether the engine skips the record as an echo of a derived item, as {@code BatchPlanner} decides: the entity type
     * of whichever image has a string one (poison when the two differ), routed by the registry's derivations.
     */
    private static boolean engineSkipsAsDerived(JsonNode record) {
        JsonNode dynamodb = record.path("dynamodb");
        String sequence = dynamodb.path("SequenceNumber").asText("1");
        SourceRecord source = new SourceRecord(record.path("eventID").asText("event"), record.path("eventName").asText(),
                "shardId-1", sequence.isEmpty() ? "1" : sequence, null, attributes(dynamodb.get("Keys")),
                attributes(dynamodb.get("OldImage")), attributes(dynamodb.get("NewImage")));
        Optional<String> type;
        try {
            type = source.entityType();
        } catch (MalformedItemException e) {
            return false;
        }
        return type.isPresent() && DERIVATIONS.route(type.get()).equals(new Derivations.Skip("derived"));
    }

    // --- records as Lambda's filter sees them -------------------------------------------------------------------

    /** A stream record as the Lambda event carries it (and the filter reads it). */
    private ObjectNode record(String eventName, ObjectNode oldImage, ObjectNode newImage) {
        ObjectNode record = JSON.createObjectNode();
        record.put("eventID", "event-" + sequence.get());
        record.put("eventName", eventName);
        record.put("eventVersion", "1.1");
        record.put("eventSource", "aws:dynamodb");
        record.put("awsRegion", "us-east-1");
        ObjectNode dynamodb = record.putObject("dynamodb");
        dynamodb.put("ApproximateCreationDateTime", 1_767_322_800);
        ObjectNode source = newImage != null ? newImage : oldImage;
        ObjectNode keys = dynamodb.putObject("Keys");
        keys.set(TableSchema.PK, source.get(TableSchema.PK));
        keys.set(TableSchema.SK, source.get(TableSchema.SK));
        if (newImage != null) {
            dynamodb.set("NewImage", newImage);
        }
        if (oldImage != null) {
            dynamodb.set("OldImage", oldImage);
        }
        dynamodb.put("SequenceNumber", Long.toString(sequence.incrementAndGet()));
        dynamodb.put("SizeBytes", 120);
        dynamodb.put("StreamViewType", "NEW_AND_OLD_IMAGES");
        record.put("eventSourceARN", "arn:aws:dynamodb:us-east-1:123456789012:table/tally/stream/2026-01-01T00:00:00.000");
        return record;
    }

    /** An item in DynamoDB JSON: its key, its entity type attribute (none when null), and more attributes. */
    private static ObjectNode image(Key key, JsonNode entityType, Map<String, JsonNode> attributes) {
        ObjectNode image = JSON.createObjectNode();
        image.set(TableSchema.PK, s(key.pk()));
        image.set(TableSchema.SK, s(key.sk()));
        if (entityType != null) {
            image.set(TableSchema.ENTITY_TYPE, entityType);
        }
        attributes.forEach(image::set);
        return image;
    }

    /** The key of some item of the type: a type's key function takes the subject its derivation addresses it by. */
    private static Key sampleKey(DerivedType type) {
        for (String subject : List.of("0", "s1#2026-01-02", "u1#f1#term")) {
            try {
                return type.key(subject);
            } catch (RuntimeException e) {
                // not a subject of this type; try the next
            }
        }
        throw new AssertionError("no sample subject fits " + type + " (" + type.keyPattern() + ")");
    }

    private static Map<String, JsonNode> counters(DerivedType type) {
        Map<String, JsonNode> counters = new LinkedHashMap<>();
        REGISTRY.counters(type).forEach(counter -> counters.put(counter, n("3")));
        type.document().forEach(field -> counters.put(field, s("x")));
        return counters;
    }

    private static ObjectNode s(String value) {
        return JSON.createObjectNode().put("S", value);
    }

    private static ObjectNode n(String value) {
        return JSON.createObjectNode().put("N", value);
    }

    /** DynamoDB JSON as the SDK's attribute values, for the engine's classification; null stays null. */
    private static Map<String, AttributeValue> attributes(JsonNode item) {
        if (item == null || item.isNull()) {
            return null;
        }
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        item.fields().forEachRemaining(field -> values.put(field.getKey(), attribute(field.getValue())));
        return values;
    }

    private static AttributeValue attribute(JsonNode value) {
        Map.Entry<String, JsonNode> typed = value.fields().next();
        JsonNode v = typed.getValue();
        List<String> texts = new ArrayList<>();
        v.forEach(element -> texts.add(element.asText()));
        return switch (typed.getKey()) {
            case "S" -> AttributeValue.fromS(v.asText());
            case "N" -> AttributeValue.fromN(v.asText());
            case "BOOL" -> AttributeValue.fromBool(v.asBoolean());
            case "NULL" -> AttributeValue.fromNul(true);
            case "B" -> AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode(v.asText())));
            case "SS" -> AttributeValue.fromSs(texts);
            case "NS" -> AttributeValue.fromNs(texts);
            case "BS" -> AttributeValue.fromBs(texts.stream()
                    .map(text -> SdkBytes.fromByteArray(Base64.getDecoder().decode(text))).toList());
            case "M" -> AttributeValue.fromM(attributes(v));
            case "L" -> {
                List<AttributeValue> elements = new ArrayList<>();
                v.forEach(element -> elements.add(attribute(element)));
                yield AttributeValue.fromL(elements);
            }
            default -> throw new IllegalArgumentException("not a DynamoDB attribute value: " + value);
        };
    }
}
