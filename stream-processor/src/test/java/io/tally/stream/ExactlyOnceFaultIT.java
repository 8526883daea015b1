package io.tally.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.domains.Domains;
import io.tally.stream.derive.Derivations;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.DynamoDbDeadLetterSink;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.events.DomainEvent;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.StreamReader;
import io.tally.testkit.Workload;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/**
 * The invariant under at-least-once delivery, randomized: for each seed, a random workload of base writes
 * (poison items included) is read from the real stream of DynamoDB Local and delivered to the engine the way an
 * event source mapping might on a bad day: random batch boundaries, duplicated and replayed batches, retries
 * from the reported record or from any earlier one, throttling and transaction conflicts injected into random
 * SDK calls (before the call, or after it committed), crashes that stop an invocation between two writes, and
 * an event bus that refuses entries. Afterwards derived data must equal the recomputation from the base items
 * (the {@link Rebuilder}) and every event the records announce must have been published.
 *
 * <p>Cases: {@code -Dtally.fault.cases=N} (default 200, about a second each); a failing seed reproduces alone.
 */
class ExactlyOnceFaultIT {
    private static final int CASES = Integer.getInteger("tally.fault.cases", 200);
    private static LocalDynamoDbServer server;
    private static DynamoDbClient dynamo;
    private static final FaultInterceptor FAULTS = new FaultInterceptor();
    private static DynamoDbClient faulty;

    @BeforeAll
    static void start() {
        server = LocalDynamoDbServer.start();
        dynamo = server.client();
        faulty = DynamoDbClient.builder()
                .endpointOverride(server.endpoint())
                .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("local", "local")))
                .httpClientBuilder(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.builder())
                // Injected faults must reach the engine, not be absorbed by the SDK's own retries.
                .overrideConfiguration(c -> c.retryPolicy(RetryPolicy.none()).addExecutionInterceptor(FAULTS))
                .build();
    }

    @AfterAll
    static void stop() {
        faulty.close();
        dynamo.close();
        server.close();
    }

    static Stream<Long> seeds() {
        return LongStream.rangeClosed(1, CASES).boxed();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void anyDelivery_withFaults_endsExactAndAnnouncesEveryEvent(long seed) {
        Random random = new Random(seed);
        String table = "fault-" + seed;
        dynamo.createTable(TableDefinition.createTableRequest(table));
        new Workload(dynamo, table, seed, random.nextBoolean() ? 1.1 : 0, true).run(10 + random.nextInt(25));
        Map<String, List<SourceRecord>> stream = StreamReader.readAll(server.streamsClient(), table,
                StreamRecords::fromSdk);

        Derivations derivations = StreamDomains.derivations(ShardSettings.DEFAULTS);
        RecordingPublisher publisher = new RecordingPublisher();
        FAULTS.configure(random, 0.02 + random.nextDouble() * 0.15);
        try (Engine engine = Engine.builder()
                .derivations(derivations)
                .store(new DynamoDbDerivedStore(faulty, table))
                .deadLetters(new DynamoDbDeadLetterSink(faulty, table))
                .publisher(publisher)
                .build()) {
            for (Map.Entry<String, List<SourceRecord>> shard : stream.entrySet()) {
                deliver(engine, shard.getValue(), random, publisher);
            }
        } finally {
            FAULTS.off();
        }

        VerificationReport report = new Rebuilder(dynamo, server.streamsClient(), table, derivations, 2).verify();
        assertThat(report.differences()).as("drift for seed %d", seed).isEmpty();
        Set<String> published = new HashSet<>(publisher.publishedIds());
        List<String> missing = expectedEventIds(derivations, stream).stream().filter(id -> !published.contains(id)).toList();
        assertThat(missing).as("events never published for seed %d", seed).isEmpty();
        dynamo.deleteTable(r -> r.tableName(table));
    }

    /** Delivers one shard like a misbehaving event source mapping, until every record has been acknowledged. */
    private static void deliver(Engine engine, List<SourceRecord> records, Random random, RecordingPublisher publisher) {
        int position = 0;
        int invocations = 0;
        while (position < records.size()) {
            if (++invocations > 10_000) {
                throw new AssertionError("no progress after 10,000 invocations");
            }
            int end = Math.min(records.size(), position + 1 + random.nextInt(30));
            List<SourceRecord> batch = records.subList(position, end);
            boolean crash = random.nextInt(8) == 0;
            FAULTS.crashAfter(crash ? random.nextInt(Math.max(1, batch.size())) : -1);
            double refusal = random.nextInt(6) == 0 ? 0.3 : 0;
            publisher.refuse(event -> random.nextDouble() < refusal);
            BatchResult result;
            try {
                result = engine.process(batch);
            } catch (RuntimeException e) {
                // A function error: the mapping retries the same batch (the next loop may cut it differently).
                continue;
            } finally {
                FAULTS.crashAfter(-1);
            }
            if (FAULTS.crashed()) {
                // The invocation died mid-way: whatever it reports is lost; the batch is delivered again.
                FAULTS.resetCrash();
                continue;
            }
            Optional<String> failed = result.failedSequenceNumber();
            if (failed.isPresent()) {
                int at = indexOf(records, failed.get());
                assertThat(at).isBetween(position, end - 1);
                // The mapping restarts at the reported record; a sloppier one restarts anywhere before it.
                position = random.nextInt(4) == 0 ? random.nextInt(at + 1) : at;
                continue;
            }
            if (random.nextInt(5) == 0) {
                // A duplicate delivery of an acknowledged range, with boundaries of its own.
                int from = random.nextInt(end);
                try {
                    engine.process(records.subList(from, Math.min(end, from + 1 + random.nextInt(30))));
                } catch (RuntimeException ignored) {
                    // A failed duplicate changes nothing that the retry of the real batch would not fix.
                }
                FAULTS.resetCrash();
            }
            position = end;
        }
    }

    private static int indexOf(List<SourceRecord> records, String sequenceNumber) {
        for (int i = 0; i < records.size(); i++) {
            if (records.get(i).sequenceNumber().equals(sequenceNumber)) {
                return i;
            }
        }
        throw new AssertionError("reported sequence number " + sequenceNumber + " is not in the batch");
    }

    /** The ids of the events each readable record announces. */
    private static List<String> expectedEventIds(Derivations derivations, Map<String, List<SourceRecord>> stream) {
        List<String> ids = new ArrayList<>();
        for (List<SourceRecord> records : stream.values()) {
            for (SourceRecord record : records) {
                try {
                    record.entityType().flatMap(Domains::entityType).ifPresent(type -> derivations.derive(type, record.eventId(),
                            record.oldImage(), record.newImage()).events().stream().map(DomainEvent::id).forEach(ids::add));
                } catch (RuntimeException poison) {
                    // Dead-lettered: announces what it can, which the test does not require.
                }
            }
        }
        return ids;
    }

    /**
     * Fails SDK calls at random: before the request is sent (nothing written) or after the response came back
     * (written, but the caller is told it failed), with the errors DynamoDB answers under load; and simulates a
     * crash: after N calls of an invocation every further call fails and the invocation's outcome is discarded.
     */
    static final class FaultInterceptor implements ExecutionInterceptor {
        private volatile Random random = new Random(0);
        private volatile double probability;
        private volatile int crashAfter = -1;
        private final java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        private volatile boolean crashed;

        void configure(Random random, double probability) {
            this.random = new Random(random.nextLong());
            this.probability = probability;
        }

        void off() {
            probability = 0;
            crashAfter = -1;
        }

        void crashAfter(int calls) {
            this.calls.set(0);
            this.crashAfter = calls;
        }

        boolean crashed() {
            return crashed;
        }

        void resetCrash() {
            crashed = false;
        }

        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            if (crashAfter >= 0 && calls.incrementAndGet() > crashAfter) {
                crashed = true;
                throw new IllegalStateException("injected crash: the function died here");
            }
            if (roll()) {
                throw fault();
            }
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            if (roll()) {
                throw fault();
            }
        }

        private boolean roll() {
            synchronized (this) {
                return probability > 0 && random.nextDouble() < probability;
            }
        }

        private RuntimeException fault() {
            int kind;
            synchronized (this) {
                kind = random.nextInt(3);
            }
            return switch (kind) {
                case 0 -> ProvisionedThroughputExceededException.builder().message("injected throttling").statusCode(400).build();
                case 1 -> TransactionConflictException.builder().message("injected transaction conflict").statusCode(400).build();
                default -> RequestLimitExceededException.builder().message("injected request limit").statusCode(400).build();
            };
        }
    }
}
