package io.tally.core.derive;

/**
 * A removal of base items that the removal of another base item asks for, e.g. the memberships of a deleted team.
 * A derivation names it as a value (pure, like the rest of its answer); the engine has it carried out by a
 * {@link CascadeRunner} before the stream moves past the record, and again on every redelivery of the record. So its
 * removal must be idempotent and must only remove what belongs to the removed item (not to a later item that reuses
 * its id); the removed items' own stream records then change derived data through their derivations, as any
 * removal does. See {@code docs/exactly-once.md}, "Cascades".
 */
public interface Cascade {
    /**
     * What is removed, for logs, errors and {@code verify}'s list of undone cascades: the value as a record shows
     * itself, e.g. {@code TeamMemberships[orgId=o1, teamId=t1, incarnation=01J...]}.
     */
    default String describe() {
        return toString();
    }

    /**
     * Removes what it names that is still there: found with consistent reads, each deleted on the condition that it
     * still belongs to the removed incarnation ({@link ConditionalRemovals#removeInPartition},
     * {@link ConditionalRemovals#removeAcross}).
     *
     * @return how many items this run removed (0 when an earlier run removed them)
     * @throws RuntimeException when it could not finish (throttling, timeouts): the record is retried
     */
    int removeWith(ConditionalRemovals removals);
}
