package io.tally.local.maintenance;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A maintenance command over the table: the connection options ({@link TableConnection}), the clients opened for one
 * run and closed after it, and the command line's output (results) and error (progress, counts) streams.
 */
abstract class TableCommand implements Callable<Integer> {
    @Mixin
    TableConnection table;

    @Spec
    CommandSpec spec;

    @Override
    public final Integer call() throws Exception {
        try (TableConnection.Clients clients = table.clients()) {
            return run(clients, spec.commandLine().getOut(), spec.commandLine().getErr());
        }
    }

    /** @return the exit status */
    abstract int run(TableConnection.Clients clients, PrintWriter out, PrintWriter err) throws Exception;
}
