package io.tally.stream.engine;

import static io.tally.core.ShardCursorItem.ACKNOWLEDGED;
import static io.tally.core.ShardCursorItem.ATTEMPTS;
import static io.tally.core.ShardCursorItem.CLAIMED_FROM;
import static io.tally.core.ShardCursorItem.CLAIMED_TO;
import static io.tally.core.ShardCursorItem.HOLDER;
import static io.tally.core.ShardCursorItem.LEASE_UNTIL;
import static io.tally.core.ShardCursorItem.OUTAGE_LAST_FILED;
import static io.tally.core.ShardCursorItem.OUTAGE_SINCE;
import static io.tally.core.ShardCursorItem.PENDING;
import static io.tally.core.ShardCursorItem.PENDING_SINCE;
import static io.tally.core.ShardCursorItem.REFUSED;
import static io.tally.core.ShardCursorItem.SHARD_ID;
import static io.tally.core.ShardCursorItem.UPDATED_AT;

import io.tally.core.ShardCursorItem;
import io.tally.core.TableSchema;
import io.tally.core.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Shard cursors as items of the table ({@code SHARD#<token>} / {@code #CURSOR#}, see {@link ShardCursorItem}): one
 * conditional UpdateItem to claim, one to release, or one a batch when claims are handed over. The condition of the
 * claim is the guard; the item it returns (on success and on refusal) tells the progress or why, without a read.
 */
public final class DynamoDbShardCursors implements ShardCursors {
    private static final Logger LOG = LoggerFactory.getLogger(DynamoDbShardCursors.class);
    private static final String CLAIM = "#type = if_not_exists(#type, :type), #shard = :shard, #holder = :holder,"
            + " #until = :until, #from = :first, #updated = :now";
    /**
     * No pending record before the batch; and no claim in force, or our own, or a lapsed one (its invocation died)
     * whose first record is not before this batch's, or was acknowledged since, or lies before the pending record
     * (every record before that one is applied: {@link Progress#abandonedClaim}).
     */
    private static final String CLAIM_CONDITION = "(attribute_not_exists(#pending) OR #pending >= :first)"
            + " AND (attribute_not_exists(#until) OR #holder = :holder"
            + " OR (#until < :nowMillis AND (#from >= :first OR #from <= #ack OR #from < #pending)))";
    /** The claim read is still the cursor's, and lapsed. */
    private static final String SAME_LAPSED_CLAIM = "#holder = :lapsedHolder AND #from = :lapsedFrom"
            + " AND #until = :lapsedUntil AND #until < :nowMillis";
    /** The claim handed over is still the cursor's. */
    private static final String CHAIN_CONDITION = "#holder = :previousHolder AND #from = :previousFrom";

    /**
     * The attribute each placeholder of the expressions names. A request passes only the names its expressions use:
     * DynamoDB refuses an unused one.
     */
    private static final Map<String, String> NAMES = Map.ofEntries(Map.entry("#type", TableSchema.ENTITY_TYPE),
            Map.entry("#shard", SHARD_ID), Map.entry("#holder", HOLDER), Map.entry("#until", LEASE_UNTIL),
            Map.entry("#from", CLAIMED_FROM), Map.entry("#to", CLAIMED_TO),
            Map.entry("#pending", PENDING), Map.entry("#ack", ACKNOWLEDGED),
            Map.entry("#attempts", ATTEMPTS), Map.entry("#since", PENDING_SINCE), Map.entry("#refused", REFUSED),
            Map.entry("#outage", OUTAGE_SINCE), Map.entry("#outageFiled", OUTAGE_LAST_FILED),
            Map.entry("#updated", UPDATED_AT));

    private final DynamoDbClient client;
    private final String tableName;
    private final CursorLineages lineages;
    private final CursorRegistration registration;

    public DynamoDbShardCursors(DynamoDbClient client, String tableName) {
        this.client = Objects.requireNonNull(client, "client");
        this.tableName = Objects.requireNonNull(tableName, "tableName");
        this.lineages = new CursorLineages(client, tableName);
        this.registration = new CursorRegistration(client, tableName);
    }

    @Override
    public String lineage(String shardId, ShardParents parents) {
        return lineages.lineage(shardId, parents);
    }

    @Override
    public Claim claim(String shardId, String firstSequence, String lastSequence, Lease lease, Chain chain,
                       Instant now) {
        Handover received = chain.received();
        if (received != null) {
            Pending pending = received.progress().pending();
            if (pending != null && pending.sequence().compareTo(firstSequence) < 0) {
                return new PastFailure(pending);
            }
            Map<String, AttributeValue> before = chained(shardId, firstSequence, lastSequence, lease, chain, now);
            if (before != null) {
                registration.registerIfNeeded(shardId, before, now);
                return new Granted(received.progress());
            }
            // The claim handed over is no longer the cursor's (taken over, or released by an attempt whose answer was
            // lost): claim as an invocation without the window's state does.
        }
        return fresh(shardId, firstSequence, lastSequence, lease, chain.handsOver(), now);
    }

    /**
     * Takes over the claim handed over, storing its progress.
     *
     * @return the cursor as it was, or null when the claim handed over is no longer the cursor's
     */
    private Map<String, AttributeValue> chained(String shardId, String first, String last, Lease lease, Chain chain,
                                                Instant now) {
        Map<String, String> names = names("#type", "#shard", "#holder", "#until", "#from", "#updated");
        Map<String, AttributeValue> values = claimValues(shardId, first, lease, now);
        values.put(":previousHolder", AttributeValue.fromS(chain.received().holder()));
        values.put(":previousFrom", AttributeValue.fromS(chain.received().from()));
        List<String> set = new ArrayList<>(List.of(CLAIM));
        List<String> remove = new ArrayList<>();
        handsOver(chain.handsOver(), last, names, values, set, remove);
        CursorProgress.store(chain.received().progress(), names, values, set, remove);
        try {
            return client.updateItem(claiming(shardId, set, remove, CHAIN_CONDITION, names, values).build())
                    .attributes();
        } catch (ConditionalCheckFailedException e) {
            return null;
        }
    }

    /**
     * Claims without a claim handed over. A lapsed claim that was to be handed over, past whose last record the batch
     * starts, is first released on its holder's behalf with its batch taken as completed ({@link ClaimMarks#takenOver}),
     * and the claim made again.
     */
    private Claim fresh(String shardId, String first, String last, Lease lease, boolean handsOver, Instant now) {
        for (int attempt = 1; ; attempt++) {
            Map<String, String> names = names("#type", "#shard", "#holder", "#until", "#from", "#pending", "#ack",
                    "#updated");
            Map<String, AttributeValue> values = claimValues(shardId, first, lease, now);
            values.put(":nowMillis", AttributeValue.fromN(Long.toString(now.toEpochMilli())));
            List<String> set = new ArrayList<>(List.of(CLAIM));
            List<String> remove = new ArrayList<>();
            handsOver(handsOver, last, names, values, set, remove);
            UpdateItemRequest request = claiming(shardId, set, remove, CLAIM_CONDITION, names, values)
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                    .build();
            Map<String, AttributeValue> before;
            try {
                before = client.updateItem(request).attributes();
            } catch (ConditionalCheckFailedException e) {
                Map<String, AttributeValue> item = e.hasItem() ? e.item() : Map.of();
                if (attempt < 3 && takenOver(item, first, now)) {
                    releaseTakenOver(shardId, item, first, now);
                    continue;
                }
                return refusal(item, first, now);
            }
            registration.registerIfNeeded(shardId, before, now);
            Progress progress = CursorProgress.read(before);
            boolean otherClaim = before != null && before.containsKey(HOLDER)
                    && !lease.holder().equals(string(before, HOLDER));
            boolean overUnfinished = otherClaim && handsOver && progress.unfinished(string(before, CLAIMED_FROM));
            if (overUnfinished) {
                unmark(shardId, lease);
            }
            return new Granted(otherClaim ? progress.withAbandonedClaim(string(before, CLAIMED_FROM)) : progress,
                    !overUnfinished);
        }
    }

    /**
     * Removes the takeover mark of our claim made over a claim whose invocation died before its first record was
     * acknowledged (a retry of that batch): should this one die too and its records be given up on by the mapping, a
     * delivery past them must meet their pending record (the guard and its alarm), not take the claim over as
     * completed. One more write, only after a crash; a failure leaves the mark (logged).
     */
    private void unmark(String shardId, Lease lease) {
        try {
            client.updateItem(UpdateItemRequest.builder().tableName(tableName).key(key(shardId))
                    .updateExpression("REMOVE #to").conditionExpression("#holder = :holder")
                    .expressionAttributeNames(names("#to", "#holder"))
                    .expressionAttributeValues(Map.of(":holder", AttributeValue.fromS(lease.holder())))
                    .build());
        } catch (ConditionalCheckFailedException e) {
            // No longer ours: nothing of ours to unmark.
        } catch (RuntimeException e) {
            LOG.warn("the takeover mark of the claim on shard {} could not be removed", shardId, e);
        }
    }

    /** Whether the cursor holds a lapsed claim to be handed over that a batch starting at {@code first} takes over. */
    private static boolean takenOver(Map<String, AttributeValue> item, String first, Instant now) {
        return item.containsKey(HOLDER) && item.containsKey(LEASE_UNTIL)
                && Long.parseLong(item.get(LEASE_UNTIL).n()) < now.toEpochMilli()
                && lapsedClaim(item).takenOver(first);
    }

    /**
     * Releases a lapsed claim on its holder's behalf, storing the progress of its batch taken as completed; nothing
     * when the claim changed since it was read (the caller then claims again, and meets what changed it).
     */
    private void releaseTakenOver(String shardId, Map<String, AttributeValue> item, String first, Instant now) {
        Progress completed = CursorProgress.read(item).takenOver(lapsedClaim(item), first);
        try {
            client.updateItem(releasing(shardId, completed, SAME_LAPSED_CLAIM, Map.of(":lapsedHolder", item.get(HOLDER),
                    ":lapsedFrom", item.get(CLAIMED_FROM), ":lapsedUntil", item.get(LEASE_UNTIL),
                    ":nowMillis", AttributeValue.fromN(Long.toString(now.toEpochMilli()))), now).build());
        } catch (ConditionalCheckFailedException e) {
            // Changed since it was read: the next claim meets what changed it.
        }
    }

    /** The claim's UpdateItem, on {@code condition}, returning the cursor as it was before it. */
    private UpdateItemRequest.Builder claiming(String shardId, List<String> set, List<String> remove, String condition,
                                               Map<String, String> names, Map<String, AttributeValue> values) {
        return update(shardId, set, remove, condition, names, values).returnValues(ReturnValue.ALL_OLD);
    }

    /** An UpdateItem of the shard's cursor: SET and REMOVE these, on {@code condition}. */
    private UpdateItemRequest.Builder update(String shardId, List<String> set, List<String> remove, String condition,
                                             Map<String, String> names, Map<String, AttributeValue> values) {
        return UpdateItemRequest.builder()
                .tableName(tableName)
                .key(key(shardId))
                .updateExpression(expression(set, remove))
                .conditionExpression(condition)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values);
    }

    private static Map<String, AttributeValue> claimValues(String shardId, String first, Lease lease, Instant now) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":type", AttributeValue.fromS(ShardCursorItem.TYPE.attributeValue()));
        values.put(":shard", AttributeValue.fromS(shardId));
        values.put(":holder", AttributeValue.fromS(lease.holder()));
        values.put(":until", AttributeValue.fromN(Long.toString(lease.until().toEpochMilli())));
        values.put(":first", AttributeValue.fromS(first));
        values.put(":now", AttributeValue.fromS(Timestamps.format(now)));
        return values;
    }

    /** Marks a claim to be handed over with its last record, or clears an earlier claim's mark. */
    private static void handsOver(boolean handsOver, String last, Map<String, String> names,
                                  Map<String, AttributeValue> values, List<String> set, List<String> remove) {
        names.put("#to", CLAIMED_TO);
        if (handsOver) {
            set.add("#to = :last");
            values.put(":last", AttributeValue.fromS(last));
        } else {
            remove.add("#to");
        }
    }

    private static String expression(List<String> set, List<String> remove) {
        return "SET " + String.join(", ", set) + (remove.isEmpty() ? "" : " REMOVE " + String.join(", ", remove));
    }

    private static ClaimMarks lapsedClaim(Map<String, AttributeValue> item) {
        return new ClaimMarks(string(item, CLAIMED_FROM), string(item, CLAIMED_TO));
    }

    private static Claim refusal(Map<String, AttributeValue> item, String firstSequence, Instant when) {
        // The condition compared milliseconds: so does this, or a lease ending within the same millisecond would be
        // taken for lapsed here and live there.
        Instant now = Instant.ofEpochMilli(when.toEpochMilli());
        Progress progress = CursorProgress.read(item);
        ClaimMarks claim = lapsedClaim(item);
        // A claim to be handed over whose batch holds the pending record: the progress handed over past it has not
        // reached the cursor yet; the claim holds the shard (until it lapses and is taken over).
        if (progress.pending() != null && progress.pending().sequence().compareTo(firstSequence) < 0
                && !claim.covers(progress.pending(), firstSequence)) {
            return new PastFailure(progress.pending());
        }
        Instant until = item.containsKey(LEASE_UNTIL)
                ? Instant.ofEpochMilli(Long.parseLong(item.get(LEASE_UNTIL).n())) : now;
        String holder = item.containsKey(HOLDER) ? string(item, HOLDER) : "unknown";
        Pending abandoned = progress.abandonedClaim(claim.from());
        if (!until.isBefore(now) || abandoned == null) {
            return new Held(holder, until);
        }
        return new PastFailure(abandoned);
    }

    @Override
    public boolean release(String shardId, Lease lease, Progress progress, Instant now) {
        try {
            client.updateItem(releasing(shardId, progress, "#holder = :holder",
                    Map.of(":holder", AttributeValue.fromS(lease.holder())), now)
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                    .build());
            return true;
        } catch (ConditionalCheckFailedException e) {
            // Not held by us: released by an earlier attempt whose answer was lost (the cursor is held by no one and
            // holds our progress), or the lease was lost. A claim in force is never our release's doing: a claim that
            // took over a claim handed over stores the same progress.
            return e.hasItem() && !e.item().containsKey(HOLDER) && CursorProgress.read(e.item()).equals(progress);
        }
    }

    /**
     * The request that removes the claim in force and stores {@code progress}, on {@code condition} (whose values are
     * {@code conditionValues}; the names it may use are those of the claim's attributes).
     */
    private UpdateItemRequest.Builder releasing(String shardId, Progress progress, String condition,
                                                Map<String, AttributeValue> conditionValues, Instant now) {
        Map<String, String> names = names("#holder", "#until", "#from", "#to", "#updated");
        Map<String, AttributeValue> values = new HashMap<>(conditionValues);
        values.put(":now", AttributeValue.fromS(Timestamps.format(now)));
        List<String> set = new ArrayList<>(List.of("#updated = :now"));
        List<String> remove = new ArrayList<>(List.of("#holder", "#until", "#from", "#to"));
        CursorProgress.store(progress, names, values, set, remove);
        return update(shardId, set, remove, condition, names, values);
    }

    /** The expression attribute names of these placeholders, in a map the caller may add to. */
    private static Map<String, String> names(String... placeholders) {
        Map<String, String> names = new HashMap<>();
        for (String placeholder : placeholders) {
            names.put(placeholder, NAMES.get(placeholder));
        }
        return names;
    }

    private static Map<String, AttributeValue> key(String shardId) {
        return ShardCursorItem.key(Watermarks.token(shardId)).toAttributeMap();
    }

    private static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : value.s();
    }
}
