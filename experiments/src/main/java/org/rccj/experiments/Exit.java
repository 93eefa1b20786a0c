package org.rccj.experiments;

/** Exit codes of {@code rcc} (docs/architecture.md). */
public final class Exit {
    /** Success. */
    public static final int OK = 0;
    /** The run finished but failed verification (or {@code rcc verify} found the history not serializable). */
    public static final int VERIFICATION_FAILED = 1;
    /** Bad input: unknown command or option, unreadable or malformed config, bad key or value. */
    public static final int BAD_INPUT = 2;
    /** A bug: an unexpected exception (printed with its stack trace). */
    public static final int INTERNAL_ERROR = 3;

    private Exit() {}
}
