package io.tessera.data.parquet;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.ListCodec;
import io.tessera.storage.StructField;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.ListType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

import java.util.ArrayList;
import java.util.List;

/**
 * A LIST, STRUCT or MAP column written as DuckDB writes one (a MAP as {@code optional group m (MAP) { repeated group
 * key_value { required K key; optional V value } }}): a STRUCT as a group of its fields ({@code optional group s {
 * optional T a; ... }}), a LIST as the format's three levels ({@code optional group l (LIST) { repeated group list {
 * optional T element } }}), nested as the column's type nests them, each primitive a leaf with a chunk of its own.
 * A NULL value is a NULL at its parent's level in every leaf under it, an empty list one at the list's own level,
 * and each further element of a list repeats at the list's repetition level. Fields and elements are always
 * optional; the column is as its schema says.
 */
final class NestedExport {
    private NestedExport() {
    }

    /** The column as parquet-java's schema type. */
    static org.apache.parquet.schema.Type type(ColumnSchema c) {
        return type(c.name(), c.type(), c.nullable());
    }

    private static org.apache.parquet.schema.Type type(String name, DataType t, boolean nullable) {
        Repetition repetition = nullable ? Repetition.OPTIONAL : Repetition.REQUIRED;
        if (t.isMap()) {
            return Types.buildGroup(repetition).as(LogicalTypeAnnotation.mapType())
                    .addField(Types.repeatedGroup().addField(type("key", t.mapKey(), false))
                            .addField(type("value", t.mapValue(), true)).named("key_value"))
                    .named(name);
        }
        if (t.isList()) {
            return Types.buildGroup(repetition).as(LogicalTypeAnnotation.listType())
                    .addField(Types.repeatedGroup().addField(type("element", t.element(), true)).named("list"))
                    .named(name);
        }
        if (t.isStruct()) {
            Types.GroupBuilder<org.apache.parquet.schema.GroupType> g = Types.buildGroup(repetition);
            for (StructField f : t.fields()) {
                g = g.addField(type(f.name(), f.type(), true));
            }
            return g.named(name);
        }
        return ExportTypes.primitive(new ColumnSchema(name, t, nullable));
    }

    /** The column's schema elements in the footer, depth first (the leaves those without children). */
    static List<SchemaElement> elements(ColumnSchema c) {
        List<SchemaElement> out = new ArrayList<>();
        elements(c.name(), c.type(), c.nullable(), out);
        return out;
    }

    private static void elements(String name, DataType t, boolean nullable, List<SchemaElement> out) {
        if (!t.isNested()) {
            out.add(ExportTypes.element(new ColumnSchema(name, t, nullable)));
            return;
        }
        SchemaElement group = new SchemaElement(name);
        group.setRepetition_type(nullable ? FieldRepetitionType.OPTIONAL : FieldRepetitionType.REQUIRED);
        out.add(group);
        if (t.isMap()) {
            group.setNum_children(1);
            group.setConverted_type(ConvertedType.MAP);
            group.setLogicalType(LogicalType.MAP(new org.apache.parquet.format.MapType()));
            SchemaElement repeated = new SchemaElement("key_value");
            repeated.setRepetition_type(FieldRepetitionType.REPEATED);
            repeated.setNum_children(2);
            out.add(repeated);
            elements("key", t.mapKey(), false, out);
            elements("value", t.mapValue(), true, out);
        } else if (t.isList()) {
            group.setNum_children(1);
            group.setConverted_type(ConvertedType.LIST);
            group.setLogicalType(LogicalType.LIST(new ListType()));
            SchemaElement repeated = new SchemaElement("list");
            repeated.setRepetition_type(FieldRepetitionType.REPEATED);
            repeated.setNum_children(1);
            out.add(repeated);
            elements("element", t.element(), true, out);
        } else {
            group.setNum_children(t.fields().size());
            for (StructField f : t.fields()) {
                elements(f.name(), f.type(), true, out);
            }
        }
    }

    /** The primitive leaves under a value of type {@code t}. */
    private static int leaves(DataType t) {
        return t.isList() ? leaves(t.element())
                : t.isStruct() ? t.fields().stream().mapToInt(f -> leaves(f.type())).sum() : 1;
    }

    /** Writes one row's value (its encoding, or null for NULL) of a column of {@code c}'s schema. */
    static void write(List<ColumnWriter> leaves, ColumnSchema c, String encoded) {
        write(leaves, 0, c.type(), c.nullable(), encoded, 0, 0, 0);
    }

    /**
     * Writes a value of type {@code t} (its text, null for NULL) into the leaves from {@code first}: its parent
     * present at definition level {@code def}, its first entry at repetition level {@code rep}, {@code lists} lists
     * above it.
     */
    private static void write(List<ColumnWriter> leaves, int first, DataType t, boolean nullable, String text,
                              int rep, int def, int lists) {
        int own = def + (nullable ? 1 : 0);
        if (text == null) {
            for (int k = first; k < first + leaves(t); k++) {
                leaves.get(k).writeNull(rep, def);
            }
            return;
        }
        if (t.isStruct()) {
            List<String> texts = ListCodec.texts(text);
            int at = first;
            for (int k = 0; k < texts.size(); k++) {
                DataType f = t.fields().get(k).type();
                write(leaves, at, f, true, texts.get(k), rep, own, lists);
                at += leaves(f);
            }
        } else if (t.isList()) {
            List<String> texts = ListCodec.texts(text);
            if (texts.isEmpty()) {
                for (int k = first; k < first + leaves(t); k++) {
                    leaves.get(k).writeNull(rep, own);
                }
                return;
            }
            for (int k = 0; k < texts.size(); k++) {
                int r = k == 0 ? rep : lists + 1;
                if (t.isMap()) { // the entry is the repeated group itself: a required key, an optional value
                    List<String> kv = ListCodec.texts(texts.get(k));
                    write(leaves, first, t.mapKey(), false, kv.get(0), r, own + 1, lists + 1);
                    write(leaves, first + leaves(t.mapKey()), t.mapValue(), true, kv.get(1), r, own + 1, lists + 1);
                } else {
                    write(leaves, first, t.element(), true, texts.get(k), r, own + 1, lists + 1);
                }
            }
        } else {
            writeText(leaves.get(first), t, text, rep, own);
        }
    }

    /** Writes one element's (or struct field's) canonical text as a value of type {@code t}. */
    private static void writeText(ColumnWriter w, DataType t, String text, int repetition, int definition) {
        switch (t.kind()) {
            case INTEGER, DATE -> w.write((int) Long.parseLong(text), repetition, definition);
            case DECIMAL -> {
                if (ExportTypes.decimalAsInt32(t)) {
                    w.write((int) Long.parseLong(text), repetition, definition);
                } else {
                    w.write(Long.parseLong(text), repetition, definition);
                }
            }
            case BIGINT, TIMESTAMP, TIMESTAMP_TZ, TIME -> w.write(Long.parseLong(text), repetition, definition);
            case DOUBLE -> {
                if (t.isReal()) {
                    w.write((float) Double.parseDouble(text), repetition, definition);
                } else {
                    w.write(Double.parseDouble(text), repetition, definition);
                }
            }
            case BOOLEAN -> w.write(Boolean.parseBoolean(text), repetition, definition);
            case VARCHAR -> w.write(Binary.fromConstantByteArray(ExportTypes.bytes(text, t)), repetition, definition);
        }
    }
}
