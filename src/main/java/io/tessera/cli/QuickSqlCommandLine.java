package io.tessera.cli;

import io.tessera.cli.format.OutputFormat;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The plain command lines of {@code tessera sql} (a database, {@code -c}, {@code --format}, {@code --device},
 * {@code --timing}, {@code --create}, {@code --no-wait}), read by hand into a {@link SqlCommand}. Picocli builds its
 * model of a command from annotations by reflection, which costs a fresh process about a quarter of a second of its
 * main thread before any work (docs/PERFORMANCE.md, "First query (VM)"), most of it picocli's own one-time start; a
 * {@code tessera sql -c} that answers one query in well under a second should not pay that.
 *
 * <p>Anything else goes to picocli, which parses it as always: {@code --help}, the other options, an option given
 * twice, a value that picocli would judge (one starting with {@code -}, a format that is not one), an argument file
 * ({@code @FILE}), a missing or a second database, {@code --} and any argument this reader does not know. So every
 * usage error, and its message, stays picocli's; this reader only accepts command lines that picocli reads the same.
 */
final class QuickSqlCommandLine {

    private QuickSqlCommandLine() {
    }

    /**
     * The command for {@code args} (whose first is {@code sql}) with its fields set as picocli would set them, or
     * {@code null} when picocli must read the command line.
     */
    static SqlCommand parse(String... args) {
        if (args.length < 2 || !args[0].equals("sql")) {
            return null;
        }
        SqlCommand c = new SqlCommand();
        c.noWait = new NoWaitOption();
        c.format = OutputFormat.TABLE;
        c.device = "auto";
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            if (arg.startsWith("@")) {
                return null; // picocli reads the arguments of a file named so
            }
            if (!arg.startsWith("-")) {
                if (c.dbArgument != null) {
                    return null;
                }
                c.dbArgument = path(arg);
                if (c.dbArgument == null) {
                    return null;
                }
                continue;
            }
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 2) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            String key = name.equals("--command") ? "-c" : name;
            if (!seen.add(key)) {
                return null; // picocli reports an option given twice
            }
            switch (key) {
                case "--timing", "--create", "--no-wait" -> {
                    if (value != null) {
                        return null;
                    }
                    switch (key) {
                        case "--timing" -> c.timing = true;
                        case "--create" -> c.create = true;
                        default -> c.noWait.noWait = true;
                    }
                }
                case "--db", "-c", "--format", "--device" -> {
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            return null;
                        }
                        value = args[++i];
                    }
                    if (value.startsWith("@")) {
                        return null;
                    }
                    if (value.startsWith("-") || !set(c, key, value)) {
                        return null;
                    }
                }
                default -> {
                    return null; // --help, --version, --tune, --allow-read, ... and unknown options: picocli's
                }
            }
        }
        if (c.dbOption == null && c.dbArgument == null) {
            return null;
        }
        if (c.dbOption != null && c.dbArgument != null && !c.dbOption.equals(c.dbArgument)) {
            return null;
        }
        return c;
    }

    /** Sets the option {@code key} to {@code value}; false where the value is not one picocli would take as is. */
    private static boolean set(SqlCommand c, String key, String value) {
        switch (key) {
            case "--db" -> c.dbOption = path(value);
            case "-c" -> c.command = value;
            case "--format" -> {
                try {
                    c.format = OutputFormat.parse(value);
                } catch (IllegalArgumentException e) {
                    return false;
                }
            }
            default -> c.device = value; // checked where the command runs, as after picocli
        }
        return !key.equals("--db") || c.dbOption != null;
    }

    private static Path path(String text) {
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            return null;
        }
    }
}
