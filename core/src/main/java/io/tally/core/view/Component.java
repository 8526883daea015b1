package io.tally.core.view;

import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.function.Function;

/**
 * A component of a record, named by its accessor: {@code ItemBookmarks::bookmarks}. A view names its figures so, and
 * the names (of the stored counters, of the answer's fields, of a route's path parameter) come from the record: no
 * string to keep in step with it.
 *
 * <p>How the name is found: a method reference to a {@link Serializable} functional interface can be turned into its
 * {@link SerializedLambda}, which names the method it refers to and its class; the name is then checked to be a
 * component of that record. A lambda ({@code r -> r.bookmarks()}) or a method of another kind is refused with the
 * reason.
 *
 * @param <R> the record
 * @param <V> the component's type
 */
@FunctionalInterface
public interface Component<R extends Record, V> extends Function<R, V>, Serializable {
    /** The component's name; refuses anything but a method reference to a record's accessor. */
    default String name() {
        return describe(this).getName();
    }

    /** The record class the accessor belongs to. */
    default Class<?> record() {
        return describe(this).getDeclaringRecord();
    }

    /** The record component this method reference names. */
    static RecordComponent describe(Component<?, ?> accessor) {
        SerializedLambda lambda = serialized(accessor);
        if (lambda.getImplMethodName().startsWith("lambda$")) {
            throw new IllegalArgumentException("a record component is named by its accessor (Type::component), not"
                    + " by a lambda: " + lambda.getImplClass() + "." + lambda.getImplMethodName());
        }
        Class<?> owner;
        try {
            owner = Class.forName(lambda.getImplClass().replace('/', '.'), false,
                    accessor.getClass().getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("the class of " + lambda.getImplMethodName() + " cannot be loaded: "
                    + lambda.getImplClass(), e);
        }
        if (!owner.isRecord()) {
            throw new IllegalArgumentException(owner.getSimpleName() + "::" + lambda.getImplMethodName()
                    + " is not a record's accessor: " + owner.getName() + " is not a record");
        }
        return Arrays.stream(owner.getRecordComponents())
                .filter(component -> component.getName().equals(lambda.getImplMethodName())
                        && lambda.getImplMethodSignature().equals("()" + descriptor(component.getType())))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(owner.getSimpleName() + "::"
                        + lambda.getImplMethodName() + " is not one of its record components"));
    }

    private static SerializedLambda serialized(Object lambda) {
        try {
            Method writeReplace = lambda.getClass().getDeclaredMethod("writeReplace");
            writeReplace.setAccessible(true);
            return (SerializedLambda) writeReplace.invoke(lambda);
        } catch (ReflectiveOperationException | ClassCastException | SecurityException e) {
            throw new IllegalArgumentException("not a method reference that can be named: " + lambda, e);
        }
    }

    private static String descriptor(Class<?> type) {
        if (type.isArray()) {
            return type.getName().replace('.', '/');
        }
        if (!type.isPrimitive()) {
            return "L" + type.getName().replace('.', '/') + ";";
        }
        return switch (type.getName()) {
            case "long" -> "J";
            case "int" -> "I";
            case "boolean" -> "Z";
            case "double" -> "D";
            case "float" -> "F";
            case "short" -> "S";
            case "byte" -> "B";
            case "char" -> "C";
            default -> "V";
        };
    }
}
