-- Job: enrich every order with the customer's tier, the product category
-- and the amount in EUR at the rate valid when the order was placed.
-- Owner: team-orders

SET 'pipeline.name' = 'orders-enrichment';
SET 'table.exec.state.ttl' = '36 h';

INSERT INTO orders_enriched
WITH with_dimensions AS (
    SELECT
        o.order_id,
        o.customer_id,
        c.loyalty_tier,
        o.product_id,
        p.category,
        o.amount,
        o.currency,
        o.order_ts
    FROM orders AS o
    LEFT JOIN customers FOR SYSTEM_TIME AS OF o.proc_time AS c
        ON o.customer_id = c.customer_id
    LEFT JOIN products FOR SYSTEM_TIME AS OF o.proc_time AS p
        ON o.product_id = p.product_id
)
SELECT
    d.order_id,
    d.customer_id,
    d.loyalty_tier,
    d.product_id,
    d.category,
    d.amount,
    d.currency,
    CAST(d.amount * r.rate_to_eur AS DECIMAL(12, 2)) AS amount_eur,
    d.order_ts
FROM with_dimensions AS d
JOIN currency_rates FOR SYSTEM_TIME AS OF d.order_ts AS r
    ON d.currency = r.currency;
