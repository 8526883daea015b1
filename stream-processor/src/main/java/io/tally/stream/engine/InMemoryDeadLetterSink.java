package io.tally.stream.engine;

import java.util.ArrayList;
import java.util.List;

/** Dead letters in memory, for tests and tools. */
public final class InMemoryDeadLetterSink implements DeadLetterSink {
    private final List<DeadLetter> letters = new ArrayList<>();

    @Override
    public synchronized void send(DeadLetter letter) {
        letters.add(letter);
    }

    /** Every letter sent, in the order received (a redelivered record appears again). */
    public synchronized List<DeadLetter> letters() {
        return List.copyOf(letters);
    }
}
