package io.tessera.cli;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.tessera.storage.View;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Tab completion in the shell: in SQL, table, view and column names ({@code t.} offers t's columns), keywords and
 * functions; on a command line, the commands, then what each takes (tables, files, formats, on/off). Keywords come in
 * the case of what was typed. The database's tables are read at each completion, so new ones are offered at once.
 */
final class SqlCompleter implements Completer {

    private final Database database;

    SqlCompleter(Database database) {
        this.database = database;
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        for (String c : candidates(line.line(), line.cursor())) {
            boolean open = c.endsWith("(") || c.endsWith("/") || c.endsWith(".");
            candidates.add(new Candidate(c, c, null, null, null, null, !open));
        }
    }

    /** What may replace the word before {@code cursor} in {@code buffer} (the word itself is not filtered here). */
    List<String> candidates(String buffer, int cursor) {
        String before = buffer.substring(0, cursor);
        String text = before.substring(before.lastIndexOf('\n') + 1);
        String word = SqlLineParser.Word.at(buffer, cursor).word();
        if (SqlLineParser.Word.isCommandLine(text)) {
            String typed = text.stripLeading();
            if (typed.equals(word)) {
                return List.copyOf(word.startsWith(".") ? ShellCommand.DOT_ALIASES.keySet() : ShellCommand.NAMES);
            }
            return argumentsOf(ShellCommand.parse(typed).name(), word);
        }
        Set<String> out = new LinkedHashSet<>();
        int dot = word.lastIndexOf('.');
        if (dot > 0) {
            String qualifier = word.substring(0, dot);
            for (String c : columns(qualifier)) {
                out.add(qualifier + "." + c);
            }
            return new ArrayList<>(out);
        }
        boolean lower = word.equals(word.toLowerCase(Locale.ROOT));
        out.addAll(names());
        for (String c : columns(null)) {
            out.add(c);
        }
        for (String k : SqlWords.KEYWORDS) {
            out.add(lower ? k.toLowerCase(Locale.ROOT) : k);
        }
        for (String f : SqlWords.FUNCTIONS) {
            out.add((lower ? f : f.toUpperCase(Locale.ROOT)) + "(");
        }
        return new ArrayList<>(out);
    }

    private List<String> argumentsOf(String command, String word) {
        return switch (command) {
            case "\\d", "\\schema" -> names();
            case "\\i", "\\o" -> files(word);
            case "\\format" -> List.of("table", "csv", "json", "box", "line");
            case "\\x", "\\timing" -> List.of("on", "off");
            default -> List.of();
        };
    }

    /** The tables and views. */
    private List<String> names() {
        List<String> n = new ArrayList<>();
        for (Table t : database.tables()) {
            n.add(t.name());
        }
        for (View v : database.views()) {
            n.add(v.name());
        }
        return n;
    }

    /** The columns of the table {@code qualifier} names, or of every table when it names none (an alias). */
    private List<String> columns(String qualifier) {
        List<Table> tables = database.tables();
        if (qualifier != null) {
            for (Table t : tables) {
                if (t.name().equalsIgnoreCase(qualifier)) {
                    tables = List.of(t);
                    break;
                }
            }
        }
        Set<String> c = new LinkedHashSet<>();
        for (Table t : tables) {
            for (ColumnSchema col : t.schema().columns()) {
                c.add(col.name());
            }
        }
        return new ArrayList<>(c);
    }

    /** The files and directories (with a '/') in the directory the typed path is in. */
    static List<String> files(String typed) {
        int slash = typed.lastIndexOf('/');
        String dirPart = slash >= 0 ? typed.substring(0, slash + 1) : "";
        Path dir = Path.of(dirPart.isEmpty() ? "." : dirPart);
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> out.add(dirPart + p.getFileName() + (Files.isDirectory(p) ? "/" : "")));
        } catch (IOException | RuntimeException e) {
            return List.of(); // nothing to offer from a directory that cannot be read
        }
        out.sort(null);
        return out;
    }
}
