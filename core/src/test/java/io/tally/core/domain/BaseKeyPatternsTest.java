package io.tally.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.http.Access;
import io.tally.core.users.Users;
import io.tally.core.users.UsersDomain;
import org.junit.jupiter.api.Test;

/** Base types' key patterns, held by the registry against every other type's, base and derived, of any domain. */
class BaseKeyPatternsTest {
    private static final EntityType SHELF = EntityType.base("KeyShelf");
    private static final EntityType LAMP = EntityType.base("KeyLamp");

    private static DeclaredDomain domain(Declaration declaration) {
        return new DeclaredDomain(declaration) {
        };
    }

    @Test
    void patternsThatNameDistinctItems_load_evenInOnePartition() {
        DomainRegistry registry = DomainRegistry.of(new UsersDomain(),
                domain(Declaration.of("shelf").entityTypes(SHELF).keyPatterns(SHELF, "USER#<userId> / SHELF#<id>",
                        "USER#<userId> / SHELF#<id>#<part>")),
                domain(Declaration.of("lamp").entityTypes(LAMP).keyPatterns(LAMP, "USER#<userId> / LAMP#<id>")));
        assertThat(registry.domains()).hasSize(3);
        assertThat(registry.domains().get(1).keyPatterns()).extracting(KeyPattern::pattern)
                .containsExactly("USER#<userId> / SHELF#<id>", "USER#<userId> / SHELF#<id>#<part>");
    }

    @Test
    void aBaseTypeWhoseKeysAnotherDomainsBaseTypeCouldHave_isRefusedNamingBoth() {
        assertThatThrownBy(() -> DomainRegistry.of(new UsersDomain(),
                domain(Declaration.of("shelf").entityTypes(SHELF).keyPatterns(SHELF, "USER#<userId> / #METADATA#<id>"))))
                .hasMessageContaining("domain 'shelf'")
                .hasMessageContaining("KeyShelf and " + Users.USER.attributeValue() + " have keys in common");
        assertThatThrownBy(() -> DomainRegistry.of(
                domain(Declaration.of("shelf").entityTypes(SHELF).keyPatterns(SHELF, "SHELF#<id> / <part>")),
                domain(Declaration.of("lamp").entityTypes(LAMP).keyPatterns(LAMP, "SHELF#<shelfId> / LAMP#<id>"))))
                .hasMessageContaining("domain 'lamp'").hasMessageContaining("KeyLamp and KeyShelf");
    }

    @Test
    void aBaseTypeWhoseKeysADerivedTypeCouldHave_isRefused() {
        DerivedType shelfStats = DerivedType.named("KeyShelfStats").key("SHELF#<shelfId> / #STATS#",
                id -> new Key("SHELF#" + id, "#STATS#")).counters("lamps").build();
        assertThatThrownBy(() -> DomainRegistry.of(domain(Declaration.of("shelf").entityTypes(SHELF)
                .derivedTypes(shelfStats).keyPatterns(SHELF, "SHELF#<id> / #<kind>#"))))
                .hasMessageContaining("KeyShelf and KeyShelfStats have keys in common");
    }

    @Test
    void aPatternOfAnotherDomainsType_orNotOfTheForm_isRefused() {
        assertThatThrownBy(() -> DomainRegistry.of(domain(Declaration.of("shelf").entityTypes(SHELF)
                .keyPatterns(LAMP, "LAMP#<id> / #"))))
                .hasMessageContaining("it declares the keys of KeyLamp, which is not one of its entity types");
        assertThatThrownBy(() -> DomainRegistry.of(domain(Declaration.of("shelf").entityTypes(SHELF)
                .keyPatterns(SHELF, "SHELF#<id>"))))
                .hasMessageContaining("its key pattern 'SHELF#<id>' is not '<partition key> / <sort key>'");
    }

    /** An entity of the resource tests. */
    record Shelf(String shelfId, String name) {
    }

    private static EntityResource<Shelf> shelves(java.util.function.Function<java.util.Map<String, String>, Key> key) {
        ItemSchema<Shelf> schema = ItemSchema.of(Shelf.class, SHELF, shelf -> new Key("SHELF#" + shelf.shelfId(),
                "#SHELF#")).build();
        return EntityResource.at("/shelves/{shelfId}", schema, key).get(Access.READ_SIDE, "A shelf");
    }

    @Test
    void lookupsAndResourcesWhoseKeysThePatternsDescribe_load() {
        DomainRegistry registry = DomainRegistry.of(domain(Declaration.of("shelf").entityTypes(SHELF)
                .keyPatterns(SHELF, "SHELF#<id> / #SHELF#")
                .lookup(SHELF, id -> new Key("SHELF#" + id, "#SHELF#"))
                .resources(shelves(ids -> new Key("SHELF#" + ids.get("shelfId"), "#SHELF#")))));
        assertThat(registry.lookup(SHELF.attributeValue()).key("a")).isEqualTo(new Key("SHELF#a", "#SHELF#"));
    }

    @Test
    void aLookupWhoseKeyNoPatternOfItsTypeDescribes_isRefused() {
        assertThatThrownBy(() -> DomainRegistry.of(domain(Declaration.of("shelf").entityTypes(SHELF)
                .keyPatterns(SHELF, "SHELF#<id> / #SHELF#")
                .lookup(SHELF, id -> new Key("SHELVES#" + id, "#SHELF#")))))
                .hasMessageContaining("domain 'shelf'")
                .hasMessageContaining("KeyShelf: its lookup of KeyShelf makes 'SHELVES#s0 / #SHELF#' of the id 's0',"
                        + " which its key pattern 'SHELF#<id> / #SHELF#' does not describe");
    }

    @Test
    void aResourceWhoseKeyNoPatternOfItsTypeDescribes_isRefused_andOneOfSeveralPatternsIsEnough() {
        assertThatThrownBy(() -> DomainRegistry.of(domain(Declaration.of("shelf").entityTypes(SHELF)
                .keyPatterns(SHELF, "SHELF#<id> / #SHELF#", "SHELF#<id> / #OLD#")
                .resources(shelves(ids -> new Key("SHELF#" + ids.get("shelfId"), "#META#"))))))
                .hasMessageContaining("its resource at /shelves/{shelfId} makes 'SHELF#s0 / #META#' of the ids"
                        + " {shelfId=s0}, which none of its key patterns [SHELF#<id> / #SHELF#, SHELF#<id> / #OLD#]"
                        + " describe");
        DomainRegistry.of(domain(Declaration.of("shelf").entityTypes(SHELF)
                .keyPatterns(SHELF, "SHELF#<id> / #SHELF#", "SHELF#<id> / #OLD#")
                .resources(shelves(ids -> new Key("SHELF#" + ids.get("shelfId"), "#OLD#")))));
    }

    @Test
    void aKeyFunctionThatRefusesTheMadeUpIds_orATypeWithoutPatterns_isNotHeldToThem() {
        DomainRegistry.of(domain(Declaration.of("shelf").entityTypes(SHELF)
                .keyPatterns(SHELF, "SHELF#<id> / #SHELF#")
                .lookup(SHELF, id -> {
                    throw new IllegalArgumentException("not an id of ours: " + id);
                })));
        DomainRegistry.of(domain(Declaration.of("shelf").entityTypes(SHELF)
                .lookup(SHELF, id -> new Key("ANYTHING#" + id, "#"))));
    }
}
