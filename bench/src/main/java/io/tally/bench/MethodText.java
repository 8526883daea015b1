package io.tally.bench;

/** The "Method" and "Caveats" sections of BENCHMARKS.md, with the placeholders {@link Report} fills in. */
final class MethodText {
    static final String METHOD = """
            ## Method

            - **DynamoDB Local in server mode**, started in the benchmark's JVM (`-inMemory -sharedDb`), a fresh \
            server for each workload and for the freshness run (DynamoDB Local's cost per write to a stream-enabled \
            table grows with the stream records already stored, so later phases would otherwise be slower), reached over \
            HTTP by real SDK clients (URL connection client). Each processor has its own client with an \
            `ExecutionInterceptor` that counts its requests and asks for `ReturnConsumedCapacity=INDEXES` on every \
            UpdateItem/PutItem; the write units are those DynamoDB Local reports in `ConsumedCapacity` (it does \
            report them, per table and per index; a figure would be marked "incomplete" if some write came back \
            without one). The interceptor files each write under the item type it addresses (the `:type` both \
            processors set, else the key's prefix) for "Where the write units go".
            - **Workloads.** The test kit's `Workload` (tally-testkit, the generator the stream processor's tests \
            use too): users, posts (with their id reservations), status changes and deletions, comments added \
            and deleted, catalogue items, user item states with their list entries. *uniform* picks users and \
            posts uniformly; *zipf* with s = 1.1 (hot users and posts); *hot-song* is song downloads alone \
            (`Workload.songWrites`: songs, downloads on six days over four months, about one refund for every five downloads), \
            songs picked with s = 1.3, so a few hot songs take most downloads; *tag-heavy* is favourites alone \
            (`Workload.favouriteWrites`: two users' tags, favourites and tag links, about two steps in three a new \
            link (about a third of the writes, after the repeats skipped), its tag picked with s = 1.1, so that a few tags take most links; every link counts in its user's favourite stats \
            item, so two items take every counter change; a favourite's or tag's links are deleted by the writes \
            before it, as the processor's cascade would, since the recording runs with no processor). All use the \
            same seed. The base writes go \
            to a recording table with BatchWriteItem on parallel client threads (one item always on the same \
            thread, so per-item order is kept; single PutItems over HTTP would take minutes), then the whole \
            stream is read with GetRecords into memory.
            - **Replay.** The same recorded records go to each processor, on a fresh table per processor (same \
            definition, but without a stream: nothing reads it, and DynamoDB Local looks the stream up on every \
            write at a cost growing with the stream, which would penalize each extra request more), shard by \
            shard in batches of {batch} (the deployment's `BatchSize`, which batches reach under a backlog). \
            *Tally* is the production `Engine` (`StreamWiring.engine`, {writes} concurrent derived writes per batch, events to a no-op publisher). *Naive* \
            sends, for each record in order, one UpdateItem per derived change (an `ADD` per counter delta, a \
            `SET`/`REMOVE` per document), decided by the same `Derivations`, on one thread, without coalescing or \
            watermarks. Records/s is records over the wall time of the replay; requests and write units count \
            only the processor's own client (failed conditional writes included as requests).{warmUp}
            - **One table definition for both.** Both processors write to a table created from `infra/template.yaml`, \
            the same definition, so a change of an index moves both processors' costs. The indexes over derived \
            items project only what their lists render (`docs/table-design.md`, "Index costs"): the status index \
            leaves out the post's `comments` counter, so a comment costs the naive processor one write unit instead \
            of two, as it saves Tally's coalesced writes theirs; and neither index projects Tally's bookkeeping \
            (watermarks, `srcRev`), which the naive processor does not write. That is the fair comparison: the naive \
            processor is a per-record consumer of the same table, and what the table's design saves it, such a \
            consumer would save too; the ratio is what Tally's way of writing (coalescing, documents a change \
            restates left out, concurrency) saves on top.
            - **Exactly-once.** After the replay, the final base items are copied into the processor's table \
            (untimed, with BatchWriteItem: processing needs only the stream, the oracle needs the base items) and \
            `Rebuilder.verify()` recomputes all derived data from them and compares. Then one batch of {batch} records \
            from the middle of the stream is delivered a second time, as Lambda does after a retry, and the oracle \
            runs again: the number of differing derived attributes is the drift.
            - **Peak heap** is the highest heap use sampled every 5 ms during the replay, after a `System.gc()`. \
            The JVM also runs DynamoDB Local, so it is the process's heap, comparable between the processors but \
            not the processor's own footprint.
            - **Freshness.** One client thread first writes as fast as it can (PutItem/DeleteItem of the workload) \
            to measure its maximum rate; then it writes a new workload at half that rate to a fresh table while the \
            local runner's stream poller (`StreamPoller`, as `tally-local` wires it, events left out) reads the \
            stream with the deployment's event source mapping settings from `infra/template.yaml` (batches of up to \
            {batch} records and the batching window shown in the table; with none, the next read follows at once an \
            invocation that had records, and 250 ms an empty read, the four polls a second of an idle shard that the \
            Lambda event source mapping makes) and invokes the deployed handler (`WindowedStreamHandler`, through the \
            same tumbling-window adapter). The first write waits until the poller has found the shard and is not \
            measured. Every put carries a write number; a write's lag is from its PutItem acknowledgement to the \
            return of the invocation that applied it, after which its derived items are readable \
            (every derived write is a synchronous UpdateItem). Deletes are written but not measured.

            ## Caveats

            - A shared 2-core machine: the server, the writers and the processors compete for the same cores, and \
            other tenants add noise. Only ratios measured in the same run are meaningful; absolute rates are \
            DynamoDB Local's (an SQLite-backed emulator), not DynamoDB's, whose latency per request is lower and \
            whose partitions throttle hot keys at 1,000 write units per second, which this emulator does not.
            - Tally writes a batch's derived items concurrently ({writes} threads) while the naive processor is \
            sequential, as the samples are. The throughput ratio is therefore fewer requests (the inverse of the \
            requests-per-record ratio) times what that concurrency buys. DynamoDB Local runs each write to a \
            table under that table's write lock (`LocalDBAccess$WriteLockWithTimeout`), for the whole write; only \
            the HTTP exchange and the parsing of the request overlap. With every derived item in one table, \
            Tally's replay keeps that lock occupied nearly all the time (the sampler's figures are in "Targets not \
            met: why" when a records/s target is missed), so more concurrent writes would only queue behind it. On \
            DynamoDB, writes to different partitions run in parallel. The requests and write units per record do \
            not depend on concurrency.
            - Coalescing merges counter updates, which are small; documents (post projections, selector entries, \
            whose index keys make them cost more write units) merge only when one source item changes twice within \
            a batch. So write units per record fall less than requests per record.
            - Write units are DynamoDB Local's figures; a real table charges failed conditional writes too, which \
            Tally only sends on redelivery.
            """;

    private MethodText() {
    }
}
