-- title: Time from start to completion per product
-- description: One row per product with at least one take that has both a start and a completion
--   date. Duration of a take: take_completed_date - take_started_date, in hours (with fractions).
--   completed_takes counts the takes measured; users counts their distinct users;
--   avg_hours, median_hours, p90_hours and max_hours describe the durations (median and p90
--   interpolated as in score-distribution). Takes completed before they started are data errors:
--   they are left out of the figures and counted in negative_durations.
-- param product_ids int_list = []: Only these products (empty = every product).
WITH durations AS (
  SELECT take_product_id AS product_id, take_user_id AS user_id,
         date_diff('second', take_started_date, take_completed_date) AS seconds,
         seconds / 3600 AS hours
  FROM take
  WHERE take_started_date IS NOT NULL AND take_completed_date IS NOT NULL
    AND take_product_id IS NOT NULL
    AND (len($product_ids) = 0 OR list_contains($product_ids, take_product_id))
)
SELECT
  durations.product_id,
  coalesce(
    product.shown_title,
    CASE WHEN product.product_id IS NULL THEN '(product ' || durations.product_id || ', no longer in the portal)' END
  ) AS product_title,
  count(*) FILTER (WHERE hours >= 0) AS completed_takes,
  count(DISTINCT user_id) FILTER (WHERE hours >= 0) AS users,
  -- Whole seconds averaged, then hours: a mean of the fractions adds doubles in the order the rows
  -- are stored, and the same takes gave another last digit after each extract.
  avg(seconds) FILTER (WHERE hours >= 0) / 3600 AS avg_hours,
  quantile_cont(hours, 0.5) FILTER (WHERE hours >= 0) AS median_hours,
  quantile_cont(hours, 0.9) FILTER (WHERE hours >= 0) AS p90_hours,
  max(hours) FILTER (WHERE hours >= 0) AS max_hours,
  count(*) FILTER (WHERE hours < 0) AS negative_durations
FROM durations
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
) AS product ON product.product_id = durations.product_id
GROUP BY durations.product_id, product.shown_title, product.product_id
ORDER BY durations.product_id
