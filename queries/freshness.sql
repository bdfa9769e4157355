-- title: Data freshness per resource
-- description: One row per extracted table: its rows now, the last successful extract run that
--   loaded it (run id, mode, start and finish time in UTC, records that run loaded) and how many
--   days before today that run finished, plus the latest run of any outcome that touched the
--   resource (to see a failing extract). From _runs and _run_resources.
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
         row_number() OVER (PARTITION BY _run_resources.resource, _runs.status = 'succeeded'
                            ORDER BY _runs.run_id DESC) AS newest
  FROM _run_resources JOIN _runs ON _runs.run_id = _run_resources.run_id
),
loaded AS (SELECT * FROM runs WHERE status = 'succeeded' AND newest = 1),
attempted AS (
  SELECT resource, arg_max(run_id, run_id) AS run_id, arg_max(status, run_id) AS status
  FROM runs GROUP BY resource
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
