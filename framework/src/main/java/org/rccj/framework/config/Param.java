package org.rccj.framework.config;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;

/**
 * One setting a workload or protocol accepts: its key, type, default, allowed range and help text.
 * {@link #coerce} turns a raw config value (from JSON/YAML or {@code --set}) into the typed value or
 * throws a {@link ConfigException} naming the key and what is accepted.
 *
 * @param keepsResults the key does not change a run's result (how it is computed or what extra it records, e.g.
 *                     {@code sim.threads}, {@code sim.critical_path}): {@code Config.toMap} leaves it out, so summary.json's
 *                     config, provenance and resume's "the same experiment" do not see it
 */
public record Param(String key, Type type, Object defaultValue, double min, double max, List<String> choices, String help,
                    boolean keepsResults) {
    /** Whether resolved value {@code v} is this key's default (numbers compared by value: 1 equals 1.0). */
    public boolean isDefault(Object v) {
        if (v instanceof Number a && defaultValue instanceof Number b) return a.doubleValue() == b.doubleValue();
        return java.util.Objects.equals(v, defaultValue);
    }


    public enum Type { INT, LONG, DOUBLE, BOOLEAN, STRING, CHOICE }

    /** A key that changes results (the usual kind). */
    public Param(String key, Type type, Object defaultValue, double min, double max, List<String> choices, String help) {
        this(key, type, defaultValue, min, max, choices, help, false);
    }

    /** The same parameter, declared as not changing a run's result ({@link #keepsResults}). */
    public Param keepingResults() {
        return new Param(key, type, defaultValue, min, max, choices, help, true);
    }

    public static Param ofInt(String key, int def, int min, int max, String help) {
        return new Param(key, Type.INT, def, min, max, List.of(), help);
    }

    /** An integer that may be absent (null default: the owner picks a value, e.g. {@code sim.threads}). */
    public static Param ofOptionalInt(String key, int min, int max, String help) {
        return new Param(key, Type.INT, null, min, max, List.of(), help);
    }

    public static Param ofLong(String key, long def, long min, long max, String help) {
        return new Param(key, Type.LONG, def, min, max, List.of(), help);
    }

    public static Param ofDouble(String key, double def, double min, double max, String help) {
        return new Param(key, Type.DOUBLE, def, min, max, List.of(), help);
    }

    /**
     * A double that also takes the word {@code auto}, alone or as {@code auto:N} with N a number in range (the resolved
     * value is then the string {@code "auto"} or {@code "auto:N"}): {@code warmup_ms}, whose {@code auto} ends the warm-up
     * once throughput is steady, within at most N ms (decision 0210).
     */
    public static Param ofDoubleOrAuto(String key, double def, double min, double max, String help) {
        return new Param(key, Type.DOUBLE, def, min, max, List.of(AUTO), help);
    }

    /** The word {@link #ofDoubleOrAuto} accepts besides numbers. */
    public static final String AUTO = "auto";

    /** A double that may be absent (null default = off). */
    public static Param ofOptionalDouble(String key, double min, double max, String help) {
        return new Param(key, Type.DOUBLE, null, min, max, List.of(), help);
    }

    public static Param ofBoolean(String key, boolean def, String help) {
        return new Param(key, Type.BOOLEAN, def, 0, 0, List.of(), help);
    }

    public static Param ofChoice(String key, String def, List<String> choices, String help) {
        return new Param(key, Type.CHOICE, def, 0, 0, List.copyOf(choices), help);
    }

    /** The same parameter under another key (a fabric's {@code faults.torn_reads} inside its {@code faults} section). */
    public Param withKey(String otherKey) {
        return new Param(otherKey, type, defaultValue, min, max, choices, help, keepsResults);
    }

    /** What is accepted, for help text and error messages. */
    public String accepted() {
        return switch (type) {
            case INT, LONG -> max >= 9e18 ? (min <= -9e18 ? "an integer" : "an integer >= " + fmt(min))
                    : "an integer in [" + fmt(min) + ", " + fmt(max) + "]";
            case DOUBLE -> "a number in [" + fmt(min) + ", " + fmt(max) + "]" + (defaultValue == null ? " or null (off)" : "")
                    + (choices.isEmpty() ? "" : ", " + AUTO + " or " + AUTO + ":MAX_MS (MAX_MS in (0, " + fmt(max) + "])");
            case BOOLEAN -> "true or false";
            case STRING -> "a string" + (defaultValue == null ? " or null (off)" : "");
            case CHOICE -> "one of " + String.join(", ", choices);
        };
    }

    private static String fmt(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) return Long.toString((long) d);
        return String.format(Locale.ROOT, "%s", d);
    }

    /** @param prefix e.g. "workload." — used in messages so they name the full dotted key */
    public Object coerce(String prefix, Object raw) {
        String k = prefix + key;
        if (raw == null) {
            if ((type == Type.DOUBLE || type == Type.STRING || type == Type.INT) && defaultValue == null) return null;
            throw new ConfigException(k + ": missing value; expected " + accepted());
        }
        try {
            switch (type) {
                case INT, LONG -> {
                    long v;
                    if (raw instanceof BigInteger || raw instanceof BigDecimal) {
                        v = new BigDecimal(raw.toString()).longValueExact();
                    } else if (raw instanceof Number n) {
                        double d = n.doubleValue();
                        if (d != Math.rint(d)) throw bad(k, raw);
                        v = n.longValue();
                    } else {
                        v = Long.parseLong(raw.toString().trim().replace("_", ""));
                    }
                    if (v < min || v > max) throw bad(k, raw);
                    return type == Type.INT ? (Object) (int) v : (Object) v;
                }
                case DOUBLE -> {
                    if (!choices.isEmpty() && !(raw instanceof Number)) {
                        String w = raw.toString().trim().toLowerCase(Locale.ROOT);
                        if (w.equals(AUTO)) return AUTO;
                        if (w.startsWith(AUTO + ":")) {
                            double bound = Double.parseDouble(w.substring(AUTO.length() + 1).trim());
                            if (Double.isNaN(bound) || bound <= 0 || bound > max) throw bad(k, raw);
                            return AUTO + ":" + fmt(bound);
                        }
                    }
                    double v = raw instanceof Number n ? n.doubleValue() : Double.parseDouble(raw.toString().trim());
                    if (Double.isNaN(v) || v < min || v > max) throw bad(k, raw);
                    return v;
                }
                case BOOLEAN -> {
                    if (raw instanceof Boolean b) return b;
                    String s = raw.toString().trim().toLowerCase(Locale.ROOT);
                    if (s.equals("true")) return true;
                    if (s.equals("false")) return false;
                    throw bad(k, raw);
                }
                case STRING -> { return raw.toString(); }
                case CHOICE -> {
                    String s = raw.toString().trim();
                    for (String c : choices) if (c.equalsIgnoreCase(s)) return c;
                    throw bad(k, raw);
                }
                default -> throw new IllegalStateException();
            }
        } catch (NumberFormatException | ArithmeticException e) {
            throw bad(k, raw);
        }
    }

    private ConfigException bad(String k, Object raw) {
        return new ConfigException(k + ": '" + raw + "' is not accepted; expected " + accepted());
    }
}
