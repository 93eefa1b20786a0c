package org.rccj.framework.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.rccj.primitives.RegisteredMemory;

/**
 * The header of every tuple: 8-byte words at fixed offsets, declared once by a protocol, followed by the
 * record. Word 0 is always the key (so a one-sided read through a stale location can tell), the
 * protocol's words follow. Protocols keep the offsets as named constants:
 * {@code static final int LOCK = LAYOUT.offset("lock");}.
 */
public final class HeaderLayout {
    public static final String KEY_WORD = "key";
    /** Offset of the key word in every tuple. */
    public static final int KEY = 0;

    private final List<String> words;
    private final int recordSlots;
    private final CurrentSlot currentSlot;

    /**
     * Which record slot of a tuple holds its current (newest committed) value, decided from the tuple's
     * header words in memory. Protocols with one record slot need none (slot 0).
     */
    @FunctionalInterface
    public interface CurrentSlot {
        int slot(RegisteredMemory m, int region, long tupleOffset);
    }

    private HeaderLayout(List<String> words, int recordSlots, CurrentSlot currentSlot) {
        this.words = words;
        this.recordSlots = recordSlots;
        this.currentSlot = currentSlot;
    }

    /** The key word followed by the protocol's words, in this order. */
    public static HeaderLayout of(String... protocolWords) {
        List<String> w = new ArrayList<>();
        w.add(KEY_WORD);
        for (String s : protocolWords) {
            if (w.contains(s)) throw new IllegalArgumentException("duplicate header word " + s);
            w.add(s);
        }
        return new HeaderLayout(Collections.unmodifiableList(w), 1, null);
    }

    /**
     * The same header with {@code slots} copies of the record after it (MVCC version slots). Slot i of a
     * table's tuple starts at {@link org.rccj.framework.store.Table#recordOffset(int)}.
     */
    public HeaderLayout withRecordSlots(int slots) {
        if (slots < 1) throw new IllegalArgumentException("record slots must be >= 1");
        return new HeaderLayout(words, slots, currentSlot);
    }

    /**
     * The same header with a rule naming the slot that holds a tuple's current value, so that
     * {@link Table#getField}/{@link Table#putField} (invariant checks, tests) see the newest version of a
     * multi-version tuple. Without one, slot 0 is current.
     */
    public HeaderLayout withCurrentSlot(CurrentSlot rule) {
        return new HeaderLayout(words, recordSlots, rule);
    }

    /** The record slot holding the current value of the tuple at {@code tupleOffset}. */
    public int currentSlot(RegisteredMemory m, int region, long tupleOffset) {
        return currentSlot == null ? 0 : currentSlot.slot(m, region, tupleOffset);
    }

    /** Copies of the record each tuple holds (1 unless the protocol keeps versions). */
    public int recordSlots() { return recordSlots; }

    /** Byte offset of a named word within the tuple. */
    public int offset(String word) {
        int i = words.indexOf(word);
        if (i < 0) throw new IllegalArgumentException("no header word '" + word + "' in " + words);
        return 8 * i;
    }

    /** Bytes of the header = offset of the record. */
    public int bytes() { return 8 * words.size(); }

    public List<String> words() { return words; }

    @Override public String toString() { return words.toString(); }
}
