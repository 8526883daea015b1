package io.tally.local;

/**
 * The runner cannot start for a reason the user can fix (a port in use, a data directory that is not a directory).
 * Its message is one line meant for a terminal; the command prints it without a stack trace.
 */
public class StartupException extends RuntimeException {
    public StartupException(String message) {
        super(message);
    }

    public StartupException(String message, Throwable cause) {
        super(message, cause);
    }
}
