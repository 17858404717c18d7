-- Job: revenue per currency and minute, for the live sales dashboard.
-- Owner: team-analytics

SET 'pipeline.name' = 'revenue-per-minute';
SET 'execution.checkpointing.interval' = '1 min';
SET 'table.exec.source.idle-timeout' = '30 s';

INSERT INTO revenue_per_minute
SELECT
    window_start,
    window_end,
    currency,
    COUNT(*) AS order_cnt,
    CAST(SUM(amount) AS DECIMAL(38, 2)) AS revenue
FROM TABLE(
    TUMBLE(TABLE orders, DESCRIPTOR(order_ts), INTERVAL '1' MINUTE)
)
WHERE order_status = 'PAID'
GROUP BY window_start, window_end, currency;
