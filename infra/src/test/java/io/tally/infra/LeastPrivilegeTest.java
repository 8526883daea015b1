package io.tally.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.template.DeploymentTemplate;
import io.tally.testkit.AwsOperationRecorder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each function's role grants what its code does, on the resources it does it to, and nothing more. What the code
 * does is recorded while the function modules' tests run ({@link AwsOperationRecorder}: every AWS operation their
 * main code performs on a real SDK client, against DynamoDB Local); this module builds after them, so
 * {@code mvn verify} has the records when it gets here. An operation the code performs that the role does not grant
 * fails the build, as a grant nothing uses does, unless Lambda uses it on the function's behalf or it cannot be
 * performed here (listed below with the reason).
 */
class LeastPrivilegeTest {
    private static final List<Path> RECORDS = List.of(
            Path.of("..", "writer-service", "target", AwsOperationRecorder.DIRECTORY),
            Path.of("..", "stream-processor", "target", AwsOperationRecorder.DIRECTORY));
    private static final List<String> ROLES = List.of("WriterRole", "StreamProcessorRole", "WatermarkPrunerRole",
            "ActivityFeedRole");

    /** Grants Lambda uses with the function's role, never the function's code: {@code role action resource}. */
    private static final Set<String> USED_BY_LAMBDA = Set.of(
            "* logs:CreateLogStream <log group>", "* logs:PutLogEvents <log group>",
            "* xray:PutTraceSegments *", "* xray:PutTelemetryRecords *",
            // The event source mapping reads the stream and sends what it gives up on to the failure queue.
            "StreamProcessorRole dynamodb:DescribeStream ${Table.Arn}/stream/*",
            "StreamProcessorRole dynamodb:GetRecords ${Table.Arn}/stream/*",
            "StreamProcessorRole dynamodb:GetShardIterator ${Table.Arn}/stream/*",
            "StreamProcessorRole dynamodb:ListStreams *",
            "StreamProcessorRole sqs:SendMessage StreamFailureQueue.Arn",
            // The asynchronous invocation's on-failure destination.
            "WatermarkPrunerRole sqs:SendMessage WatermarkPrunerFailureQueue.Arn");

    /** Grants the code uses where the service does not run in this build, with where they are exercised. */
    private static final Map<String, String> NOT_RECORDABLE_HERE = Map.of(
            "WriterRole secretsmanager:GetSecretValue CursorSecret",
            "Secrets Manager does not run here: WriterConfigTest covers the read of the secret");

    private final JsonNode resources = DeploymentTemplate.read(Path.of("template.yaml")).tree().path("Resources");

    @Test
    void everyRecordedOperationIsGranted_andEveryGrantIsUsed() throws IOException {
        Set<String> recorded = recorded();
        for (String role : ROLES) {
            assertThat(recorded).as("operations recorded for %s: run mvn verify, whose function module tests"
                    + " record them before this module's tests", role).anyMatch(grant -> grant.startsWith(role + " "));
        }
        Set<String> granted = granted();

        assertThat(new TreeSet<>(recorded)).as("operations the code performs that its role does not grant")
                .isSubsetOf(granted);
        Set<String> unused = new TreeSet<>(granted);
        unused.removeAll(recorded);
        unused.removeIf(grant -> usedByLambda(grant) || NOT_RECORDABLE_HERE.containsKey(grant));
        assertThat(unused).as("grants no code of the function uses").isEmpty();
    }

    /** {@code role action resource} of every operation recorded, resources as the template writes them. */
    private static Set<String> recorded() throws IOException {
        Set<String> grants = new TreeSet<>();
        for (Path directory : RECORDS) {
            if (!Files.isDirectory(directory)) {
                continue;
            }
            List<Path> files;
            try (Stream<Path> listed = Files.list(directory)) {
                files = listed.filter(file -> file.toString().endsWith(".tsv")).toList();
            }
            for (Path file : files) {
                for (String line : Files.readAllLines(file)) {
                    String[] fields = line.split("\t");
                    String role = roleOf(fields[0], fields[1]);
                    if (role != null) {
                        grants.add(role + " " + fields[2] + " " + resource(role, fields[3],
                                fields.length > 4 ? fields[4] : "-"));
                    }
                }
            }
        }
        return grants;
    }

    /**
     * The role of the function whose code the class is; null for code that runs in no function (the rebuild, run
     * by an operator with {@code tally-local verify}).
     */
    static String roleOf(String module, String className) {
        if (module.equals("writer-service")) {
            return "WriterRole";
        }
        if (className.startsWith("io.tally.stream.subscriber.")) {
            return "ActivityFeedRole";
        }
        if (className.startsWith("io.tally.stream.rebuild.WatermarkPruner")
                || className.startsWith("io.tally.stream.rebuild.ShardTokens")
                || className.startsWith("io.tally.stream.rebuild.UnlistedCursors")
                || className.startsWith("io.tally.stream.rebuild.PagePruner")
                || className.startsWith("io.tally.stream.rebuild.PrunerPosition")
                || className.startsWith("io.tally.stream.rebuild.SegmentedScan")
                || className.startsWith("io.tally.stream.WatermarkPruneHandler")) {
            return "WatermarkPrunerRole";
        }
        if (className.startsWith("io.tally.stream.rebuild.")) {
            return null;
        }
        return "StreamProcessorRole";
    }

    /**
     * The template's resource for a recorded one. The subscriber example's feed has a table of its own, named
     * {@code activity-*} by its tests and {@code <table>-activity} by the local runner, and so has the write quota
     * ({@code quota-*}, {@code <table>-quota}).
     */
    private static String resource(String role, String kind, String tables) {
        return switch (AwsOperationRecorder.Resource.valueOf(kind)) {
            case TABLE -> tables.startsWith("activity-") || tables.endsWith("-activity") ? "ActivityTable.Arn"
                    : tables.startsWith("quota-") || tables.endsWith("-quota") ? "QuotaTable.Arn" : "Table.Arn";
            case INDEX -> "${Table.Arn}/index/*";
            case STREAM -> "${Table.Arn}/stream/*";
            case ANY_STREAM -> "*";
            case EVENT_BUS -> "EventBus.Arn";
            case SECRET -> "CursorSecret";
            case QUEUE -> role.equals("WatermarkPrunerRole") ? "WatermarkPrunerFailureQueue.Arn"
                    : "StreamFailureQueue.Arn";
        };
    }

    /** {@code role action resource} of every grant of the three roles. */
    private Set<String> granted() {
        Set<String> grants = new TreeSet<>();
        for (String role : ROLES) {
            for (JsonNode policy : resources.path(role).path("Properties").path("Policies")) {
                for (JsonNode statement : policy.path("PolicyDocument").path("Statement")) {
                    for (String action : list(statement.path("Action"))) {
                        for (String resource : list(statement.path("Resource"))) {
                            grants.add(role + " " + action + " " + resource);
                        }
                    }
                }
            }
        }
        return grants;
    }

    private static boolean usedByLambda(String grant) {
        String[] parts = grant.split(" ");
        String resource = parts[2].endsWith("LogGroup.Arn") ? "<log group>" : parts[2];
        return USED_BY_LAMBDA.contains(parts[0] + " " + parts[1] + " " + resource)
                || USED_BY_LAMBDA.contains("* " + parts[1] + " " + resource);
    }

    private static List<String> list(JsonNode node) {
        List<String> values = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(value -> values.add(value.asText()));
        } else {
            values.add(node.asText());
        }
        return values;
    }
}
