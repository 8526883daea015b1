package io.tally.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.DeadLetterItem;
import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.SharedCounter;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.CounterEvents;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.events.DomainEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The registry with domains of its own: none of the application's, so that it tests only the putting together. */
class DomainRegistryTest {
    static final DerivedType SHARED = DerivedType.named("Shared").key("S#<id> / #S#", id -> new Key("S#" + id, "#S#"))
            .openCounters().build();
    static final EntityType THING = EntityType.base("Thing");
    static final EntityType OTHER = EntityType.base("Other");

    /** A domain that declares what it is given. */
    record TestDomain(String name, List<String> requires, List<EntityType> entityTypes, List<DerivedType> derivedTypes,
                      List<SharedCounter> sharedCounters, List<Lookup> lookups, List<Derivation> derivations,
                      List<CounterEvents> announcers) implements Domain {
        static TestDomain named(String name, String... requires) {
            return new TestDomain(name, List.of(requires), List.of(), List.of(), List.of(), List.of(), List.of(),
                    List.of());
        }

        TestDomain with(EntityType type) {
            return new TestDomain(name, requires, List.of(type), derivedTypes, sharedCounters, lookups, derivations,
                    announcers);
        }

        TestDomain declaring(DerivedType type) {
            return new TestDomain(name, requires, entityTypes, List.of(type), sharedCounters, lookups, derivations,
                    announcers);
        }

        TestDomain counting(SharedCounter... counters) {
            return new TestDomain(name, requires, entityTypes, derivedTypes, List.of(counters), lookups, derivations,
                    announcers);
        }

        TestDomain deriving(Derivation derivation) {
            return new TestDomain(name, requires, entityTypes, derivedTypes, sharedCounters, lookups,
                    List.of(derivation), announcers);
        }

        TestDomain announcing(CounterEvents announcer) {
            return new TestDomain(name, requires, entityTypes, derivedTypes, sharedCounters, lookups, derivations,
                    List.of(announcer));
        }

        @Override
        public List<Derivation> derivations(ShardSettings shards) {
            return derivations;
        }

        @Override
        public List<CounterEvents> counterEvents(DomainRegistry registry) {
            return announcers;
        }
    }

    @Test
    void domains_comeAfterWhatTheyRequire_otherwiseInTheOrderFound() {
        DomainRegistry registry = DomainRegistry.of(TestDomain.named("b", "kernel"), TestDomain.named("c"),
                TestDomain.named("kernel"), TestDomain.named("a", "b"));

        assertThat(registry.domains()).extracting(Domain::name).containsExactly("kernel", "b", "c", "a");
    }

    @Test
    void sharedCounters_inTheDomainsOrder_eachAtItsPath() {
        SharedCounter second = SharedCounter.of(SHARED, "second").shownAt("group", "second");
        DomainRegistry registry = DomainRegistry.of(TestDomain.named("late", "kernel").counting(second),
                TestDomain.named("kernel").declaring(SHARED).counting(SharedCounter.of(SHARED, "first")));

        assertThat(registry.counters(SHARED)).containsExactly("first", "second");
        assertThat(registry.sharedCounters(SHARED).get(1).path()).containsExactly("group", "second");
        assertThat(registry.declaresCounter(SHARED, "second")).isTrue();
        assertThat(registry.declaresCounter(SHARED, "third")).isFalse();
    }

    @Test
    void entityTypes_everyDomainsAndTheBookkeeping() {
        DomainRegistry registry = DomainRegistry.of(TestDomain.named("kernel").declaring(SHARED).with(THING));

        assertThat(registry.entityType("Thing")).contains(THING);
        assertThat(registry.entityType("Shared")).contains(SHARED.entityType());
        assertThat(registry.derivedType("Shared")).contains(SHARED);
        assertThat(registry.entityType("DeadLetter")).contains(DeadLetterItem.TYPE);
        assertThat(registry.derivedType("DeadLetter")).isEmpty();
        assertThat(registry.entityType("Martian")).isEmpty();
        assertThat(registry.entityType(null)).isEmpty();
    }

    @Test
    void keyPatterns_mustDescribeTheKeysTheirFunctionsMake_andTwoTypesMayNotShareOne() {
        DerivedType misdescribed = DerivedType.named("Misdescribed").key("ORG#<orgId> / #STATS#",
                id -> new Key("ORGS#" + id, "#STATS#")).counters("n").build();
        assertThatThrownBy(() -> DomainRegistry.of(TestDomain.named("a").declaring(misdescribed)))
                .hasMessage("domain 'a' (" + TestDomain.class.getName() + "): Misdescribed: its key function "
                        + "makes 'ORGS#s0 / #STATS#' of 's0', which its pattern 'ORG#<orgId> / #STATS#' does not describe");
        DerivedType refusing = DerivedType.named("Refusing").key("DAY#<songId> / <day>", subject -> {
            throw new IllegalArgumentException("not <songId>#<day>#<hour>: " + subject);
        }).counters("n").build();
        assertThatThrownBy(() -> DomainRegistry.of(TestDomain.named("a").declaring(refusing)))
                .hasMessageContaining("its key function refuses 's0#2026-01-02', a subject its pattern")
                .hasMessageContaining("not <songId>#<day>#<hour>");
        DerivedType halfOnly = DerivedType.named("HalfOnly").key("ORG#<orgId>", id -> new Key("ORG#" + id, "x"))
                .counters("n").build();
        assertThatThrownBy(() -> DomainRegistry.of(TestDomain.named("a").declaring(halfOnly)))
                .hasMessageContaining("is not '<partition key> / <sort key>'");

        DerivedType first = DerivedType.named("First").key("TEAM#<teamId> / #STATS#", id -> new Key("TEAM#" + id,
                "#STATS#")).counters("n").build();
        DerivedType second = DerivedType.named("Second").key("TEAM#<id> / #STATS#", id -> new Key("TEAM#" + id,
                "#STATS#")).counters("m").build();
        assertThatThrownBy(() -> DomainRegistry.of(TestDomain.named("a").declaring(first),
                TestDomain.named("b").declaring(second)))
                .hasMessageContaining("domain 'b'")
                .hasMessageContaining("Second and First have keys in common (patterns 'TEAM#<id> / "
                        + "#STATS#' and 'TEAM#<teamId> / #STATS#'): each could write the other's items");

        // Patterns that differ, but one's keys are the other's: a team's stats and a team's entry of any kind.
        DerivedType anyKind = DerivedType.named("AnyKind").key("TEAM#<teamId> / <kind>", subject -> new Key(
                "TEAM#" + subject.split("#")[0], subject.split("#")[1])).counters("k").build();
        assertThatThrownBy(() -> DomainRegistry.of(TestDomain.named("a").declaring(first),
                TestDomain.named("b").declaring(anyKind)))
                .hasMessageContaining("AnyKind and First have keys in common (patterns 'TEAM#<teamId> / <kind>'");

        // Described and apart: both load; so does a type keyed by its entity (its function refuses any subject).
        DerivedType days = DerivedType.named("Days").key("SONG#<songId> / DAY#<yyyy-MM-dd>",
                subject -> new Key("SONG#" + subject.split("#")[0], "DAY#" + subject.split("#")[1])).counters("n")
                .build();
        DerivedType byEntity = DerivedType.named("ByEntity").key("CARDS#<k> / <postId>", subject -> {
            throw new UnsupportedOperationException("keyed by its entity");
        }).document("title").build();
        assertThat(DomainRegistry.of(TestDomain.named("a").declaring(first), TestDomain.named("b").declaring(days),
                TestDomain.named("c").declaring(byEntity)).derivedType("Days")).isPresent();
        // A function that parses its subject (a date, a year) is given values of those shapes before it is refused.
        DerivedType parsed = DerivedType.named("Parsed").key("SONG#<songId> / DAY#<date>", subject -> new Key(
                "SONG#" + subject.split("#")[0], "DAY#" + java.time.LocalDate.parse(subject.split("#")[1])))
                .counters("n").build();
        DerivedType year = DerivedType.named("Year").key("YEAR#<yyyy> / #STATS#", subject -> new Key(
                "YEAR#" + java.time.Year.parse(subject), "#STATS#")).counters("n").build();
        assertThat(DomainRegistry.of(TestDomain.named("a").declaring(parsed), TestDomain.named("b").declaring(year))
                .derivedType("Year")).isPresent();
    }

    @Test
    void invalidDeclarations_areRefusedNamingTheDomain() {
        assertThatThrownBy(() -> DomainRegistry.of(TestDomain.named("a", "missing")))
                .hasMessageContaining("domain 'a'").hasMessageContaining("requires the domain 'missing'");
        assertThatThrownBy(() -> DomainRegistry.of(TestDomain.named("a"), TestDomain.named("a")))
                .hasMessageContaining("two domains are named 'a'");
        assertThatThrownBy(() -> DomainRegistry.of(TestDomain.named("a", "b"), TestDomain.named("b", "a")))
                .hasMessageContaining("require it in turn");
        assertThatThrownBy(() -> DomainRegistry.of(TestDomain.named("Blog")))
                .hasMessageContaining("lower-case word");
        assertThatThrownBy(() -> DomainRegistry.of(TestDomain.named("a").with(THING), TestDomain.named("b").with(THING)))
                .hasMessageContaining("domain 'b'").hasMessageContaining("Thing is declared twice");
        assertThatThrownBy(() -> DomainRegistry.of(TestDomain.named("a").counting(SharedCounter.of(SHARED, "x"))))
                .hasMessageContaining("no domain of the registry declares as shared");
        assertThatThrownBy(() -> DomainRegistry.of(TestDomain.named("a").declaring(SHARED)
                        .counting(SharedCounter.of(SHARED, "x")), TestDomain.named("b").counting(SharedCounter.of(SHARED, "x"))))
                .hasMessageContaining("two domains declare the shared counter 'x'");
        assertThatThrownBy(() -> DomainRegistry.of(TestDomain.named("a").with(EntityType.derivedType("Derived"))))
                .hasMessageContaining("is a derived type");
    }

    @Test
    void lookup_ofAnotherDomainsEntity_orAClearError() {
        Domain catalogue = new TestDomain("catalogue", List.of(), List.of(THING), List.of(), List.of(),
                List.of(new Lookup(THING, id -> new Key("THING#" + id, "#THING#"))), List.of(), List.of());

        DomainRegistry registry = DomainRegistry.of(catalogue);

        assertThat(registry.lookup("Thing").key("7")).isEqualTo(new Key("THING#7", "#THING#"));
        assertThatThrownBy(() -> registry.lookup("Other")).hasMessageContaining("no domain declares a lookup of 'Other'");
    }

    @Test
    void derive_addsTheCounterEventsOfEveryDomain_andFlagsAnUndeclaredSharedCounter() {
        Derivation counting = new Derivation() {
            @Override
            public EntityType entityType() {
                return THING;
            }

            @Override
            public IntendedChanges derive(String eventId, Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> oldImage,
                                          Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> newImage) {
                Contribution after = Contribution.builder()
                        .count(CounterRef.of(SHARED, "s1", "declared"), 1)
                        .count(CounterRef.of(SHARED, "s1", "undeclared"), 1)
                        .build();
                return IntendedChanges.between(Contribution.NONE, after);
            }
        };
        CounterEvents announcer = (eventId, deltas) -> List.of(new DomainEvent(eventId + ":Counted", "Counted",
                Map.of("counters", deltas.size())));
        DomainRegistry registry = DomainRegistry.of(TestDomain.named("kernel").declaring(SHARED)
                .counting(SharedCounter.of(SHARED, "declared")).announcing(announcer), TestDomain.named("things")
                .with(THING).deriving(counting));

        IntendedChanges changes = registry.derivations(ShardSettings.DEFAULTS).derive(THING, "e1", null, Map.of());

        assertThat(changes.events()).extracting(DomainEvent::detailType).containsExactly("Counted");
        assertThat(changes.events().get(0).detail()).containsEntry("counters", 2);
        assertThat(changes.problems()).containsExactly("counter 'undeclared' of Shared is declared by no domain");
        assertThat(registry.derivations(ShardSettings.DEFAULTS).derive(OTHER, "e2", null, Map.of()))
                .isEqualTo(IntendedChanges.NONE);
    }
}
