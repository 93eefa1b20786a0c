package org.rccj.fabrics.cluster;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rccj.framework.config.ConfigException;

/**
 * Who the nodes of a multi-process cluster are and which one this process is: from {@code --id} and {@code --hosts},
 * from the Slurm environment, or from the local launcher (loopback addresses it picked). Bad input is a one-line
 * {@link ConfigException} naming what to change.
 *
 * @param self  the node this process hosts
 * @param hosts every node's listen address, indexed by node
 */
public record Membership(int self, List<InetSocketAddress> hosts) {
    /** The port of the first node on a host when none is given. */
    public static final int DEFAULT_PORT = 7400;

    /** {@code --hosts h0:port,h1:port,...} and {@code --id I}; a host without a port gets {@code defaultPort}. */
    public static Membership of(String hostList, String id, int defaultPort) {
        List<InetSocketAddress> hosts = new ArrayList<>();
        for (String h : hostList.split(",")) hosts.add(address(h.strip(), defaultPort));
        return new Membership(wholeNumber("--id", id, 0, hosts.size() - 1), hosts);
    }

    /**
     * The Slurm environment (SLURM_PROCID, SLURM_NTASKS, SLURM_STEP_NODELIST or SLURM_JOB_NODELIST): tasks are placed on
     * the hosts of the node list by Slurm's default block distribution, the i-th task of a host on {@code port + i}.
     */
    public static Membership slurm(Map<String, String> env, int port) {
        String procid = env.get("SLURM_PROCID"), ntasks = env.get("SLURM_NTASKS");
        String list = env.getOrDefault("SLURM_STEP_NODELIST", env.get("SLURM_JOB_NODELIST"));
        if (procid == null || ntasks == null || list == null) {
            throw new ConfigException("node: give --id I and --hosts h0:port,h1:port,... (or run under srun, which sets SLURM_PROCID, SLURM_NTASKS and the node list)");
        }
        int id, n;
        try {
            id = Integer.parseInt(procid.strip());
            n = Integer.parseInt(ntasks.strip());
        } catch (NumberFormatException e) {
            throw new ConfigException("node: SLURM_PROCID '" + procid + "' / SLURM_NTASKS '" + ntasks + "' are not numbers");
        }
        List<String> names = expandHostList(list);
        if (names.isEmpty()) throw new ConfigException("node: empty Slurm node list '" + list + "'");
        int perHost = (n + names.size() - 1) / names.size();     // Slurm's default block distribution
        List<InetSocketAddress> resolved = new ArrayList<>();
        for (int i = 0; i < n; i++) resolved.add(new InetSocketAddress(names.get(Math.min(i / perHost, names.size() - 1)), port + i % perHost));
        if (id < 0 || id >= n) throw new ConfigException("node: SLURM_PROCID " + id + " is not in 0.." + (n - 1));
        return new Membership(id, resolved);
    }

    /** Slurm's compressed host list: {@code a[01-03,07],b,c[1-2]} -> a01 a02 a03 a07 b c1 c2. */
    public static List<String> expandHostList(String list) {
        List<String> out = new ArrayList<>();
        int depth = 0, start = 0;
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '[') depth++;
            else if (c == ']') depth--;
            else if (c == ',' && depth == 0) {
                parts.add(list.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(list.substring(start));
        for (String p : parts) {
            p = p.strip();
            if (p.isEmpty()) continue;
            int b = p.indexOf('[');
            if (b < 0) {
                out.add(p);
                continue;
            }
            String prefix = p.substring(0, b), ranges = p.substring(b + 1, p.indexOf(']'));
            for (String r : ranges.split(",")) {
                int dash = r.indexOf('-');
                if (dash < 0) {
                    out.add(prefix + r);
                    continue;
                }
                String lo = r.substring(0, dash), hi = r.substring(dash + 1);
                for (int v = Integer.parseInt(lo); v <= Integer.parseInt(hi); v++) {
                    String num = Integer.toString(v);
                    while (num.length() < lo.length()) num = "0" + num;
                    out.add(prefix + num);
                }
            }
        }
        return out;
    }

    private static InetSocketAddress address(String h, int defaultPort) {
        int colon = h.lastIndexOf(':');
        String host = colon < 0 ? h : h.substring(0, colon);
        int port = defaultPort;
        if (colon >= 0) {
            try {
                port = Integer.parseInt(h.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new ConfigException("node: --hosts: '" + h + "' has no port number after ':'");
            }
        }
        if (host.isEmpty() || port < 1 || port > 65535) throw new ConfigException("node: --hosts: '" + h + "' is not host:port");
        return new InetSocketAddress(host, port);
    }

    /** A whole-number option in lo..hi, or a one-line error naming it. */
    public static int wholeNumber(String option, String v, int lo, int hi) {
        try {
            int i = Integer.parseInt(v.strip());
            if (i < lo || i > hi) throw new NumberFormatException();
            return i;
        } catch (NumberFormatException e) {
            throw new ConfigException("node: " + option + " '" + v + "' must be a whole number in " + lo + ".." + hi);
        }
    }
}
