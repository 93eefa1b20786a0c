package org.rccj.framework.spi;

import java.util.ArrayList;
import java.util.List;
import org.rccj.framework.api.Stage;
import org.rccj.framework.config.ConfigException;

/**
 * Which stages of a protocol use one-sided primitives: the OR of their {@link Stage#bit}s. Accepted
 * spellings: {@code all-rpc}, {@code all-onesided}, a number, or stage names joined by {@code +}.
 */
public record HybridCode(int code, List<Stage> protocolStages) {
    /** The config key a code is given with (run.Config.HYBRID's; its messages name it). */
    public static final String KEY = "hybrid";


    public boolean oneSided(Stage s) { return (code & s.bit) != 0; }

    public List<Stage> oneSidedStages() {
        List<Stage> out = new ArrayList<>();
        for (Stage s : protocolStages) if (oneSided(s)) out.add(s);
        return out;
    }

    /** Canonical spelling: all-rpc, all-onesided or NAME+NAME in the protocol's stage order. */
    public String spelled() {
        int all = Stage.mask(protocolStages);
        if (code == 0) return "all-rpc";
        if (code == all) return "all-onesided";
        List<String> names = new ArrayList<>();
        for (Stage s : oneSidedStages()) names.add(s.name());
        return String.join("+", names);
    }

    public static HybridCode allRpc(List<Stage> stages) { return new HybridCode(0, List.copyOf(stages)); }
    public static HybridCode allOneSided(List<Stage> stages) { return new HybridCode(Stage.mask(stages), List.copyOf(stages)); }

    /** Every valid code of a protocol, ascending. */
    public static List<HybridCode> all(List<Stage> stages) {
        List<Integer> bits = new ArrayList<>();
        for (Stage s : stages) bits.add(s.bit);
        List<Integer> codes = new ArrayList<>();
        for (int sub = 0; sub < (1 << bits.size()); sub++) {
            int c = 0;
            for (int i = 0; i < bits.size(); i++) if ((sub & (1 << i)) != 0) c |= bits.get(i);
            codes.add(c);
        }
        codes.sort(Integer::compare);
        List<HybridCode> out = new ArrayList<>();
        for (int c : codes) out.add(new HybridCode(c, List.copyOf(stages)));
        return out;
    }

    /**
     * Parses a spelling against a protocol's stages; a bit the protocol does not have is an error.
     * @param protocol name used in error messages
     */
    public static HybridCode parse(String text, String protocol, List<Stage> stages) {
        String accepted = "accepted: all-rpc, all-onesided, a number, or names joined by '+' from "
                + names(stages) + " (protocol " + protocol + ")";
        if (text == null || text.isBlank()) throw new ConfigException(KEY + ": empty value; " + accepted);
        String t = text.trim();
        int all = Stage.mask(stages);
        int code;
        if (t.equalsIgnoreCase("all-rpc") || t.equalsIgnoreCase("rpc")) {
            code = 0;
        } else if (t.equalsIgnoreCase("all-onesided") || t.equalsIgnoreCase("onesided") || t.equalsIgnoreCase("one-sided")) {
            code = all;
        } else if (t.chars().allMatch(Character::isDigit)) {
            try {
                code = Integer.parseInt(t);
            } catch (NumberFormatException e) {
                throw new ConfigException(KEY + ": '" + t + "' is too large; " + accepted);
            }
        } else {
            code = 0;
            for (String part : t.split("\\+", -1)) {
                // "+", "READ+" and "READ++LOCK" name an empty stage; "READ+READ" names one twice (issue 38): refused, not
                // read as all-rpc or as READ
                if (part.isBlank()) throw new ConfigException(KEY + ": '" + t + "' has an empty stage name (a '+' with nothing on one side); " + accepted);
                Stage s = Stage.byName(part.trim());
                if (s == null) {
                    List<String> known = new java.util.ArrayList<>(List.of("all-rpc", "all-onesided"));
                    for (Stage st : stages) known.add(st.name());
                    throw new ConfigException(KEY + ": unknown stage '" + part.trim() + "'"
                            + org.rccj.framework.config.Suggest.didYouMean(part.trim(), known) + "; " + accepted);
                }
                if (!stages.contains(s)) {
                    throw new ConfigException(KEY + ": stage " + s + " (" + s.bit + ") is not a stage of protocol "
                            + protocol + "; its stages are " + names(stages));
                }
                if ((code & s.bit) != 0) throw new ConfigException(KEY + ": '" + t + "' names stage " + s + " twice; name each stage once");
                code |= s.bit;
            }
        }
        int foreign = code & ~all;
        if (foreign != 0) {
            List<String> bad = new ArrayList<>();
            for (Stage s : Stage.values()) if ((foreign & s.bit) != 0) bad.add(s.name() + "=" + s.bit);
            int unknown = foreign & ~Stage.mask(List.of(Stage.values()));
            if (unknown != 0) bad.add("unknown bits " + unknown);
            throw new ConfigException(KEY + ": code " + code + " has bits protocol " + protocol + " does not have ("
                    + String.join(", ", bad) + "); its stages are " + names(stages) + " (valid codes 0.." + all + " within mask " + all + ")");
        }
        return new HybridCode(code, List.copyOf(stages));
    }

    private static String names(List<Stage> stages) {
        List<String> n = new ArrayList<>();
        for (Stage s : stages) n.add(s.name() + "=" + s.bit);
        return String.join(", ", n);
    }
}
