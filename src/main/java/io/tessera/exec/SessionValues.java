package io.tessera.exec;

import io.tessera.api.QueryResult;
import io.tessera.sql.SessionVariables;
import io.tessera.sql.SqlError;
import io.tessera.sql.Statement;
import io.tessera.storage.DataType;
import org.apache.calcite.sql.SqlNode;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/** The variables of one session (SET VARIABLE), by {@link SessionVariables#key}, which its getvariable calls read. */
public final class SessionValues {

    private final Map<String, SessionVariables.Value> values = new ConcurrentHashMap<>();

    /** The variables now. */
    public Map<String, SessionVariables.Value> now() {
        return Map.copyOf(values);
    }

    /** Makes {@code others} (another session's, copied) this session's variables, in place of those it had. */
    public void useAll(Map<String, SessionVariables.Value> others) {
        values.clear();
        values.putAll(others);
    }

    /**
     * SET VARIABLE, its value computed once, now, by {@code run} of the query {@code SELECT expression}; or RESET
     * VARIABLE.
     */
    void set(Statement.SetVariable v, Function<SqlNode, QueryResult> run) {
        String key = SessionVariables.key(v.name());
        if (v.expression() == null) {
            values.remove(key);
            return;
        }
        QueryResult r = run.apply(SessionVariables.valueQuery(v.expression()));
        DataType type = r.columns().get(0).type();
        if (type.isInterval()) {
            throw new SqlError("unsupported: a variable of type INTERVAL (SET VARIABLE " + v.name() + ")");
        }
        values.put(key, new SessionVariables.Value(r.rows().get(0)[0], type));
    }
}
