package org.rccj.fabrics.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The launcher's node ports: distinct, bindable, and outside the kernel's ephemeral range (where UCX's sockets land). */
class LocalLauncherPortsTest {
    @Test
    void portsAreDistinctBindableAndBelowTheEphemeralRange() throws Exception {
        int[] ports = LocalLauncher.freePorts(8);
        assertEquals(8, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        if (Files.isReadable(range)) {
            int low = Integer.parseInt(Files.readString(range).trim().split("\\s+")[0]);
            if (low > 20_000) for (int p : ports) assertTrue(p >= 20_000 && p < low, p + " not below the ephemeral range from " + low);
        }
        for (int p : ports) {
            try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
                assertEquals(p, s.getLocalPort());
            }
        }
    }
}
