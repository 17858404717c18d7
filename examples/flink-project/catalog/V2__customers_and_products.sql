-- V2: dimension tables served from the operational databases.
-- Jobs read them with lookup joins (FOR SYSTEM_TIME AS OF o.proc_time).

CREATE TABLE customers (
    customer_id   BIGINT,
    full_name     STRING,
    email         STRING,
    loyalty_tier  STRING,
    country_code  STRING,
    created_at    TIMESTAMP(3),
    PRIMARY KEY (customer_id) NOT ENFORCED
) WITH (
    'connector' = 'jdbc',
    'url' = 'jdbc:postgresql://crm-db:5432/crm',
    'table-name' = 'public.customers',
    'lookup.cache' = 'PARTIAL',
    'lookup.partial-cache.max-rows' = '100000',
    'lookup.partial-cache.expire-after-write' = '10 min'
);

CREATE TABLE products (
    product_id    BIGINT,
    sku           STRING,
    product_name  STRING,
    category      STRING,
    list_price    DECIMAL(10, 2),
    PRIMARY KEY (product_id) NOT ENFORCED
) WITH (
    'connector' = 'jdbc',
    'url' = 'jdbc:postgresql://catalog-db:5432/catalog',
    'table-name' = 'public.products',
    'lookup.cache' = 'PARTIAL',
    'lookup.partial-cache.max-rows' = '50000',
    'lookup.partial-cache.expire-after-write' = '1 h'
);

-- Warehouses are not used by any job yet (fulfilment team, planned).
-- flinklint example: TB001 primary key declared without NOT ENFORCED
CREATE TABLE warehouses (
    warehouse_id  INT,
    city          STRING,
    country_code  STRING,
    PRIMARY KEY (warehouse_id)
) WITH (
    'connector' = 'jdbc',
    'url' = 'jdbc:postgresql://wms-db:5432/wms',
    'table-name' = 'public.warehouses'
);
