package io.tessera.sql;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataHandler;
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
            new SharedHandlers(new ProxyingMetadataHandlerProvider(DefaultRelMetadataProvider.INSTANCE));

    /** A query that touches what every first query needs: parser, validator, conversion, rules, metadata. */
    private static final String WARM_UP = "select k, sum(v) as s, count(*) as n from (values (1, 10), (2, 20), (2, 5))"
            + " as t(k, v) where v > 1 and k in (1, 2) group by k order by k";

    private CalciteSetup() {
    }

    /**
     * One handler per kind of metadata for the whole process. A {@link RelMetadataQuery} asks its provider for about
     * twenty handlers when it is made, and a Hep planner makes a new query each time its graph changes (hundreds per
     * plan); the proxying provider builds a new {@link java.lang.reflect.Proxy} for every ask. Its handlers hold no
     * state (each call names its node and query), so one of each serves every query and thread.
     */
    private record SharedHandlers(MetadataHandlerProvider made) implements MetadataHandlerProvider {
        private static final Map<Class<?>, MetadataHandler<?>> BY_KIND = new ConcurrentHashMap<>();

        @Override
        public <H extends MetadataHandler<?>> H handler(Class<H> kind) {
            return kind.cast(BY_KIND.computeIfAbsent(kind, k -> made.handler(kind)));
        }
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
