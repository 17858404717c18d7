-- V11: number of countries a customer ships to, and a weekly product report.

-- flinklint example: MT002 CREATE OR ALTER evolves an existing materialized table without START_MODE
CREATE OR ALTER MATERIALIZED TABLE customer_order_stats
COMMENT 'Paid orders per customer'
FRESHNESS = INTERVAL '1' MINUTE
AS SELECT
    customer_id,
    COUNT(*) AS order_cnt,
    SUM(amount) AS total_amount,
    MAX(order_ts) AS last_order_ts,
    AVG(amount) AS avg_basket,
    COUNT(DISTINCT country_code) AS country_cnt
FROM orders_archive
WHERE order_status = 'PAID'
GROUP BY customer_id;

-- flinklint example: MT008 FRESHNESS does not accept WEEK (use SECOND, MINUTE, HOUR or DAY)
CREATE MATERIALIZED TABLE weekly_product_sales
FRESHNESS = INTERVAL '1' WEEK
REFRESH_MODE = FULL
AS SELECT
    product_id,
    COUNT(*) AS order_cnt,
    SUM(quantity) AS units_sold
FROM orders_archive
WHERE order_status = 'PAID'
GROUP BY product_id;
