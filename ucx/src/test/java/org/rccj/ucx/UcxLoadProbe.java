package org.rccj.ucx;

/** Loads UCX in a fresh process and prints the version, or the one-line refusal (exit 2); see UcxLoadTest. */
public final class UcxLoadProbe {
    public static void main(String[] args) throws Throwable {
        try {
            System.out.println("loaded " + Ucx.load().version);
            // what libucs's constructor read: the error signals it took over from the JVM (none, see Ucx.noErrorSignals)
            java.lang.foreign.Linker l = java.lang.foreign.Linker.nativeLinker();
            java.lang.foreign.MemorySegment v = (java.lang.foreign.MemorySegment) l.downcallHandle(
                    l.defaultLookup().find("getenv").orElseThrow(), java.lang.foreign.FunctionDescriptor.of(
                            java.lang.foreign.ValueLayout.ADDRESS, java.lang.foreign.ValueLayout.ADDRESS))
                    .invokeExact(java.lang.foreign.Arena.global().allocateFrom("UCX_ERROR_SIGNALS"));
            System.out.println("UCX_ERROR_SIGNALS=[" + (v.address() == 0 ? "unset" : v.reinterpret(64).getString(0)) + "]");
        } catch (UcxException e) {
            System.out.println(e.getMessage());
            System.exit(2);
        }
    }
}
