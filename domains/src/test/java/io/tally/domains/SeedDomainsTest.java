package io.tally.domains;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.domain.Domain;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.Users;
import io.tally.domains.blog.Blog;
import io.tally.domains.catalogue.Catalogue;
import org.junit.jupiter.api.Test;

/** The seed domains as the functions find them: through META-INF/services, after the kernel. */
class SeedDomainsTest {
    private static final DomainRegistry REGISTRY = DomainRegistry.load();

    @Test
    void load_findsTheKernelThenTheSeedDomainsInTheirServiceFilesOrder() {
        assertThat(REGISTRY.domains()).extracting(Domain::name)
                .containsExactly("users", "blog", "catalogue", "orgs", "songs", "favourites");
    }

    @Test
    void sharedCounters_inTheContractsOrder() {
        // DOMAIN.md: GET /stats/users/{userId} and GET /stats/global.
        assertThat(REGISTRY.counters(Users.USER_STATS)).containsExactly("posts", "comments", "completed",
                "correctGuesses", "liveCompleted", "assigned", "inProgress", "orphaned");
        assertThat(REGISTRY.counters(Users.GLOBAL_STATS)).containsExactly("users", "postsCreated", "postsUpdated",
                "postsDeleted", "comments", "items", "completed", "orgs", "employees", "downloads", "favourites");
    }

    @Test
    void everyDeclaredType_isKnownByItsName() {
        for (Domain domain : REGISTRY.domains()) {
            for (EntityType type : domain.entityTypes()) {
                assertThat(REGISTRY.entityType(type.attributeValue())).contains(type);
            }
            for (DerivedType type : domain.derivedTypes()) {
                assertThat(REGISTRY.derivedType(type.name())).contains(type);
            }
        }
        assertThat(REGISTRY.derivedTypes()).startsWith(Users.USER_STATS, Users.GLOBAL_STATS)
                .contains(Blog.POST_PROJECTION, Catalogue.SELECTOR_ENTRY);
        assertThat(REGISTRY.lookup("CatalogueItem").key("55")).isEqualTo(
                io.tally.domains.catalogue.CatalogueKeys.catalogueItem("55"));
    }
}
