-- V3: exchange rates (a versioned table for event-time temporal joins)
-- and the payment provider's webhook events.

CREATE TABLE currency_rates (
    currency      STRING,
    rate_to_eur   DECIMAL(18, 8),
    update_time   TIMESTAMP(3),
    PRIMARY KEY (currency) NOT ENFORCED,
    WATERMARK FOR update_time AS update_time - INTERVAL '1' SECOND
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'shop.fx.rates',
    'properties.bootstrap.servers' = 'kafka:9092',
    'key.format' = 'raw',
    'value.format' = 'json'
);

-- The provider sends paid_at as an ISO-8601 string.
-- flinklint example: TB004 watermark on the STRING column paid_at
CREATE TABLE payments (
    payment_id    STRING,
    order_id      STRING,
    provider      STRING,
    amount        DECIMAL(12, 2),
    currency      STRING,
    paid_at       STRING,
    WATERMARK FOR paid_at AS paid_at
) WITH (
    'connector' = 'kafka',
    'topic' = 'shop.payments.webhooks',
    'properties.bootstrap.servers' = 'kafka:9092',
    'properties.group.id' = 'flink-payments',
    'scan.startup.mode' = 'group-offsets',
    'format' = 'json'
);
