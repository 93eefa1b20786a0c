package org.rccj.primitives;

/** Faults the {@code sim} fabric injects on request (config key {@code faults}). */
public record FaultSettings(boolean tornReads) {
    public static final FaultSettings NONE = new FaultSettings(false);
}
