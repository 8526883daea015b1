package io.tally.core.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.MalformedItemException;
import io.tally.core.TableSchema;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.read.ShardMerge.Position;
import io.tally.core.users.Users;
import io.tally.domains.blog.Blog;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.catalogue.Catalogue;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

class DerivedReadsTest {
    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    /** The attribute names a projection expression asks for, its placeholders resolved. */
    private static List<String> projected(String expression, Map<String, String> names) {
        return Stream.of(expression.split(", ")).map(names::get).toList();
    }

    private static Position position(Map<String, AttributeValue> item) {
        return new Position(item.get("data").n(), DerivedReads.idAfter(item, "ITEM#"));
    }

    @Test
    void counters_userStats_areTheEntityTypeThenTheDeclaredCountersInReadOrder() {
        assertThat(DerivedReads.counters(Users.USER_STATS, DomainRegistry.load().counters(Users.USER_STATS)))
                .containsExactly("entityType",
                "posts", "comments", "completed", "correctGuesses", "liveCompleted", "assigned", "inProgress", "orphaned");
    }

    @Test
    void listed_derivedTypeWithIndexKeys_showsTheDocumentWithoutThemThenCountersThenKeyParts() {
        assertThat(DerivedReads.listed(Blog.POST_PROJECTION, TableSchema.PK, BlogKeys.STATUS_POSTED_AT)).containsExactly(
                "entityType", "postId", "userId", "title", "status", "createdAt", "updatedAt", "comments", "pk",
                "statusPostedAt");
        assertThat(DerivedReads.listed(Catalogue.SELECTOR_ENTRY, TableSchema.PK)).containsExactly(
                "entityType", "itemId", "title", "score", "pk");
    }

    @Test
    void get_namedAttributes_readsThemConsistentlyThroughPlaceholders() {
        var request = DerivedReads.get("t", Blog.POST_PROJECTION.key("p1"), List.of("entityType", "status"));
        assertThat(request.key()).isEqualTo(Map.of("pk", s("POSTREF#p1"), "sk", s("#PROJECTION#")));
        assertThat(request.consistentRead()).isTrue();
        assertThat(projected(request.projectionExpression(), request.expressionAttributeNames()))
                .containsExactly("entityType", "status");
    }

    @Test
    void idAfter_keyWithAnotherPrefix_isMalformed() {
        assertThatThrownBy(() -> DerivedReads.idAfter(Map.of("pk", s("USER#u1")), "ITEM#"))
                .isInstanceOf(MalformedItemException.class);
    }

    @Test
    void read_lastEvaluatedKey_becomesThePositionToResumeFrom() {
        Map<String, AttributeValue> item = Map.of("pk", s("ITEM#i1"), "data", AttributeValue.fromN("42"));
        var more = DerivedReads.read(QueryResponse.builder().items(item).lastEvaluatedKey(item).build(),
                DerivedReadsTest::position);
        var last = DerivedReads.read(QueryResponse.builder().items(item).build(), DerivedReadsTest::position);
        assertThat(more.items()).containsExactly(item);
        assertThat(more.lastEvaluated()).isEqualTo(new Position("42", "i1"));
        assertThat(last.lastEvaluated()).isNull();
    }
}
