package io.tessera.exec;

import io.tessera.sql.AlterTableNode;
import io.tessera.sql.ForeignKeys;
import io.tessera.sql.SqlError;
import io.tessera.storage.Database;
import io.tessera.storage.ForeignKey;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;

/**
 * What ALTER TABLE may not do to a table because of FOREIGN KEY constraints, refused as DuckDB refuses it: a table
 * another table references takes only ADD COLUMN; a column of a table's own foreign key (or, where the table
 * references itself, a column it references) is not renamed, dropped, or given another type. RENAME TO of the table
 * that holds a foreign key keeps it ({@link Database#renameTable} renames a reference to the table itself).
 */
final class ForeignKeyAlterations {

    private ForeignKeyAlterations() {
    }

    /** Fails where {@code node}'s action on table {@code schema} of {@code db} would break a foreign key. */
    static void verify(Database db, TableSchema schema, AlterTableNode node) {
        if (node.action != AlterTableNode.Action.ADD_COLUMN && node.action != AlterTableNode.Action.ADD_CHECK) {
            for (ForeignKeys.Reference r : ForeignKeys.referencing(schema.name(),
                    db.tables().stream().map(Table::schema).toList())) {
                if (!r.self()) {
                    throw new SqlError("ALTER TABLE " + schema.name() + ": Cannot alter entry \"" + schema.name()
                            + "\" because there are entries that depend on it (FOREIGN KEY of table "
                            + r.child().name() + ")" + AlterTableNode.at(node.table.getParserPosition()));
                }
            }
        }
        if (node.column == null || schema.indexOf(node.column.getSimple()) < 0) {
            return;
        }
        String column = schema.columns().get(schema.indexOf(node.column.getSimple())).name();
        boolean involved = false;
        for (ForeignKey f : schema.foreignKeys()) {
            involved |= f.has(column) || f.references(schema.name())
                    && f.referenced().stream().anyMatch(column::equalsIgnoreCase);
        }
        if (!involved) {
            return;
        }
        String at = AlterTableNode.at(node.column.getParserPosition());
        switch (node.action) {
            case RENAME_COLUMN -> throw new SqlError("ALTER TABLE " + schema.name() + ": Cannot rename column \""
                    + column + "\" because this is involved in the foreign key constraint" + at);
            case DROP_COLUMN -> throw new SqlError("ALTER TABLE " + schema.name() + ": Cannot drop column \"" + column
                    + "\" because there is a FOREIGN KEY constraint that depends on it" + at);
            case SET_TYPE -> throw new SqlError("ALTER TABLE " + schema.name() + ": Cannot change the type of a column"
                    + " that has a FOREIGN KEY constraint specified" + at);
            default -> {
            }
        }
    }
}
