package io.tessera.backend.jvm.join;

import io.tessera.backend.jvm.gen.HashFunction;
import io.tessera.backend.jvm.gen.PipelineWriter;

import java.util.List;

/**
 * How a probe finds its key's build row in a join table: one strategy per table layout ({@code ht}: perfect,
 * linear, cuckoo2..4) and key count. Each emits the declaration of the row variable {@code r}: the first build row
 * with the key, or -1. Fields read the table once, in init.
 */
enum JoinLookup {

    /** A perfect table: an array over the key range, indexed by key minus the minimum. */
    PERFECT {
        @Override
        void emit(PipelineWriter w, int j, List<String> keys, String r, int ways, HashFunction hash) {
            String k = keys.get(0);
            String outside = outsideRange(w, j, k);
            String first = w.field("int[]", "ctx.joinTable(" + j + ").first", "j" + j + "_first");
            // the array holds the row plus one (JoinTable)
            w.line("int " + r + " = (" + outside + ") ? -1 : " + first + "[(int) (" + k + " - " + min(w, j) + ")] - 1;");
        }
    },

    /**
     * A perfect table probed for its keys' presence alone (a semi or anti probe without a condition or marks): the
     * table's bit per slot ({@link JoinTable#present}), 0 where the key is there, else -1; no build row is named.
     */
    PRESENT {
        @Override
        void emit(PipelineWriter w, int j, List<String> keys, String r, int ways, HashFunction hash) {
            w.line("int " + r + " = (" + absent(w, j, keys.get(0)) + ") ? -1 : 0;");
        }
    },

    /** Cuckoo hashing, one key: the key is in one of its {@code ways} candidate slots, or in the (normally empty) stash. */
    CUCKOO {
        @Override
        void emit(PipelineWriter w, int j, List<String> keys, String r, int ways, HashFunction hash) {
            String slotKeys = w.field("long[]", "ctx.joinTable(" + j + ").slotKeys", "j" + j + "_keys");
            String slotRows = w.field("int[]", "ctx.joinTable(" + j + ").slotRows", "j" + j + "_rows");
            String bits = w.field("int", "ctx.joinTable(" + j + ").bits", "j" + j + "_bits");
            String stash = w.field("int", "ctx.joinTable(" + j + ").stashSize", "j" + j + "_stash");
            String t = w.field("io.tessera.backend.jvm.join.JoinTable", "ctx.joinTable(" + j + ")", "j" + j + "_table");
            String s = w.name("slot");
            String k = keys.get(0);
            w.line("int " + r + " = -1;");
            w.line("int " + s + ";");
            for (int fn = 0; fn < ways; fn++) {
                String test = s + " = io.tessera.backend.jvm.lib.Hashing.cuckoo(" + k + ", " + fn + ", " + bits + ", " + (hash == HashFunction.MURMUR) + "); "
                        + "if (" + slotRows + "[" + s + "] >= 0 && " + slotKeys + "[" + s + "] == " + k + ") " + r + " = "
                        + slotRows + "[" + s + "];";
                w.line(fn == 0 ? test : "if (" + r + " < 0) { " + test + " }");
            }
            w.line("if (" + r + " < 0 && " + stash + " > 0) " + r + " = " + t + ".findStash1(" + k + ");");
        }
    },

    /**
     * Linear probing, one key: from the key's home slot to the key or an empty slot. The home slot is the key's
     * hash, or in a table the build made ranged ({@link JoinTable#ranged}) its offset in the keys' span scaled to
     * the slots, where a key outside the span has no slot.
     */
    LINEAR {
        @Override
        void emit(PipelineWriter w, int j, List<String> keys, String r, int ways, HashFunction hash) {
            String table = "ctx.joinTable(" + j + ")";
            String slotKeys = w.field("long[]", table + ".slotKeys", "j" + j + "_keys");
            String slotRows = w.field("int[]", table + ".slotRows", "j" + j + "_rows");
            String bits = w.field("int", table + ".bits", "j" + j + "_bits");
            String mask = w.field("int", table + ".mask", "j" + j + "_mask");
            String ranged = w.field("boolean", table + ".ranged", "j" + j + "_ranged");
            String lo = w.field("long", table + ".rangeLo", "j" + j + "_rangeLo");
            String span = w.field("long", table + ".rangeSpan", "j" + j + "_rangeSpan");
            String scale = w.field("long", table + ".rangeScale", "j" + j + "_rangeScale");
            String k = keys.get(0);
            String s = w.name("slot");
            String offset = w.name("offset");
            w.line("int " + r + " = -1;");
            w.line("// a ranged table: the key's offset in its keys' span, none outside it");
            w.line("final long " + offset + " = " + k + " - " + lo + ";");
            w.line("if (!" + ranged + " || Long.compareUnsigned(" + offset + ", " + span + ") <= 0) {");
            w.line("    for (int " + s + " = " + ranged + " ? io.tessera.backend.jvm.lib.Hashing.ranged(" + offset + ", "
                    + scale + ") : io.tessera.backend.jvm.lib.Hashing." + hash.method + "(" + k + ", " + bits + "); ; "
                    + s + " = (" + s + " + 1) & " + mask + ") {");
            w.line("        final int at = " + slotRows + "[" + s + "];");
            w.line("        if (at < 0 || " + slotKeys + "[" + s + "] == " + k + ") { " + r + " = at; break; }");
            w.line("    }");
            w.line("}");
        }
    },

    /** Two keys, either hashed layout: the table's own two-key lookup. */
    TWO_KEYS {
        @Override
        void emit(PipelineWriter w, int j, List<String> keys, String r, int ways, HashFunction hash) {
            String t = w.field("io.tessera.backend.jvm.join.JoinTable", "ctx.joinTable(" + j + ")", "j" + j + "_table");
            w.line("int " + r + " = " + t + ".find2(" + keys.get(0) + ", " + keys.get(1) + ")" + ";");
        }
    },

    /** Three keys or more: the table's lookup of a key array. */
    MANY_KEYS {
        @Override
        void emit(PipelineWriter w, int j, List<String> keys, String r, int ways, HashFunction hash) {
            String t = w.field("io.tessera.backend.jvm.join.JoinTable", "ctx.joinTable(" + j + ")", "j" + j + "_table");
            w.line("int " + r + " = " + t + ".find(new long[] {" + String.join(", ", keys) + "})" + ";");
        }
    };

    /**
     * Emits {@code int r = ...;}: the build row of join {@code j} with these encoded keys (long variables), or -1;
     * {@code ways}: the cuckoo layout's hash functions; {@code hash}: the table's hash function.
     */
    abstract void emit(PipelineWriter w, int j, List<String> keys, String r, int ways, HashFunction hash);

    /** The lookup of a table of this layout with this many keys. */
    static JoinLookup of(JoinTable.Layout layout, int keyCount) {
        if (layout == JoinTable.Layout.PERFECT) {
            return PERFECT;
        }
        if (keyCount == 1) {
            return layout.ways > 0 ? CUCKOO : LINEAR;
        }
        return keyCount == 2 ? TWO_KEYS : MANY_KEYS;
    }

    /**
     * The condition, without parentheses, that key {@code k} is in no row of perfect table {@code j}: outside its key
     * range, or its bit of {@link JoinTable#present} clear.
     */
    static String absent(PipelineWriter w, int j, String k) {
        String outside = outsideRange(w, j, k);
        String bits = w.field("long[]", "ctx.joinTable(" + j + ").present()", "j" + j + "_present");
        String min = min(w, j);
        return outside + " || (" + bits + "[(int) ((" + k + " - " + min + ") >>> 6)] & (1L << (" + k
                + " - " + min + "))) == 0";
    }

    /** The field of a perfect table's smallest key. */
    private static String min(PipelineWriter w, int j) {
        return w.field("long", "ctx.joinTable(" + j + ").min", "j" + j + "_min");
    }

    /**
     * The condition, without parentheses, that key {@code k} lies outside a perfect table's key range, its bounds read
     * as fields.
     */
    private static String outsideRange(PipelineWriter w, int j, String k) {
        String min = min(w, j);
        String max = w.field("long", "ctx.joinTable(" + j + ").max", "j" + j + "_max");
        return k + " < " + min + " || " + k + " > " + max;
    }
}
