package io.tally.core.http;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How many writes a signed-in caller may make (DOMAIN.md, "Per-caller write quota"): a steady rate a second and a
 * burst, an admin's larger. The router asks it after a write's access check ({@code Router.writeQuota}); reads are not
 * counted, and an anonymous caller (the open local mode) has none.
 */
public interface WriteQuota {
    /** No quota: every write is admitted (the open local mode, a writer without a quota table). */
    WriteQuota NONE = caller -> Optional.empty();

    /**
     * Admits one write of the caller, counting it, or says how long until one would be admitted (nothing counted).
     *
     * @return empty when admitted; else the wait before a retry may be
     */
    Optional<Duration> admit(Caller caller);

    /**
     * Admits one write of the caller, or refuses it: 429 {@code too_many_requests}, with the whole seconds to wait
     * for {@code Retry-After}.
     */
    default void check(Caller caller) {
        admit(caller).ifPresent(wait -> {
            long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
            throw ApiException.tooManyRequests("too many writes: past the caller's write quota; retry after " + seconds
                    + " s", seconds);
        });
    }

    /** Whether a request of this method is a write, which the quota counts ({@code POST PUT PATCH DELETE}). */
    static boolean counts(String method) {
        return switch (method) {
            case "POST", "PUT", "PATCH", "DELETE" -> true;
            default -> false;
        };
    }

    /**
     * The rates: a caller's steady writes a second and burst, and an admin's.
     *
     * @param perSecond      a signed-in caller's steady rate (default 20)
     * @param burst          the writes it may make at once after a pause (default 100)
     * @param adminPerSecond an admin's steady rate (default 200)
     * @param adminBurst     an admin's burst (default 1,000)
     */
    record Rates(int perSecond, int burst, int adminPerSecond, int adminBurst) {
        public static final Rates DEFAULTS = new Rates(20, 100, 200, 1_000);

        public Rates {
            if (perSecond < 1 || burst < 1 || adminPerSecond < 1 || adminBurst < 1) {
                throw new IllegalArgumentException("a write quota's rates and bursts are at least 1: " + perSecond
                        + "/" + burst + ", admins " + adminPerSecond + "/" + adminBurst);
            }
        }

        /**
         * The rates a caller's and an admin's {@code RATE/BURST} give (e.g. {@code 20/100} and {@code 200/1000}), as
         * the runner's options and the template's parameters write them.
         *
         * @throws IllegalArgumentException for anything but two whole numbers of at least 1 each
         */
        public static Rates of(String caller, String admin) {
            int[] callers = parse(caller);
            int[] admins = parse(admin);
            return new Rates(callers[0], callers[1], admins[0], admins[1]);
        }

        /** {@code RATE/BURST}, e.g. {@code 20/100}. */
        static int[] parse(String rateAndBurst) {
            Objects.requireNonNull(rateAndBurst, "rateAndBurst");
            String[] parts = rateAndBurst.split("/", -1);
            try {
                if (parts.length == 2 && parts[0].matches("[0-9]{1,6}") && parts[1].matches("[0-9]{1,7}")) {
                    int rate = Integer.parseInt(parts[0]);
                    int burst = Integer.parseInt(parts[1]);
                    if (rate >= 1 && burst >= 1) {
                        return new int[] {rate, burst};
                    }
                }
            } catch (NumberFormatException e) {
                // Refused below.
            }
            throw new IllegalArgumentException("a write quota is RATE/BURST, two whole numbers of at least 1 (e.g. "
                    + "20/100), not '" + rateAndBurst + "'");
        }
    }
}
