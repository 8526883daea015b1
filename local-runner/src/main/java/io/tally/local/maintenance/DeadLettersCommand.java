package io.tally.local.maintenance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.local.events.LocalEventBus;
import io.tally.local.stream.StreamRecordJson;
import io.tally.stream.StreamWiring;
import io.tally.stream.events.EventBridgePublisher;
import io.tally.stream.events.EventPublisher;
import io.tally.stream.events.Unpublished;
import io.tally.stream.rebuild.EventRepublisher;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

/**
 * {@code tally-local dead-letters list|show|delete|republish-events}: the records the stream processor filed as dead
 * letters ({@code DEADLETTER#<day>#<slot>} items), to find, inspect, republish the events of and, once handled, delete them
 * (docs/exactly-once.md, "Repairing after a dead letter").
 */
@Command(name = "dead-letters", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        subcommands = {DeadLettersCommand.ListCommand.class, DeadLettersCommand.ShowCommand.class,
            DeadLettersCommand.DeleteCommand.class, DeadLettersCommand.RepublishEventsCommand.class},
        description = {
            "The stream records the stream processor could not process (poison records, events it gave up "
                    + "publishing, derived writes DynamoDB refused for good), kept in the table for 30 days (TTL). "
                    + "See docs/exactly-once.md, \"Repairing after a dead letter\".",
            ""})
public final class DeadLettersCommand implements Callable<Integer> {
    /** Exit status of show and delete when a letter does not exist. */
    static final int NOT_FOUND = 3;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return CommandLine.ExitCode.USAGE;
    }

    /** {@code list}: one line per letter, newest day first. */
    @Command(name = "list", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
            description = {"Lists the dead letters, newest day first: id, when it was filed, the record's event and "
                    + "keys, the reason. The id is what show and delete take.", ""})
    static final class ListCommand extends TableCommand {
        @Option(names = "--days", paramLabel = "N", description = "the letters of the last N days (default: "
                + "${DEFAULT-VALUE}: they expire after 30 days); 17 queries per day, one per partition")
        int days = DeadLetterQueries.DEFAULT_DAYS;

        @Option(names = "--all", description = "every letter, however old (a scan of the whole table: DynamoDB "
                + "Local never expires items; on AWS it reads the whole table)")
        boolean all;

        @Override
        int run(TableConnection.Clients clients, PrintWriter out, PrintWriter err) {
            if (days < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--days must be at least 1");
            }
            DeadLetterQueries letters = new DeadLetterQueries(clients.dynamo(), table.tableName, Clock.systemUTC());
            List<Map<String, AttributeValue>> found = all ? letters.all() : letters.recent(days);
            for (Map<String, AttributeValue> letter : found) {
                out.println(line(letter));
            }
            err.println(found.size() + " dead letter(s) in " + table.describe()
                    + (all ? "" : " filed on the last " + days + " days"));
            return 0;
        }

        private static String line(Map<String, AttributeValue> letter) {
            return String.join("  ", DeadLetterQueries.id(letter), text(letter, "recordedAt"),
                    text(letter, "eventName").isEmpty() ? "-" : text(letter, "eventName"), keys(letter),
                    oneLine(text(letter, "reason"), 160));
        }

        private static String keys(Map<String, AttributeValue> letter) {
            AttributeValue keys = letter.containsKey("derivedKey") ? letter.get("derivedKey") : letter.get("keys");
            if (keys == null || !keys.hasM()) {
                return "-";
            }
            AttributeValue pk = keys.m().get("pk");
            AttributeValue sk = keys.m().get("sk");
            return (pk == null ? "?" : pk.s()) + " / " + (sk == null ? "?" : sk.s());
        }
    }

    /** {@code show ID}: the whole letter as JSON. */
    @Command(name = "show", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
            description = {"Prints one dead letter as JSON: the id and the item's attributes in DynamoDB JSON (the "
                    + "images as the stream carried them, usable with aws dynamodb put-item). Exit 3 if there is "
                    + "no such letter.", ""})
    static final class ShowCommand extends TableCommand {
        @Parameters(paramLabel = "ID", description = "the letter's id, as list prints it (<day>/<sort key>)")
        String id;

        @Override
        int run(TableConnection.Clients clients, PrintWriter out, PrintWriter err) throws JsonProcessingException {
            Map<String, AttributeValue> key = parse(spec, id);
            Optional<Map<String, AttributeValue>> letter =
                    new DeadLetterQueries(clients.dynamo(), table.tableName, Clock.systemUTC()).get(id);
            if (letter.isEmpty()) {
                err.println("no dead letter " + id + " (" + key.get("pk").s() + " / " + key.get("sk").s() + ") in "
                        + table.describe());
                return NOT_FOUND;
            }
            ObjectNode json = JSON.createObjectNode();
            json.put("id", DeadLetterQueries.id(letter.get()));
            json.set("item", StreamRecordJson.item(new java.util.TreeMap<>(letter.get())));
            out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json));
            return 0;
        }
    }

    /** {@code delete ID...}: removes letters that have been handled. */
    @Command(name = "delete", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
            description = {"Deletes dead letters once handled (never an item that is not a dead letter). Exit 3 if "
                    + "one of them did not exist.", ""})
    static final class DeleteCommand extends TableCommand {
        @Parameters(paramLabel = "ID", arity = "1..*", description = "the letters' ids, as list prints them")
        List<String> ids;

        @Override
        int run(TableConnection.Clients clients, PrintWriter out, PrintWriter err) {
            ids.forEach(id -> parse(spec, id));
            int missing = 0;
            DeadLetterQueries letters = new DeadLetterQueries(clients.dynamo(), table.tableName, Clock.systemUTC());
            for (String id : ids) {
                if (letters.delete(id)) {
                    out.println("deleted " + id);
                } else {
                    missing++;
                    err.println("no dead letter " + id + " in " + table.describe());
                }
            }
            return missing == 0 ? 0 : NOT_FOUND;
        }
    }

    /** {@code republish-events [ID...]}: the letters' unpublished events, sent again once each. */
    @Command(name = "republish-events", mixinStandardHelpOptions = true, sortOptions = false,
            usageHelpAutoWidth = true,
            description = {"Publishes the events of dead letters of unpublished events again (the bus refused them, "
                    + "or they were given up on), as they were first sent, with their detail.eventId, and marks each "
                    + "in its letter: running it again publishes nothing twice. Without ids, every such letter of the "
                    + "last --days days (or --all). One line per letter; exit 5 if some event was not published "
                    + "(it stays unmarked, to try again).", ""})
    static final class RepublishEventsCommand extends TableCommand {
        /** Exit status when some event was not published. */
        static final int NOT_PUBLISHED = 5;

        @Parameters(paramLabel = "ID", arity = "0..*", description = "the letters' ids, as list prints them "
                + "(default: every letter of unpublished events)")
        List<String> ids = List.of();

        @Option(names = "--days", paramLabel = "N", description = "without ids: the letters of the last N days "
                + "(default: ${DEFAULT-VALUE})")
        int days = DeadLetterQueries.DEFAULT_DAYS;

        @Option(names = "--all", description = "without ids: every letter, however old (a scan of the whole table)")
        boolean all;

        @Option(names = "--event-bus", paramLabel = "NAME", defaultValue = LocalEventBus.DEFAULT_BUS_NAME,
                description = "the bus to publish to (default: ${DEFAULT-VALUE}, the local runner's; a deployed "
                        + "stack's is its EventBusName output)")
        String eventBus;

        @Option(names = "--events-endpoint", paramLabel = "URL", defaultValue = "http://127.0.0.1:8001",
                description = "the local event bus (default: ${DEFAULT-VALUE}; ignored with --aws)")
        URI eventsEndpoint;

        @Option(names = "--source", paramLabel = "SOURCE", defaultValue = StreamWiring.DEFAULT_EVENT_SOURCE,
                description = "the source of events whose letter names none, filed before letters kept it "
                        + "(default: ${DEFAULT-VALUE})")
        String source;

        @Option(names = "--data-dir", paramLabel = "DIR", description = "the data directory of a runner started with "
                + "--auth, whose event bus takes only calls signed with the credentials it keeps there "
                + "(ignored with --aws)")
        java.nio.file.Path dataDir;

        @Override
        int run(TableConnection.Clients clients, PrintWriter out, PrintWriter err) {
            ids.forEach(id -> parse(spec, id));
            if (days < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--days must be at least 1");
            }
            DeadLetterQueries letters = new DeadLetterQueries(clients.dynamo(), table.tableName, Clock.systemUTC());
            // An id names a letter in its slot or, filed before letters were spread, in its day's partition: both
            // keys are given, and the one without an item is skipped.
            List<Map<String, AttributeValue>> chosen = !ids.isEmpty()
                    ? ids.stream().flatMap(id -> DeadLetterQueries.keys(id).stream()).toList()
                    : all ? letters.all() : letters.recent(days);
            try (EventBridgeClient eventBridge = table.eventBridge(eventsEndpoint, dataDir == null ? null
                    : io.tally.local.auth.BusCredentials.readFrom(dataDir).orElseThrow(() -> new CommandLine
                            .ParameterException(spec.commandLine(), "--data-dir " + dataDir + " holds no event bus "
                                    + "credentials: is it the data directory of a runner started with --auth?")))) {
                Map<String, EventPublisher> publishers = new HashMap<>();
                EventRepublisher.Report report = new EventRepublisher(clients.dynamo(), table.tableName,
                        name -> publishers.computeIfAbsent(name, n -> new EventBridgePublisher(eventBridge, eventBus, n)),
                        source, Clock.systemUTC()).republish(chosen);
                for (EventRepublisher.LetterResult letter : report.letters()) {
                    out.println(DeadLetterQueries.id(letter.key()) + "  republished " + letter.republished()
                            + ", before " + letter.alreadyRepublished() + ", not published " + letter.failed().size());
                    for (Unpublished failed : letter.failed()) {
                        err.println("not published: " + failed.event().id() + " (" + failed.errorCode() + ")");
                    }
                }
                err.println(report.republished() + " event(s) republished to bus " + eventBus + ", "
                        + report.alreadyRepublished() + " republished before, " + report.failed().size()
                        + " not published, from " + report.letters().size() + " letter(s) of events in "
                        + table.describe());
                return report.failed().isEmpty() ? 0 : NOT_PUBLISHED;
            }
        }
    }

    private static Map<String, AttributeValue> parse(CommandLine.Model.CommandSpec spec, String id) {
        try {
            return DeadLetterQueries.key(id);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private static String text(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || value.s() == null ? "" : value.s();
    }

    private static String oneLine(String text, int max) {
        String line = text.replaceAll("\\s+", " ").trim();
        return line.length() <= max ? line : line.substring(0, max - 3) + "...";
    }
}
