package io.tally.bench.model;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A share of a CPU for a process: a control group of the kernel's CPU controller whose bandwidth quota lets its
 * processes run {@code cores} of a core (CFS bandwidth control: {@code quota} microseconds of CPU per {@code period}),
 * the mechanism container runtimes use for a CPU limit. cgroup v1 ({@code /sys/fs/cgroup/cpu}, files
 * {@code cpu.cfs_quota_us} and {@code cpu.cfs_period_us}) and v2 ({@code cpu.max}) are both handled. Creating one
 * needs write access to the hierarchy (root, or a delegated subtree); {@link #create} says so when it has none.
 */
final class CpuQuota implements AutoCloseable {
    static final Path V1 = Path.of("/sys/fs/cgroup/cpu");
    static final Path V2 = Path.of("/sys/fs/cgroup");
    /** The start of the model's group names ({@link #groupName}). */
    static final String PREFIX = "tally-model-";

    private final Path dir;
    private final boolean v2;

    private CpuQuota(Path dir, boolean v2) {
        this.dir = dir;
        this.v2 = v2;
    }

    /**
     * A new group that runs its processes {@code cores} of a core, measured over {@code periodMicros}.
     *
     * @throws IllegalStateException when no CPU controller can be written here, with what it needs
     */
    static CpuQuota create(String name, double cores, long periodMicros) {
        if (!(cores > 0) || periodMicros < 1_000 || periodMicros > 1_000_000) {
            throw new IllegalArgumentException("a quota needs a positive share and a period of 1 ms to 1 s");
        }
        removeAbandoned(V1);
        removeAbandoned(V2);
        long quota = Math.max(1_000, Math.round(cores * periodMicros));
        try {
            if (Files.isWritable(V1.resolve("cpu.cfs_quota_us"))) {
                Path dir = Files.createDirectories(V1.resolve(name));
                Files.writeString(dir.resolve("cpu.cfs_period_us"), Long.toString(periodMicros));
                Files.writeString(dir.resolve("cpu.cfs_quota_us"), Long.toString(quota));
                return new CpuQuota(dir, false);
            }
            Path controllers = V2.resolve("cgroup.controllers");
            if (Files.isReadable(controllers) && Files.readString(controllers).contains("cpu")
                    && Files.isWritable(V2.resolve("cgroup.subtree_control"))) {
                String enabled = Files.readString(V2.resolve("cgroup.subtree_control"));
                if (!enabled.contains("cpu")) {
                    Files.writeString(V2.resolve("cgroup.subtree_control"), "+cpu");
                }
                Path dir = Files.createDirectories(V2.resolve(name));
                Files.writeString(dir.resolve("cpu.max"), quota + " " + periodMicros);
                return new CpuQuota(dir, true);
            }
        } catch (IOException | RuntimeException e) {
            throw unavailable(e.toString());
        }
        throw unavailable("neither " + V1.resolve("cpu.cfs_quota_us") + " (cgroup v1) nor " + V2.resolve("cpu.max")
                + " (cgroup v2) can be written");
    }

    /**
     * The model's group name for one of its runs: {@value #PREFIX}, the bench's process id, the run's number; a group
     * whose bench process has gone is removed by the next {@link #create} (an interrupted run leaves its group).
     */
    static String groupName(long benchPid, int run) {
        return PREFIX + benchPid + "-" + run;
    }

    /** Removes the empty groups of bench processes that have ended. */
    static void removeAbandoned(Path root) {
        if (!Files.isWritable(root)) {
            return;
        }
        try (Stream<Path> groups = Files.list(root)) {
            groups.filter(group -> abandoned(group.getFileName().toString())).forEach(group -> {
                try {
                    Files.deleteIfExists(group);
                } catch (IOException e) {
                    // A process still in it: it stays until the next run.
                }
            });
        } catch (IOException e) {
            // Nothing to tidy that can be read.
        }
    }

    /** Whether a group name is the model's, of a bench process that no longer runs. */
    static boolean abandoned(String name) {
        if (!name.startsWith(PREFIX)) {
            return false;
        }
        String[] parts = name.substring(PREFIX.length()).split("-");
        try {
            return parts.length == 2 && ProcessHandle.of(Long.parseLong(parts[0])).isEmpty();
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static IllegalStateException unavailable(String why) {
        return new IllegalStateException("the CPU-confined model gives the function process a share of a core"
                + " through the kernel's CPU controller, and cannot here (" + why + "): run it as root, or in a"
                + " cgroup v2 subtree delegated to this user");
    }

    /** Moves a process (all its threads) into the group. */
    void add(long pid) {
        try {
            Files.writeString(dir.resolve("cgroup.procs"), Long.toString(pid));
        } catch (IOException e) {
            throw new IllegalStateException("could not move process " + pid + " into " + dir + ": " + e, e);
        }
    }

    /**
     * Takes threads of a process out of the group, into the hierarchy's root, and pins them to {@code core}: with
     * cgroup v1 only (v2 keeps a process's threads in one group unless it is threaded).
     *
     * @return whether they were taken out
     */
    boolean exempt(List<Long> threads, int core) {
        if (v2) {
            return false;
        }
        for (long thread : threads) {
            try {
                Files.writeString(V1.resolve("tasks"), Long.toString(thread));
                Process pin = new ProcessBuilder("taskset", "-p", "-c", Integer.toString(core), Long.toString(thread))
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (pin.waitFor() != 0) {
                    return false;
                }
            } catch (IOException e) {
                return false; // ended meanwhile, or not ours to move
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Removes the group, once its processes have ended. */
    @Override
    public void close() {
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // A process still in it: the kernel refuses; the group stays, empty once it ends.
        }
    }
}
