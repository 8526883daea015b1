package io.tally.local.stream;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.event.ruler.Machine;

/**
 * The event source mapping's {@code FilterCriteria}, locally: each stream record, as the JSON of the Lambda event
 * ({@link StreamRecordJson}, what Lambda's filter reads), is matched against the patterns with AWS's Event Ruler, the
 * matcher behind the pattern syntax, and kept when any of them matches. Without patterns every record is kept.
 */
public final class StreamRecordFilter {
    private static final StreamRecordFilter KEEP_ALL = new StreamRecordFilter(null);

    /** Null when there are no patterns. */
    private final Machine machine;

    private StreamRecordFilter(Machine machine) {
        this.machine = machine;
    }

    /**
     * The filter of these patterns.
     *
     * @throws IllegalArgumentException when Event Ruler refuses a pattern (Lambda would refuse the mapping)
     */
    public static StreamRecordFilter of(List<String> patterns) {
        if (patterns.isEmpty()) {
            return KEEP_ALL;
        }
        Machine machine = Machine.builder().build();
        for (int i = 0; i < patterns.size(); i++) {
            try {
                machine.addRule("filter-" + i, patterns.get(i));
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("FilterCriteria.Filters[" + i + "].Pattern is not a valid event "
                        + "pattern: " + e.getMessage() + ": " + patterns.get(i), e);
            }
        }
        return new StreamRecordFilter(machine);
    }

    /** Whether the record is delivered to the function. */
    public boolean keeps(Record record, String streamArn) {
        return machine == null || keeps(StreamRecordJson.record(record, streamArn));
    }

    /** Whether the record, as the Lambda event's JSON, is delivered to the function. */
    boolean keeps(JsonNode record) {
        return machine == null || !machine.rulesForJSONEvent(record).isEmpty();
    }

    /** The records delivered to the function, in their order. */
    List<Record> keep(List<Record> records, String streamArn) {
        if (machine == null) {
            return records;
        }
        List<Record> kept = new ArrayList<>(records.size());
        for (Record record : records) {
            if (keeps(record, streamArn)) {
                kept.add(record);
            }
        }
        return kept;
    }
}
