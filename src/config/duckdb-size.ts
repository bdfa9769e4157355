/**
 * A size DuckDB accepts for its memory ceiling, e.g. 512MB, 1.5GB, 2GiB. Checked where the
 * setting is read and again where it is used: the value ends up in a SET statement.
 */
export const DUCKDB_SIZE = /^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i;
