package io.tessera.difftest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the top-level ORDER BY of a query text fixes about the order of its result: whether there is one, which
 * output columns its keys are (resolved by ordinal, alias, expression text or column name), and whether a LIMIT
 * or OFFSET follows. Only the prefix of keys that resolve to output columns is kept; a key that names no output
 * column ends the prefix, which makes the comparison coarser (larger tie groups), never wrong.
 */
public record OrderBySpec(boolean ordered, List<Integer> keys, boolean allKeysResolved, boolean limited) {

    public static final OrderBySpec UNORDERED = new OrderBySpec(false, List.of(), true, false);

    private static final Set<String> NOT_ALIAS = Set.of("end", "null", "true", "false", "and", "or", "not",
            "distinct", "else", "then", "when", "case", "from", "select", "all", "is", "in", "like", "between");
    private static final Pattern AS_ALIAS = Pattern.compile("(?is)^(.*\\S)\\s+as\\s+(\"[^\"]+\"|[A-Za-z_][A-Za-z0-9_]*)$");
    private static final Pattern BARE_ALIAS = Pattern.compile("(?s)^(.*[A-Za-z0-9_)\"'])\\s+([A-Za-z_][A-Za-z0-9_]*)$");
    private static final Pattern COLUMN_REF = Pattern.compile("(?:[A-Za-z_][A-Za-z0-9_]*\\.)?([A-Za-z_][A-Za-z0-9_]*)");
    private static final Pattern DIRECTION = Pattern.compile(
            "(?is)^(.*?)(\\s+(asc|desc))?(\\s+nulls\\s+(first|last))?$");

    /**
     * Reads the ORDER BY of {@code sql}. {@code outputNames} are the result's column labels (from either
     * engine), used when an ORDER BY key is a plain name that the select list does not spell out.
     */
    public static OrderBySpec of(String sql, List<String> outputNames) {
        List<Token> tokens = tokenize(sql);
        int orderAt = -1;
        int selectAt = -1;
        int fromAt = -1;
        boolean limited = false;
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.depth != 0 || !t.word) {
                continue;
            }
            String w = t.text.toLowerCase(Locale.ROOT);
            if (w.equals("select") && selectAt < 0) {
                selectAt = i;
            } else if (w.equals("from") && selectAt >= 0 && fromAt < 0) {
                fromAt = i;
            } else if (w.equals("order") && i + 1 < tokens.size() && tokens.get(i + 1).text.equalsIgnoreCase("by")) {
                orderAt = i + 2;
            } else if (w.equals("limit") || w.equals("offset") || w.equals("fetch")) {
                limited = true;
            }
        }
        if (orderAt < 0) {
            return UNORDERED;
        }
        int orderEnd = tokens.size();
        for (int i = orderAt; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.depth == 0 && t.word && Set.of("limit", "offset", "fetch").contains(t.text.toLowerCase(Locale.ROOT))) {
                orderEnd = i;
                break;
            }
            if (t.depth == 0 && t.text.equals(";")) {
                orderEnd = i;
                break;
            }
        }
        List<String> orderItems = splitTopLevel(tokens, orderAt, orderEnd);
        List<String> selectItems = selectAt >= 0 && fromAt > selectAt
                ? splitTopLevel(tokens, selectAt + 1, fromAt) : List.of();
        List<String> aliases = new ArrayList<>();
        List<String> exprs = new ArrayList<>();
        for (String item : selectItems) {
            String s = item.strip();
            String alias = null;
            Matcher m = AS_ALIAS.matcher(s);
            if (m.matches()) {
                s = m.group(1);
                alias = unquote(m.group(2));
            } else {
                Matcher b = BARE_ALIAS.matcher(s);
                if (b.matches() && !NOT_ALIAS.contains(b.group(2).toLowerCase(Locale.ROOT))
                        && !b.group(1).strip().toLowerCase(Locale.ROOT).equals("distinct")) {
                    s = b.group(1);
                    alias = b.group(2);
                }
            }
            if (s.toLowerCase(Locale.ROOT).startsWith("distinct ") && exprs.isEmpty()) {
                s = s.substring("distinct ".length());
            }
            aliases.add(alias);
            exprs.add(normalize(s));
        }
        List<Integer> keys = new ArrayList<>();
        boolean all = true;
        for (String raw : orderItems) {
            Matcher dm = DIRECTION.matcher(raw.strip());
            String item = dm.matches() ? dm.group(1).strip() : raw.strip();
            int idx = resolve(item, aliases, exprs, outputNames);
            if (idx < 0) {
                all = false;
                break;
            }
            keys.add(idx);
        }
        return new OrderBySpec(true, List.copyOf(keys), all, limited);
    }

    private static int resolve(String item, List<String> aliases, List<String> exprs, List<String> outputNames) {
        int width = Math.max(exprs.size(), outputNames.size());
        if (item.matches("\\d+")) {
            int ord = Integer.parseInt(item) - 1;
            return ord >= 0 && ord < width ? ord : -1;
        }
        String norm = normalize(item);
        String bare = unquote(item);
        for (int i = 0; i < aliases.size(); i++) {
            if (aliases.get(i) != null && aliases.get(i).equalsIgnoreCase(bare)) {
                return i;
            }
        }
        for (int i = 0; i < exprs.size(); i++) {
            if (exprs.get(i).equals(norm)) {
                return i;
            }
        }
        Matcher ref = COLUMN_REF.matcher(bare);
        if (ref.matches()) {
            String col = ref.group(1);
            for (int i = 0; i < exprs.size(); i++) {
                Matcher e = COLUMN_REF.matcher(exprs.get(i));
                if (aliases.get(i) == null && e.matches() && e.group(1).equalsIgnoreCase(col)) {
                    return i;
                }
            }
            for (int i = 0; i < outputNames.size(); i++) {
                if (outputNames.get(i) != null && outputNames.get(i).equalsIgnoreCase(col)) {
                    return i;
                }
            }
        }
        return -1;
    }

    private static String unquote(String s) {
        String t = s.strip();
        return t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"") ? t.substring(1, t.length() - 1) : t;
    }

    /** Lower case outside string literals, no whitespace: the form in which expression texts are compared. */
    static String normalize(String s) {
        StringBuilder sb = new StringBuilder();
        boolean inString = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'') {
                inString = !inString;
            }
            if (inString || c == '\'') {
                sb.append(c);
            } else if (!Character.isWhitespace(c)) {
                sb.append(Character.toLowerCase(c));
            }
        }
        return sb.toString();
    }

    private record Token(String text, int depth, boolean word, int start, int end) {
    }

    private static List<String> splitTopLevel(List<Token> tokens, int from, int to) {
        List<String> items = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (int i = from; i < to; i++) {
            Token t = tokens.get(i);
            if (t.depth == 0 && t.text.equals(",")) {
                items.add(cur.toString());
                cur.setLength(0);
            } else {
                if (!cur.isEmpty()) {
                    cur.append(' ');
                }
                cur.append(t.text);
            }
        }
        if (!cur.toString().isBlank()) {
            items.add(cur.toString());
        }
        return items;
    }

    /** Words, literals, quoted names and single symbols, each with its parenthesis depth; comments dropped. */
    private static List<Token> tokenize(String sql) {
        List<Token> out = new ArrayList<>();
        int depth = 0;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int e = sql.indexOf("*/", i + 2);
                i = e < 0 ? n : e + 2;
            } else if (c == '\'' || c == '"') {
                int j = i + 1;
                while (j < n) {
                    if (sql.charAt(j) == c) {
                        if (j + 1 < n && sql.charAt(j + 1) == c) {
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    j++;
                }
                j = Math.min(j + 1, n);
                out.add(new Token(sql.substring(i, j), depth, false, i, j));
                i = j;
            } else if (Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '$') {
                int j = i;
                while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_'
                        || sql.charAt(j) == '.' || sql.charAt(j) == '$')) {
                    j++;
                }
                out.add(new Token(sql.substring(i, j), depth, true, i, j));
                i = j;
            } else if (c == '(') {
                out.add(new Token("(", depth, false, i, i + 1));
                depth++;
                i++;
            } else if (c == ')') {
                depth--;
                out.add(new Token(")", depth, false, i, i + 1));
                i++;
            } else {
                int j = i + 1;
                if (j < n && "<>=!|".indexOf(c) >= 0 && "<>=|".indexOf(sql.charAt(j)) >= 0) {
                    j++;
                }
                out.add(new Token(sql.substring(i, j), depth, false, i, j));
                i = j;
            }
        }
        return out;
    }
}
