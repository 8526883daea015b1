package io.tally.domains.favs;

import io.tally.core.derive.Cascade;

/** The links of a deleted tag: those, on any favourite of its user, of this incarnation of it. */
public record TagLinks(String userId, String tagId, String incarnation) implements Cascade {
    @Override
    public String describe() {
        return "links of tag " + tagId + " (user " + userId + ", incarnation " + incarnation + ")";
    }
}
