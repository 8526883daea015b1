package io.tally.local;

/** A port the runner needs is taken by another process. */
public final class PortInUseException extends StartupException {
    private final String host;
    private final int port;

    public PortInUseException(String host, int port, String option, Throwable cause) {
        super("port " + port + " on " + host + " is already in use; pass " + option + " to choose another", cause);
        this.host = host;
        this.port = port;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }
}
