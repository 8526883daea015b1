package io.tally.local.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One rule of the local event bus, as a rule file declares it: the name subscribers know it by, what it is for,
 * and an event pattern in EventBridge's syntax.
 *
 * @param name         the rule's name; also names its JSON-lines file ({@code <name>.jsonl})
 * @param description  what the rule is for; empty when the file has none
 * @param eventPattern the pattern, exactly as in the file (never modified)
 * @param file         where the rule came from, for messages
 */
public record EventRule(String name, String description, ObjectNode eventPattern, String file) {
    public EventRule {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(eventPattern, "eventPattern");
        Objects.requireNonNull(file, "file");
    }
}
