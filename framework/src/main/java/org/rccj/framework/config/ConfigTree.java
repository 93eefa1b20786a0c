package org.rccj.framework.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Edits of a parsed config tree (nested maps) by dotted key, as {@code --set workload.hot_probability=0.5} does. */
public final class ConfigTree {
    private ConfigTree() {}

    /**
     * Sets {@code dottedKey} to {@code value}, creating the maps on the way.
     * @throws ConfigException naming the key when a part is empty or a parent is not a mapping
     */
    @SuppressWarnings("unchecked")
    public static void set(Map<String, Object> tree, String dottedKey, Object value) {
        String[] parts = dottedKey.split("\\.", -1);
        for (String p : parts) {
            if (p.isBlank()) throw new ConfigException((dottedKey.isEmpty() ? "empty key" : dottedKey + ": empty key part")
                    + "; expected a dotted key such as workload.hot_probability");
        }
        Map<String, Object> cur = tree;
        for (int i = 0; i < parts.length - 1; i++) {
            String p = parts[i].trim();
            Object next = cur.get(p);
            if (next == null) {
                Map<String, Object> created = new LinkedHashMap<>();
                cur.put(p, created);
                cur = created;
            } else if (next instanceof Map<?, ?> m) {
                cur = (Map<String, Object>) m;
            } else {
                String parent = String.join(".", List.of(parts).subList(0, i + 1));
                throw new ConfigException(dottedKey + ": " + parent + " is '" + next + "', not a mapping, so it has no key '"
                        + parts[i + 1].trim() + "'");
            }
        }
        cur.put(parts[parts.length - 1].trim(), value);
    }
}
