package org.rccj.experiments.robust;

import java.util.Locale;

/**
 * One setting the top codes are re-ranked under: the base profile, another named profile, or the base with one
 * primitive parameter scaled by {@code 1 + fraction}.
 * @param name directory-safe name (letters, digits and . _ + = , - only): "base", "profile=cx6-hdr",
 *             "cpu.rpc_dispatch_ns=x0.75"
 * @param profile what the run config's {@code profile} key gets (a built-in name or a file path)
 * @param param the scaled key (null unless {@link Kind#PERTURBED})
 * @param paramName its short name for reports
 */
public record Variant(String name, Kind kind, String profile, String param, String paramName, double fraction) {
    public enum Kind {
        BASE, PROFILE, PERTURBED;

        public String spelled() { return name().toLowerCase(Locale.ROOT); }
    }

    public static Variant base(String profile) { return new Variant("base", Kind.BASE, profile, null, null, 0); }

    public static Variant profile(String dirName, String profile) {
        return new Variant("profile=" + dirName, Kind.PROFILE, profile, null, null, 0);
    }

    /** The directory name of a scaled parameter: its key and the multiplier, e.g. {@code wire.one_way_ns=x0.75}. */
    public static String perturbedName(String key, double fraction) {
        String m = String.format(Locale.ROOT, "%.4f", 1 + fraction).replaceAll("0+$", "").replaceAll("\\.$", "");
        return key + "=x" + m;
    }

    public static Variant perturbed(String key, String paramName, double fraction, String profileFile) {
        return new Variant(perturbedName(key, fraction), Kind.PERTURBED, profileFile, key, paramName, fraction);
    }

    /** For tables and figures: "base (cx4-edr)", "cx6-hdr", "RPC dispatch CPU -25%". */
    public String label() {
        return switch (kind) {
            case BASE -> "base (" + java.nio.file.Path.of(profile).getFileName() + ")";
            case PROFILE -> name.substring("profile=".length());
            case PERTURBED -> paramName + " " + ProfileVariants.percent(fraction);
        };
    }
}
