-- V12: "avg_basket can be computed by the dashboard", so it was dropped here.

-- flinklint example: MT006 the new query drops avg_basket; columns can only be appended at the end
CREATE OR ALTER MATERIALIZED TABLE customer_order_stats
COMMENT 'Paid orders per customer'
START_MODE = RESUME_OR_FROM_NOW
FRESHNESS = INTERVAL '1' MINUTE
AS SELECT
    customer_id,
    COUNT(*) AS order_cnt,
    SUM(amount) AS total_amount,
    MAX(order_ts) AS last_order_ts,
    COUNT(DISTINCT country_code) AS country_cnt
FROM orders_archive
WHERE order_status = 'PAID'
GROUP BY customer_id;
