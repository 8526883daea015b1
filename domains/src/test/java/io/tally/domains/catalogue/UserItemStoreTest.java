package io.tally.domains.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.http.ApiException;
import io.tally.core.http.ErrorCode;
import io.tally.core.store.ChangedMeanwhile;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** How the refusals of a user item transaction become the client's answer, a definite one before a retry. */
class UserItemStoreTest {
    private static final Optional<Map<String, AttributeValue>> NOT_REFUSED = null;

    private static Optional<Map<String, AttributeValue>> seen(String attribute, String value) {
        return Optional.of(Map.of(attribute, AttributeValue.fromS(value)));
    }

    private static RuntimeException answer(boolean user, boolean item, Optional<Map<String, AttributeValue>> itemSeen,
                                           Optional<Map<String, AttributeValue>> entrySeen) {
        return UserItemStore.answer("u", "i", user, item, itemSeen, entrySeen);
    }

    private static ErrorCode codeOf(RuntimeException answer) {
        return answer instanceof ApiException api ? api.code() : null;
    }

    @Test
    void userMissing_isNotFound_beforeEverythingElse() {
        RuntimeException answer = answer(true, true, seen("state", "completed"), Optional.empty());
        assertThat(codeOf(answer)).isEqualTo(ErrorCode.NOT_FOUND);
        assertThat(answer.getMessage()).contains("user 'u'");
    }

    @Test
    void catalogueItemMissing_isNotFound() {
        RuntimeException answer = answer(false, true, NOT_REFUSED, NOT_REFUSED);
        assertThat(codeOf(answer)).isEqualTo(ErrorCode.NOT_FOUND);
        assertThat(answer.getMessage()).contains("'i'");
    }

    @Test
    void authoritativeCompletedMeanwhile_isConflict() {
        RuntimeException answer = answer(false, false, seen("state", "completed"), NOT_REFUSED);
        assertThat(codeOf(answer)).isEqualTo(ErrorCode.CONFLICT);
        assertThat(answer.getMessage()).contains("completed is final");
    }

    @Test
    void authoritativeChangedMeanwhile_asksForARetry() {
        assertThat(answer(false, false, seen("state", "orphaned"), NOT_REFUSED))
                .isInstanceOf(ChangedMeanwhile.class);
        assertThat(answer(false, false, Optional.empty(), NOT_REFUSED))
                .isInstanceOf(ChangedMeanwhile.class);
    }

    @Test
    void slotHeldByAnotherItem_isConflictNamingIt_orSayingAnotherWhenItWasGone() {
        RuntimeException answer = answer(false, false, NOT_REFUSED, seen("itemId", "item-3"));
        assertThat(codeOf(answer)).isEqualTo(ErrorCode.CONFLICT);
        assertThat(answer.getMessage()).contains("'item-3'");
        assertThat(answer(false, false, NOT_REFUSED, Optional.empty()).getMessage()).contains("another item");
    }

    @Test
    void slotHeldAndItemChanged_prefersTheDefiniteConflict() {
        assertThat(codeOf(answer(false, false, seen("state", "assigned"), seen("itemId", "item-3"))))
                .isEqualTo(ErrorCode.CONFLICT);
    }

    @Test
    void noConditionRefused_answersNothing_soTheCancellationPropagates() {
        assertThat(answer(false, false, NOT_REFUSED, NOT_REFUSED)).isNull();
    }
}
