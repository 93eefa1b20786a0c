package org.rccj.framework.spi;

import java.util.Map;
import org.rccj.framework.api.ClusterShape;
import org.rccj.framework.config.Settings;

/** What a workload is built from: the cluster's shape and its resolved settings ({@code workload} section). */
public record WorkloadSetup(ClusterShape cluster, Map<String, Object> params) implements Settings {
    @Override public Object value(String key) { return Settings.lookUp(params, WORKLOAD, key); }
}
