package io.tally.core.derive;

import io.tally.core.ItemSchema;
import java.util.List;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * Base items that go when the entity that owns them goes, declared as data ({@code Declaration.removes}): when an
 * owner goes (removed, or replaced by a state that is not {@code same} as it, such as a later incarnation of the same
 * ids), the {@link Cascade} its last state names removes what it owned; and each owned entity names the cascade of its
 * owner that would remove it, for a rebuild that looks for cascades that never ran ({@link Derivation#cascadeLinks}).
 * The two functions must agree: an owned entity's cascade is the one its owner's last state names. The registry
 * compiles it to a derivation of each of the two types that contributes nothing, joined with the domain's others
 * ({@link CombinedDerivation}).
 *
 * <pre>{@code
 * // A team's removal removes its memberships; a membership is removed by its team's cascade.
 * .removes(Team.SCHEMA, team -> new TeamMemberships(team.orgId(), team.teamId(), team.incarnation()),
 *         Membership.SCHEMA, m -> new TeamMemberships(m.orgId(), m.teamId(), m.teamIncarnation()))
 * }</pre>
 *
 * @param owner     the owners' schema
 * @param same      whether a later state of an owner is the same one (its cascade runs when not)
 * @param cascade   the cascade an owner's last state names
 * @param owned     the owned entities' schema
 * @param removedBy the cascade that would remove an owned entity
 * @param <O>       the owner
 * @param <M>       the owned entity
 */
public record Removal<O extends Record, M extends Record>(ItemSchema<O> owner, BiPredicate<O, O> same,
                                                          Function<O, Cascade> cascade, ItemSchema<M> owned,
                                                          Function<M, Cascade> removedBy) {
    public Removal {
        Objects.requireNonNull(owner, "the owners' schema is null: is the removal declared in a class that the"
                + " entity's own class initialises from (a cycle of static fields)?");
        Objects.requireNonNull(same, "same");
        Objects.requireNonNull(cascade, "cascade");
        Objects.requireNonNull(owned, "the owned entities' schema is null");
        Objects.requireNonNull(removedBy, "removedBy");
    }

    /** The derivations it compiles to: the owner's, which names its cascade, and the owned entity's. */
    public List<Derivation> derivations() {
        return List.of(new EntityDerivation<O>(owner.entityType(), owner::fromItem) {
            @Override
            protected Contribution contribution(O entity) {
                return Contribution.NONE;
            }

            @Override
            protected List<Cascade> cascades(O before, O after) {
                return before != null && (after == null || !same.test(before, after))
                        ? List.of(cascade.apply(before)) : List.of();
            }

            @Override
            public String toString() {
                return "removal of what " + owner.entityType().attributeValue() + " owns";
            }
        }, new EntityDerivation<M>(owned.entityType(), owned::fromItem) {
            @Override
            protected Contribution contribution(M entity) {
                return Contribution.NONE;
            }

            @Override
            protected List<Cascade> removedBy(M entity) {
                return List.of(removedBy.apply(entity));
            }

            @Override
            public String toString() {
                return "removal of " + owned.entityType().attributeValue() + " with its "
                        + owner.entityType().attributeValue();
            }
        });
    }
}
