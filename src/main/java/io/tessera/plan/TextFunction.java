package io.tessera.plan;

/**
 * The string functions of {@link Op#FUNCTION}, each as DuckDB computes it: strings are sequences of Unicode code
 * points (lengths and positions count them, 1-based), and a NULL argument gives NULL except where noted.
 */
public enum TextFunction {
    /** (s, start [, length]): DuckDB's rules for a start of 0 or below and a negative length. */
    SUBSTRING,
    /** (s, needle): the position of the first occurrence, 0 when there is none (1 for an empty needle). */
    POSITION,
    /** (s): code points. */
    LENGTH,
    /** (s): bytes of its UTF-8 encoding. */
    OCTET_LENGTH,
    /** (s, characters): removes every leading and trailing character that is one of {@code characters}. */
    TRIM,
    LTRIM,
    RTRIM,
    /** (s, from, to): every occurrence; an empty {@code from} changes nothing. */
    REPLACE,
    /** (s, length, pad): padded on the left or right to length, or cut to it. */
    LPAD,
    RPAD,
    /** (s, n): the first or last n code points (a negative n: all but the last or first -n). */
    LEFT,
    RIGHT,
    /** (s, n): s repeated n times (none for n below 1). */
    REPEAT,
    /** (s...): the non-NULL arguments joined; never NULL. */
    CONCAT,
    /** (separator, s...): the non-NULL strings joined by the separator; NULL only when the separator is. */
    CONCAT_WS,
    /**
     * (s, pattern [, escape]): LIKE with a pattern that is a value of the row, not a constant (translated and
     * compiled while running, never code); ILIKE_PATTERN is its case-insensitive form.
     */
    LIKE_PATTERN,
    ILIKE_PATTERN,
    /** (s, regex): whether the Java regular expression (a constant) matches a part of s. */
    REGEXP_MATCHES,
    /** (s, regex): whether it matches the whole of s (also SIMILAR TO). */
    REGEXP_FULL_MATCH,
    /** (s, regex, replacement): the first match replaced; \\0 to \\9 in the replacement name groups. */
    REGEXP_REPLACE,
    /** (s, regex, replacement): every match replaced (option 'g'). */
    REGEXP_REPLACE_ALL,
    /** (s): the UTF-8 bytes of s, a BLOB. */
    ENCODE,
    /** (b): the text a BLOB's bytes encode in UTF-8 (an error where they are not UTF-8). */
    DECODE,
    /** (): a new random UUID for every row (GEN_RANDOM_UUID, UUID). */
    RANDOM_UUID,

    // ---- splitting, prefixes, characters and digests (plan.SplitSortCalls) ----

    /**
     * (s, separator): the VARCHAR[] of the parts between separators (string_split); an empty separator splits into
     * code points, a NULL one leaves s whole; NULL only where s is.
     */
    STRING_SPLIT,
    /** (s, separator, n): part n of the split, counted from the end where negative; '' for 0 or beyond the parts. */
    SPLIT_PART,
    /** (s, prefix), (s, suffix), (s, t): whether s starts with, ends with or holds the other string. */
    STARTS_WITH,
    ENDS_WITH,
    CONTAINS,
    /** (s, pattern constant, group): every match's group (0 the whole match), a VARCHAR[]. */
    REGEXP_EXTRACT_ALL,
    /** (s, pattern constant): s split at each match, a VARCHAR[] (empty parts kept). */
    REGEXP_SPLIT,
    /** (s): the first character's code point, -1 of '' (INTEGER). */
    UNICODE,
    /** (s): s with a backslash before each ASCII character but letters, digits and _ (RE2's QuoteMeta). */
    REGEXP_ESCAPE,
    /** (s): s without its accents (its letters' combining marks removed). */
    STRIP_ACCENTS,
    /** (s): s's UTF-8 bytes percent-encoded but for letters, digits and -_.~ ; and back (a + stays a +). */
    URL_ENCODE,
    URL_DECODE,
    /** (blob): its bytes in base64 (VARCHAR); (text): the BLOB base64 text holds, an error where it is none. */
    TO_BASE64,
    FROM_BASE64,
    /**
     * (x): the hexadecimal (HEX) or binary (BIN) digits of a BIGINT's two's complement (no leading zeros), of a
     * BLOB's bytes, of text's UTF-8 bytes; (text): the BLOB such digits write (UNHEX, UNBIN), the first byte's missing
     * leading digits zeros.
     */
    HEX,
    BIN,
    UNHEX,
    UNBIN,
    /** (s, pattern): DuckDB's GLOB of s's UTF-8 bytes ({@code *}, {@code ?}, {@code [...]}, {@code \}), a BOOLEAN. */
    GLOB,
    /** (s): its grapheme clusters in the reverse order. */
    REVERSE,
    /** (s): the code point of its first character, an INTEGER (0 for ''). */
    ASCII,
    /** (n): the character of code point n (an error where n is none). */
    CHR,
    /** (s): the MD5 digest of its UTF-8 bytes as 32 lower-case hex digits. */
    MD5,
    /** (s, regex, group): group of the first match (0 the whole match), '' where nothing matches. */
    REGEXP_EXTRACT,
    /** (a, b): the fewest insertions, deletions and substitutions of UTF-8 bytes that make a into b (BIGINT). */
    LEVENSHTEIN,
    /** (a, b): the same with transpositions of adjacent bytes, any substring edited again (BIGINT). */
    DAMERAU_LEVENSHTEIN,
    /** (a, b): the bytes that differ between strings of one byte length; an error for other lengths (BIGINT). */
    HAMMING,
    /** (a, b): the Jaro similarity of the UTF-8 bytes (DOUBLE, 0 for two empty strings). */
    JARO_SIMILARITY,
    /** (a, b): the Jaro-Winkler similarity (prefix scale 0.1, a prefix of at most 4, above a Jaro of 0.7). */
    JARO_WINKLER_SIMILARITY,
    /** (s): its UTF-8 bytes times 8 (BIGINT). */
    BIT_LENGTH,
    /** (a, b): the distinct UTF-8 bytes both have over those either has (DOUBLE); an error where one is empty. */
    JACCARD,
    /** (s): the SHA-1 and SHA-256 digests of its UTF-8 bytes as lower-case hex digits. */
    SHA1,
    SHA256,
    /** (s, from, to): each character of s found in from replaced by the one at its place in to, dropped past to's end. */
    TRANSLATE,
    /** (fmt, args...): DuckDB's FORMAT, the fmt library's {} placeholders; the format read at run time. */
    FORMAT,
    /** (fmt, args...): DuckDB's PRINTF, C's conversions; the format read at run time. */
    PRINTF,
    /**
     * (n): a BIGINT count of bytes as DuckDB writes it, in units of 1024 (FORMAT_BYTES: KiB, MiB, ...) or 1000
     * (FORMAT_DECIMAL_BYTES: kB, MB, ...) with one digit after the point, truncated; below one unit {@code n bytes}.
     */
    FORMAT_BYTES,
    FORMAT_DECIMAL_BYTES,
    /** (n, radix, min_length): a BIGINT's digits in a radix from 2 to 36 (upper case), zeros before to min_length. */
    TO_BASE,
    /** (path, separator): the path's parts (a VARCHAR[]), its top directory, the path before its last separator. */
    PARSE_PATH,
    PARSE_DIRNAME,
    PARSE_DIRPATH,
    /** (path, trim_extension, separator): the path's last part, without its extension where asked. */
    PARSE_FILENAME,
    /** (s): its grapheme clusters (BIGINT). */
    LENGTH_GRAPHEME,
    /** (s, n): LEFT and RIGHT in grapheme clusters; (s, start, length): SUBSTRING in grapheme clusters. */
    LEFT_GRAPHEME,
    RIGHT_GRAPHEME,
    SUBSTRING_GRAPHEME,
    /** (s): its Unicode canonical composition (NFC). */
    NFC_NORMALIZE,
    /** (uuid): its version, the 13th hexadecimal digit (INTEGER). */
    UUID_VERSION,
    /** (uuid): the milliseconds since 1970 a version 7 UUID begins with, a TIMESTAMP WITH TIME ZONE; else an error. */
    UUID_TIMESTAMP,
    /** (): a new version 7 UUID for every row: the time in milliseconds, then random bits. */
    RANDOM_UUID_V7,
    /**
     * DuckDB's JSON functions over JSON text (a VARCHAR): (json) whether it is one document; (json, path) the value
     * at the path (a key, a JSONPath of DuckDB's subset, a JSON pointer, or an integer index): its JSON text, a
     * string's characters, its type's name, an array's length (BIGINT), an object's keys (VARCHAR[]). NULL where
     * the path leads nowhere; malformed JSON an error.
     */
    JSON_VALID,
    JSON_EXTRACT,
    JSON_EXTRACT_STRING,
    JSON_TYPE,
    JSON_ARRAY_LENGTH,
    JSON_KEYS;

    /** Whether this is one of the JSON functions, whose result may be NULL where no argument is. */
    public boolean json() {
        return name().startsWith("JSON_");
    }
}
