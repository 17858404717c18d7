-- V10: add the average basket. Declared with CREATE OR ALTER so the whole
-- definition lives in one statement; the refresh job resumes from the
-- previous job's offsets instead of reprocessing the archive.

CREATE OR ALTER MATERIALIZED TABLE customer_order_stats
COMMENT 'Paid orders per customer'
START_MODE = RESUME_OR_FROM_BEGINNING
FRESHNESS = INTERVAL '1' MINUTE
AS SELECT
    customer_id,
    COUNT(*) AS order_cnt,
    SUM(amount) AS total_amount,
    MAX(order_ts) AS last_order_ts,
    AVG(amount) AS avg_basket
FROM orders_archive
WHERE order_status = 'PAID'
GROUP BY customer_id;
