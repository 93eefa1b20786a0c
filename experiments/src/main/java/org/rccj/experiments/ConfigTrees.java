package org.rccj.experiments;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ConfigResolver;

/** Config trees as the studies build their points from them: copied, changed, resolved; and names safe for a directory. */
public final class ConfigTrees {
    private ConfigTrees() {}

    /** Resolves a point's tree; a history file is refused (every run of a batch would write the same file). */
    public static Config resolve(String command, Map<String, Object> tree) {
        Config c = ConfigResolver.resolve(tree);
        if (c.history() != null) {
            String history = Config.HISTORY.key();
            throw new ConfigException(command + ": " + history + ": every run would write the same file " + c.history()
                    + "; record a history with 'rcc run' (or --set " + history + "=null)");
        }
        return c;
    }

    /** A deep copy of a config tree (maps copied, leaves shared). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> copy(Map<String, Object> tree) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : tree.entrySet()) {
            Object v = e.getValue();
            out.put(e.getKey(), v instanceof Map<?, ?> m ? copy((Map<String, Object>) m) : v);
        }
        return out;
    }

    /** {@code s} as a directory name: characters outside {@code [A-Za-z0-9._+=,-]} become '_', never a leading dot. */
    public static String safeName(String s) {
        String out = s.strip().replaceAll("[^A-Za-z0-9._+=,-]", "_");
        if (out.isEmpty() || out.startsWith(".")) out = "_" + out;
        return out;
    }
}
