/**
 * Aggregation on the JVM: the AGGREGATE and GROUP_AGGREGATE emitters (a strategy per value of the {@code agg}
 * dimension), the group tables, the partitioned aggregation's second phase, and the workers' tables merged and
 * turned into rows ({@link io.tessera.backend.jvm.aggregate.JvmGroups}).
 */
package io.tessera.backend.jvm.aggregate;
