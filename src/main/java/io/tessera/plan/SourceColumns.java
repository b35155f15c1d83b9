package io.tessera.plan;

import io.tessera.storage.Column;
import io.tessera.storage.Table;

import java.util.ArrayList;
import java.util.List;

/** Column descriptions of stored tables, with the keys that name their dictionaries. */
final class SourceColumns {
    private SourceColumns() {
    }

    static String dictionaryKey(Table t, Column c) {
        return c.type().kind() == io.tessera.storage.TypeKind.VARCHAR ? DictionaryKeys.stored(t.name(), c.name()) : null;
    }

    static List<ColumnInfo> of(Table t) {
        List<ColumnInfo> out = new ArrayList<>();
        for (Column c : t.columns()) {
            out.add(new ColumnInfo(c.name(), c.type(), c.schema().nullable(), dictionaryKey(t, c)));
        }
        return out;
    }
}
