package io.tally.local.stream;

/**
 * How far a shard has been processed.
 *
 * @param sequenceNumber the last record processed (delivered successfully or sent to the on-failure destination);
 *                       null if none yet
 * @param done           the shard is closed and every record of it is processed: it is never read again, and its
 *                       children may be
 */
public record ShardCheckpoint(String sequenceNumber, boolean done) {
    public static ShardCheckpoint at(String sequenceNumber) {
        return new ShardCheckpoint(sequenceNumber, false);
    }

    public ShardCheckpoint markDone() {
        return new ShardCheckpoint(sequenceNumber, true);
    }
}
