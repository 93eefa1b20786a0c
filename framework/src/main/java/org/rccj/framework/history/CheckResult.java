package org.rccj.framework.history;

import java.util.List;

/** What the serializability checker found. {@code anomalies} are human-readable, one per problem. */
public record CheckResult(boolean serializable, long txnsChecked, List<String> anomalies) {}
