package org.rccj.experiments.robust;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.config.Suggest;
import org.rccj.primitives.CostProfile;

/**
 * The profiles a robustness study runs under: the base profile's parameters as its file states them (a built-in
 * name, or a file with or without {@code base=NAME}), and self-contained profile files with one primitive parameter
 * scaled by {@code 1 + fraction} (fraction in [-0.9, +0.9]). A scaled file holds every parameter of the base, so
 * it means the same wherever the results directory is read. {@code sim.run_ahead_ns} (a simulator setting, not
 * hardware) is lowered where a scaled wire or loopback latency would fall below what the simulator requires of it,
 * as {@code rcc calibrate} does; the file says so.
 */
public final class ProfileVariants {
    /** A perturbable parameter: its profile key and a short name for tables and figures. */
    public record Param(String key, String name) {}

    /** The primitives a calibrated profile fits (docs/calibration.md), in the order reports list them. */
    public static final List<Param> DEFAULT_PARAMS = List.of(
            new Param("wire.one_way_ns", "wire latency"),
            new Param("wire.rpc_receive_ns", "RPC receive cost"),
            new Param("nic.read_mops", "NIC READ rate"),
            new Param("nic.write_mops", "NIC WRITE rate"),
            new Param("nic.atomic_mops", "NIC atomic rate"),
            new Param("cpu.doorbell_ns", "doorbell CPU"),
            new Param("cpu.rpc_dispatch_ns", "RPC dispatch CPU"),
            new Param("cpu.rpc_send_ns", "RPC send CPU"),
            new Param("nic.qp_cache_entries", "QP-cache size"),
            new Param("nic.loopback_ns", "loopback latency"),
            new Param("cpu.coroutine_switch_ns", "coroutine switch"));

    /** Parameters that are switches, simulator settings or fault-model figures: not perturbed. */
    private static final List<String> NOT_PERTURBABLE = List.of("nic.atomics_coherent", "nic.passive_rpc", "sim.run_ahead_ns");

    private ProfileVariants() {}

    /** Every key --params accepts: the numeric hardware parameters of {@link CostProfile#PARAMETERS}. */
    public static List<String> perturbable() {
        List<String> out = new ArrayList<>();
        for (CostProfile.Parameter p : CostProfile.PARAMETERS) {
            if (!NOT_PERTURBABLE.contains(p.key()) && !p.key().startsWith("fault.")) out.add(p.key());
        }
        return out;
    }

    /** The parameters of a comma-separated --params list (null: the defaults); an unknown key is a one-line error. */
    public static List<Param> params(String spec) {
        if (spec == null) return DEFAULT_PARAMS;
        List<Param> out = new ArrayList<>();
        for (String raw : spec.split(",", -1)) {
            String k = raw.strip();
            if (k.isEmpty()) throw new ConfigException("robust: --params " + spec + ": empty name; expected key,key,... e.g. --params wire.one_way_ns,cpu.rpc_dispatch_ns");
            if (!perturbable().contains(k)) {
                throw new ConfigException("robust: --params: unknown parameter '" + k + "'" + Suggest.didYouMean(k, perturbable())
                        + "; accepted: " + String.join(", ", perturbable()));
            }
            if (out.stream().anyMatch(p -> p.key().equals(k))) throw new ConfigException("robust: --params: " + k + " is listed twice");
            out.add(DEFAULT_PARAMS.stream().filter(p -> p.key().equals(k)).findFirst().orElse(new Param(k, k)));
        }
        return out;
    }

    /** A fraction of --perturb: "25%" or "0.25", in (0, 0.9]. */
    public static double fraction(String spec) {
        String s = spec.strip();
        double f;
        try {
            f = s.endsWith("%") ? Double.parseDouble(s.substring(0, s.length() - 1).strip()) / 100 : Double.parseDouble(s);
        } catch (NumberFormatException e) {
            f = Double.NaN;
        }
        if (!(f > 0 && f <= 0.9 + 1e-12)) {
            throw new ConfigException("robust: --perturb " + spec + ": expected a fraction in (0, 90%], e.g. 25% or 0.25");
        }
        return f;
    }

    /**
     * The parameters of profile {@code spec} as written (a file's {@code base=NAME} resolved), or a one-line error
     * naming the profile (unknown name, unreadable file, a parameter out of range).
     */
    public static Map<String, String> raw(String spec) {
        try {
            CostProfile.load(spec); // checks the name, the file and every value
        } catch (IllegalArgumentException e) {
            throw new ConfigException("robust: profile: " + e.getMessage());
        }
        if (CostProfile.isBuiltIn(spec)) return CostProfile.parameters(spec);
        Properties file = new Properties();
        try (Reader r = Files.newBufferedReader(Path.of(spec))) {
            file.load(r);
        } catch (IOException e) {
            throw new ConfigException("robust: profile file " + spec + " cannot be read: " + e.getMessage());
        }
        Map<String, String> out = new LinkedHashMap<>();
        String base = file.getProperty("base");
        if (base != null) out.putAll(CostProfile.parameters(base.strip()));
        for (String k : file.stringPropertyNames()) {
            if (!k.equals("base") && !k.equals("description")) out.put(k, file.getProperty(k).strip());
        }
        return out;
    }

    /** The value of {@code key} in {@code raw}. */
    public static double value(Map<String, String> raw, String key) {
        return Double.parseDouble(raw.get(key));
    }

    /**
     * Writes {@code dir/NAME.properties}: {@code raw} with {@code key} scaled by {@code 1 + fraction}; returns its path.
     * Written to a temporary file and moved into place, so array jobs writing the same file never see half of it.
     * A scaled value the profile refuses is a one-line error.
     */
    public static Path write(Path dir, String name, String baseSpec, Map<String, String> raw, String key, double fraction) throws IOException {
        Map<String, String> p = new LinkedHashMap<>(raw);
        double v = value(raw, key) * (1 + fraction);
        p.put(key, number(v));
        List<String> notes = new ArrayList<>();
        long runAhead = Math.round(value(p, "sim.run_ahead_ns"));
        long limit = Math.min(Math.round(value(p, "wire.one_way_ns")) - 1, Math.round(value(p, "nic.loopback_ns")) / 2 - 1);
        if (runAhead > limit && limit >= 0) {
            p.put("sim.run_ahead_ns", Long.toString(limit));
            notes.add("sim.run_ahead_ns lowered from " + runAhead + " to " + limit + " (must stay below wire.one_way_ns and half of nic.loopback_ns)");
        }
        StringWriter text = new StringWriter();
        text.append("# rcc robust: profile ").append(baseSpec).append(" with ").append(key).append(' ').append(percent(fraction))
            .append(" (").append(raw.get(key)).append(" -> ").append(number(v)).append(")\n");
        for (String n : notes) text.append("# ").append(n).append('\n');
        text.append("description=").append(baseSpec).append(", ").append(key).append(' ').append(percent(fraction)).append('\n');
        for (Map.Entry<String, String> e : p.entrySet()) text.append(e.getKey()).append('=').append(e.getValue()).append('\n');
        Files.createDirectories(dir);
        Path file = dir.resolve(name + ".properties");
        Path tmp = Files.createTempFile(dir, name, ".tmp");
        Files.writeString(tmp, text.toString());
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        try {
            CostProfile.load(file.toString());
        } catch (IllegalArgumentException e) {
            throw new ConfigException("robust: " + key + " " + percent(fraction) + " of " + baseSpec + " is not a valid profile: " + e.getMessage());
        }
        return file;
    }

    /** "+25%", "-12.5%". */
    public static String percent(double fraction) {
        String s = String.format(Locale.ROOT, "%+.2f", 100 * fraction).replaceAll("\\.?0+$", "");
        return s + "%";
    }

    private static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        return String.format(Locale.ROOT, "%.6g", v).replaceAll("(\\.\\d*?)0+($|e)", "$1$2").replaceAll("\\.($|e)", "$1");
    }
}
