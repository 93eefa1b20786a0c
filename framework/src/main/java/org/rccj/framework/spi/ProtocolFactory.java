package org.rccj.framework.spi;

import java.util.List;
import org.rccj.framework.api.Stage;
import java.util.Map;
import org.rccj.framework.config.Param;

/**
 * A concurrency-control protocol plugin, found through {@link java.util.ServiceLoader}. The framework,
 * the CLI and the enumerator know a protocol only through this interface.
 */
public interface ProtocolFactory {
    /** Lower-case name used in configs ({@code occ}, {@code nowait}, ...). */
    String name();

    /** One line for {@code rcc list}. */
    String description();

    /** Stages that can be bound to one-sided or two-sided primitives, in execution order. */
    List<Stage> stages();

    /**
     * Stages whose one-sided half posts NIC atomics (CAS/FAA) on words that a CPU path (an RPC handler, a
     * coordinator's local shortcut) also updates atomically, with the run's {@code protocol_options}
     * ({@code options}: resolved, or a partial map in which a missing key takes its default; a stage that posts
     * atomics only under some setting, e.g. NOWAIT's RELEASE with {@code read_locks: shared}, is listed only
     * under it). A code that binds any of them one-sided needs every CPU atomic on such words to go through the
     * local NIC (loopback) when the profile's NIC atomics are not coherent with the CPU's
     * ({@code nic.atomics_coherent = false}). Default: every stage (conservative).
     */
    default List<Stage> nicAtomicStages(Map<String, Object> options) { return stages(); }

    /**
     * Whether hybrid code {@code code} of protocol {@code pf} with {@code options} ({@code Map.of()}: the defaults) needs
     * loopback atomics on a NIC whose atomics are incoherent with the CPU's: it binds a {@link #nicAtomicStages} stage
     * one-sided.
     */
    static boolean needsLoopback(ProtocolFactory pf, int code, Map<String, Object> options) {
        return (code & Stage.mask(pf.nicAtomicStages(options))) != 0;
    }

    /**
     * Whether {@code local_access: network} applies to this protocol's runs: its accesses to own-node tuples go
     * through the NIC as RCC's artifact's do (the default). A protocol that models its own local path says false
     * (HADES: the cores access local memory, its NIC tracks remote accesses; DrTM: local records in the HTM
     * region; CALVIN: each node executes on its local records), and its runs keep the local shortcut whatever
     * the key says (summary.json's {@code network.local} shows it).
     */
    default boolean localAccessThroughNic() { return true; }

    /**
     * Whether {@code passive_ack: true} changes this protocol's runs: its COMMIT (and log) RPCs go through the shared
     * stages that can send them passively. A protocol with its own messaging (CALVIN's epochs, HADES' NIC) says
     * false, and a run that sets the key gets a warning in its result instead of silently the same run.
     */
    default boolean passiveAckApplies() { return true; }

    /**
     * Whether {@code fetch_items: one_by_one} applies: a fetch may be one stage call per access (decision 0176). CALVIN
     * says false: its participants replay the transaction's reads as one batch, so its runs fetch together and a
     * run that sets the key gets a warning in its result.
     */
    default boolean fetchOneByOneApplies() { return true; }

    /**
     * Whether RCC's artifact (Alchem-Lab/drtmh, hybrid-cc) locks or reads a transaction's items one per call, each
     * awaited, for this protocol with hybrid code {@code code} and {@code options}: then {@code fetch_items: artifact},
     * the default, fetches one by one (decision 0201). False (the default): the artifact batches them, or the protocol
     * is not one of the artifact's, and its fetches go together.
     */
    default boolean artifactFetchesOneByOne(int code, Map<String, Object> options) { return false; }

    /** Settings under {@code protocol_options} in a config. */
    default List<Param> parameters() { return List.of(); }

    /**
     * Refuses (a ConfigException naming the key to change) a fabric this protocol cannot run on; called when the
     * config is resolved, so the refusal comes before anything runs or is loaded. Default: every fabric.
     */
    default void checkFabric(String fabric) {}

    /**
     * Refuses (a ConfigException naming the key to change) protocol options that are each in range but do not fit
     * together; called when the config is resolved, before anything runs. Default: none to check.
     */
    default void checkOptions(ProtocolSetup setup) {}

    /** Builds the protocol for one run. */
    Protocol create(ProtocolSetup setup);

    /**
     * Warnings for a finished run's summary.json, from its merged {@code extra} figures ({@link Protocol#metrics}) and
     * commits: e.g. a protocol setting that bounded the result. {@code options}: the run's resolved protocol_options.
     * Default: none.
     */
    default List<String> warnings(Map<String, Double> extra, long commits, Map<String, Object> options) { return List.of(); }

    /**
     * Protocol options a run set (away from their defaults) that cannot change it under hybrid code {@code code}: an
     * option of a one-sided stage the code binds to RPC, an option of a mode the run did not choose. One warning each,
     * naming the option and what would make it act (issue 38). {@code options}: the resolved protocol_options.
     * Default: none.
     */
    default List<String> optionsWithoutEffect(int code, Map<String, Object> options) { return List.of(); }

    /** True when {@code options} holds {@code p}'s key at a value other than its default. */
    static boolean set(Map<String, Object> options, org.rccj.framework.config.Param p) {
        return options.containsKey(p.key()) && !p.isDefault(options.get(p.key()));
    }
}
