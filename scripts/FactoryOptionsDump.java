// Dumps the options of the table factories (connectors and formats) of the Flink release whose
// jars are on the class path, one JSON object per factory, for scripts/gen_connectors.py. It
// asks each factory what Flink's FactoryUtil asks it: factoryIdentifier(), requiredOptions(),
// optionalOptions() and forwardOptions(), and for each ConfigOption its key, value class,
// whether it is a list, its default and its fallback keys. Classes named on the command line
// (option holder classes such as DataGenConnectorOptions) add their static ConfigOption fields
// as "declared" (templates such as fields.#.kind that a factory checks itself).
// Run: java -cp <flink jars> scripts/FactoryOptionsDump.java [OptionsClass ...] > dump.jsonl
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.table.factories.Factory;

public class FactoryOptionsDump {
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

    static Object call(Object o, String name) {
        Class<?> c = o.getClass();
        while (c != null) {
            try {
                Method m = c.getDeclaredMethod(name);
                m.setAccessible(true);
                return m.invoke(o);
            } catch (NoSuchMethodException e) {
                c = c.getSuperclass();
            } catch (Throwable t) {
                return null;
            }
        }
        return null;
    }

    static String option(ConfigOption<?> o) {
        StringBuilder b = new StringBuilder("{");
        b.append("\"key\":").append(q(o.key()));
        Class<?> clazz = (Class<?>) call(o, "getClazz");
        Object isList = call(o, "isList");
        b.append(",\"class\":").append(q(clazz == null ? null : clazz.getName()));
        b.append(",\"list\":").append(Boolean.TRUE.equals(isList));
        if (clazz != null && clazz.isEnum()) {
            List<String> names = new ArrayList<>();
            for (Object e : clazz.getEnumConstants()) names.add(q(((Enum<?>) e).name()) );
            List<String> shown = new ArrayList<>();
            for (Object e : clazz.getEnumConstants()) shown.add(q(e.toString()));
            b.append(",\"enum\":").append(names);
            b.append(",\"enum_strings\":").append(shown);
        }
        b.append(",\"has_default\":").append(o.hasDefaultValue());
        Object d = o.hasDefaultValue() ? o.defaultValue() : null;
        if (d instanceof java.time.Duration) {
            d = org.apache.flink.util.TimeUtils.formatWithHighestUnit((java.time.Duration) d);
        }
        b.append(",\"default\":").append(q(d));
        List<String> fallbacks = new ArrayList<>();
        for (FallbackKey k : o.fallbackKeys()) {
            fallbacks.add("{\"key\":" + q(k.getKey()) + ",\"deprecated\":" + k.isDeprecated() + "}");
        }
        b.append(",\"fallback\":").append(fallbacks);
        return b.append('}').toString();
    }

    static String options(Set<ConfigOption<?>> set) {
        List<String> xs = new ArrayList<>();
        if (set != null) for (ConfigOption<?> o : set) xs.add(option(o));
        xs.sort(null);
        return xs.toString();
    }

    @SuppressWarnings("unchecked")
    static Set<ConfigOption<?>> forward(Factory f) {
        try {
            Method m = f.getClass().getMethod("forwardOptions");
            return (Set<ConfigOption<?>>) m.invoke(f);
        } catch (Throwable t) {
            return null;
        }
    }

    static List<String> interfaces(Class<?> c) {
        List<String> out = new ArrayList<>();
        String[] names = {
            "org.apache.flink.table.factories.DynamicTableSourceFactory",
            "org.apache.flink.table.factories.DynamicTableSinkFactory",
            "org.apache.flink.table.factories.DeserializationFormatFactory",
            "org.apache.flink.table.factories.SerializationFormatFactory",
            "org.apache.flink.table.factories.BulkReaderFormatFactory",
            "org.apache.flink.table.factories.BulkWriterFormatFactory",
            "org.apache.flink.connector.file.table.factories.BulkReaderFormatFactory",
            "org.apache.flink.connector.file.table.factories.BulkWriterFormatFactory",
            "org.apache.flink.table.factories.CatalogFactory",
            "org.apache.flink.table.factories.ModuleFactory",
        };
        for (String n : names) {
            try {
                if (Class.forName(n).isAssignableFrom(c)) out.add(q(n.substring(n.lastIndexOf('.') + 1)));
            } catch (Throwable t) {
                // not on the class path
            }
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        for (Factory f : ServiceLoader.load(Factory.class)) {
            StringBuilder b = new StringBuilder("{");
            b.append("\"identifier\":").append(q(f.factoryIdentifier()));
            b.append(",\"class\":").append(q(f.getClass().getName()));
            String jar = null;
            try {
                jar = f.getClass().getProtectionDomain().getCodeSource().getLocation().getPath();
                jar = jar.substring(jar.lastIndexOf('/') + 1);
            } catch (Throwable t) {
                // unknown
            }
            b.append(",\"jar\":").append(q(jar));
            b.append(",\"kinds\":").append(interfaces(f.getClass()));
            b.append(",\"required\":").append(options(f.requiredOptions()));
            b.append(",\"optional\":").append(options(f.optionalOptions()));
            Set<ConfigOption<?>> fw = forward(f);
            b.append(",\"forward\":").append(fw == null ? "null" : options(fw));
            System.out.println(b.append('}'));
        }
        for (String cn : args) {
            Class<?> c = Class.forName(cn);
            List<String> xs = new ArrayList<>();
            for (Field fd : c.getFields()) {
                if (Modifier.isStatic(fd.getModifiers()) && ConfigOption.class.isAssignableFrom(fd.getType())) {
                    xs.add(option((ConfigOption<?>) fd.get(null)));
                }
            }
            System.out.println("{\"declared\":" + q(cn) + ",\"options\":" + xs + "}");
        }
    }
}
