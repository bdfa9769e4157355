/**
 * hyparquet (pure JavaScript), the lake's independent reader: it shares no code with DuckDB,
 * which writes the files. `readHive` adds the Hive keys of each file's path as columns, the way
 * Spark, Trino or Polars read such a folder.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import {
  asyncBufferFromFile,
  parquetMetadataAsync,
  parquetReadObjects,
  parquetSchema,
} from "hyparquet";
import { compressors } from "hyparquet-compressors";

export type ParquetRecord = Record<string, unknown>;

export interface ParquetTable {
  readonly height: number;
  readonly columns: string[];
  readonly records: ParquetRecord[];
}

/** One Parquet file: its column names and rows. */
export async function readParquet(path: string): Promise<ParquetTable> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const columns = parquetSchema(metadata).children.map((child) => child.element.name);
  const records = (await parquetReadObjects({ file, metadata, compressors })) as ParquetRecord[];
  return { height: records.length, columns, records };
}

/** Every `.parquet` file below `dir/table`, rows with their path's `key=value` folders as columns. */
export async function readHive(dir: string, table: string): Promise<ParquetRecord[]> {
  const rows: ParquetRecord[] = [];
  const walk = async (folder: string, keys: ParquetRecord): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const pair = /^([^=]+)=(.*)$/.exec(entry.name);
      if (entry.isDirectory())
        await walk(path, pair ? { ...keys, [pair[1] as string]: pair[2] } : keys);
      else if (entry.name.endsWith(".parquet")) {
        for (const record of (await readParquet(path)).records) rows.push({ ...record, ...keys });
      }
    }
  };
  await walk(join(dir, table), {});
  return rows;
}
