package io.tessera.backend.jvm.lib;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * FORMAT's formats, the fmt library's: {@code {}} (the next argument), {@code {N}} (argument N), {@code {{} and
 * {@code }}}, and after a colon {@code [[fill]align][sign][0][width][,][.precision][type]} with the aligns
 * {@code < > ^}, the sign {@code +}, the types {@code d x X o b} of integers, {@code f F e E g G} of floating numbers
 * and {@code s} of strings; {@code ,} groups thousands.
 */
final class BraceFormat {

    private BraceFormat() {
    }

    static List<FormatPiece> parse(String fmt) {
        List<FormatPiece> out = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int next = 0;
        int i = 0;
        while (i < fmt.length()) {
            char c = fmt.charAt(i++);
            if (c == '}') {
                if (i < fmt.length() && fmt.charAt(i) == '}') {
                    i++;
                    text.append('}');
                    continue;
                }
                throw invalid();
            }
            if (c != '{') {
                text.append(c);
                continue;
            }
            if (i < fmt.length() && fmt.charAt(i) == '{') {
                i++;
                text.append('{');
                continue;
            }
            int close = fmt.indexOf('}', i);
            if (close < 0) {
                throw invalid();
            }
            String field = fmt.substring(i, close);
            i = close + 1;
            int colon = field.indexOf(':');
            String index = colon < 0 ? field : field.substring(0, colon);
            int arg;
            if (index.isEmpty()) {
                arg = next++;
            } else if (index.chars().allMatch(Character::isDigit) && index.length() < 9) {
                arg = Integer.parseInt(index);
            } else {
                throw invalid();
            }
            if (!text.isEmpty()) {
                out.add(new FormatPiece.Text(text.toString()));
                text.setLength(0);
            }
            out.add(Spec.parse(arg, colon < 0 ? "" : field.substring(colon + 1)));
        }
        if (!text.isEmpty()) {
            out.add(new FormatPiece.Text(text.toString()));
        }
        return List.copyOf(out);
    }

    static IllegalArgumentException invalid() {
        return new IllegalArgumentException("invalid format string");
    }

    /** One replacement field. */
    record Spec(int index, char fill, char align, boolean plus, boolean zero, int width, boolean group, int precision,
                char type) implements FormatPiece {

        static Spec parse(int index, String s) {
            int i = 0;
            char fill = ' ';
            char align = 0;
            if (s.length() >= 2 && "<>^".indexOf(s.charAt(1)) >= 0) {
                fill = s.charAt(0);
                align = s.charAt(1);
                i = 2;
            } else if (!s.isEmpty() && "<>^".indexOf(s.charAt(0)) >= 0) {
                align = s.charAt(0);
                i = 1;
            }
            boolean plus = i < s.length() && s.charAt(i) == '+';
            if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            boolean zero = i < s.length() && s.charAt(i) == '0';
            if (zero) {
                i++;
            }
            int w = i;
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            int width = w == i ? 0 : Integer.parseInt(s.substring(w, i));
            boolean group = i < s.length() && s.charAt(i) == ',';
            if (group) {
                i++;
            }
            int precision = -1;
            if (i < s.length() && s.charAt(i) == '.') {
                int p = ++i;
                while (i < s.length() && Character.isDigit(s.charAt(i))) {
                    i++;
                }
                if (p == i) {
                    throw invalid();
                }
                precision = Integer.parseInt(s.substring(p, i));
            }
            char type = 0;
            if (i < s.length()) {
                type = s.charAt(i++);
            }
            if (i < s.length()) {
                throw invalid();
            }
            return new Spec(index, fill, align, plus, zero, width, group, precision, type);
        }

        @Override
        public void append(StringBuilder out, Object[] args) {
            Object a = FormatRuntime.argument(args, index);
            String body = switch (a) {
                case Long l -> integer(l);
                case Double d -> floating(d);
                default -> {
                    if (type != 0 && type != 's') {
                        throw FormatRuntime.badType(type, a);
                    }
                    String s = (String) a;
                    yield precision >= 0 && precision < s.length() ? s.substring(0, precision) : s;
                }
            };
            out.append(aligned(body, a instanceof String));
        }

        private String integer(long v) {
            String sign = v < 0 ? "-" : plus ? "+" : "";
            long m = Math.abs(v);
            String digits = switch (type) {
                case 0, 'd' -> group ? String.format(Locale.ROOT, "%,d", m) : Long.toString(m);
                case 'x' -> Long.toHexString(m);
                case 'X' -> Long.toHexString(m).toUpperCase(Locale.ROOT);
                case 'o' -> Long.toOctalString(m);
                case 'b' -> Long.toBinaryString(m);
                default -> throw FormatRuntime.badType(type, v);
            };
            return zeroPadded(sign, digits);
        }

        private String floating(double v) {
            if (precision >= 0 && type == 0) {
                return zeroPadded(v < 0 ? "-" : plus ? "+" : "",
                        FormatRuntime.general(Math.abs(v), precision, "", false));
            }
            String sign = v < 0 || (v == 0 && 1 / v < 0) ? "-" : plus ? "+" : "";
            double m = Math.abs(v);
            String p = "." + (precision < 0 ? 6 : precision);
            String digits = switch (type) {
                case 0 -> io.tessera.storage.FloatText.ofDouble(m); // fmt's {}, the text of a CAST to VARCHAR
                case 'f', 'F' -> String.format(Locale.ROOT, "%" + (group ? "," : "") + p + "f",
                        FormatRuntime.exact(m, precision < 0 ? 6 : precision));
                case 'e', 'E' -> String.format(Locale.ROOT, "%" + p + "e", m);
                case 'g', 'G' -> FormatRuntime.general(m, precision < 0 ? 6 : precision, "", false);
                default -> throw FormatRuntime.badType(type, v);
            };
            return zeroPadded(sign, Character.isUpperCase(type) ? digits.toUpperCase(Locale.ROOT) : digits);
        }

        private String zeroPadded(String sign, String digits) {
            if (zero && align == 0 && sign.length() + digits.length() < width) {
                return sign + "0".repeat(width - sign.length() - digits.length()) + digits;
            }
            return sign + digits;
        }

        /** Strings align left by default, numbers right. */
        private String aligned(String s, boolean text) {
            int n = s.codePointCount(0, s.length());
            if (n >= width) {
                return s;
            }
            int gap = width - n;
            char a = align != 0 ? align : text ? '<' : '>';
            String f = String.valueOf(fill);
            return switch (a) {
                case '<' -> s + f.repeat(gap);
                case '^' -> f.repeat(gap / 2) + s + f.repeat(gap - gap / 2);
                default -> f.repeat(gap) + s;
            };
        }
    }
}
