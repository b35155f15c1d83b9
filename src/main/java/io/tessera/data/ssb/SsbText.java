package io.tessera.data.ssb;

import io.trino.tpch.Distributions;

import java.util.SplittableRandom;

/** The fixed value lists of SSB (from TPC-H) and fast builders for the strings that vary per row. */
final class SsbText {

    private SsbText() {
    }

    static final String[] REGIONS = {"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"};

    /** The 25 TPC-H nations in nation-key order. */
    static final String[] NATIONS = {"ALGERIA", "ARGENTINA", "BRAZIL", "CANADA", "EGYPT", "ETHIOPIA", "FRANCE",
            "GERMANY", "INDIA", "INDONESIA", "IRAN", "IRAQ", "JAPAN", "JORDAN", "KENYA", "MOROCCO", "MOZAMBIQUE",
            "PERU", "CHINA", "ROMANIA", "SAUDI ARABIA", "VIETNAM", "RUSSIA", "UNITED KINGDOM", "UNITED STATES"};

    /** Region index of each nation. */
    static final int[] NATION_REGION = {0, 1, 1, 1, 4, 0, 3, 3, 2, 2, 4, 4, 2, 4, 0, 0, 0, 1, 2, 3, 4, 2, 3, 3, 1};

    /** 250 cities: city i belongs to nation i / 10. */
    static final String[] CITIES = new String[250];

    static {
        for (int n = 0; n < NATIONS.length; n++) {
            String prefix = NATIONS[n].length() >= 9 ? NATIONS[n].substring(0, 9)
                    : NATIONS[n] + " ".repeat(9 - NATIONS[n].length());
            for (int d = 0; d < 10; d++) {
                CITIES[n * 10 + d] = prefix + d;
            }
        }
    }

    static final String[] SEGMENTS = {"AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY"};
    static final String[] PRIORITIES = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECI", "5-LOW"};
    static final String[] SHIP_MODES = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};

    static final String[] COLORS;
    static final String[] TYPES;
    static final String[] CONTAINERS;

    static {
        Distributions d = Distributions.getDefaultDistributions();
        COLORS = d.getPartColors().getValues().toArray(String[]::new);
        TYPES = d.getPartTypes().getValues().toArray(String[]::new);
        CONTAINERS = d.getPartContainers().getValues().toArray(String[]::new);
    }

    static final String[] MFGRS = new String[5];
    static final String[] CATEGORIES = new String[25];
    static final String[] BRANDS = new String[1000];

    static {
        for (int m = 0; m < 5; m++) {
            MFGRS[m] = "MFGR#" + (m + 1);
            for (int c = 0; c < 5; c++) {
                CATEGORIES[m * 5 + c] = MFGRS[m] + (c + 1);
                for (int b = 0; b < 40; b++) {
                    BRANDS[(m * 5 + c) * 40 + b] = CATEGORIES[m * 5 + c] + (b < 9 ? "0" : "") + (b + 1);
                }
            }
        }
    }

    /** {@code prefix} followed by {@code n} in {@code width} digits with leading zeros ({@code Customer#000000001}). */
    static String padded(String prefix, long n, int width) {
        int p = prefix.length();
        char[] out = new char[p + width];
        prefix.getChars(0, p, out, 0);
        for (int i = p + width - 1; i >= p; i--) {
            out[i] = (char) ('0' + (n % 10));
            n /= 10;
        }
        return new String(out);
    }

    /** A phone number as dbgen writes it: country code (nation + 10), then 3, 3 and 4 digits. */
    static String phone(SplittableRandom r, int nation) {
        char[] out = new char[15];
        int cc = nation + 10;
        out[0] = (char) ('0' + cc / 10);
        out[1] = (char) ('0' + cc % 10);
        out[2] = '-';
        digits(out, 3, 100 + r.nextInt(900), 3);
        out[6] = '-';
        digits(out, 7, 100 + r.nextInt(900), 3);
        out[10] = '-';
        digits(out, 11, 1000 + r.nextInt(9000), 4);
        return new String(out);
    }

    private static void digits(char[] out, int at, int v, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (char) ('0' + v % 10);
            v /= 10;
        }
    }

    private static final char[] ADDRESS_CHARS =
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ,. ".toCharArray();

    /** A random address of 10 to 25 characters, as dbgen's variable text (letters, digits, a few marks). */
    static String address(SplittableRandom r) {
        int len = 10 + r.nextInt(16);
        char[] out = new char[len];
        for (int i = 0; i < len; i++) {
            out[i] = ADDRESS_CHARS[r.nextInt(ADDRESS_CHARS.length)];
        }
        // no leading or trailing blank, so the value survives trimming importers unchanged
        if (out[0] == ' ') {
            out[0] = 'a';
        }
        if (out[len - 1] == ' ') {
            out[len - 1] = 'z';
        }
        return new String(out);
    }
}
