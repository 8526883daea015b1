package io.tally.core.http;

import java.util.Objects;

/**
 * Who may call a route: declared once per route where it is registered ({@link Router#add(String, String, Access,
 * Router.Handler)}) and enforced in one place, {@link Authorization#check}. With authorization off (the local
 * default) every rule lets every request through.
 *
 * @param kind      the rule
 * @param parameter the path parameter ({@link Kind#OWNER}, {@link Kind#OWNER_OR_ADMIN},
 *                  {@link Kind#AUTHOR_OWNER_OR_ADMIN}) or body field ({@link Kind#NEW_USER}, {@link Kind#AUTHOR}) that
 *                  names the user; null for the other rules
 */
public record Access(Kind kind, String parameter) {
    /** The rules. */
    public enum Kind {
        /** The aggregate read side and the dashboard: public, or any signed-in caller (a deployment parameter). */
        READ_SIDE,
        /** Any caller with a valid token. */
        SIGNED_IN,
        /** The user the route's path names, and nobody else: that user's writes. */
        OWNER,
        /** The user the route's path names, or an admin: that user's private reads. */
        OWNER_OR_ADMIN,
        /** An admin (the {@code admin} group or scope): the catalogue, songs and organisations. */
        ADMIN,
        /** {@code POST /users}: the body's user id, when given, must be the caller's subject (its default). */
        NEW_USER,
        /**
         * Any signed-in caller, writing as itself: the body's author field, when given, must be the caller's subject
         * (its default). A comment on anyone's post.
         */
        AUTHOR,
        /**
         * The author of the item, the user the route's path names (the owner of what it belongs to), or an admin:
         * deleting a comment. {@link Authorization#check} asks for a signed-in caller; the route, once it has read
         * the item, finishes the check with {@link Authorization#checkAuthor}.
         */
        AUTHOR_OWNER_OR_ADMIN,
        /** A route registered without a rule: refused when authorization is on, and a failing test. */
        UNDECLARED
    }

    public static final Access READ_SIDE = new Access(Kind.READ_SIDE, null);
    public static final Access SIGNED_IN = new Access(Kind.SIGNED_IN, null);
    public static final Access ADMIN = new Access(Kind.ADMIN, null);
    public static final Access UNDECLARED = new Access(Kind.UNDECLARED, null);

    public Access {
        Objects.requireNonNull(kind, "kind");
        boolean named = kind == Kind.OWNER || kind == Kind.OWNER_OR_ADMIN || kind == Kind.NEW_USER
                || kind == Kind.AUTHOR || kind == Kind.AUTHOR_OWNER_OR_ADMIN;
        if (named != (parameter != null)) {
            throw new IllegalArgumentException(kind + (named ? " names the user's parameter" : " takes no parameter"));
        }
    }

    /** Only the user named by the path parameter {@code userParameter} (e.g. {@code userId}). */
    public static Access owner(String userParameter) {
        return new Access(Kind.OWNER, userParameter);
    }

    /** The user named by the path parameter {@code userParameter}, or an admin. */
    public static Access ownerOrAdmin(String userParameter) {
        return new Access(Kind.OWNER_OR_ADMIN, userParameter);
    }

    /** A new user: the body field {@code userField}, when present, must be the caller's subject. */
    public static Access newUser(String userField) {
        return new Access(Kind.NEW_USER, userField);
    }

    /** Any signed-in caller as the author: the body field {@code authorField}, when present, must be its subject. */
    public static Access author(String authorField) {
        return new Access(Kind.AUTHOR, authorField);
    }

    /**
     * The item's author, the user named by the path parameter {@code ownerParameter}, or an admin; the route reads the
     * author and calls {@link Authorization#checkAuthor}.
     */
    public static Access authorOwnerOrAdmin(String ownerParameter) {
        return new Access(Kind.AUTHOR_OWNER_OR_ADMIN, ownerParameter);
    }

    /** E.g. {@code owner(userId)}, {@code admin}, {@code read-side}. */
    @Override
    public String toString() {
        String name = kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        return parameter == null ? name : name + "(" + parameter + ")";
    }
}
