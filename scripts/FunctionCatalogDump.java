// Dumps the built-in SQL functions of the Flink release whose jars are on the class path, one
// JSON object per line, for scripts/gen_functions.py. It reads two sources, as Flink's planner
// resolves a function name in SQL:
//   1. org.apache.flink.table.functions.BuiltInFunctionDefinitions (the "new stack": name, kind,
//      type inference, determinism, whether it has a runtime implementation);
//   2. org.apache.flink.table.planner.functions.sql.FlinkSqlOperatorTable (Calcite operators,
//      including the ones it re-exports from Calcite's SqlStdOperatorTable).
// Run: java -cp <flink jars> scripts/FunctionCatalogDump.java > dump.jsonl
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

public class FunctionCatalogDump {
    static String q(Object o) {
        if (o == null) return "null";
        String s = o.toString();
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static String list(List<String> xs) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < xs.size(); i++) {
            if (i > 0) b.append(',');
            b.append(xs.get(i));
        }
        return b.append(']').toString();
    }

    /** Public static fields of the given classes, by identity of their value. */
    static Map<Object, String> constants(String... classNames) {
        Map<Object, String> m = new IdentityHashMap<>();
        for (String cn : classNames) {
            try {
                Class<?> c = Class.forName(cn);
                for (Field f : c.getFields()) {
                    if (Modifier.isStatic(f.getModifiers())) {
                        Object v = f.get(null);
                        if (v != null && !m.containsKey(v)) m.put(v, c.getSimpleName() + "." + f.getName());
                    }
                }
            } catch (Throwable t) {
                System.err.println("no constants from " + cn + ": " + t);
            }
        }
        return m;
    }

    /** A strategy object described as Class(field=value, ...), recursively, bounded in depth. */
    static String describe(Object o, Map<Object, String> names, int depth) {
        if (o == null) return "null";
        String known = names.get(o);
        if (known != null) return known;
        Class<?> c = o.getClass();
        if (o instanceof String || o instanceof Number || o instanceof Boolean || c.isEnum()) return o.toString();
        if (o instanceof Optional) {
            Optional<?> opt = (Optional<?>) o;
            return opt.isPresent() ? describe(opt.get(), names, depth) : "none";
        }
        if (o instanceof List) {
            List<String> parts = new ArrayList<>();
            for (Object x : (List<?>) o) parts.add(describe(x, names, depth + 1));
            return "[" + String.join(", ", parts) + "]";
        }
        if (c.getName().startsWith("org.apache.flink.table.types.DataType")
                || c.getName().startsWith("org.apache.flink.table.types.AtomicDataType")
                || c.getName().startsWith("org.apache.flink.table.types.logical.")) {
            return "type:" + o;
        }
        if (c.getName().startsWith("org.apache.calcite.sql.type.SqlTypeName")) return o.toString();
        if (depth > 4 || !(c.getName().startsWith("org.apache.flink") || c.getName().startsWith("org.apache.calcite"))) {
            return c.getSimpleName().isEmpty() ? c.getName() : c.getSimpleName();
        }
        List<String> parts = new ArrayList<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) continue;
                try {
                    f.setAccessible(true);
                    parts.add(f.getName() + "=" + describe(f.get(o), names, depth + 1));
                } catch (Throwable t) {
                    parts.add(f.getName() + "=?");
                }
            }
        }
        String n = c.getSimpleName().isEmpty() ? c.getName() : c.getSimpleName();
        return n + "(" + String.join(", ", parts) + ")";
    }

    static Object field(Object o, String name) throws Exception {
        for (Class<?> k = o.getClass(); k != null; k = k.getSuperclass()) {
            try {
                Field f = k.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(o);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(name);
    }

    /**
     * The operand families a Calcite type checker accepts, one list per accepted signature (a
     * family ending in "..." repeats), or null where the checker is not a plain family checker or
     * an OR / SEQUENCE / REPEAT composition of them.
     */
    static List<List<String>> calciteSignatures(Object tc) {
        if (tc == null) return null;
        try {
            String cn = tc.getClass().getName();
            if (cn.equals("org.apache.calcite.sql.type.FamilyOperandTypeChecker")) {
                List<String> fams = new ArrayList<>();
                for (Object fam : (List<?>) field(tc, "families")) fams.add(fam.toString());
                List<List<String>> out = new ArrayList<>();
                out.add(fams);
                return out;
            }
            if (cn.equals("org.apache.calcite.sql.type.CompositeOperandTypeChecker")
                    || cn.equals("org.apache.calcite.sql.type.CompositeSingleOperandTypeChecker")) {
                String comp = field(tc, "composition").toString();
                List<?> rules = (List<?>) field(tc, "allowedRules");
                List<List<List<String>>> kids = new ArrayList<>();
                for (Object r : rules) {
                    List<List<String>> k = calciteSignatures(r);
                    if (k == null) return null;
                    kids.add(k);
                }
                List<List<String>> out = new ArrayList<>();
                if (comp.equals("OR")) {
                    for (List<List<String>> k : kids) out.addAll(k);
                    return out;
                }
                if (comp.equals("SEQUENCE") || comp.equals("REPEAT")) {
                    List<String> seq = new ArrayList<>();
                    for (List<List<String>> k : kids) {
                        if (k.size() != 1 || k.get(0).size() != 1) return null;
                        seq.add(k.get(0).get(0) + (comp.equals("REPEAT") ? "..." : ""));
                    }
                    if (comp.equals("REPEAT") && seq.size() != 1) return null;
                    out.add(seq);
                    return out;
                }
            }
        } catch (Throwable t) {
            return null;
        }
        return null;
    }

    public static void main(String[] args) throws Exception {
        Map<Object, String> names = constants(
                "org.apache.flink.table.types.inference.InputTypeStrategies",
                "org.apache.flink.table.types.inference.TypeStrategies",
                "org.apache.flink.table.types.inference.strategies.SpecificInputTypeStrategies",
                "org.apache.flink.table.types.inference.strategies.SpecificTypeStrategies",
                "org.apache.calcite.sql.type.ReturnTypes",
                "org.apache.calcite.sql.type.OperandTypes",
                "org.apache.calcite.sql.type.InferTypes",
                "org.apache.calcite.sql.type.SqlTypeTransforms",
                "org.apache.flink.table.planner.plan.type.FlinkReturnTypes",
                "org.apache.flink.table.planner.functions.sql.FlinkSqlOperatorTable");

        // 1. BuiltInFunctionDefinitions
        Class<?> defs = Class.forName("org.apache.flink.table.functions.BuiltInFunctionDefinitions");
        Class<?> typeInfer = Class.forName("org.apache.flink.table.types.inference.TypeInference");
        List<?> all = (List<?>) defs.getMethod("getDefinitions").invoke(null);
        Class<?> tiu = Class.forName("org.apache.flink.table.types.inference.TypeInferenceUtil");
        for (Object d : all) {
            Class<?> dc = d.getClass();
            List<String> f = new ArrayList<>();
            f.add("\"source\":\"builtin\"");
            f.add("\"name\":" + q(dc.getMethod("getName").invoke(d)));
            Object sqlName = dc.getMethod("getSqlName").invoke(d);
            if (sqlName instanceof Optional) sqlName = ((Optional<?>) sqlName).orElse(null);
            f.add("\"sql_name\":" + q(sqlName));
            f.add("\"kind\":" + q(dc.getMethod("getKind").invoke(d)));
            f.add("\"internal\":" + dc.getMethod("isInternal").invoke(d));
            f.add("\"deterministic\":" + dc.getMethod("isDeterministic").invoke(d));
            f.add("\"runtime_impl\":" + dc.getMethod("hasRuntimeImplementation").invoke(d));
            try {
                Object ti = dc.getMethod("getTypeInference", Class.forName("org.apache.flink.table.catalog.DataTypeFactory")).invoke(d, (Object) null);
                Object in = typeInfer.getMethod("getInputTypeStrategy").invoke(ti);
                Object out = typeInfer.getMethod("getOutputTypeStrategy").invoke(ti);
                Class<?> its = Class.forName("org.apache.flink.table.types.inference.InputTypeStrategy");
                Class<?> ac = Class.forName("org.apache.flink.table.types.inference.ArgumentCount");
                Object cnt = its.getMethod("getArgumentCount").invoke(in);
                Method minM = ac.getMethod("getMinCount");
                Method maxM = ac.getMethod("getMaxCount");
                minM.setAccessible(true);
                maxM.setAccessible(true);
                f.add("\"min\":" + ((Optional<?>) minM.invoke(cnt)).orElse(null));
                f.add("\"max\":" + ((Optional<?>) maxM.invoke(cnt)).orElse(null));
                Object sa = typeInfer.getMethod("getStaticArguments").invoke(ti);
                f.add("\"static_args\":" + q(describe(sa, names, 0)));
                f.add("\"input\":" + q(describe(in, names, 0)));
                f.add("\"output\":" + q(describe(out, names, 0)));
                List<String> sigs = new ArrayList<>();
                try {
                    List<?> ss = (List<?>) its.getMethod("getExpectedSignatures", Class.forName("org.apache.flink.table.functions.FunctionDefinition")).invoke(in, d);
                    for (Object s : ss) {
                        List<String> argsOut = new ArrayList<>();
                        for (Object a : (List<?>) Class.forName("org.apache.flink.table.types.inference.Signature").getMethod("getArguments").invoke(s)) {
                            argsOut.add(q(Class.forName("org.apache.flink.table.types.inference.Signature$Argument").getMethod("getType").invoke(a)));
                        }
                        sigs.add(list(argsOut));
                    }
                    f.add("\"signatures\":" + list(sigs));
                } catch (Throwable t) {
                    f.add("\"signatures\":null");
                }
            } catch (Throwable t) {
                f.add("\"error\":" + q(t.getCause() != null ? t.getCause() : t));
            }
            System.out.println("{" + String.join(",", f) + "}");
        }

        // 2. FlinkSqlOperatorTable (streaming mode, as the oracle runs)
        Class<?> fsot = Class.forName("org.apache.flink.table.planner.functions.sql.FlinkSqlOperatorTable");
        Object table = fsot.getMethod("instance", boolean.class).invoke(null, false);
        List<?> ops = (List<?>) table.getClass().getMethod("getOperatorList").invoke(table);
        Map<Object, String> opField = constants(
                "org.apache.flink.table.planner.functions.sql.FlinkSqlOperatorTable",
                "org.apache.calcite.sql.fun.SqlStdOperatorTable");
        Class<?> sqlFunction = Class.forName("org.apache.calcite.sql.SqlFunction");
        Class<?> aggFunction = Class.forName("org.apache.calcite.sql.SqlAggFunction");
        Class<?> tableFunction = Class.forName("org.apache.calcite.sql.SqlTableFunction");
        Class<?> oc = Class.forName("org.apache.calcite.sql.SqlOperator");
        for (Object op : ops) {
            List<String> f = new ArrayList<>();
            f.add("\"source\":\"calcite\"");
            f.add("\"name\":" + q(oc.getMethod("getName").invoke(op)));
            f.add("\"field\":" + q(opField.get(op)));
            f.add("\"class\":" + q(op.getClass().getName()));
            f.add("\"syntax\":" + q(oc.getMethod("getSyntax").invoke(op)));
            f.add("\"sql_kind\":" + q(oc.getMethod("getKind").invoke(op)));
            f.add("\"is_function\":" + sqlFunction.isInstance(op));
            f.add("\"is_agg\":" + aggFunction.isInstance(op));
            f.add("\"is_table\":" + (tableFunction.isInstance(op) || op.getClass().getName().contains("TableFunction")));
            f.add("\"deterministic\":" + oc.getMethod("isDeterministic").invoke(op));
            f.add("\"dynamic\":" + oc.getMethod("isDynamicFunction").invoke(op));
            try {
                Object r = oc.getMethod("getOperandCountRange").invoke(op);
                f.add("\"min\":" + Class.forName("org.apache.calcite.sql.SqlOperandCountRange").getMethod("getMin").invoke(r));
                f.add("\"max\":" + Class.forName("org.apache.calcite.sql.SqlOperandCountRange").getMethod("getMax").invoke(r));
            } catch (Throwable t) {
                f.add("\"min\":null,\"max\":null");
            }
            try {
                Object tc = oc.getMethod("getOperandTypeChecker").invoke(op);
                f.add("\"checker\":" + q(describe(tc, names, 0)));
                List<List<String>> cs = calciteSignatures(tc);
                if (cs == null) {
                    f.add("\"signatures\":null");
                } else {
                    List<String> sigs = new ArrayList<>();
                    for (List<String> sig : cs) {
                        List<String> qs = new ArrayList<>();
                        for (String x : sig) qs.add(q(x));
                        sigs.add(list(qs));
                    }
                    f.add("\"signatures\":" + list(sigs));
                }
            } catch (Throwable t) {
                f.add("\"checker\":null");
            }
            try {
                Object rt = oc.getMethod("getReturnTypeInference").invoke(op);
                f.add("\"ret\":" + q(describe(rt, names, 0)));
            } catch (Throwable t) {
                f.add("\"ret\":null");
            }
            System.out.println("{" + String.join(",", f) + "}");
        }
    }
}
