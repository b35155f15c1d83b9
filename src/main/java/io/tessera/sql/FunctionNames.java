package io.tessera.sql;

import java.util.SortedSet;

/**
 * The names of the functions a statement may call, in lower case, from the tables the front end checks calls
 * against (its operator table and what {@link SupportCheck} lets through): what the shell offers to complete, so
 * that a function added to the engine is offered without a second list to keep.
 */
public final class FunctionNames {

    private FunctionNames() {
    }

    public static SortedSet<String> all() {
        return SupportCheck.functionNames();
    }
}
