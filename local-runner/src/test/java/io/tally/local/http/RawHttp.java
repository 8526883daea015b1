package io.tally.local.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Raw bytes to the front and its answer parsed by hand, so that a test sees exactly what a client would, HTML
 * included. A read that hears nothing for {@link #READ_TIMEOUT} fails as a hang; that bound is a guard, not a claim
 * about speed.
 */
public final class RawHttp {
    /** Far above any idle timeout a test configures; reached only by a front that hangs. */
    public static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The codes of the envelope, each with the one status it goes with. */
    public static final Map<String, Integer> ENVELOPE_CODES = Map.ofEntries(
            Map.entry("bad_request", 400), Map.entry("invalid_request", 400), Map.entry("validation_failed", 400),
            Map.entry("not_found", 404),
            Map.entry("method_not_allowed", 405), Map.entry("request_timeout", 408), Map.entry("conflict", 409),
            Map.entry("precondition_failed", 412), Map.entry("payload_too_large", 413),
            Map.entry("uri_too_long", 414), Map.entry("headers_too_large", 431), Map.entry("unavailable", 503),
            Map.entry("unauthorized", 401), Map.entry("forbidden", 403), Map.entry("internal", 500));

    private RawHttp() {
    }

    /** An answer: nothing at all (the server closed the connection without one) has status 0. */
    public record Answer(int status, String statusLine, Map<String, String> headers, String body) {
        public boolean none() {
            return status == 0;
        }

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + this, e);
            }
        }

        /** The error code, after checking that this is the envelope exactly as the contract writes it. */
        public String envelopeCode() {
            if (!"application/json".equals(header("content-type"))) {
                throw new AssertionError("not application/json: " + this);
            }
            JsonNode body = json();
            List<String> top = names(body);
            if (!top.equals(List.of("error"))) {
                throw new AssertionError("not the envelope {\"error\":{...}}: " + this);
            }
            JsonNode error = body.get("error");
            List<String> fields = names(error);
            if (!fields.equals(List.of("code", "message")) && !fields.equals(List.of("code", "message", "field"))) {
                throw new AssertionError("the envelope's fields are code, message[, field]: " + this);
            }
            String code = error.get("code").asText();
            Integer expected = ENVELOPE_CODES.get(code);
            if (expected == null || expected != status) {
                throw new AssertionError("code " + code + " does not go with status " + status + ": " + this);
            }
            if (error.get("message").asText().isBlank() || body.toString().contains("\tat ")) {
                throw new AssertionError("blank message or a stack trace: " + this);
            }
            return code;
        }

        @Override
        public String toString() {
            return statusLine + " " + headers + " " + (body.length() > 300 ? body.substring(0, 300) + "..." : body);
        }
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        if (node != null && node.isObject()) {
            node.fieldNames().forEachRemaining(names::add);
        }
        return names;
    }

    public static Answer send(int port, String request) throws IOException {
        return send(port, request.getBytes(StandardCharsets.ISO_8859_1));
    }

    public static Answer send(int port, byte[] request) throws IOException {
        return send(port, request, false);
    }

    /** {@code halfClose}: shut the output after the request, as a client with nothing more to send may. */
    public static Answer send(int port, byte[] request, boolean halfClose) throws IOException {
        try (Socket socket = open(port)) {
            try {
                socket.getOutputStream().write(request);
                socket.getOutputStream().flush();
                if (halfClose) {
                    socket.shutdownOutput();
                }
            } catch (SocketException e) {
                // The server may refuse and close before it has read everything we had to send: read its answer.
            }
            return read(socket.getInputStream());
        }
    }

    public static Socket open(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), (int) READ_TIMEOUT.toMillis());
        socket.setSoTimeout((int) READ_TIMEOUT.toMillis());
        return socket;
    }

    /**
     * Reads one final response (Content-Length, chunked, or up to the end of the stream), after any interim
     * {@code 100 Continue}; status 0 for none.
     */
    public static Answer read(InputStream in) throws IOException {
        Answer answer = readOne(in);
        while (answer.status() >= 100 && answer.status() < 200) {
            answer = readOne(in);
        }
        return answer;
    }

    private static Answer readOne(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        try {
            int matched = 0;
            while (matched < 4) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                head.write(b);
                matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the front hung: nothing for " + READ_TIMEOUT + " after " + head.size()
                    + " bytes of an answer", e);
        } catch (SocketException e) {
            if (head.size() == 0) {
                return new Answer(0, "(connection reset, no answer)", Map.of(), "");
            }
            throw e;
        }
        if (head.size() == 0) {
            return new Answer(0, "(connection closed, no answer)", Map.of(), "");
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        Iterator<String> lines = List.of(text.split("\r\n")).iterator();
        String statusLine = lines.next();
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
            throw new AssertionError("not an HTTP response: " + text);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        while (lines.hasNext()) {
            String line = lines.next();
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.merge(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim(),
                        (a, b) -> a + ", " + b);
            }
        }
        int status = Integer.parseInt(parts[1]);
        byte[] body;
        try {
            if (status < 200 || status == 204 || status == 304) {
                body = new byte[0];
            } else if (headers.containsKey("content-length")) {
                body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
            } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                body = chunked(in);
            } else {
                body = in.readAllBytes();
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the front hung in the body of " + statusLine, e);
        }
        return new Answer(status, statusLine, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] chunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String size = line(in);
            int length = Integer.parseInt(size.split(";")[0].trim(), 16);
            if (length == 0) {
                line(in);
                return body.toByteArray();
            }
            body.write(in.readNBytes(length));
            line(in);
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    /** Writes and flushes, ignoring a server that already closed (its answer is then read). */
    public static void write(OutputStream out, String text) {
        try {
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        } catch (IOException e) {
            // read the answer
        }
    }

    /** The statuses the front may answer to what a client sends. */
    // 204: a CORS preflight (OPTIONS) that reaches the writer, which answers it without routing (infra/README.md).
    public static final Set<Integer> DOCUMENTED = Set.of(200, 201, 204, 400, 401, 403, 404, 405, 408, 409, 412, 413, 414,
            431, 503);
}
