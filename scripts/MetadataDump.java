import java.lang.reflect.Field;

/**
 * Prints the metadata keys of Flink's formats and sources, with their data types, as the
 * classes declare them: each argument names an enum (e.g.
 * org.apache.flink.formats.json.debezium.DebeziumJsonDecodingFormat$ReadableMetadata) whose
 * constants carry a `key` and a `dataType` field (DecodingFormat#listReadableMetadata lists
 * them in this order). One JSON object per key: {"class", "key", "type"}.
 *
 * Usage: java -cp "FLINK_LIB/*" scripts/MetadataDump.java CLASS...
 */
public class MetadataDump {
    public static void main(String[] args) throws Exception {
        for (String name : args) {
            Class<?> c = Class.forName(name);
            for (Object constant : c.getEnumConstants()) {
                Field key = field(c, "key");
                Field type = field(c, "dataType");
                System.out.println(
                        "{\"class\": \"" + name + "\", \"key\": \"" + key.get(constant)
                                + "\", \"type\": \"" + type.get(constant) + "\"}");
            }
        }
    }

    private static Field field(Class<?> c, String name) throws NoSuchFieldException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
