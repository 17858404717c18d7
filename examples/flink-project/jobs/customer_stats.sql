-- Job: per-customer totals, upserted into the CRM database.
-- Owner: team-crm

SET 'pipeline.name' = 'customer-stats';
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '5 s';
SET 'table.exec.mini-batch.size' = '5000';

-- last_order_ts was added to the query, but not to the column list.
-- flinklint example: CL011 the column list names 3 columns, the query returns 4
INSERT INTO customer_stats (customer_id, order_cnt, total_amount)
SELECT
    customer_id,
    COUNT(*) AS order_cnt,
    CAST(SUM(amount) AS DECIMAL(12, 2)) AS total_amount,
    MAX(order_ts) AS last_order_ts
FROM paid_orders
GROUP BY customer_id;
