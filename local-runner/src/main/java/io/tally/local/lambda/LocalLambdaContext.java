package io.tally.local.lambda;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.logging.LogLevel;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Lambda {@link Context} of one local invocation: what the Lambda runtime would hand the function, with the
 * function's log lines going to slf4j instead of CloudWatch.
 */
public final class LocalLambdaContext implements Context {
    public static final String ACCOUNT_ID = "000000000000";
    public static final String REGION = "us-east-1";
    public static final int MEMORY_LIMIT_MB = 512;

    private final String functionName;
    private final String requestId = UUID.randomUUID().toString();
    private final Clock clock;
    private final Instant deadline;
    private final LambdaLogger logger;

    /** An invocation with a request id of its own that must finish within {@code timeout} of now. */
    public LocalLambdaContext(String functionName, Duration timeout, Clock clock) {
        this.functionName = Objects.requireNonNull(functionName, "functionName");
        this.clock = Objects.requireNonNull(clock, "clock");
        deadline = clock.instant().plus(timeout);
        logger = new Slf4jLambdaLogger(LoggerFactory.getLogger("lambda." + functionName), requestId);
    }

    @Override
    public String getAwsRequestId() {
        return requestId;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/" + functionName;
    }

    @Override
    public String getLogStreamName() {
        return LocalDate.now(clock.withZone(ZoneOffset.UTC)).toString().replace('-', '/') + "/[$LATEST]local";
    }

    @Override
    public String getFunctionName() {
        return functionName;
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:" + REGION + ":" + ACCOUNT_ID + ":function:" + functionName;
    }

    @Override
    public CognitoIdentity getIdentity() {
        return null;
    }

    @Override
    public ClientContext getClientContext() {
        return null;
    }

    @Override
    public int getRemainingTimeInMillis() {
        long remaining = Duration.between(clock.instant(), deadline).toMillis();
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, remaining));
    }

    @Override
    public int getMemoryLimitInMB() {
        return MEMORY_LIMIT_MB;
    }

    @Override
    public LambdaLogger getLogger() {
        return logger;
    }

    /** Lambda's logger prefixes nothing; the request id is added here so interleaved requests stay readable. */
    private record Slf4jLambdaLogger(Logger logger, String requestId) implements LambdaLogger {
        @Override
        public void log(String message) {
            log(message, LogLevel.INFO);
        }

        @Override
        public void log(byte[] message) {
            log(new String(message, StandardCharsets.UTF_8), LogLevel.INFO);
        }

        @Override
        public void log(byte[] message, LogLevel level) {
            log(new String(message, StandardCharsets.UTF_8), level);
        }

        @Override
        public void log(String message, LogLevel level) {
            String line = requestId + " " + stripTrailingNewline(message);
            switch (level == null ? LogLevel.INFO : level) {
                case FATAL, ERROR -> logger.error(line);
                case WARN -> logger.warn(line);
                case DEBUG -> logger.debug(line);
                case TRACE -> logger.trace(line);
                default -> logger.info(line);
            }
        }

        private static String stripTrailingNewline(String message) {
            String text = message == null ? "null" : message;
            return text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        }
    }
}
