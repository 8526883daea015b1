package io.tally.core.domain.hidden;

/** A record its package keeps to itself, as a domain's may be, handed out through this class. */
public final class Hidden {
    private Hidden() {
    }

    record Versioned(String id, long version) {
    }

    public static Object versioned(String id, long version) {
        return new Versioned(id, version);
    }
}
