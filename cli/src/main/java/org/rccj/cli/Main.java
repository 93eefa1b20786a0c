package org.rccj.cli;

/** Placeholder entry point, being written. */
public final class Main {
    public static void main(String[] args) {
        System.out.println("rcc: CLI not written yet");
    }
}
