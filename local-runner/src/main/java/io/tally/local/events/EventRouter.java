package io.tally.local.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Matches each accepted event against every rule and hands it, with the names of the rules it matched, to the targets. */
final class EventRouter {
    private static final Logger LOG = LoggerFactory.getLogger(EventRouter.class);

    private final EventRules rules;
    private final List<EventTarget> targets;

    EventRouter(EventRules rules, List<EventTarget> targets) {
        this.rules = rules;
        this.targets = List.copyOf(targets);
    }

    MatchedEvent route(ObjectNode event) {
        MatchedEvent matched = new MatchedEvent(rules.matching(event), event);
        LOG.info("event {} {} matched {}", matched.id(), event.path("detail-type").asText(), matched.rules());
        for (EventTarget target : targets) {
            try {
                target.deliver(matched);
            } catch (RuntimeException e) {
                // One broken target must not keep the event from the others, nor fail the publisher's call.
                LOG.error("event {} could not be delivered to {}", matched.id(), target.getClass().getSimpleName(), e);
            }
        }
        return matched;
    }
}
