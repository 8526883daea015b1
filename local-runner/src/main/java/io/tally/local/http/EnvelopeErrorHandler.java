package io.tally.local.http;

import io.tally.core.http.Text;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jetty's answers to requests that never reach the front's handler (an unreadable request line, a bad escape in the
 * path, headers or a request line above the limit, an unknown protocol version, a missing Host, ...), written as the
 * contract's error envelope instead of Jetty's HTML page. Jetty's own message (which may quote the request) stays in
 * the log.
 */
final class EnvelopeErrorHandler extends ErrorHandler {
    private static final Logger LOG = LoggerFactory.getLogger(EnvelopeErrorHandler.class);

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Object attribute = request.getAttribute(ERROR_STATUS);
        int status = attribute instanceof Integer code ? code : response.getStatus();
        if (isTimeout(request.getAttribute(ERROR_EXCEPTION))) {
            // A connection that timed out (or closed) mid-request: the client's doing, never a 500.
            status = 408;
        }
        FrontErrors.FrontError error = status == 400 && !decodes(request.getHttpURI().getPath())
                ? FrontErrors.undecodablePath() : FrontErrors.of(status);
        LOG.info("{} {} refused by the server: {} {}", request.getMethod(), request.getHttpURI().getPath(), status,
                request.getAttribute(ERROR_MESSAGE));
        response.setStatus(error.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, Responses.JSON);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        if (error.status() == 503) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, HttpFront.RETRY_AFTER_SECONDS);
        }
        response.write(true, ByteBuffer.wrap(error.body()), callback);
        return true;
    }

    /**
     * Whether every segment of the raw path decodes strictly ({@link Text#percentDecode}) to acceptable text (no
     * control character), as the handler's router requires: a path Jetty refused for bytes that are not UTF-8 or for
     * a {@code %00} is answered as the handler would answer it.
     */
    private static boolean decodes(String rawPath) {
        if (rawPath == null) {
            return true;
        }
        for (String segment : rawPath.split("/", -1)) {
            try {
                if (Text.problem(Text.percentDecode(segment), Text.Lines.SINGLE) != null) {
                    return false;
                }
            } catch (IllegalArgumentException e) {
                return false;
            }
        }
        return true;
    }

    private static boolean isTimeout(Object failure) {
        for (Throwable cause = failure instanceof Throwable t ? t : null; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.util.concurrent.TimeoutException || cause instanceof EofException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The error body of the older API for a refusal without a request. Jetty 12.1's HTTP/1.1 connection does not call
     * it (its refusals go through {@link #handle}, tested); overridden so that a server path that does never falls
     * back to the HTML page.
     */
    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        FrontErrors.FrontError error = FrontErrors.of(status);
        LOG.info("request refused by the server: {} {}", status, reason);
        fields.put(HttpHeader.CONTENT_TYPE, Responses.JSON);
        fields.put(HttpHeader.CACHE_CONTROL, "no-store");
        return ByteBuffer.wrap(error.body());
    }
}
