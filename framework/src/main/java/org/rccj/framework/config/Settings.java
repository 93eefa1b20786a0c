package org.rccj.framework.config;

import java.util.Map;

/**
 * One resolved section of a config (a workload's settings, a protocol's options, a fabric's keys), read by
 * key in the type its {@link Param} declares. Asking for a key the section does not declare is a
 * programming error, reported as such rather than as a null.
 */
public interface Settings {
    /** The config's sections a plug-in's settings live in: a workload's and a protocol's options. */
    String WORKLOAD = "workload", PROTOCOL_OPTIONS = "protocol_options";

    /** How a config spells setting {@code key} of a workload, for messages: {@code workload.KEY}. */
    static String workloadKey(String key) { return WORKLOAD + "." + key; }

    /** How a config spells protocol option {@code key}, for messages: {@code protocol_options.KEY}. */
    static String optionKey(String key) { return PROTOCOL_OPTIONS + "." + key; }

    /** The resolved value of {@code key} (null only where the parameter allows null). */
    Object value(String key);

    default int i(String key) { return (int) value(key); }
    default long l(String key) { return (long) value(key); }
    default double d(String key) { return (double) value(key); }
    /** A number that may be null ({@link Param#ofOptionalDouble}). */
    default Double optionalD(String key) { return (Double) value(key); }
    default String s(String key) { return (String) value(key); }
    default boolean b(String key) { return (boolean) value(key); }

    /** {@code values.get(key)}, or an error naming the section when it has no such key. */
    static Object lookUp(Map<String, Object> values, String section, String key) {
        if (!values.containsKey(key)) throw new IllegalArgumentException(section + " declares no setting '" + key + "'");
        return values.get(key);
    }
}
