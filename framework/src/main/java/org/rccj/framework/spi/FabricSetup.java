package org.rccj.framework.spi;

import java.util.Map;
import org.rccj.framework.config.Settings;

/**
 * What a fabric is built from: nodes, worker threads per node and the resolved values of the keys its
 * factory declares, by their full dotted names ({@code s("profile")}, {@code b("faults.torn_reads")}).
 */
public record FabricSetup(int nodes, int threads, Map<String, Object> settings) implements Settings {
    @Override public Object value(String key) { return Settings.lookUp(settings, "the fabric", key); }
}
