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
  -- One with neither a title nor a name is named by its id: NULL || ' (product 2)' is NULL, and
  -- two such products would be one "(none)" bar, their figures added up.
  SELECT *,
         coalesce(coalesce(product_i18n_title, product_i18n_name)
                    || CASE WHEN count(*) OVER (PARTITION BY coalesce(product_i18n_title, product_i18n_name)) > 1
                            THEN ' (product ' || product_id || ')' ELSE '' END,
                  '(product ' || product_id || ')') AS shown_title
  FROM product
) AS product ON product.product_id = scored.product_id
GROUP BY scored.product_id, product.shown_title, product.product_id, bucket_from
ORDER BY scored.product_id, bucket_from
