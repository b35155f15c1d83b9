package io.tessera.data.parquet;

import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Type;
import org.apache.parquet.schema.PrimitiveType;

/**
 * One top-level column of a Parquet file, as Tessera reads it: its values' kind (from the physical type and its
 * logical or converted annotation), its scale when DECIMAL, whether it may hold NULL, and the descriptor that
 * parquet-java's column reader decodes it by. A column Tessera cannot hold has a reason instead of a kind.
 */
record SourceColumn(String name, int index, Kind kind, int scale, boolean optional, ColumnDescriptor descriptor,
                    String reason, DataType natural, boolean list, java.util.List<SourceColumn> fields) {

    SourceColumn(String name, int index, Kind kind, int scale, boolean optional, ColumnDescriptor descriptor,
                 String reason, DataType natural, boolean list) {
        this(name, index, kind, scale, optional, descriptor, reason, natural, list, null);
    }

    /** Whether this is a STRUCT (a group of fields, each in {@link #fields}, each primitive with its own chunk). */
    boolean struct() {
        return fields != null && !list;
    }

    /**
     * Whether this is read from several chunks or levels of nesting ({@link NestedChunks}): a STRUCT, or a LIST of
     * STRUCTs (its element the one field), each field in turn a primitive, a STRUCT or a LIST.
     */
    boolean nested() {
        return fields != null;
    }

    /** What the values of a column are, whatever their physical encoding. */
    enum Kind {
        /** Signed integers of up to 64 bits (INT32 or INT64). */
        INTEGER,
        /** INT32 holding an unsigned 32-bit integer. */
        UNSIGNED_INT32,
        /** INT64 holding an unsigned 64-bit integer. */
        UNSIGNED_INT64,
        /** An unscaled integer of {@code scale} (INT32, INT64, or big-endian bytes). */
        DECIMAL,
        FLOATING,
        /** Days since 1970-01-01 (INT32). */
        DATE,
        /**
         * A point in time since 1970-01-01 (INT64 annotated TIMESTAMP): {@code scale} is its unit as fractional
         * digits of a second (3 milliseconds, 6 microseconds, 9 nanoseconds). INT96 (the legacy nanoseconds of a
         * Julian day) has scale -1.
         */
        TIMESTAMP,
        /**
         * An instant: a TIMESTAMP adjusted to UTC ({@code isAdjustedToUTC}, DuckDB's TIMESTAMP WITH TIME ZONE), its
         * {@code scale} as TIMESTAMP's.
         */
        INSTANT,
        /**
         * A time of day since midnight (INT32 of milliseconds, INT64 of microseconds or nanoseconds, annotated TIME):
         * {@code scale} is its unit as fractional digits of a second, as TIMESTAMP's.
         */
        TIME,
        BOOLEAN,
        /** UTF-8 text (BYTE_ARRAY annotated STRING, ENUM or JSON). */
        STRING,
        /** Bytes (BYTE_ARRAY without an annotation): a BLOB. */
        BYTES,
        /** A UUID: FIXED_LEN_BYTE_ARRAY(16) annotated UUID. */
        UUID,
        /**
         * An INTERVAL: FIXED_LEN_BYTE_ARRAY(12) with converted type INTERVAL, three little-endian 32-bit integers
         * (months, days, milliseconds), as DuckDB writes one.
         */
        INTERVAL
    }

    /** Reads a leaf of the schema; {@code index} is its position among the file's columns. */
    static SourceColumn of(SchemaElement e, int index) {
        String name = e.getName();
        boolean optional = e.getRepetition_type() != FieldRepetitionType.REQUIRED;
        if (e.isSetNum_children() && e.getNum_children() > 0 || !e.isSetType()) {
            String annotation = annotation(e);
            return refused(name, index, "a nested (group) column" + (annotation == null ? ""
                    : " annotated " + annotation) + ", which Tessera cannot hold");
        }
        if (e.getRepetition_type() == FieldRepetitionType.REPEATED) {
            return refused(name, index, "a repeated (list) column, which Tessera cannot hold");
        }
        PrimitiveType.PrimitiveTypeName physical = e.getType() == Type.BYTE_ARRAY
                ? PrimitiveType.PrimitiveTypeName.BINARY : PrimitiveType.PrimitiveTypeName.valueOf(e.getType().name());
        PrimitiveType type = new PrimitiveType(optional ? org.apache.parquet.schema.Type.Repetition.OPTIONAL
                : org.apache.parquet.schema.Type.Repetition.REQUIRED, physical, e.isSetType_length() ? e.getType_length() : 0,
                name);
        ColumnDescriptor d = new ColumnDescriptor(new String[] {name}, type, 0, optional ? 1 : 0);
        String annotation = annotation(e);
        Kind kind = null;
        int scale = 0;
        LogicalType l = e.isSetLogicalType() ? e.getLogicalType() : null;
        ConvertedType c = e.isSetConverted_type() ? e.getConverted_type() : null;
        if (l != null && l.isSetDECIMAL() || l == null && c == ConvertedType.DECIMAL) {
            scale = l != null ? l.getDECIMAL().getScale() : e.getScale();
            if (e.getType() == Type.INT32 || e.getType() == Type.INT64 || e.getType() == Type.BYTE_ARRAY
                    || e.getType() == Type.FIXED_LEN_BYTE_ARRAY) {
                kind = Kind.DECIMAL;
            }
        } else if (l != null && l.isSetDATE() || l == null && c == ConvertedType.DATE) {
            kind = e.getType() == Type.INT32 ? Kind.DATE : null;
        } else if (l != null && l.isSetTIMESTAMP() || l == null && (c == ConvertedType.TIMESTAMP_MILLIS
                || c == ConvertedType.TIMESTAMP_MICROS)) {
            scale = l == null ? (c == ConvertedType.TIMESTAMP_MILLIS ? 3 : 6)
                    : l.getTIMESTAMP().getUnit().isSetMILLIS() ? 3 : l.getTIMESTAMP().getUnit().isSetMICROS() ? 6 : 9;
            boolean utc = l != null && l.getTIMESTAMP().isIsAdjustedToUTC();
            kind = e.getType() != Type.INT64 ? null : utc ? Kind.INSTANT : Kind.TIMESTAMP;
        } else if (l != null && l.isSetTIME() || l == null && (c == ConvertedType.TIME_MILLIS
                || c == ConvertedType.TIME_MICROS)) {
            scale = l == null ? (c == ConvertedType.TIME_MILLIS ? 3 : 6)
                    : l.getTIME().getUnit().isSetMILLIS() ? 3 : l.getTIME().getUnit().isSetMICROS() ? 6 : 9;
            // a time adjusted to UTC is DuckDB's TIME WITH TIME ZONE, which Tessera does not hold
            boolean utc = l != null && l.getTIME().isIsAdjustedToUTC();
            kind = !utc && e.getType() == (scale == 3 ? Type.INT32 : Type.INT64) ? Kind.TIME : null;
        } else if (e.getType() == Type.INT96 && annotation == null) {
            scale = -1;
            kind = Kind.TIMESTAMP;
        } else if (l != null && l.isSetINTEGER() || l == null && c != null && c.name().matches("U?INT_\\d+")) {
            boolean signed = l != null ? l.getINTEGER().isIsSigned() : c.name().startsWith("INT_");
            int bits = l != null ? l.getINTEGER().getBitWidth() : Integer.parseInt(c.name().replaceAll("\\D", ""));
            if (e.getType() == Type.INT32 || e.getType() == Type.INT64) {
                kind = signed || bits < 32 ? Kind.INTEGER
                        : e.getType() == Type.INT32 ? Kind.UNSIGNED_INT32 : Kind.UNSIGNED_INT64;
            }
        } else if (l != null && (l.isSetSTRING() || l.isSetENUM() || l.isSetJSON())
                || l == null && (c == ConvertedType.UTF8 || c == ConvertedType.ENUM || c == ConvertedType.JSON)) {
            kind = e.getType() == Type.BYTE_ARRAY ? Kind.STRING : null;
        } else if (l == null && c == ConvertedType.INTERVAL) {
            kind = e.getType() == Type.FIXED_LEN_BYTE_ARRAY && e.getType_length() == 12 ? Kind.INTERVAL : null;
        } else if (l != null && l.isSetUUID()) {
            kind = e.getType() == Type.FIXED_LEN_BYTE_ARRAY && e.getType_length() == 16 ? Kind.UUID : null;
        } else if (annotation == null) {
            kind = switch (e.getType()) {
                case INT32, INT64 -> Kind.INTEGER;
                case FLOAT, DOUBLE -> Kind.FLOATING;
                case BOOLEAN -> Kind.BOOLEAN;
                case BYTE_ARRAY -> Kind.BYTES;
                default -> null;
            };
        }
        if (kind == null) {
            String what = e.getType() == Type.INT96 ? "INT96 (a legacy timestamp)"
                    : e.getType() == Type.BYTE_ARRAY && annotation == null ? "BYTE_ARRAY without a string annotation (binary)"
                    : e.getType() + (annotation == null ? "" : " annotated " + annotation)
                    + (l != null && l.isSetTIME() && l.getTIME().isIsAdjustedToUTC() ? " adjusted to UTC (a TIME WITH"
                    + " TIME ZONE)" : "");
            return refused(name, index, what + ", a type Tessera cannot hold");
        }
        return new SourceColumn(name, index, kind, scale, optional, d, null, natural(kind, e, scale), false);
    }

    private static SourceColumn refused(String name, int index, String reason) {
        return new SourceColumn(name, index, null, 0, true, null, reason, null, false);
    }

    /**
     * Reads the top-level field at {@code schema[i]} (its first leaf the file's column {@code index}): a LIST in the
     * three levels the format specifies ({@code <optional|required> group name (LIST) { repeated group list {
     * <optional|required> T element } }}) of a primitive type or of a STRUCT; a group of fields as a STRUCT
     * ({@link #struct}), its fields primitives, STRUCTs or LISTs, nested to any depth; any other field as
     * {@link #of(SchemaElement, int)} reads it. A LIST's element may be a LIST in turn, to any depth.
     */
    static SourceColumn of(java.util.List<SchemaElement> schema, int i, int index) {
        return node(schema, i, index, new String[0], 0, 0);
    }

    /**
     * The field at {@code schema[i]} under a path of {@code prefix}, whose parent is present at definition level
     * {@code def} and repeated at level {@code rep}; a shape Tessera cannot hold is refused naming what it holds.
     */
    private static SourceColumn node(java.util.List<SchemaElement> schema, int i, int index, String[] prefix,
                                     int rep, int def) {
        SchemaElement top = schema.get(i);
        String[] path = java.util.Arrays.copyOf(prefix, prefix.length + 1);
        path[prefix.length] = top.getName();
        boolean optional = top.getRepetition_type() != FieldRepetitionType.REQUIRED;
        boolean annotated = top.isSetLogicalType() && top.getLogicalType().isSetLIST()
                || top.isSetConverted_type() && top.getConverted_type() == ConvertedType.LIST;
        if (top.isSetLogicalType() && top.getLogicalType().isSetMAP() || top.isSetConverted_type()
                && (top.getConverted_type() == ConvertedType.MAP || top.getConverted_type() == ConvertedType.MAP_KEY_VALUE)) {
            return map(schema, i, index, path, rep, def + (optional ? 1 : 0));
        }
        if (!annotated && top.isSetNum_children() && top.getNum_children() > 0
                && top.getRepetition_type() != FieldRepetitionType.REPEATED && !top.isSetLogicalType()
                && !top.isSetConverted_type()) {
            return struct(schema, i, index, path, rep, def + (optional ? 1 : 0));
        }
        if (!annotated || top.getNum_children() != 1 || i + 2 >= schema.size()) {
            return leaf(top, index, path, rep, def);
        }
        SchemaElement repeated = schema.get(i + 1);
        SchemaElement leaf = schema.get(i + 2);
        if (repeated.getRepetition_type() != FieldRepetitionType.REPEATED || repeated.getNum_children() != 1
                || leaf.getRepetition_type() == FieldRepetitionType.REPEATED) {
            return refused(top.getName(), index, "a LIST of nested values, which Tessera does not read from Parquet");
        }
        String[] elementPath = java.util.Arrays.copyOf(path, path.length + 1);
        elementPath[path.length] = repeated.getName();
        int present = def + (optional ? 1 : 0) + 1; // the list holds an element
        if (leaf.isSetNum_children() && leaf.getNum_children() > 0 || !leaf.isSetType()) {
            String annotation = annotation(leaf);
            if (annotation != null && !annotation.equals("LIST") && !annotation.equals("MAP")
                    && !annotation.equals("MAP_KEY_VALUE")) { // lists hold primitives, STRUCTs, LISTs and MAPs
                return refused(top.getName(), index, "a LIST of groups annotated " + annotation
                        + ", which Tessera's types cannot hold");
            }
            SourceColumn element = node(schema, i + 2, index, elementPath, rep + 1, present);
            if (element.reason() != null) {
                return refused(top.getName(), index, "a LIST of " + element.reason());
            }
            return new SourceColumn(top.getName(), index, null, 0, optional, null, null,
                    DataType.list(element.natural()), true, java.util.List.of(element));
        }
        SourceColumn element = of(leaf, index);
        if (element.reason() != null || element.natural() == null) {
            return refused(top.getName(), index, "a LIST of " + (element.reason() != null ? element.reason()
                    : element.describe() + ", a type Tessera cannot hold"));
        }
        if (element.kind() == Kind.BYTES || element.kind() == Kind.UUID || element.scale() < 0) {
            return refused(top.getName(), index, "a LIST of " + element.describe() + ", which Tessera's lists cannot"
                    + " hold");
        }
        boolean elementOptional = leaf.getRepetition_type() != FieldRepetitionType.REQUIRED;
        String[] leafPath = java.util.Arrays.copyOf(elementPath, elementPath.length + 1);
        leafPath[elementPath.length] = leaf.getName();
        ColumnDescriptor d = new ColumnDescriptor(leafPath, element.descriptor().getPrimitiveType(), rep + 1,
                present + (elementOptional ? 1 : 0));
        return new SourceColumn(top.getName(), index, element.kind(), element.scale(), optional, d, null,
                DataType.list(element.natural()), true);
    }

    /**
     * A MAP, {@code <optional|required> group m (MAP) { repeated group key_value { required K key; optional V value; }
     * }} (as DuckDB writes one), present at definition level {@code def}: a LIST whose element is the repeated group
     * itself, a STRUCT of the key and the value that is never NULL (an empty map the map's own level), as Tessera
     * holds a map. Its key and value may be what a struct's fields may be.
     */
    private static SourceColumn map(java.util.List<SchemaElement> schema, int i, int index, String[] path, int rep,
                                    int def) {
        SchemaElement top = schema.get(i);
        SchemaElement entries = i + 1 < schema.size() ? schema.get(i + 1) : null;
        if (top.getNum_children() != 1 || entries == null || entries.getRepetition_type() != FieldRepetitionType.REPEATED
                || !entries.isSetNum_children() || entries.getNum_children() != 2) {
            return refused(top.getName(), index, "a MAP group without its repeated group of a key and a value, which"
                    + " Tessera does not read from Parquet");
        }
        String[] entryPath = java.util.Arrays.copyOf(path, path.length + 1);
        entryPath[path.length] = entries.getName();
        SourceColumn entry = struct(schema, i + 1, index, entryPath, rep + 1, def + 1);
        if (entry.reason() != null) {
            // the entry's reason names its field: "a MAP whose key holds ..."
            return refused(top.getName(), index, entry.reason().replaceFirst("^a STRUCT whose field ", "a MAP whose "));
        }
        java.util.List<io.tessera.storage.StructField> kv = entry.natural().fields();
        SourceColumn element = new SourceColumn(entry.name(), index, null, 0, false, null, null, entry.natural(),
                false, entry.fields());
        boolean optional = top.getRepetition_type() != FieldRepetitionType.REQUIRED;
        return new SourceColumn(top.getName(), index, null, 0, optional, null, null,
                DataType.map(kv.get(0).type(), kv.get(1).type()), true, java.util.List.of(element));
    }

    /** A primitive field at {@code path}: {@link #of(SchemaElement, int)} with the levels of where it sits. */
    private static SourceColumn leaf(SchemaElement e, int index, String[] path, int rep, int def) {
        SourceColumn f = of(e, index);
        if (f.reason() != null || path.length == 1) {
            return f;
        }
        ColumnDescriptor d = new ColumnDescriptor(path, f.descriptor().getPrimitiveType(), rep,
                def + (f.optional() ? 1 : 0));
        return new SourceColumn(f.name(), index, f.kind(), f.scale(), f.optional(), d, null, f.natural(), false);
    }

    /**
     * A group of fields, {@code <optional|required> group s { <optional|required> T a; ... }} (as DuckDB writes a
     * STRUCT), present at definition level {@code def}, as a STRUCT column: each primitive field a leaf of its own,
     * read from its own chunk, a definition level below the group's own a NULL struct, below the field's a NULL
     * field. A field may be a STRUCT or a LIST in turn; a repeated field (a list without its LIST group) or a field
     * of a type a struct cannot hold is refused naming the field.
     */
    private static SourceColumn struct(java.util.List<SchemaElement> schema, int i, int index, String[] path, int rep,
                                       int def) {
        SchemaElement top = schema.get(i);
        boolean optional = top.getRepetition_type() != FieldRepetitionType.REQUIRED;
        java.util.List<SourceColumn> fields = new java.util.ArrayList<>();
        java.util.List<io.tessera.storage.StructField> types = new java.util.ArrayList<>();
        int at = i + 1;
        int leafIndex = index;
        for (int k = 0; k < top.getNum_children(); k++) {
            if (at >= schema.size()) {
                return refused(top.getName(), index, "a broken group (fewer fields than it says)");
            }
            SchemaElement child = schema.get(at);
            if (child.getRepetition_type() == FieldRepetitionType.REPEATED) {
                return refused(top.getName(), index, "a STRUCT whose field " + child.getName() + " is repeated (a"
                        + " list without the format's LIST group), which Tessera does not read from Parquet");
            }
            SourceColumn f = node(schema, at, leafIndex, path, rep, def);
            if (f.reason() != null) {
                return refused(top.getName(), index, "a STRUCT whose field " + child.getName() + " holds "
                        + f.reason());
            }
            if (f.natural() == null || f.kind() == Kind.BYTES || f.kind() == Kind.UUID
                    || f.kind() == Kind.INTERVAL || f.scale() < 0) {
                return refused(top.getName(), index, "a STRUCT whose field " + child.getName() + " holds "
                        + f.describe() + ", which Tessera's structs cannot hold");
            }
            fields.add(f);
            types.add(new io.tessera.storage.StructField(child.getName(), f.natural()));
            int size = subtree(schema, at);
            leafIndex += leaves(schema, at, size);
            at += size;
        }
        return new SourceColumn(top.getName(), index, null, 0, optional, null, null, DataType.struct(types), false,
                java.util.List.copyOf(fields));
    }

    /** Elements in the subtree rooted at {@code schema[i]}, itself included. */
    private static int subtree(java.util.List<SchemaElement> schema, int i) {
        int n = 1;
        int children = schema.get(i).isSetNum_children() ? schema.get(i).getNum_children() : 0;
        for (int c = 0; c < children && i + n < schema.size(); c++) {
            n += subtree(schema, i + n);
        }
        return n;
    }

    private static int leaves(java.util.List<SchemaElement> schema, int from, int n) {
        int leaves = 0;
        for (int k = from; k < from + n && k < schema.size(); k++) {
            if (!schema.get(k).isSetNum_children() || schema.get(k).getNum_children() == 0) {
                leaves++;
            }
        }
        return leaves;
    }

    /** The primitive leaves under this column, in the file's order (itself when it is one). */
    java.util.List<SourceColumn> leaves() {
        if (fields == null) {
            return java.util.List.of(this);
        }
        java.util.List<SourceColumn> out = new java.util.ArrayList<>();
        for (SourceColumn f : fields) {
            out.addAll(f.leaves());
        }
        return out;
    }

    /**
     * The type a table made from the file gives this column, as DuckDB reads it where Tessera has the type: INT32
     * INTEGER, INT64 BIGINT, 8 and 16 bits TINYINT and SMALLINT, an unsigned 32-bit integer BIGINT, FLOAT REAL and
     * DOUBLE DOUBLE, a DECIMAL wider than 18 digits DOUBLE; null where no Tessera type holds every value (unsigned 64-bit).
     */
    private static DataType natural(Kind kind, SchemaElement e, int scale) {
        return switch (kind) {
            case INTEGER -> {
                int bits = e.isSetLogicalType() && e.getLogicalType().isSetINTEGER()
                        ? e.getLogicalType().getINTEGER().getBitWidth()
                        : e.isSetConverted_type() && e.getConverted_type().name().matches("U?INT_\\d+")
                        ? Integer.parseInt(e.getConverted_type().name().replaceAll("\\D", "")) : 0;
                boolean unsigned = e.isSetLogicalType() && e.getLogicalType().isSetINTEGER()
                        ? !e.getLogicalType().getINTEGER().isIsSigned()
                        : e.isSetConverted_type() && e.getConverted_type().name().startsWith("UINT");
                if (unsigned) {
                    bits *= 2; // an unsigned value needs the next wider signed type
                }
                yield bits == 8 ? DataType.TINYINT : bits == 16 ? DataType.SMALLINT
                        : e.getType() == Type.INT64 ? DataType.BIGINT : DataType.INTEGER;
            }
            case UNSIGNED_INT32 -> DataType.BIGINT;
            case UNSIGNED_INT64 -> null;
            case DECIMAL -> {
                int precision = e.isSetLogicalType() && e.getLogicalType().isSetDECIMAL()
                        ? e.getLogicalType().getDECIMAL().getPrecision() : e.getPrecision();
                yield precision >= 1 && precision <= DataType.MAX_DECIMAL_PRECISION && scale <= precision
                        ? DataType.decimal(precision, scale) : DataType.DOUBLE;
            }
            case FLOATING -> e.getType() == Type.FLOAT ? DataType.REAL : DataType.DOUBLE;
            case DATE -> DataType.DATE;
            case TIMESTAMP -> DataType.TIMESTAMP;
            case INSTANT -> DataType.TIMESTAMP_TZ;
            case TIME -> DataType.TIME;
            case BOOLEAN -> DataType.BOOLEAN;
            case STRING -> DataType.VARCHAR;
            case BYTES -> DataType.BLOB;
            case UUID -> DataType.UUID;
            case INTERVAL -> DataType.INTERVAL;
        };
    }

    /** The logical (or else converted) type annotation, as a word; null when there is none. */
    private static String annotation(SchemaElement e) {
        if (e.isSetLogicalType()) {
            LogicalType l = e.getLogicalType();
            return l.getSetField() == null ? null : l.getSetField().getFieldName();
        }
        return e.isSetConverted_type() ? e.getConverted_type().name() : null;
    }

    /** Why the values of this column cannot be stored in a column of type {@code target}; null when they can. */
    String mismatch(DataType target) {
        if (reason != null) {
            return reason;
        }
        if (struct() || target.isStruct()) {
            return struct() && target.isStruct() && fitsStruct(target) ? null : "the file holds "
                    + (struct() ? natural.toString() : describe()) + ", which a " + target + " column cannot take";
        }
        if (list || target.isList()) {
            boolean same = list && target.isList() && target.isMap() == natural.isMap()
                    && (target.element().equals(natural.element())
                    || natural.element().kind() == TypeKind.INTEGER && target.element().kind() == TypeKind.BIGINT);
            return same ? null : "the file holds " + (list ? natural.toString() : describe()) + ", which a " + target
                    + " column cannot take";
        }
        TypeKind t = target.kind();
        boolean fits = switch (kind) {
            case INTEGER, UNSIGNED_INT32, UNSIGNED_INT64 -> t == TypeKind.INTEGER || t == TypeKind.BIGINT
                    || t == TypeKind.DECIMAL || t == TypeKind.DOUBLE;
            case DECIMAL -> t == TypeKind.DECIMAL || t == TypeKind.DOUBLE;
            case FLOATING -> t == TypeKind.DOUBLE;
            case DATE -> t == TypeKind.DATE || t == TypeKind.TIMESTAMP || t == TypeKind.TIMESTAMP_TZ;
            // the same microseconds: a TIMESTAMP's taken as UTC's, an instant's as UTC's clock
            case TIMESTAMP, INSTANT -> t == TypeKind.TIMESTAMP || t == TypeKind.TIMESTAMP_TZ;
            case TIME -> t == TypeKind.TIME;
            case BOOLEAN -> t == TypeKind.BOOLEAN;
            case STRING -> target.isText() && !target.isInterval();
            case BYTES -> target.isBlob();
            case UUID -> target.isUuid();
            case INTERVAL -> target.isInterval();
        };
        return fits ? null : "the file holds " + describe() + ", which a " + target + " column cannot take";
    }

    /** Whether the struct's fields are the target's, by name and in order, each of its type (or INTEGER to BIGINT). */
    private boolean fitsStruct(DataType target) {
        java.util.List<io.tessera.storage.StructField> from = natural.fields();
        java.util.List<io.tessera.storage.StructField> to = target.fields();
        if (from.size() != to.size()) {
            return false;
        }
        for (int k = 0; k < from.size(); k++) {
            DataType a = from.get(k).type();
            DataType b = to.get(k).type();
            if (!from.get(k).name().equalsIgnoreCase(to.get(k).name())
                    || !a.equals(b) && !(a.kind() == TypeKind.INTEGER && b.kind() == TypeKind.BIGINT)) {
                return false;
            }
        }
        return true;
    }

    /** The column's type as a message names it. */
    String describe() {
        return switch (kind) {
            case DECIMAL -> "DECIMAL with scale " + scale;
            case UNSIGNED_INT32 -> "unsigned 32-bit integers";
            case UNSIGNED_INT64 -> "unsigned 64-bit integers";
            case INTEGER -> "integers";
            case FLOATING -> "floating-point numbers";
            case TIMESTAMP -> "TIMESTAMP";
            case INSTANT -> "TIMESTAMP WITH TIME ZONE";
            case TIME -> "TIME";
            default -> kind.name();
        };
    }
}
