-- V1: order events published by the checkout service.
-- One row per state change of an order (CREATED, PAID, SHIPPED, CANCELLED).
-- The producer is at-least-once, so the same change can arrive twice.

CREATE TABLE orders (
    order_id        STRING,
    customer_id     BIGINT,
    product_id      BIGINT,
    quantity        INT,
    unit_price      DECIMAL(10, 2),
    currency        STRING,
    order_status    STRING,
    country_code    STRING,
    order_ts        TIMESTAMP(3),
    event_time      TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
    kafka_partition INT METADATA FROM 'partition' VIRTUAL,
    amount AS CAST(quantity * unit_price AS DECIMAL(12, 2)),
    proc_time AS PROCTIME(),
    WATERMARK FOR order_ts AS order_ts - INTERVAL '5' SECOND
)
COMMENT 'Order state changes from the checkout service'
WITH (
    'connector' = 'kafka',
    'topic' = 'shop.checkout.orders',
    'properties.bootstrap.servers' = 'kafka:9092',
    'properties.group.id' = 'flink-orders',
    'scan.startup.mode' = 'group-offsets',
    'properties.auto.offset.reset' = 'earliest',
    'format' = 'json',
    'json.ignore-parse-errors' = 'true'
);
