package io.tally.local;

import com.almworks.sqlite4java.SQLiteConnection;
import com.almworks.sqlite4java.SQLiteJob;
import java.io.File;
import java.util.concurrent.ExecutionException;
import software.amazon.dynamodb.services.local.shared.access.sqlite.SQLiteDBAccess;

/**
 * DynamoDB Local's SQLite database, except that a transaction ({@code TransactWriteItems}, {@code
 * ExecuteTransaction}) is committed before DynamoDB Local answers it.
 *
 * <p>DynamoDB Local runs every statement on one SQLite connection, through a queue served by one thread
 * ({@code SQLiteQueue}). A single write (PutItem, UpdateItem, DeleteItem, BatchWriteItem) is one queued job that
 * runs {@code BEGIN}, the statements and {@code COMMIT}, and the request thread waits for it. A transaction is
 * several jobs: {@code beginTransaction} runs {@code BEGIN} and waits; the writes run; then
 * {@code SQLiteDBAccess.commitTransaction} (3.3.1) <em>queues</em> the job that records the transaction id and runs
 * {@code COMMIT}, and returns without waiting for it ({@code queue.execute(job)}, no {@code get()}; its
 * {@code rollbackTransaction} is the only other such call). The answer then goes out while the {@code COMMIT} is
 * still queued or running. Within the process nothing shows it, since every later statement queues behind that
 * {@code COMMIT}; but a process killed in that window (SIGKILL, the OOM killer, a power cut) leaves a database
 * whose last acknowledged transactions were never committed, and SQLite rolls them back from its journal on the next
 * open. No option of DynamoDB Local changes this (the SQLite settings are its defaults: rollback journal, {@code
 * synchronous=FULL}, which make a {@code COMMIT} that has run durable).
 *
 * <p>This subclass waits, after the inherited commit, for an empty job queued behind the {@code COMMIT}: the queue
 * runs jobs in order on one thread, so when that job has run, so has the {@code COMMIT}, and the answer that follows
 * is for a committed transaction. The cost is one empty job per transaction.
 */
final class DurableSQLiteDBAccess extends SQLiteDBAccess {
    DurableSQLiteDBAccess(File databaseFile) {
        super(databaseFile);
    }

    @Override
    public void commitTransaction(String transactionId, byte[] signature) {
        super.commitTransaction(transactionId, signature);
        awaitCommitted();
    }

    /** Waits until the queue has run every job queued before this call. */
    private void awaitCommitted() {
        try {
            queue.execute(new SQLiteJob<Void>() {
                @Override
                protected Void job(SQLiteConnection connection) {
                    return null;
                }
            }).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a transaction's COMMIT", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot confirm a transaction's COMMIT: " + e.getCause(), e.getCause());
        }
    }
}
