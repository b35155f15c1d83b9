package io.tessera.sql;

import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlShuttle;

import java.time.ZoneId;
import java.util.Locale;
import java.util.Set;

/**
 * DuckDB's functions of the session, as constants of the statement: VERSION() is Tessera's version as DuckDB writes
 * its own ({@code v} and the release, {@link #VERSION}), CURRENT_SETTING(name) the value of one of Tessera's settings
 * (TimeZone, the session's zone); a setting Tessera does not have, such as DuckDB's threads, is refused naming it.
 * CURRENT_SCHEMA() is DuckDB's schema, main (every table is in it, {@link MainSchema}); CURRENT_DATABASE() and
 * CURRENT_CATALOG the database's name, which DuckDB takes from its file's name without the extension and Tessera
 * from its directory's; CURRENT_USER, SESSION_USER and USER the user DuckDB names, duckdb (Tessera has no users).
 * Those that are reserved words (all but CURRENT_DATABASE) are answered both as written with empty parentheses (the
 * grammar's TesseraSessionCall) and as the bare word, which the parser leaves as an unquoted name.
 */
final class SessionFunctions {

    private SessionFunctions() {
    }

    /** Tessera's version, the project's (pom.xml) with DuckDB's leading v; SessionFunctionsTest keeps them equal. */
    static final String VERSION = "v0.1.0-SNAPSHOT";

    /** The schema every table is in, as DuckDB names it. */
    static final String SCHEMA = "main";

    /** The user DuckDB answers for CURRENT_USER, SESSION_USER and USER. */
    static final String USER = "duckdb";

    static final Set<String> NAMES = Set.of("VERSION", "CURRENT_SETTING", "CURRENT_SCHEMA", "CURRENT_DATABASE",
            "CURRENT_CATALOG", "CURRENT_USER", "SESSION_USER", "USER");

    /** The reserved words of the session, as the parser leaves them without parentheses (a name). */
    private static final Set<String> WORDS = Set.of("CURRENT_SCHEMA", "CURRENT_CATALOG", "CURRENT_USER",
            "SESSION_USER", "USER");

    /** Whether {@code id} is one of the reserved words of the session, unquoted, on its own (not a column's name). */
    static boolean isWord(SqlIdentifier id) {
        return id.isSimple() && !id.isComponentQuoted(0) && WORDS.contains(id.getSimple().toUpperCase(Locale.ROOT));
    }

    /** The name of the database in {@code directory} (null: none, as DuckDB names a database in memory). */
    static String databaseName(java.nio.file.Path directory) {
        java.nio.file.Path name = directory == null ? null : directory.toAbsolutePath().normalize().getFileName();
        return name == null ? "memory" : name.toString();
    }

    /**
     * {@code parsed} with the session's functions replaced by their values: {@code zone} the session's time zone,
     * {@code database} the database's name ({@link #databaseName}).
     */
    static SqlNode rewrite(SqlNode parsed, ZoneId zone, String database) {
        SqlNode words = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                if (!isWord(id)) {
                    return id;
                }
                String value = value(id.getSimple().toUpperCase(Locale.ROOT), database);
                return SqlLiteral.createCharString(value, id.getParserPosition());
            }
        });
        return UnresolvedCalls.rewrite(words == null ? parsed : words, (name, c) -> {
            String value = value(name, database);
            if (value != null) {
                if (c.operandCount() != 0) {
                    throw new SqlError(name.toLowerCase(Locale.ROOT) + " takes no arguments"
                            + SupportCheck.at(c.getParserPosition()));
                }
                return SqlLiteral.createCharString(value, c.getParserPosition());
            }
            if (name.equals("VERSION")) {
                if (c.operandCount() != 0) {
                    throw new SqlError("version takes no arguments" + SupportCheck.at(c.getParserPosition()));
                }
                return SqlLiteral.createCharString(VERSION, c.getParserPosition());
            }
            if (name.equals("CURRENT_SETTING")) {
                if (c.operandCount() != 1 || !(c.operand(0) instanceof SqlCharStringLiteral setting)) {
                    throw SupportCheck.unsupported("current_setting of anything but a setting's name as a string",
                            c.getParserPosition());
                }
                String named = setting.getValueAs(String.class);
                if (!named.strip().toLowerCase(Locale.ROOT).equals(SessionSettings.TIME_ZONE)) {
                    throw SupportCheck.unsupported("current_setting('" + named + "'): Tessera has no setting '"
                            + named + "' (its settings: TimeZone)", c.getParserPosition());
                }
                // UTC, the zone before any SET, by its name rather than its offset's (Z)
                return SqlLiteral.createCharString(zone.equals(java.time.ZoneOffset.UTC) ? "UTC" : zone.getId(),
                        c.getParserPosition());
            }
            return null;
        });
    }

    /** The value of the session's function {@code name} (upper case) without arguments; null for another name. */
    private static String value(String name, String database) {
        return switch (name) {
            case "CURRENT_SCHEMA" -> SCHEMA;
            case "CURRENT_DATABASE", "CURRENT_CATALOG" -> database;
            case "CURRENT_USER", "SESSION_USER", "USER" -> USER;
            default -> null;
        };
    }
}
