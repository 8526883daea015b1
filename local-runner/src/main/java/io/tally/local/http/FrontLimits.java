package io.tally.local.http;

import java.time.Duration;

/**
 * How much the {@link HttpFront} takes on.
 *
 * @param workers        requests handed to a function at once
 * @param queue          admitted requests waiting for a worker; one more is refused with 503 at once
 * @param idleTimeout    how long a request's body may take to arrive (then 408); a connection silent for twice
 *                       as long is closed (a client stalled in its headers, an idle keep-alive connection)
 * @param maxHeaderBytes the request line and headers together; above that 414 (in the request line) or 431
 */
public record FrontLimits(int workers, int queue, Duration idleTimeout, int maxHeaderBytes) {
    public static final FrontLimits DEFAULTS = new FrontLimits(8, 64, Duration.ofSeconds(30), 16 * 1024);

    public FrontLimits {
        if (workers < 1 || queue < 0 || maxHeaderBytes < 1024 || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("invalid front limits");
        }
    }

    public FrontLimits withIdleTimeout(Duration value) {
        return new FrontLimits(workers, queue, value, maxHeaderBytes);
    }

    public FrontLimits withWorkers(int workersValue, int queueValue) {
        return new FrontLimits(workersValue, queueValue, idleTimeout, maxHeaderBytes);
    }
}
