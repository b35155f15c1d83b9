package io.tessera.cli.format;

import picocli.CommandLine;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;

/** The output formats of {@code tessera sql}: their names on the command line and their formatters. */
public enum OutputFormat {
    TABLE(new TableFormatter()),
    CSV(new CsvFormatter()),
    JSON(new JsonFormatter());

    private final ResultFormatter formatter;

    OutputFormat(ResultFormatter formatter) {
        this.formatter = formatter;
    }

    public ResultFormatter formatter() {
        return formatter;
    }

    /** The name users type: {@code table}, {@code csv}, {@code json}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a format name, ignoring case; the error lists the names there are. */
    public static OutputFormat parse(String text) {
        for (OutputFormat f : values()) {
            if (f.label().equalsIgnoreCase(text.trim())) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown format '" + text.trim() + "' (expected " + names() + ")");
    }

    public static String names() {
        return String.join("|", Arrays.stream(values()).map(OutputFormat::label).toList());
    }

    /** Picocli conversion of {@code --format}. */
    public static final class Converter implements CommandLine.ITypeConverter<OutputFormat> {
        @Override
        public OutputFormat convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** Picocli completion candidates (and the list shown in the help) for {@code --format}. */
    public static final class Candidates implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(values()).map(OutputFormat::label).iterator();
        }
    }
}
