-- title: Access records by product and status
-- description: One row per product (as named by product_access_product_id): access records in
--   total and by status (active, inactive, expired, and other for any status the spec does not
--   list or none), distinct users, accesses expiring soon, active accesses already past their
--   expiry date, and certificates issued. Expiring soon: status "active" and an expiry date (its
--   UTC day) from today to today + days, both days included. Past expiry: status "active" and an
--   expiry day before today (the portal has not flipped the status yet). Certificates:
--   product_access_certificate is "1".
-- param today date = today: Reference day (UTC) for the expiry windows.
-- param days int = 30 (0..36500): Length of the "expiring soon" window in days.
-- param product_ids int_list = []: Only these products (empty = every product).
SELECT
  product_access.product_access_product_id AS product_id,
  coalesce(
    product.shown_title,
    CASE WHEN product.product_id IS NULL THEN '(product ' || product_access.product_access_product_id || ', no longer in the portal)' END
  ) AS product_title,
  count(*) AS accesses,
  count(DISTINCT product_access_user_id) AS users,
  count(*) FILTER (WHERE product_access_status = 'active') AS active,
  count(*) FILTER (WHERE product_access_status = 'inactive') AS inactive,
  count(*) FILTER (WHERE product_access_status = 'expired') AS expired,
  count(*) FILTER (WHERE product_access_status IS NULL
                   OR product_access_status NOT IN ('active', 'inactive', 'expired')) AS other_status,
  count(*) FILTER (WHERE product_access_status = 'active'
                   AND CAST(product_access_expired_date AS DATE)
                       BETWEEN $today AND $today + CAST($days AS INTEGER)) AS expiring_soon,
  count(*) FILTER (WHERE product_access_status = 'active'
                   AND CAST(product_access_expired_date AS DATE) < $today) AS active_past_expiry,
  count(*) FILTER (WHERE trim(product_access_certificate) = '1') AS certificates
FROM product_access
LEFT JOIN (
  -- Products that share a title have their id added to it ("Fire safety (product 2)"): a chart
  -- would draw them as one bar or one heatmap cell, and a reader could not tell the rows apart.
  SELECT *,
         coalesce(product_i18n_title, product_i18n_name)
           || CASE WHEN count(*) OVER (PARTITION BY coalesce(product_i18n_title, product_i18n_name)) > 1
                   THEN ' (product ' || product_id || ')' ELSE '' END AS shown_title
  FROM product
) AS product ON product.product_id = product_access.product_access_product_id
WHERE len($product_ids) = 0 OR list_contains($product_ids, product_access.product_access_product_id)
GROUP BY product_access.product_access_product_id, product.shown_title, product.product_id
ORDER BY product_id NULLS LAST
