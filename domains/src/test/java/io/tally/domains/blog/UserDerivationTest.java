package io.tally.domains.blog;

import static io.tally.core.derive.DerivationCase.deltas;
import static io.tally.core.derive.DerivationCase.with;

import io.tally.core.ShardSettings;
import io.tally.core.TableSchema;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.DerivationCase;
import io.tally.core.derive.Document;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.User;
import io.tally.core.users.UserDerivation;
import io.tally.core.users.Users;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class UserDerivationTest {
    /** The derivation as the registry joins it with the domain's views (its shared counts are a view's). */
    private static final Derivation DERIVATION = DomainRegistry.load().derivations(ShardSettings.DEFAULTS)
            .forType(io.tally.core.users.Users.USER).orElseThrow();

    private static final Instant T1 = Instant.parse("2019-01-22T10:28:49.930Z");
    private static final Instant T2 = Instant.parse("2019-01-23T08:00:00.000Z");
    private static final User USER = new User("8790", "Ada", "ada@example.com", T1, T1, 1);
    private static final User RENAMED = new User("8790", "Ada L.", "ada@example.com", T1, T2, 2);

    private static final CounterRef GLOBAL_USERS =
            new CounterRef(Users.globalStatsKey(0), Users.GLOBAL_STATS, Users.GLOBAL_USERS.attribute());
    /** The stats item's document, at twice the user's version. */
    private static Document statsDocument(User user) {
        return new Document(Users.USER_STATS, Map.of(Users.USER_STATS_USER_ID, AttributeValue.fromS("8790")),
                2 * user.version());
    }

    static Stream<DerivationCase> cases() {
        return Stream.of(
                new DerivationCase("insert_newUser_countsGloballyAndCreatesStatsItem",
                        null, USER.toItem(),
                        deltas(GLOBAL_USERS, 1),
                        Map.of(Users.statsKey("8790"), statsDocument(USER)),
                        List.of()),
                new DerivationCase("update_renamedUser_noDeltasStatsDocumentUnchanged",
                        USER.toItem(), RENAMED.toItem(),
                        Map.of(),
                        Map.of(Users.statsKey("8790"), statsDocument(RENAMED)),
                        List.of()),
                new DerivationCase("remove_user_uncountsAndRemovesStatsDocument",
                        USER.toItem(), null,
                        deltas(GLOBAL_USERS, -1),
                        Map.of(Users.statsKey("8790"), Document.removed(Users.USER_STATS, 3)),
                        List.of()),
                new DerivationCase("rewrite_unchangedImage_noDeltasNoEvents",
                        USER.toItem(), USER.toItem(),
                        Map.of(),
                        Map.of(Users.statsKey("8790"), statsDocument(USER)),
                        List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void change_tableCase_derivesExpectedDeltasDocumentsAndEvents(DerivationCase change) {
        change.assertDerivedBy(DERIVATION);
    }

    static Stream<Arguments> malformedImages() {
        Map<String, AttributeValue> user = USER.toItem();
        return Stream.of(
                Arguments.of(Named.of("missing userId", with(user, "userId", null))),
                Arguments.of(Named.of("version not an integer", with(user, "version", AttributeValue.fromN("1.5")))),
                Arguments.of(Named.of("unknown entity type", with(user, TableSchema.ENTITY_TYPE, AttributeValue.fromS("Robot")))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedImages")
    void derive_malformedImage_isAProblemAndContributesNothing(Map<String, AttributeValue> image) {
        DerivationCase.assertUnreadable(DERIVATION, image);
    }

}
