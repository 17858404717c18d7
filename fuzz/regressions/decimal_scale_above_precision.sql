-- DECIMAL(0, 2): a scale above the precision (Flink rejects the type); ROUND and arithmetic on it
-- once underflowed the type's integer digits.
CREATE TABLE t (d DECIMAL(00, 2), e DECIMAL(1, 5)) WITH ('connector' = 'datagen');
SELECT ROUND(d, 1), d + e, d / e, d % e, CASE WHEN true THEN d ELSE e END FROM t;
