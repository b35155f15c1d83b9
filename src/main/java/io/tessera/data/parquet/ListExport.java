package io.tessera.data.parquet;

import io.tessera.storage.Column;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.ListCodec;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.ListType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.Types;

import java.util.List;

/**
 * A LIST column written as the three levels of the format's LIST (as DuckDB writes one):
 * {@code optional group l (LIST) { repeated group list { optional T element } }}. A NULL list is a NULL at the list's
 * level, an empty list a NULL at the repeated level, a NULL element one at the element's; each further element of a
 * row repeats at level 1.
 */
final class ListExport {
    private ListExport() {
    }

    /** The element as a column of its own (always nullable), which the scalar export types describe. */
    private static ColumnSchema element(ColumnSchema c) {
        return new ColumnSchema("element", c.type().element(), true);
    }

    /** The column as parquet-java's schema type. */
    static org.apache.parquet.schema.Type field(ColumnSchema c) {
        return Types.buildGroup(c.nullable() ? org.apache.parquet.schema.Type.Repetition.OPTIONAL
                        : org.apache.parquet.schema.Type.Repetition.REQUIRED)
                .as(LogicalTypeAnnotation.listType())
                .addField(Types.repeatedGroup().addField(ExportTypes.primitive(element(c))).named("list"))
                .named(c.name());
    }

    /** The column's three schema elements in the footer, the list's first, the element's (the leaf) last. */
    static List<SchemaElement> elements(ColumnSchema c) {
        SchemaElement list = new SchemaElement(c.name());
        list.setRepetition_type(c.nullable() ? FieldRepetitionType.OPTIONAL : FieldRepetitionType.REQUIRED);
        list.setNum_children(1);
        list.setConverted_type(ConvertedType.LIST);
        list.setLogicalType(LogicalType.LIST(new ListType()));
        SchemaElement repeated = new SchemaElement("list");
        repeated.setRepetition_type(FieldRepetitionType.REPEATED);
        repeated.setNum_children(1);
        return List.of(list, repeated, ExportTypes.element(element(c)));
    }

    /** Writes row {@code r}'s list. */
    static void write(ColumnWriter w, Column c, long r) {
        int listDefined = c.schema().nullable() ? 1 : 0;
        if (c.isNull(r)) {
            w.writeNull(0, 0);
            return;
        }
        List<String> texts = ListCodec.texts(c.dictionary().value(c.getInt(r)));
        if (texts.isEmpty()) {
            w.writeNull(0, listDefined);
            return;
        }
        DataType t = c.type().element();
        int present = listDefined + 2;
        for (int k = 0; k < texts.size(); k++) {
            int repetition = k == 0 ? 0 : 1;
            String text = texts.get(k);
            if (text == null) {
                w.writeNull(repetition, listDefined + 1);
                continue;
            }
            writeText(w, t, text, repetition, present);
        }
    }

    /** Writes one element's (or struct field's) canonical text as a value of type {@code t}. */
    static void writeText(ColumnWriter w, DataType t, String text, int repetition, int definition) {
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
            case DOUBLE -> w.write(Double.parseDouble(text), repetition, definition);
            case BOOLEAN -> w.write(Boolean.parseBoolean(text), repetition, definition);
            case VARCHAR -> w.write(Binary.fromConstantByteArray(ExportTypes.bytes(text, t)), repetition, definition);
        }
    }
}
