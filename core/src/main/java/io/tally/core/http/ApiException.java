package io.tally.core.http;

/**
 * A failure that the client is told about with its documented status and error code. Thrown anywhere below a
 * route; turned into the error body by {@link io.tally.writer.WriterApi}.
 */
public final class ApiException extends RuntimeException {
    private final ErrorCode code;
    private final String field;

    public ApiException(ErrorCode code, String message, String field) {
        super(message, null, false, false);
        this.code = code;
        this.field = field;
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
