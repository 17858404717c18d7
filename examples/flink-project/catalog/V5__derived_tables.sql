-- V5: tables derived from existing ones with CREATE TABLE ... LIKE.

-- Same topic and schema as orders, read by a separate consumer group from
-- 2025-01-01 on (used to rebuild downstream state).
CREATE TABLE orders_replay WITH (
    'properties.group.id' = 'flink-orders-replay',
    'scan.startup.mode' = 'timestamp',
    'scan.startup.timestamp-millis' = '1735689600000'
) LIKE orders (INCLUDING ALL OVERWRITING OPTIONS);

-- EU copy of the archive in the EU bucket (data residency).
-- flinklint example: LK010 EXCLUDING PARTITIONS is ineffective, the table still inherits PARTITIONED BY (dt)
CREATE TABLE orders_archive_eu WITH (
    'path' = 's3://shop-lake-eu/orders_archive/'
) LIKE orders_archive (EXCLUDING PARTITIONS);

-- flinklint example: LK005 INCLUDING ALL also includes OPTIONS, and orders already sets scan.startup.mode
CREATE TABLE orders_backfill WITH (
    'scan.startup.mode' = 'earliest-offset'
) LIKE orders (INCLUDING ALL);

-- flinklint example: CL002 order_id is already a physical column of orders
CREATE TABLE orders_with_channel (
    order_id       STRING,
    sales_channel  STRING
) WITH (
    'topic' = 'shop.checkout.orders.v2'
) LIKE orders;
