package io.tally.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One table of the page: its columns first, each a header cell and an alignment (text to the left, figures to the
 * right), then its rows of values, rendered once. A cell is written as its value reads ({@link String#valueOf}),
 * between single spaces; an empty cell is a single space ({@code | |}), as the page has always written a cell left
 * blank.
 */
final class MarkdownTable {
    private static final String LEFT = "---";
    private static final String RIGHT = "---:";

    private final List<String> headers = new ArrayList<>();
    private final List<String> alignments = new ArrayList<>();
    private final List<List<String>> rows = new ArrayList<>();

    /** Columns aligned left, in order: text. */
    MarkdownTable left(String... headers) {
        return columns(LEFT, headers);
    }

    /** Columns aligned right, in order: figures. */
    MarkdownTable right(String... headers) {
        return columns(RIGHT, headers);
    }

    private MarkdownTable columns(String alignment, String... names) {
        if (!rows.isEmpty()) {
            throw new IllegalStateException("columns come before the rows");
        }
        for (String name : names) {
            headers.add(name);
            alignments.add(alignment);
        }
        return this;
    }

    /** A row: one value a column. */
    MarkdownTable row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("a row of " + cells.length + " cells in a table of " + headers.size()
                    + " columns: " + Arrays.toString(cells));
        }
        rows.add(Arrays.stream(cells).map(String::valueOf).toList());
        return this;
    }

    /** Whether no row was added. */
    boolean isEmpty() {
        return rows.isEmpty();
    }

    /** The header line, the alignment line and a line a row, each ending with a newline. */
    String render() {
        StringBuilder md = new StringBuilder();
        line(md, headers);
        md.append('|');
        alignments.forEach(alignment -> md.append(alignment).append('|'));
        md.append('\n');
        rows.forEach(row -> line(md, row));
        return md.toString();
    }

    private static void line(StringBuilder md, List<String> cells) {
        md.append('|');
        for (String cell : cells) {
            md.append(cell.isEmpty() ? " " : " " + cell + " ").append('|');
        }
        md.append('\n');
    }
}
