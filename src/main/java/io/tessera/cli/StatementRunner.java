package io.tessera.cli;

import io.tessera.api.QueryResult;

/**
 * What runs one SQL statement for the shell and {@code tessera sql}: {@code Tessera::query} in use, a stand-in
 * in tests. A failure is a runtime exception whose message the user reads.
 */
@FunctionalInterface
public interface StatementRunner {
    QueryResult run(String sql);
}
