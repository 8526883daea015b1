package io.tally.core.logging;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.slf4j.MDC;

/**
 * The Lambda functions' logging: SLF4J over java.util.logging (the functions' jars carry {@code slf4j-jdk14}), each
 * line one JSON object on standard output, which Lambda sends to CloudWatch Logs as it is (with the function's
 * {@code LogFormat: JSON} it does not wrap a line that is JSON already, and Logs Insights reads its fields). A line
 * has {@code timestamp} (UTC, milliseconds), {@code level} (SLF4J's names), {@code message}, {@code logger},
 * {@code thread}, for an exception {@code errorType}, {@code errorMessage} and {@code stackTrace} (the names Lambda's
 * own JSON lines give them), and the invocation's fields ({@link InvocationLog}) at the top level.
 *
 * <p>The handlers' production constructors (the ones Lambda calls) install it; the local runner and the benchmark,
 * which build the handlers otherwise, keep their own logging. The level is Lambda's {@code ApplicationLogLevel}, which
 * reaches the function as {@code AWS_LAMBDA_LOG_LEVEL} with {@code LogFormat: JSON}; INFO when it is not set.
 */
public final class LambdaLogging {
    /** The environment variable Lambda sets to the function's application log level. */
    static final String LEVEL_VARIABLE = "AWS_LAMBDA_LOG_LEVEL";

    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static volatile boolean installed;

    private LambdaLogging() {
    }

    /** Makes every java.util.logging line a JSON line on standard output, once per process. */
    public static void install() {
        if (installed) {
            return;
        }
        synchronized (LambdaLogging.class) {
            if (!installed) {
                install(System.out, System.getenv(LEVEL_VARIABLE));
                installed = true;
            }
        }
    }

    /**
     * {@link #install() Installs} the logging, then gives the process's environment: for the handlers' production
     * constructors, which must delegate first and wire themselves from the environment.
     */
    public static Map<String, String> environment() {
        install();
        return System.getenv();
    }

    /** As {@link #install()}, to {@code out} at {@code level} (an SLF4J level name; null or unknown: INFO). */
    static void install(PrintStream out, String level) {
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        Level threshold = julLevel(level);
        root.setLevel(threshold);
        Handler lines = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (isLoggable(record)) {
                    String line = getFormatter().format(record);
                    synchronized (out) {
                        out.print(line);
                        out.flush();
                    }
                }
            }

            @Override
            public void flush() {
                out.flush();
            }

            @Override
            public void close() {
                out.flush();
            }
        };
        lines.setLevel(threshold);
        lines.setFormatter(new JsonLines());
        root.addHandler(lines);
    }

    /** java.util.logging's level for an SLF4J (and Lambda) level name. */
    static Level julLevel(String level) {
        if (level == null) {
            return Level.INFO;
        }
        return switch (level.trim().toUpperCase(java.util.Locale.ROOT)) {
            case "TRACE" -> Level.FINEST;
            case "DEBUG" -> Level.FINE;
            case "WARN" -> Level.WARNING;
            case "ERROR", "FATAL" -> Level.SEVERE;
            default -> Level.INFO;
        };
    }

    /** SLF4J's name for a java.util.logging level (slf4j-jdk14 maps SLF4J's five onto these). */
    static String slf4jLevel(Level level) {
        int value = level.intValue();
        if (value >= Level.SEVERE.intValue()) {
            return "ERROR";
        } else if (value >= Level.WARNING.intValue()) {
            return "WARN";
        } else if (value >= Level.INFO.intValue()) {
            return "INFO";
        } else if (value >= Level.FINE.intValue()) {
            return "DEBUG";
        }
        return "TRACE";
    }

    /** One JSON object a line. Formats on the logging thread (the handler above is synchronous), so the MDC is its. */
    static final class JsonLines extends Formatter {
        @Override
        public String format(LogRecord record) {
            StringBuilder json = new StringBuilder(256).append('{');
            field(json, "timestamp", TIMESTAMP.format(Instant.ofEpochMilli(record.getMillis())));
            field(json, "level", slf4jLevel(record.getLevel()));
            field(json, "message", formatMessage(record));
            field(json, "logger", record.getLoggerName());
            field(json, "thread", Thread.currentThread().getName());
            Throwable thrown = record.getThrown();
            if (thrown != null) {
                field(json, "errorType", thrown.getClass().getName());
                field(json, "errorMessage", thrown.getMessage());
                StringWriter trace = new StringWriter();
                thrown.printStackTrace(new PrintWriter(trace));
                field(json, "stackTrace", trace.toString());
            }
            Map<String, String> fields = MDC.getCopyOfContextMap();
            if (fields != null) {
                fields.forEach((name, value) -> field(json, name, value));
            }
            return json.append("}\n").toString();
        }

        private static void field(StringBuilder json, String name, String value) {
            if (value == null) {
                return;
            }
            if (json.length() > 1) {
                json.append(',');
            }
            string(json, name).append(':');
            string(json, value);
        }

        /** A JSON string, escaped by Jackson's encoder. */
        static StringBuilder string(StringBuilder json, String text) {
            json.append('"');
            JsonStringEncoder.getInstance().quoteAsString(text, json);
            return json.append('"');
        }
    }
}
