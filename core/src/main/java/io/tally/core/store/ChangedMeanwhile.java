package io.tally.core.store;

/**
 * A write refused because what it was made from changed between the read and the write (another request got there
 * first): the caller reads again and decides again, a bounded number of times. An answer to a refused action of a
 * {@link Transaction} or a refused update ({@code orElse(ChangedMeanwhile::new)}), caught by the caller's loop; without
 * a stack trace, since it is no error.
 */
public final class ChangedMeanwhile extends RuntimeException {
    public ChangedMeanwhile() {
        super("changed meanwhile", null, false, false);
    }
}
