package io.tally.stream.rebuild;

import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Which failed requests of the watermark pruner are refusals of the one item they were for, and which say that the
 * table or the service cannot be worked on now.
 *
 * <p>An item's own refusal ({@code ValidationException}, {@code ItemCollectionSizeLimitExceededException}, a
 * transaction conflict on the item, any other client error not named below) fails the same way every time the
 * pass meets that item: stopping there would hold every later run at the same page, so the pass reports the item
 * and goes on. Throttling, server errors (5xx), clock skew, a failure to reach DynamoDB, and the errors that concern
 * the table or the caller rather than the item (the table is gone, the role lacks a permission, the credentials are
 * refused) would fail every item alike: the pass stops and the next run continues from the stored position.
 */
final class ItemFailures {
    /** Client errors that are about the table or the caller, whatever the item. */
    private static final Set<String> NOT_THE_ITEMS = Set.of("ResourceNotFoundException", "AccessDeniedException",
            "UnrecognizedClientException", "MissingAuthenticationTokenException", "InvalidSignatureException",
            "IncompleteSignatureException", "ExpiredTokenException", "InvalidClientTokenId", "RequestExpired");

    private ItemFailures() {
    }

    /** Whether the failure is the item's own: report the item and go on with the pass. */
    static boolean isTheItems(SdkException failure) {
        if (!(failure instanceof AwsServiceException service)) {
            return false;
        }
        int status = service.statusCode();
        if (service.isThrottlingException() || service.isClockSkewException() || status >= 500
                || status == 401 || status == 403) {
            return false;
        }
        return !NOT_THE_ITEMS.contains(errorCode(service));
    }

    /** The error code and DynamoDB's message, for the report and the log. */
    static String describe(SdkException failure) {
        if (failure instanceof AwsServiceException service && service.awsErrorDetails() != null) {
            String message = service.awsErrorDetails().errorMessage();
            return errorCode(service) + (message == null ? "" : ": " + message);
        }
        return failure.getClass().getSimpleName() + ": " + failure.getMessage();
    }

    private static String errorCode(AwsServiceException service) {
        String code = service.awsErrorDetails() == null ? null : service.awsErrorDetails().errorCode();
        return code == null ? service.getClass().getSimpleName() : code;
    }
}
