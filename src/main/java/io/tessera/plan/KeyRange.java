package io.tessera.plan;

import io.tessera.storage.Column;

/** A known inclusive range of an integer-valued key (from column statistics or a dictionary's size). */
public record KeyRange(long min, long max) {
    public long size() {
        return max - min + 1;
    }

    /** The known range of an integer-valued expression: a stored column's min and max, or a dictionary's codes. */
    public static KeyRange of(Expr e) {
        if (!(e instanceof Expr.Ref r) || r.slot().origin() == null) {
            return null;
        }
        Column c = r.slot().origin();
        switch (c.type().kind()) {
            case INTEGER, DATE, BIGINT, TIMESTAMP, TIMESTAMP_TZ, TIME, BOOLEAN -> {
                if (!c.stats().hasRange()) {
                    return null;
                }
                return new KeyRange(c.stats().minLong(), c.stats().maxLong());
            }
            case VARCHAR -> {
                int n = c.dictionary().size();
                return n == 0 ? null : new KeyRange(0, n - 1);
            }
            default -> {
                return null;
            }
        }
    }
}
