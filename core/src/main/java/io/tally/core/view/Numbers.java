package io.tally.core.view;

/**
 * The whole-number types a view's counted figures may have, and a stored counter as one of them: {@code long} only (an
 * {@code int} would fail to read a count past 2^31, which is valid data; the JSON is the same).
 */
final class Numbers {
    private Numbers() {
    }

    static boolean isWhole(Class<?> type) {
        return type == long.class || type == Long.class;
    }

    /** The counter as the component's type. */
    static Object of(Class<?> type, long value) {
        if (!isWhole(type)) {
            throw new IllegalArgumentException("not a whole-number type: " + type);
        }
        return value;
    }
}
