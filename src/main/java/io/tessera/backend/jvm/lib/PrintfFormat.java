package io.tessera.backend.jvm.lib;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PRINTF's formats, C's: {@code %[flags][width][.precision]conversion} with the flags {@code - + 0 space #}, the
 * conversions {@code d i x X o c} of integers, {@code f F e E g G} of floating numbers, {@code s} of strings, and
 * {@code %%}. Arguments are taken in order.
 */
final class PrintfFormat {

    private PrintfFormat() {
    }

    static List<FormatPiece> parse(String fmt) {
        List<FormatPiece> out = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int next = 0;
        int i = 0;
        while (i < fmt.length()) {
            char c = fmt.charAt(i++);
            if (c != '%') {
                text.append(c);
                continue;
            }
            if (i < fmt.length() && fmt.charAt(i) == '%') {
                text.append('%');
                i++;
                continue;
            }
            int start = i;
            while (i < fmt.length() && "-+0 #".indexOf(fmt.charAt(i)) >= 0) {
                i++;
            }
            String flags = fmt.substring(start, i);
            int w = i;
            while (i < fmt.length() && Character.isDigit(fmt.charAt(i))) {
                i++;
            }
            String width = fmt.substring(w, i);
            int precision = -1;
            if (i < fmt.length() && fmt.charAt(i) == '.') {
                int p = ++i;
                while (i < fmt.length() && Character.isDigit(fmt.charAt(i))) {
                    i++;
                }
                precision = p == i ? 0 : Integer.parseInt(fmt.substring(p, i));
            }
            if (i >= fmt.length()) {
                throw new IllegalArgumentException("invalid format string");
            }
            if (!text.isEmpty()) {
                out.add(new FormatPiece.Text(text.toString()));
                text.setLength(0);
            }
            out.add(new Conversion(next++, flags, width, precision, fmt.charAt(i++)));
        }
        if (!text.isEmpty()) {
            out.add(new FormatPiece.Text(text.toString()));
        }
        return List.copyOf(out);
    }

    /** One conversion of the argument at index. */
    record Conversion(int index, String flags, String width, int precision, char type) implements FormatPiece {

        private int places() {
            return precision < 0 ? 6 : precision;
        }

        @Override
        public void append(StringBuilder out, Object[] args) {
            Object a = FormatRuntime.argument(args, index);
            String prec = precision < 0 ? "" : "." + precision;
            String java = switch (type) {
                case 'd', 'i', 'x', 'X', 'o', 'c' -> a instanceof Long ? null : "";
                case 'f', 'F', 'e', 'E', 'g', 'G' -> a instanceof Double ? null : "";
                case 's' -> a instanceof String ? null : "";
                default -> "";
            };
            if (java != null) {
                throw FormatRuntime.badType(type, a);
            }
            String s = switch (type) {
                case 'd', 'i' -> String.format(Locale.ROOT, "%" + flags + width + "d", a);
                case 'x', 'X', 'o' -> String.format(Locale.ROOT, "%" + flags.replace("+", "").replace(" ", "") + width + type, a);
                case 'c' -> String.format(Locale.ROOT, "%" + flags.replace("0", "") + width + "c",
                        Math.toIntExact((Long) a));
                case 'f', 'F' -> String.format(Locale.ROOT, "%" + flags + width + "." + places() + "f",
                        FormatRuntime.exact((Double) a, places()));
                case 'e', 'E' -> String.format(Locale.ROOT, "%" + flags + width + "." + places() + type, a);
                case 'g', 'G' -> Padding.pad(FormatRuntime.general((Double) a, precision < 0 ? 6 : precision, flags,
                        type == 'G'), flags, width);
                default -> String.format(Locale.ROOT, "%" + flags.replace("0", "") + width + prec + "s", a);
            };
            out.append(s);
        }
    }
}
