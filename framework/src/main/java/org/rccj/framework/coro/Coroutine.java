package org.rccj.framework.coro;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * A stackful coroutine on the JDK's {@code jdk.internal.vm.Continuation} (the engine under virtual
 * threads), reached through method handles so the code compiles with {@code --release 21}. The JVM
 * must run with {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED} (the launcher, the test
 * runner and the jar manifest add it).
 *
 * <p>Never hold a monitor across {@link #suspend()} (the continuation would be pinned and the yield
 * fails) and never block the carrier thread inside a coroutine.
 */
public final class Coroutine {
    private static final Object SCOPE;
    private static final MethodHandle NEW, RUN, YIELD, IS_DONE;
    private static final Throwable UNAVAILABLE;

    static {
        Object scope = null;
        MethodHandle nw = null, run = null, yield = null, done = null;
        Throwable err = null;
        try {
            Class<?> scopeC = Class.forName("jdk.internal.vm.ContinuationScope");
            Class<?> contC = Class.forName("jdk.internal.vm.Continuation");
            MethodHandles.Lookup l = MethodHandles.lookup();
            scope = l.findConstructor(scopeC, MethodType.methodType(void.class, String.class)).invoke("rcc-j");
            nw = l.findConstructor(contC, MethodType.methodType(void.class, scopeC, Runnable.class))
                    .asType(MethodType.methodType(Object.class, Object.class, Runnable.class));
            run = l.findVirtual(contC, "run", MethodType.methodType(void.class))
                    .asType(MethodType.methodType(void.class, Object.class));
            yield = l.findStatic(contC, "yield", MethodType.methodType(boolean.class, scopeC))
                    .asType(MethodType.methodType(boolean.class, Object.class));
            done = l.findVirtual(contC, "isDone", MethodType.methodType(boolean.class))
                    .asType(MethodType.methodType(boolean.class, Object.class));
        } catch (Throwable t) {
            err = t;
        }
        SCOPE = scope;
        NEW = nw;
        RUN = run;
        YIELD = yield;
        IS_DONE = done;
        UNAVAILABLE = err;
    }

    private final Object continuation;

    public Coroutine(Runnable body) {
        if (UNAVAILABLE != null) {
            throw new IllegalStateException("coroutines need jdk.internal.vm.Continuation: run the JVM with "
                    + "--add-exports java.base/jdk.internal.vm=ALL-UNNAMED (./rcc does)", UNAVAILABLE);
        }
        try {
            continuation = (Object) NEW.invokeExact((Object) SCOPE, body);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Runs the coroutine until it suspends or finishes. Exceptions from its body propagate. */
    public void resume() {
        try {
            RUN.invokeExact(continuation);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public boolean isDone() {
        try {
            return (boolean) IS_DONE.invokeExact(continuation);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Suspends the calling coroutine; returns when it is resumed. */
    public static void suspend() {
        boolean ok;
        try {
            ok = (boolean) YIELD.invokeExact((Object) SCOPE);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (!ok) throw new IllegalStateException("coroutine could not yield (pinned: a monitor or native frame is held)");
    }
}
