-- V4: sink tables written by the jobs in ../jobs/.

-- Live sales dashboard (jobs/revenue_per_minute.sql).
CREATE TABLE revenue_per_minute (
    window_start  TIMESTAMP(3),
    window_end    TIMESTAMP(3),
    currency      STRING,
    order_cnt     BIGINT,
    revenue       DECIMAL(38, 2),
    PRIMARY KEY (window_start, window_end, currency) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'shop.analytics.revenue-per-minute',
    'properties.bootstrap.servers' = 'kafka:9092',
    'key.format' = 'json',
    'value.format' = 'json'
);

-- Orders with customer, product and EUR amount (jobs/orders_enrichment.sql).
CREATE TABLE orders_enriched (
    order_id      STRING,
    customer_id   BIGINT,
    loyalty_tier  STRING,
    product_id    BIGINT,
    category      STRING,
    amount        DECIMAL(12, 2),
    currency      STRING,
    amount_eur    DECIMAL(12, 2),
    order_ts      TIMESTAMP(3)
) WITH (
    'connector' = 'kafka',
    'topic' = 'shop.orders.enriched',
    'properties.bootstrap.servers' = 'kafka:9092',
    'format' = 'json',
    'sink.delivery-guarantee' = 'at-least-once'
);

-- Order history in the data lake, one partition per day (jobs/orders_archive.sql).
CREATE TABLE orders_archive (
    order_id      STRING,
    customer_id   BIGINT,
    product_id    BIGINT,
    quantity      INT,
    amount        DECIMAL(12, 2),
    currency      STRING,
    order_status  STRING,
    country_code  STRING,
    order_ts      TIMESTAMP(3),
    dt            STRING
) PARTITIONED BY (dt) WITH (
    'connector' = 'filesystem',
    'path' = 's3://shop-lake/orders_archive/',
    'format' = 'json',
    'source.monitor-interval' = '1 min',
    'sink.partition-commit.trigger' = 'process-time',
    'sink.partition-commit.delay' = '1 h',
    'sink.partition-commit.policy.kind' = 'success-file'
);

-- Per-customer totals for the CRM (jobs/customer_stats.sql).
CREATE TABLE customer_stats (
    customer_id    BIGINT,
    order_cnt      BIGINT,
    total_amount   DECIMAL(12, 2),
    last_order_ts  TIMESTAMP(3),
    PRIMARY KEY (customer_id) NOT ENFORCED
) WITH (
    'connector' = 'jdbc',
    'url' = 'jdbc:postgresql://crm-db:5432/crm',
    'table-name' = 'analytics.customer_stats'
);

-- Page views per page, sliding 10-minute windows (jobs/clickstream_page_views.sql).
CREATE TABLE page_view_stats (
    window_start     TIMESTAMP(3),
    window_end       TIMESTAMP(3),
    page_url         STRING,
    view_cnt         BIGINT,
    unique_visitors  BIGINT,
    PRIMARY KEY (window_start, window_end, page_url) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'shop.analytics.page-views',
    'properties.bootstrap.servers' = 'kafka:9092',
    'key.format' = 'json',
    'value.format' = 'json'
);

-- Add-to-cart events for the recommendation service.
CREATE TABLE cart_events (
    session_id   STRING,
    customer_id  BIGINT,
    page_url     STRING,
    click_ts     TIMESTAMP_LTZ(3)
) WITH (
    'connector' = 'kafka',
    'topic' = 'shop.web.cart-events',
    'properties.bootstrap.servers' = 'kafka:9092',
    'format' = 'json'
);

-- Raw clickstream in the data lake (jobs/clickstream_archive.sql).
CREATE TABLE clickstream_archive (
    session_id   STRING,
    visitor_id   STRING,
    customer_id  BIGINT,
    page_url     STRING,
    event_type   STRING,
    user_agent   STRING,
    click_ts     TIMESTAMP_LTZ(3),
    dt           STRING,
    hr           STRING
) PARTITIONED BY (dt, hr) WITH (
    'connector' = 'filesystem',
    'path' = 's3://shop-lake/clickstream/',
    'format' = 'json',
    'sink.partition-commit.trigger' = 'process-time',
    'sink.partition-commit.policy.kind' = 'success-file'
);

-- Traffic from crawlers, for the bot-detection team.
CREATE TABLE bot_clicks (
    session_id   STRING,
    visitor_id   STRING,
    page_url     STRING,
    user_agent   STRING,
    click_ts     TIMESTAMP_LTZ(3)
) WITH (
    'connector' = 'kafka',
    'topic' = 'shop.web.bot-clicks',
    'properties.bootstrap.servers' = 'kafka:9092',
    'format' = 'json'
);

-- Alerting and shipping sinks below are not wired to any job yet.
-- flinklint example: CL001 order_id is declared twice
CREATE TABLE order_alerts (
    alert_id      STRING,
    order_id      STRING,
    customer_id   BIGINT,
    alert_type    STRING,
    order_id      STRING,
    raised_at     TIMESTAMP(3)
) WITH (
    'connector' = 'kafka',
    'topic' = 'shop.alerts.orders',
    'properties.bootstrap.servers' = 'kafka:9092',
    'format' = 'json'
);

-- flinklint example: SY001 missing comma after the carrier column
CREATE TABLE shipment_notifications (
    shipment_id   STRING,
    order_id      STRING,
    carrier       STRING
    tracking_url  STRING,
    notified_at   TIMESTAMP(3)
) WITH (
    'connector' = 'jdbc',
    'url' = 'jdbc:postgresql://wms-db:5432/wms',
    'table-name' = 'public.shipment_notifications'
);
