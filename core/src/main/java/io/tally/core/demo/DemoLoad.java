package io.tally.core.demo;

import java.io.IOException;
import java.util.Random;

/**
 * A domain's part of the steady synthetic load that {@code tally-local --demo} keeps running after the seed scenario:
 * random writes through the API, in proportions that keep the domain's derived figures moving. One instance serves
 * one run, on one thread, and may remember what it wrote (ids to comment on, to refund, ...); it keeps what it
 * remembers bounded.
 */
public interface DemoLoad {
    /** Its weight among the domains' loads: how often a write is its, against the others' weights. */
    int weight();

    /** One random write; refused writes are counted by the caller and the load goes on. */
    DemoApi.Reply write(DemoApi api, Random random) throws IOException, InterruptedException;
}
