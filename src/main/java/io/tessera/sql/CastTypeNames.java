package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCollectionTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlMapTypeNameSpec;
import org.apache.calcite.sql.SqlRowTypeNameSpec;
import org.apache.calcite.sql.SqlTypeNameSpec;

import java.util.Locale;

/** A CAST's type in a result column's name, as DuckDB spells it there ({@link ColumnNames}). */
final class CastTypeNames {

    /** The statement's text, where a type's name keeps the words DuckDB keeps as written. */
    private final WrittenWords written;

    CastTypeNames(WrittenWords written) {
        this.written = written;
    }

    /**
     * DuckDB's spelling of a CAST's type: the types of its grammar in capitals (INTEGER, BIGINT, SMALLINT, BOOLEAN,
     * DECIMAL, FLOAT, VARCHAR, INTERVAL, STRUCT(...), MAP(...)), the others as names (double, tinyint, date).
     */
    String name(SqlDataTypeSpec spec) {
        return typeName(spec.getTypeNameSpec());
    }

    private String typeName(SqlTypeNameSpec spec) {
        if (spec instanceof SqlCollectionTypeNameSpec list) {
            return typeName(list.getElementTypeName()) + "[]";
        }
        if (spec instanceof SqlRowTypeNameSpec struct) {
            StringBuilder sb = new StringBuilder("STRUCT(");
            for (int i = 0; i < struct.getFieldNames().size(); i++) {
                sb.append(i > 0 ? ", " : "").append(DuckDbKeywords.quoted(struct.getFieldNames().get(i).getSimple())).append(' ')
                        .append(name(struct.getFieldTypes().get(i)));
            }
            return sb.append(')').toString();
        }
        if (spec instanceof SqlMapTypeNameSpec map) {
            return "MAP(" + name(map.getKeyType()) + ", " + name(map.getValType()) + ")";
        }
        if (spec instanceof IntervalTypeName) {
            return "INTERVAL";
        }
        if (!(spec instanceof SqlBasicTypeNameSpec basic)) {
            String name = spec.getTypeName().toString();
            String word = written.at(spec.getParserPos(), name);
            return word != null ? word : name;
        }
        String name = basic.getTypeName().getSimple().toUpperCase(Locale.ROOT);
        int precision = basic.getPrecision();
        int scale = basic.getScale();
        String floatBits = floatBits(basic);
        if (floatBits != null) {
            return floatBits;
        }
        return switch (name) {
            case "DECIMAL", "NUMERIC", "DEC" -> precision < 0 ? "DECIMAL"
                    : "DECIMAL(" + precision + ", " + Math.max(scale, 0) + ")";
            case "VARCHAR", "CHAR", "CHARACTER" -> precision < 0 ? "VARCHAR" : "VARCHAR(" + precision + ")";
            case "DOUBLE" -> written.spans(basic.getParserPos(), "DOUBLE PRECISION") ? "DOUBLE"
                    : spelt(name, written.at(basic.getParserPos(), name));
            case "TIMESTAMP_TZ" -> {
                String word = written.at(basic.getParserPos(), "timestamptz");
                yield word != null ? word : "TIMESTAMP WITH TIME ZONE";
            }
            default -> spelt(name, written.at(basic.getParserPos(), name));
        };
    }

    /**
     * DuckDB's FLOAT(p) as it names it ({@code FLOAT(25)}, a DOUBLE), where the parser made a REAL or DOUBLE of it;
     * null for any other type.
     */
    private String floatBits(SqlBasicTypeNameSpec basic) {
        String text = written.span(basic.getParserPos());
        if (text == null || !text.regionMatches(true, 0, "FLOAT", 0, 5) || text.indexOf('(') < 0) {
            return null;
        }
        return "FLOAT(" + text.substring(text.indexOf('(') + 1, text.lastIndexOf(')')).strip() + ")";
    }

    /**
     * A type's name as DuckDB spells it in a column's name: the types its grammar has as keywords in their capitals
     * (INT as INTEGER, REAL as FLOAT), any other as written ({@code word}; lower case where the text is not known).
     */
    static String spelt(String name, String word) {
        String upper = name.toUpperCase(Locale.ROOT);
        return switch (upper) {
            case "INTEGER", "BIGINT", "SMALLINT", "BOOLEAN", "TIMESTAMP", "TIME", "INTERVAL" -> upper;
            case "INT" -> "INTEGER";
            case "FLOAT", "REAL" -> "FLOAT";
            default -> word != null ? word : upper.toLowerCase(Locale.ROOT);
        };
    }
}
