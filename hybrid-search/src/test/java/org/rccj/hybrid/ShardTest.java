package org.rccj.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rccj.framework.config.ConfigException;

class ShardTest {
    @Test
    void parses() {
        assertEquals(new Shard(2, 3), Shard.parse("2/3"));
        assertEquals(new Shard(1, 1), Shard.parse(" 1 / 1 "));
        assertTrue(Shard.parse("1/1").isAll());
        assertFalse(Shard.parse("1/2").isAll());
        assertEquals("2/3", Shard.parse("2/3").toString());
    }

    @Test
    void rejectsBadSpecsNamingTheOption() {
        for (String bad : new String[] {"0/3", "4/3", "3", "/3", "2/", "a/b", "2/0", "-1/3", "1/3/4", "", "2:3"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> Shard.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("--shard " + bad.strip() + ": expected i/n with 1 <= i <= n"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> new Shard(0, 2));
    }

    @Test
    void shardsAreDisjointAndCoverEveryPosition() {
        for (int n = 1; n <= 5; n++) {
            int[] owners = new int[64];
            for (int i = 1; i <= n; i++) {
                Shard s = new Shard(i, n);
                for (int pos = 0; pos < 64; pos++) if (s.selects(pos)) owners[pos]++;
            }
            for (int pos = 0; pos < 64; pos++) assertEquals(1, owners[pos], "n " + n + " position " + pos);
        }
        assertTrue(new Shard(1, 3).selects(0) && new Shard(1, 3).selects(3) && new Shard(2, 3).selects(1) && new Shard(3, 3).selects(62));
    }
}
