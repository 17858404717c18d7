-- V7: product reviews from the storefront.

-- Copied from V2 "so that this migration is self-contained".
-- flinklint example: CT001 products already exists (created in V2)
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

-- flinklint example: SY004 comment is a reserved word, write `comment` or rename the column
CREATE TABLE product_reviews (
    review_id     STRING,
    product_id    BIGINT,
    customer_id   BIGINT,
    stars         INT,
    comment       STRING,
    reviewed_at   TIMESTAMP(3),
    WATERMARK FOR reviewed_at AS reviewed_at - INTERVAL '1' MINUTE
) WITH (
    'connector' = 'kafka',
    'topic' = 'shop.storefront.reviews',
    'properties.bootstrap.servers' = 'kafka:9092',
    'properties.group.id' = 'flink-reviews',
    'scan.startup.mode' = 'group-offsets',
    'format' = 'json'
);
