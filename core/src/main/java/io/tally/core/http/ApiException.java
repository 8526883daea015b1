package io.tally.core.http;

/**
 * A failure that the client is told about with its documented status and error code. Thrown anywhere below a
 * route; turned into the error body by {@link io.tally.writer.WriterApi}.
 */
public final class ApiException extends RuntimeException {
    private final ErrorCode code;
    private final String field;
    /** Whole seconds after which a retry may succeed ({@code Retry-After}), or 0 when the answer carries none. */
    private final long retryAfterSeconds;

    public ApiException(ErrorCode code, String message, String field) {
        this(code, message, field, 0);
    }

    private ApiException(ErrorCode code, String message, String field, long retryAfterSeconds) {
        super(message, null, false, false);
        this.code = code;
        this.field = field;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** A caller past its write quota: 429, to retry after so many whole seconds (at least 1). */
    public static ApiException tooManyRequests(String message, long retryAfterSeconds) {
        return new ApiException(ErrorCode.TOO_MANY_REQUESTS, message, null, Math.max(1, retryAfterSeconds));
    }

    /** Whole seconds after which a retry may succeed, for {@code Retry-After}; 0 when the answer carries none. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public ErrorCode code() {
        return code;
    }

    /** The input field at fault, or null. */
    public String field() {
        return field;
    }

    public static ApiException badRequest(String message) {
        return new ApiException(ErrorCode.BAD_REQUEST, message, null);
    }

    public static ApiException badRequest(String message, String field) {
        return new ApiException(ErrorCode.BAD_REQUEST, message, field);
    }

    /** A body or path that does not decode (not valid UTF-8, a lone surrogate, a bad escape): 400 invalid_request. */
    public static ApiException invalidRequest(String message) {
        return new ApiException(ErrorCode.INVALID_REQUEST, message, null);
    }

    /** As {@link #invalidRequest(String)}, naming the body field whose text does not decode. */
    public static ApiException invalidRequest(String message, String field) {
        return new ApiException(ErrorCode.INVALID_REQUEST, message, field);
    }

    public static ApiException validation(String field, String message) {
        return new ApiException(ErrorCode.VALIDATION_FAILED, message, field);
    }

    public static ApiException notFound(String message) {
        return new ApiException(ErrorCode.NOT_FOUND, message, null);
    }

    public static ApiException conflict(String message) {
        return new ApiException(ErrorCode.CONFLICT, message, null);
    }

    public static ApiException preconditionFailed(String message) {
        return new ApiException(ErrorCode.PRECONDITION_FAILED, message, "If-Match");
    }

    /** No valid token where the route needs one (401). */
    public static ApiException unauthorized(String message) {
        return new ApiException(ErrorCode.UNAUTHORIZED, message, null);
    }

    /** A valid token that does not grant the route (403). */
    public static ApiException forbidden(String message) {
        return new ApiException(ErrorCode.FORBIDDEN, message, null);
    }

    public static ApiException unavailable(String message) {
        return new ApiException(ErrorCode.UNAVAILABLE, message, null);
    }
}
