-- V9: customer_order_stats gets the time of the last paid order.

ALTER MATERIALIZED TABLE customer_order_stats SUSPEND;

-- flinklint example: MT001 ALTER ... AS takes no START_MODE, the new refresh job reprocesses the whole archive
ALTER MATERIALIZED TABLE customer_order_stats AS
SELECT
    customer_id,
    COUNT(*) AS order_cnt,
    SUM(amount) AS total_amount,
    MAX(order_ts) AS last_order_ts
FROM orders_archive
WHERE order_status = 'PAID'
GROUP BY customer_id;

ALTER MATERIALIZED TABLE customer_order_stats RESUME;
