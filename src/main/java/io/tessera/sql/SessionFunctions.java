package io.tessera.sql;

import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;

import java.time.ZoneId;
import java.util.Locale;
import java.util.Set;

/**
 * DuckDB's functions of the session, as constants of the statement: VERSION() is Tessera's version as DuckDB writes
 * its own ({@code v} and the release, {@link #VERSION}), CURRENT_SETTING(name) the value of one of Tessera's settings
 * (TimeZone, the session's zone); a setting Tessera does not have, such as DuckDB's threads, is refused naming it.
 */
final class SessionFunctions {

    private SessionFunctions() {
    }

    /** Tessera's version, the project's (pom.xml) with DuckDB's leading v; SessionFunctionsTest keeps them equal. */
    static final String VERSION = "v0.1.0-SNAPSHOT";

    static final Set<String> NAMES = Set.of("VERSION", "CURRENT_SETTING");

    static SqlNode rewrite(SqlNode parsed, ZoneId zone) {
        return UnresolvedCalls.rewrite(parsed, (name, c) -> {
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
}
