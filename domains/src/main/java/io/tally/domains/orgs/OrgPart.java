package io.tally.domains.orgs;

import io.tally.core.Key;

/**
 * What teams and employees share: each is a part of one organisation, stored in its partition, with an id unique
 * across organisations (reserved by an {@link IdReservation}) and an incarnation, new with every create, that tells it
 * from a later part of the same id. Their store, routes and derivations are written once against this.
 */
interface OrgPart {
    /** Attribute names the requests and the reverse lookup's reads use. */
    String CREATED_AT = "createdAt";
    String INCARNATION = "incarnation";

    /** The team's or employee's id. */
    String id();

    String orgId();

    String incarnation();

    /** When it was made: of two parts of one id, the later one is the one that exists. */
    java.time.Instant createdAt();

    /** Its item's key, in its organisation's partition. */
    Key key();
}
