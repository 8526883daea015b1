package io.tally.stream.testing;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** The context of one invocation: a fresh request id and a deadline, as Lambda gives each invocation. */
public final class TestLambdaContext implements Context {
    private final String requestId = UUID.randomUUID().toString();
    private final long deadline;

    public TestLambdaContext(long timeoutMillis) {
        this.deadline = System.currentTimeMillis() + timeoutMillis;
    }

    @Override
    public String getAwsRequestId() {
        return requestId;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/tally-stream-processor";
    }

    @Override
    public String getLogStreamName() {
        return "test";
    }

    @Override
    public String getFunctionName() {
        return "tally-stream-processor";
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:us-east-1:000000000000:function:tally-stream-processor";
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
        return (int) Math.max(0, deadline - System.currentTimeMillis());
    }

    @Override
    public int getMemoryLimitInMB() {
        return 1024;
    }

    @Override
    public LambdaLogger getLogger() {
        return new LambdaLogger() {
            @Override
            public void log(String message) {
                System.out.println(message);
            }

            @Override
            public void log(byte[] message) {
                log(new String(message, StandardCharsets.UTF_8));
            }
        };
    }
}
