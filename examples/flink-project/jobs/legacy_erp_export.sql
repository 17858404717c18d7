-- Job: nightly export of paid orders to the legacy ERP.
-- Owner: team-finance

SET 'pipeline.name' = 'legacy-erp-export';
SET 'execution.runtime-mode' = 'batch';

-- The export table lives in the ERP team's own catalog and was never
-- declared in this repository.
-- flinklint example: CT002 erp_order_export is not defined by any file of this project
INSERT INTO erp_order_export
SELECT order_id, customer_id, amount, currency, order_ts
FROM paid_orders;
