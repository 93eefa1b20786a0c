package org.rccj.cli;

/** A multi-process run stopped (a node died, hung, was refused or never came): one line, exit 3, no stack trace. */
final class ClusterFailure extends RuntimeException {
    ClusterFailure(String message) { super(message, null, false, false); }
}
