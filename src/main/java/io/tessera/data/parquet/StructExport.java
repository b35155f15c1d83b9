package io.tessera.data.parquet;

import io.tessera.storage.Column;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.ListCodec;
import io.tessera.storage.StructField;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.schema.Types;

import java.util.ArrayList;
import java.util.List;

/**
 * A STRUCT column written as a group of its fields (as DuckDB writes one): {@code optional group s { optional T a;
 * ... }}, each field a leaf with a chunk of its own. A NULL struct is a NULL at the group's level in every field, a
 * NULL field one at the field's.
 */
final class StructExport {
    private StructExport() {
    }

    /** Field {@code k} as a column of its own (always nullable), which the scalar export types describe. */
    private static ColumnSchema field(StructField f) {
        return new ColumnSchema(f.name(), f.type(), true);
    }

    /** The column as parquet-java's schema type. */
    static org.apache.parquet.schema.Type type(ColumnSchema c) {
        Types.GroupBuilder<org.apache.parquet.schema.GroupType> g = Types.buildGroup(c.nullable()
                ? org.apache.parquet.schema.Type.Repetition.OPTIONAL
                : org.apache.parquet.schema.Type.Repetition.REQUIRED);
        for (StructField f : c.type().fields()) {
            g = g.addField(ExportTypes.primitive(field(f)));
        }
        return g.named(c.name());
    }

    /** The column's schema elements in the footer: the group's, then each field's (the leaves). */
    static List<SchemaElement> elements(ColumnSchema c) {
        SchemaElement group = new SchemaElement(c.name());
        group.setRepetition_type(c.nullable() ? FieldRepetitionType.OPTIONAL : FieldRepetitionType.REQUIRED);
        group.setNum_children(c.type().fields().size());
        List<SchemaElement> out = new ArrayList<>();
        out.add(group);
        for (StructField f : c.type().fields()) {
            out.add(ExportTypes.element(field(f)));
        }
        return out;
    }

    /** Writes row {@code r}'s struct, a value (or NULL) into each field's writer. */
    static void write(List<ColumnWriter> fields, Column c, long r) {
        int structDefined = c.schema().nullable() ? 1 : 0;
        if (c.isNull(r)) {
            fields.forEach(w -> w.writeNull(0, 0));
            return;
        }
        List<String> texts = ListCodec.texts(c.dictionary().value(c.getInt(r)));
        for (int k = 0; k < fields.size(); k++) {
            String text = texts.get(k);
            if (text == null) {
                fields.get(k).writeNull(0, structDefined);
            } else {
                ListExport.writeText(fields.get(k), c.type().fields().get(k).type(), text, 0, structDefined + 1);
            }
        }
    }
}
