-- title: Attempts per user and product
-- description: One row per person and product with at least one take, for the analysis of take
--   scores. Names and e-mail come from the roster (empty for people it does not list). Takes are ordered by start (take_started_date, else take_created_date; then take_id).
--   attempts: takes; completed_attempts: takes with a completion date; first_started_at: the
--   earliest start; first_completed_at: the earliest completion; attempts_to_complete: the
--   position of the first take with a completion date in that order (empty if none);
--   days_to_complete: days (with fractions) from first_started_at to first_completed_at;
--   best_score: the highest score of a completed take; last_score: the score of the latest take
--   that has a score.
-- param product_ids int_list = []: Only these products (empty = every product).
WITH ordered AS (
  SELECT take_user_id AS user_id, take_product_id AS product_id, take_score AS score,
         take_started_date AS started_at, take_completed_date AS completed_at,
         row_number() OVER (PARTITION BY take_user_id, take_product_id
                            ORDER BY coalesce(take_started_date, take_created_date) NULLS LAST,
                                     take_id) AS attempt
  FROM take
  WHERE take_user_id IS NOT NULL AND take_product_id IS NOT NULL
    AND (len($product_ids) = 0 OR list_contains($product_ids, take_product_id))
)
SELECT
  ordered.user_id,
  "user".firstname,
  "user".lastname,
  "user".email,
  ordered.product_id,
  coalesce(
    product.shown_title,
    CASE WHEN product.product_id IS NULL THEN '(product ' || ordered.product_id || ', no longer in the portal)' END
  ) AS product_title,
  count(*) AS attempts,
  count(completed_at) AS completed_attempts,
  min(started_at) AS first_started_at,
  min(completed_at) AS first_completed_at,
  min(attempt) FILTER (WHERE completed_at IS NOT NULL) AS attempts_to_complete,
  date_diff('second', min(started_at), min(completed_at)) / 86400 AS days_to_complete,
  max(score) FILTER (WHERE completed_at IS NOT NULL) AS best_score,
  arg_max(score, attempt) AS last_score
FROM ordered
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
) AS product ON product.product_id = ordered.product_id
LEFT JOIN "user" ON "user".user_id = ordered.user_id
GROUP BY ordered.user_id, "user".firstname, "user".lastname, "user".email, ordered.product_id,
         product.shown_title, product.product_id
ORDER BY ordered.user_id, ordered.product_id
