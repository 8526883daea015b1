package io.tally.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DerivedTypeTest {
    private static final DerivedType TAGS = DerivedType.named("TagStats")
            .key("TAG#<tagId> / #STATS#", tagId -> new Key("TAG#" + tagId, "#STATS#"))
            .counters("links")
            .counterFamily("type:")
            .document("tagId", "name")
            .indexKeys("byName")
            .build();

    @Test
    void declaration_answersWhatEachAttributeIs() {
        assertThat(TAGS.entityType()).isEqualTo(EntityType.derivedType("TagStats"));
        assertThat(TAGS.key("t1")).isEqualTo(new Key("TAG#t1", "#STATS#"));
        assertThat(TAGS.isCounter("links")).isTrue();
        assertThat(TAGS.isCounter("type:image")).isTrue();
        assertThat(TAGS.isCounter("name")).isFalse();
        assertThat(TAGS.isDocument("name")).isTrue();
        assertThat(TAGS.isDocument("byName")).isTrue();
        assertThat(TAGS.indexKeys()).containsExactly("byName");
        assertThat(TAGS.attributes()).containsExactly("links", "tagId", "name", "byName");
        assertThat(TAGS.declares("wm_abc")).isFalse();
        assertThat(TAGS.declares("srcRev")).isFalse();
    }

    @Test
    void declaration_attributeBothCounterAndDocument_isRefused() {
        assertThatThrownBy(() -> DerivedType.named("Bad").key("k", id -> new Key(id, id))
                .counters("n").document("n").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'n' twice");
    }

    @Test
    void declaration_reservedAttribute_isRefused() {
        for (String reserved : new String[] {"pk", "sk", "entityType", "wm_shard", "srcRev"}) {
            assertThatThrownBy(() -> DerivedType.named("Bad").key("k", id -> new Key(id, id)).counters(reserved).build())
                    .as(reserved).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
        }
    }

    @Test
    void declaration_attributeInsideACounterFamily_isRefused() {
        assertThatThrownBy(() -> DerivedType.named("Bad").key("k", id -> new Key(id, id))
                .counterFamily("tag:").document("tag:name").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("counter family");
    }

    @Test
    void declaration_withoutKey_isRefused() {
        assertThatThrownBy(() -> DerivedType.named("Bad").counters("n").build()).isInstanceOf(NullPointerException.class);
    }

    @Test
    void slotted_keysBySlot_andNamesTheWholeWithAStar() {
        DerivedType totals = DerivedType.named("Totals").key("TOTALS#<slot> / #STATS#",
                slot -> new Key("TOTALS#" + slot, "#STATS#")).counters("n").slotted().build();

        assertThat(totals.isSlotted()).isTrue();
        assertThat(totals.slotKey(3)).isEqualTo(new Key("TOTALS#3", "#STATS#"));
        assertThat(totals.key(DerivedType.ALL_SLOTS)).isEqualTo(new Key("TOTALS#*", "#STATS#"));
        assertThat(totals.inSlot(totals.slotKey(3), DerivedType.ALL_SLOTS)).isEqualTo(new Key("TOTALS#*", "#STATS#"));
        assertThat(TAGS.isSlotted()).isFalse();
        assertThatThrownBy(() -> TAGS.slotKey(0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void slotted_withASubject_eachSubjectInEverySlot_theSlotEndingThePartitionKey() {
        DerivedType days = DerivedType.named("Days").key("DAYS#<k> / DAY#<day>", day -> new Key("DAYS#0", "DAY#" + day))
                .counters("n").slotted().build();

        Key addressed = days.key("2026-11-27");

        assertThat(days.inSlot(addressed, "7")).isEqualTo(new Key("DAYS#7", "DAY#2026-11-27"));
        assertThat(days.inSlot(days.inSlot(addressed, "7"), DerivedType.ALL_SLOTS))
                .isEqualTo(new Key("DAYS#*", "DAY#2026-11-27"));
    }

    @Test
    void shared_partialsSitBesideTheBaseItem_andNameItBack() {
        DerivedType stats = DerivedType.named("Stats").key("S#<id> / #STATS#", id -> new Key("S#" + id, "#STATS#"))
                .counters("n").shared().build();
        Key base = stats.key("a");

        Key partial = stats.partial(base, "k5sxg2lom4qgs3tf");

        assertThat(stats.isShared()).isTrue();
        assertThat(stats.isSlotted()).isFalse();
        assertThat(partial).isEqualTo(new Key("S#a", "#STATS#~p~k5sxg2lom4qgs3tf"));
        assertThat(partial.sk()).startsWith(base.sk()).isLessThan(PartialKeys.partialsUpTo(base.sk()));
        assertThat(PartialKeys.isPartial(partial)).isTrue();
        assertThat(PartialKeys.isPartial(base)).isFalse();
        assertThat(PartialKeys.baseOf(partial)).isEqualTo(base);
        assertThat(PartialKeys.baseOf(base)).isEqualTo(base);
        assertThat(PartialKeys.partialToken(partial)).isEqualTo("k5sxg2lom4qgs3tf");
        assertThat(stats.whole(partial)).isEqualTo(base);
        assertThatThrownBy(() -> TAGS.partial(TAGS.key("a"), "k5sxg2lom4qgs3tf"))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void slotted_isShared_itsWholeNamesEverySlotAndPartial() {
        DerivedType totals = DerivedType.named("Totals").key("TOTALS#<slot> / #STATS#",
                slot -> new Key("TOTALS#" + slot, "#STATS#")).counters("n").slotted().build();

        assertThat(totals.isShared()).isTrue();
        assertThat(totals.whole(totals.partial(totals.slotKey(2), "abc"))).isEqualTo(new Key("TOTALS#*", "#STATS#"));
    }

    @Test
    void slotted_whosePartitionKeyDoesNotEndWithTheSlot_isRefused() {
        assertThatThrownBy(() -> DerivedType.named("Bad").key("k", day -> new Key("DAYS", "DAY#" + day))
                .counters("n").slotted().build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ends with its slot");
    }

    @Test
    void slotted_withADocument_isRefused() {
        assertThatThrownBy(() -> DerivedType.named("Bad").key("k", id -> new Key("B#" + id, "s"))
                .counters("n").document("name").slotted().build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("counters only");
    }
}
