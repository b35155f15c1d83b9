package io.tessera.sql;

import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataHandlerProvider;
import org.apache.calcite.rel.metadata.ProxyingMetadataHandlerProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * What Calcite needs once per process, made once, cheaply.
 *
 * <p>Metadata (row counts, unique keys, column origins, ...) is answered through handlers that dispatch to Calcite's
 * built-in providers by reflection. Calcite's default generates a Java class per handler and compiles it with Janino
 * the first time each kind of metadata is asked for in a process: about half a second of the first query on a cold
 * JVM, for code that a planner then calls a few thousand times per query at most.
 */
public final class CalciteSetup {

    private static final MetadataHandlerProvider HANDLERS =
            new ProxyingMetadataHandlerProvider(DefaultRelMetadataProvider.INSTANCE);

    /** A query that touches what every first query needs: parser, validator, conversion, rules, metadata. */
    private static final String WARM_UP = "select k, sum(v) as s, count(*) as n from (values (1, 10), (2, 20), (2, 5))"
            + " as t(k, v) where v > 1 and k in (1, 2) group by k order by k";

    private CalciteSetup() {
    }

    /** A metadata query over the shared handlers, for a planner's cluster. */
    static RelMetadataQuery metadataQuery() {
        return new RelMetadataQuery(HANDLERS);
    }

    /**
     * Plans a query over no tables: the first-use work of Calcite's parser, operator tables, validator, rules and
     * metadata, done where it costs the caller nothing (a background thread started before a database is opened).
     * Returns the plan, for the warm-up of the stages after this one.
     */
    public static SqlFrontEnd.LogicalPlan warmUp() {
        return SqlFrontEnd.withoutTables().plan(WARM_UP);
    }
}
