package io.tessera.sql;

import java.util.regex.Pattern;

/**
 * SQL LIKE patterns ('%' any run, '_' any one character, an optional escape) as Java regular expressions, to be
 * compiled with {@link Pattern#DOTALL}. A character is a Unicode code point: '_' matches one character above
 * U+FFFF (two UTF-16 code units) as it matches any other, as in DuckDB and PostgreSQL.
 */
public final class LikePattern {
    private LikePattern() {
    }

    public static String toRegex(String pattern, Character escape) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < pattern.length()) {
            int c = pattern.codePointAt(i);
            i += Character.charCount(c);
            if (escape != null && c == escape) {
                if (i >= pattern.length()) {
                    throw new SqlError("invalid LIKE pattern '" + pattern + "': it ends with the escape character");
                }
                int e = pattern.codePointAt(i);
                i += Character.charCount(e);
                sb.append(Pattern.quote(Character.toString(e)));
            } else if (c == '%') {
                sb.append(".*");
            } else if (c == '_') {
                // a regex '.' matches one code point, a surrogate pair as a whole
                sb.append('.');
            } else {
                sb.append(Pattern.quote(Character.toString(c)));
            }
        }
        return sb.toString();
    }
}
