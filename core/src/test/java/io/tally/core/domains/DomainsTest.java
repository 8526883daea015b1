package io.tally.core.domains;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.DeadLetterItem;
import io.tally.core.DerivedType;
import io.tally.core.DomainSchema;
import io.tally.core.EntityType;
import io.tally.core.blog.Blog;
import io.tally.core.catalogue.Catalogue;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class DomainsTest {
    @Test
    void sharedStats_countersComeFromTheDomainsInRegistrationOrder() {
        assertThat(Domains.USER_STATS.counters()).containsExactly("posts", "comments", "completed", "correctGuesses",
                "liveCompleted", "assigned", "inProgress", "orphaned");
        assertThat(Domains.GLOBAL_STATS.counters()).containsExactly("users", "postsCreated", "postsUpdated",
                "postsDeleted", "comments", "items", "completed", "orgs", "employees", "downloads", "favourites");
        assertThat(Domains.USER_STATS.document()).containsExactly(Domains.USER_STATS_USER_ID);
    }

    @Test
    void derivedTypes_everyDomainsTypeAndTheSharedOnes() {
        List<DerivedType> expected = Stream.concat(Stream.of(Domains.USER_STATS, Domains.GLOBAL_STATS),
                Domains.ALL.stream().flatMap(domain -> domain.derivedTypes().stream())).toList();
        assertThat(Domains.derivedTypes()).containsExactlyElementsOf(expected)
                .contains(Blog.POST_PROJECTION, Catalogue.SELECTOR_ENTRY);
    }

    @Test
    void entityType_knowsEveryDeclaredTypeByItsAttributeValue() {
        for (DomainSchema domain : Domains.ALL) {
            for (EntityType type : domain.baseTypes()) {
                assertThat(Domains.entityType(type.attributeValue())).contains(type);
            }
            for (DerivedType type : domain.derivedTypes()) {
                assertThat(Domains.derivedType(type.name())).contains(type);
                assertThat(Domains.entityType(type.name())).contains(type.entityType());
            }
        }
        assertThat(Domains.entityType("DeadLetter")).contains(DeadLetterItem.TYPE);
        assertThat(Domains.entityType("Martian")).isEmpty();
        assertThat(Domains.entityType(null)).isEmpty();
        assertThat(Domains.derivedType("DeadLetter")).isEmpty();
    }

    @Test
    void globalStatsKey_onePartitionPerShard() {
        assertThat(Domains.globalStatsKey(3).pk()).isEqualTo("GLOBAL#STATS#3");
        assertThat(Domains.GLOBAL_STATS.key("3")).isEqualTo(Domains.globalStatsKey(3));
        assertThat(Domains.USER_STATS.key("u1").pk()).isEqualTo("USER#u1");
    }
}
