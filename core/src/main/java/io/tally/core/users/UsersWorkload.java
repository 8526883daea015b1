package io.tally.core.users;

import io.tally.core.workload.AbstractWorkloadPart;
import io.tally.core.workload.WorkloadContext;
import java.util.HashMap;
import java.util.Map;

/** The kernel's part of the random workload: new users, and renamed ones, each rename a version up as the writer's. */
public final class UsersWorkload extends AbstractWorkloadPart {
    /** Each renamed user's version; a user not here is at version 1. */
    private final Map<String, Long> versions = new HashMap<>();

    public UsersWorkload(WorkloadContext context) {
        super(context, "u", 12, true);
    }

    @Override
    public void step() {
        if (context.users().size() < 2 || random.nextInt(3) < 2) {
            create(context);
        } else {
            String id = context.pick(context.users());
            long version = versions.merge(id, 2L, (old, two) -> old + 1);
            put(new User(id, "Renamed " + context.nextId("n"), id + "@example.com", now(), now(), version).toItem());
        }
    }

    /** A new user, as {@code POST /users} writes one; returns its id. */
    public static String create(WorkloadContext context) {
        String id = context.nextId("u");
        context.users().add(id);
        context.put(new User(id, "User " + id, id + "@example.com", context.now(), context.now(), 1).toItem());
        return id;
    }
}
