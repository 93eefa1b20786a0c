package org.rccj.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The UCX library of this process: finds libucs and libucp, turns off libucs's signal handlers before anything
 * else (they would replace the JVM's SIGSEGV handler, and the JVM dies at its first implicit null check), and
 * refuses a libucp whose version this binding's struct layouts ({@link Structs}) were not checked against.
 *
 * <p>Where it looks: the directory in {@code RCC_UCX_LIB_DIR} if set (a site's UCX module, or a test's stand-in
 * library), else the dynamic linker's search path ({@code libucp.so.0}, Debian/Ubuntu package {@code libucx0}).
 */
public final class Ucx {
    /** The UCX versions this binding knows: major 1, minor 13 to 19 (see docs/decisions/, 2026-11-26). */
    public static final int KNOWN_MAJOR = 1, KNOWN_MINOR_MIN = 13, KNOWN_MINOR_MAX = 19;
    /** The API version asked of ucp_init_version (ucp_init is an inline wrapper of it in the headers). */
    static final int API_MAJOR = 1, API_MINOR = 13;
    public static final String LIB_DIR_ENV = "RCC_UCX_LIB_DIR";
    public static final String INSTALL_HINT = "install libucx0 (Debian/Ubuntu: apt-get install libucx0; on a cluster: load the site's UCX module)";

    private static volatile Ucx loaded;

    static SymbolLookup ucs, ucp;

    /** e.g. "1.13.1" */
    public final String version;
    /** Where libucp was found (a path, or the soname the dynamic linker resolved). */
    public final String where;

    private Ucx(String version, String where) {
        this.version = version;
        this.where = where;
    }

    /** The library, loaded and checked once per process; throws {@link UcxException} with one line otherwise. */
    public static synchronized Ucx load() {
        if (loaded != null) return loaded;
        String dir = System.getenv(LIB_DIR_ENV);
        String ucsName = "libucs.so.0", ucpName = "libucp.so.0";
        String where;
        noErrorSignals();
        try {
            if (dir != null && !dir.isBlank()) {
                Path d = Path.of(dir);
                where = d.resolve(ucpName).toString();
                if (!Files.exists(d.resolve(ucpName)))
                    throw new UcxException("UCX library " + where + " not found (" + LIB_DIR_ENV + "=" + dir + "): "
                            + INSTALL_HINT + ", or point " + LIB_DIR_ENV + " at the directory holding libucp.so.0");
                // libucs first and by path: libucp's own dependency on libucs.so.0 then resolves to this copy
                ucs = Files.exists(d.resolve(ucsName)) ? SymbolLookup.libraryLookup(d.resolve(ucsName), Arena.global())
                        : SymbolLookup.libraryLookup(ucsName, Arena.global());
                disableSignals();
                ucp = SymbolLookup.libraryLookup(d.resolve(ucpName), Arena.global());
            } else {
                where = ucpName;
                ucs = SymbolLookup.libraryLookup(ucsName, Arena.global());
                disableSignals();
                ucp = SymbolLookup.libraryLookup(ucpName, Arena.global());
            }
        } catch (IllegalArgumentException e) {
            throw new UcxException("UCX library (libucp.so.0, libucs.so.0) not found: " + INSTALL_HINT);
        }
        int[] v = version();
        String version = v[0] + "." + v[1] + "." + v[2];
        checkVersion(v[0], v[1], version);
        try {
            Lib.init();
        } catch (ExceptionInInitializerError e) {
            if (e.getCause() instanceof UcxException u) throw u;
            throw e;
        }
        loaded = new Ucx(version, where);
        return loaded;
    }

    /** Refuses a version outside {@link #KNOWN_MINOR_MIN}..{@link #KNOWN_MINOR_MAX} of major {@link #KNOWN_MAJOR}. */
    static void checkVersion(int major, int minor, String version) {
        if (major != KNOWN_MAJOR || minor < KNOWN_MINOR_MIN || minor > KNOWN_MINOR_MAX)
            throw new UcxException("UCX " + version + " is not a version RCC-J's UCX binding knows (it knows "
                    + KNOWN_MAJOR + "." + KNOWN_MINOR_MIN + " to " + KNOWN_MAJOR + "." + KNOWN_MINOR_MAX
                    + "): install one of those (libucx0) or point " + LIB_DIR_ENV + " at one");
    }

    /**
     * libucs's constructor installs its error handlers for SIGILL/SIGSEGV/SIGBUS/SIGFPE when the library is loaded,
     * before {@link #disableSignals} can run; a JVM raises SIGSEGV on purpose (implicit null checks, safepoint polls),
     * and one that lands in that window went to UCX's handler, which re-raised it and killed the JVM (seen once in the
     * ucx tests: "SIGSEGV (0xb) ... (sent by kill)" during load). So the variable that lists those signals is emptied in
     * this process's environment (libc setenv) before libucs is loaded: its constructor then installs none.
     */
    private static void noErrorSignals() {
        Linker linker = Linker.nativeLinker();
        MemorySegment setenv = linker.defaultLookup().find("setenv").orElseThrow();
        try (Arena a = Arena.ofConfined()) {
            int rc = (int) linker.downcallHandle(setenv, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT))
                    .invokeExact(a.allocateFrom("UCX_ERROR_SIGNALS"), a.allocateFrom(""), 1);
            if (rc != 0) throw new IllegalStateException("setenv(UCX_ERROR_SIGNALS) failed");
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static void disableSignals() {
        MemorySegment f = ucs.find("ucs_debug_disable_signals").orElseThrow(
                () -> new UcxException("libucs lacks ucs_debug_disable_signals: UCX >= 1.13 needed; " + INSTALL_HINT));
        try {
            Linker.nativeLinker().downcallHandle(f, FunctionDescriptor.ofVoid())
                    .invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static int[] version() {
        MemorySegment f = ucp.find("ucp_get_version").orElseThrow(
                () -> new UcxException("libucp lacks ucp_get_version: not a UCX library; " + INSTALL_HINT));
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT, 3);
            Linker.nativeLinker().downcallHandle(f, FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS))
                    .invokeExact(out, out.asSlice(4), out.asSlice(8));
            return new int[] {out.getAtIndex(JAVA_INT, 0), out.getAtIndex(JAVA_INT, 1), out.getAtIndex(JAVA_INT, 2)};
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** A new UCP context with these UCX configuration settings (names without the UCX_ prefix, e.g. TLS=tcp). */
    public UcxContext newContext(Map<String, String> config) {
        return new UcxContext(config);
    }
}
