package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line up to the point where it would start servers: help, usage errors, ports in use. */
class LocalRunnerCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return LocalRunnerCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    }

    @Test
    void help_printsUsageWithEveryOption() {
        assertThat(run("--help")).isZero();

        // Whitespace normalised: the usage text wraps to the terminal's width.
        assertThat(out.toString().replaceAll("\\s+", " "))
                .startsWith("Usage: tally-local")
                .contains("--port=PORT", "--dynamodb-port=PORT", "--events-port=PORT", "--host=ADDRESS",
                        "--data-dir=DIR", "--table-name=NAME", "--rules-dir=DIR", "--events-dir=DIR", "--auth", "default: 8080",
                        "default: 8000", "default: 8001", "default: 127.0.0.1", "default: tally");
    }

    @Test
    void authWithDemo_isAUsageError() {
        assertThat(run("--auth", "--demo", "--port", "0", "--dynamodb-port", "0", "--events-port", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--demo writes through the open API");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void token_refusesAnInvalidUserOrLifetime(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        assertThat(run("token", "--data-dir", dir.toString(), "--user", "no#hash")).isEqualTo(2);
        assertThat(err.toString()).contains("--user must be a user id");
        assertThat(run("token", "--data-dir", dir.toString(), "--user", "u1", "--ttl", "31d")).isEqualTo(2);
        assertThat(run("token", "--data-dir", dir.toString(), "--user", "u1", "--ttl", "soon")).isEqualTo(2);
        assertThat(err.toString()).contains("--ttl must be a duration");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void httpPortInUse_printsOneLineAndExits2() throws Exception {
        try (ServerSocket taken = occupy()) {
            int status = run("--port", Integer.toString(taken.getLocalPort()), "--dynamodb-port", "0");

            assertThat(status).isEqualTo(2);
            assertThat(err.toString().strip()).isEqualTo("port " + taken.getLocalPort()
                    + " on 127.0.0.1 is already in use; pass --port to choose another");
            assertThat(out.toString()).isEmpty();
        }
    }

    @Test
    void dynamoDbPortInUse_printsOneLineAndExits2() throws Exception {
        try (ServerSocket taken = occupy()) {
            int status = run("--port", "0", "--dynamodb-port", Integer.toString(taken.getLocalPort()));

            assertThat(status).isEqualTo(2);
            assertThat(err.toString().strip()).isEqualTo("port " + taken.getLocalPort()
                    + " on 127.0.0.1 is already in use; pass --dynamodb-port to choose another");
        }
    }

    @Test
    void eventsPortInUse_printsOneLineAndExits2() throws Exception {
        try (ServerSocket taken = occupy()) {
            int status = run("--port", "0", "--dynamodb-port", "0", "--events-port",
                    Integer.toString(taken.getLocalPort()));

            assertThat(status).isEqualTo(2);
            assertThat(err.toString().strip()).isEqualTo("port " + taken.getLocalPort()
                    + " on 127.0.0.1 is already in use; pass --events-port to choose another");
        }
    }

    @Test
    void eventsPortSameAsWriterPort_isAUsageError() {
        assertThat(run("--port", "9000", "--events-port", "9000")).isEqualTo(2);
        assertThat(err.toString()).contains("--port and --events-port must differ");
    }

    @Test
    void rulesDirWithAnInvalidFile_printsOneLineNamingItAndExits2(@TempDir Path rules) throws Exception {
        Files.writeString(rules.resolve("typo.json"), "{\"Name\":\"typo\",\"EventPatern\":{}}");

        int status = run("--port", "0", "--dynamodb-port", "0", "--events-port", "0", "--rules-dir", rules.toString());

        assertThat(status).isEqualTo(2);
        assertThat(err.toString().strip()).startsWith("rule file ").contains("typo.json").doesNotContain("Exception")
                .doesNotContain("\n");
    }

    @Test
    void portOutOfRange_isAUsageError() {
        assertThat(run("--port", "70000")).isEqualTo(2);
        assertThat(err.toString()).contains("--port must be between 0 and 65535").doesNotContain("Exception");
    }

    @Test
    void samePortTwice_isAUsageError() {
        assertThat(run("--port", "9000", "--dynamodb-port", "9000")).isEqualTo(2);
        assertThat(err.toString()).contains("--port and --dynamodb-port must differ");
    }

    @Test
    void invalidTableName_isAUsageError() {
        assertThat(run("--table-name", "a#b")).isEqualTo(2);
        assertThat(err.toString()).contains("is not a DynamoDB table name");
    }

    @Test
    void unknownOption_isAUsageError() {
        assertThat(run("--prot", "8080")).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown option");
    }

    private static ServerSocket occupy() throws Exception {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
        return socket;
    }
}
