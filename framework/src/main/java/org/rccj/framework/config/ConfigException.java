package org.rccj.framework.config;

/** Bad input: a config key, value or command-line argument. The CLI prints the message and exits 2. */
public class ConfigException extends RuntimeException {
    public ConfigException(String message) { super(message); }
}
