package io.tally.local;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One run of {@code tally-local} with these arguments, in this JVM, as a user's shell would see it: its exit status and
 * what it printed on standard output and standard error.
 */
record CommandRun(int status, String out, String err) {
    static CommandRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = LocalRunnerCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
        return new CommandRun(status, out.toString(), err.toString());
    }
}
