-- Job: archive the raw clickstream to the data lake and route crawler
-- traffic to the bot-detection topic, in one job.
-- Owner: team-web

SET 'pipeline.name' = 'clickstream-archive';
SET 'execution.checkpointing.interval' = '5 min';

-- Same topic as in clickstream_page_views.sql; temporary tables live only
-- in this script's session, so declaring it again here is fine.
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
    'properties.group.id' = 'flink-clickstream-archive',
    'scan.startup.mode' = 'group-offsets',
    'properties.auto.offset.reset' = 'earliest',
    'format' = 'json'
);

EXECUTE STATEMENT SET
BEGIN
    INSERT INTO clickstream_archive
    SELECT
        session_id,
        visitor_id,
        customer_id,
        page_url,
        event_type,
        user_agent,
        click_ts,
        DATE_FORMAT(click_ts, 'yyyy-MM-dd') AS dt,
        DATE_FORMAT(click_ts, 'HH') AS hr
    FROM clickstream;

    INSERT INTO bot_clicks
    SELECT session_id, visitor_id, page_url, user_agent, click_ts
    FROM clickstream
    WHERE LOWER(user_agent) LIKE '%bot%'
       OR LOWER(user_agent) LIKE '%crawler%';
END;
