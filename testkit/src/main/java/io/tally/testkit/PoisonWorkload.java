package io.tally.testkit;

import io.tally.core.Key;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The poison of {@link Workload}: items a stream consumer cannot read, new or changed. */
final class PoisonWorkload extends PartWorkload {
    /** Unreadable items written so far, to modify again. */
    private final List<Map<String, AttributeValue>> unreadable = new ArrayList<>();
    /** A known post's item, picked as the workload picks posts; null when there is none. */
    private final Supplier<Map<String, AttributeValue>> posts;
    private final IntUnaryOperator index;

    /** @param index an index below its argument, picked as the workload picks (skewed or not) */
    PoisonWorkload(Random random, Consumer<Map<String, AttributeValue>> put, Consumer<Key> delete, Supplier<String> ids,
                   Supplier<Map<String, AttributeValue>> posts, IntUnaryOperator index) {
        super(random, put, delete, ids);
        this.posts = posts;
        this.index = index;
    }

    /** One unreadable item written: see {@link Workload#poisonStep}. */
    @Override
    void step(Instant now) {
        String id = ids.get();
        int kind = random.nextInt(5);
        Map<String, AttributeValue> post = kind == 3 ? posts.get() : null;
        if (post != null) {
            put.accept(Map.of("pk", post.get("pk"), "sk", post.get("sk"), "entityType", AttributeValue.fromS("Post"),
                    "title", AttributeValue.fromS("garbled " + id)));
            return;
        }
        if (kind == 4 && !unreadable.isEmpty()) {
            Map<String, AttributeValue> item = new HashMap<>(unreadable.get(index.applyAsInt(unreadable.size())));
            item.put("n", AttributeValue.fromS(id));
            put.accept(item);
            return;
        }
        Map<String, AttributeValue> item = switch (kind % 3) {
            case 0 -> Map.of("pk", AttributeValue.fromS("USER#" + id), "sk", AttributeValue.fromS("POST#" + id + "#t"),
                    "entityType", AttributeValue.fromS("Post"));
            case 1 -> Map.of("pk", AttributeValue.fromS("ALBUM#" + id), "sk", AttributeValue.fromS("#METADATA#"),
                    "entityType", AttributeValue.fromS("Album"));
            default -> Map.of("pk", AttributeValue.fromS("MISC#" + id), "sk", AttributeValue.fromS("x"));
        };
        unreadable.add(item);
        put.accept(item);
    }
}
