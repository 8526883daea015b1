package io.tally.core.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The writer API as {@code tally-local --demo} reaches it, over real HTTP, the way a person following the README does:
 * what a domain's demo data is written through ({@link io.tally.core.domain.Domain#demoSeed},
 * {@link DemoLoad}).
 */
public interface DemoApi {
    /** An answer: the status and the parsed body (a missing node when the body is empty or not JSON). */
    record Reply(int status, JsonNode body) {
        public boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    /**
     * One request; {@code body} (null for none) is written as JSON, e.g. a {@code Map} of fields.
     *
     * @throws IOException when the API cannot be reached
     */
    Reply send(String method, String path, Object body) throws IOException, InterruptedException;

    /** A write that must succeed: its answer, or an {@link IOException} naming the request and the error. */
    default JsonNode write(String method, String path, Object body) throws IOException, InterruptedException {
        Reply reply = send(method, path, body);
        if (!reply.ok()) {
            throw new IOException(method + " " + path + " answered " + reply.status() + ": " + reply.body());
        }
        return reply.body();
    }

    /** A JSON body from name, value pairs, in order: {@code body("name", "Eric", "email", "eric@example.com")}. */
    static Map<String, Object> body(Object... pairs) {
        if (pairs.length % 2 != 0) {
            throw new IllegalArgumentException("pairs of a name and a value");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            body.put((String) pairs[i], pairs[i + 1]);
        }
        return body;
    }
}
