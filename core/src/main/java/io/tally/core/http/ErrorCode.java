package io.tally.core.http;

/** The error codes of the HTTP contract, each with its status. */
public enum ErrorCode {
    BAD_REQUEST(400, "bad_request"),
    /** A body or path that does not decode: not valid UTF-8, not valid Unicode (DOMAIN.md, "Input is decoded strictly"). */
    INVALID_REQUEST(400, "invalid_request"),
    VALIDATION_FAILED(400, "validation_failed"),
    UNAUTHORIZED(401, "unauthorized"),
    FORBIDDEN(403, "forbidden"),
    NOT_FOUND(404, "not_found"),
    METHOD_NOT_ALLOWED(405, "method_not_allowed"),
    CONFLICT(409, "conflict"),
    PRECONDITION_FAILED(412, "precondition_failed"),
    PAYLOAD_TOO_LARGE(413, "payload_too_large"),
    /** A signed-in caller past its write quota (DOMAIN.md, "Per-caller write quota"); with {@code Retry-After}. */
    TOO_MANY_REQUESTS(429, "too_many_requests"),
    INTERNAL(500, "internal"),
    UNAVAILABLE(503, "unavailable");

    private final int status;
    private final String code;

    ErrorCode(int status, String code) {
        this.status = status;
        this.code = code;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }
}
