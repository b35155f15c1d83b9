package io.tessera.difftest;

import io.tessera.api.QueryResult;

import java.util.List;
import java.util.function.Function;

/** A metamorphic relation between the answers of a few queries on one engine: no reference engine needed. */
public interface MetamorphicCheck {

    /** The seed the check was generated from (with the schema's seed, all it takes to replay it). */
    long seed();

    /** The relation's name and variant, for messages. */
    String name();

    /** Every SQL text the check runs: the original query first. */
    List<String> queries();

    /** Runs the queries through {@code engine}: null when the relation holds, else what differs. */
    String verify(Function<String, QueryResult> engine);
}
