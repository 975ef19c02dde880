CREATE TABLE orders_p (cust INT, amount INT) USING parquet CLUSTERED BY (cust) INTO 8 BUCKETS;
CREATE TABLE customers_p (cust INT, region INT) USING parquet CLUSTERED BY (cust) INTO 4 BUCKETS;
CREATE TABLE orders_b (cust INT, amount INT) USING parquet CLUSTERED BY (cust) INTO 4 BUCKETS;
CREATE TABLE customers_b (cust INT, region INT) USING parquet CLUSTERED BY (cust) INTO 16 BUCKETS;
SELECT o.cust, c.region, o.amount FROM orders_b o JOIN customers_b c ON o.cust = c.cust;
SELECT o.cust, c.region, o.amount FROM orders_p o JOIN customers_p c ON o.cust = c.cust;
