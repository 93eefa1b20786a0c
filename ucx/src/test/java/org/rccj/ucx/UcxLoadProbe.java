package org.rccj.ucx;

/** Loads UCX in a fresh process and prints the version, or the one-line refusal (exit 2); see UcxLoadTest. */
public final class UcxLoadProbe {
    public static void main(String[] args) {
        try {
            System.out.println("loaded " + Ucx.load().version);
        } catch (UcxException e) {
            System.out.println(e.getMessage());
            System.exit(2);
        }
    }
}
