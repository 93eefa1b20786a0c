package org.rccj.ucx;

/**
 * A UCX failure as one line: the call that failed and UCX's own words for why ({@code ucs_status_string}), or
 * what to install or change when libucp is missing or of a version this binding does not know.
 */
public final class UcxException extends RuntimeException {
    /** The ucs_status_t UCX returned, or 0 when the failure is not a UCX status (missing library, version). */
    public final int status;

    public UcxException(String message, int status) {
        super(message, null, false, false);
        this.status = status;
    }

    public UcxException(String message) {
        this(message, 0);
    }
}
