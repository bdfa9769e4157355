/**
 * The fewest requests a full extract of a database's content needs: one token, every list page,
 * at least one take page per user, one lookup per referenced product or availability group.
 * Computed from what was loaded, so it is an independent check of the extractor's request count.
 * A list of n records takes one page of `size`, then pages of size - 1 new records each: every
 * page after the first starts on the last record of the one before, so that a list that moved
 * while it was read is noticed, and a list of several pages asks for page one again once they are
 * in, to see that it kept its order (src/api/paginate.ts).
 */
import type { DuckDBConnection } from "@duckdb/node-api";

/** Pages of a list of `count` records (a SQL expression), as src/api/paginate.ts asks for them. */
function pages(count: string): string {
  return `CASE WHEN ${count} <= $size THEN 1
    ELSE 2 + ceil((${count} - $size) / greatest($size - 1, 1)) END`;
}

export async function minimumRequests(
  connection: DuckDBConnection,
  pageSize: number,
): Promise<number> {
  const reader = await connection.runAndReadAll(
    `WITH lists AS (
       SELECT ${pages("count(*)")} AS n FROM grp
       UNION ALL SELECT ${pages("count(*)")} FROM user_grp
       UNION ALL SELECT ${pages("count(*)")} FROM product_access
       UNION ALL SELECT ${pages("count(*)")} FROM svc_availability),
     users AS (
       SELECT user_grp_user_id AS id FROM user_grp WHERE user_grp_user_id IS NOT NULL
       UNION SELECT product_access_user_id FROM product_access WHERE product_access_user_id IS NOT NULL),
     take_pages AS (
       SELECT ${pages("count(t.take_id)")} AS n
       FROM users u LEFT JOIN take t ON t.take_user_id = u.id GROUP BY u.id),
     groups AS (
       SELECT DISTINCT svc_availability_target_id FROM svc_availability
       WHERE svc_availability_target_type = 'availability_group' AND svc_availability_target_id IS NOT NULL),
     products AS (
       SELECT product_access_product_id AS id FROM product_access WHERE product_access_product_id IS NOT NULL
       UNION SELECT take_product_id FROM take WHERE take_product_id IS NOT NULL
       UNION SELECT availability_group_product_id FROM availability_group WHERE availability_group_product_id IS NOT NULL
       UNION SELECT svc_availability_target_id FROM svc_availability
       WHERE svc_availability_target_type = 'product' AND svc_availability_target_id IS NOT NULL)
     SELECT (1
       + (SELECT sum(n) FROM lists)
       + (SELECT coalesce(sum(n), 0) FROM take_pages)
       + (SELECT count(*) FROM groups)
       + (SELECT count(*) FROM products))::BIGINT`,
    { size: pageSize },
  );
  return Number(reader.getRows()[0]?.[0] ?? 0);
}
