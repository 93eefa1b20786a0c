package org.rccj.framework.config;

import java.util.Collection;
import org.apache.commons.text.similarity.LevenshteinDistance;

/** "did you mean" for misspelled keys, values and commands: the closest known name by edit distance (Apache Commons Text). */
public final class Suggest {
    private Suggest() {}

    /**
     * " (did you mean 'x'?)" when one known name is within a third of the given one's length in edits (at least 1, at
     * least 2 from three letters on, at most 3), else "".
     */
    public static String didYouMean(String given, Collection<String> known) {
        if (given == null || given.isEmpty()) return "";
        // two edits from three letters on: a swap of two letters ("rnu" for "run") is two edits
        int limit = given.length() >= 3 ? Math.max(2, Math.min(3, given.length() / 3)) : 1;
        LevenshteinDistance d = new LevenshteinDistance(limit);
        String best = null;
        int bestD = Integer.MAX_VALUE;
        for (String k : known) {
            int x = d.apply(given.toLowerCase(java.util.Locale.ROOT), k.toLowerCase(java.util.Locale.ROOT));
            if (x >= 0 && x < bestD) {
                bestD = x;
                best = k;
            }
        }
        return best == null || best.equals(given) ? "" : " (did you mean '" + best + "'?)";
    }
}
