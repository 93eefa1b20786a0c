package org.rccj.framework.api;

import org.rccj.primitives.Op;

/**
 * Server side of a two-sided stage. Runs on a worker of the target node (its CPU pays for it). It reads
 * the request from {@code call.data}, works on the node's registered memory with the same atomics the
 * one-sided version uses, writes the reply with {@code call.replyBuffer(n)} and sends it with
 * {@code worker.reply(call)} — now, or later for a deferred reply (a lock wait queue).
 */
@FunctionalInterface
public interface RpcHandler {
    void handle(RpcWorker worker, Op call);
}
