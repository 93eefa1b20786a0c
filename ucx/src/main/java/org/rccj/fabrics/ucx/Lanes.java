package org.rccj.fabrics.ucx;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code ucp_ep_print_info} says about one peer: the transports of its lanes and how one-sided ops reach
 * the peer's memory: in {@code hardware} (an RDMA transport: rc, dc, ud over verbs), by {@code shared memory}
 * (posix, sysv, xpmem, cma, knem: the initiator's CPU on the mapped memory), or {@code emulated} (no RMA or atomic
 * lane: UCX carries them as messages the target's progress serves, e.g. tcp).
 */
record Lanes(List<String> transports, String oneSided) {
    static final String HARDWARE = "hardware", SHARED_MEMORY = "shared_memory", EMULATED = "emulated";
    private static final Pattern LANE = Pattern.compile("lane\\[(\\d+)]:\\s+\\d+:([a-z0-9_]+)/\\S+.*?->.*?((?:\\s+\\S+)*)$");
    private static final Set<String> SHARED = Set.of("posix", "sysv", "xpmem", "cma", "knem", "self");

    static Lanes parse(String info) {
        Set<String> tls = new LinkedHashSet<>();
        List<String> rmaTls = new ArrayList<>();
        List<String> laneTl = new ArrayList<>();
        for (String line : info.split("\n")) {
            Matcher m = LANE.matcher(line.replace("#", "").trim());
            if (m.find()) {
                String tl = m.group(2);
                tls.add(tl);
                int lane = Integer.parseInt(m.group(1));
                while (laneTl.size() <= lane) laneTl.add(null);
                laneTl.set(lane, tl);
                if (line.contains(" amo#")) rmaTls.add(tl);
            }
        }
        // the RMA lanes are listed as put[i] / get[i] with i the lane index
        Matcher rma = Pattern.compile("(?:put|get)\\[(\\d+)]").matcher(info);
        while (rma.find()) {
            int lane = Integer.parseInt(rma.group(1));
            if (lane < laneTl.size() && laneTl.get(lane) != null) rmaTls.add(laneTl.get(lane));
        }
        String mode;
        if (rmaTls.isEmpty()) mode = EMULATED;
        else if (rmaTls.stream().allMatch(SHARED::contains)) mode = SHARED_MEMORY;
        else mode = HARDWARE;
        return new Lanes(List.copyOf(tls), mode);
    }
}
