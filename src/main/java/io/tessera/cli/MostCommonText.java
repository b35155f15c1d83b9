package io.tessera.cli;

import io.tessera.storage.ColumnStats;
import io.tessera.storage.DataType;
import io.tessera.storage.Histogram;
import io.tessera.storage.TypeKind;

import java.util.List;
import java.util.Locale;

/** A column's most common values in a line of {@code tessera describe}: {@code 'R' 25%, 'A' 25%, +3 more}. */
final class MostCommonText {

    /** Values shown; the others are counted. */
    static final int SHOWN = 3;
    /** Characters of a string shown before it is cut with an ellipsis. */
    static final int CHARS = 16;

    private MostCommonText() {
    }

    /** The first values with their share of the table's {@code rows}, "~" before a share estimated from a sample. */
    static String of(DataType type, Histogram h, long rows) {
        List<Histogram.MostCommon> mcv = h.mostCommon();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(SHOWN, mcv.size()); i++) {
            Histogram.MostCommon m = mcv.get(i);
            b.append(i == 0 ? "" : ", ").append(value(type, m.value())).append(' ')
                    .append(h.exact() ? "" : "~").append(percent(m.rows(), rows));
        }
        if (mcv.size() > SHOWN) {
            b.append(", +").append(mcv.size() - SHOWN).append(" more");
        }
        return b.toString();
    }

    private static String value(DataType type, Object raw) {
        if (type.kind() != TypeKind.VARCHAR) {
            return ColumnStats.format(type, raw);
        }
        String s = (String) raw;
        if (s.codePointCount(0, s.length()) > CHARS) {
            s = s.substring(0, s.offsetByCodePoints(0, CHARS)) + "…";
        }
        return "'" + s.replace("'", "''").replaceAll("\\p{Cntrl}", "?") + "'";
    }

    static String percent(long part, long whole) {
        double p = 100.0 * part / Math.max(1, whole);
        return String.format(Locale.ROOT, p >= 9.95 ? "%.0f%%" : "%.1f%%", p);
    }
}
