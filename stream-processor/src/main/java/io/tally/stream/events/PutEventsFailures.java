package io.tally.stream.events;

import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;

/** Which PutEvents failures another attempt may get past, for {@link EventBridgePublisher}. */
final class PutEventsFailures {
    /**
     * Call error codes that clear by themselves though EventBridge answers them with a 4xx: credentials that expired
     * (the function's role's session is renewed) and a request signed too long ago.
     */
    private static final Set<String> RETRYABLE_CALL_ERRORS = Set.of("ExpiredTokenException", "RequestExpired",
            "RequestTimeout", "RequestTimeoutException");
    /**
     * The entry error codes EventBridge documents as retryable (throttling, its internal failures), and the missing
     * result of an entry, which may not have been accepted. Any other code (those it documents as non-retryable:
     * {@code AccessDeniedException}, {@code InvalidArgument}, {@code MalformedDetail}, {@code NotAuthorizedFor...},
     * and codes it may add) is a refusal another attempt would meet again: the engine files such an event as a dead
     * letter at once rather than hold its shard.
     */
    private static final Set<String> RETRYABLE_ENTRY_ERRORS = Set.of("ThrottlingException", "InternalFailure",
            "InternalException", "ServiceUnavailable", EventBridgePublisher.NO_RESULT);

    private PutEventsFailures() {
    }

    /** Whether an entry refused with this error code may be accepted by another attempt. */
    static boolean retryableEntry(String errorCode) {
        return RETRYABLE_ENTRY_ERRORS.contains(errorCode);
    }

    /**
     * Throttling, 5xx, expired credentials and any failure on this side of the wire (I/O, timeouts, credentials that
     * could not be loaded) may pass; anything else EventBridge answers (validation, access, a missing bus) will not.
     * Events that cannot be sent at all (too large, a detail that is not JSON) never reach a call.
     */
    static boolean retryable(SdkException e) {
        if (e instanceof AwsServiceException service && service.awsErrorDetails() != null
                && RETRYABLE_CALL_ERRORS.contains(service.awsErrorDetails().errorCode())) {
            return true;
        }
        if (e instanceof SdkServiceException service) {
            return service.isThrottlingException() || service.statusCode() >= 500;
        }
        // A timed-out call may still have been accepted; resending risks a duplicate, which subscribers drop by
        // eventId, whereas not resending risks a lost event.
        return e instanceof SdkClientException || e instanceof ApiCallAttemptTimeoutException
                || e instanceof ApiCallTimeoutException;
    }

    static String errorCode(SdkException e) {
        return e instanceof AwsServiceException service && service.awsErrorDetails() != null
                ? service.awsErrorDetails().errorCode() : e.getClass().getSimpleName();
    }
}
