package org.rccj.hybrid;

import org.rccj.framework.config.ConfigException;

/**
 * A deterministic share of an enumeration, {@code --shard i/n} (1 <= i <= n): the codes whose position in
 * the ascending list of the protocol's codes is {@code i-1} modulo {@code n}. The n shards of a list are
 * disjoint and together cover it, whatever the protocol, so a cluster array job can split the work.
 */
public record Shard(int index, int count) {
    public static final Shard ALL = new Shard(1, 1);

    public Shard {
        if (count < 1 || index < 1 || index > count) throw new IllegalArgumentException("shard " + index + "/" + count);
    }

    /** Parses {@code i/n}; anything else is a {@link ConfigException} naming the option. */
    public static Shard parse(String text) {
        String t = text == null ? "" : text.strip();
        String usage = "--shard " + t + ": expected i/n with 1 <= i <= n, e.g. --shard 2/3 for the second of three shards";
        int slash = t.indexOf('/');
        if (slash <= 0 || slash == t.length() - 1) throw new ConfigException(usage);
        int i, n;
        try {
            i = Integer.parseInt(t.substring(0, slash).strip());
            n = Integer.parseInt(t.substring(slash + 1).strip());
        } catch (NumberFormatException e) {
            throw new ConfigException(usage);
        }
        if (n < 1 || i < 1 || i > n) throw new ConfigException(usage);
        return new Shard(i, n);
    }

    /** Whether the element at {@code position} (0-based) of the full list belongs to this shard. */
    public boolean selects(int position) { return position % count == index - 1; }

    public boolean isAll() { return count == 1; }

    @Override public String toString() { return index + "/" + count; }
}
