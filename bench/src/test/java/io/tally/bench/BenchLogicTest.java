package io.tally.bench;

import io.tally.testkit.TableWriter;
import io.tally.domains.favs.FavWorkload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.domains.blog.Comment;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostStatus;
import io.tally.domains.favs.Favourite;
import io.tally.domains.favs.FavouriteTag;
import io.tally.domains.favs.Favs;
import io.tally.domains.favs.Tag;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.domain.Derivations;
import io.tally.stream.engine.SourceRecord;
import io.tally.testkit.Workload;
import io.tally.core.workload.Write;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** The benchmark's non-timed logic; the benchmark itself runs only from its jar, never in the build. */
class BenchLogicTest {
    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
    private final Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);

    @Test
    void workload_isDeterministic_andSkewConcentratesWritesOnFewUsers() {
        List<Write> uniform = Workload.writes(7, 0, 3_000);
        assertThat(uniform).hasSizeGreaterThanOrEqualTo(3_000).isEqualTo(Workload.writes(7, 0, 3_000));
        List<Write> zipf = Workload.writes(7, 1.1, 3_000);
        assertThat(distinctCommentPks(zipf)).isLessThan(distinctCommentPks(uniform));
    }

    @Test
    void tagHeavyWorkload_linksMostly_toFewTags_andLeavesNoLinkOfARemovedFavouriteOrTag() {
        List<Write> writes = Workload.writes(7, Bench.TAG_SKEW, 5_000, FavWorkload::unlinkingFirst);
        assertThat(writes).hasSizeGreaterThanOrEqualTo(5_000)
                .isEqualTo(Workload.writes(7, Bench.TAG_SKEW, 5_000, FavWorkload::unlinkingFirst));

        Map<Key, Map<String, AttributeValue>> table = new HashMap<>();
        int linkPuts = 0;
        for (Write write : writes) {
            if (write.isDelete()) {
                table.remove(write.key());
                continue;
            }
            table.put(write.key(), write.item());
            if (Items.entityTypeName(write.item()).equals(Favs.FAVOURITE_TAG.attributeValue())) {
                linkPuts++;
            }
        }
        // Tag-heavy: about a third of the writes are new links, and the skew puts more of them on the busiest tag
        // than uniform picks do.
        assertThat(linkPuts).isGreaterThan(writes.size() * 3 / 10);
        assertThat(busiestTagShare(writes)).isGreaterThan(2 * busiestTagShare(Workload.writes(7, 0, 5_000, FavWorkload::unlinkingFirst)));

        // The writes removed the links a cascade would have: every link left joins a favourite and a tag still there.
        Set<String> favourites = new HashSet<>();
        Set<String> tags = new HashSet<>();
        List<FavouriteTag> links = new java.util.ArrayList<>();
        for (Map<String, AttributeValue> item : table.values()) {
            String type = Items.entityTypeName(item);
            if (type.equals(Favs.FAVOURITE.attributeValue())) {
                Favourite favourite = Favourite.fromItem(item);
                favourites.add(favourite.userId() + "/" + favourite.favouriteId() + "/" + favourite.incarnation());
            } else if (type.equals(Favs.TAG.attributeValue())) {
                Tag tag = Tag.fromItem(item);
                tags.add(tag.userId() + "/" + tag.tagId() + "/" + tag.incarnation());
            } else if (type.equals(Favs.FAVOURITE_TAG.attributeValue())) {
                links.add(FavouriteTag.fromItem(item));
            }
        }
        assertThat(links).isNotEmpty().allSatisfy(link -> {
            assertThat(favourites).contains(link.userId() + "/" + link.favouriteId() + "/"
                    + link.favourite().incarnation());
            assertThat(tags).contains(link.userId() + "/" + link.tagId() + "/" + link.tagIncarnation());
        });
    }

    /** The busiest tag's share of the new links (a tag by its incarnation: a freed id comes back as another tag). */
    private static double busiestTagShare(List<Write> writes) {
        Map<String, Integer> linksByTag = new HashMap<>();
        writes.stream().filter(write -> !write.isDelete())
                .filter(write -> Items.entityTypeName(write.item()).equals(Favs.FAVOURITE_TAG.attributeValue()))
                .map(write -> FavouriteTag.fromItem(write.item()))
                .forEach(link -> linksByTag.merge(link.userId() + "/" + link.tagIncarnation(), 1, Integer::sum));
        int all = linksByTag.values().stream().mapToInt(Integer::intValue).sum();
        return (double) linksByTag.values().stream().mapToInt(Integer::intValue).max().orElse(0) / all;
    }

    @Test
    void options_runEveryWorkloadByDefault_andRefuseAnUnknownOne() {
        assertThat(BenchOptions.parse(new String[0]).workloads)
                .containsExactlyInAnyOrder("uniform", "zipf", "hot-song", "tag-heavy");
        assertThat(BenchOptions.parse(new String[]{"--workloads", "tag-heavy,zipf"}).workloads)
                .containsExactlyInAnyOrder("tag-heavy", "zipf");
        assertThatThrownBy(
                        () -> BenchOptions.parse(new String[]{"--workloads", "zipf,favourites"}))
                .isInstanceOf(picocli.CommandLine.ParameterException.class).hasMessageEndingWith("unknown: favourites");
    }

    @Test
    void profiler_filesASampleUnderItsInnermostFrameOutsideTheJdk() {
        assertThat(Profiler.part(Profiler.owner(List.of("sun.security.provider.SHA2.implCompress0",
                "java.security.MessageDigest.digest",
                "software.amazon.awssdk.http.auth.aws.internal.signer.DefaultV4RequestSigner.sign",
                "io.tally.stream.engine.KeyWriter.write")))).isEqualTo(Profiler.SIGNING);
        assertThat(Profiler.part(Profiler.owner(List.of("java.util.HashMap.getNode")))).isEqualTo(Profiler.JDK);
        assertThat(Profiler.part("io.tally.stream.engine.KeyWriter.write")).isEqualTo(Profiler.PROCESSOR);
        assertThat(Profiler.part("io.tally.bench.NaiveProcessor.process")).isEqualTo(Profiler.PROCESSOR);
        assertThat(Profiler.part("io.tally.bench.RequestCounter.modifyRequest")).isEqualTo(Profiler.INSTRUMENTATION);
        assertThat(Profiler.part("software.amazon.awssdk.protocols.json.internal.unmarshall.JsonUnmarshallingParser.parse"))
                .isEqualTo(Profiler.MARSHALLING);
        assertThat(Profiler.part("software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient$RequestCallable.call"))
                .isEqualTo(Profiler.HTTP);
        assertThat(Profiler.part("software.amazon.awssdk.core.internal.http.pipeline.stages.RetryableStage.execute"))
                .isEqualTo(Profiler.SDK_OTHER);
        assertThat(Profiler.part("io.micrometer.core.instrument.Counter.increment")).isEqualTo(Profiler.OTHER);

        Profiler.Tally tally = new Profiler.Tally();
        tally.add(List.of("java.util.HashMap.getNode", "io.tally.stream.engine.KeyWriter.write"));
        tally.add(List.of("io.tally.stream.engine.KeyWriter.write"));
        tally.add(List.of("java.lang.Object.wait"));
        Results.Profile profile = tally.profile();
        assertThat(profile.samples()).isEqualTo(3);
        assertThat(profile.parts()).extracting(Results.Share::name).containsExactlyElementsOf(Profiler.PARTS);
        assertThat(profile.parts()).filteredOn(share -> share.name().equals(Profiler.PROCESSOR))
                .extracting(Results.Share::samples).containsExactly(2);
        assertThat(profile.methods()).containsExactly(new Results.Share("io.tally.stream.engine.KeyWriter.write", 2),
                new Results.Share("(the JDK: java.lang.Object.wait)", 1));
    }

    @Test
    void cpuUse_readsTheJvmsOwnThreadsFromProc() {
        assertThat(CpuUse.jvmGroup("GC Thread#1")).isEqualTo("gc");
        assertThat(CpuUse.jvmGroup("G1 Conc#0")).isEqualTo("gc");
        assertThat(CpuUse.jvmGroup("C2 CompilerThre")).isEqualTo("jit");
        assertThat(CpuUse.jvmGroup("tally-derived-w")).isNull();
        assertThat(CpuUse.cpuTicks("4242 (C2 CompilerThre) S 1 4242 1 0 -1 4194368 70 0 0 0 6200 347 0 0 20 0 35 0 "
                + "120 9010128 180354 18446744073709551615")).isEqualTo(6547);
        // A name may hold spaces and parentheses: the fields start after the last ')'.
        assertThat(CpuUse.cpuTicks("77 (a) b (c) R 1 77 1 0 -1 4194368 70 0 0 0 5 7 0 0 20 0 35 0 120 1 2 3"))
                .isEqualTo(12);
        if (java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self/task"))) {
            // This JVM compiles and collects too: its JIT threads have used some CPU by now.
            assertThat(CpuUse.jvmThreadTicks().values()).extracting(Map.Entry::getKey).contains("jit");
        }
    }

    @Test
    void cpuReport_splitsTheProcessCpuPerRecord_andItsPartsAddUp() {
        Results.ProcessorResult tally = processor("tally", 500, 1, true, 0);
        Results.ProcessorResult naive = processor("naive", 100, 2, true, 0);
        Results.WorkloadResult workload = new Results.WorkloadResult("zipf", 1.1, 1, 1, 1, 1, 1, 1, 1, tally, naive);
        List<CpuReport.Row> rows = CpuReport.rows(workload);
        // process 2 s, DynamoDB Local 1.2 s, the processor's threads 0.6 s (4 of 10 samples its own code), GC 0.1 s,
        // JIT 0.04 s, 1 record.
        assertThat(rows).first().isEqualTo(new CpuReport.Row(CpuReport.DYNAMODB_LOCAL, 1200, 1200));
        assertThat(rows).filteredOn(row -> row.part().equals(Profiler.PROCESSOR)).singleElement()
                .satisfies(row -> assertThat(row.tallyMs()).isCloseTo(240, offset(1e-9)));
        assertThat(rows).filteredOn(row -> row.part().equals(CpuReport.GC)).singleElement()
                .satisfies(row -> assertThat(row.tallyMs()).isCloseTo(100, offset(1e-9)));
        assertThat(rows).last().satisfies(row -> assertThat(row.part()).isEqualTo(CpuReport.REST))
                .satisfies(row -> assertThat(row.tallyMs()).isCloseTo(60, offset(1e-9)));
        assertThat(rows.stream().mapToDouble(CpuReport.Row::tallyMs).sum())
                .isCloseTo(2000, offset(1e-6));
        assertThat(CpuReport.section(new Results(null, List.of(workload), null, null, null)))
                .contains("## Where the CPU goes").contains("| " + Profiler.SIGNING + " | 360.000 | 18% |")
                .contains("`io.tally.stream.engine.KeyWriter.write` 40.0%");
    }

    @Test
    void tableWriter_keepsEachKeyOnOneLane_andNeverTwiceInABatch() {
        List<Write> writes = Workload.writes(3, 1.1, 2_000);
        List<List<Write>> lanes = TableWriter.partition(writes, 4);
        assertThat(lanes.stream().mapToInt(List::size).sum()).isEqualTo(writes.size());
        for (List<Write> lane : lanes) {
            List<List<Write>> batches = TableWriter.batches(lane);
            assertThat(batches.stream().flatMap(List::stream).toList()).isEqualTo(lane);
            for (List<Write> batch : batches) {
                assertThat(batch).hasSizeLessThanOrEqualTo(TableWriter.BATCH);
                assertThat(batch.stream().map(Write::key).distinct().count()).isEqualTo(batch.size());
            }
        }
        Set<Key> seen = new HashSet<>();
        for (List<Write> lane : lanes) {
            Set<Key> keys = new HashSet<>();
            lane.forEach(write -> keys.add(write.key()));
            assertThat(keys.stream().filter(seen::contains)).isEmpty();
            seen.addAll(keys);
        }
    }

    @Test
    void naiveProcessor_sendsOneUpdatePerCounterDeltaAndDocument() {
        Post post = new Post("p1", "u1", "Title", "Body", PostStatus.CREATED, T, T, 1);
        Comment comment = new Comment("c1", "p1", "u1", T, "u2", "Nice", T);
        SourceRecord insert = record("1", null, comment.toItem());

        List<UpdateItemRequest> requests = NaiveProcessor.requests("t", derivations, insert);

        // A comment counts on the commenter's stats, the post's projection and a global shard: one request each.
        assertThat(requests).hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(request -> assertThat(request.conditionExpression()).isNull());
        assertThat(requests.stream().map(UpdateItemRequest::key).distinct().count()).isEqualTo(requests.size());
        // An unchanged post moves no counter; the naive processor still rewrites the projection it owns.
        assertThat(NaiveProcessor.requests("t", derivations, record("2", post.toItem(), post.toItem())))
                .singleElement().satisfies(request -> assertThat(request.updateExpression()).doesNotContain("ADD"));
    }

    @Test
    void requestCounter_filesEachWriteUnderItsItemType() {
        assertThat(RequestCounter.itemType(UpdateItemRequest.builder()
                .key(Map.of("pk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("USER#u1")))
                .expressionAttributeValues(Map.of(":type",
                        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("UserStats")))
                .build())).isEqualTo("UserStats");
        assertThat(RequestCounter.itemType(UpdateItemRequest.builder()
                .key(Map.of("pk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("SHARD#abc")))
                .build())).isEqualTo("ShardCursor");
        assertThat(RequestCounter.itemType(UpdateItemRequest.builder()
                .key(Map.of("pk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("X#1")))
                .build())).isEqualTo("X#…");
    }

    @Test
    void marked_numbersPutsOnly() {
        List<Write> writes = FreshnessRun.marked(List.of(Write.put(new Post("p1", "u1", "T", "B", PostStatus.CREATED, T, T, 1)
                .toItem()), Write.delete(new Key("a", "b"))));
        assertThat(writes.get(0).item().get(FreshnessRun.WRITE_MARKER).n()).isEqualTo("0");
        assertThat(writes.get(1).isDelete()).isTrue();
    }

    @Test
    void percentile_isNearestRank() {
        List<Double> values = List.of(5.0, 1.0, 4.0, 2.0, 3.0);
        assertThat(Report.percentile(values, 50)).isEqualTo(3.0);
        assertThat(Report.percentile(values, 99)).isEqualTo(5.0);
        assertThat(Report.percentile(values, 0)).isEqualTo(1.0);
        assertThat(Report.percentile(List.of(), 50)).isNaN();
    }

    @Test
    void targets_judgeTheSkewedWorkloadAndTheFreshness() {
        Results.ProcessorResult tally = processor("tally", 1000, 0.5, true, 0);
        Results.ProcessorResult naive = processor("naive", 100, 2.0, true, 40);
        Results results = new Results(new Results.Environment("d", "c", 2, "jvm", "os", 1024, "local", 20000, 1, 1000, 6000),
                List.of(new Results.WorkloadResult("uniform", 0, 1, 1, 1, 1, 1, 1, 1, tally, naive),
                        new Results.WorkloadResult("zipf", 1.1, 1, 1, 1, 1, 1, 1, 1, tally, naive)),
                new Results.Freshness(100, 50, 50, 25, 1250, 1000, 0, 300, 1200, 1500, true, 0, 400, 0, 1.2));

        List<Report.Target> targets = Report.targets(results);

        // uniform: 0.25x write units (at most 0.45x), exact; zipf: 0.25x, exact; freshness: 1,200 ms (at most
        // 300 ms). The records/s ratios (10x) are information, not targets: DynamoDB Local bounds them.
        assertThat(targets).extracting(Report.Target::met).containsExactly(true, true, true, true, false);
        assertThat(targets).extracting(Report.Target::description).noneMatch(d -> d.contains("records/s"));
        assertThat(Report.markdown(results)).contains("| zipf | 1 | 10.00x |").contains("**no**")
                .contains("## Where the write units go").contains("| | PostsByStatus | | 0.250 | | 1.000 |")
                .contains("| Warm-up | about 6000 records (blog, catalogue, songs, favourites)").contains("## Where the CPU goes")
                .contains("\"Where the CPU goes\" shows what is left of it.");

        // The cold-start section renders after the replay's page, which keeps every table.
        String both = Report.markdown(results, ColdStartLogicTest.sample());
        assertThat(both).startsWith(Report.markdown(results))
                .contains("## Replay, per processor").contains("## End-to-end freshness").contains("## Caveats")
                .contains("## Packaging and cold start");
        assertThat(both.indexOf("## Packaging and cold start")).isGreaterThan(both.indexOf("## Caveats"));
    }

    @Test
    void largeBatchReport_judgesEachBatchSizeAgainstBothTargets_andShowsBothFreshnessRuns() {
        Results.ProcessorResult naive = processor("naive", 100, 2.0, true, 40);
        // uniform: 1.0 / 2.0 = 0.5x in batches of 1000 (over 0.45x), 0.8 / 2.0 = 0.4x in large ones (met);
        // the large batch drifted after the duplicated batch, so it is not exact.
        Results.WorkloadResult uniform = new Results.WorkloadResult("uniform", 0, 1, 1, 1, 1, 1, 1, 1,
                processor("tally", 400, 1.0, true, 0), naive, processor(LargeBatchReport.PROCESSOR, 600, 0.8, true, 3));
        Results results = new Results(new Results.Environment("d", "c", 2, "jvm", "os", 1024, "local", 20000, 1, 1000, 0),
                List.of(uniform), new Results.Freshness(100, 50, 50, 25, 1250, 1000, 0, 90, 250, 280, true, 0, 600, 0, 1.25),
                null, null, new Results.Freshness(100, 50, 50, 25, 1250, 1000, 0, 900, 1400, 1500, true, 1, 25, 2, 0.5));

        String section = LargeBatchReport.section(results);

        assertThat(section).startsWith("## Larger batches")
                .contains("| uniform | 1000 | 400 | 4.00x | 5x | no | 1.000 | 0.500x | 0.45x | no | yes |")
                .contains("| uniform | " + LargeBatchReport.BATCH_SIZE + " | 600 | 6.00x | 5x | yes | 0.800 | 0.400x | 0.45x | yes | no |")
                .contains("| 1000 | 0 | 50 | 600 | 0 | 1.250 | 90 | 250 | 280 | yes | yes |")
                .contains("| " + LargeBatchReport.BATCH_SIZE + " | 1 | 50 | 25 | 2 | 0.500 | 900 | 1,400 | 1,500 | no | yes |")
                .contains("6 MB");
        assertThat(Report.markdown(results)).contains(section).contains("\"Larger batches\" below measures both sides");
        // A run's JSON from before the large batches renders without the section.
        assertThat(LargeBatchReport.section(new Results(results.environment(), List.of(new Results.WorkloadResult(
                "uniform", 0, 1, 1, 1, 1, 1, 1, 1, uniform.tally(), naive)), results.freshness()))).isEmpty();
    }

    @Test
    void freshnessRun_marksTheRecordsBeforeTheLowestFailure_asApplied() {
        List<software.amazon.awssdk.services.dynamodb.model.Record> records = java.util.stream.IntStream.range(0, 5)
                .mapToObj(i -> software.amazon.awssdk.services.dynamodb.model.Record.builder()
                        .dynamodb(d -> d.sequenceNumber("10" + i)).build())
                .toList();
        assertThat(FreshnessRun.appliedBefore(io.tally.local.stream.InvocationResult.batchItemFailures(
                List.of("103", "101")), records)).isEqualTo(1);
        assertThat(FreshnessRun.appliedBefore(io.tally.local.stream.InvocationResult.batchItemFailures(
                List.of("100")), records)).isZero();
        // An identifier not in the batch makes the poller retry all of it; a function error applies nothing.
        assertThat(FreshnessRun.appliedBefore(io.tally.local.stream.InvocationResult.batchItemFailures(
                List.of("999")), records)).isZero();
        assertThat(FreshnessRun.appliedBefore(io.tally.local.stream.InvocationResult.functionError(
                new IllegalStateException("down")), records)).isZero();
    }

    @Test
    void render_attachesTheFloorOfTheLastFloorRunToTheWorkloadsThatHaveNone(@org.junit.jupiter.api.io.TempDir
                                                                            java.nio.file.Path dir) throws Exception {
        Results.ProcessorResult tally = processor("tally", 1000, 0.5, true, 0);
        Results.ProcessorResult naive = processor("naive", 100, 2.0, true, 40);
        Results run = new Results(new Results.Environment("d", "c", 2, "jvm", "os", 1024, "local", 20000, 1, 1000, 0),
                List.of(new Results.WorkloadResult("uniform", 0, 1, 1, 1, 1, 1, 1, 1, tally, naive),
                        new Results.WorkloadResult("zipf", 1.1, 1, 1, 1, 1, 1, 1, 1, tally, naive)), null);
        Results.Floor floor = new Results.Floor(10, 1000, 1, List.of());
        java.nio.file.Path json = dir.resolve("floor.json");
        Bench.writeJson(json, List.of(new Results.WorkloadResult("zipf", 1.1, 1, 1, 0, 10, 1, 0, 0, null, null, null,
                floor)));

        Results rendered = Bench.withFloors(run, json);
        assertThat(rendered.workloads()).extracting(Results.WorkloadResult::floor).containsExactly(null, floor);
        assertThat(rendered.workloads().get(1).tally()).isEqualTo(tally);
        assertThat(Bench.withFloors(run, dir.resolve("none.json"))).isSameAs(run);
    }

    private static Results.ProcessorResult processor(String name, double rate, double units, boolean exact, int drift) {
        return new Results.ProcessorResult(name, 1, 1, rate, 1, 0, 1, units, units, true, 10, exact, 0, 100, drift, drift,
                List.of(new Results.WriteUnitShare("PostProjection", 1, units,
                        Map.of(RequestCounter.TABLE, units / 2, "PostsByStatus", units / 2))),
                new Results.Cpu(2, 1, 1.2, 0.6, 0.1, 0.04, 0.9), new Results.Profile(10,
                        List.of(new Results.Share(Profiler.PROCESSOR, 4), new Results.Share(Profiler.SIGNING, 6)),
                        List.of(new Results.Share("io.tally.stream.engine.KeyWriter.write", 4))));
    }

    private static SourceRecord record(String sequence, Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> oldImage,
                                       Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> newImage) {
        Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> image = newImage != null ? newImage : oldImage;
        return new SourceRecord("e" + sequence, oldImage == null ? "INSERT" : newImage == null ? "REMOVE" : "MODIFY",
                "shard-1", sequence, T, Key.of(image).toAttributeMap(), oldImage, newImage);
    }

    private static long distinctCommentPks(List<Write> writes) {
        return writes.stream().filter(w -> !w.isDelete() && w.key().sk().startsWith("COMMENT#"))
                .map(w -> w.key().pk()).distinct().count();
    }
}
