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
 *
 * <p>Speed: the JVM suspends and resumes a continuation by copying its frames in bulk only while none of
 * them is interpreted; one interpreted frame makes every switch walk the frames one by one. The frames at
 * the bottom of a coroutine (the JDK's entry into the continuation and the body's own method) are entered
 * once per coroutine, too few times to be compiled, so they would stay interpreted for the coroutine's
 * whole life. A long-running body is therefore given as {@link Step}s ({@link #ofSteps}): one shared loop
 * calls the step, and this class runs a few thousand trivial coroutines through the same frames when it
 * is loaded, so that they are compiled before any real coroutine enters them.
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

    /** One piece of a coroutine's work (e.g. one transaction), which may suspend. */
    @FunctionalInterface
    public interface Step {
        /** Does the next piece; false when the coroutine is done. */
        boolean step();
    }

    /** The body of a coroutine given as steps: the one loop every such coroutine starts in. */
    private static final class Steps implements Runnable {
        private final Step step;
        Steps(Step step) { this.step = step; }

        @Override
        public void run() {
            while (step.step()) {
                // next step
            }
        }
    }

    /** Trivial coroutines run through the entry frames when the class loads (enough for the JIT to compile them). */
    private static final int WARM_UP_COROUTINES = 10_000;

    static {
        if (UNAVAILABLE == null) {
            for (int i = 0; i < WARM_UP_COROUTINES; i++) {
                int[] left = {2};
                Coroutine c = ofSteps(() -> {
                    suspend();
                    return --left[0] > 0;
                });
                while (!c.isDone()) c.resume();
            }
        }
    }

    /** A coroutine that calls {@code step} until it returns false (see the class comment for why). */
    public static Coroutine ofSteps(Step step) { return new Coroutine(new Steps(step)); }

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
