package io.tally.domains.favs;

import com.fasterxml.jackson.annotation.JsonValue;
import io.tally.core.ItemSchema;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The kinds of favourite data (seed 004: pictures, videos, links, files, music, chat records, voice, notes, locations),
 * stored and written in JSON by their contract's values.
 */
public enum FavouriteType implements ItemSchema.Coded {
    IMAGE("image"), VIDEO("video"), LINK("link"), FILE("file"), MUSIC("music"), CHAT("chat"), VOICE("voice"),
    NOTE("note"), LOCATION("location");

    /** The values, as error messages list them. */
    public static final String VALUES =
            Arrays.stream(values()).map(FavouriteType::value).collect(Collectors.joining(", "));

    private final String value;

    FavouriteType(String value) {
        this.value = value;
    }

    @Override
    @JsonValue
    public String value() {
        return value;
    }

    public static Optional<FavouriteType> parse(String value) {
        return ItemSchema.Coded.parse(values(), value);
    }
}
