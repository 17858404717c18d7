-- Job: page views per page over sliding 10-minute windows, and add-to-cart
-- events for the recommendation service.
-- Owner: team-web

SET 'pipeline.name' = 'clickstream-page-views';
SET 'table.exec.source.idle-timeout' = '1 min';

-- The clickstream topic is not in the shared catalog; each job declares it.
CREATE TEMPORARY TABLE clickstream (
    session_id   STRING,
    visitor_id   STRING,
    customer_id  BIGINT,
    page_url     STRING,
    event_type   STRING,
    user_agent   STRING,
    click_ts     TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
    WATERMARK FOR click_ts AS click_ts - INTERVAL '2' SECOND
) WITH (
    'connector' = 'kafka',
    'topic' = 'shop.web.clickstream',
    'properties.bootstrap.servers' = 'kafka:9092',
    'properties.group.id' = 'flink-page-views',
    'scan.startup.mode' = 'latest-offset',
    'format' = 'json'
);

INSERT INTO page_view_stats
SELECT
    window_start,
    window_end,
    page_url,
    COUNT(*) AS view_cnt,
    COUNT(DISTINCT visitor_id) AS unique_visitors
FROM TABLE(
    HOP(TABLE clickstream, DESCRIPTOR(click_ts), INTERVAL '1' MINUTE, INTERVAL '10' MINUTE)
)
WHERE event_type = 'page_view'
GROUP BY window_start, window_end, page_url;

-- Pasted from the product spec in a word processor.
-- flinklint example: SY002 typographic quotes around add_to_cart
INSERT INTO cart_events
SELECT session_id, customer_id, page_url, click_ts
FROM clickstream
WHERE event_type = ‘add_to_cart’;
