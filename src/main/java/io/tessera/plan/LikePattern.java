package io.tessera.plan;

import io.tessera.sql.SqlError;

import java.util.regex.Pattern;

/** SQL LIKE patterns ('%' any run, '_' any one character, an optional escape) as Java regular expressions. */
public final class LikePattern {
    private LikePattern() {
    }

    public static String toRegex(String pattern, Character escape) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == escape) {
                if (i + 1 >= pattern.length()) {
                    throw new SqlError("invalid LIKE pattern '" + pattern + "': it ends with the escape character");
                }
                sb.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                sb.append(".*");
            } else if (c == '_') {
                sb.append('.');
            } else {
                sb.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return sb.toString();
    }
}
