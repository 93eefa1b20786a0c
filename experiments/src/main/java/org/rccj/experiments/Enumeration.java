package org.rccj.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.rccj.framework.api.Stage;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.framework.spi.HybridCode;

/**
 * An enumeration's points: every hybrid code of the protocol's stages, {@code repeat} seeds each, one resolved config
 * and result directory ({@code hybrid=NN[,seed=S]}) per code and seed. Every code is resolved (and so checked)
 * before anything runs.
 */
public final class Enumeration {
    private Enumeration() {}

    /** Every code's runs by code, ascending, over the config tree {@code base} (resolved: {@code baseConfig}). */
    public static Map<Integer, List<Batch.Point>> points(Map<String, Object> base, Config baseConfig, List<Stage> stages, int repeat, Path out) {
        int width = Integer.toString(Stage.mask(stages)).length();
        Map<Integer, List<Batch.Point>> pointsByCode = new TreeMap<>();
        for (HybridCode hc : HybridCode.all(stages)) {
            List<Batch.Point> runs = new ArrayList<>();
            for (int r = 0; r < repeat; r++) {
                Map<String, Object> tree = ConfigTrees.copy(base);
                tree.put(Config.HYBRID.key(), hc.code());
                tree.put(Config.SEED.key(), baseConfig.seed() + r);
                Config c;
                try {
                    c = ConfigTrees.resolve("enumerate", tree);
                } catch (ConfigException e) {
                    throw new ConfigException("enumerate: hybrid code " + hc.code() + ": " + e.getMessage());
                }
                String name = Seeds.dirName(out, pointName(hc.code(), width), c.seed(), r == 0, repeat, c);
                runs.add(new Batch.Point(name, c, out.resolve(name)));
            }
            pointsByCode.put(hc.code(), runs);
        }
        List<Batch.Point> everything = new ArrayList<>();
        for (List<Batch.Point> l : pointsByCode.values()) everything.addAll(l);
        Batch.checkPointDirs("enumerate", everything);
        return pointsByCode;
    }

    /** {@code hybrid=NN}, the code zero-padded to {@code width} digits. */
    public static String pointName(int code, int width) {
        return "hybrid=" + String.format(Locale.ROOT, "%0" + width + "d", code);
    }
}
