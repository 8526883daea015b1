package io.tally.core;

import com.github.f4b6a3.ulid.UlidFactory;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.regex.Pattern;

/** Identifier rules and generation. */
public final class Ids {
    /** Identifiers never contain {@code #} or {@code :}, the separators of the key patterns. */
    public static final Pattern PATTERN = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final UlidFactory factory;

    private Ids(UlidFactory factory) {
        this.factory = factory;
    }

    /**
     * A generator of time-ordered identifiers (monotonic ULIDs: 26 characters of Crockford base32 that sort by
     * creation time, also within one millisecond of one generator).
     */
    public static Ids timeOrdered(Clock clock) {
        return new Ids(UlidFactory.newMonotonicInstance(new SecureRandom(), clock::millis));
    }

    public String next() {
        return factory.create().toString();
    }

    public static boolean isValid(String id) {
        return id != null && PATTERN.matcher(id).matches();
    }

    /** Returns the id, or throws {@link IllegalArgumentException} naming the rule it breaks. */
    public static String require(String id) {
        if (!isValid(id)) {
            throw new IllegalArgumentException("identifier must match " + PATTERN.pattern());
        }
        return id;
    }
}
