package org.rccj.fabrics.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import org.rccj.framework.config.ConfigException;

/** The run's shared secret, in a file only its owner can read: every connection's handshake proves it. */
public final class ClusterSecret {
    private ClusterSecret() {}

    /** The secret file must exist, be non-empty and be readable by its owner only. */
    public static byte[] read(Path f) {
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(f);
            for (PosixFilePermission p : perms) {
                if (p.name().startsWith("GROUP") || p.name().startsWith("OTHERS")) {
                    throw new ConfigException("node: --secret-file " + f + " is accessible to other users; chmod 600 it");
                }
            }
            byte[] b = Files.readAllBytes(f);
            if (b.length < 16) throw new ConfigException("node: --secret-file " + f + " holds fewer than 16 bytes; put a long random secret in it");
            return b;
        } catch (UnsupportedOperationException e) {
            throw new ConfigException("node: --secret-file " + f + ": the file system has no POSIX permissions to check");
        } catch (IOException e) {
            throw new ConfigException("node: --secret-file " + f + ": cannot read it (" + e.getMessage() + ")");
        }
    }

    /** A fresh random secret: the hex of 32 random bytes. */
    public static String fresh() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return HexFormat.of().formatHex(key);
    }

    /** Writes a fresh random secret to a new file {@code f} only this user can read. */
    public static void create(Path f) throws IOException {
        Files.createFile(f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(f, fresh());
    }
}
