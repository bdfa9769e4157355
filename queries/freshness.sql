-- title: Data freshness per resource
-- description: One row per extracted table: its rows now, the last successful extract run that
--   loaded it (run id, mode, start and finish time in UTC, records that run loaded) and how many
--   days before today that run finished, plus the latest run of any outcome (failed, interrupted,
--   running) that was asked to extract the resource (to see a failing extract, even one that
--   failed before it loaded anything). From _runs and _run_resources.
-- param today date = today: Reference day (UTC) for days_since_load.
WITH tables(resource, table_rows) AS (
  SELECT 'grp', count(*) FROM grp
  UNION ALL SELECT 'user_grp', count(*) FROM user_grp
  UNION ALL SELECT 'product_access', count(*) FROM product_access
  UNION ALL SELECT 'svc_availability', count(*) FROM svc_availability
  UNION ALL SELECT 'take', count(*) FROM take
  UNION ALL SELECT 'availability_group', count(*) FROM availability_group
  UNION ALL SELECT 'product', count(*) FROM product
),
runs AS (
  SELECT _run_resources.resource, _runs.run_id, _runs.mode, _runs.status, _runs.started_at,
         _runs.finished_at, _run_resources.records,
         row_number() OVER (PARTITION BY _run_resources.resource ORDER BY _runs.run_id DESC) AS newest
  FROM _run_resources JOIN _runs ON _runs.run_id = _run_resources.run_id
  WHERE _runs.status = 'succeeded'
),
loaded AS (SELECT * FROM runs WHERE newest = 1),
-- A run that fails before its merge writes no _run_resources rows: the resources a run was asked
-- for are those its options record (`--only`), else those it has figures for, else all of them.
asked AS (
  SELECT _runs.run_id, _runs.status,
         CASE WHEN json_type(_runs.options, '$.resources') = 'ARRAY'
              THEN json_extract_string(_runs.options, '$.resources[*]')
              ELSE figures.resources END AS resources
  FROM _runs
  LEFT JOIN (SELECT run_id, list(resource) AS resources FROM _run_resources GROUP BY run_id) AS figures
    ON figures.run_id = _runs.run_id
),
attempted AS (
  SELECT tables.resource, max(asked.run_id) AS run_id, arg_max(asked.status, asked.run_id) AS status
  FROM tables JOIN asked
    ON asked.resources IS NULL OR list_contains(asked.resources, tables.resource)
  GROUP BY tables.resource
)
SELECT
  tables.resource,
  tables.table_rows,
  loaded.run_id AS last_run_id,
  loaded.mode AS last_run_mode,
  loaded.started_at AS run_started_at,
  loaded.finished_at AS run_finished_at,
  loaded.records AS records_loaded,
  $today - CAST(loaded.finished_at AS DATE) AS days_since_load,
  attempted.run_id AS last_attempt_run_id,
  attempted.status AS last_attempt_status
FROM tables
LEFT JOIN loaded ON loaded.resource = tables.resource
LEFT JOIN attempted ON attempted.resource = tables.resource
ORDER BY tables.resource
