package org.rccj.protocols.calvin;

import org.rccj.primitives.Bytes;

/**
 * The image of one node's batch for one epoch: a header, then the requests ({@link CalvinRequest}) in the
 * order the node's coordinators submitted them. The same bytes are replicated to the backups (LOG) and land
 * in every node's request buffer (DISPATCH). The header carries when the batch was sealed and the span of the
 * epoch barrier its sequencer passed just before (for the coordinators' stage timers).
 */
final class Batch {
    static final int EPOCH = 0, COUNT = 8, BYTES = 16, SEALED_AT = 24, SYNC_FROM = 32, SYNC_TO = 40, PAYLOAD = 48;

    private Batch() {}

    static void header(byte[] image, long epoch, int count, int payloadBytes, long sealedAt, long syncFrom, long syncTo) {
        Bytes.putLong(image, EPOCH, epoch);
        Bytes.putLong(image, COUNT, count);
        Bytes.putLong(image, BYTES, payloadBytes);
        Bytes.putLong(image, SEALED_AT, sealedAt);
        Bytes.putLong(image, SYNC_FROM, syncFrom);
        Bytes.putLong(image, SYNC_TO, syncTo);
    }

    /** Modelled CPU cost of copying {@code bytes} (the coordinator log's handler charges the same). */
    static long copyNs(long localOpNs, int bytes) { return localOpNs + bytes / 8; }
}
