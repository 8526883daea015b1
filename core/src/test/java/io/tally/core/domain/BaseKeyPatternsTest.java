package io.tally.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
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
}
