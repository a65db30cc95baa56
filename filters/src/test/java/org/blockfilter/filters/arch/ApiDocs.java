package org.blockfilter.filters.arch;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Finds the public API declarations of a source tree that have no Javadoc: every public or protected type, constructor,
 * method, field and enum constant that a user of the module can reach (its enclosing types are public too), in the
 * packages the caller names as API. Methods marked {@code @Override} inherit their documentation and are not required
 * to repeat it; a record's components, compact constructor and component accessors are documented by the record's
 * {@code @param} tags. Sources are parsed (not compiled) with the JDK's own parser, so the check needs no classpath.
 *
 * <p>Why a scan and not javadoc's {@code -Xdoclint:missing}: doclint's {@code missing} group also demands an
 * {@code @param} and {@code @return} tag for every parameter and result, which for accessors like {@code height()}
 * produces text that only restates the name. The rule here is the one a reader needs: every entry point says what it
 * does. Javadoc's other doclint groups (syntax, HTML, references) run in the build itself and fail it on errors.
 */
public final class ApiDocs {
    private ApiDocs() {}

    /**
     * Lists the undocumented API declarations under a source root.
     *
     * @param sourceRoot a {@code src/main/java} directory
     * @param apiPackage which package names (dotted) are API; declarations in the others are not checked
     * @return one line per undocumented declaration, {@code path:line: kind name}, in file order; empty when all are
     *     documented
     */
    public static List<String> undocumented(Path sourceRoot, Predicate<String> apiPackage) {
        Path root = sourceRoot.toAbsolutePath().normalize();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fm = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        JavacTask task = (JavacTask)
                javac.getTask(null, fm, d -> {}, List.of("-proc:none"), null, fm.getJavaFileObjectsFromPaths(files));
        DocTrees docs = DocTrees.instance(task);
        List<String> missing = new ArrayList<>();
        try {
            for (CompilationUnitTree unit : task.parse()) {
                String pkg = unit.getPackageName() == null
                        ? ""
                        : unit.getPackageName().toString();
                if (apiPackage.test(pkg)) {
                    new Scanner(unit, docs, root, missing).scan(unit, null);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return missing;
    }

    private static final class Scanner extends TreePathScanner<Void, Void> {
        private final CompilationUnitTree unit;
        private final DocTrees docs;
        private final Path root;
        private final List<String> missing;
        /** For each enclosing type: whether its members are implicitly public (interfaces, annotations). */
        private final Deque<Boolean> implicitlyPublic = new ArrayDeque<>();

        Scanner(CompilationUnitTree unit, DocTrees docs, Path root, List<String> missing) {
            this.unit = unit;
            this.docs = docs;
            this.root = root;
            this.missing = missing;
        }

        @Override
        public Void visitClass(ClassTree type, Void unused) {
            if (!exposed(type.getModifiers())) {
                return null; // nothing inside a hidden type is API
            }
            require(type.getKind().toString().toLowerCase(java.util.Locale.ROOT), type.getSimpleName());
            Tree.Kind k = type.getKind();
            implicitlyPublic.push(k == Tree.Kind.INTERFACE || k == Tree.Kind.ANNOTATION_TYPE);
            try {
                return super.visitClass(type, null);
            } finally {
                implicitlyPublic.pop();
            }
        }

        @Override
        public Void visitMethod(MethodTree method, Void unused) {
            boolean override = method.getModifiers().getAnnotations().stream()
                    .anyMatch(a -> a.getAnnotationType().toString().endsWith("Override"));
            if (exposed(method.getModifiers()) && !override && !recordMember(method)) {
                boolean constructor = method.getName().contentEquals("<init>");
                require(constructor ? "constructor" : "method", constructor ? enclosingName() : method.getName());
            }
            return null; // local classes inside a body are not API
        }

        @Override
        public Void visitVariable(VariableTree field, Void unused) {
            TreePath path = getCurrentPath();
            boolean enumConstant = path.getParentPath().getLeaf() instanceof ClassTree c
                    && c.getKind() == Tree.Kind.ENUM
                    && isEnumConstant(field);
            if (enumConstant || exposed(field.getModifiers())) {
                require(enumConstant ? "enum constant" : "field", field.getName());
            }
            return null;
        }

        /**
         * A record's compact constructor or the explicit accessor of one of its components: javadoc documents both from
         * the record's {@code @param} tags when they have no comment of their own.
         */
        private boolean recordMember(MethodTree method) {
            if (!(getCurrentPath().getParentPath().getLeaf() instanceof ClassTree record)
                    || record.getKind() != Tree.Kind.RECORD) {
                return false;
            }
            if (method.getName().contentEquals("<init>")) {
                return compact(method); // the parser gives the compact one the components as parameters
            }
            if (!method.getParameters().isEmpty()) {
                return false;
            }
            return record.getMembers().stream()
                    .anyMatch(m -> m instanceof VariableTree component
                            && !component.getModifiers().getFlags().contains(Modifier.STATIC)
                            && component.getName().contentEquals(method.getName()));
        }

        /** Whether a constructor's source has no parameter list between its name and its body. */
        private boolean compact(MethodTree constructor) {
            if (constructor.getBody() == null) {
                return false;
            }
            var positions = docs.getSourcePositions();
            long start = positions.getStartPosition(unit, constructor);
            long body = positions.getStartPosition(unit, constructor.getBody());
            try {
                String head = unit.getSourceFile()
                        .getCharContent(true)
                        .subSequence((int) start, (int) body)
                        .toString();
                return !head.contains("(");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static boolean isEnumConstant(VariableTree field) {
            return field.getModifiers()
                            .getFlags()
                            .containsAll(java.util.Set.of(Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL))
                    && field.getType() != null
                    && field.getInitializer() instanceof com.sun.source.tree.NewClassTree;
        }

        private boolean exposed(ModifiersTree modifiers) {
            var flags = modifiers.getFlags();
            if (flags.contains(Modifier.PRIVATE)) {
                return false;
            }
            if (flags.contains(Modifier.PUBLIC) || flags.contains(Modifier.PROTECTED)) {
                return true;
            }
            return !implicitlyPublic.isEmpty() && implicitlyPublic.peek();
        }

        private CharSequence enclosingName() {
            for (TreePath p = getCurrentPath(); p != null; p = p.getParentPath()) {
                if (p.getLeaf() instanceof ClassTree c) {
                    return c.getSimpleName();
                }
            }
            return "?";
        }

        private void require(String kind, CharSequence name) {
            String doc = docs.getDocComment(getCurrentPath());
            if (doc == null || doc.isBlank()) {
                long line = unit.getLineMap()
                        .getLineNumber(docs.getSourcePositions()
                                .getStartPosition(unit, getCurrentPath().getLeaf()));
                missing.add(
                        root.relativize(Path.of(unit.getSourceFile().toUri())) + ":" + line + ": " + kind + " " + name);
            }
        }
    }
}
