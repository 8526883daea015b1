package io.tally.testkit;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A DynamoDB client that counts the requests it passes on which a predicate holds: the embedded DynamoDB Local's
 * client takes no interceptor, so tests that count writes of one kind wrap it.
 */
public final class CountingDynamoDb {
    private CountingDynamoDb() {
    }

    /** {@code client}, adding one to {@code count} for each request (of any operation) that {@code counted} accepts. */
    public static DynamoDbClient counting(DynamoDbClient client, Predicate<Object> counted, AtomicInteger count) {
        return (DynamoDbClient) Proxy.newProxyInstance(CountingDynamoDb.class.getClassLoader(),
                new Class<?>[] {DynamoDbClient.class}, (proxy, method, args) -> {
                    if (args != null && args.length == 1 && counted.test(args[0])) {
                        count.incrementAndGet();
                    }
                    try {
                        return method.invoke(client, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
