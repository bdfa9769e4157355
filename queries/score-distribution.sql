-- title: Score distribution per product
-- description: One row per product over the scored takes (take_score present; with completed_only,
--   only takes with a completion date): how many takes and users, mean, standard deviation,
--   minimum, the 10th, 25th, 50th, 75th and 90th percentiles (linear interpolation between the
--   two nearest scores, as Excel's PERCENTILE.INC), maximum, and a histogram on the 0-100 scale:
--   scores_0_9 counts scores from 0 to 9, ..., scores_80_89, and scores_90_100 counts 90 to 100;
--   scores_outside counts scores below 0 or above 100. For finer buckets see score-histogram.
-- label scores_0_9: Scores 0–9
-- label scores_10_19: Scores 10–19
-- label scores_20_29: Scores 20–29
-- label scores_30_39: Scores 30–39
-- label scores_40_49: Scores 40–49
-- label scores_50_59: Scores 50–59
-- label scores_60_69: Scores 60–69
-- label scores_70_79: Scores 70–79
-- label scores_80_89: Scores 80–89
-- label scores_90_100: Scores 90–100
-- label scores_outside: Scores outside 0–100
-- param product_ids int_list = []: Only these products (empty = every product).
-- param completed_only bool = true: Only takes with a completion date.
WITH scored AS (
  SELECT take_product_id AS product_id, take_user_id AS user_id, take_score AS score
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
  count(*) AS takes,
  count(DISTINCT user_id) AS users,
  avg(score) AS mean,
  -- From exact integer sums: stddev_samp adds doubles in the order the rows are stored, and the
  -- same scores gave another 16th digit after each extract (avg of integers is exact already).
  CASE WHEN count(*) > 1 THEN sqrt(
    (count(*) * sum(score::HUGEINT * score) - sum(score::HUGEINT) * sum(score::HUGEINT))::DOUBLE
    / (count(*) * (count(*) - 1))
  ) END AS stddev,
  min(score) AS min,
  quantile_cont(score::DOUBLE, 0.10) AS p10,
  quantile_cont(score::DOUBLE, 0.25) AS p25,
  quantile_cont(score::DOUBLE, 0.50) AS p50,
  quantile_cont(score::DOUBLE, 0.75) AS p75,
  quantile_cont(score::DOUBLE, 0.90) AS p90,
  max(score) AS max,
  count(*) FILTER (WHERE score BETWEEN 0 AND 9) AS scores_0_9,
  count(*) FILTER (WHERE score BETWEEN 10 AND 19) AS scores_10_19,
  count(*) FILTER (WHERE score BETWEEN 20 AND 29) AS scores_20_29,
  count(*) FILTER (WHERE score BETWEEN 30 AND 39) AS scores_30_39,
  count(*) FILTER (WHERE score BETWEEN 40 AND 49) AS scores_40_49,
  count(*) FILTER (WHERE score BETWEEN 50 AND 59) AS scores_50_59,
  count(*) FILTER (WHERE score BETWEEN 60 AND 69) AS scores_60_69,
  count(*) FILTER (WHERE score BETWEEN 70 AND 79) AS scores_70_79,
  count(*) FILTER (WHERE score BETWEEN 80 AND 89) AS scores_80_89,
  count(*) FILTER (WHERE score BETWEEN 90 AND 100) AS scores_90_100,
  count(*) FILTER (WHERE score < 0 OR score > 100) AS scores_outside
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
GROUP BY scored.product_id, product.shown_title, product.product_id
ORDER BY scored.product_id
