package org.rccj.framework.spi;

import java.util.Map;
import org.rccj.framework.config.Config;

/** What a workload is built from: the run's config and its resolved settings ({@code workload} section). */
public record WorkloadSetup(Config config, Map<String, Object> params) {
    public int i(String k) { return (int) params.get(k); }
    public long l(String k) { return (long) params.get(k); }
    public double d(String k) { return (double) params.get(k); }
    public String s(String k) { return (String) params.get(k); }
    public boolean b(String k) { return (boolean) params.get(k); }
}
