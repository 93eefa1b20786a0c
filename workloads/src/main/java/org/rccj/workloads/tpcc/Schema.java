package org.rccj.workloads.tpcc;

/**
 * Record layouts of the TPC-C tables: every field an 8-byte word at a named offset. Money is in cents,
 * rates (taxes, discounts) in basis points (1/10,000), dates are the coordinator's clock in ns (virtual on
 * sim), "null" is 0. Warehouse and district numbers are 0-based indexes; customer, order, item and
 * order-line numbers are the specification's 1-based ids.
 *
 * <p>Dropped because no transaction logic or consistency condition needs them: names, addresses, phone,
 * C_SINCE, C_MIDDLE, C_FIRST (only its order matters: {@link CustomerByLastName} lists ids sorted by it),
 * C_DATA (the bad-credit payment note), H_DATE, H_DATA, OL_DIST_INFO, S_DIST_01..10, S_DATA, I_NAME, I_DATA
 * (so New-Order's brand-generic output is not computed). C_LAST is kept as its syllable code 0..999.
 *
 * <p>Rows that TPC-C inserts or deletes (ORDER, NEW-ORDER, ORDER-LINE, HISTORY) are pre-allocated slots with
 * a {@code VALID} word (docs/decisions/): an insert is a read-for-update of an invalid slot that sets
 * it, a delete clears it.
 */
final class Schema {
    private Schema() {}

    static final String WAREHOUSE = "warehouse", DISTRICT = "district", CUSTOMER = "customer", HISTORY = "history",
            NEW_ORDER = "new_order", ORDER = "order", ORDER_LINE = "order_line", ITEM = "item", STOCK = "stock",
            CUSTOMER_BY_LAST_NAME = "customer_by_last_name", CUSTOMER_LAST_ORDER = "customer_last_order",
            NEW_ORDER_HEAD = "new_order_head";

    static final int DISTRICTS_PER_WAREHOUSE = 10;
    static final int MAX_ORDER_LINES = 15;
    /** Distinct C_LAST values (three syllables from ten). */
    static final int LAST_NAMES = 1000;

    /** WAREHOUSE, key (w). */
    static final class Warehouse {
        static final int YTD = 0, TAX = 8, BYTES = 16;
    }

    /** DISTRICT, key (w, d). */
    static final class District {
        static final int YTD = 0, TAX = 8, NEXT_O_ID = 16, BYTES = 24;
    }

    /**
     * NEW_ORDER_HEAD, key (w, d): the oldest order id of the district not yet delivered (the smallest
     * NO_O_ID when NEW-ORDER has rows). Only Delivery reads and writes it, so Delivery does not contend with
     * New-Order and Payment on the DISTRICT row.
     */
    static final class NewOrderHead {
        static final int O_ID = 0, BYTES = 8;
    }

    /** CUSTOMER, key (w, d, c). */
    static final class Customer {
        static final int BALANCE = 0, YTD_PAYMENT = 8, PAYMENT_CNT = 16, DELIVERY_CNT = 24, DISCOUNT = 32,
                CREDIT = 40, CREDIT_LIM = 48, LAST = 56, BYTES = 64;
        /** C_CREDIT values. */
        static final long GOOD_CREDIT = 0, BAD_CREDIT = 1;
    }

    /**
     * CUSTOMER_BY_LAST_NAME, key (w, d, C_LAST code): the secondary index of the by-last-name lookups
     * (Payment, Order-Status), read-only after the load. COUNT customer ids follow, sorted by C_FIRST.
     */
    static final class CustomerByLastName {
        static final int COUNT = 0, IDS = 8;

        static int idAt(int i) { return IDS + 8 * i; }

        static int bytes(int maxIds) { return IDS + 8 * maxIds; }
    }

    /**
     * CUSTOMER_LAST_ORDER, key (w, d, c): the customer's newest order id, written by New-Order; Order-Status
     * finds the newest order through it (an index on ORDER by customer, as Silo's oorder_c_id_idx).
     */
    static final class CustomerLastOrder {
        static final int O_ID = 0, BYTES = 8;
    }

    /** HISTORY, key (w of the payment, slot); see {@link Keys#history}. */
    static final class History {
        static final int VALID = 0, C_W_ID = 8, C_D_ID = 16, C_ID = 24, W_ID = 32, D_ID = 40, AMOUNT = 48, BYTES = 56;
    }

    /** NEW_ORDER, key (w, d, o). */
    static final class NewOrder {
        static final int VALID = 0, BYTES = 8;
    }

    /** ORDER, key (w, d, o). */
    static final class Order {
        static final int VALID = 0, C_ID = 8, ENTRY_D = 16, CARRIER_ID = 24, OL_CNT = 32, ALL_LOCAL = 40, BYTES = 48;
    }

    /** ORDER_LINE, key (w, d, o, ol_number). */
    static final class OrderLine {
        static final int VALID = 0, I_ID = 8, SUPPLY_W_ID = 16, QUANTITY = 24, AMOUNT = 32, DELIVERY_D = 40, BYTES = 48;
    }

    /**
     * ITEM, key (node, i): read-only, one copy per node so every New-Order reads its own node's copy. Item id
     * {@code items + 1} is stored with VALID = 0: the "unused item number" of the 1% rolled-back New-Orders.
     */
    static final class Item {
        static final int VALID = 0, PRICE = 8, IM_ID = 16, BYTES = 24;
    }

    /** STOCK, key (w, i). */
    static final class Stock {
        static final int QUANTITY = 0, YTD = 8, ORDER_CNT = 16, REMOTE_CNT = 24, BYTES = 32;
    }
}
