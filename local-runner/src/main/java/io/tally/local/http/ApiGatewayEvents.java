package io.tally.local.http;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.tally.local.lambda.LocalLambdaContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import org.eclipse.jetty.http.HttpField;
import java.util.Map;

/**
 * An HTTP request turned into the {@link APIGatewayV2HTTPEvent} an API Gateway HTTP API sends a Lambda proxy
 * integration (payload format 2.0) on its {@code $default} route.
 */
final class ApiGatewayEvents {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final DateTimeFormatter REQUEST_TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.US).withZone(ZoneOffset.UTC);

    private ApiGatewayEvents() {
    }

    /** The request as the front received it: everything an event is built from. */
    record Request(String method, String rawPath, String rawQuery, String protocol, Map<String, List<String>> headers,
            byte[] body, InetSocketAddress remote, InetSocketAddress local) {

        /** What Jetty read of a request, with its body. */
        static Request of(org.eclipse.jetty.server.Request request, byte[] body) {
            return new Request(request.getMethod(), request.getHttpURI().getPath(), request.getHttpURI().getQuery(),
                    request.getConnectionMetaData().getHttpVersion().asString(), headers(request), body,
                    inet(request.getConnectionMetaData().getRemoteSocketAddress()),
                    inet(request.getConnectionMetaData().getLocalSocketAddress()));
        }

        /** The headers in arrival order, repeated names together. */
        private static Map<String, List<String>> headers(org.eclipse.jetty.server.Request request) {
            Map<String, List<String>> headers = new LinkedHashMap<>();
            for (HttpField field : request.getHeaders()) {
                if (field.getName() == null) {
                    continue;
                }
                headers.computeIfAbsent(field.getName(), name -> new ArrayList<>())
                        .add(field.getValue() == null ? "" : field.getValue());
            }
            return headers;
        }

        private static InetSocketAddress inet(SocketAddress address) {
            return address instanceof InetSocketAddress inet ? inet : new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        }
    }

    /** Builds the event API Gateway would send for {@code request}: pure, for a given request id and time. */
    static APIGatewayV2HTTPEvent toEvent(Request request, String requestId, Instant now) {
        Map<String, String> headers = new LinkedHashMap<>();
        List<String> cookies = new ArrayList<>();
        request.headers().forEach((name, values) -> {
            String key = name.toLowerCase(Locale.ROOT);
            if (key.equals("cookie")) {
                // Payload 2.0 moves cookies out of the headers into their own list.
                values.forEach(value -> splitCookies(value, cookies));
                return;
            }
            headers.merge(key, String.join(",", values.stream().map(v -> v == null ? "" : v).toList()),
                    (first, more) -> first + "," + more);
        });
        String sourceIp = request.remote().getAddress().getHostAddress();
        headers.merge("x-forwarded-for", sourceIp, (forwarded, client) -> forwarded + ", " + client);
        headers.putIfAbsent("x-forwarded-port", Integer.toString(request.local().getPort()));
        headers.putIfAbsent("x-forwarded-proto", "http");

        String rawPath = request.rawPath() == null || request.rawPath().isEmpty() ? "/" : request.rawPath();
        String rawQuery = request.rawQuery() == null ? "" : request.rawQuery();
        String domainName = domainName(headers.get("host"), request.local());

        APIGatewayV2HTTPEvent.APIGatewayV2HTTPEventBuilder event = APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey("$default")
                .withRawPath(rawPath)
                .withRawQueryString(rawQuery)
                .withCookies(cookies.isEmpty() ? null : cookies)
                .withHeaders(headers)
                .withQueryStringParameters(queryParameters(rawQuery))
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withRouteKey("$default")
                        .withAccountId(LocalLambdaContext.ACCOUNT_ID)
                        .withStage("$default")
                        .withApiId("local")
                        .withDomainName(domainName)
                        .withDomainPrefix(domainName.split("\\.", 2)[0])
                        .withRequestId(requestId)
                        .withTime(REQUEST_TIME.format(now))
                        .withTimeEpoch(now.toEpochMilli())
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                                .withMethod(request.method())
                                .withPath(rawPath)
                                .withProtocol(request.protocol())
                                .withSourceIp(sourceIp)
                                .withUserAgent(headers.getOrDefault("user-agent", ""))
                                .build())
                        .build());
        byte[] body = request.body();
        if (body.length == 0) {
            return event.withIsBase64Encoded(false).build();
        }
        String text = isText(headers.get("content-type")) ? utf8(body) : null;
        if (text != null) {
            return event.withBody(text).withIsBase64Encoded(false).build();
        }
        return event.withBody(Base64.getEncoder().encodeToString(body)).withIsBase64Encoded(true).build();
    }

    /** Decoded parameters, repeated keys joined with a comma as API Gateway does; null when there are none. */
    static Map<String, String> queryParameters(String rawQuery) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = decode(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
            parameters.merge(name, value, (first, more) -> first + "," + more);
        }
        return parameters.isEmpty() ? null : parameters;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            // A malformed escape is the function's to judge; hand it over as sent.
            return text;
        }
    }

    private static void splitCookies(String header, List<String> cookies) {
        for (String cookie : header.split(";")) {
            String trimmed = cookie.trim();
            if (!trimmed.isEmpty()) {
                cookies.add(trimmed);
            }
        }
    }

    /**
     * Whether a body of this content type may travel as text; the content must then also be valid UTF-8. Types
     * that are binary by nature (images, archives, octet streams) travel base64-encoded even when their bytes
     * happen to decode, as API Gateway does for binary media.
     */
    static boolean isText(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return true;
        }
        // -1: a type of separators only (";;;") still has a first, empty part: not text, never an exception.
        String[] parts = contentType.toLowerCase(Locale.ROOT).split(";", -1);
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].trim();
            if (parameter.startsWith("charset=")) {
                String charset = parameter.substring("charset=".length()).replace("\"", "").trim();
                if (!charset.equals("utf-8") && !charset.equals("utf8") && !charset.equals("us-ascii")) {
                    return false;
                }
            }
        }
        String mediaType = parts[0].trim();
        return mediaType.startsWith("text/")
                || mediaType.endsWith("+json")
                || mediaType.endsWith("+xml")
                || List.of("application/json", "application/xml", "application/javascript",
                        "application/x-www-form-urlencoded", "application/graphql", "application/yaml",
                        "application/x-yaml").contains(mediaType);
    }

    /** The body as text, or null if it is not valid UTF-8 or holds control bytes that no text contains. */
    private static String utf8(byte[] body) {
        for (byte b : body) {
            if (b == 0) {
                return null;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static String domainName(String host, InetSocketAddress local) {
        if (host == null || host.isBlank()) {
            return HttpFront.clientHost(local.getAddress());
        }
        String name = host.trim();
        if (name.startsWith("[")) {
            int end = name.indexOf(']');
            return end < 0 ? name : name.substring(0, end + 1);
        }
        int colon = name.indexOf(':');
        return colon < 0 ? name : name.substring(0, colon);
    }

    /** API Gateway's request ids look like {@code JKJaXmPLvHcESHA=}; the look helps nobody, the uniqueness does. */
    static String requestId() {
        byte[] bytes = new byte[11];
        RANDOM.nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }
}
