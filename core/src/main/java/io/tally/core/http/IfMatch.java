package io.tally.core.http;

/**
 * An update's optimistic-concurrency precondition.
 *
 * @param present whether the request carried {@code If-Match}
 * @param version the version it must match, or null for any ({@code *} or no header)
 */
public record IfMatch(boolean present, Long version) {
    public static final IfMatch NONE = new IfMatch(false, null);
    public static final IfMatch ANY = new IfMatch(true, null);

    /** Whether an item at {@code currentVersion} satisfies the precondition. */
    public boolean matches(long currentVersion) {
        return version == null || version == currentVersion;
    }

    /** The entity tag of a version, as sent in {@code ETag}. */
    public static String etag(long version) {
        return "\"" + version + "\"";
    }
}
