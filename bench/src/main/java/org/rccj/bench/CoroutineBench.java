package org.rccj.bench;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.rccj.framework.coro.Coroutine;

/**
 * ns per yield + resume: RCC-J's {@link Coroutine} against a bare {@code jdk.internal.vm.Continuation}
 * driven through constant method handles (the floor). Target: within 1.3x of the bare figure.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED"})
@State(Scope.Thread)
public class CoroutineBench {
    private static final Object SCOPE;
    private static final MethodHandle NEW, RUN, YIELD;

    static {
        try {
            Class<?> scopeC = Class.forName("jdk.internal.vm.ContinuationScope");
            Class<?> contC = Class.forName("jdk.internal.vm.Continuation");
            MethodHandles.Lookup l = MethodHandles.lookup();
            SCOPE = l.findConstructor(scopeC, MethodType.methodType(void.class, String.class)).invoke("bench");
            NEW = l.findConstructor(contC, MethodType.methodType(void.class, scopeC, Runnable.class))
                    .asType(MethodType.methodType(Object.class, Object.class, Runnable.class));
            RUN = l.findVirtual(contC, "run", MethodType.methodType(void.class)).asType(MethodType.methodType(void.class, Object.class));
            YIELD = l.findStatic(contC, "yield", MethodType.methodType(boolean.class, scopeC)).asType(MethodType.methodType(boolean.class, Object.class));
        } catch (Throwable t) {
            throw new ExceptionInInitializerError(t);
        }
    }

    private Object bare;
    private Coroutine coroutine;

    @Setup
    public void setup() throws Throwable {
        bare = (Object) NEW.invokeExact(SCOPE, (Runnable) () -> {
            try {
                while (true) {
                    boolean ok = (boolean) YIELD.invokeExact(SCOPE);
                }
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        });
        coroutine = new Coroutine(() -> {
            while (true) Coroutine.suspend();
        });
    }

    @Benchmark
    public void bareContinuation() throws Throwable {
        RUN.invokeExact(bare);
    }

    @Benchmark
    public void rccCoroutine() {
        coroutine.resume();
    }
}
