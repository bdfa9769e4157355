-- title: Access records by product and status
-- description: One row per product (as named by product_access_product_id): access records in
--   total and by status (active, inactive, expired, and other for any status the spec does not
--   list or none), distinct users, accesses expiring soon, active accesses already past their
--   expiry date, and certificates issued. Expiring soon: status "active" and an expiry date (its
--   UTC day) from today to today + days, both days included. Past expiry: status "active" and an
--   expiry day before today (the portal has not flipped the status yet). Certificates:
--   product_access_certificate is "1". As the compliance query, as it stood on the day today:
--   records granted after it (product_access_created_date) are left out, one without that date
--   counts; their statuses, expiry days and certificates are the current ones (the portal gives
--   them only as they are now). With group_id, only the records of the people linked to
--   that group or any of its subgroups (as the compliance query scopes its people).
-- param today date = today: Reference day (UTC; everything as it stood that day but what the portal gives only as it is now: access statuses and expiry days, group membership, pass marks and the roster).
-- param days int = 30 (0..36500): Length of the "expiring soon" window in days (the Expiring soon count of each course's access records).
-- param product_ids int_list = []: Only these products (empty = every product).
-- param group_id int = null: Only people of this group and its subgroups (empty = everyone).
WITH RECURSIVE tree(ancestor_id, descendant_id) AS (
  SELECT grp_id, grp_id FROM grp
  UNION -- UNION, not UNION ALL: a cycle in grp_parent_id ends instead of looping
  SELECT tree.ancestor_id, grp.grp_id
  FROM tree JOIN grp ON grp.grp_parent_id = tree.descendant_id
),
-- People in scope as compliance.sql has them, written again so that each query file stands alone;
-- test/report/queries-group-scope.test.ts keeps the two the same.
scope_users AS (
  SELECT user_grp_user_id AS user_id
  FROM tree JOIN user_grp ON user_grp.user_grp_grp_id = tree.descendant_id
  WHERE $group_id IS NOT NULL AND tree.ancestor_id = $group_id
  UNION
  SELECT user_id FROM (
    SELECT user_grp_user_id AS user_id FROM user_grp
    UNION SELECT product_access_user_id FROM product_access
    UNION SELECT take_user_id FROM take
  ) AS everyone
  WHERE $group_id IS NULL
)
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
  -- Titles are compared without the white space around them ("Safety" and "Safety " look alike
  -- on a bar); a blank title gives way to the name, and one with neither is named by its id, as
  -- two such products would be one bar, their figures added up.
  SELECT * EXCLUDE (label, label_key),
         CASE WHEN label_key = '' THEN '(product ' || product_id || ')'
              WHEN count(*) OVER (PARTITION BY label_key) > 1 THEN label || ' (product ' || product_id || ')'
              ELSE label END AS shown_title
  FROM (SELECT * EXCLUDE (title_key, name_key),
               CASE WHEN title_key <> '' THEN product_i18n_title ELSE product_i18n_name END AS label,
               coalesce(CASE WHEN title_key <> '' THEN title_key ELSE name_key END, '') AS label_key
        FROM (SELECT *,
                     regexp_replace(product_i18n_title, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g') AS title_key,
                     regexp_replace(product_i18n_name, '^[\s\x0B\x{FEFF}\p{Z}]+|[\s\x0B\x{FEFF}\p{Z}]+$', '', 'g') AS name_key
              FROM product))
) AS product ON product.product_id = product_access.product_access_product_id
WHERE (len($product_ids) = 0 OR list_contains($product_ids, product_access.product_access_product_id))
  -- Without group_id every record counts, one without a user too (scope_users cannot hold NULL).
  AND ($group_id IS NULL
       OR product_access.product_access_user_id IN (SELECT user_id FROM scope_users))
  -- As it stood on today, as in compliance.sql: access granted after today is not there yet.
  AND (product_access_created_date IS NULL
       OR CAST(product_access_created_date AS DATE) <= $today)
GROUP BY product_access.product_access_product_id, product.shown_title, product.product_id
ORDER BY product_id NULLS LAST
