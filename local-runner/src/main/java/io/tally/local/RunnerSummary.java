package io.tally.local;

import io.tally.local.domains.DomainJars;
import io.tally.local.events.EventRules;
import java.io.File;

/** What runs where, for a person at a terminal: the lines {@code tally-local} prints once it is up. */
final class RunnerSummary {
    private RunnerSummary() {
    }

    /** Open, or --auth with where its tokens come from. */
    private static String access(LocalRunner runner, String baseUri) {
        if (runner.auth().isEmpty()) {
            return "open (no tokens needed; --auth checks them as deployed)";
        }
        String keys = "bearer tokens checked (issuer " + io.tally.local.auth.LocalAuth.ISSUER + ", audience "
                + io.tally.local.auth.LocalAuth.AUDIENCE + "), public key at GET " + baseUri
                + io.tally.local.auth.JwksRoute.PATH + System.lineSeparator() + "                  ";
        return keys + runner.dataDir()
                .map(dir -> "token: tally-local token --data-dir " + dir + " --user ID [--admin]")
                .orElse("the key is in memory: start with --data-dir DIR to mint tokens with tally-local token");
    }

    static String of(LocalRunner runner, EventsDir eventsDir, StreamPipeline stream) {
        String endpoint = runner.dynamoDbEndpoint().toString();
        String data = runner.dataDir().map(dir -> dir + (runner.tableCreated() ? " (new table)" : " (table reused)"))
                .orElse("in memory (gone when stopped; pass --data-dir DIR to keep it)");
        EventRules rules = runner.eventBus().rules();
        String ruleNames = rules.names().isEmpty() ? "none" : String.join(", ", rules.names());
        String files = eventsDir.path() + File.separator + "<rule>.jsonl"
                + (eventsDir.temporary() ? " (removed when stopped; pass --events-dir DIR to keep them)" : "");
        String baseUri = runner.baseUri().toString();
        String tableName = runner.tableName();
        return String.join(System.lineSeparator(),
                "tally-local is running",
                "  writer API      " + baseUri,
                "                  curl -s -XPOST " + baseUri + "/users -d '{\"name\":\"Ada\",\"email\":\"ada@example.com\"}'",
                "  DynamoDB Local  " + endpoint + "  table " + tableName,
                "                  aws dynamodb scan --table-name " + tableName + " --endpoint-url " + endpoint,
                "                  (any region and credentials; the access key id must be letters and digits)",
                "  events          " + runner.eventsEndpoint() + " (EventBridge PutEvents), GET " + baseUri
                        + LocalRunner.EVENTS_PATH,
                "                  bus " + runner.eventBusName() + ", rules from " + rules.origin() + ": " + ruleNames,
                "                  matched events appended to " + files,
                "  stream          " + stream.streamArn(),
                "                  handler " + StreamPipeline.FUNCTION + " (WindowedStreamHandler), checkpoints "
                        + stream.checkpointsDescription(),
                "                  failed batches appended to " + stream.failureFile()
                        + (stream.failuresTemporary() ? " (removed when stopped unless there are any)" : ""),
                "  metrics         GET " + baseUri + LocalRunner.METRICS_PATH + " (Prometheus text format)",
                "  domains         " + DomainJars.describe(runner.domains()),
                "  access          " + access(runner, baseUri),
                "  data            " + data,
                "Ctrl-C to stop");
    }
}
