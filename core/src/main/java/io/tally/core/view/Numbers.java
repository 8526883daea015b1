package io.tally.core.view;

/** The whole-number types a view's counted figures may have, and a stored counter as one of them. */
final class Numbers {
    private Numbers() {
    }

    static boolean isWhole(Class<?> type) {
        return type == long.class || type == Long.class || type == int.class || type == Integer.class;
    }

    /** The counter as the component's type; an int component refuses a counter past its range. */
    static Object of(Class<?> type, long value) {
        if (type == long.class || type == Long.class) {
            return value;
        }
        if (type == int.class || type == Integer.class) {
            return Math.toIntExact(value);
        }
        throw new IllegalArgumentException("not a whole-number type: " + type);
    }
}
