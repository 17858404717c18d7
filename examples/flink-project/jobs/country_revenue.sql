-- Job: paid revenue per country and hour, for the finance team's forecast.
-- Owner: team-finance

CREATE TEMPORARY TABLE country_revenue (
    country_code  STRING,
    window_start  TIMESTAMP(3),
    revenue       DECIMAL(38, 2)
) WITH (
    'connector' = 'blackhole'
);

INSERT INTO country_revenue
SELECT
    contry_code,
    window_start,
    SUM(amount) AS revenue
FROM TABLE(
    TUMBLE(TABLE orders, DESCRIPTOR(order_ts), INTERVAL '1' HOUR)
)
WHERE order_status = 'PAID'
GROUP BY country_code, window_start, window_end;

-- Ad-hoc check of the currency mix, kept next to the job.
SELECT
    currency,
    COUNT(*) AS order_cnt,
    DATE_FROMAT(MAX(order_ts), 'yyyy-MM-dd') AS last_day
FROM orders
GROUP BY currency;
