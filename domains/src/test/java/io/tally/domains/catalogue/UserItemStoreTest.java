package io.tally.domains.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.http.ApiException;
import io.tally.core.http.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** How a cancelled user item transaction becomes the client's answer (no network). */
class UserItemStoreTest {
    private static final CancellationReason NONE = CancellationReason.builder().code("None").build();
    private static final CancellationReason FAILED = CancellationReason.builder().code("ConditionalCheckFailed").build();

    private static TransactionCanceledException cancelled(CancellationReason... reasons) {
        return TransactionCanceledException.builder().message("cancelled").cancellationReasons(reasons).build();
    }

    private static CancellationReason failedWith(String attribute, String value) {
        return CancellationReason.builder().code("ConditionalCheckFailed")
                .item(Map.of(attribute, AttributeValue.fromS(value))).build();
    }

    private static CancellationReason[] reasons(int failing, CancellationReason reason) {
        List<CancellationReason> reasons = new ArrayList<>(List.of(NONE, NONE, NONE, NONE, NONE));
        reasons.set(failing, reason);
        return reasons.toArray(CancellationReason[]::new);
    }

    private static ErrorCode codeOf(TransactionCanceledException e) {
        try {
            UserItemStore.throwUnlessRetryable(e, "u", "i");
        } catch (ApiException api) {
            return api.code();
        }
        return null;
    }

    @Test
    void throwUnlessRetryable_userCheckFailed_isNotFound() {
        assertThat(codeOf(cancelled(reasons(UserItemRequests.USER_CHECK, FAILED)))).isEqualTo(ErrorCode.NOT_FOUND);
    }

    @Test
    void throwUnlessRetryable_catalogueItemCheckFailed_isNotFound() {
        assertThat(codeOf(cancelled(reasons(UserItemRequests.CATALOGUE_ITEM_CHECK, FAILED))))
                .isEqualTo(ErrorCode.NOT_FOUND);
    }

    @Test
    void throwUnlessRetryable_authoritativeCompletedMeanwhile_isConflict() {
        assertThat(codeOf(cancelled(reasons(UserItemRequests.AUTHORITATIVE_PUT, failedWith("state", "completed")))))
                .isEqualTo(ErrorCode.CONFLICT);
    }

    @Test
    void throwUnlessRetryable_authoritativeChangedMeanwhile_returnsToRetry() {
        assertThatCode(() -> UserItemStore.throwUnlessRetryable(
                cancelled(reasons(UserItemRequests.AUTHORITATIVE_PUT, failedWith("state", "orphaned"))), "u", "i"))
                .doesNotThrowAnyException();
    }

    @Test
    void throwUnlessRetryable_slotHeldByAnotherItem_isConflictNamingIt() {
        assertThatThrownBy(() -> UserItemStore.throwUnlessRetryable(
                cancelled(reasons(UserItemRequests.ENTRY_PUT, failedWith("itemId", "item-3"))), "u", "i"))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFLICT);
                    assertThat(e.getMessage()).contains("'item-3'");
                });
    }

    @Test
    void throwUnlessRetryable_slotHeldAndItemChanged_prefersTheDefiniteConflict() {
        CancellationReason[] reasons = reasons(UserItemRequests.ENTRY_PUT, FAILED);
        reasons[UserItemRequests.AUTHORITATIVE_PUT] = failedWith("state", "assigned");

        assertThat(codeOf(cancelled(reasons))).isEqualTo(ErrorCode.CONFLICT);
    }

    @Test
    void throwUnlessRetryable_transactionConflict_returnsToRetry() {
        CancellationReason conflict = CancellationReason.builder().code("TransactionConflict").build();

        assertThatCode(() -> UserItemStore.throwUnlessRetryable(cancelled(reasons(4, conflict)), "u", "i"))
                .doesNotThrowAnyException();
    }

    @Test
    void throwUnlessRetryable_throttled_propagatesTheException() {
        TransactionCanceledException throttled =
                cancelled(reasons(0, CancellationReason.builder().code("ThrottlingError").build()));

        assertThatThrownBy(() -> UserItemStore.throwUnlessRetryable(throttled, "u", "i")).isSameAs(throttled);
    }

    @Test
    void throwUnlessRetryable_noReasons_propagatesTheException() {
        TransactionCanceledException bare = TransactionCanceledException.builder().message("cancelled").build();

        assertThatThrownBy(() -> UserItemStore.throwUnlessRetryable(bare, "u", "i")).isSameAs(bare);
    }
}
