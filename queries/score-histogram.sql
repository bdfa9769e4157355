-- title: Score histogram per product
-- description: One row per product and score bucket that holds at least one scored take (take_score
--   present; with completed_only, only takes with a completion date). Buckets are bucket_width
--   wide and aligned on 0: bucket_from = floor(score / bucket_width) * bucket_width and
--   bucket_to = bucket_from + bucket_width - 1. takes_share is the bucket's share of the product's
--   scored takes.
-- param bucket_width int = 10 (1..): Width of a bucket in score points.
-- param product_ids int_list = []: Only these products (empty = every product).
-- param completed_only bool = true: Only takes with a completion date.
WITH scored AS (
  SELECT take_product_id AS product_id,
         CASE WHEN $bucket_width >= 1 THEN CAST(floor(take_score / $bucket_width) AS BIGINT) * $bucket_width
              ELSE error('parameter bucket_width must be at least 1') END AS bucket_from
  FROM take
  WHERE take_score IS NOT NULL AND take_product_id IS NOT NULL
    AND (NOT $completed_only OR take_completed_date IS NOT NULL)
    AND (len($product_ids) = 0 OR list_contains($product_ids, take_product_id))
)
SELECT
  scored.product_id,
  coalesce(
    product.shown_title,
    CASE WHEN product.product_id IS NULL THEN '(product ' || scored.product_id || ', no longer in the portal)' END
  ) AS product_title,
  bucket_from,
  bucket_from + $bucket_width - 1 AS bucket_to,
  count(*) AS takes,
  count(*) / sum(count(*)) OVER (PARTITION BY scored.product_id) AS takes_share
FROM scored
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
) AS product ON product.product_id = scored.product_id
GROUP BY scored.product_id, product.shown_title, product.product_id, bucket_from
ORDER BY scored.product_id, bucket_from
