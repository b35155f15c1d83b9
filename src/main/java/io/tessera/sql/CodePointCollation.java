package io.tessera.sql;

import io.tessera.storage.CodePointOrder;
import org.apache.calcite.sql.SqlCollation;

import java.nio.charset.StandardCharsets;
import java.text.CollationKey;
import java.text.Collator;
import java.util.Arrays;
import java.util.Locale;

/**
 * The collation of every character type and string literal Calcite sees: strings in UTF-8, ordered by code
 * point ({@link CodePointOrder}). Calcite orders two string constants with their collation's {@link Collator}
 * when it folds a comparison or merges ranges ({@code b >= 'ｚ' AND b <= '😀'}), and without one by UTF-16 code
 * units, which would fold such a range to FALSE.
 */
final class CodePointCollation extends SqlCollation {

    static final CodePointCollation IMPLICIT = new CodePointCollation(Coercibility.IMPLICIT);
    static final CodePointCollation COERCIBLE = new CodePointCollation(Coercibility.COERCIBLE);

    private static final Collator COLLATOR = new CodePointCollator();

    private CodePointCollation(Coercibility coercibility) {
        super(coercibility, Locale.ROOT, StandardCharsets.UTF_8, "codepoint");
    }

    /** This collation with {@code c}'s coercibility, for a collation without a collator of its own. */
    static SqlCollation of(SqlCollation c) {
        if (c == null || c instanceof CodePointCollation || c.getCollator() != null) {
            return c;
        }
        return switch (c.getCoercibility()) {
            case IMPLICIT -> IMPLICIT;
            case COERCIBLE -> COERCIBLE;
            default -> c;
        };
    }

    @Override
    public Collator getCollator() {
        return COLLATOR;
    }

    private static final class CodePointCollator extends Collator {
        @Override
        public int compare(String a, String b) {
            return CodePointOrder.compare(a, b);
        }

        @Override
        public CollationKey getCollationKey(String source) {
            return source == null ? null : new Key(source);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof CodePointCollator;
        }

        @Override
        public int hashCode() {
            return CodePointCollator.class.hashCode();
        }
    }

    /** A key whose bytes are the string's UTF-8, which compare unsigned in code point order. */
    private static final class Key extends CollationKey {
        Key(String source) {
            super(source);
        }

        @Override
        public int compareTo(CollationKey other) {
            return CodePointOrder.compare(getSourceString(), other.getSourceString());
        }

        @Override
        public byte[] toByteArray() {
            return getSourceString().getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && getSourceString().equals(k.getSourceString());
        }

        @Override
        public int hashCode() {
            return getSourceString().hashCode();
        }
    }
}
