package org.rccj.framework.api;

import java.util.ArrayList;
import java.util.List;

/**
 * A protocol stage that can be bound to one-sided or two-sided primitives. Bit values are the C++
 * reference's, so a hybrid code means the same in both.
 */
public enum Stage {
    LOCK(1), READ(2), LOG(4), RELEASE(8), COMMIT(16), VALIDATE(32), RENEW(64), DISPATCH(128), FORWARD(256),
    /** CALVIN's epoch barrier: the sequencers tell each other an epoch is done before the next one starts. */
    EPOCH_SYNC(512);

    public final int bit;

    Stage(int bit) { this.bit = bit; }

    public static Stage byName(String name) {
        for (Stage s : values()) if (s.name().equalsIgnoreCase(name)) return s;
        return null;
    }

    public static List<Stage> fromMask(int mask) {
        List<Stage> out = new ArrayList<>();
        for (Stage s : values()) if ((mask & s.bit) != 0) out.add(s);
        return out;
    }

    public static int mask(List<Stage> stages) {
        int m = 0;
        for (Stage s : stages) m |= s.bit;
        return m;
    }
}
