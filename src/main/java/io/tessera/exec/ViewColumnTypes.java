package io.tessera.exec;

import io.tessera.plan.Types;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.sql.ViewColumns;
import io.tessera.storage.View;
import org.apache.calcite.rel.type.RelDataTypeField;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The columns of a view for the catalog's listings: {@code SELECT * FROM view} planned by the front end (nothing
 * compiled), its result columns' names and DuckDB's type texts. A view whose query no longer plans (a table it reads
 * was dropped) lists none, so that the listing of the others still answers.
 */
final class ViewColumnTypes implements ViewColumns {

    private final Supplier<SqlFrontEnd> frontEnd;

    ViewColumnTypes(Supplier<SqlFrontEnd> frontEnd) {
        this.frontEnd = frontEnd;
    }

    @Override
    public List<Column> of(View view) {
        try {
            SqlFrontEnd.LogicalPlan plan = frontEnd.get().plan(SqlFrontEnd.selectAll(view.name()));
            List<Column> out = new ArrayList<>();
            List<RelDataTypeField> fields = plan.rel().getRowType().getFieldList();
            for (int i = 0; i < fields.size(); i++) {
                String name = i < plan.fieldNames().size() ? plan.fieldNames().get(i) : fields.get(i).getName();
                out.add(new Column(name, Types.of(fields.get(i).getType()).toString()));
            }
            return out;
        } catch (RuntimeException e) {
            return List.of();
        }
    }
}
