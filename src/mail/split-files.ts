/**
 * The files of one recipient's share of a split report: the report's own export, narrowed to that
 * recipient's rows, written in the attached formats under `<out>/split/<address>/` (rows without
 * an address under `<out>/split/unassigned/`) with the whole report's file names, so each
 * attachment is byte for byte a file on disk. Queries of the report without the split column are
 * left out of these files: their rows cannot be told apart by recipient.
 */
import { join } from "node:path";
import { prepareOutputDir } from "../report/output-files.js";
import type { PreparedJob } from "../report/prepare-job.js";
import type { ReportJob } from "../report/report-jobs.js";
import type { ReportSource } from "../report/report-source.js";
import type { BoundQuery } from "../report/run-query.js";
import { writeJobFiles } from "../report/run-report.js";
import { isEarlierAddressKey, isMailAddress, normaliseAddress } from "./address.js";
import type { JobMail } from "./job-mail.js";
import { narrowQuery, type SplitAddresses, type SplitGroup, type SplitSource } from "./split.js";

/** The folder, below the output folder, of per-recipient files. */
const SPLIT_DIR = "split";
/** The share of the rows without an address. */
const UNASSIGNED = "unassigned";

/** The folder holding every share's folder. */
export function splitFolder(outDir: string): string {
  return join(outDir, SPLIT_DIR);
}

/** The folder of one share's files: its address's, or `unassigned` for the rows without one. */
export function shareFolder(outDir: string, address: string | undefined): string {
  return join(splitFolder(outDir), address ?? UNASSIGNED);
}

/**
 * Whether `name` is one a share's folder is given: an address as the split writes it, or as an
 * earlier version wrote it (its domain in ASCII form, isEarlierAddressKey), a folder no run writes
 * any more, so that it goes as the shares of recipients who left do.
 */
export function isShareFolderName(name: string): boolean {
  if (name === UNASSIGNED) return true;
  return isMailAddress(name) && (normaliseAddress(name) === name || isEarlierAddressKey(name));
}

export interface SplitFiles {
  files: string[];
  rows: Record<string, number>;
  /** The queries narrowed to this share (those with the split column), for the message body. */
  bound: BoundQuery[];
}

/**
 * Writes `group`'s share. `split.sources` are the report's queries with the split column, by
 * name (the only ones its files hold); `split.spellings` every address of the column as its rows
 * spell it;
 * `split.description` the report's description as the share gives it (share-description.ts).
 */
export async function writeSplitFiles(
  db: ReportSource,
  job: ReportJob,
  mail: JobMail,
  group: SplitGroup,
  split: {
    spellings: SplitAddresses["spellings"];
    sources: ReadonlyMap<string, SplitSource>;
    description: string;
    /** Which rows the share holds (shareRows), for its About sheet and page. */
    rows: string;
    /** The report's job, prepared once for all its shares. */
    prepared: PreparedJob;
  },
  options: {
    outDir: string;
    now: Date;
    neutraliseFormulas?: boolean;
    csvBom?: boolean;
    signal?: AbortSignal;
  },
): Promise<SplitFiles> {
  const column = mail.splitBy as string;
  const outDir = shareFolder(options.outDir, group.address);
  await prepareOutputDir(outDir, "share");
  let narrowed: BoundQuery[] = [];
  const result = await writeJobFiles(
    db,
    {
      ...job,
      description: split.description,
      share: split.rows,
      formats: job.formats.filter((f) => mail.attach.includes(f)),
    },
    {
      outDir,
      now: options.now,
      // The roster's coverage is the whole report's: it was said once, not per recipient.
      roster: undefined,
      // So is the count of people left out as gone: over the whole report, not the manager's
      // people; a share saying "82 left out" would read as 82 of theirs. The whole report says it.
      leftPeople: [],
      prepared: split.prepared,
      ...(options.neutraliseFormulas === undefined
        ? {}
        : { neutraliseFormulas: options.neutraliseFormulas }),
      ...(options.csvBom === undefined ? {} : { csvBom: options.csvBom }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      select: async (_connection, bound) => {
        narrowed = bound.flatMap((b) => {
          const source = split.sources.get(b.query.name);
          if (source === undefined) return [];
          return [narrowQuery({ ...source, bound: b }, column, group, split)];
        });
        return narrowed;
      },
    },
  );
  if (narrowed.length === 0) {
    throw new Error(`query ${job.queries[0]?.name} lost its split column`);
  }
  return { files: result.files, rows: result.rows, bound: narrowed };
}
