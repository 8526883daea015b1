package io.tally.stream.events;

import io.tally.core.events.DomainEvent;
import java.util.Objects;

/**
 * An event the publisher could not publish, and why: the engine must tell an event that may pass on a retry from one
 * the bus refuses whatever it is sent (a permission, a deleted bus, a malformed entry). Retrying the second kind only
 * holds the shard, so the engine files it as a dead letter at once; the first kind is retried from its record.
 *
 * @param source    the source the event was sent with (the publisher's), so that it can be sent again as it was
 * @param errorCode EventBridge's error code (an entry's {@code ErrorCode} or the failed call's), or a name of the
 *                  publisher's own for a failure before sending (an entry over the size limit, a detail that is not
 *                  JSON)
 * @param retryable whether another attempt may succeed: throttling, internal failures, timeouts, I/O errors
 */
public record Unpublished(DomainEvent event, String source, String errorCode, boolean retryable) {
    public Unpublished {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(errorCode, "errorCode");
    }

    /** An event that may pass on another attempt. */
    public static Unpublished retryable(DomainEvent event, String source, String errorCode) {
        return new Unpublished(event, source, errorCode, true);
    }

    /** An event the bus refuses whatever it is sent: another attempt would fail the same way. */
    public static Unpublished refused(DomainEvent event, String source, String errorCode) {
        return new Unpublished(event, source, errorCode, false);
    }
}
