-- Built-in company administrator roles created before 日结/交班, 作废/冲正 and 商户提现 existed lack
-- their page and operation keys (a new company's built-in role is given every key when it is made).
-- Grant them once; roles a company made itself are left as they are.
UPDATE roles SET
  routes = ARRAY(SELECT DISTINCT unnest(routes || ARRAY['dailyClose'])),
  operations = ARRAY(SELECT DISTINCT unnest(operations || ARRAY['finance.dailyClose', 'finance.reverse', 'finance.withdraw']))
  WHERE builtin AND company_id IS NOT NULL;
