package org.rccj.fabrics.cluster;

import java.nio.charset.StandardCharsets;
import org.rccj.framework.run.Config;

/** SHA-256 of the resolved config: nodes with different configs refuse each other at the handshake. */
public final class ConfigDigest {
    private ConfigDigest() {}

    public static byte[] of(Config c) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(c.toMap().toString().getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
