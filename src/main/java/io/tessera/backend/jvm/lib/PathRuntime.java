package io.tessera.backend.jvm.lib;

import io.tessera.storage.ListCodec;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB's path functions (PARSE_PATH, PARSE_DIRNAME, PARSE_DIRPATH, PARSE_FILENAME): a path split at the
 * characters its separator option names ('forward_slash' /, 'backslash' \, 'system' this machine's, any other
 * option both).
 */
public final class PathRuntime {

    private PathRuntime() {
    }

    private static String separators(String option) {
        return switch (option) {
            case "system" -> File.separator;
            case "forward_slash" -> "/";
            case "backslash" -> "\\";
            default -> "/\\";
        };
    }

    private static int first(String path, String separators) {
        for (int i = 0; i < path.length(); i++) {
            if (separators.indexOf(path.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    private static int last(String path, String separators) {
        for (int i = path.length() - 1; i >= 0; i--) {
            if (separators.indexOf(path.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    /** PARSE_PATH: the parts between separators (empty ones dropped), a leading separator the first part. */
    public static String parsePath(String path, String option) {
        String separators = separators(option);
        List<String> parts = new ArrayList<>();
        if (!path.isEmpty() && separators.indexOf(path.charAt(0)) >= 0) {
            parts.add(path.substring(0, 1));
        }
        int start = 0;
        for (int i = 0; i <= path.length(); i++) {
            if (i == path.length() || separators.indexOf(path.charAt(i)) >= 0) {
                if (i > start) {
                    parts.add(path.substring(start, i));
                }
                start = i + 1;
            }
        }
        return ListCodec.join(parts.toArray(new String[0]));
    }

    /** PARSE_DIRNAME: the part before the first separator, the separator itself where the path starts with one. */
    public static String dirname(String path, String option) {
        int i = first(path, separators(option));
        return i < 0 ? "" : path.substring(0, Math.max(i, 1));
    }

    /** PARSE_DIRPATH: everything before the last separator ('' where there is none). */
    public static String dirpath(String path, String option) {
        int i = last(path, separators(option));
        return i < 0 ? "" : path.substring(0, i);
    }

    /** PARSE_FILENAME: everything after the last separator, without its last '.' and what follows where asked. */
    public static String filename(String path, boolean trimExtension, String option) {
        String name = path.substring(last(path, separators(option)) + 1);
        int dot = trimExtension ? name.lastIndexOf('.') : -1;
        return dot < 0 ? name : name.substring(0, dot);
    }
}
