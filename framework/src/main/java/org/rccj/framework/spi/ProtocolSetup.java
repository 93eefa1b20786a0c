package org.rccj.framework.spi;

import java.util.Map;
import org.rccj.framework.config.Config;

/** What a protocol is built from: the run's config, its hybrid code and its resolved options. */
public record ProtocolSetup(Config config, HybridCode hybrid, Map<String, Object> options) {}
