package io.tally.stream.fault;

import io.tally.stream.engine.DerivedStore;
import io.tally.stream.engine.DerivedWrite;

/**
 * A derived store that can run something once, just before the first derived write of the batch in flight: when the
 * batch has been admitted (its claim is granted) and nothing of it is written yet. The batch's other writes wait
 * until it has run.
 */
final class InFlightHook implements DerivedStore {
    private final DerivedStore delegate;
    private Runnable next;

    InFlightHook(DerivedStore delegate) {
        this.delegate = delegate;
    }

    /** Runs {@code hook} before the next write, unless {@link #disarm()} comes first. */
    synchronized void arm(Runnable hook) {
        next = hook;
    }

    synchronized void disarm() {
        next = null;
    }

    @Override
    public Outcome apply(DerivedWrite write) {
        synchronized (this) {
            Runnable hook = next;
            next = null;
            if (hook != null) {
                hook.run();
            }
        }
        return delegate.apply(write);
    }
}
