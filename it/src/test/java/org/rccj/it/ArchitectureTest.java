package org.rccj.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The plug-in boundary and the module layering (issue 37 item 7), over the main classes of every module:
 * <ul>
 * <li>a protocol ({@code org.rccj.protocols.X}) or a workload ({@code org.rccj.workloads.X}) imports the JDK, its own
 *     package and the plug-in API only: {@code primitives} and the framework packages a plug-in is written against
 *     ({@link #PLUG_IN_API}; decision 0132: not {@code runtime}, {@code run}, {@code coro}, {@code history}); never a
 *     fabric, the results, the studies, the command line, nor another protocol or workload ({@link #SHARED} names the
 *     kits several share);
 * <li>a module imports only the modules below it ({@link #BELOW}: the layering the poms declare, written out here so
 *     that a new upward arrow fails this test, not only a build that happens to lack the jar).
 * </ul>
 */
class ArchitectureTest {
    /** Framework packages (and primitives) a protocol or a workload may use: the plug-in API of decision 0132. */
    static final List<String> PLUG_IN_API = List.of("java..", "org.rccj.primitives..", "org.rccj.framework.api..",
            "org.rccj.framework.spi..", "org.rccj.framework.txn..", "org.rccj.framework.store..", "org.rccj.framework.stage..",
            "org.rccj.framework.log..", "org.rccj.framework.config..", "org.rccj.framework.stats..");

    /**
     * Packages beside the plug-in API that several plug-ins share: the lock kit of the lock-based protocols, the
     * workloads' common root (LocalFraction), and OCC's software costs, which HADES reuses (its validation runs OCC's).
     */
    static final Map<String, List<String>> SHARED = Map.of(
            "org.rccj.protocols", List.of("org.rccj.protocols.locking.."),
            "org.rccj.workloads", List.of("org.rccj.workloads"),
            "org.rccj.protocols.hades", List.of("org.rccj.protocols.occ.SwImplCosts"));

    /** Each module and the modules directly below it (it may import these and what is below them). */
    static final Map<String, List<String>> BELOW = new LinkedHashMap<>();
    static {
        BELOW.put("primitives", List.of());
        BELOW.put("framework", List.of("primitives"));
        BELOW.put("testkit", List.of("framework"));
        BELOW.put("fabrics", List.of("framework"));
        BELOW.put("ucx", List.of("fabrics"));
        BELOW.put("workloads", List.of("framework"));
        BELOW.put("protocols", List.of("framework"));
        BELOW.put("results", List.of("framework"));
        BELOW.put("hybrid-search", List.of("results"));
        BELOW.put("experiments", List.of("fabrics", "hybrid-search", "testkit"));
        BELOW.put("cli", List.of("experiments", "ucx", "protocols", "workloads"));
    }

    static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.rccj");

    private static final Pattern FROM_DIR = Pattern.compile("/([a-z-]+)/target/classes/");
    private static final Pattern FROM_JAR = Pattern.compile("/rccj-([a-z-]+)-\\d[^/]*\\.jar!");

    /** The module a class was loaded from (its build directory or its jar), or null when neither (the JDK). */
    static String module(JavaClass c) {
        if (c.getSource().isEmpty()) return null;
        String uri = c.getSource().get().getUri().toString();
        Matcher m = FROM_DIR.matcher(uri);
        if (m.find()) return m.group(1);
        m = FROM_JAR.matcher(uri);
        return m.find() ? m.group(1) : null;
    }

    @Test
    void everyModuleIsOnTheClassPath() {
        Set<String> seen = new TreeSet<>();
        for (JavaClass c : CLASSES) if (module(c) != null) seen.add(module(c));
        assertEquals(new TreeSet<>(BELOW.keySet()), seen, "the modules whose classes this test reads");
    }

    @Test
    void protocolsAndWorkloadsUseOnlyThePlugInApi() {
        int rules = 0;
        for (String root : List.of("org.rccj.protocols", "org.rccj.workloads")) {
            Set<String> plugIns = new TreeSet<>();
            for (JavaClass c : CLASSES) {
                String p = c.getPackageName();
                if (p.startsWith(root + ".")) plugIns.add(p.substring(0, p.indexOf('.', root.length() + 1) < 0 ? p.length() : p.indexOf('.', root.length() + 1)));
            }
            assertTrue(plugIns.size() >= 4, root + ": " + plugIns);
            for (String pkg : plugIns) {
                List<String> allowed = new ArrayList<>(PLUG_IN_API);
                allowed.add(pkg + "..");
                allowed.addAll(SHARED.getOrDefault(root, List.of()));
                List<String> exact = new ArrayList<>(SHARED.getOrDefault(pkg, List.of()));
                ArchRule rule = classes().that().resideInAPackage(pkg + "..")
                        .should().onlyDependOnClassesThat(com.tngtech.archunit.base.DescribedPredicate.describe(
                                "reside in " + allowed + " or are " + exact,
                                (JavaClass d) -> exact.contains(d.getName())
                                        || com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage(allowed.toArray(String[]::new)).test(d)))
                        .because("a plug-in is written against the plug-in API only (decision 0132)");
                rule.check(CLASSES);
                rules++;
            }
        }
        assertTrue(rules >= 10, "a rule per protocol and per workload: " + rules);
    }

    @Test
    void noModuleImportsOneAboveIt() {
        Map<String, Set<String>> reach = new LinkedHashMap<>();
        for (String m : BELOW.keySet()) reach.put(m, closure(m));
        List<String> violations = new ArrayList<>();
        Set<String> arrows = new TreeSet<>();
        for (JavaClass c : CLASSES) {
            String from = module(c);
            if (from == null || !BELOW.containsKey(from)) continue;
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String to = module(d.getTargetClass());
                if (to == null || to.equals(from)) continue;
                arrows.add(from + " -> " + to);
                if (!reach.get(from).contains(to)) violations.add(from + " -> " + to + ": " + d.getDescription());
            }
        }
        assertTrue(violations.isEmpty(), () -> violations.size() + " imports of a module not below:\n  "
                + String.join("\n  ", violations.subList(0, Math.min(20, violations.size()))));
        assertTrue(arrows.contains("cli -> experiments") && arrows.contains("framework -> primitives"), "dependencies were read: " + arrows);
    }

    private static Set<String> closure(String m) {
        Set<String> out = new LinkedHashSet<>();
        List<String> todo = new ArrayList<>(BELOW.get(m));
        while (!todo.isEmpty()) {
            String x = todo.remove(0);
            if (out.add(x)) todo.addAll(BELOW.get(x));
        }
        return out;
    }
}
