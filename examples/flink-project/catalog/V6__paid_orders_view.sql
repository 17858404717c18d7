-- V6: a shared view of paid orders, plus two column additions.

-- Paid orders from the (deduplicated) lake archive, for reporting jobs.
CREATE VIEW paid_orders AS
SELECT
    order_id,
    customer_id,
    product_id,
    quantity,
    amount,
    currency,
    country_code,
    order_ts,
    dt
FROM orders_archive
WHERE order_status = 'PAID';

ALTER TABLE orders ADD (
    coupon_code STRING COMMENT 'voucher applied at checkout, NULL if none'
);

ALTER TABLE customers ADD (
    marketing_opt_in BOOLEAN COMMENT 'newsletter consent'
);

-- flinklint example: CL008 customers already has an email column (V2)
ALTER TABLE customers ADD (
    email STRING COMMENT 'contact address'
);
