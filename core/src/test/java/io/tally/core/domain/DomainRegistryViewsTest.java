package io.tally.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import io.tally.core.http.Access;
import io.tally.core.view.CounterView;
import io.tally.core.view.Existence;
import io.tally.core.view.View;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A domain's views in the registry: joined with the domain's own derivation of their type, and checked at load. */
class DomainRegistryViewsTest {
    /** A vote for an item; its entity type is declared here, not beside the views (class initialisation order). */
    public record Vote(String userId, String itemId, long weight) {
        static final EntityType TYPE = EntityType.base("RegistryViewsVote");
        static final ItemSchema<Vote> SCHEMA = ItemSchema.of(Vote.class, TYPE,
                vote -> new Key("USER#" + vote.userId(), "VOTE#" + vote.itemId())).build();
    }

    public record Voted(String itemId) {
    }

    public record ItemVotes(String itemId, long votes, long weight) {
    }

    static final EventType VOTED = EventType.of("RegistryViewsVoted", Voted.class);

    static final CounterView<Vote, ItemVotes> PER_ITEM = CounterView.over(Vote.SCHEMA, ItemVotes.class)
            .groupBy(ItemVotes::itemId, Vote::itemId).count(ItemVotes::votes).sum(ItemVotes::weight, Vote::weight)
            .read("/stats/items/{itemId}/votes", Access.READ_SIDE, Existence.of(EntityType.base("Item"), "item"))
            .build();

    /** The domain's own derivation of votes: it announces, and counts nothing. */
    static final class Announcing extends EntityDerivation<Vote> {
        Announcing() {
            super(Vote.TYPE, Vote.SCHEMA::fromItem);
        }

        @Override
        protected Contribution contribution(Vote vote) {
            return Contribution.NONE;
        }

        @Override
        protected List<DomainEvent> events(String eventId, Vote before, Vote after) {
            return created(before, after, vote -> DomainEvent.about(eventId, VOTED, vote.itemId(),
                    id -> new Voted(vote.itemId())));
        }
    }

    static final class Votes extends DeclaredDomain {
        Votes(CounterView<?, ?>... views) {
            super(Declaration.of("votes").entityTypes(Vote.TYPE).views(views).events(VOTED));
        }

        @Override
        public List<Derivation> derivations(ShardSettings shards) {
            return List.of(new Announcing());
        }
    }

    static final class Items extends DeclaredDomain {
        Items() {
            super(Declaration.of("items").lookup(EntityType.base("Item"), id -> new Key("ITEM#" + id, "#ITEM#")));
        }
    }

    @Test
    void derivations_theDomainsOwnAndItsViewsOfOneType_areOne_countingAndAnnouncing() {
        DomainRegistry registry = DomainRegistry.of(new Items(), new Votes(PER_ITEM));

        assertThat(registry.derivedTypes()).contains(PER_ITEM.type());
        IntendedChanges changes = registry.derivations(ShardSettings.DEFAULTS).derive(Vote.TYPE, "e1", null,
                Vote.SCHEMA.toItem(new Vote("u1", "i1", 3)));

        assertThat(changes.problems()).isEmpty();
        assertThat(changes.counterDeltas().values()).containsExactlyInAnyOrder(1L, 3L);
        assertThat(changes.events()).extracting(DomainEvent::detailType).containsExactly("RegistryViewsVoted");
    }

    @Test
    void load_aViewReadingTheExistenceOfAnEntityNoDomainLooksUp_failsNamingIt() {
        assertThatThrownBy(() -> DomainRegistry.of(new Votes(PER_ITEM)))
                .hasMessageContaining("reads whether a").hasMessageContaining("Item")
                .hasMessageContaining("no domain declares a lookup of it");
    }

    @Test
    void load_aViewOfAnotherDomainsEntityType_failsSayingSo() {
        Domain borrower = new DeclaredDomain(Declaration.of("borrower").requires("items").views(PER_ITEM)) {
        };
        Domain owner = new DeclaredDomain(Declaration.of("owner").entityTypes(Vote.TYPE)) {
        };
        assertThatThrownBy(() -> DomainRegistry.of(new Items(), owner, borrower))
                .hasMessageContaining("not one of the domain's own entity types");
    }

    @Test
    void load_aDomainWhoseViewsKeepTheirFiguresInTypesItDoesNotDeclare_fails() {
        Domain undeclared = new Domain() {
            @Override
            public String name() {
                return "handmade";
            }

            @Override
            public List<EntityType> entityTypes() {
                return List.of(Vote.TYPE);
            }

            @Override
            public List<View<?>> views() {
                return List.of(PER_ITEM);
            }
        };
        assertThatThrownBy(() -> DomainRegistry.of(new Items(), undeclared))
                .hasMessageContaining("keeps its figures in").hasMessageContaining("does not declare");
    }

    @Test
    void derivations_anAnnouncementAndTheViewsAndTheDomainsOwn_ofOneType_areOne() {
        Domain declared = new DeclaredDomain(Declaration.of("votes").entityTypes(Vote.TYPE).views(PER_ITEM)
                .announces(VOTED, Vote.SCHEMA, vote -> vote.userId() + "/" + vote.itemId(),
                        (id, before, after) -> after == null ? null : new Voted(after.itemId()))
                .events(VOTED)) {
            @Override
            public List<Derivation> derivations(ShardSettings shards) {
                return List.of(new Announcing());
            }
        };
        DomainRegistry registry = DomainRegistry.of(new Items(), declared);
        assertThat(registry.events()).filteredOn(type -> type.equals(VOTED)).hasSize(1);

        IntendedChanges created = registry.derivations(ShardSettings.DEFAULTS).derive(Vote.TYPE, "e1", null,
                Vote.SCHEMA.toItem(new Vote("u1", "i1", 3)));
        assertThat(created.problems()).isEmpty();
        assertThat(created.counterDeltas().values()).containsExactlyInAnyOrder(1L, 3L);
        // The domain's own event and the announcement's, about the subject it names.
        assertThat(created.events()).extracting(DomainEvent::id)
                .containsExactly("e1:RegistryViewsVoted:i1", "e1:RegistryViewsVoted:u1/i1");
        // The announcement's detail may say a change announces nothing (a delete here).
        IntendedChanges deleted = registry.derivations(ShardSettings.DEFAULTS).derive(Vote.TYPE, "e2",
                Vote.SCHEMA.toItem(new Vote("u1", "i1", 3)), null);
        assertThat(deleted.events()).isEmpty();
        assertThat(deleted.counterDeltas().values()).containsExactlyInAnyOrder(-1L, -3L);
    }

    @Test
    void load_sharedCountsInACounterTheDomainDoesNotDeclare_fails_declaredTheyCount() {
        io.tally.core.SharedCounter votes = io.tally.core.SharedCounter.of(io.tally.core.users.Users.GLOBAL_STATS,
                "registryVotes");
        io.tally.core.view.SharedCounts<Vote> counts = io.tally.core.view.SharedCounts.over(Vote.SCHEMA)
                .global(votes).build();
        Domain undeclared = new DeclaredDomain(Declaration.of("sharedvotes").requires("users").entityTypes(Vote.TYPE)
                .views(counts)) {
        };
        assertThatThrownBy(() -> DomainRegistry.of(new io.tally.core.users.UsersDomain(), undeclared)).hasMessageContaining("'registryVotes'")
                .hasMessageContaining("sharedCounters()");

        Domain declared = new DeclaredDomain(Declaration.of("sharedvotes").requires("users").entityTypes(Vote.TYPE)
                .views(counts).sharedCounters(votes)) {
        };
        IntendedChanges changes = DomainRegistry.of(new io.tally.core.users.UsersDomain(), declared).derivations(ShardSettings.DEFAULTS).derive(Vote.TYPE,
                "e1", null, Vote.SCHEMA.toItem(new Vote("u1", "i1", 3)));
        assertThat(changes.problems()).isEmpty();
        assertThat(changes.counterDeltas().values()).containsExactly(1L);
    }
}
