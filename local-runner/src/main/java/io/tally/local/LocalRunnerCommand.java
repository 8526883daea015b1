package io.tally.local;

import io.tally.local.auth.TokenCommand;
import io.tally.local.demo.Demo;
import io.tally.local.domains.DomainJars;
import io.tally.local.maintenance.DeadLettersCommand;
import io.tally.local.maintenance.PruneWatermarksCommand;
import io.tally.local.maintenance.TemplateCommand;
import io.tally.local.maintenance.VerifyCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;
import software.amazon.awssdk.core.exception.SdkException;

/** The {@code tally-local} command: options, start-up summary, Ctrl-C. */
@Command(name = "tally-local",
        mixinStandardHelpOptions = true,
        subcommands = {VerifyCommand.class, PruneWatermarksCommand.class, TokenCommand.class,
            DeadLettersCommand.class, TemplateCommand.class},
        versionProvider = LocalRunnerCommand.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Runs Tally on this machine: Amazon DynamoDB Local with the table, the writer API behind a local "
                    + "stand-in for API Gateway that invokes the same handler as on AWS, and a local EventBridge bus "
                    + "that matches the events published to it against the rule files and appends them to a "
                    + "JSON-lines file per rule.",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "  0:--help or --version",
            "  1:an unexpected failure",
            "  2:a usage error, a port in use, an invalid rule file, or another setting that cannot work here",
            "130:stopped with Ctrl-C (the JVM's status after SIGINT)"})
final class LocalRunnerCommand implements Callable<Integer> {
    /** Exit status for anything the user can fix by changing the command line (as picocli's usage errors). */
    static final int USAGE = 2;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + RunnerSettings.DEFAULT_PORT,
            description = "HTTP port of the writer API (default: ${DEFAULT-VALUE}; 0 picks a free one)")
    int port;

    @Option(names = "--dynamodb-port", paramLabel = "PORT",
            defaultValue = "" + RunnerSettings.DEFAULT_DYNAMODB_PORT,
            description = "port of DynamoDB Local (default: ${DEFAULT-VALUE}; 0 picks a free one)")
    int dynamoDbPort;

    @Option(names = "--events-port", paramLabel = "PORT",
            defaultValue = "" + RunnerSettings.DEFAULT_EVENTS_PORT,
            description = "port of the local event bus, for EventBridge PutEvents (default: ${DEFAULT-VALUE}; "
                    + "0 picks a free one)")
    int eventsPort;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = RunnerSettings.DEFAULT_HOST,
            description = "address the writer API and the dashboard listen on (default: ${DEFAULT-VALUE}, this machine "
                    + "only); DynamoDB Local and the event bus stay on loopback (see --expose-backends)")
    String host;

    @Option(names = "--expose-backends",
            description = "let DynamoDB Local and the event bus listen on --host too (default: loopback only, whatever "
                    + "--host says): DynamoDB Local takes any credentials, so whoever reaches them reads and writes "
                    + "every item, past --auth")
    boolean exposeBackends;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "keep DynamoDB Local's data and the stream's checkpoints in DIR across restarts; every "
                    + "acknowledged write survives kill -9; DIR and its files are made readable by their owner only "
                    + "(default: in memory, gone when stopped)")
    Path dataDir;

    @Option(names = "--table-name", paramLabel = "NAME", defaultValue = RunnerSettings.DEFAULT_TABLE_NAME,
            description = "the table, created on start unless it exists (default: ${DEFAULT-VALUE})")
    String tableName;

    @Option(names = "--rules-dir", paramLabel = "DIR",
            description = "event rule files (*.json, as infra/events/rules) to match events against "
                    + "(default: the rules packaged in the jar)")
    Path rulesDir;

    @Option(names = "--events-dir", paramLabel = "DIR",
            description = "append each rule's matched events to DIR/<rule>.jsonl (default: DATA-DIR/events with "
                    + "--data-dir, otherwise a temporary directory removed when stopped)")
    Path eventsDir;

    @Mixin
    DomainJars domainJars = new DomainJars();

    @Option(names = "--demo",
            description = "after start, load each domain's demo scenario through the writer API, then write "
                    + "random changes of every domain at about 20 a second until Ctrl-C, printing progress every 5 "
                    + "seconds")
    boolean demo;

    @Option(names = "--auth",
            description = "access control as deployed: the writer checks every route's rule (a user's own data, "
                    + "admin for the catalogue, songs and organisations; the read side stays public) against bearer "
                    + "tokens signed by a local key, which the front verifies as API Gateway's JWT authorizer does; "
                    + "the key is kept in --data-dir (else in memory); mint tokens with: tally-local token "
                    + "--data-dir DIR --user ID [--admin]; public key at GET /.well-known/jwks.json")
    boolean auth;

    @Option(names = "--write-quota", paramLabel = "RATE/BURST", defaultValue = "20/100",
            description = "with --auth: the writes a second each signed-in caller may make, and its burst (past them "
                    + "a write is 429 too_many_requests with Retry-After; default: ${DEFAULT-VALUE})")
    String writeQuota;

    @Option(names = "--admin-write-quota", paramLabel = "RATE/BURST", defaultValue = "200/1000",
            description = "with --auth: an admin's writes a second and burst (default: ${DEFAULT-VALUE})")
    String adminWriteQuota;

    @Spec
    CommandSpec spec;

    /** Runs the command; returns the exit status. Blocks until Ctrl-C once the runner is up. */
    static int execute(String... args) {
        return commandLine(new PrintWriter(System.out, true), new PrintWriter(System.err, true)).execute(args);
    }

    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new LocalRunnerCommand());
        // The domains a command loads without --domain-jar, listed under its --help: loaded when help is shown, not
        // on every start.
        for (CommandLine command : List.of(commandLine, commandLine.getSubcommands().get("verify"),
                commandLine.getSubcommands().get("template"))) {
            command.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_FOOTER, help -> DomainJars.helpFooter());
        }
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setExecutionExceptionHandler((e, cl, parseResult) -> {
            if (e instanceof StartupException) {
                // One line the user can act on; a stack trace would bury it.
                cl.getErr().println(e.getMessage());
                return USAGE;
            }
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof SdkException sdk) {
                    // The maintenance commands: no table of that name, nothing listening, no credentials.
                    cl.getErr().println(cl.getCommandName() + ": " + sdk.getMessage());
                    return USAGE;
                }
            }
            throw e;
        });
        return commandLine;
    }

    @Override
    public Integer call() throws InterruptedException, IOException {
        RunnerSettings settings;
        try {
            settings = new RunnerSettings(host, port, dynamoDbPort, dataDir, tableName, eventsPort, rulesDir,
                    eventsDir, auth, domainJars.registry(), exposeBackends,
                    io.tally.core.http.WriteQuota.Rates.of(writeQuota, adminWriteQuota));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        if (auth && demo) {
            throw new ParameterException(spec.commandLine(), "--demo writes through the open API: run it without "
                    + "--auth");
        }
        PrintWriter out = spec.commandLine().getOut();
        LocalRunner runner = LocalRunner.start(settings);
        AtomicReference<Demo> running = new AtomicReference<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            out.println("stopping tally-local...");
            Demo started = running.get();
            if (started != null) {
                started.close();
            }
            runner.close();
            out.println("tally-local stopped");
        }, "tally-local-shutdown"));
        out.println(runner.summary());
        if (demo) {
            try {
                running.set(Demo.start(runner, out, Demo.DEFAULT_WRITES_PER_SECOND, Demo.DEFAULT_PROGRESS_INTERVAL));
            } catch (IOException e) {
                throw new StartupException("--demo could not load the seed scenario: " + e.getMessage()
                        + (runner.dataDir().isPresent() ? "; it is loaded once, into an empty --data-dir" : ""), e);
            }
        }
        runner.awaitClose();
        return 0;
    }

    /** The version of the jar (from its manifest), or "development" when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = LocalRunner.class.getPackage().getImplementationVersion();
            return new String[] {"tally-local " + (version == null ? "development" : version)};
        }
    }
}
