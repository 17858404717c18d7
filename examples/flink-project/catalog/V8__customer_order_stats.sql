-- V8: materialized tables over the order archive.
-- The refresh jobs are managed by the SQL gateway; the migration only
-- declares what they compute.

CREATE MATERIALIZED TABLE customer_order_stats
COMMENT 'Paid orders per customer'
START_MODE = FROM_BEGINNING
FRESHNESS = INTERVAL '1' MINUTE
AS SELECT
    customer_id,
    COUNT(*) AS order_cnt,
    SUM(amount) AS total_amount
FROM orders_archive
WHERE order_status = 'PAID'
GROUP BY customer_id;

-- Daily revenue per currency for finance, recomputed once a day.
CREATE MATERIALIZED TABLE daily_revenue
PARTITIONED BY (ds)
WITH (
    'partition.fields.ds.date-formatter' = 'yyyy-MM-dd'
)
FRESHNESS = INTERVAL '1' DAY
REFRESH_MODE = FULL
AS SELECT
    dt AS ds,
    currency,
    COUNT(*) AS order_cnt,
    SUM(amount) AS revenue
FROM orders_archive
WHERE order_status = 'PAID'
GROUP BY dt, currency;
