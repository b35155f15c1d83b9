package io.tessera.plan;

/**
 * The functions of {@link Op#LIST}, each as DuckDB computes it. A list is a string of encoded elements
 * ({@link io.tessera.storage.ListCodec}); a NULL list gives NULL.
 */
public enum ListFunction {
    /** (e1, e2, ...): the list of the arguments, each already of the element type ({@code [a, b]}, list_value). */
    VALUE,
    /** (list): its number of elements as a BIGINT (len, array_length). */
    LENGTH,
    /**
     * (list of lists): the inner lists' elements in order, a NULL inner list contributing none (flatten); an encoded
     * list of lists is the concatenation of its inner lists' encodings.
     */
    FLATTEN,
    /**
     * (list, list, ...): the elements of the lists that are not NULL, in order (list_concat, and list_append and
     * list_prepend with their value as a list of one); NULL only where the call is nullable (every list an untyped NULL)
     * and every list is. Each list is already of the
     * call's type, and an encoded list is the concatenation of its elements' encodings.
     */
    CONCAT,
    /** (list, index): element index, 1 the first and -1 the last; NULL for 0 or beyond either end. */
    /** (list, name): the list's numbers reduced by the named aggregate (sum, avg, min, max, count, product). */
    AGGREGATE,
    ELEMENT,
    /** (list, value): whether an element equals the value (of the element type); NULL when the value is. */
    CONTAINS,
    /**
     * (list, value): the position of the first element equal to the value (of the element type), 1 the first, an
     * INTEGER; a NULL value finds the first NULL element; NULL where none is equal.
     */
    POSITION,
    /**
     * (list, other): whether some element of the other list that is not NULL is in the list (HAS_ANY), whether all
     * are (HAS_ALL); both lists of one element type.
     */
    HAS_ANY,
    HAS_ALL,
    /**
     * (a, b): the distinct elements that are not NULL in both lists of one type, in the order of the longer list (of
     * b where both are as long), as DuckDB's list_intersect gives them; NULL where a is, empty where b is.
     */
    INTERSECT,
    /** (list): how many distinct elements that are not NULL it holds, a BIGINT. */
    UNIQUE,
    /**
     * (list of VARCHAR, separator, empty): the elements that are not NULL joined by the separator (list_aggregate's
     * string_agg); NULL where there are none, but an empty list is '' where {@code empty}, a BOOLEAN constant, says
     * so (array_to_string).
     */
    JOIN,
    /**
     * (list): its order key, a VARCHAR ordered as DuckDB orders the lists ({@link io.tessera.storage.ListOrder}); of a
     * list with an INTERVAL inside, a key for equality only.
     */
    ORDER_KEY,
    /** (order key): the list of an {@link #ORDER_KEY} (after MIN or MAX kept one), typed as that list. */
    FROM_ORDER_KEY,
    /**
     * (list or struct): its encoded string as a VARCHAR; or (VARCHAR) the list or struct of such a string, typed as the
     * call. Neither changes the string: a MIN over them keeps one of several equal values that have no order.
     */
    CODE,
    /**
     * (list or struct with an INTERVAL inside): a BIGINT hash of its {@link #ORDER_KEY}, in which each interval is its
     * length, so that equal values (1 day, 24 hours) share it; a join's key, the values compared beside it.
     */
    EQUALITY_HASH,
    /**
     * (VARCHAR): the LIST or STRUCT of DuckDB's text of one ({@code '[1, 2]'}, {@code '{a: 1 day}'}), typed as the
     * call, each element read as its type reads text ({@link io.tessera.storage.NestedText}); malformed text fails.
     * Where a TIMESTAMP WITH TIME ZONE is inside, the session's zone as a second argument (its clock reads a time
     * without an offset).
     */
    FROM_TEXT,
    /** (list or struct): its text as DuckDB writes it ({@code [1, 2]}, {@code {'a': 1}}), a VARCHAR. */
    TEXT,
    /**
     * (list of structs): the list as another list of STRUCT type ({@code CAST(l AS STRUCT(a BIGINT)[])}), each
     * element's fields taken by name as a STRUCT to STRUCT cast takes them; made only where each field kept keeps its
     * encoded text (the same type, or an integer type widened).
     */
    STRUCT_ELEMENTS,
    /**
     * (list): the list as another list type whose values change ({@code CAST(l AS STRUCT(a VARCHAR)[])}, {@code
     * CAST(l AS BIGINT[])}): each element converted as a CAST of it converts it, a struct's fields by name, NULL
     * elements and fields kept ({@code backend.jvm.lib.NestedCast}).
     */
    CAST,
    /**
     * (start, stop, step): the BIGINT values from start by step before stop ({@code range(...)} in an expression);
     * a step of 0 gives the empty list, as DuckDB's.
     */
    RANGE,
    /** (start, stop, step): as {@link #RANGE}, the stop included where a step reaches it ({@code generate_series}). */
    GENERATE_SERIES,

    // ---- lists reordered (plan.SplitSortCalls) ----

    /** (list, nulls first): its elements in ascending or descending order, NULL elements first or last (list_sort). */
    SORT,
    REVERSE_SORT,
    /** (list): each distinct non-NULL element once, where it first occurs. */
    DISTINCT,
    /** (list): its elements in the reverse order. */
    REVERSE,
    /**
     * (list or VARCHAR, begin, end, step), BIGINTs: the elements or characters from begin to end, both included,
     * 1-based, a negative bound counting from the end, every step-th, backwards for a negative step (array_slice,
     * {@code l[b:e:s]}); the step of a VARCHAR is 1.
     */
    SLICE,

    // ---- elements picked, paired or rearranged (plan.ListSelectCalls) ----

    /**
     * (list, list, ..., truncate): a list of unnamed structs, the lists' elements at each position as its fields,
     * NULL past a list's end, as long as the longest list (the shortest where truncate, a BOOLEAN constant); a NULL
     * list counts as empty, and the result is never NULL.
     */
    ZIP,
    /**
     * (list, indexes): the elements at the indexes (from 1) in their order, NULL for one out of range; a NULL index
     * fails, as in DuckDB.
     */
    SELECT,
    /**
     * (list, BOOLEAN mask): the elements whose mask element is true, a NULL for a true past the list's end; a NULL
     * in the mask fails, as in DuckDB.
     */
    WHERE,
    /**
     * (list, nulls first, descending), the last two BOOLEAN constants: the positions (from 1) of the elements in
     * sorted order, a BIGINT[], equal elements in their order.
     */
    GRADE_UP,
    /**
     * (list, size, fill): the list cut or padded to size elements with the fill (of the element type, NULL if none);
     * a NULL size gives the empty list, a negative one fails.
     */
    RESIZE,
    /**
     * (DOUBLE list, DOUBLE list, measure): a DOUBLE between two lists of one length without NULLs, the measure a
     * VARCHAR constant naming DuckDB's function (list_inner_product, list_distance, list_cosine_similarity, ...).
     */
    DISTANCE,

    // ---- maps (plan.MapCalls): a MAP is a list of STRUCT(key, value) entries ----

    /**
     * (list of two-field structs): the same list as a MAP of the call's type, checked: an IllegalArgumentException with
     * DuckDB's message where an entry or a key is NULL or two keys are equal ({@link io.tessera.storage.MapEntries}).
     */
    MAP_CHECK,
    /** (keys, values): the map of two lists of the key and value types, zipped and checked; they must align. */
    MAP_OF_LISTS,
    /** (map, key): the value of the key, NULL where it is missing ({@code m[k]}). */
    MAP_GET,
    /** (map, key): the list of the key's value, empty where it is missing or NULL (map_extract, element_at). */
    MAP_EXTRACT,
    /** (map): the list of its keys in order. */
    MAP_KEYS,
    /** (map): the list of its values in order. */
    MAP_VALUES,
    /** (map, key): whether it has the key; NULL where the key is. */
    MAP_CONTAINS,
    /**
     * (map, map, ...): the entries of the maps that are not NULL, each key where it first occurs with the value of
     * the last map that has it (map_concat); NULL where every map is.
     */
    MAP_CONCAT,
    /**
     * (value[, zone]): a value that is no LIST, STRUCT or MAP as the call's type, as CAST converts it, NULL where that
     * fails (TRY_CAST); a TIMESTAMP WITH TIME ZONE on the session's zone, as {@link #CAST}.
     */
    TRY_CAST
}
