package io.tally.local.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/** A request's body as the front reads it: chunk by chunk as it arrives, capped, an oversized one drained. */
final class RequestBodies {
    /** Beyond this much of an oversized body the connection is dropped rather than read to the end. */
    static final long DRAIN_LIMIT = 16L * 1024 * 1024;

    private RequestBodies() {
    }

    /**
     * The body, or null when it exceeds {@link HttpFront#MAX_BODY_BYTES}: the rest is then drained (up to a limit) so that the
     * client, still sending, reads the 413 rather than a reset connection. Reads without holding a thread; the
     * caller bounds the wait.
     */
    static CompletableFuture<byte[]> read(Request request) {
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        if (request.getLength() > DRAIN_LIMIT) {
            result.complete(null);
            return result;
        }
        new BodyReader(request, result).run();
        return result;
    }

    /** Reads the request's content chunk by chunk as it arrives, asking to be called again when there is more. */
    private static final class BodyReader implements Runnable {
        private final Request request;
        private final CompletableFuture<byte[]> result;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private long seen;

        BodyReader(Request request, CompletableFuture<byte[]> result) {
            this.request = request;
            this.result = result;
        }

        @Override
        public void run() {
            try {
                while (!result.isDone()) {
                    Content.Chunk chunk = request.read();
                    if (chunk == null) {
                        request.demand(this);
                        return;
                    }
                    if (Content.Chunk.isFailure(chunk)) {
                        result.completeExceptionally(chunk.getFailure());
                        return;
                    }
                    ByteBuffer buffer = chunk.getByteBuffer();
                    int length = buffer.remaining();
                    seen += length;
                    if (seen <= HttpFront.MAX_BODY_BYTES) {
                        byte[] bytes = new byte[length];
                        buffer.get(bytes);
                        body.write(bytes, 0, length);
                    }
                    boolean last = chunk.isLast();
                    chunk.release();
                    if (last || seen > DRAIN_LIMIT) {
                        result.complete(seen > HttpFront.MAX_BODY_BYTES ? null : body.toByteArray());
                    }
                }
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        }
    }

    /** Whether a failure is (or was caused by) a timeout. */
    static boolean isTimeout(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof TimeoutException || cause instanceof java.net.SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }
}
