package io.tally.domains.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class UserItemChangeTest {
    private static final Instant T1 = Instant.parse("2019-01-22T10:00:00Z");
    private static final Instant T2 = Instant.parse("2019-01-22T11:00:00Z");
    private static final CatalogueItem ITEM = new CatalogueItem("item-3", null, 99, "back-catalogue", T1, 1);

    @Test
    void applyTo_newItem_entersNowWithGivenFieldsAndCatalogueScore() {
        UserItem next = new UserItemChange(ItemState.IN_PROGRESS, 0.87, null, true).applyTo("u", ITEM, null, T1);

        assertThat(next).isEqualTo(new UserItem("u", "item-3", ItemState.IN_PROGRESS, 99, 0.87, null, true, T1, T1));
    }

    @Test
    void applyTo_sameState_keepsEnteredAtAndAbsentFields() {
        UserItem current = new UserItem("u", "item-3", ItemState.IN_PROGRESS, 99, 0.5, true, false, T1, T1);

        UserItem next = new UserItemChange(ItemState.IN_PROGRESS, 0.87, null, null).applyTo("u", ITEM, current, T2);

        assertThat(next).isEqualTo(new UserItem("u", "item-3", ItemState.IN_PROGRESS, 99, 0.87, true, false, T1, T2));
    }

    @Test
    void applyTo_stateChanges_entersNowAndGivenFieldsReplace() {
        UserItem current = new UserItem("u", "item-3", ItemState.IN_PROGRESS, 99, 0.5, true, null, T1, T1);

        UserItem next = new UserItemChange(ItemState.COMPLETED, null, false, true).applyTo("u", ITEM, current, T2);

        assertThat(next).isEqualTo(new UserItem("u", "item-3", ItemState.COMPLETED, 99, 0.5, false, true, T2, T2));
    }

    @Test
    void applyTo_catalogueScoreChanged_takesTheCurrentScore() {
        UserItem current = new UserItem("u", "item-3", ItemState.ASSIGNED, 10, null, null, null, T1, T1);

        UserItem next = new UserItemChange(ItemState.ASSIGNED, null, null, null).applyTo("u", ITEM, current, T2);

        assertThat(next.score()).isEqualTo(99);
        assertThat(next.enteredAt()).isEqualTo(T1);
    }
}
