package io.tally.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.core.EntityType;
import io.tally.core.ShardSetting;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.TableSchema;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.Domain;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.domain.TableIndex;
import io.tally.core.domain.TableIndexes;
import io.tally.core.template.DeploymentTemplate;
import io.tally.domains.orgs.OrgKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/** The deployment's settings, read from {@code infra/template.yaml}, and the code it names. */
class TemplateTest {
    private static final Path TEMPLATE = Path.of("template.yaml");
    private static final Path RULES = Path.of("events", "rules");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Actions the Service Authorization Reference lists with no resource type: grantable only on "*". */
    private static final List<String> ACTIONS_WITHOUT_RESOURCE_TYPES = List.of("dynamodb:ListStreams",
            "xray:PutTraceSegments", "xray:PutTelemetryRecords");
    /** Resource types that take tags in CloudFormation; each must carry the stage's. */
    private static final List<String> TAGGABLE = List.of("AWS::CloudWatch::Alarm", "AWS::DynamoDB::Table", "AWS::KMS::Key",
            "AWS::Events::EventBus", "AWS::IAM::Role", "AWS::Logs::LogGroup", "AWS::SNS::Topic", "AWS::SQS::Queue",
            "AWS::SecretsManager::Secret", "AWS::Serverless::HttpApi");

    private final JsonNode template = DeploymentTemplate.read(TEMPLATE).tree();
    private final JsonNode resources = template.path("Resources");

    private JsonNode properties(String logicalId) {
        return resources.path(logicalId).path("Properties");
    }

    private List<String> resourcesOfType(String type) {
        List<String> ids = new ArrayList<>();
        resources.fields().forEachRemaining(e -> {
            if (e.getValue().path("Type").asText().equals(type)) {
                ids.add(e.getKey());
            }
        });
        return ids;
    }

    private static List<String> texts(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }

    @Test
    void template_isASamTemplate() {
        assertThat(template.path("Transform").asText()).isEqualTo("AWS::Serverless-2016-10-31");
    }

    @Test
    void table_hasKeysIndexesStreamTtlBackupsAndOnDemandBilling() {
        JsonNode table = properties("Table");
        assertThat(resources.path("Table").path("Type").asText()).isEqualTo("AWS::DynamoDB::Table");
        assertThat(resources.path("Table").path("DeletionPolicy").asText()).isEqualTo("Retain");
        assertThat(table.path("BillingMode").asText()).isEqualTo("PAY_PER_REQUEST");
        assertThat(table.path("KeySchema").toString()).isEqualTo(
                "[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]");
        JsonNode cycleSelector = StreamSupport.stream(table.path("GlobalSecondaryIndexes").spliterator(), false)
                .filter(i -> i.path("IndexName").asText().equals(TableSchema.CYCLE_SELECTOR_INDEX))
                .findFirst().orElseThrow();
        assertThat(cycleSelector.path("KeySchema").toString()).isEqualTo(
                "[{\"AttributeName\":\"selector\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"data\",\"KeyType\":\"RANGE\"}]");
        // What the selector and chart lists render; not the stream engine's watermarks and srcRev.
        assertThat(cycleSelector.path("Projection").path("ProjectionType").asText()).isEqualTo("INCLUDE");
        JsonNode reverseLookup = StreamSupport.stream(table.path("GlobalSecondaryIndexes").spliterator(), false)
                .filter(i -> i.path("IndexName").asText().equals(OrgKeys.REVERSE_LOOKUP_INDEX))
                .findFirst().orElseThrow();
        // Sparse: keyed by lookupKey, which only teams, employees and memberships carry, not by sk itself.
        assertThat(reverseLookup.path("KeySchema").toString()).isEqualTo("[{\"AttributeName\":\"" + OrgKeys.LOOKUP_KEY
                + "\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"pk\",\"KeyType\":\"RANGE\"}]");
        assertThat(table.path("StreamSpecification").path("StreamViewType").asText()).isEqualTo("NEW_AND_OLD_IMAGES");
        assertThat(table.path("TimeToLiveSpecification").path("AttributeName").asText()).isEqualTo(TableSchema.TTL);
        assertThat(table.path("TimeToLiveSpecification").path("Enabled").asBoolean()).isTrue();
        assertThat(table.path("PointInTimeRecoverySpecification").path("PointInTimeRecoveryEnabled").asBoolean()).isTrue();
        // !Ref DeletionProtection: the YAML reader keeps the referenced name.
        assertThat(table.path("DeletionProtectionEnabled").asText()).isEqualTo("DeletionProtection");
        assertThat(template.path("Parameters").path("DeletionProtection").path("AllowedValues").toString())
                .isEqualTo("[\"true\",\"false\"]");
    }

    @Test
    void contributorInsights_watchTheTableAndEveryGlobalIndex_unlessTheParameterTurnsThemOff() {
        JsonNode table = properties("Table");
        List<JsonNode> watched = new ArrayList<>(List.of(table));
        table.path("GlobalSecondaryIndexes").forEach(watched::add);
        assertThat(watched).hasSizeGreaterThan(5);
        for (JsonNode node : watched) {
            // !If [HasContributorInsights, true, false], as the YAML reader keeps it.
            assertThat(texts(node.path("ContributorInsightsSpecification").path("Enabled")))
                    .as(node.path("IndexName").asText("the table")).containsExactly("HasContributorInsights", "true",
                            "false");
        }
        // A local index shares the table's partitions, and takes no specification of its own.
        table.path("LocalSecondaryIndexes").forEach(index ->
                assertThat(index.has("ContributorInsightsSpecification")).as(index.path("IndexName").asText()).isFalse());
        assertThat(template.path("Parameters").path("ContributorInsights").path("Default").asText()).isEqualTo("true");
        assertThat(texts(template.path("Conditions").path("HasContributorInsights"))).containsExactly(
                "ContributorInsights", "true");
    }

    @Test
    void everyGlobalIndex_hasAReadAndAWriteThrottleAlarm_asTheTableHas() {
        List<String> expected = new ArrayList<>();
        properties("Table").path("GlobalSecondaryIndexes").forEach(index -> {
            expected.add(index.path("IndexName").asText() + " ReadThrottleEvents");
            expected.add(index.path("IndexName").asText() + " WriteThrottleEvents");
        });
        List<String> watched = new ArrayList<>();
        for (String id : resourcesOfType("AWS::CloudWatch::Alarm")) {
            JsonNode alarm = properties(id);
            Map<String, String> dimensions = dimensions(alarm.path("Dimensions"));
            if (!alarm.path("Namespace").asText().equals("AWS/DynamoDB")
                    || !dimensions.containsKey("GlobalSecondaryIndexName")) {
                continue;
            }
            assertThat(dimensions).as(id).containsEntry("TableName", "Table").hasSize(2);
            assertThat(alarm.path("Statistic").asText()).as(id).isEqualTo("Sum");
            assertThat(alarm.path("Threshold").asInt()).as(id).isZero();
            assertThat(alarm.path("ComparisonOperator").asText()).as(id).isEqualTo("GreaterThanThreshold");
            watched.add(dimensions.get("GlobalSecondaryIndexName") + " " + alarm.path("MetricName").asText());
        }
        assertThat(watched).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void parameters_coverStageShardsMemoryAndSnapStart() {
        JsonNode parameters = template.path("Parameters");
        assertThat(parameters.fieldNames()).toIterable().contains("Stage", "SelectorShards", "StatusShards",
                "GlobalShards", "WriterMemorySize", "StreamProcessorMemorySize", "SnapStart", "DeletionProtection");
        for (String shards : List.of("SelectorShards", "StatusShards", "GlobalShards")) {
            // The functions accept 1..100 and default to 4 (ShardCounts, StreamWiring).
            assertThat(parameters.path(shards).path("MinValue").asInt()).isEqualTo(1);
            assertThat(parameters.path(shards).path("MaxValue").asInt()).isEqualTo(100);
            assertThat(parameters.path(shards).path("Default").asInt()).isEqualTo(4);
        }
        JsonNode function = template.path("Globals").path("Function");
        assertThat(function.path("SnapStart").path("ApplyOn").asText()).isEqualTo("SnapStart");
        assertThat(texts(parameters.path("SnapStart").path("AllowedValues"))).containsExactly("PublishedVersions", "None");
        assertThat(function.path("AutoPublishAlias").asText()).isNotBlank();
        assertThat(function.path("Runtime").asText()).isIn("java17", "java21");
        // Issue 41: arm64 unless measured worse; the model cannot measure it here, so the deployer may choose.
        assertThat(texts(function.path("Architectures"))).containsExactly("Architecture");
        assertThat(parameters.path("Architecture").path("Default").asText()).isEqualTo("arm64");
        assertThat(texts(parameters.path("Architecture").path("AllowedValues"))).containsExactly("arm64", "x86_64");
        JsonNode environment = function.path("Environment").path("Variables");
        assertThat(environment.path("TABLE_NAME").asText()).isEqualTo("Table");
        assertThat(environment.path("SELECTOR_SHARDS").asText()).isEqualTo("SelectorShards");
        assertThat(environment.path("STATUS_SHARDS").asText()).isEqualTo("StatusShards");
        assertThat(environment.path("GLOBAL_SHARDS").asText()).isEqualTo("GlobalShards");
        // Issue 41: the functions' JIT. Every function C1 only (short, I/O-bound requests); the stream processor
        // C2 as well, by level: on java17 and java21 Lambda stops tiering at level 1 unless JAVA_TOOL_OPTIONS says a
        // level (Lambda Developer Guide, "Customize Java runtime startup behavior"), so +TieredCompilation alone
        // would not lift it.
        assertThat(environment.path("JAVA_TOOL_OPTIONS").asText()).contains("-XX:TieredStopAtLevel=1");
        assertThat(properties("StreamProcessorFunction").path("Environment").path("Variables")
                .path("JAVA_TOOL_OPTIONS").asText()).contains("-XX:TieredStopAtLevel=4");
    }

    @Test
    void writerFunction_isBehindTheHttpApiOnEveryRoute() {
        JsonNode writer = properties("WriterFunction");
        JsonNode api = writer.path("Events").path("Api");
        assertThat(api.path("Type").asText()).isEqualTo("HttpApi");
        assertThat(api.path("Properties").path("ApiId").asText()).isEqualTo("HttpApi");
        // No Path or Method: the $default route, so the handler's own router answers every path (404, 405).
        assertThat(api.path("Properties").has("Path")).isFalse();
        assertThat(resources.path("HttpApi").path("Type").asText()).isEqualTo("AWS::Serverless::HttpApi");
        assertThat(writer.path("CodeUri").asText()).isEqualTo("../writer-service/target/tally-writer.jar");
        // The secret's ARN, read at start: its value is never in the function's configuration.
        assertThat(writer.path("Environment").path("Variables").has("CURSOR_SECRET")).isFalse();
        assertThat(writer.path("Environment").path("Variables").path("CURSOR_SECRET_ARN").asText())
                .isEqualTo("CursorSecret");
        assertThat(statementWith("WriterRole", "secretsmanager:GetSecretValue").path("Resource").asText())
                .isEqualTo("CursorSecret");
    }

    @Test
    void streamProcessor_eventSourceMappingAsTheExactlyOnceDesignRequires() {
        JsonNode function = properties("StreamProcessorFunction");
        JsonNode stream = function.path("Events").path("Stream");
        assertThat(stream.path("Type").asText()).isEqualTo("DynamoDB");
        JsonNode esm = stream.path("Properties");
        assertThat(esm.path("Stream").asText()).isEqualTo("Table.StreamArn");
        assertThat(esm.path("StartingPosition").asText()).isEqualTo("TRIM_HORIZON");
        assertThat(esm.path("BatchSize").asInt()).isBetween(1, 10_000);
        // The batching window is the deployment's choice (README, "The batching window"): 0 unless set.
        assertThat(esm.path("MaximumBatchingWindowInSeconds").asText()).isEqualTo("StreamBatchingWindowSeconds");
        JsonNode window = template.path("Parameters").path("StreamBatchingWindowSeconds");
        assertThat(window.path("Type").asText()).isEqualTo("Number");
        assertThat(window.path("Default").asInt()).isZero();
        assertThat(window.path("MinValue").asInt()).isZero();
        assertThat(window.path("MaxValue").asInt()).isEqualTo(300);
        // docs/exactly-once.md: the watermarks are per shard, so one batch of a shard at a time.
        assertThat(esm.path("ParallelizationFactor").asInt()).isEqualTo(1);
        // The windowed handler needs the shard id, which only tumbling-window events carry.
        assertThat(esm.path("TumblingWindowInSeconds").asInt()).isPositive();
        assertThat(texts(esm.path("FunctionResponseTypes"))).containsExactly("ReportBatchItemFailures");
        assertThat(esm.path("BisectBatchOnFunctionError").asBoolean()).isTrue();
        // Never drop a record on its own: poison goes to the dead-letter route inside the function. Only a batch still
        // failing after 23 hours is given up, and recorded in the on-failure queue before the 24-hour retention
        // would drop it unrecorded.
        assertThat(esm.path("MaximumRetryAttempts").asInt()).isEqualTo(-1);
        assertThat(esm.path("MaximumRecordAgeInSeconds").asInt()).isBetween(20 * 3600, 24 * 3600 - 1800);
        JsonNode onFailure = esm.path("DestinationConfig").path("OnFailure");
        assertThat(onFailure.path("Type").asText()).isEqualTo("SQS");
        assertThat(onFailure.path("Destination").asText()).isEqualTo("StreamFailureQueue.Arn");
        assertThat(resources.path("StreamFailureQueue").path("Type").asText()).isEqualTo("AWS::SQS::Queue");
        // The mapping's own metrics: records polled, filtered out, invoked with, failed, given up.
        assertThat(texts(esm.path("MetricsConfig").path("Metrics"))).containsExactly("EventCount");

        assertThat(function.path("Handler").asText()).isEqualTo("io.tally.stream.WindowedStreamHandler::handleRequest");
        assertThat(function.path("CodeUri").asText()).isEqualTo("../stream-processor/target/tally-stream-processor.jar");
        JsonNode environment = function.path("Environment").path("Variables");
        assertThat(environment.path("EVENT_BUS_NAME").asText()).isEqualTo("EventBus");
        // The stream handler flushes its metrics after each invocation and the batch can take a while.
        assertThat(function.path("Timeout").asInt()).isGreaterThanOrEqualTo(60);
    }

    @Test
    void watermarkPruner_runsHourlyFromTheStreamProcessorsJar() {
        JsonNode pruner = properties("WatermarkPrunerFunction");
        JsonNode hourly = pruner.path("Events").path("Hourly");
        assertThat(hourly.path("Type").asText()).isEqualTo("Schedule");
        // Each run continues the day's pass (WatermarkPruneHandler.PASS_INTERVAL) from its stored position.
        assertThat(hourly.path("Properties").path("Schedule").asText()).isEqualTo("rate(1 hour)");
        assertThat(pruner.path("CodeUri").asText()).isEqualTo(properties("StreamProcessorFunction").path("CodeUri").asText());
        assertThat(pruner.path("Handler").asText()).isEqualTo("io.tally.stream.WatermarkPruneHandler::handleRequest");
        // A run stops taking pages two minutes before its end (WatermarkPruneHandler.PAGE_MARGIN).
        assertThat(pruner.path("Timeout").asInt()).isEqualTo(900);
    }

    @Test
    void everyHandlerTheTemplateNames_existsWithTheInterfaceItsEventNeeds() throws Exception {
        List<String> functions = resourcesOfType("AWS::Serverless::Function");
        assertThat(functions).containsExactlyInAnyOrder("WriterFunction", "StreamProcessorFunction",
                "WatermarkPrunerFunction", "ActivityFeedFunction");
        for (String id : functions) {
            JsonNode function = properties(id);
            String[] handler = function.path("Handler").asText().split("::");
            assertThat(handler).as(id + " Handler is class::method").hasSize(2);
            Class<?> type = Class.forName(handler[0]);
            assertThat(Modifier.isPublic(type.getModifiers())).as(id + " handler class is public").isTrue();
            assertThat(type.getConstructor().getParameterCount()).as(id + " has a public no-argument constructor").isZero();
            if (function.path("Events").isMissingNode()) {
                // A rule's target (the subscriber example): it takes the EventBridge envelope as JSON.
                assertThat(com.amazonaws.services.lambda.runtime.RequestStreamHandler.class).as(id)
                        .isAssignableFrom(type);
                continue;
            }

            JsonNode event = function.path("Events").elements().next();
            Class<?>[] io = switch (event.path("Type").asText()) {
                case "HttpApi" -> new Class<?>[] {APIGatewayV2HTTPEvent.class, APIGatewayV2HTTPResponse.class};
                case "Schedule" -> new Class<?>[] {ScheduledEvent.class, String.class};
                case "DynamoDB" -> event.path("Properties").path("TumblingWindowInSeconds").asInt() > 0
                        ? new Class<?>[] {DynamodbTimeWindowEvent.class, TimeWindowEventResponse.class}
                        : new Class<?>[] {DynamodbEvent.class, StreamsEventResponse.class};
                default -> throw new AssertionError(id + ": unexpected event type " + event.path("Type"));
            };
            assertThat(requestHandlerTypes(type)).as(id + " implements RequestHandler<" + io[0].getSimpleName()
                    + ", " + io[1].getSimpleName() + ">").containsExactly(io);
            Method method = type.getMethod(handler[1], io[0], com.amazonaws.services.lambda.runtime.Context.class);
            assertThat(method.getReturnType()).isEqualTo(io[1]);
        }
    }

    private static Type[] requestHandlerTypes(Class<?> type) {
        for (Type candidate : type.getGenericInterfaces()) {
            if (candidate instanceof ParameterizedType parameterized
                    && parameterized.getRawType().equals(RequestHandler.class)) {
                return parameterized.getActualTypeArguments();
            }
        }
        return new Type[0];
    }

    @Test
    void subscriberExample_isTheActivityFeedRulesTarget_retriedThenDeadLettered_withItsOwnTableAndLeastPrivilege() {
        JsonNode target = properties("ActivityFeedRule").path("Targets").get(0);
        assertThat(target.path("Arn").toString()).contains("ActivityFeedFunction.Alias");
        assertThat(target.at("/RetryPolicy/MaximumRetryAttempts").asInt()).isPositive();
        // The duplicate marks must outlive the retries, or a late retry would be recorded twice.
        assertThat((long) target.at("/RetryPolicy/MaximumEventAgeInSeconds").asInt())
                .isLessThan(io.tally.core.activity.ActivityFeed.SEEN_FOR.toSeconds());
        assertThat(target.at("/DeadLetterConfig/Arn").toString()).contains("ActivityFeedDeadLetterQueue");
        assertThat(resources.at("/ActivityFeedDeadLetterQueue/Type").asText()).isEqualTo("AWS::SQS::Queue");
        JsonNode queuePolicy = properties("ActivityFeedDeadLetterQueuePolicy").at("/PolicyDocument/Statement/0");
        assertThat(queuePolicy.at("/Principal/Service").asText()).isEqualTo("events.amazonaws.com");
        assertThat(queuePolicy.toString()).contains("ActivityFeedRule");
        JsonNode permission = properties("ActivityFeedInvokePermission");
        assertThat(permission.path("Principal").asText()).isEqualTo("events.amazonaws.com");
        assertThat(permission.path("SourceArn").toString()).contains("ActivityFeedRule");

        JsonNode table = properties("ActivityTable");
        assertThat(table.at("/TimeToLiveSpecification/AttributeName").asText()).isEqualTo("ttl");
        assertThat(table.at("/TimeToLiveSpecification/Enabled").asBoolean()).isTrue();
        assertThat(table.has("StreamSpecification")).as("no stream: nothing derives from the feed").isFalse();
        assertThat(properties("ActivityFeedFunction").at("/Environment/Variables/ACTIVITY_TABLE_NAME").toString())
                .contains("ActivityTable");
        assertThat(properties("WriterFunction").at("/Environment/Variables/ACTIVITY_TABLE_NAME").toString())
                .contains("ActivityTable");

        List<String> actions = new ArrayList<>();
        properties("ActivityFeedRole").at("/Policies/0/PolicyDocument/Statement").forEach(statement -> {
            JsonNode action = statement.path("Action");
            List<String> names = action.isArray() ? texts(action) : List.of(action.asText());
            actions.addAll(names);
            if (names.contains("dynamodb:PutItem")) {
                assertThat(statement.path("Resource").toString()).contains("ActivityTable").doesNotContain("\"Table.");
            }
        });
        assertThat(actions).containsExactlyInAnyOrder("logs:CreateLogStream", "logs:PutLogEvents", "dynamodb:PutItem",
                "xray:PutTraceSegments", "xray:PutTelemetryRecords");
    }

    @Test
    void operationsDashboard_showsTheStreamAndTheApi() {
        assertThat(resourcesOfType("AWS::CloudWatch::Dashboard")).containsExactly("OperationsDashboard");
        String body = properties("OperationsDashboard").path("DashboardBody").toString();
        assertThat(body).contains("IteratorAge", "tally.stream.records", "tally.stream.coalescing.ratio",
                "tally.stream.poison", "tally.stream.failures", "AWS/ApiGateway", "\\\"Count\\\"", "4xx", "5xx",
                "Latency");
    }

    /**
     * What the functions flush to CloudWatch, as the stage's functions do (StageTag): every metric name, with the
     * dimension sets it comes with. Every meter of StreamMetrics is registered by calling each of its recording
     * methods once, and the writer's by answering a request no route matches (which counts an error too).
     */
    private static Map<String, java.util.Set<java.util.Set<String>>> flushedMetrics() throws Exception {
        io.micrometer.core.instrument.simple.SimpleMeterRegistry registry = io.tally.core.metrics.StageTag.apply(
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry(),
                Map.of(io.tally.core.metrics.StageTag.ENV, "test"));
        io.tally.stream.engine.StreamMetrics stream = new io.tally.stream.engine.StreamMetrics(registry);
        for (Method method : io.tally.stream.engine.StreamMetrics.class.getDeclaredMethods()) {
            if (Modifier.isStatic(method.getModifiers()) || method.getReturnType() != void.class) {
                continue;
            }
            Object[] arguments = new Object[method.getParameterCount()];
            Class<?>[] types = method.getParameterTypes();
            for (int i = 0; i < arguments.length; i++) {
                arguments[i] = types[i] == String.class ? "x" : types[i] == int.class ? (Object) 1
                        : types[i] == java.time.Duration.class ? java.time.Duration.ofMillis(1)
                        : failOn(method);
            }
            method.setAccessible(true);
            method.invoke(stream, arguments);
        }
        io.tally.writer.WriterApi writer = new io.tally.writer.WriterApi(io.tally.testkit.UnreachableDynamoDb.client(
                request -> {
                    throw new IllegalStateException("no route matches: nothing is read");
                }), "tally", java.time.Clock.systemUTC(), new byte[32], io.tally.core.ShardSettings.DEFAULTS,
                "tally-activity", io.tally.core.http.Authorization.OPEN, registry);
        writer.handle(new io.tally.core.http.ApiRequest("GET", "/no/such/route", Map.of(), Map.of(), Map.of(), null));

        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        new io.tally.core.metrics.EmfMetricsFlusher(registry,
                new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8)).flush();
        Map<String, java.util.Set<java.util.Set<String>>> metrics = new HashMap<>();
        for (String line : out.toString(java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode directive = JSON.readTree(line).at("/_aws/CloudWatchMetrics/0");
            assertThat(directive.path("Namespace").asText()).isEqualTo(io.tally.core.metrics.EmfMetricsFlusher.DEFAULT_NAMESPACE);
            java.util.Set<String> dimensions = new java.util.HashSet<>(texts(directive.path("Dimensions").path(0)));
            directive.path("Metrics").forEach(metric -> metrics.computeIfAbsent(metric.path("Name").asText(),
                    name -> new java.util.HashSet<>()).add(dimensions));
        }
        assertThat(metrics).containsKeys("tally.stream.poison", "tally.api.requests", "tally.api.latency.max");
        return metrics;
    }

    private static Object failOn(Method method) {
        throw new AssertionError("StreamMetrics." + method.getName() + " takes an argument this test cannot make up");
    }

    @Test
    void operationsDashboard_isJson_andFindsEveryTallyMetricByTheNameAndDimensionsTheCodeFlushes() throws Exception {
        String body = properties("OperationsDashboard").path("DashboardBody").get(0).asText();
        // !Sub's variables become strings; what is left must be the JSON CloudWatch takes.
        JsonNode dashboard = JSON.readTree(body.replaceAll("\\$\\{[A-Za-z0-9:.]+}", "x"));
        Map<String, java.util.Set<java.util.Set<String>>> flushed = flushedMetrics();
        java.util.regex.Pattern search = java.util.regex.Pattern.compile(
                "SEARCH\\('\\{Tally,([^}]*)} MetricName=\"([^\"]+)\"( Stage=\"x\")?'");
        List<String> found = new ArrayList<>();
        dashboard.path("widgets").forEach(widget -> widget.path("properties").path("metrics").forEach(metric -> {
            if (metric.path(0).isTextual() && metric.path(0).asText().equals("Tally")) {
                // ["Tally", name, dimension, value, ..., {options}]: exactly a name and dimension set flushed.
                java.util.Set<String> dimensions = new java.util.HashSet<>();
                for (int i = 2; i + 1 < metric.size() && metric.path(i).isTextual(); i += 2) {
                    dimensions.add(metric.path(i).asText());
                }
                String name = metric.path(1).asText();
                assertThat(flushed.get(name)).as(name + " is flushed with dimensions " + dimensions)
                        .isNotNull().contains(dimensions);
                found.add(name);
            } else if (metric.path(0).has("expression")) {
                String expression = metric.path(0).path("expression").asText();
                java.util.regex.Matcher matcher = search.matcher(expression);
                if (!expression.contains("SEARCH(")) {
                    return; // arithmetic over the metrics above, which are checked themselves
                }
                assertThat(matcher.find()).as(expression).isTrue();
                java.util.Set<String> dimensions = new java.util.HashSet<>(List.of(matcher.group(1).split(",")));
                String name = matcher.group(2);
                // The schema names every dimension of the metric, or SEARCH finds nothing; the stage is this one.
                assertThat(flushed.get(name)).as(expression).isNotNull().contains(dimensions);
                assertThat(matcher.group(3)).as(expression + " is limited to the stack's stage").isNotNull();
                found.add(name);
            }
        }));
        assertThat(found).contains("tally.stream.records", "tally.stream.derived.writes",
                "tally.stream.coalescing.ratio.sum", "tally.stream.coalescing.ratio.count", "tally.stream.poison",
                "tally.stream.failures", "tally.api.requests", "tally.api.errors", "tally.api.latency.max");
    }

    @Test
    void eventRules_areTheLocalBusRulesFiles() throws IOException {
        // The local runner matches infra/events/rules/*.json; the deployment must declare the very same patterns.
        Map<String, JsonNode> declared = new HashMap<>();
        String stackPrefix = "${AWS::StackName}-";
        for (String id : resourcesOfType("AWS::Events::Rule")) {
            JsonNode rule = properties(id);
            String name = rule.path("Name").asText();
            assertThat(name).as(id + " Name").startsWith(stackPrefix);
            assertThat(rule.path("EventBusName").asText()).as(id + " is on the stack's bus").isEqualTo("EventBus");
            declared.put(name.substring(stackPrefix.length()), rule);
        }
        Map<String, JsonNode> files = new HashMap<>();
        try (Stream<Path> paths = Files.list(RULES)) {
            for (Path file : paths.filter(p -> p.toString().endsWith(".json")).toList()) {
                JsonNode rule = JSON.readTree(file.toFile());
                files.put(rule.path("Name").asText(), rule);
            }
        }
        assertThat(declared.keySet()).containsExactlyInAnyOrderElementsOf(files.keySet());
        files.forEach((name, file) -> {
            assertThat(declared.get(name).path("EventPattern")).as(name + " EventPattern").isEqualTo(file.path("EventPattern"));
            assertThat(declared.get(name).path("Description").asText()).as(name + " Description")
                    .isEqualTo(file.path("Description").asText());
        });
    }

    @Test
    void alarms_watchIteratorAgeTheFailureDestinationPoisonRecordsTheGuardGivenUpEventsAndWritesAndItemSize() {
        Map<String, JsonNode> byMetric = new HashMap<>();
        for (String id : resourcesOfType("AWS::CloudWatch::Alarm")) {
            JsonNode alarm = properties(id);
            byMetric.put(alarm.path("Namespace").asText() + "/" + alarm.path("MetricName").asText(), alarm);
        }
        assertThat(byMetric).containsKeys("AWS/Lambda/IteratorAge", "AWS/SQS/ApproximateNumberOfMessagesVisible",
                "Tally/tally.stream.poison", "Tally/tally.stream.guard", "Tally/tally.stream.events.deadlettered",
                "Tally/tally.stream.derived.deadlettered", "Tally/tally.stream.derived.maxwriteunits.max");
        // The largest item written: a write unit is a KB of it, and DynamoDB refuses an item over 400 KB.
        JsonNode size = byMetric.get("Tally/tally.stream.derived.maxwriteunits.max");
        assertThat(size.path("Statistic").asText()).isEqualTo("Maximum");
        assertThat(size.path("Threshold").asInt()).isEqualTo(100);
        assertThat(size.path("ComparisonOperator").asText()).isEqualTo("GreaterThanThreshold");
        assertThat(size.path("AlarmDescription").asText()).contains("large derived item", "400 KB");
        JsonNode guard = byMetric.get("Tally/tally.stream.guard").path("Dimensions");
        assertThat(dimensions(guard)).containsEntry("reason", "past-failure");
        assertThat(byMetric.get("AWS/Lambda/IteratorAge").path("Dimensions").get(0).path("Value").asText())
                .isEqualTo("StreamProcessorFunction");
        assertThat(properties("StreamFailureAlarm").path("Dimensions").get(0).path("Value").asText())
                .isEqualTo("StreamFailureQueue.QueueName");
        assertThat(properties("WatermarkPrunerFailureAlarm").path("Dimensions").get(0).path("Value").asText())
                .isEqualTo("WatermarkPrunerFailureQueue.QueueName");
    }

    /** An alarm's dimensions, name to value (a !Ref reads as the referenced name). */
    private static Map<String, String> dimensions(JsonNode dimensions) {
        Map<String, String> byName = new java.util.LinkedHashMap<>();
        dimensions.forEach(dimension -> byName.put(dimension.path("Name").asText(), dimension.path("Value").asText()));
        return byName;
    }

    @Test
    void customMetricAlarms_watchTheirOwnStageOnly_withTheDimensionsTheCodeFlushes() throws Exception {
        // The functions tag every meter with the stage the template gives them (StageTag): an alarm on a custom metric
        // names the stage, or a second stage in the account would set it off (and leave it silent for its own).
        assertThat(template.path("Globals").at("/Function/Environment/Variables/" + io.tally.core.metrics.StageTag.ENV)
                .asText()).isEqualTo("Stage");
        // Each tag of a meter is a dimension, and CloudWatch matches an alarm's dimensions exactly: the stage and
        // the tags the code gives the meter, no more, no fewer.
        Map<String, java.util.Set<java.util.Set<String>>> flushed = flushedMetrics();
        List<String> custom = new ArrayList<>();
        for (String id : resourcesOfType("AWS::CloudWatch::Alarm")) {
            JsonNode alarm = properties(id);
            if (!alarm.path("Namespace").asText().equals(io.tally.core.metrics.EmfMetricsFlusher.DEFAULT_NAMESPACE)) {
                continue;
            }
            custom.add(id);
            Map<String, String> dimensions = dimensions(alarm.path("Dimensions"));
            assertThat(dimensions).as(id).containsEntry(io.tally.core.metrics.StageTag.KEY, "Stage");
            assertThat(flushed.get(alarm.path("MetricName").asText())).as(id + " watches a metric the code flushes, "
                    + "with these dimensions").isNotNull().contains(dimensions.keySet());
        }
        assertThat(custom).containsExactlyInAnyOrder("PoisonRecordAlarm", "ShardGuardAlarm", "EventDeadLetterAlarm",
                "DerivedWriteDeadLetterAlarm", "DerivedItemSizeAlarm");
    }

    @Test
    void emptyAlarmEmail_isSaidAfterEveryDeploy_andOnTheDashboard() throws IOException {
        // Empty by default (an address must confirm its subscription), so it must be visible that nobody is told.
        assertThat(template.path("Parameters").path("AlarmEmail").path("Default").asText()).isEmpty();
        // sam deploy prints the outputs after every deploy: one of them says who is told.
        JsonNode output = template.path("Outputs").path("AlarmNotifications");
        assertThat(output.has("Condition")).as("shown with and without an address").isFalse();
        JsonNode value = output.path("Value");
        assertThat(value.path(0).asText()).isEqualTo("HasAlarmEmail");
        assertThat(value.path(1).asText()).contains("${AlarmEmail}");
        assertThat(value.path(2).asText()).startsWith("NO ONE").contains("AlarmEmail=");
        // The dashboard's first widget says the same, in full width.
        JsonNode body = properties("OperationsDashboard").path("DashboardBody");
        JsonNode first = JSON.readTree(body.get(0).asText().replaceAll("\\$\\{[A-Za-z0-9:.]+}", "x"))
                .path("widgets").path(0);
        assertThat(first.path("type").asText()).isEqualTo("text");
        assertThat(first.path("width").asInt()).isEqualTo(24);
        assertThat(body.get(0).asText()).contains("\"markdown\": \"${AlarmNotice}\"");
        JsonNode notice = body.get(1).path("AlarmNotice");
        assertThat(notice.path(0).asText()).isEqualTo("HasAlarmEmail");
        assertThat(notice.path(2).asText()).contains("No one is told");
        // The address goes into the dashboard's JSON: it may hold neither a quote nor a backslash.
        String pattern = template.path("Parameters").path("AlarmEmail").path("AllowedPattern").asText();
        assertThat("ops@example.com").matches(pattern);
        assertThat("").matches(pattern);
        assertThat("o\"ps@example.com").doesNotMatch(pattern);
        assertThat("o\\ps@example.com").doesNotMatch(pattern);
    }

    @Test
    void api5xxAlarm_firesOnSomeBadMinutesOutOfFive_notOnlyWhenEveryMinuteIsBad() {
        JsonNode alarm = properties("Api5xxAlarm");
        assertThat(alarm.path("MetricName").asText()).isEqualTo("5xx");
        assertThat(alarm.path("Statistic").asText()).isEqualTo("Sum");
        assertThat(alarm.path("Period").asInt()).isEqualTo(60);
        // M of N: 3 of 5 minutes, each with at least one 5xx. 5 of 5 stayed silent through an outage with one
        // good minute in five.
        assertThat(alarm.path("EvaluationPeriods").asInt()).isEqualTo(5);
        assertThat(alarm.path("DatapointsToAlarm").asInt()).isEqualTo(3);
        assertThat(alarm.path("Threshold").asInt()).isEqualTo(1);
        assertThat(alarm.path("ComparisonOperator").asText()).isEqualTo("GreaterThanOrEqualToThreshold");
        assertThat(alarm.path("TreatMissingData").asText()).isEqualTo("notBreaching");
    }

    @Test
    void iamPolicies_areScopedToTheStacksOwnResources() {
        // Resource strings as the YAML reader keeps them: !GetAtt X.Arn reads "X.Arn", !Sub keeps its text.
        List<String> allowed = List.of("WriterLogGroup.Arn", "StreamProcessorLogGroup.Arn",
                "WatermarkPrunerLogGroup.Arn", "Table.Arn",
                "${Table.Arn}/index/*", "${Table.Arn}/stream/*", "EventBus.Arn", "StreamFailureQueue.Arn",
                "WatermarkPrunerFailureQueue.Arn", "CursorSecret", "ActivityFeedLogGroup.Arn", "ActivityTable.Arn",
                "QuotaTable.Arn");
        List<String> roles = resourcesOfType("AWS::IAM::Role");
        assertThat(roles).containsExactlyInAnyOrder("WriterRole", "StreamProcessorRole", "WatermarkPrunerRole",
                "ActivityFeedRole");
        for (String role : roles) {
            JsonNode properties = properties(role);
            assertThat(properties.has("ManagedPolicyArns")).as(role + " has no managed policies").isFalse();
            for (JsonNode policy : properties.path("Policies")) {
                for (JsonNode statement : policy.path("PolicyDocument").path("Statement")) {
                    assertThat(statement.path("Effect").asText()).isEqualTo("Allow");
                    JsonNode resource = statement.path("Resource");
                    List<String> resourceList = resource.isArray() ? texts(resource) : List.of(resource.asText());
                    List<String> actions = statement.path("Action").isArray()
                            ? texts(statement.path("Action")) : List.of(statement.path("Action").asText());
                    if (resourceList.contains("*")) {
                        // Only actions with no resource-level permission may name every resource, each alone.
                        assertThat(resourceList).as(role + " " + statement.path("Sid").asText()).containsExactly("*");
                        assertThat(actions).as(role + " " + statement.path("Sid").asText())
                                .isSubsetOf(ACTIONS_WITHOUT_RESOURCE_TYPES);
                        continue;
                    }
                    assertThat(resourceList).as(role + " " + statement.path("Sid").asText()).isSubsetOf(allowed);
                    assertThat(actions).as(role + " actions").noneMatch(a -> a.contains("*"));
                }
            }
        }
        for (String function : resourcesOfType("AWS::Serverless::Function")) {
            assertThat(properties(function).path("Role").asText()).as(function + " uses its own scoped role")
                    .isEqualTo(function.replace("Function", "Role") + ".Arn");
            assertThat(properties(function).has("Policies")).isFalse();
        }
        // The stream processor writes derived items and dead letters, reads the stream, publishes events, and
        // the writer never touches the stream or the bus.
        assertThat(actionsOf("StreamProcessorRole")).contains("dynamodb:GetRecords", "dynamodb:UpdateItem",
                "dynamodb:PutItem", "events:PutEvents", "sqs:SendMessage");
        // ... and removes the memberships of deleted teams and employees (the cascade's reads and deletes).
        assertThat(actionsOf("StreamProcessorRole")).contains("dynamodb:Query", "dynamodb:BatchGetItem",
                "dynamodb:DeleteItem");
        assertThat(actionsOf("WriterRole")).doesNotContain("dynamodb:GetRecords", "events:PutEvents", "dynamodb:Scan");
        assertThat(actionsOf("WatermarkPrunerRole")).containsExactlyInAnyOrder("logs:CreateLogStream",
                "logs:PutLogEvents", "dynamodb:ListStreams", "dynamodb:DescribeStream", "dynamodb:Scan",
                "dynamodb:UpdateItem", "dynamodb:GetItem", "dynamodb:DeleteItem", "dynamodb:Query",
                "dynamodb:BatchGetItem", "dynamodb:PutItem", "sqs:SendMessage", "xray:PutTraceSegments",
                "xray:PutTelemetryRecords");
    }

    @Test
    void listStreams_isGrantedOnEveryResource_asItHasNoResourceLevelPermission() {
        for (String role : List.of("StreamProcessorRole", "WatermarkPrunerRole")) {
            JsonNode statement = statementWith(role, "dynamodb:ListStreams");
            assertThat(texts(statement.path("Action").isArray() ? statement.path("Action")
                    : JSON.createArrayNode().add(statement.path("Action")))).as(role).containsExactly("dynamodb:ListStreams");
            assertThat(statement.path("Resource").asText()).as(role).isEqualTo("*");
        }
    }

    @Test
    void functions_publishANewVersionOnAnyPropertyChange_parametersIncluded() {
        JsonNode function = template.path("Globals").path("Function");
        assertThat(function.path("AutoPublishAlias").asText()).isEqualTo("live");
        assertThat(function.path("AutoPublishAliasAllProperties").asBoolean()).isTrue();
    }

    @Test
    void watermarkPruner_failedRunsAreRecordedNotRetriedBlindly() {
        JsonNode config = properties("WatermarkPrunerFunction").path("EventInvokeConfig");
        assertThat(config.path("MaximumRetryAttempts").asInt()).isZero();
        JsonNode onFailure = config.path("DestinationConfig").path("OnFailure");
        assertThat(onFailure.path("Type").asText()).isEqualTo("SQS");
        assertThat(onFailure.path("Destination").asText()).isEqualTo("WatermarkPrunerFailureQueue.Arn");
        assertThat(actionsOf("WatermarkPrunerRole")).contains("sqs:SendMessage");
    }

    @Test
    void everyAlarm_notifiesTheAlarmTopic_andEveryFunctionHasErrorAndThrottleAlarms() {
        assertThat(resources.path("AlarmTopic").path("Type").asText()).isEqualTo("AWS::SNS::Topic");
        assertThat(resources.path("AlarmEmailSubscription").path("Condition").asText()).isEqualTo("HasAlarmEmail");
        Map<String, List<String>> metricsByFunction = new HashMap<>();
        List<String> tableMetrics = new ArrayList<>();
        List<String> apiMetrics = new ArrayList<>();
        for (String id : resourcesOfType("AWS::CloudWatch::Alarm")) {
            JsonNode alarm = properties(id);
            assertThat(texts(alarm.path("AlarmActions"))).as(id + " AlarmActions").containsExactly("AlarmTopic");
            assertThat(texts(alarm.path("OKActions"))).as(id + " OKActions").containsExactly("AlarmTopic");
            JsonNode dimension = alarm.path("Dimensions").path(0);
            String namespace = alarm.path("Namespace").asText();
            if (namespace.equals("AWS/Lambda") && dimension.path("Name").asText().equals("FunctionName")) {
                metricsByFunction.computeIfAbsent(dimension.path("Value").asText(), f -> new ArrayList<>())
                        .add(alarm.path("MetricName").asText());
            } else if (namespace.equals("AWS/DynamoDB")) {
                tableMetrics.add(alarm.path("MetricName").asText());
            } else if (namespace.equals("AWS/ApiGateway")) {
                apiMetrics.add(alarm.path("MetricName").asText());
            }
        }
        for (String function : resourcesOfType("AWS::Serverless::Function")) {
            assertThat(metricsByFunction.get(function)).as(function).contains("Errors", "Throttles");
        }
        assertThat(tableMetrics).contains("ReadThrottleEvents", "WriteThrottleEvents");
        assertThat(apiMetrics).contains("5xx", "Latency");
    }

    /** Issue 41: structured logs. Every function logs JSON lines, at a level Lambda passes to it. */
    @Test
    void everyFunction_logsJsonToItsOwnLogGroup() {
        for (String function : resourcesOfType("AWS::Serverless::Function")) {
            JsonNode logging = properties(function).path("LoggingConfig");
            assertThat(logging.path("LogFormat").asText()).as(function).isEqualTo("JSON");
            assertThat(logging.path("ApplicationLogLevel").asText()).as(function).isEqualTo("INFO");
            assertThat(logging.path("SystemLogLevel").asText()).as(function).isEqualTo("INFO");
            assertThat(resources.path(logging.path("LogGroup").asText()).path("Type").asText()).as(function)
                    .isEqualTo("AWS::Logs::LogGroup");
        }
    }

    @Test
    void functions_areTracedAndTagged_andEveryTaggableResourceCarriesTheStage() {
        JsonNode function = template.path("Globals").path("Function");
        assertThat(function.path("Tracing").asText()).isEqualTo("Active");
        assertThat(function.path("PropagateTags").asBoolean()).isTrue();
        assertThat(function.path("Tags").has("tally:stage")).isTrue();
        for (String role : resourcesOfType("AWS::IAM::Role")) {
            assertThat(actionsOf(role)).as(role).contains("xray:PutTraceSegments", "xray:PutTelemetryRecords");
        }
        for (String type : TAGGABLE) {
            for (String id : resourcesOfType(type)) {
                JsonNode tags = properties(id).path("Tags");
                boolean tagged = tags.isArray()
                        ? StreamSupport.stream(tags.spliterator(), false)
                                .anyMatch(tag -> tag.path("Key").asText().equals("tally:stage"))
                        : tags.has("tally:stage");
                assertThat(tagged).as(id + " tagged with tally:stage").isTrue();
            }
        }
        for (String id : resourcesOfType("AWS::Logs::LogGroup")) {
            assertThat(properties(id).path("RetentionInDays").asInt()).as(id + " retention").isPositive();
        }
    }

    @Test
    void writerReservedConcurrency_isNoneByDefault_soTheStackDeploysOnAnAccountOfAnyQuota() {
        // Lambda keeps 100 of the account's concurrency unreserved: a reservation of N fails to deploy on an account
        // whose quota is below N + 100, and new accounts have 10 to 50.
        JsonNode parameter = template.path("Parameters").path("WriterReservedConcurrency");
        assertThat(parameter.path("Default").asInt()).isZero();
        assertThat(parameter.path("MinValue").asInt()).isZero();
        // 0 leaves the property out (AWS::NoValue): a reservation of 0 would stop the function altogether.
        assertThat(template.path("Conditions").path("HasWriterReservedConcurrency").toString())
                .isEqualTo("[[\"WriterReservedConcurrency\",\"0\"]]");
        assertThat(texts(properties("WriterFunction").path("ReservedConcurrentExecutions")))
                .containsExactly("HasWriterReservedConcurrency", "WriterReservedConcurrency", "AWS::NoValue");
        for (String function : resourcesOfType("AWS::Serverless::Function")) {
            if (!function.equals("WriterFunction")) {
                assertThat(properties(function).has("ReservedConcurrentExecutions")).as(function).isFalse();
            }
        }
    }

    @Test
    void preflights_needNoToken_anOptionsRouteOnEveryPathWithoutTheAuthorizer_winsOverTheDefaultRoute() {
        JsonNode events = properties("WriterFunction").path("Events");
        // $default (no Path): every request no other route matches, OPTIONS included, with the default JWT authorizer.
        assertThat(events.path("Api").path("Properties").has("Path")).isFalse();
        assertThat(properties("HttpApi").at("/Auth/DefaultAuthorizer").asText()).isEqualTo("TallyJwt");
        // A browser's preflight carries no token: OPTIONS on any path takes a route of its own without the authorizer
        // (more specific than $default), where API Gateway answers it from the CORS configuration.
        List<JsonNode> options = new ArrayList<>();
        events.forEach(event -> {
            if (event.path("Properties").path("Method").asText().equalsIgnoreCase("OPTIONS")) {
                options.add(event);
            }
        });
        assertThat(options).hasSize(1);
        JsonNode preflight = options.get(0);
        assertThat(preflight.path("Type").asText()).isEqualTo("HttpApi");
        assertThat(preflight.at("/Properties/ApiId").asText()).isEqualTo("HttpApi");
        assertThat(preflight.at("/Properties/Path").asText()).isEqualTo("/{proxy+}");
        assertThat(preflight.at("/Properties/Auth/Authorizer").asText()).isEqualTo("NONE");
        // No OPTIONS route of the API's own definition could take a preflight with the authorizer instead.
        properties("HttpApi").at("/DefinitionBody/paths").forEach(path ->
                assertThat(path.has("options")).isFalse());
        JsonNode cors = properties("HttpApi").path("CorsConfiguration");
        assertThat(cors.isObject()).as("API Gateway answers preflights only with a CORS configuration").isTrue();
        assertThat(texts(cors.path("AllowHeaders"))).contains("authorization");
    }

    @Test
    void api_answersBrowsersPreflights_logsAccessWithTheCaller() throws IOException {
        JsonNode api = properties("HttpApi");
        JsonNode cors = api.path("CorsConfiguration");
        // CORS for the origins a deployment names only: none (CORS off) by default, never "*" unless chosen.
        assertThat(texts(cors.path("AllowOrigins"))).containsExactly("HasCorsOrigins", "CorsAllowOrigins",
                "AWS::NoValue");
        assertThat(template.path("Parameters").path("CorsAllowOrigins").path("Default").asText()).isEmpty();
        assertThat(template.path("Conditions").path("HasCorsOrigins").toString()).contains("CorsAllowOrigins");
        assertThat(texts(cors.path("AllowMethods"))).contains("GET", "POST", "PUT", "PATCH", "DELETE");
        assertThat(texts(cors.path("AllowHeaders"))).contains("content-type", "if-match", "authorization");
        assertThat(texts(cors.path("ExposeHeaders"))).contains("etag", "location");
        assertThat(api.path("AccessLogSettings").path("DestinationArn").asText()).isEqualTo("ApiAccessLogGroup.Arn");
        JsonNode format = JSON.readTree(api.path("AccessLogSettings").path("Format").asText());
        assertThat(format.path("status").asText()).isEqualTo("$context.status");
        // Who called: the subject of the token the JWT authorizer verified (HTTP API's variable for a JWT claim),
        // by which route, and why API Gateway refused a request itself.
        assertThat(format.path("caller").asText()).isEqualTo("$context.authorizer.claims.sub");
        assertThat(format.path("routeKey").asText()).isEqualTo("$context.routeKey");
        assertThat(format.path("error").asText()).isEqualTo("$context.error.message");
        assertThat(format.path("authorizerError").asText()).isEqualTo("$context.authorizer.error");
    }

    @Test
    void writeQuota_isCountedInATableOfItsOwn_withDomainsRates_andTheWriterMayUpdateOnlyThere() {
        JsonNode quota = properties("QuotaTable");
        assertThat(quota.path("KeySchema").findValues("AttributeName").stream().map(JsonNode::asText).toList())
                .containsExactly("pk");
        assertThat(quota.has("StreamSpecification")).as("no stream: the stream processor never sees it").isFalse();
        assertThat(quota.path("TimeToLiveSpecification").path("AttributeName").asText()).isEqualTo("expires");
        JsonNode parameters = template.path("Parameters");
        assertThat(parameters.path("WriteQuota").path("Default").asText()).isEqualTo("20/100");
        assertThat(parameters.path("AdminWriteQuota").path("Default").asText()).isEqualTo("200/1000");
        JsonNode variables = properties("WriterFunction").path("Environment").path("Variables");
        assertThat(variables.path("WRITE_QUOTA_TABLE").asText()).isEqualTo("QuotaTable");
        assertThat(variables.path("WRITE_QUOTA").asText()).isEqualTo("WriteQuota");
        assertThat(variables.path("ADMIN_WRITE_QUOTA").asText()).isEqualTo("AdminWriteQuota");
        List<String> grants = new ArrayList<>();
        resources.path("WriterRole").path("Properties").path("Policies").findValues("Statement").forEach(statements ->
                statements.forEach(statement -> {
                    if (statement.path("Resource").asText().equals("QuotaTable.Arn")) {
                        grants.add(statement.path("Action").asText());
                    }
                }));
        assertThat(grants).containsExactly("dynamodb:UpdateItem");
    }

    @Test
    void activityTable_outlivesTheStack_withPointInTimeRecoveryAndDeletionProtection() {
        JsonNode table = resources.path("ActivityTable");
        assertThat(table.path("DeletionPolicy").asText()).isEqualTo("Retain");
        assertThat(table.path("UpdateReplacePolicy").asText()).isEqualTo("Retain");
        assertThat(table.path("Properties").path("PointInTimeRecoverySpecification")
                .path("PointInTimeRecoveryEnabled").asBoolean()).isTrue();
        assertThat(table.path("Properties").path("DeletionProtectionEnabled").asText()).isEqualTo("DeletionProtection");
    }

    @Test
    void alarmTopic_isEncryptedWithAKeyAlarmsCanUse_andTheArchiveWithTheCustomersKeyWhenGiven() {
        // SNS's AWS-managed key would refuse CloudWatch alarms: the customer's key, or the stack's own.
        assertThat(texts(properties("AlarmTopic").path("KmsMasterKeyId"))).containsExactly("HasCustomerKey",
                "EncryptionKeyArn", "AlarmTopicKey.Arn");
        JsonNode key = resources.path("AlarmTopicKey");
        assertThat(key.path("Type").asText()).isEqualTo("AWS::KMS::Key");
        assertThat(key.path("Condition").asText()).isEqualTo("OwnAlarmKey");
        assertThat(key.path("Properties").path("EnableKeyRotation").asBoolean()).isTrue();
        List<JsonNode> statements = new ArrayList<>();
        key.path("Properties").path("KeyPolicy").path("Statement").forEach(statements::add);
        JsonNode alarms = statements.stream().filter(statement -> statement.path("Principal").path("Service")
                .asText().equals("cloudwatch.amazonaws.com")).findFirst().orElseThrow();
        assertThat(texts(alarms.path("Action"))).containsExactlyInAnyOrder("kms:Decrypt", "kms:GenerateDataKey*");
        assertThat(alarms.path("Condition").path("StringEquals").path("aws:SourceAccount").asText())
                .isEqualTo("AWS::AccountId");
        assertThat(texts(properties("EventArchive").path("KmsKeyIdentifier"))).containsExactly("HasCustomerKey",
                "EncryptionKeyArn", "AWS::NoValue");
        assertThat(template.path("Parameters").path("EncryptionKeyArn").path("Default").asText()).isEmpty();
    }

    @Test
    void userPool_namesAreCaseInsensitive_andThreatProtectionIsEnforcedByDefault() {
        JsonNode pool = properties("UserPool");
        assertThat(pool.path("UsernameConfiguration").path("CaseSensitive").isBoolean()).isTrue();
        assertThat(pool.path("UsernameConfiguration").path("CaseSensitive").asBoolean()).isFalse();
        assertThat(template.path("Parameters").path("UserPoolThreatProtection").path("Default").asText())
                .isEqualTo("ENFORCED");
        assertThat(pool.path("UserPoolAddOns").get(1).path("AdvancedSecurityMode").asText())
                .isEqualTo("UserPoolThreatProtection");
        // Threat protection needs the Plus plan.
        assertThat(texts(pool.path("UserPoolTier"))).containsExactly("ThreatProtection", "PLUS", "ESSENTIALS");
    }

    @Test
    void api_needsAJwtOnEveryRoute_fromTheStacksUserPoolOrAnExternalIssuer() {
        JsonNode auth = properties("HttpApi").path("Auth");
        assertThat(auth.path("DefaultAuthorizer").asText()).isEqualTo("TallyJwt");
        JsonNode authorizer = auth.path("Authorizers").path("TallyJwt");
        assertThat(authorizer.path("IdentitySource").asText()).isEqualTo("$request.header.Authorization");
        // !If [UseCognito, the pool's issuer, AuthIssuer]; the YAML reader keeps the condition and both branches.
        assertThat(texts(authorizer.path("JwtConfiguration").path("issuer")))
                .containsExactly("UseCognito", "https://${UserPool.ProviderURL}", "AuthIssuer");
        assertThat(texts(authorizer.path("JwtConfiguration").path("audience").path(0)))
                .containsExactly("UseCognito", "UserPoolClient", "AuthAudience");
        assertThat(texts(template.path("Conditions").path("UseCognito")).toString()).contains("AuthIssuer");
        assertThat(template.path("Parameters").path("AuthIssuer").path("Default").asText()).isEmpty();
        assertThat(template.path("Rules").path("ExternalIssuerNeedsAudience").isObject()).isTrue();

        for (String cognito : List.of("UserPool", "UserPoolClient", "AdminGroup")) {
            assertThat(resources.path(cognito).path("Condition").asText()).as(cognito).isEqualTo("UseCognito");
        }
        assertThat(resources.path("UserPool").path("Type").asText()).isEqualTo("AWS::Cognito::UserPool");
        assertThat(properties("UserPool").path("AdminCreateUserConfig").path("AllowAdminCreateUserOnly").asBoolean())
                .isTrue();
        assertThat(properties("UserPool").path("UserPoolTags").has("tally:stage")).isTrue();
        assertThat(properties("UserPoolClient").path("GenerateSecret").asBoolean()).isFalse();
        assertThat(texts(properties("UserPoolClient").path("ExplicitAuthFlows")))
                .contains("ALLOW_USER_SRP_AUTH", "ALLOW_ADMIN_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH");
        // The group the writer reads from cognito:groups.
        assertThat(properties("AdminGroup").path("GroupName").asText()).isEqualTo(io.tally.core.http.Caller.ADMIN);
        JsonNode outputs = template.path("Outputs");
        assertThat(outputs.path("UserPoolId").path("Condition").asText()).isEqualTo("UseCognito");
        assertThat(outputs.path("UserPoolClientId").path("Condition").asText()).isEqualTo("UseCognito");
        assertThat(outputs.has("AuthIssuerUrl")).isTrue();

        // The writer checks the routes' rules against the verified claims; the read side is public or not.
        JsonNode environment = properties("WriterFunction").path("Environment").path("Variables");
        assertThat(environment.path("AUTH_ENABLED").asText()).isEqualTo("true");
        assertThat(environment.path("PUBLIC_READ_SIDE").asText()).isEqualTo("PublicReadSide");
        assertThat(texts(template.path("Parameters").path("PublicReadSide").path("AllowedValues")))
                .containsExactly("true", "false");
        // No function calls Cognito: the claims arrive verified in the event.
        for (String role : resourcesOfType("AWS::IAM::Role")) {
            assertThat(actionsOf(role)).as(role).noneMatch(action -> action.startsWith("cognito"));
        }
    }

    /** The writer's route table, as the template's generated sections are made from it. */
    private static List<io.tally.core.http.Router.Rule> writerRoutes() {
        return TemplateSections.writerRoutes(DomainRegistry.load());
    }

    @Test
    void everyGeneratedSection_isTheRegistrys_andRegeneratingChangesNothing() throws IOException {
        String text = Files.readString(TEMPLATE);
        List<TemplateSections.Section> sections = TemplateSections.of(DomainRegistry.load());
        assertThat(sections).extracting(TemplateSections.Section::name)
                .containsExactly("read-side routes", "read-side route settings", "stream filters", "table indexes",
                        "index throttle alarms", "shard parameters", "shard variables");
        assertThat(TemplateSections.stale(text, sections)).isEmpty();
        assertThat(TemplateSections.regenerate(text, sections)).isEqualTo(text);
        // A section that differs is named, and regenerating writes it back between its markers.
        String moved = text.replace(sections.get(0).text(), sections.get(0).text().replace("/stats/global:",
                "/stats/globals:"));
        assertThat(moved).isNotEqualTo(text);
        assertThat(TemplateSections.stale(moved, sections)).containsExactly("read-side routes");
        assertThat(TemplateSections.regenerate(moved, sections)).isEqualTo(text);
    }

    /**
     * The table the template deploys is the one the domains' declared indexes make ({@link TableIndexes}): the same
     * indexes, keys and projections as the table DynamoDB Local gets.
     */
    @Test
    void table_isTheOneTheDomainsIndexesMake() {
        var deployed = TableDefinition.fromTemplate(DeploymentTemplate.read(TEMPLATE), "t");
        var declared = TableIndexes.createTableRequest(DomainRegistry.load(), "t");
        assertThat(deployed.globalSecondaryIndexes()).isEqualTo(declared.globalSecondaryIndexes());
        assertThat(deployed.localSecondaryIndexes()).isEqualTo(declared.localSecondaryIndexes());
        assertThat(deployed.keySchema()).isEqualTo(declared.keySchema());
        assertThat(deployed.attributeDefinitions())
                .containsExactlyInAnyOrderElementsOf(declared.attributeDefinitions());
        assertThat(deployed.streamSpecification()).isEqualTo(declared.streamSpecification());
        assertThat(deployed.billingMode()).isEqualTo(declared.billingMode());
    }

    /** An index a domain of one's own declares goes into the template's table, with the attributes it adds. */
    @Test
    void anOutsideDomainsIndex_isGeneratedIntoTheTemplatesTable() {
        var shelf = new DeclaredDomain(Declaration.of("shelf")
                .entityTypes(EntityType.base("TemplateShelf"))
                .indexes(TableIndex.global("ShelvesByLabel", "labelKey", "pk")
                        .described("Shelves by label."))
                .projects(TableSchema.CYCLE_SELECTOR_INDEX, "shelfId")) {
        };
        List<Domain> domains = new ArrayList<>(DomainRegistry.load().domains());
        domains.add(shelf);
        TemplateSections.Section indexes = TemplateSections.of(DomainRegistry.of(domains)).get(3);
        assertThat(indexes.text()).contains("        # Shelves by label.\n        - IndexName: ShelvesByLabel\n"
                + "          KeySchema:\n            - AttributeName: labelKey\n              KeyType: HASH\n")
                .contains("        - AttributeName: labelKey\n          AttributeType: S\n")
                .contains("              - month\n              - shelfId\n");
        // A global index of one's own is watched as Tally's are: its throttled reads and writes.
        assertThat(TemplateSections.of(DomainRegistry.of(domains)).get(4).text())
                .contains("  IndexShelvesByLabelReadThrottleAlarm:\n", "  IndexShelvesByLabelWriteThrottleAlarm:\n",
                        "        - Name: GlobalSecondaryIndexName\n          Value: ShelvesByLabel\n");
        assertThat(TemplateSections.stale(readTemplate(), TemplateSections.of(DomainRegistry.of(domains))))
                .containsExactly("table indexes", "index throttle alarms");
    }

    /**
     * A shard setting a domain of one's own declares becomes a parameter of the template and a variable of both
     * functions.
     */
    @Test
    void anOutsideDomainsShardSetting_isGeneratedIntoTheParametersAndTheFunctionsEnvironment() {
        var shelf = new DeclaredDomain(Declaration.of("shelf").entityTypes(EntityType.base("TemplateShelfShards"))
                .shardSettings(new ShardSetting("SHELF_SHARDS", 8, "Partitions of the shelves"))) {
        };
        List<Domain> domains = new ArrayList<>(DomainRegistry.load().domains());
        domains.add(shelf);
        List<TemplateSections.Section> sections = TemplateSections.of(DomainRegistry.of(domains));
        assertThat(sections.get(5).text()).endsWith("  ShelfShards:\n    Type: Number\n    Default: 8\n"
                + "    MinValue: 1\n    MaxValue: 100\n    Description: Partitions of the shelves (SHELF_SHARDS)."
                + " Changing it needs a rebuild of the derived data (verify --repair).\n");
        assertThat(sections.get(6).text()).endsWith("        SHELF_SHARDS: !Ref ShelfShards\n");
        assertThat(TemplateSections.stale(readTemplate(), sections)).containsExactly("shard parameters",
                "shard variables");
    }

    private static String readTemplate() {
        try {
            return Files.readString(TEMPLATE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> readSideRouteKeys() {
        return writerRoutes().stream()
                .filter(rule -> rule.access().kind() == io.tally.core.http.Access.Kind.READ_SIDE)
                .map(TemplateRoutes::routeKey).toList();
    }

    /**
     * Checks that the template's text between {@code beginMarker} (and the comment lines that follow it) and
     * {@code endMarker} is {@code generated}: {@code tally-local template} writes it.
     */
    private static void assertGeneratedSection(String beginMarker, String endMarker, String generated, String what)
            throws IOException {
        assertGeneratedSection(beginMarker, endMarker, generated, what, "the route table's");
    }

    private static void assertGeneratedSection(String beginMarker, String endMarker, String generated, String what,
            String source) throws IOException {
        String text = Files.readString(TEMPLATE);
        TemplateSections.Section section = new TemplateSections.Section(what, beginMarker, endMarker, generated);
        assertThat(TemplateSections.current(text, section)).as("infra/template.yaml's " + what + " are not " + source
                + ": regenerate them with `mvn -q -DskipTests package && java -jar local-runner/target/tally-local.jar"
                + " template`").isEqualTo(generated);
    }

    @Test
    void userPool_requiresAnAuthenticatorAppCode_signInBySrpNotByPassword_andIsProtectedFromDeletion() {
        // Admins read every user's data: a password alone must not be enough. MFA is required by default, with an
        // authenticator app (TOTP; SMS would need an SNS role), and OPTIONAL only as the way in for an existing pool.
        JsonNode pool = properties("UserPool");
        assertThat(pool.path("MfaConfiguration").asText()).isEqualTo("UserPoolMfa");
        JsonNode mfa = template.path("Parameters").path("UserPoolMfa");
        assertThat(mfa.path("Default").asText()).isEqualTo("ON");
        assertThat(texts(mfa.path("AllowedValues"))).containsExactlyInAnyOrder("ON", "OPTIONAL");
        assertThat(texts(pool.path("EnabledMfas"))).containsExactly("SOFTWARE_TOKEN_MFA");
        // SRP: the password is never sent. No USER_PASSWORD_AUTH; the admin flow needs AWS credentials.
        assertThat(texts(properties("UserPoolClient").path("ExplicitAuthFlows"))).containsExactlyInAnyOrder(
                "ALLOW_USER_SRP_AUTH", "ALLOW_ADMIN_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH");
        assertThat(properties("UserPoolClient").path("GenerateSecret").asBoolean()).isFalse();
        // Kept when the stack goes, and protected as the table is, by the same parameter (default true).
        assertThat(resources.path("UserPool").path("DeletionPolicy").asText()).isEqualTo("Retain");
        assertThat(texts(pool.path("DeletionProtection"))).containsExactly("ProtectData", "ACTIVE", "INACTIVE");
        assertThat(template.path("Conditions").path("ProtectData").toString())
                .isEqualTo("[\"DeletionProtection\",\"true\"]");
        assertThat(template.path("Parameters").path("DeletionProtection").path("Default").asText()).isEqualTo("true");
    }

    @Test
    void publicReadSidePaths_areGeneratedFromTheRouteTable_withoutAnAuthorizerOnlyWhenPublic() throws IOException {
        List<String> readSide = readSideRouteKeys();
        assertThat(readSide).as("the writer's read-side routes").contains("GET /stats/global", "GET /dashboard");
        assertGeneratedSection(TemplateRoutes.BEGIN, TemplateRoutes.END, TemplateRoutes.paths(writerRoutes()),
                "read-side routes");

        JsonNode paths = properties("HttpApi").path("DefinitionBody").path("paths");
        List<String> declared = new ArrayList<>();
        paths.fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(method -> {
            declared.add(method.getKey().toUpperCase(java.util.Locale.ROOT) + " " + path.getKey());
            JsonNode branches = method.getValue().path("Fn::If");
            assertThat(branches.path(0).asText()).as(path.getKey()).isEqualTo("PublicReads");
            // Public: no authorizer (SAM's NONE); otherwise no security here, so SAM adds the default authorizer.
            assertThat(branches.path(1).path("security").toString()).as(path.getKey()).isEqualTo("[{\"NONE\":[]}]");
            assertThat(branches.path(2).has("security")).as(path.getKey()).isFalse();
            for (int branch = 1; branch <= 2; branch++) {
                JsonNode integration = branches.path(branch).path("x-amazon-apigateway-integration");
                assertThat(integration.path("type").asText()).isEqualTo("aws_proxy");
                assertThat(integration.path("payloadFormatVersion").asText()).isEqualTo("2.0");
                assertThat(integration.path("uri").asText()).contains("${WriterFunction.Alias}");
            }
        }));
        assertThat(declared).containsExactlyInAnyOrderElementsOf(readSide);
    }

    @Test
    void readSideRoutes_areThrottledOneByOne_togetherBelowTheWriteRoute_soAnonymousReadsCannotStarveWrites()
            throws IOException {
        assertGeneratedSection(TemplateRoutes.SETTINGS_BEGIN, TemplateRoutes.SETTINGS_END,
                TemplateRoutes.routeSettings(writerRoutes()), "read-side route settings");
        JsonNode api = properties("HttpApi");
        JsonNode settings = api.path("RouteSettings");
        List<String> readSide = readSideRouteKeys();
        // Every read-side route (its own route, public with PublicReadSide) has a throttle of its own ...
        assertThat(settings.fieldNames()).toIterable().containsExactlyInAnyOrderElementsOf(readSide);
        settings.fields().forEachRemaining(route -> {
            assertThat(route.getValue().path("ThrottlingRateLimit").asText()).as(route.getKey())
                    .isEqualTo("ReadSideRateLimit");
            assertThat(route.getValue().path("ThrottlingBurstLimit").asText()).as(route.getKey())
                    .isEqualTo("ReadSideBurstLimit");
        });
        // ... and together, at the defaults, they get less than the $default route (the writes) alone: a flood of
        // anonymous reads is refused at API Gateway before it takes more of the function than the writes may.
        JsonNode parameters = template.path("Parameters");
        JsonNode defaults = api.path("DefaultRouteSettings");
        assertThat(readSide.size() * parameters.at("/ReadSideRateLimit/Default").asInt())
                .isLessThan(defaults.path("ThrottlingRateLimit").asInt());
        assertThat(readSide.size() * parameters.at("/ReadSideBurstLimit/Default").asInt())
                .isLessThan(defaults.path("ThrottlingBurstLimit").asInt());
        // 0 would close the routes, not lift the limit.
        assertThat(parameters.at("/ReadSideRateLimit/MinValue").asInt()).isPositive();
        assertThat(parameters.at("/ReadSideBurstLimit/MinValue").asInt()).isPositive();
    }

    @Test
    void streamFilter_dropsExactlyTheRegistrysDerivedAndBookkeepingTypes_andNothingTheEngineDerives()
            throws IOException {
        DomainRegistry registry = DomainRegistry.load();
        List<String> own = TemplateStreamFilter.ownTypes(registry);
        // What this build's registry holds: the seed domains, the users kernel and the stream processor's bookkeeping.
        assertThat(own).contains("UserStats", "GlobalStats", "PostProjection", "SelectorEntry", "OrgStats", "TeamStats",
                "SongStats", "SongDay", "SongMonth", "DownloadDay", "FavouriteStats", "FavouriteSearchEntry",
                "ShardCursor", "DeadLetter", "PrunerPosition");
        // Every one is a type whose records the engine skips as derived: the filter drops nothing it would derive
        // or dead-letter.
        Derivations derivations = registry.derivations(ShardSettings.DEFAULTS);
        for (String type : own) {
            assertThat(derivations.route(type)).as(type).isEqualTo(new Derivations.Skip("derived"));
        }
        List<String> before = TemplateStreamFilter.patterns(DeploymentTemplate.read(TEMPLATE));

        assertGeneratedSection(TemplateStreamFilter.BEGIN, TemplateStreamFilter.END, TemplateStreamFilter.yaml(own),
                "stream filters", "the domain registry's (types of ours it does not drop: "
                        + TemplateStreamFilter.notDropped(own, before) + "; types it drops that are not ours: "
                        + TemplateStreamFilter.droppedNotOwn(own, before) + ")");

        List<String> patterns = TemplateStreamFilter.patterns(DeploymentTemplate.read(TEMPLATE));
        Map<String, Set<String>> dropped = TemplateStreamFilter.droppedTypes(patterns);
        assertThat(dropped.keySet()).containsExactlyElementsOf(TemplateStreamFilter.IMAGES);
        dropped.forEach((image, types) -> assertThat(types).as("the types the filter drops in " + image)
                .containsExactlyInAnyOrderElementsOf(own));
        // The patterns are the generated ones (the YAML folds a long one over lines; the JSON is the same).
        List<JsonNode> parsed = new ArrayList<>();
        for (String pattern : patterns) {
            parsed.add(JSON.readTree(pattern));
        }
        List<JsonNode> generated = new ArrayList<>();
        for (String pattern : TemplateStreamFilter.patterns(own)) {
            generated.add(JSON.readTree(pattern));
        }
        assertThat(parsed).containsExactlyElementsOf(generated);
        // Within Lambda's limits, and on the only key a DynamoDB event source mapping filters on.
        assertThat(patterns).hasSizeLessThanOrEqualTo(TemplateStreamFilter.MAX_FILTERS)
                .allSatisfy(pattern -> assertThat(pattern).hasSizeLessThanOrEqualTo(
                        TemplateStreamFilter.MAX_PATTERN_LENGTH));
        assertThat(parsed).allSatisfy(pattern -> assertThat(pattern.fieldNames()).toIterable()
                .containsExactly("dynamodb"));
        // "Has an image" is its hash key: every image holds the item's key. And every record has its images: one
        // without any (a KEYS_ONLY stream) would match no filter.
        assertThat(properties("Table").path("KeySchema").path(0).path("AttributeName").asText())
                .isEqualTo(TableSchema.PK);
        assertThat(properties("Table").path("StreamSpecification").path("StreamViewType").asText())
                .isEqualTo("NEW_AND_OLD_IMAGES");
    }

    private JsonNode statementWith(String role, String action) {
        for (JsonNode policy : properties(role).path("Policies")) {
            for (JsonNode statement : policy.path("PolicyDocument").path("Statement")) {
                JsonNode actions = statement.path("Action");
                if (actions.isArray() ? texts(actions).contains(action) : actions.asText().equals(action)) {
                    return statement;
                }
            }
        }
        throw new AssertionError(role + " grants no " + action);
    }

    private List<String> actionsOf(String role) {
        List<String> actions = new ArrayList<>();
        for (JsonNode policy : properties(role).path("Policies")) {
            for (JsonNode statement : policy.path("PolicyDocument").path("Statement")) {
                JsonNode action = statement.path("Action");
                actions.addAll(action.isArray() ? texts(action) : List.of(action.asText()));
            }
        }
        return actions;
    }
}
