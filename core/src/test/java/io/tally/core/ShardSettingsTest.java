package io.tally.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.UsersDomain;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Shard counts as the domains declare them and the functions read them from their environment. */
class ShardSettingsTest {
    private static final ShardSetting SHELF = new ShardSetting("SHELF_LABEL_SHARDS", 6, "Partitions of shelves");
    /** An undeclared *_SHARDS variable is not read, whatever it holds. */
    private static final List<ShardSetting> DECLARED = List.of(ShardSettings.GLOBAL, SHELF);

    private static DeclaredDomain domain(String name, ShardSetting... settings) {
        return new DeclaredDomain(Declaration.of(name).entityTypes(EntityType.base("ShardSettings" + name))
                .shardSettings(settings)) {
        };
    }

    @Test
    void count_isTheOneGiven_elseTheSettingsDefault_andOnlyDeclaredVariablesAreRead() {
        ShardSettings settings = ShardSettings.fromEnvironment(Map.of("SHELF_LABEL_SHARDS", " 9 ", "OTHER", "x",
                "GLOBAL_SHARDS", " ", "UNDECLARED_SHARDS", "none"), DECLARED);
        assertThat(settings.count(SHELF)).isEqualTo(9);
        assertThat(settings.global()).isEqualTo(ShardSettings.DEFAULT);
        assertThat(ShardSettings.DEFAULTS.count(SHELF)).isEqualTo(6);
        assertThat(ShardSettings.DEFAULTS.with(SHELF, 2).count(SHELF)).isEqualTo(2);
        assertThat(ShardSettings.DEFAULTS.with(SHELF, 2)).isEqualTo(ShardSettings.fromEnvironment(Map.of(
                "SHELF_LABEL_SHARDS", "2"), DECLARED));
    }

    @Test
    void undeclared_namesTheShardsVariablesNoSettingReads_soAMisspeltOneIsWarnedOf() {
        assertThat(ShardSettings.undeclared(Map.of("SHELF_LABEL_SHARDS", "2", "SHELF_LABLE_SHARDS", "3", "GLOBAL_SHARDS",
                "4", "TABLE_NAME", "t", "A_SHARDS", "x"), DECLARED)).containsExactly("A_SHARDS", "SHELF_LABLE_SHARDS");
        assertThat(ShardSettings.undeclared(Map.of("GLOBAL_SHARDS", "4"), DECLARED)).isEmpty();
    }

    @Test
    void aShardsVariableThatIsNoCount_stopsTheFunctionNamingIt() {
        for (String value : new String[] {"0", "101", "-1", "four", "4.5"}) {
            assertThatThrownBy(() -> ShardSettings.fromEnvironment(Map.of("SHELF_LABEL_SHARDS", value), DECLARED))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("SHELF_LABEL_SHARDS")
                    .hasMessageContaining("1..100");
        }
    }

    @Test
    void aSetting_isAnUpperCaseShardsVariable_withItsTemplateParameter() {
        assertThat(SHELF.parameter()).isEqualTo("ShelfLabelShards");
        assertThat(ShardSettings.GLOBAL.parameter()).isEqualTo("GlobalShards");
        assertThatThrownBy(() -> new ShardSetting("shelf_shards", 4, "x")).hasMessageContaining("_SHARDS");
        assertThatThrownBy(() -> new ShardSetting("SHELVES", 4, "x")).hasMessageContaining("_SHARDS");
        assertThatThrownBy(() -> new ShardSetting("SHELF_SHARDS", 101, "x")).hasMessageContaining("1..100");
    }

    @Test
    void theRegistrysSettings_areTallysThenEveryDomainsInOrder_eachDeclaredOnce() {
        DomainRegistry registry = DomainRegistry.of(new UsersDomain(), domain("shelf", SHELF));
        assertThat(registry.shardSettings()).containsExactly(ShardSettings.GLOBAL, SHELF);
        assertThatThrownBy(() -> DomainRegistry.of(domain("shelf", SHELF), domain("lamp", SHELF)))
                .hasMessageContaining("domain 'lamp'").hasMessageContaining("SHELF_LABEL_SHARDS is declared twice");
        assertThatThrownBy(() -> DomainRegistry.of(domain("lamp", new ShardSetting("GLOBAL_SHARDS", 4, "x"))))
                .hasMessageContaining("GLOBAL_SHARDS is declared twice");
    }
}
