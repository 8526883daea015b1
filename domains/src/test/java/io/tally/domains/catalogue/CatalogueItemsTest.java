package io.tally.domains.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.MalformedItemException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The catalogue's items, attribute by attribute: what the table holds must not change with the way they are mapped. */
class CatalogueItemsTest {
    private static final Instant T1 = Instant.parse("2019-01-22T10:28:49.930Z");
    private static final Instant T2 = Instant.parse("2019-01-23T08:00:00Z");

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }

    @Test
    void catalogueItem_everyAttribute_theTitleOnlyWhenThere() {
        assertThat(new CatalogueItem("55", "T", 70, "global-cycle:5", T1, 7).toItem()).isEqualTo(Map.of(
                "pk", s("ITEM#55"), "sk", s("#METADATA#"), "entityType", s("CatalogueItem"), "itemId", s("55"),
                "title", s("T"), "score", n("70"), "itemSelector", s("global-cycle:5"),
                "updatedAt", s("2019-01-22T10:28:49.930Z"), "revision", n("7")));
        assertThat(new CatalogueItem("55", null, 70, "global-cycle:5", T1, 7).toItem()).doesNotContainKey("title")
                .hasSize(8);
    }

    @Test
    void userItem_everyAttribute_theOptionalOnesOnlyWhenThere() {
        UserItem item = new UserItem("8790", "3", ItemState.COMPLETED, 99, 0.00001, false, true, T1, T2);
        Map<String, AttributeValue> values = Map.of("entityType", s("UserItem"), "userId", s("8790"),
                "itemId", s("3"), "state", s("completed"), "score", n("99"), "progress", n("0.000010"),
                "correct", AttributeValue.fromBool(false), "live", AttributeValue.fromBool(true),
                "enteredAt", s("2019-01-22T10:28:49.930Z"), "updatedAt", s("2019-01-23T08:00:00.000Z"));
        Map<String, AttributeValue> authoritative = new HashMap<>(values);
        authoritative.put("pk", s("USER#8790"));
        authoritative.put("sk", s("useritem#3"));
        assertThat(item.toItem()).isEqualTo(authoritative);
        Map<String, AttributeValue> entry = new HashMap<>(values);
        entry.put("pk", s("USER#8790"));
        entry.put("sk", s("item:completed:2019-01-22T10:28:49.930Z#3"));
        entry.put("entityType", s("UserItemEntry"));
        assertThat(item.toEntryItem()).isEqualTo(entry);
        assertThat(new UserItem("8790", "3", ItemState.ASSIGNED, 99, null, null, null, T1, T2).toItem())
                .doesNotContainKeys("progress", "correct", "live").hasSize(9);
    }

    @Test
    void userItem_unknownState_orAnotherEntity_isMalformed() {
        Map<String, AttributeValue> item = new HashMap<>(
                new UserItem("8790", "3", ItemState.ASSIGNED, 99, null, null, null, T1, T2).toItem());
        item.put("state", s("paused"));
        assertThatThrownBy(() -> UserItem.fromItem(item)).isInstanceOf(MalformedItemException.class)
                .hasMessageContaining("paused");
        assertThatThrownBy(() -> UserItem.fromItem(new CatalogueItem("55", "T", 70, "back-catalogue", T1, 7).toItem()))
                .isInstanceOf(MalformedItemException.class);
    }
}
