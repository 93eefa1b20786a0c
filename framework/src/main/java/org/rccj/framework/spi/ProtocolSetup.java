package org.rccj.framework.spi;

/** Placeholder, being written. */
public interface ProtocolSetup {}
