-- orders_p as this code declares it, bucketed by amount; the recorded runs (fixtures/eventlog,
-- where orders_p is written plain) group it by cust, which a bucketing by amount does not serve
CREATE TABLE orders_p (cust INT, amount INT) USING parquet CLUSTERED BY (amount) INTO 4 BUCKETS;
SELECT cust, sum(amount) AS total FROM orders_p GROUP BY cust;
