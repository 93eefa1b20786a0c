package org.rccj.framework.spi;

import java.util.Map;
import org.rccj.framework.api.ClusterShape;
import org.rccj.framework.config.Settings;

/**
 * What a protocol is built from: the cluster's shape, its hybrid code and its resolved {@code protocol_options},
 * read with the typed getters of {@link Settings} ({@code setup.d("epoch_us")}).
 */
public record ProtocolSetup(ClusterShape cluster, HybridCode hybrid, Map<String, Object> options) implements Settings {
    @Override public Object value(String key) { return Settings.lookUp(options, PROTOCOL_OPTIONS, key); }
}
