package io.tally.domains.catalogue;

import static io.tally.core.derive.DerivationCase.RECORD_ID;
import static io.tally.core.derive.DerivationCase.deltas;
import static io.tally.core.derive.DerivationCase.event;
import static io.tally.core.derive.DerivationCase.with;
import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardSettings;
import io.tally.core.SharedCounter;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.DerivationCase;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.SharedStats;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class UserItemDerivationTest {
    /** The derivation as the registry joins it with the domain's views (its shared counts are a view's). */
    private static final Derivation DERIVATION = DomainRegistry.load().derivations(ShardSettings.DEFAULTS)
            .forType(Catalogue.USER_ITEM).orElseThrow();

    private static final Instant T1 = Instant.parse("2019-01-22T10:00:00.000Z");
    private static final Instant T2 = Instant.parse("2019-01-22T11:00:00.000Z");
    private static final Instant T3 = Instant.parse("2019-01-22T12:30:00.250Z");

    private static final UserItem ASSIGNED = item(ItemState.ASSIGNED, null, null, null, T1);
    private static final UserItem IN_PROGRESS = item(ItemState.IN_PROGRESS, 0.5, null, null, T2);
    private static final UserItem COMPLETED_CORRECT_LIVE = item(ItemState.COMPLETED, 1.0, true, true, T3);
    private static final UserItem COMPLETED_WRONG = item(ItemState.COMPLETED, 1.0, false, null, T3);
    private static final UserItem ORPHANED = item(ItemState.ORPHANED, 0.5, null, null, T3);

    private static final CounterRef COMPLETED = stats(Catalogue.USER_COMPLETED);
    private static final CounterRef CORRECT = stats(Catalogue.USER_CORRECT_GUESSES);
    private static final CounterRef LIVE = stats(Catalogue.USER_LIVE_COMPLETED);
    private static final CounterRef GLOBAL_COMPLETED = SharedStats.global(Catalogue.GLOBAL_COMPLETED);

    static Stream<DerivationCase> cases() {
        return Stream.of(
                new DerivationCase("insert_assigned_countsAssigned",
                        null, ASSIGNED.toItem(),
                        deltas(stats(Catalogue.USER_ASSIGNED), 1), Map.of(), List.of()),
                new DerivationCase("modify_assignedToInProgress_movesTheCount",
                        ASSIGNED.toItem(), IN_PROGRESS.toItem(),
                        deltas(stats(Catalogue.USER_ASSIGNED), -1, stats(Catalogue.USER_IN_PROGRESS), 1), Map.of(), List.of()),
                new DerivationCase("modify_progressOnly_noDeltasNoEvents",
                        IN_PROGRESS.toItem(), item(ItemState.IN_PROGRESS, 0.9, null, null, T2).toItem(),
                        Map.of(), Map.of(), List.of()),
                new DerivationCase("modify_inProgressToCompletedCorrectLive_countsAllAndAnnouncesItemCompleted",
                        IN_PROGRESS.toItem(), COMPLETED_CORRECT_LIVE.toItem(),
                        deltas(stats(Catalogue.USER_IN_PROGRESS), -1, COMPLETED, 1, CORRECT, 1, LIVE, 1, GLOBAL_COMPLETED, 1),
                        Map.of(),
                        List.of(event(CatalogueEvents.ITEM_COMPLETED.detailType(), "3", "userId", "8790", "itemId", "3",
                                "correct", true, "live", true, "completedAt", "2019-01-22T12:30:00.250Z"))),
                new DerivationCase("modify_inProgressToCompletedWrongNotLive_countsCompletedOnly",
                        IN_PROGRESS.toItem(), COMPLETED_WRONG.toItem(),
                        deltas(stats(Catalogue.USER_IN_PROGRESS), -1, COMPLETED, 1, GLOBAL_COMPLETED, 1),
                        Map.of(),
                        List.of(event(CatalogueEvents.ITEM_COMPLETED.detailType(), "3", "userId", "8790", "itemId", "3",
                                "correct", false, "live", false, "completedAt", "2019-01-22T12:30:00.250Z"))),
                new DerivationCase("insert_alreadyCompleted_countsAndAnnouncesItemCompleted",
                        null, COMPLETED_CORRECT_LIVE.toItem(),
                        deltas(COMPLETED, 1, CORRECT, 1, LIVE, 1, GLOBAL_COMPLETED, 1),
                        Map.of(),
                        List.of(event(CatalogueEvents.ITEM_COMPLETED.detailType(), "3", "userId", "8790", "itemId", "3",
                                "correct", true, "live", true, "completedAt", "2019-01-22T12:30:00.250Z"))),
                new DerivationCase("modify_completedRewrittenWithOtherFlags_adjustsFlagsWithoutEvent",
                        COMPLETED_CORRECT_LIVE.toItem(), COMPLETED_WRONG.toItem(),
                        deltas(CORRECT, -1, LIVE, -1), Map.of(), List.of()),
                new DerivationCase("modify_inProgressToOrphaned_movesTheCount",
                        IN_PROGRESS.toItem(), ORPHANED.toItem(),
                        deltas(stats(Catalogue.USER_IN_PROGRESS), -1, stats(Catalogue.USER_ORPHANED), 1), Map.of(), List.of()),
                new DerivationCase("remove_completed_uncountsEverythingSilently",
                        COMPLETED_CORRECT_LIVE.toItem(), null,
                        deltas(COMPLETED, -1, CORRECT, -1, LIVE, -1, GLOBAL_COMPLETED, -1), Map.of(), List.of()),
                new DerivationCase("rewrite_unchangedCompleted_noDeltasNoEvents",
                        COMPLETED_CORRECT_LIVE.toItem(), COMPLETED_CORRECT_LIVE.toItem(),
                        Map.of(), Map.of(), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void change_tableCase_derivesExpectedDeltasDocumentsAndEvents(DerivationCase change) {
        change.assertDerivedBy(DERIVATION);
    }

    static Stream<Arguments> malformedImages() {
        Map<String, AttributeValue> item = ASSIGNED.toItem();
        return Stream.of(
                Arguments.of(Named.of("a list entry, not the authoritative item", COMPLETED_CORRECT_LIVE.toEntryItem())),
                Arguments.of(Named.of("unknown state", with(item, "state", AttributeValue.fromS("paused")))),
                Arguments.of(Named.of("missing enteredAt", with(item, "enteredAt", null))),
                Arguments.of(Named.of("correct not a boolean", with(item, "correct", AttributeValue.fromS("yes")))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedImages")
    void derive_malformedImage_isAProblemAndContributesNothing(Map<String, AttributeValue> image) {
        DerivationCase.assertUnreadable(DERIVATION, image);
    }

    @Test
    void standard_listEntryRecord_derivesNothing() {
        Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);

        IntendedChanges changes = derivations.derive(Catalogue.USER_ITEM_ENTRY, RECORD_ID,
                IN_PROGRESS.toEntryItem(), COMPLETED_CORRECT_LIVE.toEntryItem());

        assertThat(derivations.forType(Catalogue.USER_ITEM_ENTRY)).isEmpty();
        assertThat(changes.counterDeltas()).isEmpty();
        assertThat(changes.documents()).isEmpty();
        assertThat(changes.events()).isEmpty();
    }

    private static UserItem item(ItemState state, Double progress, Boolean correct, Boolean live, Instant enteredAt) {
        return new UserItem("8790", "3", state, 99, progress, correct, live, enteredAt, enteredAt);
    }

    private static CounterRef stats(SharedCounter counter) {
        return SharedStats.user("8790", counter);
    }
}
