package io.tally.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * Records every AWS operation the main code of a function module performs during its tests, for the least-privilege
 * test of the deployment template ({@code LeastPrivilegeTest} in {@code infra}). Registered as an SDK global
 * interceptor by the test resources of {@code writer-service} and {@code stream-processor}
 * ({@code software/amazon/awssdk/global/handlers/execution.interceptors}), so it sees every client, whoever builds
 * it.
 *
 * <p>A call is attributed to the first Tally class on the stack outside the test kit and core: a call made by the
 * tests themselves (creating tables, reading results) is not recorded; one made by main code is, with that class.
 * Each test JVM writes its records, one per line ({@code module \t class \t action \t resource \t tables}), to
 * {@code target/aws-operations/} of its module when it exits.
 */
public final class AwsOperationRecorder implements ExecutionInterceptor {
    /** The directory a module's records are written to, below its {@code target}. */
    public static final String DIRECTORY = "aws-operations";
    private static final Set<String> RECORDS = ConcurrentHashMap.newKeySet();
    private static final StackWalker STACK = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(AwsOperationRecorder::write, "aws-operation-recorder"));
    }

    /** A resource kind of a request, as the least-privilege test maps it onto the template's resources. */
    public enum Resource {
        TABLE, INDEX, STREAM, ANY_STREAM, EVENT_BUS, QUEUE, SECRET
    }

    /**
     * {@code client} recording its calls: for clients that do not run the SDK's pipeline, and so never reach an
     * interceptor (DynamoDB Local's embedded clients answer through a proxy of their own).
     */
    public static <T> T recording(T client, Class<T> type) {
        InvocationHandler handler = (proxy, method, args) -> {
            boolean request = args != null && args.length == 1 && args[0] instanceof SdkRequest;
            if (request) {
                record((SdkRequest) args[0]);
            } else if (method.isDefault() && args != null && args.length > 0) {
                // Builder-style overloads and paginators: run the default body on this proxy, so that the request
                // it builds comes back through this handler as an operation's request.
                return InvocationHandler.invokeDefault(proxy, method, args);
            }
            try {
                return method.invoke(client, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        record(context.request());
    }

    private static void record(SdkRequest request) {
        Optional<Class<?>> caller = caller();
        if (caller.isEmpty()) {
            return;
        }
        Optional<String> module = mainCodeModule(caller.get());
        if (module.isEmpty()) {
            return;
        }
        String table = tables(request);
        for (String action : actions(request)) {
            for (Resource resource : resources(request)) {
                RECORDS.add(module.get() + "\t" + caller.get().getName() + "\t" + action + "\t" + resource + "\t"
                        + table);
            }
        }
    }

    /**
     * The IAM actions a request needs: its operation's, except for a transaction, which IAM authorises item by item
     * ({@code TransactWriteItems} is no IAM action: each Put, Update, Delete and ConditionCheck needs its own).
     */
    static Set<String> actions(SdkRequest request) {
        Set<String> actions = new TreeSet<>();
        if (request instanceof TransactWriteItemsRequest transaction) {
            for (TransactWriteItem item : transaction.transactItems()) {
                actions.add(item.put() != null ? "dynamodb:PutItem"
                        : item.update() != null ? "dynamodb:UpdateItem"
                        : item.delete() != null ? "dynamodb:DeleteItem"
                        : "dynamodb:ConditionCheckItem");
            }
        } else if (request instanceof TransactGetItemsRequest) {
            actions.add("dynamodb:GetItem");
        } else {
            actions.add(action(request));
        }
        return actions;
    }

    /** The IAM action of a request, e.g. {@code dynamodb:UpdateItem}. */
    static String action(SdkRequest request) {
        String name = request.getClass().getName();
        String prefix = name.contains(".services.dynamodb.") ? "dynamodb"
                : name.contains(".services.eventbridge.") ? "events"
                : name.contains(".services.sqs.") ? "sqs"
                : name.contains(".services.secretsmanager.") ? "secretsmanager"
                : name.replaceAll(".*\\.services\\.([a-z0-9]+)\\..*", "$1");
        String operation = request.getClass().getSimpleName().replaceAll("Request$", "");
        return prefix + ":" + operation;
    }

    /** The table names a DynamoDB request names, comma separated, or {@code -}. */
    static String tables(SdkRequest request) {
        Set<String> tables = new TreeSet<>();
        request.getValueForField("TableName", String.class).ifPresent(tables::add);
        if (request instanceof TransactWriteItemsRequest transaction) {
            for (TransactWriteItem item : transaction.transactItems()) {
                tables.add(item.put() != null ? item.put().tableName()
                        : item.update() != null ? item.update().tableName()
                        : item.delete() != null ? item.delete().tableName()
                        : item.conditionCheck().tableName());
            }
        }
        if (request instanceof BatchGetItemRequest batch) {
            tables.addAll(batch.requestItems().keySet());
        }
        if (request instanceof BatchWriteItemRequest batch) {
            tables.addAll(batch.requestItems().keySet());
        }
        return tables.isEmpty() ? "-" : String.join(",", tables);
    }

    static List<Resource> resources(SdkRequest request) {
        String action = action(request);
        List<Resource> resources = new ArrayList<>();
        switch (action) {
            case "dynamodb:ListStreams" -> resources.add(Resource.ANY_STREAM);
            case "dynamodb:DescribeStream", "dynamodb:GetShardIterator", "dynamodb:GetRecords" ->
                    resources.add(Resource.STREAM);
            case "events:PutEvents" -> resources.add(Resource.EVENT_BUS);
            case "secretsmanager:GetSecretValue" -> resources.add(Resource.SECRET);
            default -> {
                if (action.startsWith("sqs:")) {
                    resources.add(Resource.QUEUE);
                } else {
                    resources.add(request.getValueForField("IndexName", String.class).isPresent()
                            ? Resource.INDEX : Resource.TABLE);
                }
            }
        }
        return resources;
    }

    private static Optional<Class<?>> caller() {
        return STACK.walk(frames -> frames.map(StackWalker.StackFrame::getDeclaringClass)
                .filter(type -> type.getName().startsWith("io.tally.")
                        && !type.getName().startsWith("io.tally.testkit.")
                        && !type.getName().startsWith("io.tally.core.")
                        // A domain's code runs inside a function (its routes in the writer's, its derivations and
                        // cascades in the stream processor's): the function that called it is the one whose role counts.
                        && !type.getName().startsWith("io.tally.domains."))
                .findFirst());
    }

    /**
     * The module whose main code the class is, from where it was loaded: {@code <module>/target/classes} (Surefire)
     * or a jar in {@code <module>/target} (Failsafe); empty for test code ({@code target/test-classes}) and for
     * anything else.
     */
    private static Optional<String> mainCodeModule(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return Optional.empty();
        }
        Path path;
        try {
            path = Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return Optional.empty();
        }
        boolean classes = Files.isDirectory(path) && path.getFileName().toString().equals("classes");
        boolean jar = path.getFileName().toString().endsWith(".jar");
        Path target = path.getParent();
        if (!(classes || jar) || target == null || !target.getFileName().toString().equals("target")
                || target.getParent() == null) {
            return Optional.empty();
        }
        return Optional.of(target.getParent().getFileName().toString());
    }

    private static void write() {
        if (RECORDS.isEmpty()) {
            return;
        }
        Set<String> sorted = new TreeSet<>(RECORDS);
        String module = sorted.iterator().next().split("\t", 2)[0];
        // The JVM's working directory is the module's directory under Surefire and Failsafe.
        Path directory = Path.of("target", DIRECTORY);
        if (!Path.of("").toAbsolutePath().getFileName().toString().equals(module)) {
            return;
        }
        try {
            Files.createDirectories(directory);
            Files.write(directory.resolve("records-" + UUID.randomUUID() + ".tsv"), sorted, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
