package org.rccj.fabrics;

import java.util.List;
import java.util.Map;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.config.Param;
import org.rccj.primitives.CostProfile;

/** The {@code profile} key every fabric takes: the cost profile its endpoints hand to the workers. */
public final class Profiles {
    public static final String KEY = "profile";

    private Profiles() {}

    /** The key, a profile name or a profile file; {@code role} says what the profile does on this fabric. */
    public static Param param(String role) {
        return new Param(KEY, Param.Type.STRING, CostProfile.DEFAULT, 0, 0, List.of(), role + ": "
                + String.join(", ", CostProfile.known()) + ", or a profile file (calibration.md)");
    }

    /** The {@code profile} setting loads, or a one-line {@link ConfigException} names it (unknown name, unreadable file, bad parameter). */
    public static void check(Map<String, Object> settings) {
        try {
            CostProfile.load(String.valueOf(settings.get(KEY)));
        } catch (IllegalArgumentException e) {
            String spec = String.valueOf(settings.get(KEY));
            String hint = CostProfile.isBuiltIn(spec) || CostProfile.looksLikeFile(spec) ? ""
                    : org.rccj.framework.config.Suggest.didYouMean(spec, CostProfile.known());
            throw new ConfigException("profile: " + e.getMessage() + hint);
        }
    }
}
