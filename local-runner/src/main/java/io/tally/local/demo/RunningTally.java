package io.tally.local.demo;

import io.tally.core.domain.DomainRegistry;
import io.tally.local.stream.PollerSnapshot;
import java.net.URI;
import java.time.Duration;

/**
 * What the demo needs of a running Tally: where its writer API is, and how far its stream processor has got. The
 * local runner is one; the demo does not depend on the runner itself, which starts it.
 */
public interface RunningTally {
    /** The writer API, e.g. {@code http://127.0.0.1:8080}. */
    URI baseUri();

    /** The domains it serves, whose seed data and load the demo writes. */
    DomainRegistry domains();

    /** The stream poller's counters and the progress of each shard. */
    PollerSnapshot streamSnapshot();

    /** The largest lag of a shard of the stream: zero when everything written has been processed. */
    Duration streamLag();
}
