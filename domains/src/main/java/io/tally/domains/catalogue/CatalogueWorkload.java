package io.tally.domains.catalogue;

import io.tally.core.workload.AbstractWorkloadPart;
import io.tally.core.workload.WorkloadContext;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The catalogue's part of the random workload: catalogue items written, replaced and deleted, and users' items moved
 * through their states (with their list entries), as the writer service writes them.
 */
final class CatalogueWorkload extends AbstractWorkloadPart {
    private final Map<String, CatalogueItem> items = new LinkedHashMap<>();
    private final Map<String, UserItem> userItems = new HashMap<>();

    CatalogueWorkload(WorkloadContext context) {
        super(context, "i", 31, true);
    }

    @Override
    public void step() {
        int roll = random.nextInt(31);
        if (roll < 8 || items.isEmpty()) {
            putItem();
        } else if (roll < 10) {
            deleteItem();
        } else {
            changeUserItem();
        }
    }

    private void putItem() {
        String itemId = items.isEmpty() || random.nextInt(3) > 0 ? id() : pickKey(items);
        String[] selectors = {"global-cycle:" + random.nextInt(3), "user-cycle:" + random.nextInt(3), "back-catalogue"};
        CatalogueItem previous = items.get(itemId);
        // Revisions as the writer stamps them: above the previous one, at least the clock in microseconds.
        CatalogueItem item = new CatalogueItem(itemId, random.nextBoolean() ? "Item " + itemId : null,
                random.nextInt(1000), selectors[random.nextInt(selectors.length)], now(),
                CatalogueItem.nextRevision(previous == null ? 0 : previous.revision(), now()));
        items.put(itemId, item);
        put(item.toItem());
    }

    private void deleteItem() {
        String itemId = pickKey(items);
        items.remove(itemId);
        delete(CatalogueKeys.catalogueItem(itemId));
    }

    private void changeUserItem() {
        String userId = context.user();
        String itemId = pickKey(items);
        String key = userId + "/" + itemId;
        UserItem current = userItems.get(key);
        if (current != null && current.state() == ItemState.COMPLETED) {
            return;
        }
        ItemState state = ItemState.values()[random.nextInt(ItemState.values().length)];
        UserItem next = new UserItem(userId, itemId, state, items.get(itemId).score(),
                random.nextBoolean() ? random.nextInt(101) / 100.0 : null,
                random.nextBoolean() ? random.nextBoolean() : null,
                random.nextBoolean() ? random.nextBoolean() : null, now(), now());
        if (current != null && !current.entryKey().equals(next.entryKey())) {
            delete(current.entryKey());
        }
        userItems.put(key, next);
        put(next.toItem());
        put(next.toEntryItem());
    }

    private String pickKey(Map<String, ?> map) {
        int index = random.nextInt(map.size());
        return map.keySet().stream().skip(index).findFirst().orElseThrow();
    }
}
