/**
 * The DynamoDB Streams consumer that maintains Tally's derived data (counters, user stats, selector entries,
 * status-index projections) exactly once and publishes domain events. Not written yet: see the issue
 * "stream-processor: exactly-once derived data, EventBridge events, metrics". Base items already carry the
 * {@code entityType} attribute it will route on ({@link io.tally.core.EntityType}).
 */
package io.tally.stream;
