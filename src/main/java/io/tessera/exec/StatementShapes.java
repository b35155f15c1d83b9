package io.tessera.exec;

import io.tessera.api.ResultColumn;
import io.tessera.api.StatementShape;
import io.tessera.plan.Types;
import io.tessera.sql.ParameterTypes;
import io.tessera.sql.Parameters;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.sql.Statement;
import io.tessera.sql.StatementParser;
import io.tessera.storage.DataType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

import java.util.ArrayList;
import java.util.List;

/**
 * A statement's {@link StatementShape} from the front end's plan: parsed, validated and converted with its
 * {@code ?} marks unbound (the validator types each from where it stands), and nothing compiled or run.
 */
final class StatementShapes {

    private StatementShapes() {
    }

    /**
     * The shape of {@code sql}; an error in it (a syntax error, a table not found) is thrown. A query the front end
     * cannot plan with its marks unbound ({@code SELECT ?}: a mark whose type nothing tells) or without reading a file
     * it names in FROM has unknown columns and parameter types, as has any statement other than a query.
     */
    static StatementShape describe(SqlFrontEnd frontEnd, String sql) {
        int count = Parameters.count(sql);
        List<DataType> unknown = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            unknown.add(null);
        }
        Statement st = StatementParser.parse(sql);
        if (!(st instanceof Statement.Query q)) {
            return new StatementShape(null, unknown);
        }
        SqlFrontEnd.LogicalPlan plan;
        try {
            plan = frontEnd.plan(SqlFrontEnd.parse(q.sql()), q.sql());
        } catch (RuntimeException e) {
            String m = String.valueOf(e.getMessage());
            // a ? whose type nothing tells, or a file in FROM (read only when the statement runs): known at the run
            if (m.contains("dynamic parameter") || m.startsWith("a file in FROM")) {
                return new StatementShape(null, unknown);
            }
            throw e;
        }
        List<ResultColumn> columns = new ArrayList<>();
        List<RelDataTypeField> fields = plan.rel().getRowType().getFieldList();
        for (int i = 0; i < fields.size(); i++) {
            DataType t = typeOrNull(fields.get(i).getType());
            if (t == null) {
                return new StatementShape(null, unknown);
            }
            String name = i < plan.fieldNames().size() ? plan.fieldNames().get(i) : fields.get(i).getName();
            columns.add(new ResultColumn(name, t, fields.get(i).getType().isNullable()));
        }
        List<DataType> parameters = new ArrayList<>();
        for (RelDataType t : ParameterTypes.of(plan.rel(), count)) {
            parameters.add(t == null ? null : typeOrNull(t));
        }
        return new StatementShape(columns, parameters);
    }

    private static DataType typeOrNull(RelDataType t) {
        try {
            return Types.of(t);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
