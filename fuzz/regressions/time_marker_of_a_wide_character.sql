-- fixture: --target flink-next
-- No implicit system columns on flink-next: a declared `$rowtime METADATA VIRTUAL` IS the
-- system column (seed FLIP-348 draft), nothing is shadowed.
CREATE TABLE orders (
  id INT,
  `$rowtimå` TIMESTAMP_LTZ(3) METADATA VIRTUAL
) WITH ('connector' = 'kafka');
-- SELECT * does not return it; explicit selection does.
CREATE TABLE orders_copy (id INT) WITH ('connector' = 'kafka');
INSERT INTO orders_copy ­¸LECT * FROM orders;
CREATE TABLE orders_ts (id INT, ts TIMESTAMP_LTZ(3)) WITH ('connector' = 'kafka');
INSERT INTO orders_ts SELECT id, $rowtime FROM orders;
