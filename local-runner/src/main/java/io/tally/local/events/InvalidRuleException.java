package io.tally.local.events;

/** A rule file the bus cannot use; the message names the file and what is wrong with it. */
public final class InvalidRuleException extends RuntimeException {
    private final String file;

    public InvalidRuleException(String file, String reason) {
        this(file, reason, null);
    }

    public InvalidRuleException(String file, String reason, Throwable cause) {
        super("rule file " + file + ": " + reason, cause);
        this.file = file;
    }

    /** The file at fault, as it was named when loading. */
    public String file() {
        return file;
    }
}
