package io.tally.core.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * What text the API accepts, wherever it enters: body fields, path segments, query parameters and the header values
 * it reads. Input is decoded strictly and checked once decoded; nothing is repaired, so nothing is stored altered.
 *
 * <ul>
 *   <li>Bytes must be UTF-8 (no malformed, truncated or overlong sequence, no encoded surrogate), and the decoded text
 *       valid Unicode: no lone surrogate, which a JSON escape such as {@code \ud800} can still produce
 *       ({@link #isValidUnicode}).</li>
 *   <li>No control character (U+0000..U+001F, U+007F..U+009F), except tab, line feed and carriage return in text
 *       that may span lines (a post's body, a comment; {@link Lines#ALLOWED}).</li>
 *   <li>No U+FFFD REPLACEMENT CHARACTER: it is what a lenient decoder leaves where bytes were not UTF-8, so text that
 *       holds one was altered before it arrived.</li>
 * </ul>
 */
public final class Text {
    /** Whether a text may span lines. */
    public enum Lines {
        /** One line: no control character at all (names, titles, identifiers, paths, query parameters). */
        SINGLE,
        /** Prose: tab, line feed and carriage return allowed, no other control character. */
        ALLOWED
    }

    private static final char REPLACEMENT = '\uFFFD';

    private Text() {
    }

    /**
     * The bytes as UTF-8, strictly: a malformed, truncated or overlong sequence or an encoded surrogate is an error,
     * never a replacement character.
     *
     * @throws CharacterCodingException if the bytes are not UTF-8
     */
    public static String decodeUtf8(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
    }

    /** Whether every surrogate has its pair: whether the text can be encoded as UTF-8 at all. */
    public static boolean isValidUnicode(CharSequence text) {
        return loneSurrogate(text) < 0;
    }

    /**
     * What is wrong with {@code text} under the rules above, as the end of a sentence (e.g. "holds the control
     * character U+0000"), or null when it is acceptable.
     */
    public static String problem(CharSequence text, Lines lines) {
        int lone = loneSurrogate(text);
        if (lone >= 0) {
            return "is not valid Unicode (a lone surrogate " + codePoint(text.charAt(lone)) + ")";
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isControl(c) && !(lines == Lines.ALLOWED && (c == '\t' || c == '\n' || c == '\r'))) {
                return "holds the control character " + codePoint(c);
            }
            if (c == REPLACEMENT) {
                return "holds U+FFFD, the replacement character of text that was not valid UTF-8";
            }
        }
        return null;
    }

    /**
     * Percent-decodes one path segment or query component strictly: every {@code %} starts two hex digits, the bytes
     * they give (with the characters around them, as UTF-8) must be UTF-8, and the result must be {@link #problem
     * acceptable} on one line. {@code +} stays a plus; a query's caller turns it into a space if it wants.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static String percentDecode(String encoded) {
        String decoded;
        if (encoded.indexOf('%') < 0) {
            decoded = encoded;
        } else {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
            int i = 0;
            while (i < encoded.length()) {
                char c = encoded.charAt(i);
                if (c == '%') {
                    int high = i + 2 < encoded.length() ? hex(encoded.charAt(i + 1)) : -1;
                    int low = high >= 0 ? hex(encoded.charAt(i + 2)) : -1;
                    if (low < 0) {
                        throw new IllegalArgumentException("holds a '%' that does not start an escape %XX");
                    }
                    bytes.write(high * 16 + low);
                    i += 3;
                } else {
                    int end = i;
                    while (end < encoded.length() && encoded.charAt(end) != '%') {
                        end++;
                    }
                    String plain = encoded.substring(i, end);
                    if (!isValidUnicode(plain)) {
                        throw new IllegalArgumentException(problem(plain, Lines.SINGLE));
                    }
                    bytes.writeBytes(plain.getBytes(StandardCharsets.UTF_8));
                    i = end;
                }
            }
            try {
                decoded = decodeUtf8(bytes.toByteArray());
            } catch (CharacterCodingException e) {
                throw new IllegalArgumentException("is not valid UTF-8 once decoded");
            }
        }
        String problem = problem(decoded, Lines.SINGLE);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return decoded;
    }

    /** An ASCII hex digit's value, or -1 (Character.digit would also take other scripts' digits). */
    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7F && c <= 0x9F);
    }

    /** The index of the first surrogate without its pair, or -1. */
    private static int loneSurrogate(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return i;
                }
            } else if (Character.isLowSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    private static String codePoint(char c) {
        return String.format("U+%04X", (int) c);
    }
}
